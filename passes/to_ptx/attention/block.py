"""The parts both attention schedules (pipelined.py, specialized.py) are made of: Q's, K's
and V's windows and their loads, the ring, and a consumer warpgroup's work on one block
of keys (the two MMAs and the online softmax's ops between them, lowered in the order
written), the carried values, what follows the loop, and the kernel's metadata.

A consumer warpgroup w (0 .. BM/64 - 1) owns query rows 64w .. 64w + 63 of the block: its
S, P and O are m64 fragments in registers, and the softmax's ops are lowered by their
single-tile lowerings (passes/to_ptx/online_softmax.py) on a KernelLowering whose warp
register is the consumer's warp (its rows 16 warp + g).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import Float32Type, IntAttr, MemRefType, i1, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_attention import ATTENTION_TYPES
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp
from lower_tc.layout.kernel_info import AttentionInfo, KernelInfo, TensorMap
from lower_tc.layout.smem_transpose import THREADS as TRANSPOSE_THREADS
from lower_tc.passes.to_ptx import LOWERINGS
from lower_tc.passes.to_ptx.accumulators import fragment_row, wgmma_acc, wgmma_regs_type
from lower_tc.passes.to_ptx.attention.kernel import AttentionKernel
from lower_tc.passes.to_ptx.emit import PtxBuilder, kernel_op
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.epilogue_registers import store_fragments
from lower_tc.passes.to_ptx.gemm.kloop import TileRing
from lower_tc.passes.to_ptx.gemm.launch import arg_info, kernel_params
from lower_tc.passes.to_ptx.gemm.operands import waits_first
from lower_tc.passes.to_ptx.gemm.ring import Ring, stage_barrier
from lower_tc.passes.to_ptx.gemm.tma_loads import Window, load_boxes, read_window, stage_tile
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.row_math import scores_factor_once
from lower_tc.passes.to_ptx.tcgen05 import tmem_row
from lower_tc.passes.to_ptx.values import Acc
from lower_tc.passes.to_ptx.wgmma import wgmma_props

f32 = Float32Type()


@dataclass(frozen=True)
class Windows:
    """Q's, K's and V's windows with their tensor maps (parameters tmap_0, 1, 2), and where
    each is loaded: Q once, K and V block by block."""

    k: AttentionKernel
    q: Window
    kw: Window
    vw: Window
    maps: tuple[TensorMap, TensorMap, TensorMap]
    q_col: SSAValue  # Q's first head-dim column (its K coordinate)

    @classmethod
    def read(cls, k: AttentionKernel) -> "Windows":
        """The windows and tensor maps; emits the maps' addresses and Q's column."""
        loop = k.loop
        q, qmap = read_window(k.q_load, k.q_ring, "tmap_0", k.args, k.index, None, k.q_load.row)
        kw, kmap = read_window(loop.k_load, loop.k_ring, "tmap_1", k.args, k.index, None, loop.k_load.row)
        vw, vmap = read_window(loop.v_load, loop.v_ring, "tmap_2", k.args, k.index, None, loop.v_load.col)
        for w, what in ((q, "Q"), (kw, "K"), (vw, "V")):
            w.tmap = k.b.val(ptx.ParamAddrOp, result=i64, param=w.param,
                             comment=f"{what} by TMA: {len(w.plan.boxes)} box(es) of {w.plan.box[0]}x{w.plan.box[1]}")
        return cls(k, q, kw, vw, (qmap, kmap, vmap), k.index.reg(k.q_load.col, k.q_load))

    @property
    def stage_bytes(self) -> int:
        return self.kw.plan.bytes + self.vw.plan.bytes

    def load_q(self, mbar_off: int) -> None:
        """Q's tile: one expect_tx and its boxes on its own barrier."""
        b, smem = self.k.b, self.k.regs.smem
        b.emit(ptx.MbarrierArriveExpectTxOp, [smem], offset=mbar_off, bytes=self.q.plan.bytes)
        load_boxes(b, self.q, self.q_col, self.q.outer_coord, smem, self.q.ring.layout.address, smem, mbar_off)

    def load_block(self, j: SSAValue | int, stage: SSAValue | int, full_off: int) -> None:
        """Keys j x BN .. of K and V into `stage`, completing full[stage]."""
        k = self.k
        b, smem, step, lb = k.b, k.regs.smem, k.loop.step, k.loop.lb
        mbar, mbar_off = stage_barrier(b, smem, stage, full_off)
        b.emit(ptx.MbarrierArriveExpectTxOp, [mbar], offset=mbar_off, bytes=self.stage_bytes)
        key = b.imm(lb + j * step, "s32") if isinstance(j, int) else b.add_imm(b.val(ptx.MulLoOp, [j], type="s32", imm=step), lb)
        for w, k_coord, mn_coord in ((self.kw, self.kw.outer_coord, key), (self.vw, key, self.vw.outer_coord)):
            dst, dst_off = stage_tile(b, smem, stage, w.ring)
            load_boxes(b, w, k_coord, mn_coord, dst, dst_off, mbar, mbar_off)


