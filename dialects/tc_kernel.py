"""What the tc ops ask of the kernel that holds them: its target, body and name."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation
from xdsl.utils.exceptions import VerifyException

from lower_tc.layout import LayoutError
from lower_tc.layout.targets import Arch, KERNEL_TARGETS


#: Shared memory one block may use on H100 and B200 (227 KiB).
SMEM_CAPACITY = 227 * 1024
#: Target attribute on a kernel function.
TARGET_ATTR = "tc.target"


def tc_kernels(root: Operation) -> list[Operation]:
    """The tile kernels under `root`: ops carrying ``tc.target`` whose body is one
    block (``func.func``, ``gpu.func``, or any function-like op of another dialect)."""
    return [
        op for op in root.walk()
        if TARGET_ATTR in op.attributes and len(op.regions) == 1 and len(op.regions[0].blocks) == 1
    ]


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
