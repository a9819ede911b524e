"""The K ranges of a split-K cluster, checked: the S CTAs of a cluster (block x = c S + r,
rank r) sum their partial tiles, so their K loops must take every K step of the problem
exactly once between them. A loop written by hand that forgets the rank (every CTA over
the whole of K: S times the product) or leaves a gap is a located error, not a wrong D.

The kernel's index arithmetic is evaluated in Python integers for the CTAs of the first
and the last cluster (and the first and last blocks along y and z). K known at compile
time is checked at its value; K known at launch at sample sizes, among them sizes with
fewer K steps than CTAs (whose ranks with no step must then run none).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, gpu, memref, scf
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_attrs import Operand
from lower_tc.dialects.tc_gemm import WindowLoadOp
from lower_tc.passes.to_ptx.gemm.grid import Grid
from lower_tc.passes.to_ptx.gemm.index import IndexEnv
from lower_tc.passes.to_ptx.gemm.operands import TRANSPOSED_SIZES, KernelArgs, dim_names

_FOLD: dict[type, Callable[[int, int], int]] = {
    arith.MuliOp: lambda a, b: a * b, arith.AddiOp: lambda a, b: a + b, arith.SubiOp: lambda a, b: a - b,
    arith.DivUIOp: lambda a, b: a // b, arith.RemUIOp: lambda a, b: a % b, arith.MinUIOp: min,
}

#: Sizes that a size known at launch takes while K is sampled (rows, columns, batches).
OTHER_SIZE = {"rows": 1000, "cols": 1000, "ld": 1024, "batch": 3, "batch_stride": 1 << 20}


def evaluate(index: IndexEnv, args: KernelArgs, block: tuple[int, int, int], sizes: dict[tuple[SSAValue, str], int]) -> dict[SSAValue, int]:
    """Every index value of the kernel for one block, with the sizes known at launch
    given by `sizes` (argument, what). A value that cannot be computed is left out."""
    values: dict[SSAValue, int] = dict(index.consts)
    for op in index.ops:
        out = _one(op, values, args, block, sizes)
        if out is not None:
            values[op.results[0]] = out
    return values


def _one(op: Operation, values: dict[SSAValue, int], args: KernelArgs, block: tuple[int, int, int], sizes: dict) -> int | None:
    if isinstance(op, gpu.BlockIdOp):
        dim = op.dimension.data.value if hasattr(op.dimension.data, "value") else str(op.dimension.data)
        return block["xyz".index(dim)]
    if isinstance(op, memref.DimOp):
        if op.result in values or op.index not in values:
            return None
        names = dim_names(args.geometry[op.source])
        return sizes.get((op.source, names[values[op.index]]))
    fold = _FOLD.get(type(op))
    lhs, rhs = (values.get(v) for v in op.operands[:2]) if fold else (None, None)
    if fold is None or lhs is None or rhs is None:
        return None
    if rhs == 0 and isinstance(op, arith.DivUIOp | arith.RemUIOp):
        return None
    return fold(lhs, rhs)


def check_k_slices(loop: scf.ForOp, step: int, split_k: int, index: IndexEnv, args: KernelArgs, grid: Grid,
                   unsplit: int = 0, pair: bool = False) -> None:
    """A located error at the loop unless the cluster's K ranges take each K step once
    (module docstring). With `unsplit` = F the first F CTAs along x must each take every
    K step alone, and the S CTAs x = F + S j .. F + S j + S - 1 share one tile's. With
    `pair` (a cluster of 2 sharing B) a tile's CTAs are every other one: x = 2 S j + m + 2 r
    for rank r of member m."""
    windows = [op for op in loop.body.block.ops if isinstance(op, WindowLoadOp)]
    a = next(w.src for w in windows if w.operand.data is Operand.A)
    k = args.size(a, "cols")
    dynamic = set(args.sizes)
    k_keys = set()  # K is A's columns and B's rows (its argument's rows, columns where read through a view)
    for w in windows:
        what = "cols" if w.operand.data is Operand.A else "rows"
        k_keys.add((w.src, what))
        if w.src in args.views:
            k_keys.add((args.views[w.src], TRANSPOSED_SIZES[what]))
    samples = [k] if isinstance(k, int) else sorted({1, step - 1 or 1, step, split_k * step - 1, split_k * step,
                                                      split_k * step + 1, (3 * split_k + 1) * step + 7, 1_000_003})
    x = grid[0]
    groups = [(0, split_k)] + ([((x // split_k - 1) * split_k, split_k)] if isinstance(x, int) and x // split_k > 1 else [])
    stride = 1
    if pair:  # the first pair's two tiles and the last pair's
        assert isinstance(x, int)
        stride = 2
        groups = sorted({(0, split_k), (1, split_k), (x - 2 * split_k, split_k), (x - 2 * split_k + 1, split_k)})
    if unsplit:  # x is F + S j (checked): the first and last CTAs alone, the first and last split tiles
        assert isinstance(x, int)
        groups = sorted({(0, 1), (unsplit - 1, 1), (unsplit, split_k), (x - split_k, split_k)})
    outer = [(y, z) for y in _ends(grid[1]) for z in _ends(grid[2])]
    for k_value in samples:
        sizes = {key: (k_value if key in k_keys else OTHER_SIZE[key[1]]) for key in dynamic}
        for first, ways in groups:
            for y, z in outer:
                ranges = []
                for r in range(ways):
                    v = evaluate(index, args, (first + stride * r, y, z), sizes)
                    lo, hi = v.get(loop.lb), v.get(loop.ub)
                    if lo is None or hi is None:
                        error_at(loop, f"split_k = {split_k}: the K loop's bounds are not computed from constants, "
                                       "gpu.block_id, memref.dim and arith: the cluster's K ranges cannot be shown to cover K")
                    ranges.append((lo, hi))
                why = _cover_problem(ranges, k_value, step)
                if why:
                    where = f"K = {k_value}" + ("" if isinstance(k, int) else " (K known at launch, a sample)")
                    if ways == 1:
                        error_at(loop, f"unsplit = {unsplit}: block x = {first} has its tile alone, but its K loop runs "
                                       f"over [{ranges[0][0]}, {ranges[0][1]}) with {where}: {why}")
                    who = "cluster's CTAs" if not unsplit and not pair else "CTAs of a split tile"
                    rule = ("rank r = (block x / 2) mod S" if pair else "rank r = block x mod S" if not unsplit
                            else f"rank r = (block x - {unsplit}) mod S")
                    blocks = f"{first} to {first + stride * (ways - 1)}" + (" by 2" if pair else "")
                    error_at(loop, f"split_k = {split_k}: the K loops of the {who} (blocks x = "
                                   f"{blocks}, ranks 0 to {ways - 1}) run over "
                                   f"{', '.join(f'[{lo}, {hi})' for lo, hi in ranges)} with {where}: {why}; {rule} "
                                   "takes e.g. the K steps [r T / S, (r + 1) T / S) of T = ceil(K / BK)")


def _ends(g: object) -> list[int]:
    return [0] + ([g - 1] if isinstance(g, int) and g > 1 else [])


def _cover_problem(ranges: list[tuple[int, int]], k: int, step: int) -> str | None:
    """Why the loops k = lo, lo + step, ... < hi (one per rank) do not take the K steps
    0, step, ..., (T - 1) step each once, or None."""
    runs = sorted((lo, -(-(hi - lo) // step)) for lo, hi in ranges if hi > lo)
    tiles = -(-k // step)
    at = 0
    for lo, n in runs:
        if lo != at:
            return (f"K step {at} is taken by no CTA" if lo > at else f"K step {lo} is taken twice")
        at = lo + n * step
    if at != tiles * step:
        return f"they end at {at}, not at {tiles * step} ({tiles} K step(s) of {step} cover K)"
    return None


__all__ = ["check_k_slices", "evaluate"]
