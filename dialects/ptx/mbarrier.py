"""mbarriers in shared memory (init, arrive, expect-tx, wait on a phase's parity,
invalidate) and the cluster: another CTA's address (``mapa``) and an arrival on its
barrier."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, addr
from lower_tc.dialects.ptx.modifiers import ADDRESS_TYPE, INT, ints


@irdl_op_definition
class MbarrierInitOp(PtxOp):
    """``mbarrier.init [addr+offset], count``: args = (address,)."""

    name = "ptx.mbarrier_init"
    offset = prop_def(INT)
    count = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"mbarrier.init.shared::cta.b64 {addr(n(self.args[0]), self.prop('offset'))}, {self.prop('count')};"


@irdl_op_definition
class FenceMbarrierInitOp(PtxOp):
    name = "ptx.fence_mbarrier_init"

    def render(self, n: Names) -> str:
        return "fence.mbarrier_init.release.cluster;"


@irdl_op_definition
class MbarrierArriveExpectTxOp(PtxOp):
    """One arrival that also expects `bytes` of transactions (a TMA load's boxes)."""

    name = "ptx.mbarrier_arrive_expect_tx"
    offset = prop_def(INT)
    bytes = prop_def(INT)

    def render(self, n: Names) -> str:
        return (
            f"mbarrier.arrive.expect_tx.shared::cta.b64 _, "
            f"{addr(n(self.args[0]), self.prop('offset'))}, {self.prop('bytes')};"
        )


@irdl_op_definition
class MbarrierArriveOp(PtxOp):
    """``mbarrier.arrive.shared::cta.b64 _, [addr]``: one arrival (args = (address,))."""

    name = "ptx.mbarrier_arrive"
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"mbarrier.arrive.shared::cta.b64 _, {addr(n(self.args[0]), self.prop('offset'))};"


@irdl_op_definition
class MbarrierTryWaitParityOp(PtxOp):
    """args = (address,) with an immediate `parity`, or (address, parity register)."""

    name = "ptx.mbarrier_try_wait_parity"
    offset = prop_def(INT)
    parity = opt_prop_def(ints(0, 1))

    @classmethod
    def needed_modifiers(cls, nargs: int) -> tuple[str, ...]:
        return ("parity",) if nargs < 2 else ()

    def render(self, n: Names) -> str:
        parity = n(self.args[1]) if len(self.args) > 1 else self.prop("parity")
        return (
            f"mbarrier.try_wait.parity.shared::cta.b64 {n(self.res[0])}, "
            f"{addr(n(self.args[0]), self.prop('offset'))}, {parity};"
        )


@irdl_op_definition
class MbarrierInvalOp(PtxOp):
    name = "ptx.mbarrier_inval"
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"mbarrier.inval.shared::cta.b64 {addr(n(self.args[0]), self.prop('offset'))};"


@irdl_op_definition
class MapaOp(PtxOp):
    """``mapa.shared::cluster.{type} d, a, rank``: the address of shared::cta address a in
    the shared memory of the cluster's CTA `rank` (args = (a, rank))."""

    name = "ptx.mapa"
    type = prop_def(ADDRESS_TYPE)

    def render(self, n: Names) -> str:
        return f"mapa.shared::cluster.{self.prop('type')} {n(self.res[0])}, {n(self.args[0])}, {n(self.args[1])};"


@irdl_op_definition
class MbarrierArriveClusterOp(PtxOp):
    """One arrival on an mbarrier of another CTA of the cluster (args = (its
    shared::cluster address,)), releasing this thread's prior accesses cluster-wide."""

    name = "ptx.mbarrier_arrive_cluster"
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"mbarrier.arrive.shared::cluster.b64 _, {addr(n(self.args[0]), self.prop('offset'))};"
