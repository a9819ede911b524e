"""The pipeline ring: S stages of shared memory, each with a "full" mbarrier (the TMA
loads' bytes complete it) and an "empty" one (its consumers arrive once their MMAs have
read it), and the (stage, phase) arithmetic every role uses to walk them, in the manner
of CuTe's PipelineState / PipelineTmaAsync (acquire: wait empty; commit: the loads'
transaction bytes; wait: wait full; release: arrive on empty; advance: s + 1, the phase
flipping each time s wraps).

An mbarrier's phase flips each time it completes: for use j of stage s (round r = j div S)
a consumer waits on "full[s]" for parity r & 1, a producer on "empty[s]" for the opposite
one, (r & 1) ^ 1; for r = 0 that is the phase before the first, which counts as complete.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.cluster import Multicast
from lower_tc.passes.to_ptx.gemm.smem import SharedMemory


def stage_barrier(b: PtxBuilder, smem: SSAValue, stage: SSAValue | int, full_off: int) -> tuple[SSAValue, int]:
    """The mbarrier of `stage` (a number, or a register) in an array of them 8 bytes apart
    from `full_off`, as a register and an immediate offset."""
    if isinstance(stage, int):
        return smem, full_off + 8 * stage
    s8 = b.val(ptx.ShlOp, [stage], type="b32", imm=3)
    return b.val(ptx.AddOp, [smem, s8], type="u32"), full_off


@dataclass(frozen=True)
class Step:
    """One K step of a consumer: iteration i, its stage s and phase p; the stage it
    releases (iteration i - depth's), that stage's parity, p flipped; whether it releases
    nothing yet (i < depth), and the address of the released stage's "empty" barrier."""

    i: SSAValue
    s: SSAValue
    p: SSAValue
    prev: SSAValue
    prev_p: SSAValue
    p_flip: SSAValue
    first: SSAValue | None  # None: every iteration releases
    prev_empty: SSAValue

    @property
    def releases_own(self) -> bool:
        """Whether the step releases its own stage (a consumer of depth 0)."""
        return self.prev is self.s


@dataclass(frozen=True)
class Ring:
    """The stages' barriers: full[s] at `full_off` + 8 s, empty[s] at `empty_off` + 8 s."""

    b: PtxBuilder
    smem: SSAValue
    stages: int
    full_off: int
    empty_off: int

    @classmethod
    def allocate(cls, b: PtxBuilder, smem: SSAValue, memory: SharedMemory, stages: int) -> "Ring":
        """full[0..S) then empty[0..S), 8 bytes each, after what is taken so far."""
        offset = memory.take(16 * stages, 8)
        return cls(b, smem, stages, offset, offset + 8 * stages)

    def init_barriers(self, is_thread0: SSAValue, empty_arrivals: int, extra: list[tuple[int, int]], cluster: bool) -> None:
        """Thread 0 initialises every stage's barriers (full: one arrival, the expect_tx;
        empty: `empty_arrivals`) and the `extra` (offset, count) ones; then the CTA (the
        cluster, whose peers arrive on these barriers) meets."""
        b = self.b
        skip = b.if_(is_thread0, "barriers_ready")
        for s in range(self.stages):
            b.emit(ptx.MbarrierInitOp, [self.smem], offset=self.full_off + 8 * s, count=1)
            b.emit(ptx.MbarrierInitOp, [self.smem], offset=self.empty_off + 8 * s, count=empty_arrivals)
        for offset, count in extra:
            b.emit(ptx.MbarrierInitOp, [self.smem], offset=offset, count=count)
        b.emit(ptx.FenceMbarrierInitOp)
        b.emit(ptx.LabelOp, label=skip)
        if cluster:  # the peer's loads and arrivals need our barriers initialised
            b.emit(ptx.ClusterBarrierOp, comment="the cluster's barriers are initialised")
        else:
            b.emit(ptx.BarSyncOp)

    def barrier(self, stage: SSAValue) -> SSAValue:
        """smem + 8 stage: with an array's offset, the address of that stage's barrier."""
        assert isinstance(stage, SSAValue)  # a register: a numbered stage is an immediate offset
        return stage_barrier(self.b, self.smem, stage, 0)[0]

    def wait_full(self, s: SSAValue, p: SSAValue) -> None:
        """A consumer: stage s's loads of this round (parity p) have landed."""
        self.b.wait(self.barrier(s), p, self.full_off)

    def wait_empty(self, s: SSAValue, parity: SSAValue) -> None:
        """A producer: stage s's consumers have released the round before (`parity`)."""
        self.b.wait(self.barrier(s), parity, self.empty_off)

    def release(self, empty: SSAValue, unless: SSAValue | None = None, multicast: Multicast | None = None) -> None:
        """Arrive on the "empty" barrier at `empty` (+ empty_off), unless `unless`. In a
        cluster that shares B, lane 0 of each warp arrives on this CTA's barrier and on
        the peer's (whose producer writes B into both): `wgmma.wait_group` waits for the
        executing warp's share of the MMAs only (seen on the H100: wrong results and NaN
        with one arrival per warpgroup)."""
        b = self.b
        if multicast is None:
            skip = b.if_(unless, "no_release", negate=False) if unless is not None else None
            b.emit(ptx.MbarrierArriveOp, [empty], offset=self.empty_off)
            if skip:
                b.emit(ptx.LabelOp, label=skip)
            return
        skip = b.label("no_release")
        if unless is not None:
            b.emit(ptx.BraOp, [unless], label=skip)
        b.emit(ptx.BraOp, [multicast.warp_leader], label=skip, negate=1)
        b.emit(ptx.MbarrierArriveOp, [empty], offset=self.empty_off)
        local = b.val(ptx.AddOp, [empty], type="u32", imm=self.empty_off)
        remote = b.val(ptx.MapaOp, [local, multicast.peer], type="u32")
        b.emit(ptx.MbarrierArriveClusterOp, [remote], offset=0)
        b.emit(ptx.LabelOp, label=skip)

    def advance(self, s: SSAValue, p: SSAValue, p_flip: SSAValue | None = None) -> None:
        """Yields the next stage and phase (`next_stage`)."""
        self.b.yield_(*self.next_stage(s, p, p_flip))

    def next_stage(self, s: SSAValue, p: SSAValue, p_flip: SSAValue | None = None) -> tuple[SSAValue, SSAValue]:
        """The next stage and phase: s + 1, wrapping to 0 (and flipping p) at S."""
        b = self.b
        s_next = b.val(ptx.AddOp, [s], type="u32", imm=1)
        wrap = b.val(ptx.SetpOp, [s_next], i1, cmp="eq", type="u32", imm=self.stages)
        s_new = b.val(ptx.SelpOp, [b.imm(0), s_next, wrap], type="b32")
        p_flip = p_flip if p_flip is not None else b.val(ptx.XorOp, [p], type="b32", imm=1)
        p_new = b.val(ptx.SelpOp, [p_flip, p, wrap], type="b32")
        return s_new, p_new

    def previous(self, s: SSAValue, p: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
        """Iteration i-1's stage, the parity of its round, and p flipped."""
        b = self.b
        at_start = b.val(ptx.SetpOp, [s], i1, cmp="eq", type="u32", imm=0)
        s_minus = b.val(ptx.AddOp, [s], type="u32", imm=-1 & 0xFFFFFFFF)
        prev = b.val(ptx.SelpOp, [b.imm(self.stages - 1), s_minus, at_start], type="b32")
        p_flip = b.val(ptx.XorOp, [p], type="b32", imm=1)
        return prev, b.val(ptx.SelpOp, [p_flip, p, at_start], type="b32"), p_flip

    def back(self, s: SSAValue, k: int) -> SSAValue:
        """(s - k) mod S, for 1 <= k < S."""
        b = self.b
        back = b.val(ptx.AddOp, [s], type="u32", imm=self.stages - k)
        wraps = b.val(ptx.SetpOp, [back], i1, cmp="ge", type="u32", imm=self.stages)
        return b.val(ptx.SelpOp, [b.val(ptx.AddOp, [back], type="u32", imm=-self.stages & 0xFFFFFFFF), back, wraps], type="b32")

    def consumer_step(self, i: SSAValue, s: SSAValue, p: SSAValue, depth: int = 1) -> Step:
        """Iteration i's registers for a consumer that releases, after `wgmma.wait_group
        depth`, the stage of iteration i - depth (none while i < depth). Depth 0: its own
        stage, every iteration (a consumer that waits for all its MMAs each step)."""
        b = self.b
        if depth == 0:
            p_flip = b.val(ptx.XorOp, [p], type="b32", imm=1)
            return Step(i, s, p, s, p, p_flip, None, self.barrier(s))
        prev, prev_p, p_flip = self.previous(s, p)
        if depth == 1:
            first = b.val(ptx.SetpOp, [i], i1, cmp="eq", type="u32", imm=0)
        else:
            first = b.val(ptx.SetpOp, [i], i1, cmp="lt", type="u32", imm=depth)
            prev = self.back(s, depth)
        return Step(i, s, p, prev, prev_p, p_flip, first, self.barrier(prev))
