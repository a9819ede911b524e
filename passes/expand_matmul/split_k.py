"""tc-expand-matmul's part of split-K (`split_k = S`, layout/split_k.py): whether the
option suits the op, and the K range of the CTA's rank in its cluster, written as index
arithmetic before the K loop:

    %k_tiles = ceil(K / BK)              (a constant, or (K - 1) / BK + 1 at launch)
    %k_lo = (rank %k_tiles / S) BK       %k_hi = ((rank + 1) %k_tiles / S) BK
    scf.for %k = %k_lo to %k_hi step BK
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_matmul import MatmulOp
from lower_tc.dialects.tc_schedule import GLOBAL_SPLIT_K_CONFLICTS, PAIRED_UNSPLIT, SPLIT_K_CONFLICTS
from lower_tc.layout import Arch
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.gemm import default_persistent
from lower_tc.layout.split_k import GLOBAL_F16, SPLIT_K_TARGET, split_k_problem, unsplit_problem
from lower_tc.layout.stream_k import STREAM_K_F16, stream_k_problem
from lower_tc.passes.expand_matmul.walk import walk_sizes


def check_split_k(mm: MatmulOp, arch: Arch, config: GemmConfig, split_k: int, reduce: str = "cluster",
                  unsplit: int = 0, raster: int = 1) -> None:
    """A located error where `split_k` (> 1) does not go with the op's other options, its
    target, its K, its accumulator or its configuration's shared memory, or `unsplit`
    with the split, the walk or the tile count."""
    given = mm.options
    if arch is not Arch.SM90A:
        error_at(mm, SPLIT_K_TARGET)
    conflicts = GLOBAL_SPLIT_K_CONFLICTS if reduce == "global" else SPLIT_K_CONFLICTS
    for conflict, set_ in (("persistent", given.persistent), ("cluster = 2", given.cluster == 2),
                           ("epilogue = tma", given.epilogue == "tma")):
        if set_ and conflict in conflicts:
            error_at(mm, f"split_k = {split_k} does not go with {conflict}: {conflicts[conflict]}")
    if reduce == "global" and mm.acc_type == "f16":
        error_at(mm, GLOBAL_F16)
    if unsplit and given.cluster == 2:
        error_at(mm, f"unsplit = {unsplit} does not go with cluster = 2: {PAIRED_UNSPLIT}")
    a, b = mm.types
    why = split_k_problem(split_k, config, a, b, mm.problem[2], arch, reduce)
    if why:
        error_at(mm, why)
    if unsplit:
        m, n = walk_sizes(mm)
        tiles = None if m is None or n is None else config.tiles(m, n, mm.batch or 1)
        why = unsplit_problem(unsplit, split_k, reduce, tiles)
        if why:
            error_at(mm, why)
        if raster == 0:
            error_at(mm, f"unsplit = {unsplit} numbers the tiles on a 1-d grid (the grouped order): it needs raster >= 1, "
                         "or none given")


def check_stream_k(mm: MatmulOp, arch: Arch, config: GemmConfig, schedule: str, raster: int, groups: int) -> None:
    """A located error where `stream_k = G` does not go with the op's target, other
    options, accumulator or sizes (layout/stream_k.py)."""
    given = mm.options
    if arch is not Arch.SM90A:
        error_at(mm, "stream_k is sm_90a only for now")
    if given.persistent is False:
        error_at(mm, f"stream_k = {groups} runs persistent CTAs, one per SM: it does not go with persistent = false")
    if given.split_k is not None and given.split_k != 1:
        error_at(mm, f"stream_k = {groups} does not go with split_k = {given.split_k}: stream-K shares the K steps itself, across tiles")
    if mm.acc_type == "f16":
        error_at(mm, STREAM_K_F16)
    m, n = walk_sizes(mm)
    k = mm.problem[2]
    if not default_persistent(schedule, raster, m, n) or k is None:
        error_at(mm, f"stream_k = {groups} runs a persistent walk: it needs the warp-specialised schedule, the grouped order "
                     "(raster >= 1) and M, N, K and the batch known at compile time")
    assert m is not None and n is not None and k is not None
    why = stream_k_problem(config.tiles(m, n, mm.batch or 1), -(-k // config.bk), groups)
    if why:
        error_at(mm, why)


def k_slice_ops(
    rank: SSAValue, k_end: SSAValue, k: int | None, bk: int, split_k: int, c_bk: SSAValue,
    const: Callable[[int], arith.ConstantOp], ways: SSAValue | None = None,
) -> tuple[list[Operation], SSAValue, SSAValue]:
    """The ops of the rank's K range (module docstring) and its bounds (lo, hi); `ways`
    (where the CTAs of a tile vary: unsplit) takes S's place."""
    ops: list[Operation] = []
    if k is not None:
        tiles_op: Operation = const(-(-k // bk))
        ops.append(tiles_op)
    else:  # (K - 1) / BK + 1: no overflow for K up to 2^31 - 1
        one_k = const(1)
        last = arith.SubiOp(k_end, one_k)
        whole = arith.DivUIOp(last, c_bk)
        tiles_op = arith.AddiOp(whole, one_k)
        ops += [one_k, last, whole, tiles_op]
    tiles = tiles_op.results[0]
    c_split, c_one = const(split_k), const(1)
    split = ways if ways is not None else c_split.result
    lo_t = arith.MuliOp(rank, tiles)
    lo_q = arith.DivUIOp(lo_t, split)
    lo = arith.MuliOp(lo_q, c_bk)
    next_rank = arith.AddiOp(rank, c_one)
    hi_t = arith.MuliOp(next_rank, tiles)
    hi_q = arith.DivUIOp(hi_t, split)
    hi = arith.MuliOp(hi_q, c_bk)
    ops += ([] if ways is not None else [c_split]) + [c_one, lo_t, lo_q, lo, next_rank, hi_t, hi_q, hi]
    tiles.name_hint, lo.result.name_hint, hi.result.name_hint = "k_tiles", "k_lo", "k_hi"
    return ops, lo.result, hi.result


__all__ = ["check_split_k", "check_stream_k", "k_slice_ops"]
