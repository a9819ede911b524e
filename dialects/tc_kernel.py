"""What the tc ops ask of the kernel that holds them: its target, body, name and GEMM
schedule; and the one check of a kernel's tc attributes (`check_kernel_attributes`)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_schedule import GemmSchedule, GemmScheduleAttr
from lower_tc.layout import LayoutError
from lower_tc.layout.targets import Arch, KERNEL_TARGETS


#: Target attribute on a kernel function.
TARGET_ATTR = "tc.target"
#: The kernel's launch grid: ``tc.grid = [x, y, z]`` (docs/gemm.md).
GRID_ATTR = "tc.grid"
#: How a loop-level GEMM kernel runs: ``tc.schedule = #tc.gemm_schedule<...>``.
SCHEDULE_ATTR = "tc.schedule"
#: Every tc attribute a kernel may carry; any other ``tc.`` name is refused.
KERNEL_ATTRS = (TARGET_ATTR, GRID_ATTR, SCHEDULE_ATTR)
#: The kernel attributes #tc.gemm_schedule replaced, and their entries in it.
OLD_KERNEL_ATTRS = {
    "tc.persistent": "persistent",
    "tc.mma_depth": "mma_depth",
    "tc.cluster": "cluster",
    "tc.epilogue": "epilogue",
    "tc.l2_promotion": "l2_promotion",
}


def tc_kernels(root: Operation) -> list[Operation]:
    """The tile kernels under `root`: ops carrying ``tc.target`` whose body is one
    block (``func.func``, ``gpu.func``, or any function-like op of another dialect).
    Every pass finds its kernels here, so each kernel's tc attributes are checked here
    (`check_kernel_attributes`): a bad one is a located error at the kernel."""
    kernels = [
        op for op in root.walk()
        if TARGET_ATTR in op.attributes and len(op.regions) == 1 and len(op.regions[0].blocks) == 1
    ]
    for kernel in kernels:
        check_kernel_attributes(kernel)
    return kernels


def check_kernel_attributes(kernel: Operation) -> None:
    """A kernel's ``tc.`` attributes are tc.target, tc.grid and tc.schedule (a
    #tc.gemm_schedule that suits the target); the attributes it replaced get a message
    that says what to write instead, any other ``tc.`` name is unknown. Other dialects'
    attributes pass."""
    old = [name for name in kernel.attributes if name in OLD_KERNEL_ATTRS]
    schedule = kernel.attributes.get(SCHEDULE_ATTR)
    if old or isinstance(schedule, StringAttr):
        error_at(kernel, _old_attributes_message(kernel))
    for name in kernel.attributes:
        if name.startswith("tc.") and name not in KERNEL_ATTRS:
            error_at(kernel, f"unknown kernel attribute {name} (a tc kernel carries {', '.join(KERNEL_ATTRS)})")
    try:
        kernel_schedule(kernel)
    except VerifyException as err:
        error_at(kernel, str(err))


def _old_attributes_message(kernel: Operation) -> str:
    """What to write instead of the separate kernel attributes of the GEMM options."""
    attrs = kernel.attributes
    schedule = attrs.get(SCHEDULE_ATTR)
    given = [f"{SCHEDULE_ATTR} = {schedule}"] if isinstance(schedule, StringAttr) else []
    entries: list[str] = []
    for name, key in OLD_KERNEL_ATTRS.items():
        if name not in attrs:
            continue
        attr = attrs[name]
        given.append(name if isinstance(attr, UnitAttr) else f"{name} = {attr}")
        entries.append(key if key == "persistent" else f"{key} = {_entry_value(attr)}")
    if isinstance(schedule, StringAttr):
        name = schedule.data
    else:  # these options need warp specialisation; the others keep the default schedule
        name = "warp_specialized" if {"tc.persistent", "tc.mma_depth", "tc.cluster"} & attrs.keys() else "pipelined"
    return (f"{', '.join(given)}: the GEMM options are one kernel attribute now: write "
            f"{SCHEDULE_ATTR} = #tc.gemm_schedule<{', '.join([name, *entries])}>")


def _entry_value(attr: Attribute) -> str:
    if isinstance(attr, IntegerAttr):
        return str(attr.value.data)
    if isinstance(attr, StringAttr):
        return attr.data
    return str(attr)


def kernel_schedule(kernel: Operation) -> GemmSchedule:
    """How the loop-level GEMM `kernel` runs: its ``tc.schedule`` (a #tc.gemm_schedule)
    with the defaults filled in, or every default without one. The GEMM lowering reads
    its options here only. Raises VerifyException where tc.schedule is not a
    #tc.gemm_schedule, or where an option does not suit the kernel's target."""
    attr = kernel.attributes.get(SCHEDULE_ATTR)
    if attr is None:
        return GemmSchedule()
    if not isinstance(attr, GemmScheduleAttr):
        raise VerifyException(f"{SCHEDULE_ATTR} is a #tc.gemm_schedule<...>, not {attr}")
    schedule = attr.value
    target = kernel.attributes.get(TARGET_ATTR)
    if isinstance(target, StringAttr) and target.data != Arch.SM90A.value and schedule.mma_depth != 1:
        raise VerifyException("mma_depth counts wgmma groups: the warp-specialised tcgen05 GEMM (sm_100a) has none")
    return schedule


def kernel_name(kernel: Operation) -> str:
    """The kernel's symbol name (its ``sym_name``, property or attribute)."""
    name = kernel.properties.get("sym_name") or kernel.attributes.get("sym_name")
    if not isinstance(name, StringAttr):
        raise VerifyException(f"the kernel ({kernel.name}) has no sym_name")
    return name.data


def kernel_body(kernel: Operation) -> Block:
    """The kernel's one block, whose arguments are its global operands."""
    return kernel.regions[0].blocks[0]


def parse_kernel_target(text: str) -> Arch:
    """A `tc.target` value: one of the targets lower-tc compiles kernels for."""
    known = ", ".join(a.value for a in KERNEL_TARGETS)
    try:
        arch = Arch.parse(text)
    except LayoutError:
        raise VerifyException(f"unknown target '{text}' (known: {known})") from None
    if arch not in KERNEL_TARGETS:
        raise VerifyException(
            f"lower-tc compiles kernels for {known}; {arch} is known to the "
            "descriptor tools (lower-tc desc) only"
        )
    return arch


def in_gemm_kernel(op: Operation) -> bool:
    """Whether `op` is in a loop-level GEMM kernel (one whose body holds an scf.for):
    there each warpgroup owns 64 rows of a taller tile."""
    parent = op.parent_op()
    while parent is not None and TARGET_ATTR not in parent.attributes:
        parent = parent.parent_op()
    if parent is None or len(parent.regions) != 1 or not parent.regions[0].blocks:
        return False
    return any(o.name == "scf.for" for o in parent.regions[0].blocks[0].ops)


def kernel_target(op: Operation) -> Arch | None:
    """The target of the kernel that holds `op` (the nearest `tc.target`)."""
    parent = op.parent_op()
    while parent is not None:
        attr = parent.attributes.get(TARGET_ATTR)
        if isinstance(attr, StringAttr):
            return parse_kernel_target(attr.data)
        parent = parent.parent_op()
    return None


def _check_target(op: Operation, arch: Arch) -> None:
    target = kernel_target(op)
    if target is not None and target is not arch:
        raise VerifyException(f"{op.name} needs target {arch}, but the kernel targets {target}")
