"""What the kernel's index arithmetic computes over every CTA of its grid.

The GEMM kernel computes its tile origins and coordinates in 32-bit registers (index.py),
so every value must lie in [0, 2^31 - 1]; and its register epilogues leave out the bounds
checks of a store only where every CTA's window lies inside D. Both are shown here:

- exactly, where the grid is known and small enough: the arithmetic is evaluated with
  numpy for every block of the grid at once;
- by intervals otherwise (a larger grid, or one sized at launch).

A value that can be negative, or (with the grid known) past 2^31 - 1, is a located error at
the op that computes it. With the grid sized at launch, sizes are the launcher's to check
(lowering/runtime/sizes.py), so only the signs are checked here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, gpu, memref
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.layout.kernel_info import GridFromArg
from lower_tc.layout.limits import MAX_GRID, MAX_INDEX
from lower_tc.passes.to_ptx.gemm.grid import Grid
from lower_tc.passes.to_ptx.gemm.index import IndexEnv
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs

#: Up to this many blocks the arithmetic is evaluated for each (numpy arrays of this length).
MAX_ENUMERATED = 2**20

#: A value over the grid: one number per block (exact) or an interval (lo, hi).
Values = np.ndarray | tuple[int, int]

#: (exact fold on numpy arrays, interval rule on (lo, hi) pairs) of each index op.
_ARRAY: dict[type, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    arith.MuliOp: np.multiply, arith.AddiOp: np.add, arith.SubiOp: np.subtract,
    arith.DivUIOp: np.floor_divide, arith.RemUIOp: np.remainder, arith.MinUIOp: np.minimum,
}


def _interval(cls: type, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """The range of `a op b` for operands in these ranges (None: unknown, a divisor that may be 0)."""
    if cls is arith.MuliOp:
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    if cls is arith.AddiOp:
        return a[0] + b[0], a[1] + b[1]
    if cls is arith.SubiOp:
        return a[0] - b[1], a[1] - b[0]
    if cls is arith.MinUIOp:
        return min(a[0], b[0]), min(a[1], b[1])
    if b[0] <= 0:
        return None
    if cls is arith.DivUIOp:
        return a[0] // b[1], a[1] // b[0]
    return 0, b[1] - 1  # arith.RemUIOp


@dataclass(frozen=True)
class StoreFacts:
    """What the analysis found of the kernel's tc.window_store."""

    inside: bool  # every CTA's BM x BN window lies inside D: no bounds checks needed


def analyse(kernel: Operation, index: IndexEnv, args: KernelArgs, grid: Grid, store: WindowStoreOp | None, tile: tuple[int, int] | None) -> StoreFacts:
    """Checks every index value over the grid (module docstring) and whether the store's
    window, `tile` = (BM, BN) rows and columns from its origin, stays inside D."""
    static = all(isinstance(g, int) for g in grid)
    blocks = int(np.prod([g for g in grid if isinstance(g, int)])) if static else None
    exact = static and blocks is not None and blocks <= MAX_ENUMERATED
    values: dict[SSAValue, Values] = {}
    if exact:
        axes = np.meshgrid(*(np.arange(g, dtype=np.int64) for g in grid), indexing="ij")  # type: ignore[arg-type]
        block_ids = {d: a.ravel() for d, a in zip("xyz", axes)}
    else:
        block_ids = {
            d: (0, (g if isinstance(g, int) else limit) - 1) for d, g, limit in zip("xyz", grid, MAX_GRID)
        }

    def value_of(v: SSAValue) -> Values | None:
        if v in values:
            return values[v]
        if v in index.consts:
            c = index.consts[v]
            return np.int64(c) if exact else (c, c)  # type: ignore[return-value]
        return None

    for op in index.ops:
        result = _evaluate(op, value_of, block_ids, args, exact)
        if result is None:
            continue
        values[op.results[0]] = result
        lo, hi = _bounds(result)
        if lo < 0:
            error_at(op, f"'{op.name}' can compute {lo}{_where(result, lo, grid) if exact else ''}: a GEMM kernel's indices are non-negative")
        if static and hi > MAX_INDEX:
            error_at(op, f"'{op.name}' can compute {hi}{_where(result, hi, grid) if exact else ''}: lower-tc's kernels compute indices in 32-bit registers (0 to {MAX_INDEX})")
    if store is not None and store.batch is not None:
        _check_batch_index(store, value_of(store.batch), args, grid)
    if store is not None and store.outer is not None:  # a 4-d D: its sizes are static
        _check_static_index(store, value_of(store.outer), args.geometry[store.dst].outer, "outer batch")  # type: ignore[arg-type]
    if store is None or tile is None:
        return StoreFacts(False)
    m, n = args.size(store.dst, "rows"), args.size(store.dst, "cols")
    row, col = value_of(store.row), value_of(store.col)
    if not (isinstance(m, int) and isinstance(n, int)) or row is None or col is None:
        return StoreFacts(False)
    return StoreFacts(_bounds(row)[1] + tile[0] <= m and _bounds(col)[1] + tile[1] <= n)


