"""The CTA-pair tcgen05 GEMM (sm_100a, `cluster = 2` in `#tc.gemm_schedule` with the warp-specialised
schedule): clusters of two CTAs, and one M = 256 `tcgen05.mma.cta_group::2` over both.
Nothing here has run: no Blackwell GPU is lent (docs/tcgen05.md); ptxas assembles it
for sm_100a and the tests check its SASS.

The pair takes a 256 x BN tile of D. CTA rank r of the cluster (the leader is rank 0)
holds, at the same shared-memory offsets in both CTAs, A's rows 128 r .. 128 r + 127 of
the tile and B's columns r BN/2 .. r BN/2 + BN/2 - 1; its tensor memory holds its 128 rows
of D (all BN columns). The roles are those of gemm_tcgen05_specialized.py, with:

    producer (both CTAs)  wait its own "empty[s]"; the leader alone expects both CTAs'
                          bytes on its "full[s]"; each loads its own boxes
                          (`cp.async.bulk.tensor...cta_group::2`), completing the leader's
                          "full[s]" (a `mapa` address); after its last load it waits for
                          the ring's last releases, so no arrival lands after it leaves
    MMA (leader only)     waits the leader's "full[s]", issues cta_group::2 MMAs reading
                          both CTAs' shared memory, and `tcgen05.commit ... multicast` with
                          mask 0b11 onto "empty[s]" and "acc_full[b]" of both CTAs
    epilogue (both)       waits its own "acc_full[b]", reads its own tensor memory, and
                          arrives on the leader's "acc_empty[b]" (2 x 128 arrivals)

Every tcgen05 instruction of the kernel names cta_group::2 (ptxas refuses a mix). Warp 4
of each CTA allocates (`tcgen05.alloc.cta_group::2`, the same warp and slot in both) and a
cluster barrier follows, so the leader's MMAs never write the peer's tensor memory before
it is allocated. At the end every thread of both CTAs meets at a cluster barrier; only
then does warp 4 of each CTA free the allocation.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import i1, i16
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.gemm import Ring
from lower_tc.passes.to_ptx.gemm_tcgen05_specialized import (
    EPILOGUE_THREADS,
    Tcgen05SpecializedGemmLowering,
)

#: The cluster's CTAs, both in every multicast commit.
PAIR = 2
PAIR_MASK = (1 << PAIR) - 1


class Tcgen05PairGemmLowering(Tcgen05SpecializedGemmLowering):
    """tcgen05 across a CTA pair (module docstring)."""

    tcgen05_props = {"cta_group": PAIR}
    load_props = {"cta_group": PAIR}
    multicast_b = False
    acc_empty_arrivals = PAIR * EPILOGUE_THREADS

    def _check_mma(self, mma: Operation) -> None:
        if mma.cta_pair is None:  # type: ignore[attr-defined]
            error_at(mma, "with cluster = 2 (#tc.gemm_schedule) on sm_100a the K loop's tc.tcgen05_mma is a CTA pair's (cta_pair): the pair shares one M = 256 MMA")

    def _threads(self, mma: Operation, ring_a: Ring) -> int:
        threads = super()._threads(mma, ring_a)
        self.cluster = PAIR
        self.empty_arrivals = 1  # the leader's multicast commit, once per CTA
        rank = self.val(ptx.SregOp, sreg="cluster_ctarank", comment="a CTA pair: rank 0 issues the MMAs of both")
        self.is_leader = self.val(ptx.SetpOp, [rank], i1, cmp="eq", type="u32", imm=0)
        self.leader_rank = self.imm(0)
        self.pair_mask = self.val(ptx.MovImmOp, result=i16, type="b16", value=PAIR_MASK)
        return threads

    def _setup(self, mma: Operation) -> None:
        super()._setup(mma)
        self.emit(ptx.ClusterBarrierOp, comment="both CTAs' tensor memory is allocated before the leader's MMAs write it")

    def _on_leader(self, offset: int, base: SSAValue) -> SSAValue:
        """The shared::cluster address of the leader's copy of base + offset."""
        local = self.val(ptx.AddOp, [base], type="u32", imm=offset) if offset else base
        return self.val(ptx.MapaOp, [local, self.leader_rank], type="u32")

    # -- producer ---------------------------------------------------------------------

    def _expect(self, mbar: SSAValue, mbar_off: int) -> None:
        """Only the leader's "full[s]" counts: it expects both CTAs' bytes."""
        skip = self.if_(self.is_leader, "no_expect")
        self.emit(ptx.MbarrierArriveExpectTxOp, [mbar], offset=mbar_off, bytes=PAIR * self.tx_bytes,
                  comment="the leader's full[s] waits for both CTAs' boxes")
        self.emit(ptx.LabelOp, label=skip)

    def _completion_barrier(self, mbar: SSAValue, mbar_off: int) -> tuple[SSAValue, int]:
        return self._on_leader(mbar_off, mbar), 0

    def _producer_tail(self, s: SSAValue, p: SSAValue) -> None:
        """Wait for every stage's last release, so that no multicast commit arrives on
        this CTA's barriers after the cluster barrier at the exit."""

        def drain(_: SSAValue, s2: SSAValue, p2: SSAValue) -> None:
            flipped = self.val(ptx.XorOp, [p2], type="b32", imm=1)
            self.wait(self.barrier(s2, self.empty_off), flipped, self.empty_off)
            self.advance(s2, p2, flipped)

        self.counted_loop(self.stages, drain, carried=(s, p))

    # -- MMA thread -------------------------------------------------------------------

    def _mma_guard(self) -> None:
        self.emit(ptx.BraOp, [self.is_leader], label=self.exit_label, negate=1, comment="the leader's MMAs serve both CTAs")

    def _commit(self, mbar: SSAValue, offset: int, comment: str) -> None:
        self.emit(ptx.Tcgen05CommitOp, [mbar, self.pair_mask], offset=offset, comment=f"{comment} (both CTAs)", **self.tcgen05_props)

    # -- epilogue ---------------------------------------------------------------------

    def _release_acc(self, mbar: SSAValue) -> None:
        self.emit(ptx.MbarrierArriveClusterOp, [self._on_leader(self.acc_empty_off, mbar)], offset=0)

    def _free_tmem(self) -> None:
        """Nothing yet: tensor memory is freed after the exit's cluster barrier."""
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="tensor memory read: freed after the cluster barrier")

    def _at_exit(self) -> None:
        """Warp 4 of each CTA frees the allocation: by now both CTAs' epilogues have read
        every buffer, so no MMA of the pair is in flight."""
        skip = self.if_(self.is_alloc_warp, "no_dealloc")
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        self.emit(ptx.Tcgen05DeallocOp, [self.tmem_base], columns=self.columns, **self.tcgen05_props)
        self.emit(ptx.LabelOp, label=skip)


__all__: Sequence[str] = ["Tcgen05PairGemmLowering"]
