"""The loop level's kernel attributes that choose how a GEMM runs, read once.

(Transitional: the declared `#tc.gemm_schedule` attribute replaces this module.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation

from lower_tc.dialects.diagnostics import error_at

SCHEDULE_ATTR = "tc.schedule"
SCHEDULES = ("pipelined", "warp_specialized")
PERSISTENT_ATTR = "tc.persistent"
MMA_DEPTH_ATTR = "tc.mma_depth"
CLUSTER_ATTR = "tc.cluster"
EPILOGUE_ATTR = "tc.epilogue"
EPILOGUES = ("tma", "registers")
L2_PROMOTION_ATTR = "tc.l2_promotion"
GRID_ATTR = "tc.grid"
L2_PROMOTION_BYTES = (0, 64, 128, 256)


@dataclass(frozen=True)
class GemmOptions:
    """How the kernel asks its GEMM to run (the attributes as written, checked when read)."""

    kernel: Operation
    schedule: str = "pipelined"
    persistent: bool = False
    mma_depth_attr: Attribute | None = None
    cluster_attr: Attribute | None = None
    epilogue_attr: Attribute | None = None
    l2_promotion_attr: Attribute | None = None

    def mma_depth(self, stages: int) -> int:
        """wgmma groups the consumers leave in flight (1 unless asked), below `stages`."""
        attr = self.mma_depth_attr
        if attr is None:
            return 1
        depth = attr.value.data if isinstance(attr, IntegerAttr) else None
        if depth is None or not 1 <= depth < stages:
            error_at(self.kernel, f"tc.mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = {stages - 1}, not {attr}")
        return depth

    def cluster(self, message: str) -> int:
        """CTAs per cluster: 1 without tc.cluster, else 2 (`message` names the other values)."""
        attr = self.cluster_attr
        if attr is None:
            return 1
        if not (isinstance(attr, IntegerAttr) and attr.value.data == 2):
            error_at(self.kernel, f"{message}, not {attr}")
        return 2

    def epilogue(self) -> str | None:
        """"tma", "registers", or None (the TMA stores wherever they apply)."""
        attr = self.epilogue_attr
        asked = getattr(attr, "data", None) if attr is not None else None
        if attr is not None and asked not in EPILOGUES:
            error_at(self.kernel, f"tc.epilogue is one of {', '.join(EPILOGUES)}, not {attr}")
        return asked

    def l2_promotion(self) -> int | None:
        """Bytes of the L2 sectors TMA promotes its loads to, None when not asked."""
        attr = self.l2_promotion_attr
        if attr is None:
            return None
        value = attr.value.data if isinstance(attr, IntegerAttr) else None
        if value not in L2_PROMOTION_BYTES:
            error_at(self.kernel, f"tc.l2_promotion is 0, 64, 128 or 256 (bytes), not {attr}")
        return value


def read_options(kernel: Operation, sm100: bool) -> GemmOptions:
    """The kernel's options, with the checks that need no more than the target."""
    attrs = kernel.attributes
    schedule = attrs.get(SCHEDULE_ATTR)
    name = getattr(schedule, "data", "pipelined")
    if name not in SCHEDULES:
        error_at(kernel, f"tc.schedule is one of {', '.join(SCHEDULES)}, not {schedule}")
    if MMA_DEPTH_ATTR in attrs and (name != "warp_specialized" or sm100):
        error_at(kernel, "tc.mma_depth is for the warp-specialised wgmma schedule (tc.schedule = \"warp_specialized\")")
    if sm100 and name != "warp_specialized" and PERSISTENT_ATTR in attrs:
        error_at(kernel, "tc.persistent on sm_100a is for the warp-specialised schedule (tc.schedule = \"warp_specialized\")")
    if sm100 and name != "warp_specialized" and CLUSTER_ATTR in attrs:
        error_at(kernel, "tc.cluster on sm_100a makes CTA pairs of the warp-specialised schedule (tc.schedule = \"warp_specialized\")")
    return GemmOptions(
        kernel, name, PERSISTENT_ATTR in attrs, attrs.get(MMA_DEPTH_ATTR), attrs.get(CLUSTER_ATTR),
        attrs.get(EPILOGUE_ATTR), attrs.get(L2_PROMOTION_ATTR),
    )