def _check_batch_index(store: WindowStoreOp, values: Values | None, args: KernelArgs, grid: Grid) -> None:
    """The store's matrix must be one of D's for every CTA (a window's rows and columns
    are guarded, its batch index is not): shown over the grid where D's batch is known
    now, or, where it is known only at launch, the index is gpu.block_id z of a grid
    whose z is D's batch ([D, 0, 1] in tc.grid)."""
    batch = args.size(store.dst, "batch")
    owner = store.batch.owner  # type: ignore[union-attr]
    if isinstance(batch, int):
        _check_static_index(store, values, batch, "batch")
        return
    d = args.index(store.dst)
    z = grid[2]
    is_z = isinstance(owner, gpu.BlockIdOp) and _dimension(owner) == "z"
    if not (is_z and isinstance(z, GridFromArg) and (z.arg, z.dim, z.tile) == (d, 0, 1)):
        error_at(store, f"D's batch is known only at launch: the store's batch index is gpu.block_id z, and tc.grid's z is [{d}, 0, 1] (D's batch)")


def _check_static_index(store: WindowStoreOp, values: Values | None, size: int, what: str) -> None:
    """The store's batch (or outer batch) index, shown below D's `size` over the grid."""
    if values is None:
        error_at(store, f"the store's {what} index is not computed from constants, gpu.block_id and arith: its range over the grid cannot be shown")
    hi = _bounds(values)[1]
    if hi >= size:
        error_at(store, f"the store's {what} index can be {hi}, past D's {what} of {size}")


def _dimension(op: gpu.BlockIdOp) -> str:
    return op.dimension.data.value if hasattr(op.dimension.data, "value") else str(op.dimension.data)


def _evaluate(op: Operation, value_of: Callable[[SSAValue], Values | None], block_ids: dict, args: KernelArgs, exact: bool) -> Values | None:
    """One index op's values over the grid; None for a constant or what is not tracked."""
    if isinstance(op, gpu.BlockIdOp):
        dim = op.dimension.data.value if hasattr(op.dimension.data, "value") else str(op.dimension.data)
        return block_ids[dim]
    if isinstance(op, memref.DimOp):
        return None  # a size known now is a constant; one known at launch is checked then
    cls = type(op)
    if cls not in _ARRAY:
        return None
    a, b = value_of(op.lhs), value_of(op.rhs)  # type: ignore[attr-defined]
    if a is None or b is None:
        return None
    if exact:
        if cls in (arith.DivUIOp, arith.RemUIOp) and np.any(np.asarray(b) == 0):
            error_at(op, f"'{op.name}' divides by zero for some block of the grid")
        return np.broadcast_to(_ARRAY[cls](a, b), np.broadcast(a, b).shape)  # type: ignore[arg-type]
    return _interval(cls, _bounds(a), _bounds(b))


def _bounds(v: Values) -> tuple[int, int]:
    if isinstance(v, tuple):
        return v
    return int(np.min(v)), int(np.max(v))


def _where(values: np.ndarray, target: int, grid: Grid) -> str:
    """' for block (x, y, z)': the first block where the value is `target`."""
    flat = np.broadcast_to(values, (int(np.prod(grid)),))  # type: ignore[arg-type]
    x, y, z = np.unravel_index(int(np.argmax(flat == target)), tuple(grid))  # type: ignore[arg-type]
    return f" (for block ({x}, {y}, {z}))"
