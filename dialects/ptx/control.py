"""Control flow and barriers: labels and branches (PTX's own control flow, which
ptx-lower-loops turns loops into), the CTA and cluster barriers, a proxy fence, the
elected thread, and the kernel's return."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp
from lower_tc.dialects.ptx.modifiers import FLAG, INT, TEXT


@irdl_op_definition
class LabelOp(PtxOp):
    name = "ptx.label"
    label = prop_def(TEXT)

    def render(self, n: Names) -> str:
        return f"{self.prop('label')}:"


@irdl_op_definition
class BraOp(PtxOp):
    """``@%p bra L`` (``@!%p`` with negate), or an unconditional ``bra.uni L``."""

    name = "ptx.bra"
    label = prop_def(TEXT)
    negate = opt_prop_def(FLAG)

    def render(self, n: Names) -> str:
        if not self.args:
            return f"bra.uni {self.prop('label')};"
        negate = "!" if self.has("negate") and self.prop("negate") else ""
        return f"@{negate}{n(self.args[0])} bra {self.prop('label')};"


@irdl_op_definition
class BarSyncOp(PtxOp):
    """``bar.sync 0``: every thread of the CTA; or, with args = (barrier id register,) and
    `count`, the named barrier that only `count` threads (one warpgroup) meet at."""

    name = "ptx.bar_sync"
    count = opt_prop_def(INT)

    @classmethod
    def needed_modifiers(cls, nargs: int) -> tuple[str, ...]:
        return ("count",) if nargs else ()

    def render(self, n: Names) -> str:
        if self.args:
            return f"bar.sync {n(self.args[0])}, {self.prop('count')};"
        return "bar.sync 0;"


@irdl_op_definition
class BarArriveOp(PtxOp):
    """``bar.arrive id, count``: this warp arrives at the named barrier (args = (barrier
    id register,)) that `count` threads meet at, without waiting: the threads that
    bar.sync on it wait for this arrival (a producer-consumer handoff between warpgroups)."""

    name = "ptx.bar_arrive"
    count = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"bar.arrive {n(self.args[0])}, {self.prop('count')};"


@irdl_op_definition
class FenceProxyAsyncOp(PtxOp):
    name = "ptx.fence_proxy_async"

    def render(self, n: Names) -> str:
        return "fence.proxy.async.shared::cta;"


@irdl_op_definition
class GriddepWaitOp(PtxOp):
    """``griddepcontrol.wait``: waits until the grids this one depends on (programmatic
    dependent launch) have completed and their memory is visible; at once where the grid
    was launched without that attribute."""

    name = "ptx.griddep_wait"

    def render(self, n: Names) -> str:
        return "griddepcontrol.wait;"


@irdl_op_definition
class ClusterBarrierOp(PtxOp):
    """Every thread of the cluster meets here: ``barrier.cluster.arrive`` then ``wait``."""

    name = "ptx.cluster_barrier"

    def render(self, n: Names) -> str:
        return "barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"


@irdl_op_definition
class ElectSyncOp(PtxOp):
    """``elect.sync``: a predicate true in one thread of the warp."""

    name = "ptx.elect_sync"

    def render(self, n: Names) -> str:
        return f"elect.sync _|{n(self.res[0])}, 0xffffffff;"


@irdl_op_definition
class BarRedOrOp(PtxOp):
    """``bar.red.or.pred %p, id[, count], %q``: a barrier (every thread of the CTA at 0,
    or the named barrier `barrier` that `count` threads meet at) that also gives each of
    them the or of the threads' predicates `q`: args = (q,), result = p."""

    name = "ptx.bar_red_or"
    barrier = prop_def(INT)
    count = opt_prop_def(INT)

    def render(self, n: Names) -> str:
        count = f", {self.prop('count')}" if self.has("count") else ""
        return f"bar.red.or.pred {n(self.res[0])}, {self.prop('barrier')}{count}, {n(self.args[0])};"


@irdl_op_definition
class FenceGpuOp(PtxOp):
    """``fence.acq_rel.gpu``: this thread's memory accesses before it are ordered before
    its accesses after it for every thread of the GPU (what the global split-K's partial
    tiles and counters need; CUDA's __threadfence)."""

    name = "ptx.fence_gpu"

    def render(self, n: Names) -> str:
        return "fence.acq_rel.gpu;"


@irdl_op_definition
class RetOp(PtxOp):
    name = "ptx.ret"

    def render(self, n: Names) -> str:
        return "ret;"