def _trips(k: AttentionKernel) -> int | SSAValue:
    """The loop's iterations: a number, or ceil((ub - lb) / step) at run time."""
    loop, b = k.loop, k.b
    if isinstance(loop.ub, int):
        trips = -(-(loop.ub - loop.lb) // loop.step)
        if trips <= 0:
            error_at(loop.op, "the key loop runs no iteration: it needs at least one block of keys")
        return trips
    span = b.add_imm(loop.ub, loop.step - 1 - loop.lb)
    return b.val(ptx.DivOp, [span], type="s32", imm=loop.step, comment="blocks of keys, counted at run time")


def _slices(ring: TileRing) -> int:
    """wgmma instructions a stage of `ring` takes: its K over one instruction's (16 for
    16-bit types, 32 for 8-bit)."""
    layout = ring.layout
    return layout.k // layout.dtype.k_per_instruction


def _mma_props(mma: tc.WgmmaOp) -> dict[str, object]:
    a_t, b_t, acc_t = mma.a.type, mma.b.type, mma.acc.type
    assert isinstance(a_t, tc.TileType | tc.AFragType) and isinstance(b_t, tc.TileType) and isinstance(acc_t, tc.AccType)
    return wgmma_props(a_t, b_t, acc_t.dtype, a_in_registers=isinstance(a_t, tc.AFragType))


def _check_mma(mma: tc.WgmmaOp, warpgroups: int) -> None:
    a_t, acc_t = mma.a.type, mma.acc.type
    assert isinstance(acc_t, tc.AccType)
    if a_t.dtype not in ATTENTION_TYPES:  # type: ignore[union-attr]
        error_at(mma, f"an attention loop multiplies bf16, f16 or 8-bit floats, not {a_t.dtype}")  # type: ignore[union-attr]
    if acc_t.dtype != "f32" or acc_t.m != 64 * warpgroups:
        error_at(mma, f"the wgmma's accumulator is {acc_t.m}x{acc_t.n}x{acc_t.dtype}: f32 with Q's {64 * warpgroups} rows")
    if getattr(mma, "a_in_registers", None) is not None or getattr(mma, "a_in_tmem", None) is not None:
        what = "registers (no a_in_registers)" if isinstance(mma, tc.WgmmaOp) else "tensor memory, where tc.acc_to_a puts it (no a_in_tmem)"
        error_at(mma, f"an attention loop reads Q from shared memory and P from {what}")


@dataclass
class Parts:
    """What every role of the kernel shares: the kernel read, the windows, the ring of K
    and V stages, Q's barrier and the loop's trip count; where V is transposed in shared
    memory, each stage's "ready" barrier (`ready_off` + 8 s: the producer warpgroup's
    threads arrive once its V is K-major; the ring's "full" says its loads landed)."""

    k: AttentionKernel
    windows: Windows
    ring: Ring
    q_bar: int
    trips: int | SSAValue
    ready_off: int | None = None

    @classmethod
    def prepare(cls, k: AttentionKernel, empty_arrivals: int, barriers: tuple[tuple[int, int], ...] = ()) -> "Parts":
        """Checks the MMAs, binds the tensor maps, takes the barriers (thread 0 sets
        them up: `empty_arrivals` consumer threads release a stage; `barriers`, more
        (offset, arrivals) the caller took) and counts the blocks (every thread: the
        loop's bound)."""
        b, regs, loop = k.b, k.regs, k.loop
        for mma in (loop.qk, loop.pv):
            _check_mma(mma, k.warpgroups)
        windows = Windows.read(k)
        ring = Ring.allocate(b, regs.smem, k.memory, loop.stages)
        q_bar = k.memory.take(8, 8)
        extra = [(q_bar, 1), *barriers]
        ready_off = None
        if loop.transpose is not None:
            ready_off = k.memory.take(8 * loop.stages, 8)
            extra += [(ready_off + 8 * s, TRANSPOSE_THREADS) for s in range(loop.stages)]  # every one arrives
        ring.init_barriers(regs.is_thread0, empty_arrivals, extra, cluster=False)
        return cls(k, windows, ring, q_bar, _trips(k), ready_off)

    def wait_ready(self, s: SSAValue, p: SSAValue) -> None:
        """Stage s's V is K-major (a consumer, before its P V); nothing where V is not
        transposed (the stage's "full", waited for before Q K^T, said so)."""
        if self.ready_off is not None:
            self.k.b.wait(self.ring.barrier(s), p, self.ready_off)

    def load_prologue(self) -> None:
        """Q, then blocks 0 .. S-1 into stages 0 .. S-1 (fewer where there are fewer):
        the calling thread is the producer."""
        b, loop, trips = self.k.b, self.k.loop, self.trips
        self.windows.load_q(self.q_bar)
        done = b.label("prologue_loads")
        for j in range(min(loop.stages, trips) if isinstance(trips, int) else loop.stages):
            if not isinstance(trips, int):  # a causal CTA may see no block at all
                b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [trips], i1, cmp="le", type="s32", imm=j)], label=done)
            self.windows.load_block(j, j, self.ring.full_off)
        b.emit(ptx.LabelOp, label=done)

    def consumer(self, wg: SSAValue, warp: SSAValue) -> "Consumer":
        """A consumer warpgroup's registers and state: `wg` its index among the
        consumers, `warp` its warp's among the consumers' (rows 16 warp + g)."""
        return Consumer.make(self, wg, warp)


