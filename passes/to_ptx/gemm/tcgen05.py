"""The tcgen05 family's part of a GEMM (sm_100a): one M = 128 MMA per K-slice issued by
one thread into an accumulator in tensor memory, completion through `tcgen05.commit`
onto an mbarrier, results read back with `tcgen05.ld`. The CTA pair (`CtaPair`) is a
flag: every tcgen05 op names `cta_group::2` and commits multicast to both CTAs.

Nothing of this has run: no Blackwell GPU is lent (docs/tcgen05.md); ptxas assembles it
for sm_100a and the tests check its SASS.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import i1
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.cluster import CtaPair
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.kloop import KLoop

MMA = tc.Tcgen05MmaOp


def check_mma(mma: Operation, pair: bool) -> None:
    """What the pipelined GEMM refuses of a tc.tcgen05_mma; a CTA pair's kernel needs
    its MMA marked cta_pair, any other refuses that mark."""
    if mma.a_in_tmem is not None:  # type: ignore[attr-defined]
        error_at(mma, "the pipelined GEMM reads A from shared memory (a_in_tmem is for single tiles)")
    if pair and mma.cta_pair is None:  # type: ignore[attr-defined]
        error_at(mma, "with cluster = 2 (#tc.gemm_schedule) on sm_100a the K loop's tc.tcgen05_mma is a CTA pair's (cta_pair): the pair shares one M = 256 MMA")
    if not pair and mma.cta_pair is not None:  # type: ignore[attr-defined]
        error_at(mma, "a CTA pair's tcgen05.mma (cta_pair) runs in the warp-specialised GEMM with cluster = 2 (#tc.gemm_schedule)")


def check_tile(loop: KLoop) -> None:
    """A CTA's part of the MMA is M = 128 (one warpgroup reads its lanes back)."""
    if loop.acc_type.m != 128 or loop.rings[0].layout.mn != 128:
        error_at(loop.mma, f"the tcgen05 GEMM computes 128-row tiles (one M = 128 MMA), not {loop.acc_type.m}")


@dataclass(frozen=True)
class TensorMemory:
    """An allocation of tensor memory: its address (every thread has it), its columns,
    the warp that allocated it (and frees it), and each thread's warp index."""

    address: SSAValue
    columns: int
    is_alloc_warp: SSAValue
    warp: SSAValue

    @classmethod
    def allocate(
        cls, b: PtxBuilder, tid: SSAValue, smem: SSAValue, slot: int, columns: int, warp: int,
        comment: str, pair: CtaPair | None = None,
    ) -> "TensorMemory":
        """Warp `warp` allocates `columns` columns, writing the address to the shared
        `slot`; every thread reads it after the fenced CTA barrier."""
        props = CtaPair.props if pair is not None else {}
        warp_index = b.val(ptx.ShrOp, [tid], type="u32", imm=5)
        is_alloc_warp = b.val(ptx.SetpOp, [warp_index], i1, cmp="eq", type="u32", imm=warp)
        skip = b.if_(is_alloc_warp, "tmem_ready")
        b.emit(ptx.Tcgen05AllocOp, [smem], offset=slot, columns=columns, comment=comment, **props)
        b.emit(ptx.Tcgen05RelinquishOp, **props)
        b.emit(ptx.LabelOp, label=skip)
        b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync")
        b.emit(ptx.BarSyncOp)
        b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        address = b.val(ptx.LdOp, [smem], space="shared", type="b32", vec=1, offset=slot)
        return cls(address, columns, is_alloc_warp, warp_index)

    def free(self, b: PtxBuilder, pair: CtaPair | None = None) -> None:
        """The allocating warp frees it (every reader done: the caller's barrier said so)."""
        skip = b.if_(self.is_alloc_warp, "no_dealloc")
        b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        b.emit(ptx.Tcgen05DeallocOp, [self.address], columns=self.columns, **(CtaPair.props if pair is not None else {}))
        b.emit(ptx.LabelOp, label=skip)


@dataclass(frozen=True)
class Tcgen05:
    """The K loop's MMAs: descriptors, the instruction descriptor and its kind."""

    descriptors: StageDescriptors
    kind: str
    idesc: SSAValue
    pair: CtaPair | None = None

    @classmethod
    def make(cls, b: PtxBuilder, mma: Operation, descriptors: StageDescriptors, pair: CtaPair | None = None) -> "Tcgen05":
        """Reads the instruction descriptor tc-compute-descriptors attached."""
        idesc = mma.attributes.get("tc.idesc")
        if not isinstance(idesc, tc.IdescAttr):
            error_at(mma, "no instruction descriptor on this op: run tc-compute-descriptors first")
        return cls(descriptors, idesc.kind.data, b.imm(idesc.value.data), pair)

    def k_step(self, b: PtxBuilder, d: SSAValue, i: SSAValue, s: SSAValue) -> None:
        """K step i from stage s into the accumulator at d: the first step of a tile
        overwrites it (enable-input-d off), so it needs no zero fill."""
        b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        a64, b64 = self.descriptors.bases(b, s)
        accumulate = b.val(ptx.SetpOp, [i], i1, cmp="ne", type="u32", imm=0)
        props = CtaPair.props if self.pair is not None else {}
        slices = self.descriptors.slices
        for kk in range(slices):
            da, db = self.descriptors.slice(b, kk, a64, b64)
            # enable-input-d: the predicate for the first K-slice, 1 (accumulate) after it
            args = [d, da, db, self.idesc] + ([accumulate] if kk == 0 else [])
            b.emit(ptx.Tcgen05MmaOp, args, kind=self.kind, enable_input_d=None if kk == 0 else 1, a_tmem=0,
                   comment=f"tcgen05.mma kind::{self.kind}, {slices} K-slices" if kk == 0 else None, **props)

    def commit(self, b: PtxBuilder, mbar: SSAValue, offset: int, comment: str) -> None:
        """One arrival on the barrier at mbar + offset once this thread's MMAs so far are
        done (a pair's on that barrier in both CTAs)."""
        if self.pair is None:
            b.emit(ptx.Tcgen05CommitOp, [mbar], offset=offset, comment=comment)
        else:
            b.emit(ptx.Tcgen05CommitOp, [mbar, self.pair.mask], offset=offset, comment=f"{comment} (both CTAs)", **CtaPair.props)
