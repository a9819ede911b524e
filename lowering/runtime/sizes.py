"""Sizes known only at launch: the `--shape NAME=ROWSxCOLS[@LD]` option, and a kernel's
launch contract with every such size filled in (`resolve_sizes`) and checked against the
limits the kernel and CUDA have (layout/limits.py), before anything is allocated or launched:

- every row count, column count and leading dimension is at least 1 and fits the 32-bit
  index arithmetic (MAX_INDEX), and so the .u32 size parameters (MAX_SIZE_PARAM);
- a GEMM's tiles end inside that arithmetic too (the last tile's last row, column and K);
- each TMA tensor map's global dimensions and strides are ones cuTensorMapEncodeTiled takes;
- the grid is within CUDA's limits (x up to 2^31 - 1, y and z up to 65535).
"""

from __future__ import annotations

from dataclasses import replace

from lower_tc.layout import element_type
from lower_tc.layout.kernel_info import ArgInfo, GridEntry, GridFromArg, KernelInfo, SizeParam, TensorMap
from lower_tc.layout.limits import (
    MAX_SIZE_PARAM, grid_problem, index_problem, tma_dim_problem, tma_stride_problem,
)
from lower_tc.lowering.runtime.errors import ShapeError

#: An argument's sizes given at launch: rows, cols, and the leading dimension (None: the
#: contiguous extent, or the kernel's own where it has one).
Shape = tuple[int, int, "int | None"]


def parse_shape(text: str) -> tuple[str, Shape]:
    """``NAME=ROWSxCOLS[@LD]`` (a --shape option) as (NAME, (rows, cols, ld or None))."""
    try:
        name, dims = text.split("=", 1)
        size, _, ld = dims.partition("@")
        rows, cols = (int(x) for x in size.lower().split("x"))
        value = (rows, cols, int(ld) if ld else None)
    except ValueError:
        raise ShapeError(f"--shape {text!r}: expected NAME=ROWSxCOLS or NAME=ROWSxCOLS@LD, e.g. A=4096x4096") from None
    if rows <= 0 or cols <= 0 or (value[2] is not None and value[2] <= 0):
        raise ShapeError(f"--shape {text!r}: sizes are positive")
    if not name.lstrip("%"):
        raise ShapeError(f"--shape {text!r}: no argument name before '='")
    return name.lstrip("%"), value


def resolve_sizes(info: KernelInfo, shapes: dict[str, Shape] | None) -> KernelInfo:
    """The kernel's contract with every size known at launch filled in from `shapes`
    (argument name -> rows, cols, leading dimension or None for the contiguous extent):
    argument shapes and strides, the TMA tensor maps, the grid, the GEMM's M, N, K and
    the values of the size parameters. A static contract comes back equal. Raises
    ShapeError, naming the argument, for sizes that do not fit the kernel or break a limit
    (see the module's docstring)."""
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
        m, n, k = d.shape[0], d.shape[1], a_cols
        c = args[gemm.c] if gemm.c is not None else d
        if (a_rows, b_cols, b_rows, c.shape) != (m, n, k, d.shape):
            raise ShapeError(
                f"the shapes do not make a GEMM: A {a_rows}x{a_cols}{_t(gemm.a_transposed)}, "
                f"B {b_rows}x{b_cols}{_t(gemm.b_transposed)}, D {d.shape[0]}x{d.shape[1]}"
                + (f", C {c.shape[0]}x{c.shape[1]}" if c is not d else ""),
                _gemm_culprit((a_rows, a_cols), (b_rows, b_cols), a, b, c, d),
            )
        gemm = replace(gemm, m=m, n=n, k=k)
    resolved = replace(info, args=args, size_params=size_params, grid=grid, gemm=gemm, tensor_maps=tensor_maps)
    check_launch_limits(resolved)
    return resolved


def check_launch_limits(info: KernelInfo) -> None:
    """Raises ShapeError, naming the argument, where a resolved contract breaks a limit of
    the kernel's arithmetic, of TMA or of CUDA's grid (layout/limits.py)."""
    for a in info.args:
        name = a.param[2:]
        assert a.shape[0] is not None and a.shape[1] is not None and a.ld is not None
        for what, value in (("row count", a.shape[0]), ("column count", a.shape[1]), ("leading dimension", a.ld)):
            if value < 1:
                raise ShapeError(f"kernel argument {name}'s {what} is {value}: sizes are positive", name)
            _refuse(index_problem(value, f"kernel argument {name}'s {what}"), name)
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
        for stride in tm.global_strides:
            _refuse(tma_stride_problem(stride, f"kernel argument {name}'s TMA stride"), name)
    counts = [g for g in info.launch_grid if isinstance(g, int)]
    if len(counts) == 3:  # a persistent grid is sized to the GPU by the launcher
        problem = grid_problem(counts)
        if problem is not None:
            d = info.args[info.gemm.d].param[2:] if info.gemm is not None else None
            raise ShapeError(f"kernel {info.name}: {problem} ({_grid_sources(info)})", d)