def op_lowering(k: AttentionKernel, warp: SSAValue) -> KernelLowering:
    """The KernelLowering that lowers the softmax's ops of the loop by their single-tile
    lowerings, with the kernel's registers: `warp` the thread's warp among the consumers'."""
    regs = k.regs
    kl = KernelLowering(k.kernel, [], "", LOWERINGS, b=k.b)
    kl.tid, kl.smem, kl.warp = regs.tid, regs.smem, warp
    kl.is_thread0 = regs.is_thread0
    kl.globals_ = dict(k.args.address)
    kl.indices.update(k.index.regs)
    kl.indices.update(k.index.consts)  # type: ignore[arg-type]
    return kl


@dataclass
class Consumer:
    """A consumer warpgroup's part: its KernelLowering for the softmax's ops, the two MMAs'
    descriptors, S's registers, and the carried values' registers."""

    parts: Parts
    kl: KernelLowering
    wg: SSAValue
    qk_desc: StageDescriptors
    pv_desc: StageDescriptors
    q64: SSAValue
    s_regs: SSAValue
    carried: list[tuple[SSAValue, SSAValue]]  # (block argument, its registers)

    @classmethod
    def make(cls, parts: Parts, wg: SSAValue, warp: SSAValue) -> "Consumer":
        k = parts.k
        b, regs, loop = k.b, k.regs, k.loop
        kl = op_lowering(k, warp)
        for op in k.before:  # O's zero start, the rows' fills, factors known at launch
            b.located(op, kl.lower)
        scores_factor_once(kl, loop.body)  # a factor known at launch: before the loop, not in each block
        wgs = k.warpgroups
        qk_desc = StageDescriptors.of_rings(b, loop.qk, (k.q_ring, loop.k_ring), _slices(k.q_ring), wgs, wg,
                                            regs.smem, regs.smem16, clustered=False)
        pv_desc = StageDescriptors.of_rings(b, loop.pv, (None, loop.pv_ring), _slices(loop.pv_ring), wgs, wg,
                                            regs.smem, regs.smem16, clustered=False)
        q64 = b.val(ptx.CvtOp, [qk_desc.a_fixed16], i64, type="u64.u32", comment="Q's descriptors: this warpgroup's rows")
        s_type = loop.qk.acc.type
        assert isinstance(s_type, tc.AccType)
        s_regs = b.val(ptx.DeclRegsOp, result=wgmma_regs_type(s_type), comment=f"S = Q K^T of a block: {s_type.m}x{s_type.n}xf32")
        carried: list[tuple[SSAValue, SSAValue]] = []
        for arg, init in zip(loop.op.body.block.args[1:], loop.op.iter_args):
            if isinstance(arg.type, tc.AccType):
                start = wgmma_acc(kl, loop.op, kl.acc_of(loop.op, init))
                kl.accs[arg] = Acc(arg.type, "zero", regs=start, origin=arg)
                carried.append((arg, start))
            elif isinstance(arg.type, tc.RowsType):
                pair = b.val(ptx.DeclRegsOp, result=ptx.RegsType(2, f32), comment="a running row value: this thread's two rows")
                for half in (0, 1):
                    b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [pair], f32, regs=half), kl.rows[init][half]], type="f32")
                kl.rows[arg] = (b.val(ptx.RegOfOp, [pair], f32, regs=0), b.val(ptx.RegOfOp, [pair], f32, regs=1))
                carried.append((arg, pair))
            else:
                error_at(loop.op, f"the key loop carries O and the running rows (!tc.acc, !tc.rows), not {arg.type}")
        return cls(parts, kl, wg, qk_desc, pv_desc, q64, s_regs, carried)

    def wait_q(self) -> None:
        k = self.parts.k
        k.b.wait(k.regs.smem, k.b.imm(0), self.parts.q_bar)

    def block(self, i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        """Block i of keys from stage s (phase p): its ops in the order written, then the
        stage released and the carried values updated."""
        k, kl, ring = self.parts.k, self.kl, self.parts.ring
        b, loop = k.b, k.loop
        kl.indices[loop.op.body.block.args[0]] = b.add_imm(b.val(ptx.MulLoOp, [i], type="s32", imm=loop.step), loop.lb)
        ring.wait_full(s, p)
        k64, v64 = self.qk_desc.b_stage64(b, s), self.pv_desc.b_stage64(b, s)
        for op in loop.body:
            if isinstance(op, WindowLoadOp):
                continue
            if op is loop.qk:
                b.located(op, lambda o: _qk(kl, o, self.s_regs, self.qk_desc, self.q64, k64))
            elif op is loop.pv:
                b.located(op, lambda o: _pv(kl, o, self.pv_desc, v64))
            else:
                b.located(op, kl.lower)
        b.emit(ptx.MbarrierArriveOp, [ring.barrier(s)], offset=ring.empty_off, comment="this block's K and V are read")
        yielded = loop.op.body.block.last_op
        assert isinstance(yielded, scf.YieldOp)
        for (arg, target), value in zip(self.carried, yielded.operands):
            _assign(kl, loop.op, arg, target, value)

    def overlapped_loop(self, pingpong: bool = False) -> None:
        """The loop with each block's softmax overlapping the previous block's P V (FA3's
        intra-warpgroup overlap; module docstring of specialized.py): block 0's S and
        softmax first; then for block j >= 1: issue S_j = Q K_j^T and O += P_{j-1} V_{j-1}
        (two wgmma groups), wait for the first, block j's softmax while the second runs,
        wait for it, release block j-1's stage, carry O to the new maximum and pack P_j;
        after the loop the last block's P V. O and P keep their registers from block to
        block (the rescale and the packing write them in place), so the P V in flight reads
        what the block before wrote.

        `pingpong` (more than one consumer warpgroup): the warpgroups take turns to issue
        their MMAs, in order 0, 1, ...: each waits at its named barrier before issuing a
        block's two MMAs and hands the turn on after (`Turns`), so that the tensor cores run
        one warpgroup's MMAs while the others run their softmax (FA3's ping-pong)."""
        parts, kl = self.parts, self.kl
        k, ring, trips = parts.k, parts.ring, parts.trips
        b, loop = k.b, k.loop
        order = _overlap_order(loop)
        iv = loop.op.body.block.args[0]
        none = None
        if not isinstance(trips, int):  # a causal CTA may see no block: O stays 0, l 0
            none = b.label("no_blocks")
            b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [trips], i1, cmp="le", type="s32", imm=0)], label=none)
        turns = Turns.start(b, self.wg, k.warpgroups, trips) if pingpong and k.warpgroups > 1 else None
        zero = b.imm(0)
        kl.indices[iv] = b.imm(loop.lb, "s32")
        ring.wait_full(zero, zero)
        b.located(loop.qk, lambda o: _qk(kl, o, self.s_regs, self.qk_desc, self.q64, self.qk_desc.b_stage64(b, zero)))
        for op in order.scores:
            b.located(op, kl.lower)
        self._carry_o(order)
        p_regs = self._pack_p(order, None)
        self._carry_rows()

        def body(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
            kl.indices[iv] = b.add_imm(b.val(ptx.MulLoOp, [i], type="s32", imm=loop.step), loop.lb)
            prev, prev_p, _ = ring.previous(s, p)
            ring.wait_full(s, p)
            if turns is not None:
                turns.take()
            b.located(loop.qk, lambda o: _qk(kl, o, self.s_regs, self.qk_desc, self.q64, self.qk_desc.b_stage64(b, s), wait=False))
            kl.a_frags[loop.pv.a] = p_regs
            parts.wait_ready(prev, prev_p)
            b.located(loop.pv, lambda o: _pv(kl, o, self.pv_desc, self.pv_desc.b_stage64(b, prev), wait=False))
            if turns is not None:
                turns.hand_on(i)
            b.emit(ptx.WgmmaWaitGroupOp, pending=1, comment="S is complete; the block before's P V may still run")
            for op in order.scores:
                b.located(op, kl.lower)
            b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="the block before's P V is done: its stage may go")
            b.emit(ptx.MbarrierArriveOp, [ring.barrier(prev)], offset=ring.empty_off, comment="the block before's K and V are read")
            self._carry_o(order)
            self._pack_p(order, p_regs)
            self._carry_rows()
            ring.advance(s, p)

        one, s1 = b.imm(1, "s32"), b.imm(1 % loop.stages)
        p1 = b.imm(1 if loop.stages == 1 else 0)
        ends = b.located(loop.op, lambda _: b.counted_loop(trips, body, start=one, carried=(s1, p1)))
        last, last_p, _ = ring.previous(*ends.results)
        kl.a_frags[loop.pv.a] = p_regs
        parts.wait_ready(last, last_p)
        b.located(loop.pv, lambda o: _pv(kl, o, self.pv_desc, self.pv_desc.b_stage64(b, last)))
        b.emit(ptx.MbarrierArriveOp, [ring.barrier(last)], offset=ring.empty_off, comment="the last block's K and V are read")
        if none is not None:
            b.emit(ptx.LabelOp, label=none)

    def _carry_o(self, order: "_Overlap") -> None:
        """O carried to the new maximum, in O's own registers."""
        kl, b = self.kl, self.parts.k.b
        o_arg, o_regs = next(c for c in self.carried if isinstance(c[0].type, tc.AccType))
        b.located(order.rescale, kl.lower)
        new = wgmma_acc(kl, order.rescale, kl.acc_of(order.rescale, order.rescale.result))
        for r in range(wgmma_regs_type(o_arg.type).count.data):  # type: ignore[arg-type]
            b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [o_regs], f32, regs=r), b.val(ptx.RegOfOp, [new], f32, regs=r)], type="f32")
        kl.accs[order.rescale.result] = Acc(o_arg.type, "zero", regs=o_regs, origin=order.rescale.result)  # type: ignore[arg-type]

    def _pack_p(self, order: "_Overlap", into: list[SSAValue] | None) -> list[SSAValue]:
        """P packed to 16-bit pairs (tc.acc_to_a), into `into`'s registers where given."""
        kl, b = self.kl, self.parts.k.b
        b.located(order.pack, kl.lower)
        frags = kl.a_frags[order.pack.result]
        if into is None:
            return frags
        for new, old in zip(frags, into):
            for r in range(4):
                b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [old], i32, regs=r), b.val(ptx.RegOfOp, [new], i32, regs=r)], type="b32")
        kl.a_frags[order.pack.result] = into
        return into

    def _carry_rows(self) -> None:
        """The running rows take the block's new values."""
        loop = self.parts.k.loop
        yielded = loop.op.body.block.last_op
        assert isinstance(yielded, scf.YieldOp)
        for (arg, target), value in zip(self.carried, yielded.operands):
            if isinstance(arg.type, tc.RowsType):
                _assign(self.kl, loop.op, arg, target, value)

    def finish(self) -> None:
        """The loop's results, the ops after it and O's store (from this warpgroup's
        fragments)."""
        k, kl = self.parts.k, self.kl

        def store_o(op: WindowStoreOp) -> None:
            acc_t = op.acc.type
            assert isinstance(acc_t, tc.AccType)
            store_fragments(k, op, wgmma_acc(kl, op, kl.acc_of(op, op.acc)), acc_t, self.wg)  # type: ignore[arg-type]

        lower_after_loop(k, kl, store_o)


