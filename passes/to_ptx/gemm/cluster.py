"""What a CTA knows of its cluster, as a flag the other parts take (like Mosaic GPU's
`collective=True`), not a kind of kernel of its own.

- `Multicast` (sm_90a, cluster = 2 in #tc.gemm_schedule): CTAs 2j and 2j + 1 compute tiles in the same
  columns of D, so each loads half of B's boxes and multicasts them to both; a consumer
  warp's lane 0 releases a stage on both CTAs' "empty" barriers.
- `CtaPair` (sm_100a, cluster = 2 in #tc.gemm_schedule): two CTAs run one M = 256 `tcgen05.mma.cta_group::2`;
  rank 0 (the leader) issues it, its "full" barriers count both CTAs' bytes, and its
  commits multicast to both.

In a cluster launch a CTA's shared addresses carry its rank in bit 24 (rank 1's shared
memory starts at 0x1000400, seen on the H100): descriptors take the address & 0x3FFFF.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import i1, i16
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx
from lower_tc.passes.to_ptx.emit import PtxBuilder

#: The CTAs of a tcgen05 CTA pair, both in every multicast commit.
PAIR = 2
PAIR_MASK = (1 << PAIR) - 1


@dataclass(frozen=True)
class Multicast:
    """A cluster of `size` CTAs sharing B's loads."""

    size: int
    rank: SSAValue
    peer: SSAValue
    mask: SSAValue  # every CTA of the cluster, for the multicast loads
    warp_leader: SSAValue  # lane 0: the thread of each warp that releases stages

    @classmethod
    def setup(cls, b: PtxBuilder, tid: SSAValue, size: int) -> "Multicast":
        rank = b.val(ptx.SregOp, sreg="cluster_ctarank", comment="a cluster of 2: this CTA loads half of B's boxes for both")
        peer = b.val(ptx.XorOp, [rank], type="b32", imm=1)
        mask = b.val(ptx.MovImmOp, result=i16, type="b16", value=(1 << size) - 1)
        lane = b.val(ptx.AndOp, [tid], type="b32", imm=31)
        leader = b.val(ptx.SetpOp, [lane], i1, cmp="eq", type="u32", imm=0)
        return cls(size, rank, peer, mask, leader)


@dataclass(frozen=True)
class CtaPair:
    """The two CTAs of a tcgen05 CTA pair."""

    is_leader: SSAValue
    leader_rank: SSAValue
    mask: SSAValue  # both CTAs, for the multicast commits

    @classmethod
    def setup(cls, b: PtxBuilder) -> "CtaPair":
        rank = b.val(ptx.SregOp, sreg="cluster_ctarank", comment="a CTA pair: rank 0 issues the MMAs of both")
        is_leader = b.val(ptx.SetpOp, [rank], i1, cmp="eq", type="u32", imm=0)
        leader_rank = b.imm(0)
        mask = b.val(ptx.MovImmOp, result=i16, type="b16", value=PAIR_MASK)
        return cls(is_leader, leader_rank, mask)

    def on_leader(self, b: PtxBuilder, offset: int, base: SSAValue) -> SSAValue:
        """The shared::cluster address of the leader's copy of base + offset."""
        local = b.val(ptx.AddOp, [base], type="u32", imm=offset) if offset else base
        return b.val(ptx.MapaOp, [local, self.leader_rank], type="u32")

    #: Modifiers of every tcgen05 op and TMA load of a pair's kernel (ptxas refuses a
    #: function that mixes cta_group::1 and ::2).
    props = {"cta_group": PAIR}
