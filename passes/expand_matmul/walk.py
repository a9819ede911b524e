"""The tile walk of tc-expand-matmul: which tile (and matrix of a batch) a CTA computes,
found from its block index with arith ops, the grid that walk assumes, and why a GEMM's
walk would not fit the kernel's 32-bit index arithmetic or CUDA's grid (docs/gemm.md)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, gpu
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, i64
from xdsl.ir import Attribute, Operation, SSAValue

from lower_tc.dialects import tc
from lower_tc.dialects.tc_matmul import MatmulOp
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.limits import MAX_GRID, MAX_INDEX, grid_problem, index_problem
from lower_tc.layout.split_k import split_ctas


def walk_sizes(mm: MatmulOp) -> tuple[int | None, int | None]:
    """(M, N) for the choices that need every tile known now (the grouped order, a
    persistent walk): None where they, or a batch's count, are known only at launch."""
    m, n, _ = mm.problem
    if mm.batched and mm.batch is None:
        return None, None
    return m, n


@dataclass(frozen=True)
class TileOrigin:
    """The ops that find a CTA's tile, what they find, and the grid they assume."""

    ops: list[Operation]
    m0: SSAValue
    n0: SSAValue
    batch: SSAValue | None  # the tile's matrix of a batched GEMM (None: not batched)
    grid: ArrayAttr
    rank: SSAValue | None = None  # the CTA's rank in its split-K cluster (None: no split)
    ways: SSAValue | None = None  # the CTAs sharing its tile where that varies (unsplit: 1 or S)