def lower_after_loop(k: AttentionKernel, kl: KernelLowering, store_o: Callable[[WindowStoreOp], None]) -> None:
    """The loop's results take the carried values; the ops after the loop in order: O / l
    and the log-sum-exp by their lowerings, O's store by `store_o` (the schedule's), the
    log-sum-exp's store; anything else is a located error."""
    b, loop = k.b, k.loop
    for arg, result in zip(loop.op.body.block.args[1:], loop.op.results):
        if isinstance(arg.type, tc.AccType):
            kl.accs[result] = kl.accs[arg]
        else:
            kl.rows[result] = kl.rows[arg]
    for op in k.after:
        if op is k.store:
            b.located(op, store_o)
        elif isinstance(op, tc.AccRowDivOp | tc.RowsLseOp):
            b.located(op, kl.lower)
        elif isinstance(op, tc.RowsStoreOp) and op.indices:
            b.located(op, lambda o: store_rows_at(kl, o))
        elif not op.has_trait(IsTerminator, value_if_unregistered=False):
            error_at(op, f"'{op.name}' cannot follow an attention kernel's loop (O / l, the log-sum-exp and O's store can)")


#: The named barriers of the consumers' turns: warpgroup w issues its MMAs after barrier
#: FIRST_TURN_BARRIER + w (0 is the CTA's bar.sync 0).
FIRST_TURN_BARRIER = 1


