"""The caller's arrays checked against a kernel's arguments, before anything is launched.

Each argument (`ArrayView`, lowering/runtime/arrays.py) must have the kernel argument's
element type (an f32 array for a tf32 argument), be a 2-D matrix (or, for a batched
argument, a 3-D batch of matrices) of its static sizes, be laid out as the kernel reads
it (row-major: column stride 1; column-major: row stride 1, the other stride the leading
dimension, at least the contiguous extent and equal to the kernel's where it has one; a
batch's first stride its batch stride, the kernel's where it has one), start on a
16-byte boundary (TMA's rule for global addresses), and lie on the one device all
arguments share. An output must be writable and its memory must not overlap any other
argument's (the spans of their bytes are compared, so two disjoint column blocks of one
matrix count as overlapping); a batched output's matrices must not overlap one another
(resolve_sizes checks its batch stride). A dimension of extent 1 has no stride to check;
its leading dimension is the kernel's, or the contiguous extent rounded up to 16 bytes,
and a batch of one matrix has no batch stride to check. A batch that holds one matrix
(a batch of 1, or an input's expanded view with batch stride 0) is taken for an argument
that is one matrix for every batch: a 2-D argument, or a 3-D one compiled with a batch
of 1.

The sizes known only at launch come back as `Shape`s for `resolve_sizes`
(lowering/runtime/sizes.py: a `BatchShape` for a batch), which checks them against the
kernel's limits.
"""

from __future__ import annotations

from collections.abc import Sequence

from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
from lower_tc.lowering.runtime.arrays import ArrayView
from lower_tc.lowering.runtime.errors import ArgumentCountError, ArgumentError, DeviceError
from lower_tc.lowering.runtime.sizes import BatchShape, Shape

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
    batch = "batch_stride, " if a.batched else ""
    return f"row-major, strides ({batch}ld, 1)" if a.row_major else f"column-major, strides ({batch}1, ld)"


def _dims(a: ArgInfo) -> str:
    return "x".join("?" if n is None else str(n) for n in a.shape)


def _check_one(a: ArgInfo, v: ArrayView) -> Shape:
    name = arg_name(a)
    if v.dtype != a.dtype and not (a.dtype == "tf32" and v.dtype == "f32"):
        want = "tf32 (an f32 array)" if a.dtype == "tf32" else a.dtype
        raise ArgumentError(f"argument {name}: the kernel takes {want} elements, not {v.dtype}", name)
    shape, strides = _as_argument(a, v)
    if min(shape) < 1:
        raise ArgumentError(f"argument {name} is {'x'.join(map(str, shape))}: the kernel's sizes are positive", name)
    for want, got in zip(a.shape, shape):
        if want is not None and want != got:
            raise ArgumentError(f"argument {name}: the kernel takes {_dims(a)}, not {'x'.join(map(str, shape))}", name)
    rows, cols = shape[-2:]
    ld = _leading_dimension(a, v, (rows, cols), strides[-2:])
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
    if len(a.shape) == 4:  # a batch of batches: compiled for these strides exactly
        for n, want, got in zip(shape[:2], a.strides[:2], strides[:2]):
            if n > 1 and want != got:
                raise ArgumentError(f"argument {name}: the kernel was compiled for strides {a.strides} (in elements); "
                                    f"the array's are {tuple(strides)}", name)
        return rows, cols, ld
    if not a.batched:
        return rows, cols, ld
    batch = shape[0]
    return BatchShape(batch, rows, cols, ld, _batch_stride(a, batch, strides[0], (rows if a.row_major else cols) * ld, v))


def _as_argument(a: ArgInfo, v: ArrayView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The array's shape and strides in the argument's rank. A leading batch dimension
    that holds one matrix reads as that matrix: a batch of 1, or an input's expanded view
    (batch stride 0), for a 2-d argument (one matrix for every batch) or a 3-d one
    compiled with a batch of 1; a 2-d array for such a 3-d argument is its batch of 1."""
    name = arg_name(a)
    if len(v.shape) == len(a.shape):
        if a.batched and a.batch == 1 and v.shape[0] > 1 and v.strides[0] == 0 and not a.output:
            return (1, *v.shape[1:]), (0, *v.strides[1:])
        return v.shape, v.strides
    one_matrix = len(v.shape) == 3 and (v.shape[0] == 1 or (v.strides[0] == 0 and not a.output))
    if not a.batched and one_matrix:
        return v.shape[1:], v.strides[1:]
    if a.batched and a.batch == 1 and len(v.shape) == 2:
        return (1, *v.shape), (0, *v.strides)
    if a.batched:
        raise ArgumentError(
            f"argument {name}: the kernel takes a batch of matrices ({_dims(a)}), not an array of shape {v.shape}", name,
        )
    hint = (" (a batch of one matrix, or an input's expanded view with batch stride 0, reads as its matrix)"
            if len(v.shape) == 3 else "")
    raise ArgumentError(f"argument {name}: the kernel takes a matrix ({_dims(a)}), not an array of shape {v.shape}{hint}", name)


def _batch_stride(a: ArgInfo, batch: int, stride: int, extent: int, v: ArrayView) -> int:
    """The array's batch stride, checked against the kernel's: any where the batch holds
    one matrix (the kernel's, else the dense one `extent` stands in, as it is never
    stepped); else at least 0, and the kernel's where it has one. Whether it suits the
    kernel (not 0, an output's matrices apart, TMA's rules) is resolve_sizes' to say."""
    name = arg_name(a)
    fixed = a.batch_stride
    if batch == 1:
        return fixed if fixed is not None else extent
    if stride < 0:
        raise ArgumentError(f"argument {name}: its batch stride is {stride} (strides {v.strides}): the kernel steps "
                            "batches forward; pass a contiguous copy", name)
    if fixed is not None and stride != fixed:
        raise ArgumentError(
            f"argument {name}: the kernel was compiled for a batch stride of {fixed} elements; "
            f"the array's is {stride} (strides {v.strides})", name,
        )
    return stride


def _leading_dimension(a: ArgInfo, v: ArrayView, shape: tuple[int, int], strides: tuple[int, int]) -> int:
    """The array's leading dimension (of each matrix: `shape` and `strides` are a matrix's),
    checked against the layout the kernel reads."""
    name = arg_name(a)
    rows, cols = shape
    s0, s1 = strides
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