def _refuse(problem: str | None, argument: str) -> None:
    if problem is not None:
        raise ShapeError(problem, argument)


def _operand_shape(a: ArgInfo, transposed: bool) -> tuple[int | None, int | None]:
    """An operand's rows and columns as the GEMM reads it: its argument's, swapped where
    the kernel reads the argument transposed (GemmInfo's a_transposed, b_transposed)."""
    rows, cols = a.shape[-2], a.shape[-1]
    return (cols, rows) if transposed else (rows, cols)


def _t(transposed: bool) -> str:
    return " (its argument transposed)" if transposed else ""


def _gemm_culprit(a_shape: tuple[int | None, int | None], b_shape: tuple[int | None, int | None],
                  a: ArgInfo, b: ArgInfo, c: ArgInfo, d: ArgInfo) -> str:
    """The argument to name when shapes do not make a GEMM: the first, reading A's rows
    and columns (as the GEMM reads them) as M and K and D's columns as N, that disagrees."""
    m, k, n = a_shape[0], a_shape[1], d.shape[1]
    if b_shape != (k, n):
        return b.param[2:]
    if d.shape[0] != m:
        return d.param[2:]
    return c.param[2:]


def _grid_sources(info: KernelInfo) -> str:
    """Where the grid comes from, for the error about it: D's sizes and its tiles."""
    if info.gemm is None:
        return f"grid {list(info.launch_grid)}"
    d = info.args[info.gemm.d]
    c = info.gemm.config
    return f"{d.param[2:]} is {d.shape[0]}x{d.shape[1]} in {c.bm}x{c.bn} tiles"


def _resolve_arg(a: ArgInfo, given: Shape | None) -> ArgInfo:
    name = a.param[2:]
    if a.static:
        if given is not None and (given[0], given[1]) != a.shape:
            raise ShapeError(f"--shape {name}={given[0]}x{given[1]}: the kernel's {name} is {a.shape[0]}x{a.shape[1]}", name)
        return a
    if given is None:
        raise ShapeError(f"kernel argument {name} has sizes known only at launch: give them with --shape {name}=ROWSxCOLS", name)
    rows, cols, ld = given
    for dim, (want, got) in enumerate(zip(a.shape, (rows, cols))):
        if want is not None and want != got:
            raise ShapeError(f"--shape {name}: dimension {dim} of {name} is {want}, not {got}", name)
    row_major = a.row_major
    extent = cols if row_major else rows
    fixed = a.ld
    ld = ld if ld is not None else (fixed if fixed is not None else extent)
    if ld < extent:
        raise ShapeError(f"--shape {name}: a leading dimension of {ld} is less than the contiguous extent {extent}", name)
    return replace(a, shape=(rows, cols), strides=(ld, 1) if row_major else (1, ld))


def _resolve_size_param(p: SizeParam, a: ArgInfo) -> SizeParam:
    return replace(p, value={"rows": a.shape[0], "cols": a.shape[1], "ld": a.ld}[p.what])


def _resolve_tensor_map(tm: TensorMap, a: ArgInfo) -> TensorMap:
    if tm.global_dims is not None:
        return tm
    rows, cols = a.shape
    ld = a.ld
    assert rows is not None and cols is not None and ld is not None
    bits = element_type(tm.dtype).bits
    if ld * bits % 128:
        size = f"{ld * bits // 8}" if ld * bits % 8 == 0 else f"{ld * bits / 8}"
        raise ShapeError(
            f"kernel argument {a.param[2:]}'s leading dimension is {size} bytes: TMA needs a multiple of 16",
            a.param[2:],
        )
    dims = (cols, rows) if a.row_major else (rows, cols)
    return replace(tm, global_dims=dims, global_strides=(ld * bits // 8,))


def _resolve_grid(g: GridEntry, args: tuple[ArgInfo, ...]) -> GridEntry:
    if isinstance(g, GridFromArg):
        size = args[g.arg].shape[g.dim]
        assert size is not None
        return -(-size // g.tile)
    return g


__all__ = ["Shape", "check_launch_limits", "parse_shape", "resolve_sizes"]