@dataclass(frozen=True)
class Turns:
    """The consumer warpgroups' turns at the tensor cores (ping-pong): in loop iteration i
    (blocks 1 .. trips - 1) warpgroup w waits at barrier FIRST_TURN_BARRIER + w (`take`:
    its 128 threads and the 128 of the warpgroup before, which arrive there after issuing
    theirs) and arrives at the next warpgroup's after issuing its own (`hand_on`). The
    first turn is warpgroup 0's: the last warpgroup hands it over once before the loop;
    the last warpgroup's hand-over in the last iteration is left out, so that every
    arrival is waited for."""

    b: PtxBuilder
    mine: SSAValue
    next: SSAValue
    last_wg: SSAValue
    trips: int | SSAValue

    @classmethod
    def start(cls, b: PtxBuilder, wg: SSAValue, warpgroups: int, trips: int | SSAValue) -> "Turns":
        """The turns' barriers for warpgroup `wg` of `warpgroups`, and warpgroup 0's first
        turn handed over where the loop runs (`trips` blocks, the first outside it)."""
        mine = b.val(ptx.AddOp, [wg], type="u32", imm=FIRST_TURN_BARRIER, comment="ping-pong: this warpgroup's turn")
        after = b.val(ptx.RemOp, [b.val(ptx.AddOp, [wg], type="u32", imm=1)], type="u32", imm=warpgroups)
        nxt = b.val(ptx.AddOp, [after], type="u32", imm=FIRST_TURN_BARRIER)
        last_wg = b.val(ptx.SetpOp, [wg], i1, cmp="eq", type="u32", imm=warpgroups - 1)
        turns = cls(b, mine, nxt, last_wg, trips)
        if isinstance(trips, int) and trips <= 1:
            return turns  # no loop iteration: no turn to take
        first = last_wg
        if not isinstance(trips, int):
            first = b.val(ptx.AndOp, [last_wg, b.val(ptx.SetpOp, [trips], i1, cmp="gt", type="s32", imm=1)], i1, type="pred")
        skip = b.if_(first, "first_turn")
        b.emit(ptx.BarArriveOp, [b.imm(FIRST_TURN_BARRIER)], count=256, comment="ping-pong: warpgroup 0 issues first")
        b.emit(ptx.LabelOp, label=skip)
        return turns

    def take(self) -> None:
        """Wait for this warpgroup's turn."""
        self.b.emit(ptx.BarSyncOp, [self.mine], count=256, comment="ping-pong: this warpgroup's turn at the tensor cores")

    def hand_on(self, i: SSAValue) -> None:
        """Give the next warpgroup its turn, unless this is the last warpgroup in the last
        block (`i` the loop's block)."""
        b = self.b
        following = b.val(ptx.AddOp, [i], type="s32", imm=1)
        trips = self.trips if not isinstance(self.trips, int) else b.imm(self.trips, "s32")
        last = b.val(ptx.SetpOp, [following, trips], i1, cmp="ge", type="s32")
        skip = b.if_(b.val(ptx.AndOp, [self.last_wg, last], i1, type="pred"), "handed_on", negate=False)
        b.emit(ptx.BarArriveOp, [self.next], count=256, comment="ping-pong: the next warpgroup's turn")
        b.emit(ptx.LabelOp, label=skip)


