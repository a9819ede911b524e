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
from lower_tc.layout import Major
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.cluster import Multicast
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.kloop import KLoop
from lower_tc.passes.to_ptx.gemm.ring import Ring, Step

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


def declare_accumulator(b: PtxBuilder, acc_t: tc.AccType) -> SSAValue:
    """The accumulator's registers, zeroed."""
    acc = b.val(ptx.DeclRegsOp, result=regs_type(acc_t), comment=f"accumulator {acc_t.m}x{acc_t.n}x{acc_t.dtype}: 64 rows per warpgroup")
    zero(b, acc, acc_t)
    return acc


def zero(b: PtxBuilder, acc: SSAValue, acc_t: tc.AccType) -> None:
    """Every register of the accumulator set to 0."""
    f = acc_t.dtype == "f32"
    b.emit(ptx.FillOp, [acc], type="f32" if f else "b32", value="0f00000000" if f else "0")


@dataclass(frozen=True)
class Wgmma:
    """A consumer warpgroup's MMAs: its accumulator, the descriptors and the modifiers."""

    acc: SSAValue
    acc_type: tc.AccType
    descriptors: StageDescriptors
    props: dict[str, object]
    depth: int  # groups left in flight by wait_group

    @classmethod
    def make(cls, loop: KLoop, acc: SSAValue, descriptors: StageDescriptors, depth: int) -> "Wgmma":
        """The K loop's wgmma: its shape, types and transposes from the tiles."""
        acc_t = loop.acc_type
        a_t, b_t = loop.mma.a.type, loop.mma.b.type  # type: ignore[attr-defined]
        assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
        integer = a_t.dtype in ("s8", "u8")
        transposable = a_t.dtype in ("f16", "bf16")
        props: dict[str, object] = dict(
            shape=f"m64n{b_t.mn}k{loop.rings[0].layout.dtype.k_per_instruction}",
            dtype=acc_t.dtype, atype=a_t.dtype, btype=b_t.dtype,
            scale_d=1, scale=0 if integer else 1,
            trans_a=(1 if a_t.major is Major.MN else 0) if transposable else -1,
            trans_b=(1 if b_t.major is Major.MN else 0) if transposable else -1,
        )
        return cls(acc, acc_t, descriptors, props, depth)

    def consume(self, ring: Ring, st: Step, multicast: Multicast | None) -> None:
        """Wait for stage s, run its K-slices, and release iteration i - depth's stage."""
        b = ring.b
        ring.wait_full(st.s, st.p)
        a64, b64 = self.descriptors.bases(b, st.s)
        b.emit(ptx.WgmmaFenceOp, comment=f"wgmma {self.props['shape']}, {self.descriptors.slices} K-slices")
        for kk in range(self.descriptors.slices):
            da, db = self.descriptors.slice(b, kk, a64, b64)
            b.emit(ptx.WgmmaMmaAsyncOp, [self.acc, da, db], **self.props)
        b.emit(ptx.WgmmaCommitGroupOp)
        b.emit(ptx.WgmmaWaitGroupOp, pending=self.depth, comment=f"iteration i-{self.depth}'s MMAs are done: release its stage")
        ring.release(st.prev_empty, st.first, multicast)

    def drain(self, b: PtxBuilder) -> None:
        """Every MMA done: the accumulator is complete."""
        b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="the last MMAs")
