"""Reads a loop-level attention kernel (docs/attention.md, "The loop level"): before the
loop, the tiles (Q's, and the K and V rings), Q's window, O's zero start and the running
rows' fills, and the index arithmetic; the loop over blocks of keys, checked; after it,
the ops on the loop's results and O's tc.window_store.

The loop carries O (an f32 accumulator) and the online softmax's `!tc.rows`, and holds one
tc.window_load of K and one of V (each moving along the keys with the induction variable),
the QK^T tc.wgmma (Q's tile against K's ring, into an accumulator started by tc.acc_zero),
the P V tc.wgmma (P's register fragment against V's ring, into a carried value) and the
online softmax's ops between them. An 8-bit V given with its head dim contiguous is loaded
into an MN-major ring and copied into the K-major one the P V wgmma reads by a
tc.tile_transpose (the producer warpgroup's work: transpose.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator

from lower_tc.dialects import tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.grid import Grid, read_grid
from lower_tc.passes.to_ptx.gemm.index import IndexEnv
from lower_tc.passes.to_ptx.gemm.index_range import analyse
from lower_tc.passes.to_ptx.gemm.kloop import BeforeLoop, TileRing
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs, Prologue, read_operands
from lower_tc.passes.to_ptx.gemm.smem import SharedMemory

#: What a loop-level attention kernel's loop may hold besides its windows and MMAs.
SOFTMAX_OPS = (tc.AccRowMaxOp, tc.AccExpOp, tc.AccRowSumOp, tc.AccRescaleOp, tc.AccToAOp, tc.AccMaskOp, tc.AccZeroOp)
#: The loop's MMAs: wgmma (sm_90a, accumulators in registers) or tcgen05.mma (sm_100a, in
#: tensor memory), one family a kernel.
MMA_OPS = (tc.WgmmaOp, tc.Tcgen05MmaOp)
#: What else a loop may hold: V's transposition in shared memory (8-bit V, head dim contiguous).
LOOP_OPS = (WindowLoadOp, *MMA_OPS, tc.TileTransposeOp, *SOFTMAX_OPS)
Mma = tc.WgmmaOp | tc.Tcgen05MmaOp


@dataclass(frozen=True)
class KeyLoop:
    """The loop over blocks of keys, checked: its step (BN keys), bounds, the K and V
    windows and rings (V's the ring its window fills; `pv_ring` the one P V reads: V's,
    or the K-major ring `transpose` copies V's into), the two MMAs, and the ops of its
    body in order."""

    op: scf.ForOp
    step: int
    lb: int
    ub: int | SSAValue  # the keys' end: a number, or a register (a size known at launch, a causal bound)
    k_load: WindowLoadOp
    v_load: WindowLoadOp
    k_ring: TileRing
    v_ring: TileRing
    qk: Mma
    pv: Mma
    body: list[Operation]
    pv_ring: TileRing
    transpose: tc.TileTransposeOp | None = None

    @property
    def stages(self) -> int:
        return self.k_ring.stages


@dataclass
class AttentionKernel:
    """One attention kernel's lowering state that its parts share (the fields the GEMM's
    register epilogue reads have the GEMM kernel's names: b, regs, args, index,
    store_inside)."""

    kernel: Operation
    b: PtxBuilder
    regs: Prologue
    args: KernelArgs
    index: IndexEnv
    memory: SharedMemory
    grid: Grid
    q_load: WindowLoadOp
    q_ring: TileRing
    loop: KeyLoop
    before: list[Operation]  # the consumers' ops before the loop: O's zero, the rows' fills, factors known at launch
    after: list[Operation]
    store: WindowStoreOp
    store_inside: bool

    @property
    def warpgroups(self) -> int:
        """One consumer warpgroup per 64 queries."""
        return self.q_ring.layout.mn // 64

    @classmethod
    def read(cls, kernel: Operation) -> "AttentionKernel":
        """Emits the prologue and the index arithmetic before the loop; reads and checks
        the rest (located errors for anything the lowering cannot run)."""
        body = list(tc.kernel_body(kernel).ops)
        loops = [op for op in body if isinstance(op, scf.ForOp)]
        if len(loops) != 1:
            error_at(loops[1], "an attention kernel has one loop, over blocks of keys")
        at = body.index(loops[0])
        b = PtxBuilder()
        regs, args = read_operands(b, kernel)
        index = IndexEnv(b, args)
        tiles = BeforeLoop()  # the tiles and their rings, as a GEMM kernel's are read
        q_load: WindowLoadOp | None = None
        before: list[Operation] = []
        for op in body[:at]:
            if isinstance(op, tc.TransposeOp | tc.SmemTileOp):
                tiles.add(op, index)
            elif isinstance(op, WindowLoadOp):
                if q_load is not None:
                    error_at(op, "an attention kernel loads one window before its loop: Q's")
                q_load = op
            elif isinstance(op, tc.AccZeroOp | tc.RowsFillOp | memref.LoadOp | arith.MulfOp):
                before.append(op)  # the consumers' (an f32 load or product: a factor known at launch)
            elif op.dialect_name() == "tc":
                error_at(op, f"'{op.name}' cannot come before an attention kernel's loop")
            else:
                b.located(op, index.add)
        if q_load is None:
            error_at(loops[0], "an attention kernel loads Q's window (tc.window_load ... as a) before its loop")
        if q_load.operand.data is not tc.Operand.A:
            error_at(q_load, "Q's window is the QK^T wgmma's A: load it `as a`")
        rings = tiles.rings
        q_ring = rings.get(q_load.dst)
        if q_ring is None or q_ring.stages != 1:
            error_at(q_load, "Q's window goes to a tc.smem_tile of one stage in this kernel")
        grid = read_grid(kernel, args, index.uses_block_id)
        loop = read_key_loop(loops[0], index, rings, q_load)
        after = body[at + 1 :]
        stores = [op for op in after if isinstance(op, WindowStoreOp)]
        if len(stores) != 1:
            error_at(loops[0], "an attention kernel ends with one tc.window_store of O")
        store = stores[0]
        if store.c is not None or store.reduce is not None:
            error_at(store, "O's tc.window_store takes no C and no reduction")
        if (store.batch is not None and q_load.batch is None) or (store.outer is not None and q_load.outer is None):
            error_at(store, "O's tc.window_store names a head or a batch (a batch index) where Q's window names none")
        acc_t = store.acc.type
        assert isinstance(acc_t, tc.AccType)
        if acc_t.m != q_ring.layout.mn:
            error_at(store, f"O has {acc_t.m} rows but Q's tile {q_ring.layout.mn}")
        facts = analyse(kernel, index, args, grid, store, (acc_t.m, acc_t.n))
        return cls(kernel, b, regs, args, index, SharedMemory(tiles.smem_end), grid, q_load, q_ring, loop, before, after, store,
                   facts.inside)


def read_key_loop(loop: scf.ForOp, index: IndexEnv, rings: dict[SSAValue, TileRing], q_load: WindowLoadOp) -> KeyLoop:
    """The loop's facts, checked (module docstring)."""
    for bound, what in ((loop.step, "step"), (loop.lb, "lower bound")):
        if bound not in index.consts:
            error_at(loop, f"the key loop's {what} must be a constant")
    step, lb = index.consts[loop.step], index.consts[loop.lb]
    if step <= 0 or lb < 0:
        error_at(loop, f"the key loop runs from a constant >= 0 by a positive step, not from {lb} by {step}")
    ub: int | SSAValue = index.consts[loop.ub] if loop.ub in index.consts else index.reg(loop.ub, loop)
    iv = loop.body.block.args[0]
    inner = [op for op in loop.body.block.ops if not op.has_trait(IsTerminator)]
    loads = [op for op in inner if isinstance(op, WindowLoadOp)]
    mmas = [op for op in inner if isinstance(op, MMA_OPS)]
    for op in inner:
        if not isinstance(op, LOOP_OPS):
            error_at(op, f"'{op.name}' cannot be in an attention kernel's loop: it holds the K and V windows, two "
                         "MMAs (tc.wgmma, or tc.tcgen05_mma on sm_100a), the online softmax's ops and V's "
                         "tc.tile_transpose")
    transposes = [op for op in inner if isinstance(op, tc.TileTransposeOp)]
    if len(transposes) > 1:
        error_at(transposes[1], "an attention kernel's loop transposes one tile: V's")
    transpose = transposes[0] if transposes else None
    qk = [m for m in mmas if isinstance(m.a.type, tc.TileType)]
    pv = [m for m in mmas if isinstance(m.a.type, tc.AFragType)]
    if len(qk) != 1 or len(pv) != 1 or len(mmas) != 2:
        error_at(loop, f"an attention kernel's loop holds two {mmas[0].name if mmas else 'tc.wgmma'}: Q K^T (Q's tile as A) "
                       "and P V (P's fragment as A)")
    if type(qk[0]) is not type(pv[0]):
        error_at(pv[0], f"the loop's two MMAs are of one family: Q K^T is a {qk[0].name}, P V a {pv[0].name}")
    if qk[0].a is not q_load.dst:
        error_at(qk[0], "the QK^T wgmma reads Q's tile (loaded before the loop) as A")
    if not isinstance(qk[0].acc.owner, tc.AccZeroOp):
        error_at(qk[0], "the QK^T wgmma starts from tc.acc_zero: S is new for each block of keys")
    by_tile: dict[SSAValue, WindowLoadOp] = {}
    for w in loads:
        if w.operand.data is not tc.Operand.B:
            error_at(w, "the loop's windows are the wgmmas' B operands (K and V): load them `as b`")
        if w.dst in by_tile:
            error_at(w, "each ring tile is loaded by one window")
        by_tile[w.dst] = w
    if transpose is not None and transpose.dst is not pv[0].b:
        error_at(transpose, "the loop's tc.tile_transpose fills the P V wgmma's B (V's K-major tile)")
    found: list[tuple[WindowLoadOp, TileRing]] = []
    for mma, what, moving in ((qk[0], "K", "col"), (pv[0], "V", "row")):
        tile = transpose.src if transpose is not None and mma is pv[0] else mma.b
        w = by_tile.get(tile)
        ring = rings.get(tile)
        if w is None or ring is None:
            via = " (through its tc.tile_transpose)" if tile is not mma.b else ""
            error_at(mma, f"the wgmma's B ({what}) is a tc.smem_tile of this kernel loaded by a tc.window_load in the "
                          f"loop{via}")
        if getattr(w, moving) is not iv:
            axis = "column (K^T's keys)" if moving == "col" else "row (V's keys)"
            error_at(w, f"{what}'s window moves with the loop: its {axis} must be the induction variable")
        found.append((w, ring))
    (k_load, k_ring), (v_load, v_ring) = found
    if len(loads) != 2:
        error_at(loop, "an attention kernel's loop loads two windows: K's and V's")
    if k_ring.stages != v_ring.stages or k_ring.stages < 2:
        error_at(qk[0], f"K and V need the same number of stages, at least 2 (K has {k_ring.stages}, V {v_ring.stages})")
    if k_ring.layout.mn != step or v_ring.layout.k != step:
        error_at(loop, f"the loop steps by {step} keys, but K's tile holds {k_ring.layout.mn} and V's {v_ring.layout.k}")
    packs = [op for op in inner if isinstance(op, tc.AccToAOp) and op.result is pv[0].a]
    ordered = transpose is not None and transpose.accumulator_order is not None
    if packs and ordered and packs[0].accumulator_order is None:
        error_at(packs[0], "V's tile holds its keys in accumulator_order (its tc.tile_transpose): P's tc.acc_to_a "
                           "takes {accumulator_order} too")
    pv_ring = rings[pv[0].b] if transpose is not None else v_ring
    return KeyLoop(loop, step, lb, ub, k_load, v_load, k_ring, v_ring, qk[0], pv[0], inner, pv_ring, transpose)


def is_attention_kernel(kernel: Operation) -> bool:
    """A loop-level attention kernel (dialects/tc_kernel.py `is_attention_loop`)."""
    return tc.is_attention_loop(kernel)