def _assign(kl: KernelLowering, at: Operation, arg: SSAValue, target: SSAValue, value: SSAValue) -> None:
    """The carried registers take the yielded value (ptxas folds the moves)."""
    b = kl.b
    if isinstance(arg.type, tc.AccType):
        src = wgmma_acc(kl, at, kl.acc_of(at, value))
        if src is target:
            return
        for r in range(wgmma_regs_type(arg.type).count.data):
            b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [target], f32, regs=r), b.val(ptx.RegOfOp, [src], f32, regs=r)], type="f32",
                   comment="O carried to the next block" if r == 0 else None)
        return
    new = kl.rows[value]
    # read both before writing either: a yielded row may be the carried one of the other half
    for half in (0, 1):
        b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [target], f32, regs=half), new[half]], type="f32")


def store_rows_at(kl: KernelLowering, op: tc.RowsStoreOp) -> None:
    """Row r of the CTA's rows into L[h, q0 + r] (or L[b, h, q0 + r]; tc.rows_store at a
    window), each where it lies inside L: with wgmma fragments the quad's first thread
    writes its two rows, 16 warp + g and 8 below; from tensor memory (one row a thread,
    sm_100a) each thread its own, 32 warp + lane."""
    b = kl.b
    t = op.dst.type
    assert isinstance(t, MemRefType)
    strides = t.get_strides() if len(t.get_shape()) == 3 else (tc.matrix_strides(t, "the rows' memref")[0], 1)
    length = t.get_shape()[-1]
    *lead_indices, first = (kl.indices.get(v) for v in op.indices)
    if first is None or any(v is None for v in lead_indices):
        error_at(op, "tc.rows_store's indices are index values of the kernel (gpu.block_id, arith)")
    reg = lambda v: b.imm(v, "s32") if isinstance(v, int) else v  # noqa: E731
    values = kl.rows[op.rows]
    own = len(values) == 1  # tensor memory: this thread's row
    rows = tmem_row(kl, 128) if own else fragment_row(kl)
    what = "each thread its own" if own else "by the quad's first thread"
    row = b.val(ptx.AddOp, [reg(first), rows], type="s32", comment=f"the log-sum-exp: one f32 a row, {what}")
    skip = None
    if not own:
        lead = b.val(ptx.SetpOp, [b.val(ptx.AndOp, [kl.tid], type="b32", imm=3)], i1, cmp="eq", type="u32", imm=0)
        skip = b.if_(lead, "rows_stored")
    # the head's (and the batch's) line of L in 64 bits: heads x S_q may pass 2^31 f32s
    line = kl.globals_[op.dst]
    for index, stride in ((lead_indices[-1], strides[-2]), *(((lead_indices[0], strides[0]),) if len(lead_indices) == 2 else ())):
        wide = b.val(ptx.CvtOp, [reg(index)], i64, type="u64.u32")
        line = b.val(ptx.AddOp, [line, b.val(ptx.MulLoOp, [wide], i64, type="u64", imm=stride * 4)], i64, type="u64")
    for half, value in enumerate(values):
        r = b.add_imm(row, 8 * half)
        past = b.label("row_past")
        b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [r], i1, cmp="ge", type="s32", imm=length)], label=past)
        at = b.val(ptx.AddOp, [line, b.val(ptx.MulWideOp, [r], i64, type="s32", imm=4)], i64, type="u64")
        b.emit(ptx.StOp, [at, value], space="global", type="f32", vec=1, offset=0)
        b.emit(ptx.LabelOp, label=past)
    if skip is not None:
        b.emit(ptx.LabelOp, label=skip)