def tile_origin(kernel: Operation, mm: MatmulOp, config: GemmConfig, raster: int, const, split_k: int = 1,
                unsplit: int = 0, pair: bool = False) -> TileOrigin:
    """The ops that find the CTA's tile (m0, n0) from its block index, and the grid.

    Without raster, block (x, y) takes tile row y, column x. With raster G (static sizes
    only), the grid is 1-d and consecutive CTAs walk G tile rows column by column
    (grouped order), so the CTAs running at one time share rows of A and columns of B in L2:
    group = pid / (G tiles_n); first = group G; rows = min(tiles_m - first, G);
    r = pid mod (G tiles_n); tile row first + r mod rows, tile column r / rows.

    A batched GEMM's matrix is block z in row order (the grid's z is the batch); in the
    grouped order the batch's tiles follow each other on x: matrix bx / T, pid = bx mod
    T for the T tiles of one matrix. A batch of 1 is matrix 0.

    With split_k = S, S consecutive CTAs along x (a cluster of S) share each tile: the
    walk above runs on bx / S, and bx mod S is the CTA's rank in its cluster; the grid's x
    is S times as long.

    With split_k = S through global memory and a cluster of 2 sharing B (`pair`: the
    grouped order, an even raster and tile rows), the pair is two consecutive CTAs with the
    same rank in tiles 2j and 2j + 1 (the same column of D, adjacent rows):
        tile = (bx / 2S) 2 + bx mod 2   rank = (bx / 2) mod S

    With unsplit = F as well (the grouped order only, layout/split_k.py) CTA x < F takes
    tile x alone (rank 0 of 1) and CTA x = F + S j + r takes rank r of tile F + j; `ways`
    is 1 or S accordingly, all of it min/sub/div arithmetic on bx:
        xf = min(bx, F)   d = bx - xf   tile = xf + d / S   rank = d mod S
        ways = 1 + (S - 1) min(bx + 1 - min(bx + 1, F), 1)"""
    m, n = walk_sizes(mm)
    batch = mm.batch if mm.batched else None
    bx = gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X))
    bx.result.name_hint = "bx"
    split_ops: list[Operation] = []
    rank: SSAValue | None = None
    tile_x: SSAValue = bx.result
    ways: SSAValue | None = None
    if split_k > 1 and unsplit:  # the first F tiles whole, then S CTAs to a tile
        split_ops, tile_x, rank, ways = _unsplit_ops(bx.result, split_k, unsplit, const)
    elif split_k > 1 and pair:  # a pair of tiles' CTAs of one rank next to each other
        split_ops, tile_x, rank = _paired_split_ops(bx.result, split_k, const)
    elif split_k > 1:  # consecutive CTAs along x form a cluster of S sharing one tile
        c_split = const(split_k)
        rank_op, tile_op = arith.RemUIOp(bx, c_split), arith.DivUIOp(bx, c_split)
        c_split.result.name_hint, rank_op.result.name_hint, tile_op.result.name_hint = "split_k", "rank", "tile_x"
        split_ops, rank, tile_x = [c_split, rank_op, tile_op], rank_op.result, tile_op.result
    c_bm, c_bn = const(config.bm), const(config.bn)
    c_bm.result.name_hint, c_bn.result.name_hint = "bm", "bn"
    batch_ops: list[Operation] = []
    matrix_index: SSAValue | None = None
    if mm.batched and batch == 1:
        zero = const(0)
        batch_ops, matrix_index = [zero], zero.result
    if not raster or m is None or n is None:
        by = gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.Y))
        by.result.name_hint = "by"
        m0, n0 = arith.MuliOp(by, c_bm), arith.MuliOp(tile_x, c_bn)
        if mm.batched and batch != 1:
            bz = gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.Z))
            batch_ops, matrix_index = [bz], bz.result
        if matrix_index is not None:
            matrix_index.name_hint = "matrix"
        return TileOrigin([bx, *split_ops, by, *batch_ops, c_bm, c_bn, m0, n0], m0.result, n0.result, matrix_index,
                          grid_attr(kernel, mm, config, split_k), rank)
    tiles_m, tiles_n = -(-m // config.bm), -(-n // config.bn)
    pid: SSAValue = tile_x
    if mm.batched and batch != 1:
        assert batch is not None  # the grouped order needs sizes known now
        c_tiles = const(tiles_m * tiles_n)
        which = arith.DivUIOp(tile_x, c_tiles)
        in_matrix = arith.RemUIOp(tile_x, c_tiles)
        batch_ops = [c_tiles, which, in_matrix]
        matrix_index, pid = which.result, in_matrix.result
        pid.name_hint = "tile_in_matrix"
    if matrix_index is not None:
        matrix_index.name_hint = "matrix"
    c_group, c_in_group, c_tiles_m = const(raster), const(raster * tiles_n), const(tiles_m)
    group = arith.DivUIOp(pid, c_in_group)
    first = arith.MuliOp(group, c_group)
    left = arith.SubiOp(c_tiles_m, first)
    rows = arith.MinUIOp(left, c_group)
    r = arith.RemUIOp(pid, c_in_group)
    row_in_group = arith.RemUIOp(r, rows)
    row = arith.AddiOp(first, row_in_group)
    col = arith.DivUIOp(r, rows)
    m0, n0 = arith.MuliOp(row, c_bm), arith.MuliOp(col, c_bn)
    for value, hint in ((group.result, "group"), (first.result, "first_row"), (rows.result, "rows"),
                        (r.result, "in_group"), (row.result, "tile_row"), (col.result, "tile_col")):
        value.name_hint = hint
    ops = [bx, *split_ops, *batch_ops, c_bm, c_bn, c_group, c_in_group, c_tiles_m, group, first, left, rows, r, row_in_group, row, col, m0, n0]
    ctas = split_ctas(tiles_m * tiles_n * (batch or 1), split_k, unsplit)
    grid = ArrayAttr([IntegerAttr(ctas, i64), IntegerAttr(1, i64), IntegerAttr(1, i64)])
    return TileOrigin(ops, m0.result, n0.result, matrix_index, grid, rank, ways)


def _paired_split_ops(bx: SSAValue, split_k: int, const) -> tuple[list[Operation], SSAValue, SSAValue]:
    """The ops of tile_origin's paired split walk: (ops, tile, rank)."""
    c_two, c_ways, c_split = const(2), const(2 * split_k), const(split_k)
    pairs = arith.DivUIOp(bx, c_ways)
    first = arith.MuliOp(pairs, c_two)
    member = arith.RemUIOp(bx, c_two)
    tile = arith.AddiOp(first, member)
    half = arith.DivUIOp(bx, c_two)
    rank = arith.RemUIOp(half, c_split)
    for value, hint in ((c_split.result, "split_k"), (member.result, "pair_member"), (tile.result, "tile_x"), (rank.result, "rank")):
        value.name_hint = hint
    return [c_two, c_ways, c_split, pairs, first, member, tile, half, rank], tile.result, rank.result


def _unsplit_ops(bx: SSAValue, split_k: int, unsplit: int, const) -> tuple[list[Operation], SSAValue, SSAValue, SSAValue]:
    """The ops of tile_origin's unsplit walk: (ops, tile, rank, ways)."""
    c_split, c_f, c_one, c_more = const(split_k), const(unsplit), const(1), const(split_k - 1)
    xf = arith.MinUIOp(bx, c_f)
    d = arith.SubiOp(bx, xf)
    q = arith.DivUIOp(d, c_split)
    tile = arith.AddiOp(xf, q)
    rank = arith.RemUIOp(d, c_split)
    bx1 = arith.AddiOp(bx, c_one)
    m1 = arith.MinUIOp(bx1, c_f)
    e = arith.SubiOp(bx1, m1)
    split = arith.MinUIOp(e, c_one)
    extra = arith.MuliOp(split, c_more)
    ways = arith.AddiOp(extra, c_one)
    for value, hint in ((c_split.result, "split_k"), (c_f.result, "unsplit"), (d.result, "split_cta"), (tile.result, "tile_x"),
                        (rank.result, "rank"), (split.result, "is_split"), (ways.result, "ways")):
        value.name_hint = hint
    ops: list[Operation] = [c_split, c_f, c_one, c_more, xf, d, q, tile, rank, bx1, m1, e, split, extra, ways]
    return ops, tile.result, rank.result, ways.result


def grid_attr(kernel: Operation, mm: MatmulOp, config: GemmConfig, split_k: int = 1) -> ArrayAttr:
    """``tc.grid``: ceil(N / BN) x ceil(M / BM) CTAs, times D's batch on z. A count known
    now is a number; one known at launch is [arg, dim, tile]: ceil(the size of dimension
    `dim` of argument `arg` / tile), which the launcher works out (docs/gemm.md). With
    split_k = S the x entry is S times as many ([arg, dim, tile, S] at launch)."""
    m, n, _ = mm.problem
    first = 1 if mm.batched else 0  # D's rows are its dimension 1 in a batch

    def entry(size: int | None, dim: int, tile: int, times: int = 1) -> Attribute:
        if size is not None:
            return IntegerAttr(-(-size // tile) * times, i64)
        # known at launch: D is an argument (swap-AB's view D^T needs sizes known now)
        d = list(tc.kernel_body(kernel).args).index(mm.dst)  # type: ignore[arg-type]
        return ArrayAttr([IntegerAttr(v, i64) for v in (d, dim, tile, times)[: 4 if times > 1 else 3]])

    z = entry(mm.batch, 0, 1) if mm.batched else IntegerAttr(1, i64)
    return ArrayAttr([entry(n, first + 1, config.bn, split_k), entry(m, first, config.bm), z])


def index_range_problem(mm: MatmulOp, config: GemmConfig, raster: int) -> str | None:
    """Why the kernel's index arithmetic would not fit its 32-bit registers, or None: the
    coordinates run to M, N and K rounded up to whole tiles (the last tile's, and the K
    loop's counter after its last step), and a raster group counts raster x (tile
    columns) CTAs. The op's verifier checked the sizes themselves; the grid's limits are
    the GEMM lowering's."""
    m, n, k = mm.problem
    for name, size, tile in (("M", m, config.bm), ("N", n, config.bn), ("K", k, config.bk)):
        if size is None:
            continue
        tiles = -(-size // tile)
        why = index_problem(tiles * tile, f"{name} = {size} rounded up to whole {tile}-element tiles")
        if why:
            return why
    if raster and m is not None and n is not None:
        tiles_m, tiles_n = -(-m // config.bm), -(-n // config.bn)
        batch = mm.batch or 1
        if batch > 1 and batch * tiles_m * tiles_n > MAX_INDEX:
            return (f"{batch} matrices of {tiles_m} x {tiles_n} tiles: the grouped order numbers every tile "
                    f"of the batch on the grid's x, more than the {MAX_INDEX} the kernel's 32-bit index arithmetic counts")
        if raster * tiles_n > MAX_INDEX:
            return (f"raster = {raster} makes groups of {raster} x {tiles_n} tiles, more than the "
                    f"{MAX_INDEX} the kernel's 32-bit index arithmetic counts; a raster of "
                    f"{tiles_m} (every tile row) already makes one group")
    return None


def launch_grid_problem(mm: MatmulOp, config: GemmConfig, raster: int, split_k: int = 1, unsplit: int = 0) -> str | None:
    """Why the grid a GEMM of sizes known now launches breaks CUDA's limits, or None: row
    order puts the tile rows on y (at most 65535 blocks), the grouped order puts every tile
    on x (split_k CTAs per tile). Sizes known at launch are the launcher's to check
    (lowering/runtime/sizes.py)."""
    m, n, _ = mm.problem
    batch = mm.batch if mm.batched else 1
    if raster == 0 and batch is not None and batch > MAX_GRID[2]:
        return (f"a batch of {batch}: raster = 0 puts the batch on the grid's z, and CUDA launches at most "
                f"{MAX_GRID[2]} blocks along z; a raster of 1 or more (or none given: the default) walks "
                "every tile of the batch on a 1-d grid")
    if m is None or n is None:
        return None
    tiles_m, tiles_n = -(-m // config.bm), -(-n // config.bn)
    if raster:
        tiles = split_ctas(tiles_m * tiles_n * (batch or 1), split_k, unsplit)
        if tiles > MAX_GRID[0]:
            what = f"{tiles_m} x {tiles_n} = {tiles} tiles" if not mm.batched else f"{batch} x {tiles_m} x {tiles_n} = {tiles} tiles"
            return (f"{what}: the grouped order numbers every tile on the "
                    f"grid's x, and CUDA launches (and the kernel counts) at most {MAX_GRID[0]}")
        return None
    why = grid_problem((tiles_n * split_k, tiles_m, batch or 1))
    if why and tiles_m > MAX_GRID[1]:
        return (f"raster = 0 puts the {tiles_m} tile rows (M = {m} in {config.bm}-row tiles) on the grid's y, "
                f"and CUDA launches at most {MAX_GRID[1]} blocks along y; a raster of 1 or more (or none "
                f"given: the default) walks the tiles on a 1-d grid")
    return why


__all__ = ["TileOrigin", "grid_attr", "index_range_problem", "launch_grid_problem", "tile_origin", "walk_sizes"]
