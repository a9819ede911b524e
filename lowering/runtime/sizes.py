"""Sizes known only at launch: the `--shape` option (`NAME=ROWSxCOLS[@LD]` for a matrix,
`NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]]` for a batch of them), and a kernel's launch contract
with every such size filled in (`resolve_sizes`) and checked against the limits the kernel
and CUDA have (layout/limits.py), before anything is allocated or launched:

- every row count, column count, leading dimension and batch count is at least 1 and fits
  the 32-bit index arithmetic (MAX_INDEX), and so the .u32 size parameters (MAX_SIZE_PARAM),
  which also hold batch strides;
- a GEMM's tiles end inside that arithmetic too (the last tile's last row, column and K);
- its shapes make a GEMM: a batched A or B has D's batch, or is one matrix for every batch
  (2-d, or compiled with a batch of 1);
- the matrices of a batched output do not overlap (its batch stride is at least one
  matrix's extent, rows x ld for a row-major one, or its matrices lie side by side in rows);
- each TMA tensor map's global dimensions and strides are ones cuTensorMapEncodeTiled takes
  (a batch stride too: a multiple of 16 bytes below 2^40);
- the grid is within CUDA's limits (x up to 2^31 - 1, y and z up to 65535: a batch as the
  grid's z at most 65535 matrices).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple, Union

from lower_tc.layout import element_type
from lower_tc.layout.kernel_info import (
    SIZE_PARAM_KINDS, ArgInfo, GridEntry, GridFromArg, KernelInfo, SizeParam, TensorMap,
)
from lower_tc.layout.limits import (
    MAX_SIZE_PARAM, grid_problem, index_problem, tma_dim_problem, tma_stride_problem,
)
from lower_tc.layout.strided import distinct_elements
from lower_tc.lowering.runtime.errors import ShapeError


class BatchShape(NamedTuple):
    """A batch of matrices' sizes given at launch: the number of matrices, each one's rows
    and columns, the leading dimension and the batch stride in elements (None: the dense
    one, or the kernel's own where it has one)."""

    batch: int
    rows: int
    cols: int
    ld: int | None = None
    batch_stride: int | None = None


#: An argument's sizes given at launch: a matrix's (rows, cols, leading dimension or None
#: for the contiguous extent or the kernel's own), or a batch's (`BatchShape`).
Shape = Union[tuple[int, int, "int | None"], BatchShape]

#: What --shape takes, for its errors.
SHAPE_SYNTAX = "NAME=ROWSxCOLS[@LD] or NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]]"


def parse_shape(text: str) -> tuple[str, Shape]:
    """A --shape option as (NAME, sizes): ``NAME=ROWSxCOLS[@LD]`` gives (rows, cols, ld or
    None); ``NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]]`` a `BatchShape` (``@,BSTRIDE`` gives the
    batch stride alone)."""
    try:
        name, dims = text.split("=", 1)
        size, at, strides = dims.partition("@")
        sizes = [int(x) for x in size.lower().split("x")]
        ld_text, comma, stride_text = strides.partition(",")
        ld = int(ld_text) if ld_text else None
        stride = int(stride_text) if comma else None
        if len(sizes) not in (2, 3) or (at and not strides) or (comma and len(sizes) == 2):
            raise ValueError(text)
    except ValueError:
        raise ShapeError(f"--shape {text!r}: expected {SHAPE_SYNTAX}, e.g. A=4096x4096 or A=8x1024x1024") from None
    if any(n <= 0 for n in sizes) or (ld is not None and ld <= 0) or (stride is not None and stride <= 0):
        raise ShapeError(f"--shape {text!r}: sizes are positive")
    if not name.lstrip("%"):
        raise ShapeError(f"--shape {text!r}: no argument name before '='")
    if len(sizes) == 3:
        return name.lstrip("%"), BatchShape(sizes[0], sizes[1], sizes[2], ld, stride)
    return name.lstrip("%"), (sizes[0], sizes[1], ld)


def resolve_sizes(info: KernelInfo, shapes: dict[str, Shape] | None) -> KernelInfo:
    """The kernel's contract with every size known at launch filled in from `shapes`
    (argument name -> a matrix's rows, cols, leading dimension or None for the contiguous
    extent; a batch's `BatchShape`): argument shapes and strides, the TMA tensor maps, the
    grid, the GEMM's M, N, K and batch, and the values of the size parameters. A static
    contract comes back equal. Raises ShapeError, naming the argument, for sizes that do
    not fit the kernel or break a limit (see the module's docstring)."""
    shapes = dict(shapes or {})
    args = tuple(_resolve_arg(a, shapes.pop(a.param[2:], None)) for a in info.args)
    if shapes:
        raise ShapeError(f"--shape names no argument of kernel {info.name}: {', '.join(sorted(shapes))}", sorted(shapes)[0])
    size_params = None
    if info.size_params is not None:
        size_params = tuple(_resolve_size_param(p, args[p.arg]) for p in info.size_params)
    tensor_maps = tuple(_resolve_tensor_map(t, args[t.arg]) for t in info.tensor_maps)
    grid = None
    if info.grid is not None:  # a PersistentGrid entry stays: the launcher sizes it to the GPU
        x, y, z = (_resolve_grid(g, args) for g in info.grid)
        grid = (x, y, z)
    gemm = info.gemm
    if gemm is not None:
        d, a, b = args[gemm.d], args[gemm.a], args[gemm.b]
        a_rows, a_cols = _operand_shape(a, gemm.a_transposed)
        b_rows, b_cols = _operand_shape(b, gemm.b_transposed)
        c = args[gemm.c] if gemm.c is not None else d
        m, n = _operand_shape(d, gemm.d_transposed)
        k = a_cols
        if (a_rows, b_cols, b_rows, c.shape) != (m, n, k, d.shape):
            raise ShapeError(
                f"the shapes do not make a GEMM: A {_read_dims(a, a_rows, a_cols)}{_t(gemm.a_transposed)}, "
                f"B {_read_dims(b, b_rows, b_cols)}{_t(gemm.b_transposed)}, D {dims(d)}"
                + (f", C {dims(c)}" if c is not d else ""),
                _gemm_culprit((a_rows, a_cols), (b_rows, b_cols), a, b, c, d),
            )
        for role, index in (("A", gemm.a), ("B", gemm.b)):
            x = args[index]
            # one matrix for every batch: 2-d, or a batch of 1 compiled in
            if x.batch != d.batch and info.args[index].batch != 1:
                raise ShapeError(
                    f"the batches do not make a GEMM: {_role(role, x)} has {x.batch} "
                    f"{'matrix' if x.batch == 1 else 'matrices'} and {_role('D', d)} {d.batch}; a batched operand "
                    "has D's batch (only one compiled as a single matrix, or with a batch of 1, is the same for "
                    "every batch)", x.param[2:],
                )
        gemm = replace(gemm, m=m, n=n, k=k, batch=d.batch if d.batched else gemm.batch)
    resolved = replace(info, args=args, size_params=size_params, grid=grid, gemm=gemm, tensor_maps=tensor_maps)
    check_launch_limits(resolved)
    return resolved


def _role(role: str, a: ArgInfo) -> str:
    """A GEMM operand as an error names it: ``B``, or ``B (W)`` where the argument is W."""
    return role if a.param[2:] == role else f"{role} ({a.param[2:]})"


def dims(a: ArgInfo) -> str:
    """An argument's sizes as written in a type: ``8x1000x512``, ``?`` where unknown."""
    return "x".join("?" if n is None else str(n) for n in a.shape)


def matrix_extent(a: ArgInfo) -> int | None:
    """Elements one matrix of a (batched) argument spans with its leading dimension: rows x
    ld for a row-major one, cols x ld for a column-major one; the least batch stride at
    which its matrices do not overlap. None where a size is unknown."""
    lines = a.rows if a.row_major else a.cols
    if lines is None or a.ld is None:
        return None
    return lines * a.ld


def check_launch_limits(info: KernelInfo) -> None:
    """Raises ShapeError, naming the argument, where a resolved contract breaks a limit of
    the kernel's arithmetic, of TMA or of CUDA's grid (layout/limits.py)."""
    for a in info.args:
        name = a.param[2:]
        assert None not in a.shape and a.ld is not None
        sizes = [("row count", a.rows), ("column count", a.cols), ("leading dimension", a.ld)]
        if a.batched:
            sizes.insert(0, ("batch count", a.batch))
        for what, value in sizes:
            assert value is not None
            if value < 1:
                raise ShapeError(f"kernel argument {name}'s {what} is {value}: sizes are positive", name)
            _refuse(index_problem(value, f"kernel argument {name}'s {what}"), name)
        if a.batched:
            _check_batch_stride(a)
    for p in info.size_params or ():
        assert p.value is not None
        if not 0 <= p.value <= MAX_SIZE_PARAM:
            raise ShapeError(
                f"size parameter {p.param} is {p.value}: it is a .u32 (0 to {MAX_SIZE_PARAM})",
                info.args[p.arg].param[2:],
            )
    gemm = info.gemm
    if gemm is not None:
        assert gemm.m is not None and gemm.n is not None and gemm.k is not None
        c = gemm.config
        d, a = info.args[gemm.d].param[2:], info.args[gemm.a].param[2:]
        for what, size, tile, culprit in ((f"the last row of {d}'s tiles", gemm.m, c.bm, d),
                                          (f"the last column of {d}'s tiles", gemm.n, c.bn, d),
                                          (f"the last K of {a}'s tiles", gemm.k, c.bk, a)):
            _refuse(index_problem(-(-size // tile) * tile - 1, what), culprit)
    for tm in info.tensor_maps:
        assert tm.global_dims is not None and tm.global_strides is not None
        name = info.args[tm.arg].param[2:]
        for dim, extent in enumerate(tm.global_dims):
            _refuse(tma_dim_problem(extent, f"kernel argument {name}'s TMA dimension {dim}"), name)
        for i, stride in enumerate(tm.global_strides):
            what = "TMA stride" if i == 0 else "TMA batch stride"
            _refuse(tma_stride_problem(stride, f"kernel argument {name}'s {what}"), name)
    counts = [g for g in info.launch_grid if isinstance(g, int)]
    if len(counts) == 3:  # a persistent grid is sized to the GPU by the launcher
        problem = grid_problem(counts)
        if problem is not None:
            d = info.args[info.gemm.d].param[2:] if info.gemm is not None else None
            raise ShapeError(f"kernel {info.name}: {problem} ({_grid_sources(info)})", d)


def _check_batch_stride(a: ArgInfo) -> None:
    """A batch of more than one matrix needs a batch stride TMA can step (not 0: compile
    the operand as one matrix to use it for every batch), and an output's matrices must
    not overlap (the kernel would write one over another)."""
    name, stride, extent = a.param[2:], a.batch_stride, matrix_extent(a)
    assert stride is not None and extent is not None
    if a.batch == 1:
        return  # one matrix: its batch stride is never stepped
    if stride < 1:
        raise ShapeError(
            f"kernel argument {name}'s batch stride is {stride}: a batch of {a.batch} matrices needs a positive "
            "one (for the same matrix in every batch, compile it as one matrix, 2-d, or with a batch of 1)", name,
        )
    if a.output and not distinct_elements(a.shape, a.strides):  # type: ignore[arg-type]
        lines = "rows" if a.row_major else "columns"
        raise ShapeError(
            f"kernel argument {name}'s batch stride is {stride} elements, below one matrix's extent "
            f"({a.rows if a.row_major else a.cols} {lines} x ld {a.ld} = {extent}) and not beside it in its rows: "
            "the kernel would write its matrices over one another", name,
        )


def _refuse(problem: str | None, argument: str) -> None:
    if problem is not None:
        raise ShapeError(problem, argument)


def _operand_shape(a: ArgInfo, transposed: bool) -> tuple[int | None, int | None]:
    """An operand's rows and columns as the GEMM reads it: its argument's, swapped where
    the kernel reads the argument transposed (GemmInfo's a_transposed, b_transposed,
    d_transposed)."""
    return (a.cols, a.rows) if transposed else (a.rows, a.cols)


def _read_dims(a: ArgInfo, rows: int | None, cols: int | None) -> str:
    """An operand's sizes as the GEMM reads it (`rows` x `cols`, after its batch if any)."""
    batch = f"{'?' if a.batch is None else a.batch}x" if a.batched else ""
    return f"{batch}{'?' if rows is None else rows}x{'?' if cols is None else cols}"


def _t(transposed: bool) -> str:
    return " (its argument transposed)" if transposed else ""


def _gemm_culprit(a_shape: tuple[int | None, int | None], b_shape: tuple[int | None, int | None],
                  a: ArgInfo, b: ArgInfo, c: ArgInfo, d: ArgInfo) -> str:
    """The argument to name when shapes do not make a GEMM: the first, reading A's rows
    and columns (as the GEMM reads them) as M and K and D's columns as N, that disagrees."""
    m, k, n = a_shape[0], a_shape[1], d.cols
    if b_shape != (k, n):
        return b.param[2:]
    if d.rows != m:
        return d.param[2:]
    return c.param[2:]


def _grid_sources(info: KernelInfo) -> str:
    """Where the grid comes from, for the error about it: D's sizes and its tiles."""
    if info.gemm is None:
        return f"grid {list(info.launch_grid)}"
    d = info.args[info.gemm.d]
    c = info.gemm.config
    return f"{d.param[2:]} is {dims(d)} in {c.bm}x{c.bn} tiles"


def _given(given: Shape) -> BatchShape | tuple[int, int, int | None]:
    """A given shape as a `BatchShape` (a 5-tuple) or a matrix's (rows, cols, ld)."""
    if len(given) == 5:
        return BatchShape(*given)
    rows, cols, ld = given
    return rows, cols, ld


def _resolve_arg(a: ArgInfo, given: Shape | None) -> ArgInfo:
    name = a.param[2:]
    if given is not None:
        given = _given(given)
        got = tuple(given[:3]) if isinstance(given, BatchShape) else tuple(given[:2])
        if isinstance(given, BatchShape) != a.batched:
            if a.batched:
                raise ShapeError(f"--shape {name}={'x'.join(map(str, got))}: the kernel's {name} is a batch of matrices "
                                 f"({dims(a)}): give --shape {name}=BATCHxROWSxCOLS", name)
            raise ShapeError(f"--shape {name}={'x'.join(map(str, got))}: the kernel's {name} is one matrix ({dims(a)}), "
                             f"the same for every batch: give --shape {name}=ROWSxCOLS", name)
        if a.static:
            if got != a.shape:
                raise ShapeError(f"--shape {name}={'x'.join(map(str, got))}: the kernel's {name} is {dims(a)}", name)
            return a
    elif a.static:
        return a
    if given is None:
        how = "BATCHxROWSxCOLS" if a.batched else "ROWSxCOLS"
        raise ShapeError(f"kernel argument {name} has sizes known only at launch: give them with --shape {name}={how}", name)
    if isinstance(given, BatchShape):
        batch, rows, cols, ld, stride = given
        sizes: tuple[int, ...] = (batch, rows, cols)
    else:
        (rows, cols, ld), stride, batch = given, None, 1
        sizes = (rows, cols)
    for dim, (want, got_n) in enumerate(zip(a.shape, sizes)):
        if want is not None and want != got_n:
            raise ShapeError(f"--shape {name}: dimension {dim} of {name} is {want}, not {got_n}", name)
    row_major = a.row_major
    extent = cols if row_major else rows
    ld = _fixed(name, "leading dimension", ld, a.ld, extent)
    if ld < extent:
        raise ShapeError(f"--shape {name}: a leading dimension of {ld} is less than the contiguous extent {extent}", name)
    matrix = (ld, 1) if row_major else (1, ld)
    if not a.batched:
        return replace(a, shape=(rows, cols), strides=matrix)
    dense = (rows if row_major else cols) * ld
    # a batch of one matrix: its batch stride is never stepped, so the dense one stands in
    stride = _fixed(name, "batch stride", stride if batch > 1 else None, a.batch_stride, dense)
    return replace(a, shape=(batch, rows, cols), strides=(stride, *matrix))


def _fixed(name: str, what: str, given: int | None, compiled: int | None, default: int) -> int:
    """A stride: the one given, which must be the kernel's where it has one; else the
    kernel's, else `default`."""
    if given is not None and compiled is not None and given != compiled:
        raise ShapeError(f"--shape {name}: the kernel's {name} has a {what} of {compiled}, not {given}", name)
    return given if given is not None else (compiled if compiled is not None else default)


def _resolve_size_param(p: SizeParam, a: ArgInfo) -> SizeParam:
    if p.what not in SIZE_PARAM_KINDS:
        raise ShapeError(f"size parameter {p.param} holds {p.what!r}: this lower-tc fills {', '.join(SIZE_PARAM_KINDS)}", a.param[2:])
    return replace(p, value=getattr(a, p.what))


def _resolve_tensor_map(tm: TensorMap, a: ArgInfo) -> TensorMap:
    if tm.global_dims is not None:
        return tm
    name = a.param[2:]
    rows, cols, ld = a.rows, a.cols, a.ld
    assert rows is not None and cols is not None and ld is not None
    bits = element_type(tm.dtype).bits
    if ld * bits % 128:
        raise ShapeError(f"kernel argument {name}'s leading dimension is {_bytes(ld, bits)} bytes: TMA needs a multiple of 16", name)
    dims_: tuple[int, ...] = (cols, rows) if a.row_major else (rows, cols)
    strides: tuple[int, ...] = (ld * bits // 8,)
    if len(tm.box) == 3:  # a rank-3 map over a batch (a batch of 1 keeps a 2-d one)
        batch, stride = a.batch, a.batch_stride
        assert batch is not None and stride is not None
        if stride * bits % 128:
            raise ShapeError(f"kernel argument {name}'s batch stride is {_bytes(stride, bits)} bytes: TMA needs a multiple of 16", name)
        dims_, strides = (*dims_, batch), (*strides, stride * bits // 8)
    return replace(tm, global_dims=dims_, global_strides=strides)


def _bytes(elements: int, bits: int) -> str:
    return f"{elements * bits // 8}" if elements * bits % 8 == 0 else f"{elements * bits / 8}"


def _resolve_grid(g: GridEntry, args: tuple[ArgInfo, ...]) -> GridEntry:
    if isinstance(g, GridFromArg):
        size = args[g.arg].shape[g.dim]
        assert size is not None
        return g.count(size)
    return g


__all__ = [
    "BatchShape", "SHAPE_SYNTAX", "Shape", "check_launch_limits", "dims", "matrix_extent", "parse_shape", "resolve_sizes",
]
