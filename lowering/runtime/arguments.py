"""The caller's arrays checked against a kernel's arguments, before anything is launched.

Each argument (`ArrayView`, lowering/runtime/arrays.py) must have the kernel argument's
element type (an f32 array for a tf32 argument), be a 2-D matrix of its static sizes, be
laid out as the kernel reads it (row-major: column stride 1; column-major: row stride 1,
the other stride the leading dimension, at least the contiguous extent and equal to the
kernel's where it has one), start on a 16-byte boundary (TMA's rule for global
addresses), and lie on the one device all arguments share. An output must be writable and
its memory must not overlap any other argument's (the spans of their bytes are compared,
so two disjoint column blocks of one matrix count as overlapping). A dimension of extent
1 has no stride to check; its leading dimension is the kernel's, or the contiguous extent
rounded up to 16 bytes.

The sizes known only at launch come back as `Shape`s for `resolve_sizes`
(lowering/runtime/sizes.py), which checks them against the kernel's limits.
"""

from __future__ import annotations

from collections.abc import Sequence

from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
from lower_tc.lowering.runtime.arrays import ArrayView
from lower_tc.lowering.runtime.errors import ArgumentCountError, ArgumentError, DeviceError
from lower_tc.lowering.runtime.sizes import Shape

#: TMA reads and writes global memory from 16-byte-aligned addresses.
ALIGNMENT = 16


def arg_name(a: ArgInfo) -> str:
    """The kernel argument's name as written in the source (``A`` for ``p_A``)."""
    return a.param[2:]


def check_count(info: KernelInfo, given: int) -> None:
    if given != len(info.args):
        names = ", ".join(arg_name(a) for a in info.args)
        raise ArgumentCountError(
            f"kernel {info.name} takes {len(info.args)} arrays ({names}), not {given}"
        )


def check_arguments(info: KernelInfo, views: Sequence[ArrayView]) -> tuple[dict[str, Shape], int | None]:
    """Checks every argument (see the module's docstring); returns the sizes known only
    at launch, by argument name, and the device the arrays are on (None: no arrays).
    Raises ArgumentError naming the argument, DeviceError for arrays on two devices."""
    check_count(info, len(views))
    shapes: dict[str, Shape] = {}
    for a, v in zip(info.args, views):
        shape = _check_one(a, v)
        if not a.static:
            shapes[arg_name(a)] = shape
    device = _one_device(info, views)
    _check_overlaps(info, views)
    return shapes, device


def layout_name(a: ArgInfo) -> str:
    return "row-major, strides (ld, 1)" if a.row_major else "column-major, strides (1, ld)"


def _dims(a: ArgInfo) -> str:
    return "x".join("?" if n is None else str(n) for n in a.shape)


def _check_one(a: ArgInfo, v: ArrayView) -> Shape:
    name = arg_name(a)
    if v.dtype != a.dtype and not (a.dtype == "tf32" and v.dtype == "f32"):
        want = "tf32 (an f32 array)" if a.dtype == "tf32" else a.dtype
        raise ArgumentError(f"argument {name}: the kernel takes {want} elements, not {v.dtype}", name)
    if len(v.shape) != 2:
        raise ArgumentError(f"argument {name}: the kernel takes a matrix ({_dims(a)}), not an array of shape {v.shape}", name)
    rows, cols = v.shape
    if rows < 1 or cols < 1:
        raise ArgumentError(f"argument {name} is {rows}x{cols}: the kernel's sizes are positive", name)
    for want, got in zip(a.shape, v.shape):
        if want is not None and want != got:
            raise ArgumentError(f"argument {name}: the kernel takes {_dims(a)}, not {rows}x{cols}", name)
    ld = _leading_dimension(a, v)
    if v.ptr % ALIGNMENT:
        raise ArgumentError(
            f"argument {name}: its address {v.ptr:#x} is not a multiple of {ALIGNMENT} bytes (TMA's rule "
            "for global memory); a view that starts inside another array is the usual cause: pass a copy",
            name,
        )
    if a.output and v.readonly:
        raise ArgumentError(
            f"argument {name} is an output, and the array is read-only (a JAX array is immutable: "
            "pass a torch or CuPy array for it)", name,
        )
    return rows, cols, ld


def _leading_dimension(a: ArgInfo, v: ArrayView) -> int:
    """The array's leading dimension, checked against the layout the kernel reads."""
    name = arg_name(a)
    rows, cols = v.shape
    s0, s1 = v.strides
    across, along, extent, lines = (s1, s0, cols, rows) if a.row_major else (s0, s1, rows, cols)
    bad = (extent > 1 and across != 1) or (lines > 1 and along < extent)
    if bad or s0 < 0 or s1 < 0:
        raise ArgumentError(
            f"argument {name}: the kernel reads it {layout_name(a)} with ld >= {extent}; the array's "
            f"strides are {v.strides} elements" + _transpose_hint(a), name,
        )
    fixed = a.ld
    if lines == 1:  # no second row (column): any leading dimension reads the same bytes
        if fixed is not None:
            return fixed
        per = max(1, 128 // v.bits)  # elements in 16 bytes
        return -(-extent // per) * per
    if fixed is not None and along != fixed:
        raise ArgumentError(
            f"argument {name}: the kernel was compiled for a leading dimension of {fixed} elements; "
            f"the array's is {along} (strides {v.strides})", name,
        )
    return along


def _transpose_hint(a: ArgInfo) -> str:
    if a.row_major:
        return " (a transposed view is column-major: pass a contiguous copy)"
    return " (a column-major M x N matrix is the transpose of a row-major N x M one: x.T of a contiguous x)"


def _one_device(info: KernelInfo, views: Sequence[ArrayView]) -> int | None:
    if not views:
        return None
    first = views[0]
    for a, v in zip(info.args, views):
        if v.device_id != first.device_id:
            raise DeviceError(
                f"arguments {arg_name(info.args[0])} and {arg_name(a)} are on two devices "
                f"(GPU {first.device_id} and GPU {v.device_id}): a kernel runs on one"
            )
    return first.device_id


def _check_overlaps(info: KernelInfo, views: Sequence[ArrayView]) -> None:
    spans = [v.span() for v in views]
    for i, a in enumerate(info.args):
        if not a.output:
            continue
        for j, b in enumerate(info.args):
            if j == i:
                continue
            (lo, hi), (lo2, hi2) = spans[i], spans[j]
            if lo < hi2 and lo2 < hi:
                raise ArgumentError(
                    f"argument {arg_name(a)} is an output, and its memory [{lo:#x}, {hi:#x}) overlaps "
                    f"argument {arg_name(b)}'s [{lo2:#x}, {hi2:#x}): the kernel would read what it writes "
                    "(pass a separate output array)", arg_name(a),
                )


__all__ = ["ALIGNMENT", "arg_name", "check_arguments", "check_count", "layout_name"]