@dataclass(frozen=True)
class _Overlap:
    """The loop's ops as the overlapped schedule runs them: the softmax's ops on S (in the
    order written), O's rescale, P's packing."""

    scores: list[Operation]
    rescale: tc.AccRescaleOp
    pack: tc.AccToAOp


def _overlap_order(loop) -> _Overlap:
    """The body split for the overlap; a located error where the body does not take it
    (the rescale of the carried O and the packing of P feed only the P V wgmma)."""
    o_arg = next((a for a in loop.op.body.block.args[1:] if isinstance(a.type, tc.AccType)), None)
    rescales = [op for op in loop.body if isinstance(op, tc.AccRescaleOp)]
    packs = [op for op in loop.body if isinstance(op, tc.AccToAOp)]
    if len(rescales) != 1 or rescales[0].acc is not o_arg or loop.pv.acc is not rescales[0].result:
        error_at(loop.op, "the overlapped attention loop carries O through one tc.acc_rescale into the P V wgmma")
    if len(packs) != 1 or loop.pv.a is not packs[0].result:
        error_at(loop.op, "the overlapped attention loop packs P once (tc.acc_to_a), for the P V wgmma")
    for op in (rescales[0], packs[0]):
        if any(use.operation is not loop.pv for use in op.results[0].uses):
            error_at(op, f"'{op.name}' feeds only the P V wgmma in the overlapped attention loop")
    scores = [op for op in loop.body if op not in (loop.qk, loop.pv, rescales[0], packs[0])
              and not isinstance(op, WindowLoadOp | tc.TileTransposeOp)]
    return _Overlap(scores, rescales[0], packs[0])


def _qk(kl: KernelLowering, op: tc.WgmmaOp, s_regs: SSAValue, desc: StageDescriptors, q64: SSAValue, k64: SSAValue,
        wait: bool = True) -> None:
    """S = Q K^T of this block into S's registers (scale-d 0 on the first K-slice)."""
    b = kl.b
    props = _mma_props(op)
    b.emit(ptx.WgmmaFenceOp, comment=f"S = Q K^T: wgmma {props['shape']}, {desc.slices} K-slices")
    for kk in range(desc.slices):
        da = b.val(ptx.AddOp, [desc.a_imms[kk], q64], i64, type="s64")
        db = b.val(ptx.AddOp, [desc.b_imms[kk], k64], i64, type="s64")
        b.emit(ptx.WgmmaMmaAsyncOp, [s_regs, da, db], **{**props, "scale_d": 0 if kk == 0 else 1})
    b.emit(ptx.WgmmaCommitGroupOp)
    if wait:
        b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="S is complete")
    assert isinstance(op.result.type, tc.AccType)
    kl.accs[op.result] = Acc(op.result.type, "zero", regs=s_regs, origin=op.result)


def _pv(kl: KernelLowering, op: tc.WgmmaOp, desc: StageDescriptors, v64: SSAValue, wait: bool = True) -> None:
    """O += P V of this block: P's fragments (tc.acc_to_a) against V's stage."""
    b = kl.b
    props = _mma_props(op)
    acc = kl.acc_of(op, op.acc)
    regs = wgmma_acc(kl, op, acc)
    frags = kl.a_frags[op.a]
    if len(frags) != desc.slices:
        error_at(op, f"P has {len(frags)} K-slices but V's tile {desc.slices}")
    b.emit(ptx.WgmmaFenceOp, comment=f"O += P V: wgmma {props['shape']}, {desc.slices} K-slices, P from registers")
    for kk in range(desc.slices):
        db = b.val(ptx.AddOp, [desc.b_imms[kk], v64], i64, type="s64")
        b.emit(ptx.WgmmaMmaAsyncOp, [regs, frags[kk], db], **props)
    b.emit(ptx.WgmmaCommitGroupOp)
    if wait:
        b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="O is complete for this block: V's stage may go")
    kl.accs[op.result] = acc


