"""What the tc ops ask of the kernel that holds them: its target, body, name and GEMM
schedule; and the one check of what makes an op a kernel and of its tc attributes
(`tc_kernels`: `check_kernel`, `check_kernel_attributes`)."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IntegerAttr, StringAttr, UnitAttr, i64
from xdsl.ir import Attribute, Block, Operation
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_schedule import GemmSchedule, GemmScheduleAttr
from lower_tc.layout import LayoutError
from lower_tc.layout.fp8_accumulation import PROMOTED_TARGET
from lower_tc.layout.split_k import SPLIT_K_TARGET
from lower_tc.layout.targets import Arch, KERNEL_TARGETS


#: Target attribute on a kernel function.
TARGET_ATTR = "tc.target"
#: The kernel's launch grid: ``tc.grid = [x, y, z]`` (docs/gemm.md).
GRID_ATTR = "tc.grid"
#: How a loop-level GEMM kernel runs: ``tc.schedule = #tc.gemm_schedule<...>``.
SCHEDULE_ATTR = "tc.schedule"
#: An attention kernel whose consumer warpgroups take turns at the tensor cores
#: (ping-pong): ``tc.pingpong``, a unit attribute (docs/attention.md, "Ping-pong").
PINGPONG_ATTR = "tc.pingpong"
#: Every tc attribute a kernel may carry; any other ``tc.`` name is refused.
KERNEL_ATTRS = (TARGET_ATTR, GRID_ATTR, SCHEDULE_ATTR, PINGPONG_ATTR)
#: The kernel attributes #tc.gemm_schedule replaced, and their entries in it.
OLD_KERNEL_ATTRS = {
    "tc.persistent": "persistent",
    "tc.mma_depth": "mma_depth",
    "tc.cluster": "cluster",
    "tc.epilogue": "epilogue",
    "tc.l2_promotion": "l2_promotion",
}


#: Where passes that unroll scf.for or turn it into branches go: the kernels' loops are
#: lowered by tc-lower-to-ptx and ptx-lower-loops (its own loops become labels there).
SCF_PASSES_LAST = "run scf-for-loop-unroll or convert-scf-to-cf after ptx-lower-loops, not before"


def tc_kernels(root: Operation) -> list[Operation]:
    """The tile kernels under `root`: ops carrying ``tc.target``, each a function with a
    name and a body of one block (``func.func``, ``gpu.func``, or any function-like op of
    another dialect). Every pass finds its kernels here, so what makes an op a kernel and
    each kernel's tc attributes are checked here (`check_kernel`,
    `check_kernel_attributes`): a bad one is a located error at the op."""
    kernels = [op for op in root.walk() if TARGET_ATTR in op.attributes]
    for kernel in kernels:
        check_kernel(kernel)
        check_kernel_attributes(kernel)
    return kernels


#: A PTX identifier (PTX ISA, "Identifiers": [a-zA-Z]{followsym}* or [_$%]{followsym}+,
#: followsym = [a-zA-Z0-9_$]). lower-tc leaves out the leading %, which PTX keeps for
#: registers, since a kernel's tables are named after it (lower_tc_<kernel>_table_<i>).
PTX_IDENTIFIER = re.compile(r"[a-zA-Z][a-zA-Z0-9_$]*|[_$][a-zA-Z0-9_$]+")
PTX_IDENTIFIER_RULE = "[a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+"
#: PTX's predefined identifiers that are not special registers (PTX ISA, "Predefined
#: Identifiers"): a kernel cannot take their names.
PTX_PREDEFINED = ("WARP_SZ",)


def check_kernel(op: Operation) -> None:
    """What makes an op with ``tc.target`` a kernel: one region of one block (the
    kernel's arguments are that block's), and a name that is a PTX identifier (the
    kernel becomes the PTX entry of that name). Located errors at the op."""
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    what = f"@{name.data}" if isinstance(name, StringAttr) else f"'{op.name}'"
    if op.has_trait(SymbolTable):
        error_at(op, f"{what} carries {TARGET_ATTR}, which marks a kernel: put it on each kernel function, not on a module")
    if len(op.regions) != 1:
        error_at(op, f"{what} carries {TARGET_ATTR}, which marks a kernel: a function with a body (func.func, gpu.func)")
    blocks = len(op.regions[0].blocks)
    if blocks == 0:
        error_at(op, f"{what} carries {TARGET_ATTR} but has no body: a declaration is not a kernel")
    if blocks > 1:
        error_at(op, f"{what} carries {TARGET_ATTR} but its body has {blocks} blocks: a kernel's body is one "
                     f"block, its loops scf.for ({SCF_PASSES_LAST})")
    if not isinstance(name, StringAttr):
        error_at(op, f"{what} carries {TARGET_ATTR} but has no name (sym_name): a kernel is a named function")
    if not PTX_IDENTIFIER.fullmatch(name.data):
        error_at(op, f"the kernel's name '{name.data}' is not a PTX identifier ({PTX_IDENTIFIER_RULE}): "
                     "it becomes the PTX entry's name")
    if name.data in PTX_PREDEFINED:
        error_at(op, f"the kernel's name '{name.data}' is predefined in PTX: it becomes the PTX entry's name")


def check_kernel_attributes(kernel: Operation) -> None:
    """A kernel's ``tc.`` attributes are tc.target, tc.grid, tc.schedule (a
    #tc.gemm_schedule that suits the target) and, on an attention kernel, tc.pingpong
    (a flag); the attributes the schedule replaced get a message
    that says what to write instead, any other ``tc.`` name is unknown. Other dialects'
    attributes pass. tc.target is a string naming a target lower-tc compiles for."""
    target = kernel.attributes[TARGET_ATTR]
    if not isinstance(target, StringAttr):
        error_at(kernel, f'{TARGET_ATTR} is a string such as "sm_90a", not {_written(target)}')
    try:
        parse_kernel_target(target.data)
    except VerifyException as err:
        error_at(kernel, str(err))
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
    pingpong = kernel.attributes.get(PINGPONG_ATTR)
    if pingpong is not None:
        if not isinstance(pingpong, UnitAttr):
            error_at(kernel, f"{PINGPONG_ATTR} is a flag (a unit attribute), not {_written(pingpong)}")
        body = kernel.regions[0].blocks[0].ops if kernel.regions and kernel.regions[0].blocks else ()
        if not (is_attention_loop(kernel) or any(o.name == "tc.attention" for o in body)):
            error_at(kernel, f"{PINGPONG_ATTR} is for attention kernels (tc.attention, or a loop carrying !tc.rows): "
                             "their consumer warpgroups take turns at the tensor cores")


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
        given.append(name if isinstance(attr, UnitAttr) else f"{name} = {_written(attr)}")
        entries.append(key if key == "persistent" else f"{key} = {_entry_value(attr)}")
    if isinstance(schedule, StringAttr):
        name = schedule.data
    else:  # these options need warp specialisation; the others keep the default schedule
        name = "warp_specialized" if {"tc.persistent", "tc.mma_depth", "tc.cluster"} & attrs.keys() else "pipelined"
    return (f"{', '.join(given)}: the GEMM options are one kernel attribute now: write "
            f"{SCHEDULE_ATTR} = #tc.gemm_schedule<{', '.join([name, *entries])}>")


def _written(attr: Attribute) -> str:
    """An attribute as it was written: an integer without its type (``2``, not ``2 : i64``)."""
    if isinstance(attr, IntegerAttr) and attr.type == i64:
        return str(attr.value.data)
    return str(attr)


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
    if isinstance(target, StringAttr) and target.data != Arch.SM90A.value and schedule.split_k != 1:
        raise VerifyException(SPLIT_K_TARGET)
    if isinstance(target, StringAttr) and target.data != Arch.SM90A.value and schedule.promoted:
        raise VerifyException(PROMOTED_TARGET)
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


def enclosing_kernel(op: Operation) -> Operation | None:
    """The kernel that holds `op`: its nearest ancestor carrying ``tc.target``."""
    parent = op.parent_op()
    while parent is not None and TARGET_ATTR not in parent.attributes:
        parent = parent.parent_op()
    return parent


def in_gemm_kernel(op: Operation) -> bool:
    """Whether `op` is in a loop-level GEMM kernel (one whose body holds an scf.for):
    there each warpgroup owns 64 rows of a taller tile."""
    parent = enclosing_kernel(op)
    if parent is None or len(parent.regions) != 1 or not parent.regions[0].blocks:
        return False
    return any(o.name == "scf.for" for o in parent.regions[0].blocks[0].ops)


def is_attention_loop(kernel: Operation | None) -> bool:
    """Whether `kernel` is a loop-level attention kernel: its body's scf.for carries a
    `!tc.rows` (the online softmax's running maximum or sum) beside O. Its loop is over
    blocks of keys, not K, and every warpgroup owns 64 rows of the query block."""
    if kernel is None or len(kernel.regions) != 1 or not kernel.regions[0].blocks:
        return False
    return any(
        o.name == "scf.for" and any(getattr(a.type, "name", "") == "tc.rows" for a in o.operands)
        for o in kernel.regions[0].blocks[0].ops
    )


def in_attention_loop(op: Operation) -> bool:
    """Whether `op` is in a loop-level attention kernel (`is_attention_loop`)."""
    return is_attention_loop(enclosing_kernel(op))


def in_gemm_k_loop(op: Operation) -> bool:
    """Whether `op` is in a loop-level GEMM kernel whose loop is over K (`in_gemm_kernel`,
    not an attention loop)."""
    return in_gemm_kernel(op) and not in_attention_loop(op)


def lost_gemm_loop(kernel: Operation | None) -> str | None:
    """Why `kernel` is a loop-level GEMM whose K loop is gone (its windows, tc.window_load
    and tc.window_store, left in a body with no scf.for, or in more than one block:
    scf-for-loop-unroll or convert-scf-to-cf ran before tc-lower-to-ptx), or None. The
    verifiers and the lowering that would otherwise judge it a single tile say this."""
    if kernel is None or len(kernel.regions) != 1:
        return None
    blocks = kernel.regions[0].blocks
    if len(blocks) == 1 and any(o.name == "scf.for" for o in blocks[0].ops):
        return None
    if not any(o.name in ("tc.window_load", "tc.window_store") for o in kernel.walk()):
        return None
    return ("this kernel is a loop-level GEMM (it has tc.window_load/tc.window_store) whose K loop is no "
            f"longer an scf.for in its body: tc-lower-to-ptx pipelines that scf.for, so {SCF_PASSES_LAST}")


def kernel_target(op: Operation) -> Arch | None:
    """The target of the kernel that holds `op` (the nearest `tc.target`); None without
    one, or where it is not a string (`check_kernel_attributes` says so at the kernel)."""
    kernel = enclosing_kernel(op)
    if kernel is None:
        return None
    attr = kernel.attributes[TARGET_ATTR]
    return parse_kernel_target(attr.data) if isinstance(attr, StringAttr) else None


def _check_target(op: Operation, arch: Arch) -> None:
    target = kernel_target(op)
    if target is not None and target is not arch:
        raise VerifyException(f"{op.name} needs target {arch}, but the kernel targets {target}")
