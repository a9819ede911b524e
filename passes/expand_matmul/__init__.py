"""tc-expand-matmul: a kernel's `tc.matmul` becomes the loop level (docs/gemm.md).

    %a = tc.smem_tile {stages = S} : !tc.tile<BMxBKxT, #tc.layout<k|mn, ...>>
    %b = tc.smem_tile {stages = S} : !tc.tile<BNxBKxT, #tc.layout<k|mn, ...>>
    %m0 = block_id.y * BM, %n0 = block_id.x * BN
    %acc = scf.for %k = 0 to K step BK iter_args(%c = tc.acc_zero) {
      tc.window_load %A[%m0, %k] to %a as a
      tc.window_load %B[%k, %n0] to %b as b
      scf.yield (tc.wgmma %a, %b, %c)
    }
    tc.window_store %acc to %D[%m0, %n0] [plus %C]

and the kernel gets `tc.grid = [ceil(N / BN), ceil(M / BM), 1]`. A tile is K-major where
its global matrix is contiguous along K, MN-major otherwise (TMA does not transpose);
an MN-major tile's atoms follow each other along K (order k_first), so that one TMA box
covers a whole column of atoms. A, B, D or C may be a `tc.transpose` view of a kernel
argument: the view stays before the loop and its window reads (or writes) it. A decoding
GEMM (M <= 80, N >= 1024) is first swapped to D^T = B^T A^T (swap_ab.py; the op's
`swap_ab` says otherwise). The configuration is the op's, or the chooser's; which tile
(and matrix of a batch) a CTA computes, and the grid, is walk.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import UnitAttr, Float16Type, Float32Type, IndexType, IntegerAttr, MemRefType, ModuleOp, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import tc
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp, matrix
from lower_tc.dialects.tc_matmul import MatmulOp
from lower_tc.dialects.tc_kernel import GRID_ATTR, SCHEDULE_ATTR
from lower_tc.dialects.tc_schedule import EPILOGUES, SCHEDULES, GemmSchedule, GemmScheduleAttr
from lower_tc.layout import Arch, LayoutError
from lower_tc.layout.limits import MAX_INDEX
from lower_tc.layout.instr_desc import check_mma_shape, kind_of
from lower_tc.layout.gemm import GemmConfig, config_problem, default_persistent, default_schedule, rule_config
from lower_tc.layout.fp8_accumulation import promoted_problem
from lower_tc.layout.split_k import unsplit_problem
from lower_tc.layout.dtypes import element_type
from lower_tc.layout.gemm_choice import (MN_BOX_BYTES, SWAP_MAX_M, Choice, choose, choose_config, d_transposed_storable, default_multicast,
                                         fit_promoted, mn_boxes, mn_boxes_halve, pair_open, prefer_persistent, prefer_swap, swap_config, swapped_tile, wide_swap)
from lower_tc.dialects.diagnostics import error_at, remark_at
from lower_tc.dialects.pass_order import require
from lower_tc.passes.expand_matmul.split_k import check_split_k as _check_split_k, check_stream_k as _check_stream_k, k_slice_ops
from lower_tc.passes.expand_matmul.swap_ab import swap, swap_conflict
from lower_tc.passes.expand_matmul.walk import index_range_problem, launch_grid_problem, tile_origin, walk_sizes


#: The builtin element type of each accumulator type.
ACC_ELEMENT_TYPES = {"f32": Float32Type(), "f16": Float16Type(), "s32": i32}


def tile_type(rows: int, bk: int, elt, k_major: bool) -> tc.TileType:
    layout = tc.LayoutAttr("k") if k_major else tc.LayoutAttr("mn", order="k_first")
    return tc.TileType([rows, bk], elt, layout)


def b_rows(b_t: MemRefType) -> tuple[bool, int | None]:
    """(B row-major: its tiles MN-major, the bytes from one of B's rows (K) to the next: None
    where its leading dimension is known only at launch)."""
    geometry = matrix(b_t, "B", batched=True)
    bits = element_type(tc.dtype_name(b_t.element_type)).bits
    return geometry.row_major, None if geometry.ld is None else geometry.ld * bits // 8


def swap_geometry(mm: MatmulOp) -> dict[str, bool | int | None]:
    """What the chooser's row-major swap (layout/gemm_choice.py `wide_swap`, the tuner's
    `candidates`) weighs of the op's A, C and D besides B: A MN-major, a C, D row-major
    and its leading dimension (None: known at launch)."""
    a_t, d_t = mm.a.type, mm.dst.type
    assert isinstance(a_t, MemRefType) and isinstance(d_t, MemRefType)
    d = matrix(d_t, "D", batched=True)
    return {"a_mn_major": not matrix(a_t, "A", batched=True).row_major, "with_c": mm.c is not None,
            "d_row_major": d.row_major, "d_ld": d.ld}


def check_view(view: tc.TransposeOp, mm: MatmulOp, body: Block) -> None:
    """A tc.transpose beside tc.matmul views a kernel argument that the matmul reads (A or
    B) or writes (D, with C: the kernel stores D^T into the argument); the loop level
    keeps it, its windows read or write the view (located errors)."""
    if view.source not in body.args:
        error_at(view, "tc.transpose beside tc.matmul views a kernel argument (not another view)")
    for use in view.result.uses:
        if isinstance(use.operation, tc.TransposeOp):
            error_at(use.operation, "tc.transpose beside tc.matmul views a kernel argument (not another view)")
        if use.operation is not mm:
            error_at(use.operation, "a tc.transpose view beside tc.matmul is one of its operands")


def _choice(op: MatmulOp, arch: Arch, split_open: bool, cluster: int, pair: bool = False) -> Choice:
    """The op's configuration and split-K: as given, else the default chooser's
    (layout/gemm_choice.py), which splits K only where `split_open` (nothing given or
    asked of the pass rules split-K out, `_split_open`) and pairs a global split's CTAs
    to share B only where `pair` (`_pair_open`); a cluster of `cluster` CTAs (given or
    the default's, `_cluster`) takes the rule's tiles."""
    m, n, k = op.problem
    a, b = op.types
    acc = op.acc_type
    given = op.options.split_k
    reduce = op.options.reduce or "cluster"
    unsplit = op.options.unsplit or 0
    if unsplit and given is None:  # the tiles after the first F are split by the S given
        error_at(op, unsplit_problem(unsplit, 1, reduce, None) or "")
    if op.config is not None:
        config = op.config.config
        why = config_problem(config, a, b, acc, arch)
        if why:
            error_at(op, why)
        return Choice(config, given or 1, reduce, unsplit)
    d = tc.dtype_name(op.dst.type.element_type)  # type: ignore[union-attr]
    promoted = op.options.accumulation == "promoted" and arch is Arch.SM90A  # two accumulators: smaller tiles
    assert isinstance(op.b.type, MemRefType)
    b_mn_major = b_rows(op.b.type)[0]  # B row-major: its tiles MN-major, which some widths read slower
    assert isinstance(op.a.type, MemRefType)
    a_mn_major = not matrix(op.a.type, "A", batched=True).row_major  # A column-major: some measured prices do not hold
    if cluster > 1:  # a cluster's CTAs share B's boxes: the rule's tiles (docs/gemm.md)
        try:
            rule = rule_config(m, n, k, a, b, acc, arch)
            return Choice(fit_promoted(rule, a, b, acc, arch) if promoted else rule, given or 1, reduce)
        except LayoutError as err:
            error_at(op, str(err))
    try:
        if given is not None:  # split-K asked for (or 1: not split): the best configuration for it
            config = choose_config(m, n, k, a, b, acc, arch, d=d, batch=op.batch, promoted=promoted, b_mn_major=b_mn_major,
                                   split_given=given > 1, a_mn_major=a_mn_major)
            return Choice(config, given, reduce, unsplit)
        reduces = (op.options.reduce,) if op.options.reduce is not None else None
        # stream-K in G groups: a tile whose count G divides (tc-expand-matmul refuses the others)
        return choose(m, n, k, a, b, acc, arch, d=d, batch=op.batch, split=split_open, promoted=promoted, reduces=reduces,
                      b_mn_major=b_mn_major, groups=op.options.stream_k or 1, pair=pair, a_mn_major=a_mn_major)
    except LayoutError as err:
        error_at(op, str(err))


@dataclass(frozen=True)
class ExpandMatmulPass(ModulePass):
    """Expands each kernel's tc.matmul into a pipelined K loop (the loop level).

    Options: ``remarks=true`` prints each chosen configuration as a located remark;
    ``schedule``, ``raster`` and ``epilogue`` choose how the kernel runs
    (docs/performance.md) where the op does not say it itself (its options of the
    same names, tc_schedule.GEMM_OPTIONS). The op's options, checked here where they
    do not go together, become the kernel's ``tc.schedule = #tc.gemm_schedule<...>``."""

    name = "tc-expand-matmul"
    remarks: bool = False
    schedule: str = "auto"  # auto, pipelined or warp_specialized (sm_90a; sm_100a only when asked)
    raster: int = -1  # CTAs walk the tiles in groups of this many tile rows; 0: row by row; -1: auto
    epilogue: str = "auto"  # auto (TMA stores where they apply), tma or registers (sm_90a)

    def __post_init__(self) -> None:
        """Bad options are the command line's error, found before any input is read."""
        if self.schedule not in ("auto", *SCHEDULES):
            raise ValueError(f"tc-expand-matmul: schedule={self.schedule}: one of auto, {', '.join(SCHEDULES)}")
        if self.epilogue not in ("auto", *EPILOGUES):
            raise ValueError(f"tc-expand-matmul: epilogue={self.epilogue}: one of auto, {', '.join(EPILOGUES)}")
        if not -1 <= self.raster <= MAX_INDEX:
            raise ValueError(f"tc-expand-matmul: raster={self.raster}: a group size up to {MAX_INDEX}, 0 for none or -1 for auto")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = tc.tc_kernels(op)
        require(op, self.name, kernels)  # no linalg left: convert-linalg-to-tc ran
        for kernel in kernels:
            body = tc.kernel_body(kernel)
            matmuls = [o for o in body.ops if isinstance(o, MatmulOp)]
            if not matmuls:
                continue
            if len(matmuls) > 1:
                error_at(matmuls[1], "one tc.matmul per kernel: each matmul is a kernel of its own")
            mm = matmuls[0]
            for other in body.ops:
                if isinstance(other, tc.TransposeOp):
                    check_view(other, mm, body)
                elif other is not mm and not other.has_trait(IsTerminator):
                    error_at(other, f"'{other.name}' beside tc.matmul: a matmul kernel holds the matmul alone "
                                    "(and tc.transpose views of its arguments)")
            self._expand(kernel, mm)

    def _choices(self, mm: MatmulOp, arch: Arch, config: GemmConfig) -> tuple[str, int]:
        """(schedule, raster): the op's options, else the pass options, else the default
        (default_schedule in layout/gemm.py). The op's verifier checked their values."""
        m, n = walk_sizes(mm)
        auto_schedule, auto_raster = default_schedule(m, n, config)
        given = mm.options
        schedule = given.schedule or self.schedule
        raster = given.raster if given.raster is not None else self.raster
        if arch is not Arch.SM90A:  # sm_100a: one loop unless warp specialisation is asked for
            if schedule != "warp_specialized":
                return "pipelined", 0
            return schedule, (auto_raster if raster == -1 else raster)
        return (auto_schedule if schedule == "auto" else schedule), (auto_raster if raster == -1 else raster)

    def _cluster(self, mm: MatmulOp, arch: Arch, swapped: bool) -> int:
        """The op's cluster size as given, else 2 where the chooser prefers B's loads shared
        (layout/gemm_choice.py `prefer_multicast`: a 16-bit row-major B whose rows are not
        whole L2 lines), nothing given or asked of the pass rules a cluster out (a
        configuration, split-K, swap-AB, a batch, sizes known at launch, the pipelined
        schedule or an odd raster) and the rule's tiles fit a pair (`multicast_fits`); else 1."""
        given = mm.options
        if given.cluster is not None:
            return given.cluster
        if arch is not Arch.SM90A or swapped or mm.batched or mm.config is not None or given.split_k is not None:
            return 1
        m, n, k = mm.problem
        if m is None or n is None or k is None:
            return 1
        b_t = mm.b.type
        assert isinstance(b_t, MemRefType)
        row_major, row_bytes = b_rows(b_t)
        a, b = mm.types
        config = default_multicast(m, n, k, a, b, mm.acc_type, row_bytes, row_major)
        if config is None:
            return 1
        schedule, raster = self._choices(mm, arch, config)  # as given, where given
        return 2 if schedule == "warp_specialized" and raster >= 2 and raster % 2 == 0 else 1

    def _epilogue(self, mm: MatmulOp) -> str | None:
        """The epilogue asked for: the op's, else the pass's (None: auto, TMA stores where
        they apply)."""
        return mm.options.epilogue or (None if self.epilogue == "auto" else self.epilogue)

    def _split_open(self, mm: MatmulOp) -> bool:
        """Whether the default chooser may split the op's K (layout/gemm_choice.py
        `choose`): not where the op asks for what split-K does not go with (persistent,
        a cluster of 2, TMA stores, asked of the op or, the op not saying, of the pass),
        or sets mma_depth (a split's tile may have fewer stages than the depth asked for)."""
        given = mm.options
        return not (given.persistent or (given.cluster or 1) > 1 or self._epilogue(mm) == "tma"
                    or given.mma_depth is not None or given.stream_k)

    def _pair_open(self, mm: MatmulOp, arch: Arch) -> bool:
        """Whether the default chooser may pair a global split's CTAs in clusters of 2
        sharing B (layout/gemm_choice.py `paired_split`): sm_90a, no cluster given, and the
        schedule and raster asked (of the op, else of the pass) leave the warp-specialised
        kernel with an even raster group."""
        given = mm.options
        schedule = given.schedule or self.schedule
        raster = given.raster if given.raster is not None else self.raster
        return arch is Arch.SM90A and pair_open(schedule, raster, given.cluster)

    def _swap(self, mm: MatmulOp, arch: Arch) -> MatmulOp | None:
        """The op swapped to D^T = B^T A^T (swap_ab.py) where it asks for it (a located
        error where it cannot be) or, not saying, where the chooser prefers it and nothing
        given or asked of the pass rules it out; else None. A swap asked for without a
        configuration takes the swapped problem's tile (`swapped_tile`)."""
        given = mm.options.swap_ab
        if given is False:
            return None
        conflict = swap_conflict(mm, arch)
        m, n, k = mm.problem
        a, b = mm.types
        asked = self._epilogue(mm)
        promoted = mm.options.accumulation == "promoted"  # its K step is at most one 128-byte fp8 row
        config: GemmConfig | None = None
        if given is None:
            if conflict or mm.config is not None or mm.options.split_k is not None:
                return None
            # the chooser's decoding swap was sized and measured with the register epilogue's
            # room (its narrowest tiles have no TMA-store epilogue): not where TMA stores are asked for
            if prefer_swap(m, n) and asked != "tma":  # type: ignore[arg-type]
                config = swap_config(m, n, b, a, mm.acc_type, promoted=promoted)  # type: ignore[arg-type]
            elif asked != "registers":
                config = self._wide_swap(mm)
            if config is None:
                return None
        elif conflict:
            error_at(mm, f"swap_ab = true: {conflict}")
        elif mm.config is None:
            # a decoding M's staging is sized only where TMA stores are asked for (as above);
            # a wider swapped tile keeps room for them wherever they would apply
            staged = asked == "tma" or (asked is None and m > SWAP_MAX_M and self._d_transposed_storable(mm))  # type: ignore[operator]
            config = swapped_tile(m, n, k, a, b, mm.acc_type, d=self._d_type(mm), staged=staged,  # type: ignore[arg-type]
                                  split=mm.options.split_k or 1, b_mn_major=b_rows(mm.b.type)[0], promoted=promoted)
        try:
            return swap(mm, config)
        except VerifyException as err:
            if given:
                error_at(mm, f"swap_ab = true: the swapped op D^T = B^T A^T does not verify: {err}")
            return None

    @staticmethod
    def _d_type(mm: MatmulOp) -> str:
        return tc.dtype_name(mm.dst.type.element_type)  # type: ignore[union-attr]

    @staticmethod
    def _d_transposed_storable(mm: MatmulOp) -> bool:
        """Whether the TMA-store epilogue could store D^T of the op swapped
        (layout/gemm_choice.py `d_transposed_storable`): D row-major (its transposed
        view is what the swapped op stores), sizes known."""
        m, n, _ = mm.problem
        geometry = swap_geometry(mm)
        if not geometry["d_row_major"] or m is None or n is None or geometry["d_ld"] is None:
            return False
        return d_transposed_storable(m, n, ExpandMatmulPass._d_type(mm), mm.acc_type, with_c=mm.c is not None,
                                     d_ld=geometry["d_ld"])  # type: ignore[arg-type]

    def _wide_swap(self, mm: MatmulOp) -> GemmConfig | None:
        """The swapped kernel's configuration where the chooser prices it faster for a
        row-major 16-bit B and the TMA-store epilogue can store D^T into a row-major D
        (layout/gemm_choice.py `wide_swap`); else None. `swap_conflict` has already ruled
        out a batch and sizes known at launch."""
        geometry = swap_geometry(mm)
        m, n, k = mm.problem
        assert isinstance(mm.b.type, MemRefType)
        a, b = mm.types
        return wide_swap(m, n, k, a, b, mm.acc_type, d=self._d_type(mm), b_mn_major=b_rows(mm.b.type)[0],  # type: ignore[arg-type]
                         a_mn_major=bool(geometry["a_mn_major"]), with_c=mm.c is not None,
                         d_row_major=bool(geometry["d_row_major"]), d_ld=geometry["d_ld"],  # type: ignore[arg-type]
                         split=self._split_open(mm))

    def _expand(self, kernel, mm: MatmulOp) -> None:
        arch = tc.kernel_target(mm) or Arch.SM90A
        given_config = mm.config is not None
        swapped = self._swap(mm, arch)
        if swapped is not None:
            mm = swapped
        cluster = self._cluster(mm, arch, swapped is not None)
        choice = _choice(mm, arch, self._split_open(mm) and cluster == 1, cluster,
                         pair=cluster == 1 and swapped is None and self._pair_open(mm, arch))
        if choice.cluster == 2:  # the chooser paired a global split's CTAs to share B
            cluster = 2
        config, split_k = choice.config, choice.split_k
        reduce = choice.reduce if split_k > 1 else "cluster"
        unsplit = choice.unsplit
        m, n, k = mm.problem
        if self.remarks:
            who = f"{config.warpgroups} warpgroup(s)" if arch is Arch.SM90A else "tcgen05, one warpgroup"
            schedule, raster = self._choices(mm, arch, config)
            how = f", {schedule}, raster {raster}" if arch is Arch.SM90A else ""
            if arch is not Arch.SM90A and schedule == "warp_specialized":
                who, how = "tcgen05: TMA warp, MMA warp, epilogue warpgroup", f", raster {raster}"
            batch = "" if not mm.batched else f"{'?' if mm.batch is None else mm.batch} x "
            split = f", split over K by {split_k}" + (" through global memory" if reduce == "global" else "") if split_k > 1 else ""
            split += f" after {unsplit} unsplit tiles" if unsplit else ""
            split += ", promoted accumulation" if mm.options.accumulation == "promoted" else ""
            split += ", swapped: D^T = B^T A^T" if swapped is not None else ""
            if cluster == 2 and mm.options.cluster is None:
                split += (", B shared by a cluster of 2 (its rows are not whole L2 lines)" if split_k == 1
                          else ", paired in clusters of 2 sharing B")
            elif cluster == 2 and arch is Arch.SM90A:
                split += ", B shared by a cluster of 2"
            split += f", stream-K in {mm.options.stream_k} group(s)" if mm.options.stream_k else ""
            remark_at(mm, f"{config} ({who}{how}{split}) for {batch}" + "x".join("?" if x is None else str(x) for x in (m, n, k)) + (" (given)" if given_config else " (chosen)"))
        a_t, b_t = mm.a.type, mm.b.type
        assert isinstance(a_t, MemRefType) and isinstance(b_t, MemRefType)
        geometry_a, geometry_b = matrix(a_t, "A", batched=True), matrix(b_t, "B", batched=True)
        a_k_major = geometry_a.row_major
        b_k_major = not geometry_b.row_major
        index = IndexType()

        def const(v: int) -> arith.ConstantOp:
            return arith.ConstantOp(IntegerAttr(v, index))

        # sm_100a's cluster of two is a CTA pair: one M = 256 MMA (cta_group::2) over both
        # CTAs' tiles, each CTA holding its 128 rows of A and half of B's BN columns
        pair = cluster == 2 and arch is not Arch.SM90A
        if pair:  # the pair's MMA is M = 256 by N = BN (layout/instr_desc.py)
            try:
                check_mma_shape(kind_of(tc.dtype_name(a_t.element_type)), 2 * config.bm, config.bn)
            except LayoutError as err:
                error_at(mm, f"a CTA pair's MMA (BM = {config.bm} in each CTA): {err}")
        a_tile = tc.SmemTileOp(tile_type(config.bm, config.bk, a_t.element_type, a_k_major), config.stages)
        b_tile = tc.SmemTileOp(tile_type(config.bn // 2 if pair else config.bn, config.bk, b_t.element_type, b_k_major), config.stages)
        schedule, raster = self._choices(mm, arch, config)
        if split_k > 1:
            _check_split_k(mm, arch, config, split_k, reduce, unsplit, raster)
        why = index_range_problem(mm, config, raster) or launch_grid_problem(mm, config, raster, split_k, unsplit)
        if why:
            error_at(mm, why)
        # a cluster of 2 sharing B with a global split pairs one rank's CTAs of two tiles (walk.py)
        paired_split = cluster == 2 and split_k > 1 and reduce == "global"
        origin = tile_origin(kernel, mm, config, raster, const, split_k, unsplit, pair=paired_split)
        tile_ops, m0, n0, grid = origin.ops, origin.m0, origin.n0, origin.grid
        matrix_index = origin.batch
        # a window into a batch names the matrix: the tile's, or 0 in a batch of 1 (the
        # same matrix for every one); a 2-d operand names none
        window_batch: dict[str, SSAValue | None] = {}
        for what, g in (("A", geometry_a), ("B", geometry_b)):
            if not g.batched:
                window_batch[what] = None
            elif g.batch == 1:
                zero = const(0)
                tile_ops.append(zero)
                window_batch[what] = zero.result
            else:
                window_batch[what] = matrix_index
        c0, c_bk = const(0), const(config.bk)
        if k is not None:
            c_k: Operation = const(k)
            k_ops: list[Operation] = [c_k]
        else:  # K known at launch: the loop runs to A's column count
            c_kdim = const(2 if geometry_a.batched else 1)
            c_k = memref.DimOp(mm.a, c_kdim)
            k_ops = [c_kdim, c_k]
        acc_type = tc.AccType([config.bm, config.bn], ACC_ELEMENT_TYPES[mm.acc_type])
        zero = tc.AccZeroOp(acc_type)
        loop_body = Block(arg_types=[index, acc_type])
        kv, carried = loop_body.args
        load_a = WindowLoadOp(mm.a, m0, kv, a_tile.tile, tc.Operand.A, window_batch["A"])
        b_col = n0
        if pair:  # this CTA's half of B: columns n0 + rank BN/2, rank = block index mod 2
            c_two, c_half = const(2), const(config.bn // 2)
            rank = arith.RemUIOp(tile_ops[0].results[0], c_two)
            offset = arith.MuliOp(rank, c_half)
            b_col_op = arith.AddiOp(n0, offset)
            rank.result.name_hint, b_col_op.result.name_hint = "pair_rank", "n0_half"
            tile_ops += [c_two, c_half, rank, offset, b_col_op]
            b_col = b_col_op.result
        load_b = WindowLoadOp(mm.b, kv, b_col, b_tile.tile, tc.Operand.B, window_batch["B"])
        if arch is Arch.SM90A:
            mma = tc.WgmmaOp(a_tile.tile, b_tile.tile, carried)
        else:
            mma = tc.Tcgen05MmaOp.build(operands=[a_tile.tile, b_tile.tile, carried], result_types=[acc_type],
                                        properties={"cta_pair": UnitAttr()} if pair else {})
        loop_body.add_ops([load_a, load_b, mma, scf.YieldOp(mma.result)])
        k_lo: SSAValue = c0.result
        k_hi: SSAValue = c_k.results[0]
        slice_ops: list[Operation] = []
        if origin.rank is not None:  # this rank's K tiles [r T / S, (r + 1) T / S)
            slice_ops, k_lo, k_hi = k_slice_ops(origin.rank, c_k.results[0], k, config.bk, split_k, c_bk.result, const,
                                                origin.ways)
        loop = scf.ForOp(k_lo, k_hi, c_bk, [zero.acc], Region(loop_body))
        store = WindowStoreOp(loop.results[0], mm.dst, m0, n0, mm.c, matrix_index, reduce=reduce if split_k > 1 else None)
        new_ops = [a_tile, b_tile, *tile_ops, c0, *k_ops, c_bk, *slice_ops, zero, loop, store]
        hints = [(a_tile.tile, "a"), (b_tile.tile, "b"), (m0, "m0"), (n0, "n0"),
                 (c0.result, "c0"), (c_k.results[0], "k_end"), (c_bk.result, "bk"), (zero.acc, "zero"),
                 (kv, "k"), (carried, "acc"), (mma.result, "next"), (loop.results[0], "result")]
        for value, hint in hints:
            value.name_hint = hint
        block = mm.parent_block()
        assert block is not None
        for o in new_ops:
            o.location = mm.location
            block.insert_op_before(o, mm)
        for o in loop_body.ops:
            o.location = mm.location
        mm.detach()
        mm.erase()
        kernel.attributes[GRID_ATTR] = grid
        kernel.attributes[SCHEDULE_ATTR] = GemmScheduleAttr.from_schedule(
            self._kernel_schedule(mm, arch, config, schedule, raster, cluster, split_k, reduce, unsplit))
        try:
            for o in new_ops:
                o.verify()
        except VerifyException as err:
            error_at(mm, f"the expanded kernel does not verify: {err}")

    def _kernel_schedule(self, mm: MatmulOp, arch: Arch, config: GemmConfig, schedule: str, raster: int, cluster: int, split_k: int = 1,
                         reduce: str = "cluster", unsplit: int = 0) -> GemmSchedule:
        """The kernel's #tc.gemm_schedule: the op's options with the chosen schedule, where
        they go together (each error at the op)."""
        m, n = walk_sizes(mm)
        k = mm.problem[2]
        given = mm.options
        if given.persistent and not default_persistent(schedule, raster, m, n):
            error_at(mm, "a persistent GEMM is warp-specialised and walks the tiles in the grouped order (raster >= 1, sizes known at compile time)")
        # the persistent wgmma kernel unrolls each tile's last stages: its K loop's count is static
        wgmma_k_known = arch is not Arch.SM90A or k is not None
        if given.persistent and not wgmma_k_known:
            error_at(mm, "a persistent wgmma GEMM (sm_90a) needs K known at compile time (its K loop's count is static); K here is known only at launch")
        stream_k = given.stream_k or 0
        if stream_k:
            _check_stream_k(mm, arch, config, schedule, raster, stream_k)
        persistent = given.persistent if given.persistent is not None else stream_k or (
            arch is Arch.SM90A and wgmma_k_known and split_k == 1 and default_persistent(schedule, raster, m, n)
            and prefer_persistent(m, n, config, mm.batch or 1))  # type: ignore[arg-type]
        depth = given.mma_depth
        if depth is not None:
            if not depth < config.stages:
                error_at(mm, f"mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = {config.stages - 1}, not {depth}")
            if schedule != "warp_specialized":
                error_at(mm, "mma_depth is for the warp-specialised schedule (schedule = \"warp_specialized\")")
            if arch is not Arch.SM90A:
                error_at(mm, "mma_depth counts wgmma groups: the warp-specialised tcgen05 GEMM (sm_100a) has none")
        if cluster == 2:
            tiles_m = -(-m // config.bm) if m is not None else None
            if schedule != "warp_specialized" or raster < 2 or raster % 2 or tiles_m is None or n is None or tiles_m % 2:
                error_at(mm, "a cluster of 2 pairs CTAs in the same columns of D: it needs the warp-specialised schedule, an even raster group, sizes known at compile time and an even number of tile rows"
                         + (f" (here {tiles_m})" if tiles_m is not None and tiles_m % 2 else ""))
            if arch is Arch.SM90A:
                b_t = mm.b.type
                assert isinstance(b_t, MemRefType)
                bits = element_type(tc.dtype_name(b_t.element_type)).bits
                row_bytes = config.bn * bits // 8
                # an MN-major B's boxes are its 128-byte swizzle rows (a width of part of one
                # takes narrower swizzles, whose boxes the pair cannot split); a K-major B's
                # box is cut in two along its rows (layout/tma.py)
                if b_rows(b_t)[0] and not mn_boxes_halve(config.bn, bits):
                    boxes = mn_boxes(config.bn, bits)
                    what = (f"{boxes} boxes of {config.bn // boxes} columns, an odd number" if row_bytes % MN_BOX_BYTES == 0
                            else f"{row_bytes} bytes a row of B, not whole {MN_BOX_BYTES}-byte boxes")
                    error_at(mm, f"a cluster of 2 shares B's TMA boxes between the pair: BN = {config.bn} is {what} "
                                 f"(a row-major B's BN must be a multiple of {2 * MN_BOX_BYTES * 8 // bits} columns)")
        # a split-K kernel stores from registers after its reduction: the pass's epilogue
        # option is for the others (the op's own "tma" was refused)
        epilogue = given.epilogue or (None if split_k > 1 else self._epilogue(mm))
        accumulation = given.accumulation or "fast"
        if accumulation == "promoted":
            a, b = mm.types
            why = promoted_problem(a, b, mm.acc_type, config.bm, config.bn, config.bk, arch)
            if why:
                error_at(mm, why)
        kernel_schedule = GemmSchedule(schedule, persistent, depth or 1, cluster, epilogue, given.l2_promotion, split_k,
                                       reduce=reduce, unsplit=unsplit, stream_k=stream_k, accumulation=accumulation)
        problem = kernel_schedule.problem()  # what the options' table says does not go together (mma_depth with promoted)
        if problem:
            error_at(mm, problem[1])
        return kernel_schedule
