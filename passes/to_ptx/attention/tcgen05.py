"""The attention loop on tcgen05 (sm_100a): one warpgroup, a block of 128 queries whose S,
P and O live in tensor memory (tcgen05's M = 128 layout: thread t of warp w owns row
32w + t, in its lane), one loop over blocks of keys for every thread, thread 0 keeping
the K and V loads S blocks ahead as in the pipelined schedule (pipelined.py; docs/
attention.md, "tcgen05 (sm_100a): the attention loop").

    tensor memory, one allocation: O at column 0 (D columns), S after it (BN), P's A
        columns after S (BN / 2 words: 16-bit pairs)
    prologue: O zeroed (tcgen05.st), Q's window, blocks 0 .. S-1 of K and V
    block j (stage s = j mod S, phase p = (j div S) & 1):
        wait full[s]
        the elected thread of warp 0: S = Q K_j^T (enable-input-d off on the first
            K-slice), committed onto the "mma" barrier; every thread waits (parity 0)
        the online softmax's ops in the order written, each thread on its row
            (online_softmax_tmem.py: the row loaded once, O rescaled 32 columns at a time)
        P rounded into the A columns (tc.acc_to_a), made visible: wait::st, fenced barrier
        the elected thread: O += P V_j (A from tensor memory), committed onto "mma";
            every thread waits (parity 1)
        every thread arrives on empty[s]; thread 0 refills stage s with block j + S
    after the loop: O / l and the log-sum-exp on each thread's row, O's store (32 columns
        at a time), the log-sum-exp's; tensor memory freed

Two commits a block keep the "mma" barrier's phase the same at every block's start, so
its parities are numbers. The MMAs run one after the other with the softmax between:
FlashAttention-4 overlaps them (two S buffers, a correction warpgroup); not built.

Nothing of this has run: no Blackwell GPU is lent. ptxas assembles it for sm_100a and
the tests check its SASS.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import i1, i32, i64
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp
from lower_tc.layout import element_type
from lower_tc.passes.to_ptx.attention.block import Parts, _slices, kernel_op_of, lower_after_loop, op_lowering
from lower_tc.passes.to_ptx.attention.kernel import AttentionKernel
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.epilogue_tmem import store_rows
from lower_tc.passes.to_ptx.gemm.tcgen05 import TensorMemory
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.tcgen05 import (TMEM_COLUMNS, a_columns, accumulator_columns, allocation_columns, issue_elected,
                                            tmem_lanes, tmem_store_words, tmem_sync, tmem_written)
from lower_tc.passes.to_ptx.values import Acc, Tmem, TmemAlloc, f32

#: One warpgroup: a thread a row of the 128-row block.
THREADS = 128
#: Rows of the query block: tcgen05.mma's M.
ROWS = 128
#: The "mma" barrier's parity for each block's Q K^T and P V (two commits a block).
QK_PARITY, PV_PARITY = 0, 1


def _check(k: AttentionKernel) -> None:
    """What this schedule refuses, each at its op."""
    loop = k.loop
    if tc.PINGPONG_ATTR in k.kernel.attributes:
        error_at(k.kernel, f"{tc.PINGPONG_ATTR} takes turns between wgmma consumer warpgroups (sm_90a); the tcgen05 "
                           "attention loop has one warpgroup")
    if tc.SCHEDULE_ATTR in k.kernel.attributes:
        error_at(k.kernel, f"the tcgen05 attention loop (sm_100a) has one schedule, one loop for every thread: drop its "
                           f"{tc.SCHEDULE_ATTR}")
    if loop.transpose is not None:
        error_at(loop.transpose, "tc.tile_transpose (8-bit V) runs in the producer warpgroup of sm_90a's warp-specialised "
                                 "schedule; the tcgen05 attention loop takes 16-bit Q, K and V")
    if k.q_ring.layout.mn != ROWS:
        error_at(k.q_load, f"the tcgen05 attention loop takes blocks of {ROWS} queries (tcgen05.mma's M: a thread a row), "
                           f"not {k.q_ring.layout.mn}")
    for mma in (loop.qk, loop.pv):
        if not isinstance(mma, tc.Tcgen05MmaOp):
            error_at(mma, "an attention loop on sm_100a multiplies with tc.tcgen05_mma")
        if element_type(mma.b.type.dtype).bits != 16:  # type: ignore[attr-defined]
            error_at(mma, "the tcgen05 attention loop multiplies bf16 or f16 (8-bit attention is sm_90a's)")
        if not isinstance(mma.attributes.get("tc.idesc"), tc.IdescAttr):
            error_at(mma, "no instruction descriptor on this op: run tc-compute-descriptors first")


class _Mmas:
    """The two MMAs' operands: the descriptors of every stage, the instruction
    descriptors, and their issue by one elected thread of warp 0 with a commit onto the
    "mma" barrier every thread waits on."""

    def __init__(self, k: AttentionKernel, kl: KernelLowering, mma_bar: int) -> None:
        b, regs, loop = k.b, k.regs, k.loop
        self.k, self.kl, self.mma_bar = k, kl, mma_bar
        self.qk_desc = StageDescriptors.of_rings(b, loop.qk, (k.q_ring, loop.k_ring), _slices(k.q_ring), 1, regs.wg,
                                                 regs.smem, regs.smem16, clustered=False)
        self.pv_desc = StageDescriptors.of_rings(b, loop.pv, (None, loop.pv_ring), _slices(loop.pv_ring), 1, regs.wg,
                                                 regs.smem, regs.smem16, clustered=False)
        q64 = b.val(ptx.CvtOp, [self.qk_desc.a_fixed16], i64, type="u64.u32", comment="Q's descriptors")
        self.q_descs = [b.val(ptx.AddOp, [imm, q64], i64, type="s64") for imm in self.qk_desc.a_imms]
        self.idesc = {mma: b.imm(mma.attributes["tc.idesc"].value.data) for mma in (loop.qk, loop.pv)}  # type: ignore[union-attr]

    def issue(self, mma: tc.Tcgen05MmaOp, d: SSAValue, a: list[SSAValue], b_descs: list[SSAValue], overwrite: bool,
              parity: int, what: str) -> None:
        """The MMA's K-slices into the accumulator at tensor-memory address d, committed;
        every thread waits for them (the "mma" barrier's `parity`)."""
        k, kl = self.k, self.kl
        b = k.b
        alloc = kl.tmem_alloc
        assert alloc is not None
        if mma is self.k.loop.pv and (not alloc.synced or alloc.waited):  # threads used tensor memory or may not
            tmem_sync(kl)  # all have seen Q K^T's commit (tmem_sync); Q K^T: the stage's release ordered them
        kind = mma.attributes["tc.idesc"].kind.data  # type: ignore[union-attr]
        issue_elected(kl, f"{what}: tcgen05.mma kind::{kind}, {len(b_descs)} K-slices, one elected thread",
                      [[d, a_op, b_desc, self.idesc[mma]] for a_op, b_desc in zip(a, b_descs)], kind,
                      1 if isinstance(mma.a.type, tc.AFragType) else 0, overwrite, self.mma_bar)
        b.wait(k.regs.smem, b.imm(parity), self.mma_bar)
        b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        alloc.waited = True

    def b_descs(self, desc: StageDescriptors, s: SSAValue) -> list[SSAValue]:
        """B's descriptors of each K-slice at stage s."""
        b = self.k.b
        base = desc.b_stage64(b, s)
        return [b.val(ptx.AddOp, [imm, base], i64, type="s64") for imm in desc.b_imms]


def lower(kernel: Operation) -> ptx.KernelOp:
    """One ptx.kernel from one loop-level attention kernel on sm_100a (module docstring)."""
    k = AttentionKernel.read(kernel)
    b, regs, loop = k.b, k.regs, k.loop
    _check(k)
    mma_bar = k.memory.take(16, 8)  # the MMAs' barrier, then the slot tcgen05.alloc writes
    slot = mma_bar + 8
    parts = Parts.prepare(k, THREADS, ((mma_bar, 1),))
    warp = b.val(ptx.ShrOp, [regs.tid], type="u32", imm=5)
    kl = op_lowering(k, warp)
    kl.is_warp0 = b.val(ptx.SetpOp, [warp], i1, cmp="eq", type="u32", imm=0)
    o_t, s_t, p_t = loop.pv.acc.type, loop.qk.acc.type, loop.pv.a.type
    assert isinstance(o_t, tc.AccType) and isinstance(s_t, tc.AccType) and isinstance(p_t, tc.AFragType)
    o_cols, s_cols, a_cols = accumulator_columns(o_t.n), accumulator_columns(s_t.n), a_columns(p_t)
    need = o_cols + s_cols + a_cols
    columns = allocation_columns(need)
    if columns > TMEM_COLUMNS:
        error_at(loop.op, f"O ({o_t.n} columns), S ({s_t.n}) and P ({a_cols}) need {need} tensor-memory columns, more than "
                          f"{TMEM_COLUMNS}")
    tmem = TensorMemory.allocate(b, regs.tid, regs.smem, slot, columns, 0,
                                 f"tensor memory: O at column 0, S at {o_cols}, P at {o_cols + s_cols}: {columns} columns")
    alloc = TmemAlloc(tmem.address, columns, mma_bar, o_cols + s_cols)
    kl.tmem_alloc = alloc
    o_mem = Tmem(alloc, tmem.address, ROWS, written=True)
    s_address = b.val(ptx.AddOp, [tmem.address], type="u32", imm=o_cols)
    mmas = _Mmas(k, kl, mma_bar)

    o_arg = next(a for a in loop.op.body.block.args[1:] if isinstance(a.type, tc.AccType))
    o_init = loop.op.iter_args[loop.op.body.block.args.index(o_arg) - 1]
    for op in k.before:
        if isinstance(op, tc.AccZeroOp):
            if op.acc is not o_init:
                error_at(op, "before the tcgen05 attention loop, tc.acc_zero starts O (the loop's carried accumulator) only")
            _zero_o(kl, o_mem, o_t)
            kl.accs[op.acc] = Acc(o_t, "zero", tmem=o_mem, origin=op.acc)
        else:
            b.located(op, kl.lower)
    carried = _carry_in(kl, loop.op)

    skip = b.if_(regs.is_thread0, "producer_prologue")
    parts.load_prologue()
    b.emit(ptx.LabelOp, label=skip)
    b.wait(regs.smem, b.imm(0), parts.q_bar)
    trips, ring = parts.trips, parts.ring
    iv = loop.op.body.block.args[0]

    def body(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        kl.indices[iv] = b.add_imm(b.val(ptx.MulLoOp, [i], type="s32", imm=loop.step), loop.lb)
        ring.wait_full(s, p)
        for op in loop.body:
            if isinstance(op, WindowLoadOp):
                continue
            if isinstance(op, tc.AccZeroOp):  # S: overwritten by its first K-slice
                kl.accs[op.acc] = Acc(s_t, "zero", tmem=Tmem(alloc, s_address, ROWS), origin=op.acc)
            elif op is loop.qk:
                b.located(op, lambda o: mmas.issue(o, s_address, mmas.q_descs, mmas.b_descs(mmas.qk_desc, s), True, QK_PARITY,
                                                   "S = Q K^T"))
                kl.accs[op.result] = Acc(s_t, "zero", tmem=Tmem(alloc, s_address, ROWS, written=True), origin=op.acc)
            elif op is loop.pv:
                acc = kl.acc_of(op, op.acc)
                if op.a not in kl.tmem_a:
                    error_at(op, "the P V tc.tcgen05_mma reads P where this block's tc.acc_to_a put it in tensor memory")
                if acc.tmem is not o_mem:
                    error_at(op, "the P V tc.tcgen05_mma adds to O, carried by the loop (through tc.acc_rescale)")
                b.located(op, lambda o: mmas.issue(o, o_mem.address, kl.tmem_a[o.a], mmas.b_descs(mmas.pv_desc, s), False,
                                                   PV_PARITY, "O += P V"))
                kl.accs[op.result] = acc
            else:
                b.located(op, kl.lower)
        b.emit(ptx.MbarrierArriveOp, [ring.barrier(s)], offset=ring.empty_off, comment="this block's K and V are read")
        _carry_out(kl, loop.op, carried, o_mem)
        # thread 0 waits for every thread's release of the stage even where it loads nothing
        # more: every thread has then seen P V's commit complete, and warp 0 (whose elect.sync
        # waits for thread 0) cannot commit the next Q K^T before (the "mma" barrier keeps one
        # phase bit: a thread two phases behind would wait for ever)
        nxt = b.val(ptx.AddOp, [i], type="u32", imm=loop.stages)
        beyond = (b.val(ptx.SetpOp, [nxt], i1, cmp="ge", type="u32", imm=trips) if isinstance(trips, int)
                  else b.val(ptx.SetpOp, [nxt, trips], i1, cmp="ge", type="u32"))
        no_load = b.label("no_load")
        b.emit(ptx.BraOp, [regs.is_thread0], label=no_load, negate=1)
        ring.wait_empty(s, p)
        b.emit(ptx.BraOp, [beyond], label=no_load)
        parts.windows.load_block(nxt, s, ring.full_off)
        b.emit(ptx.LabelOp, label=no_load)
        ring.advance(s, p)

    b.located(loop.op, lambda _: b.counted_loop(trips, body))
    _finish(k, kl, o_mem, warp)
    b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory")
    b.emit(ptx.BarSyncOp)
    tmem.free(b)
    b.emit(ptx.RetOp)
    return kernel_op_of(parts, THREADS)


def _zero_o(kl: KernelLowering, o_mem: Tmem, o_t: tc.AccType) -> None:
    """O's columns zeroed, so that every P V adds to it and the first rescale multiplies
    zeros."""
    b = kl.b
    zeros = b.val(ptx.DeclRegsOp, result=ptx.RegsType(32, i32))
    b.emit(ptx.FillOp, [zeros], type="b32", value="0", comment=f"O ({o_t.m}x{o_t.n}xf32) starts at zero in tensor memory")
    taddr = tmem_lanes(kl, o_mem.address)
    for c0 in range(0, o_t.n, 32):
        tmem_store_words(kl, taddr, zeros, min(32, o_t.n - c0), c0)
    tmem_written(kl)


def _carry_in(kl: KernelLowering, loop: scf.ForOp) -> list[tuple[SSAValue, SSAValue]]:
    """The running rows' registers (one f32 a thread: its row), set from their starts;
    O's block argument is O's tensor memory."""
    b = kl.b
    carried = []
    for arg, init in zip(loop.body.block.args[1:], loop.iter_args):
        if isinstance(arg.type, tc.AccType):
            kl.accs[arg] = kl.acc_of(loop, init)
        elif isinstance(arg.type, tc.RowsType):
            reg = b.val(ptx.DeclRegsOp, result=ptx.RegsType(1, f32), comment="a running row value: this thread's row")
            row = b.val(ptx.RegOfOp, [reg], f32, regs=0)
            b.emit(ptx.AssignOp, [row, kl.rows[init][0]], type="f32")
            kl.rows[arg] = (row,)
            carried.append((arg, row))
        else:
            error_at(loop, f"the key loop carries O and the running rows (!tc.acc, !tc.rows), not {arg.type}")
    return carried


def _carry_out(kl: KernelLowering, loop: scf.ForOp, carried: list[tuple[SSAValue, SSAValue]], o_mem: Tmem) -> None:
    """The running rows take the yielded values (read all before writing any: a yielded
    row may be another's carried one); O stays where it is."""
    b = kl.b
    yielded = loop.body.block.last_op
    assert isinstance(yielded, scf.YieldOp)
    rows = dict(zip(loop.body.block.args[1:], yielded.operands))
    temps = b.val(ptx.DeclRegsOp, result=ptx.RegsType(len(carried), f32)) if carried else None
    for n, (arg, _) in enumerate(carried):
        b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [temps], f32, regs=n), kl.rows[rows[arg]][0]], type="f32")
    for n, (_, target) in enumerate(carried):
        b.emit(ptx.AssignOp, [target, b.val(ptx.RegOfOp, [temps], f32, regs=n)], type="f32")
    for arg, value in rows.items():
        if isinstance(arg.type, tc.AccType) and kl.acc_of(loop, value).tmem is not o_mem:
            error_at(loop, "the tcgen05 attention loop yields O as the P V tc.tcgen05_mma made it")


def _finish(k: AttentionKernel, kl: KernelLowering, o_mem: Tmem, warp: SSAValue) -> None:
    """The loop's results, the ops after it (O / l, the log-sum-exp) and the stores: O's
    from tensor memory, each thread its row."""

    def store_o(op: WindowStoreOp) -> None:
        if kl.acc_of(op, op.acc).tmem is not o_mem:
            error_at(op, "O's tc.window_store stores the loop's O (over its sum)")
        acc_t = op.acc.type
        assert isinstance(acc_t, tc.AccType)
        store_rows(k, op, acc_t, o_mem.address, warp)  # type: ignore[arg-type]

    lower_after_loop(k, kl, store_o)
