"""The wgmma family's part of a GEMM (sm_90a): each consumer warpgroup owns 64 rows of
the BM x BN tile and its m64nN accumulator lives in registers; a K step is a fence, one
`wgmma.mma_async` per K-slice, a commit, and `wgmma.wait_group depth`, after which the
stage of iteration i - depth is released."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, i32
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.fp8_accumulation import promoted_problem
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.cluster import Multicast
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.kloop import KLoop
from lower_tc.passes.to_ptx.gemm.ring import Ring, Step
from lower_tc.passes.to_ptx.wgmma import wgmma_props

f32 = Float32Type()
MMA = tc.WgmmaOp


def check_mma(mma: Operation) -> None:
    """What the pipelined GEMM refuses of a tc.wgmma."""
    if mma.a_in_registers is not None:  # type: ignore[attr-defined]
        error_at(mma, "the pipelined GEMM reads A from shared memory (a_in_registers is for single tiles)")


def warpgroups(loop: KLoop) -> int:
    """One consumer warpgroup per 64 rows of the tile."""
    acc_t = loop.acc_type
    if acc_t.m != loop.rings[0].layout.mn or acc_t.m % 64:
        error_at(loop.mma, f"the accumulator has {acc_t.m} rows: BM must be a multiple of 64 (one warpgroup each)")
    return acc_t.m // 64


def regs_type(t: tc.AccType) -> ptx.RegsType:
    """One warpgroup's m64nN fragment: N/2 f32 or s32 registers per thread, N/4 for f16."""
    if t.dtype == "f16":
        return ptx.RegsType(t.n // 4, i32)
    return ptx.RegsType(t.n // 2, f32 if t.dtype == "f32" else i32)


def declare_accumulator(b: PtxBuilder, acc_t: tc.AccType, what: str | None = None) -> SSAValue:
    """The accumulator's registers (or another run of its shape: `what` it is), zeroed."""
    what = what or f"accumulator {acc_t.m}x{acc_t.n}x{acc_t.dtype}: 64 rows per warpgroup"
    acc = b.val(ptx.DeclRegsOp, result=regs_type(acc_t), comment=what)
    zero(b, acc, acc_t)
    return acc


def declare_total(b: PtxBuilder, loop: KLoop, promoted: bool) -> SSAValue | None:
    """fp8's promoted accumulation: the f32 registers each K step's sums are added into,
    zeroed (None where the accumulation is the tensor core's own). A located error at the
    MMA where its operands, accumulator or tile do not take it (a loop level written by
    hand: tc-expand-matmul checked the op)."""
    if not promoted:
        return None
    acc_t = loop.acc_type
    a_t, b_t = loop.mma.a.type, loop.mma.b.type  # type: ignore[attr-defined]
    assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
    why = promoted_problem(a_t.dtype, b_t.dtype, acc_t.dtype, acc_t.m, acc_t.n, loop.step)
    if why:
        error_at(loop.mma, why)
    return declare_accumulator(b, acc_t, f"promoted accumulation: the {acc_t.m}x{acc_t.n} tile's f32 sum")


def zero(b: PtxBuilder, acc: SSAValue, acc_t: tc.AccType) -> None:
    """Every register of the accumulator set to 0."""
    f = acc_t.dtype == "f32"
    b.emit(ptx.FillOp, [acc], type="f32" if f else "b32", value="0f00000000" if f else "0")


@dataclass(frozen=True)
class Wgmma:
    """A consumer warpgroup's MMAs: its accumulator, the descriptors and the modifiers.

    With `total` (fp8's promoted accumulation) the MMAs of each K step start afresh in
    `acc` (scale-d 0 on the step's first K-slice), the step waits for them, and adds `acc`
    into `total`, an f32 run of the same shape: the tensor core's limited-precision sums
    span one K step (BK = 128 for fp8), the rest is f32 arithmetic. `total` is then the
    accumulator the epilogue stores (`result`)."""

    acc: SSAValue
    acc_type: tc.AccType
    descriptors: StageDescriptors
    props: dict[str, object]
    depth: int  # groups left in flight by wait_group
    total: SSAValue | None = None

    @property
    def result(self) -> SSAValue:
        """The registers that hold the tile's sum once the loop is done."""
        return self.total if self.total is not None else self.acc

    @classmethod
    def make(cls, loop: KLoop, acc: SSAValue, descriptors: StageDescriptors, depth: int,
             total: SSAValue | None = None) -> "Wgmma":
        """The K loop's wgmma: its shape, types and transposes from the tiles."""
        acc_t = loop.acc_type
        a_t, b_t = loop.mma.a.type, loop.mma.b.type  # type: ignore[attr-defined]
        assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
        return cls(acc, acc_t, descriptors, wgmma_props(a_t, b_t, acc_t.dtype, a_in_registers=False), depth, total)

    def consume(self, ring: Ring, st: Step, multicast: Multicast | None) -> None:
        """Wait for stage s, run its K-slices, and release the stage `st` names (iteration
        i - depth's; with `total`, where the schedule asks for it, stage s itself)."""
        b = ring.b
        ring.wait_full(st.s, st.p)
        a64, b64 = self.descriptors.bases(b, st.s)
        b.emit(ptx.WgmmaFenceOp, comment=f"wgmma {self.props['shape']}, {self.descriptors.slices} K-slices")
        for kk in range(self.descriptors.slices):
            da, db = self.descriptors.slice(b, kk, a64, b64)
            fresh = self.total is not None and kk == 0  # promoted: the step's sums start from zero
            b.emit(ptx.WgmmaMmaAsyncOp, [self.acc, da, db], **{**self.props, **({"scale_d": 0} if fresh else {})})
        b.emit(ptx.WgmmaCommitGroupOp)
        if self.total is not None:
            done = "promoted: this step's MMAs are done" + (": release its stage" if st.releases_own else "")
            b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment=done)
            self.promote(b)
        else:
            b.emit(ptx.WgmmaWaitGroupOp, pending=self.depth, comment=f"iteration i-{self.depth}'s MMAs are done: release its stage")
        ring.release(st.prev_empty, st.first, multicast)

    def promote(self, b: PtxBuilder) -> None:
        """total += acc, register by register, in f32."""
        assert self.total is not None
        for r in range(regs_type(self.acc_type).count.data):
            t = b.val(ptx.RegOfOp, [self.total], f32, regs=r)
            a = b.val(ptx.RegOfOp, [self.acc], f32, regs=r)
            b.emit(ptx.AssignOp, [t, b.val(ptx.AddOp, [t, a], f32, type="f32", comment="promoted: total += this K step's sums" if r == 0 else None)], type="f32")

    def drain(self, b: PtxBuilder) -> None:
        """Every MMA done: the accumulator is complete."""
        b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="the last MMAs")