def kernel_op_of(parts: Parts, threads: int, max_registers: int | None = None) -> ptx.KernelOp:
    """The ptx.kernel of everything emitted, with its parameters and metadata (and a
    register cap at entry, which setmaxnreg needs)."""
    k, windows = parts.k, parts.windows
    args = k.args.values
    params = kernel_params(k.args, windows.maps)
    smem_bytes = k.memory.total(k.kernel)
    arg_infos = [arg_info(a, k.args.geometry[a]) for a in args]
    info = KernelInfo(
        name=tc.kernel_name(k.kernel),
        target=k.kernel.attributes[tc.TARGET_ATTR].data,  # type: ignore[attr-defined]
        threads=threads,
        grid=k.grid,
        smem_bytes=smem_bytes,
        args=tuple(arg_infos),
        size_params=tuple(k.args.size_params),
        tensor_maps=tuple(windows.maps),
        attention=attention_info(k),
        dependent_launch=waits_first(k.b.ops),  # read_operands's griddepcontrol.wait comes first
    )
    kernel = kernel_op(k.kernel, k.b.ops, params, threads, smem_bytes, info)
    if max_registers:
        kernel.properties["maxnreg"] = IntAttr(max_registers)
    return kernel


def attention_info(k: AttentionKernel) -> AttentionInfo:
    """Which arguments are Q, K, V and O, the softmax's scale, the mask, the block sizes:
    what the runner checks the kernel by."""
    loop = k.loop
    masks = [op for op in loop.body if isinstance(op, tc.AccMaskOp)]
    scales = {(op.scale.value.data, op.factor) for op in loop.body if isinstance(op, tc.AccRowMaxOp | tc.AccExpOp)}
    if len(scales) != 1:
        error_at(loop.op, "the loop's tc.acc_row_max and tc.acc_exp take one softmax scale (and one factor known at launch)")
    scale, qk_factor = scales.pop()
    divs = [op for op in k.after if isinstance(op, tc.AccRowDivOp)]
    causal = None
    keys = None
    for m in masks:
        _, _, m_keys, m_causal = m.mask
        causal = m_causal if m_causal is not None else causal
        keys = m_keys if m_keys is not None else keys
    q_src = k.q_load.src
    k_src = k.args.views.get(loop.k_load.src, loop.k_load.src)
    lse = [op for op in k.after if isinstance(op, tc.RowsStoreOp) and op.indices]
    v_src = k.args.views.get(loop.v_load.src, loop.v_load.src)
    return AttentionInfo(
        q=k.args.index(q_src), k=k.args.index(k_src), v=k.args.index(v_src), o=k.args.index(k.store.dst),
        scale=scale, causal=causal, keys=keys, block_m=k.q_ring.layout.mn, block_n=loop.step,
        lse=k.args.index(lse[0].dst) if lse else None, v_transposed=v_src is not loop.v_load.src,
        qk_descale=_descaling(k, qk_factor), v_descale=_descaling(k, divs[0].factor if divs else None),
    )


def _descaling(k: AttentionKernel, factor: SSAValue | None) -> tuple[int, ...]:
    """The arguments whose product `factor` is (fp8 attention's descaling factors, each an
    f32 read by memref.load at K's window's batch and head: what the runner checks by);
    () where there is none."""
    if factor is None:
        return ()
    owner = factor.owner
    if isinstance(owner, arith.MulfOp):
        return _descaling(k, owner.lhs) + _descaling(k, owner.rhs)
    assert isinstance(owner, memref.LoadOp)  # the lowering has read it (scalars.py)
    window = k.loop.k_load
    at = [x for x in (window.outer, window.batch) if x is not None]
    indices = list(owner.indices)
    lead, tail = indices[: len(indices) - len(at)], indices[len(indices) - len(at) :]
    same = lambda x, y: x is y or (x in k.index.consts and k.index.consts.get(x) == k.index.consts.get(y))  # noqa: E731
    k_arg = k.args.views.get(window.src, window.src)
    g = k.args.geometry[k_arg]
    want = [g.outer if g.nested else 1, g.batch if g.batched else 1]
    t = owner.memref.type
    assert isinstance(t, MemRefType)
    if (len(tail) != len(at) or not all(same(x, y) for x, y in zip(tail, at)) or any(k.index.consts.get(x) != 0 for x in lead)
            or list(t.get_shape()) != want):
        error_at(owner, f"a descaling factor is read from a (batch, heads of K) = {want[0]}x{want[1]}xf32 memref at K's "
                        "window's batch and head (batch 0 where K has none): memref.load %D[batch, head]")
    return (k.args.index(owner.memref),)
