"""TMA: 2-d tensor loads into shared memory (with multicast, and a CTA pair's load),
tensor stores from shared memory in bulk groups, and the tensor-map prefetch."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, addr, cta_group
from lower_tc.dialects.ptx.modifiers import CTA_GROUP, FLAG, INT


@irdl_op_definition
class PrefetchTensormapOp(PtxOp):
    name = "ptx.prefetch_tensormap"

    def render(self, n: Names) -> str:
        return f"prefetch.tensormap [{n(self.args[0])}];"


@irdl_op_definition
class CpAsyncBulkTensorOp(PtxOp):
    """2-d TMA load: args = (dst smem address, tensor map, mbarrier address), with the
    coordinates immediate (`c0`, `c1`) or two more args (registers, run-time window).
    A sixth arg, a 16-bit CTA mask, multicasts the box to those CTAs of the cluster (at
    the same offsets, completing each one's mbarrier at the same offset). With
    `cta_group` = 2 (a CTA pair's load) the mbarrier may be the peer CTA's (a
    shared::cluster address): both CTAs' boxes complete the pair leader's barrier.
    With `dims` = 3 (a window into a batch of matrices) three coordinate registers
    follow the mbarrier, the batch's last."""

    name = "ptx.cp_async_bulk_tensor"
    offset = prop_def(INT)
    mbar_offset = prop_def(INT)
    c0 = opt_prop_def(INT)
    c1 = opt_prop_def(INT)
    cta_group = opt_prop_def(CTA_GROUP)
    dims = opt_prop_def(INT)

    @classmethod
    def needed_modifiers(cls, nargs: int) -> tuple[str, ...]:
        return ("c0", "c1") if nargs < 5 else ()

    def render(self, n: Names) -> str:
        dst, tmap, mbar = (n(a) for a in self.args[:3])
        dims = self.prop("dims") if self.has("dims") else 2
        if len(self.args) >= 3 + dims:
            coords = ", ".join(n(a) for a in self.args[3 : 3 + dims])
        else:
            coords = f"{self.prop('c0')}, {self.prop('c1')}"
        multicast = ".multicast::cluster" if len(self.args) == 4 + dims else ""
        mask = f", {n(self.args[3 + dims])}" if multicast else ""
        pair = f".{cta_group(self)}" if self.has("cta_group") else ""
        return (
            f"cp.async.bulk.tensor.{dims}d{pair}.shared::cluster.global.mbarrier::complete_tx::bytes{multicast} "
            f"{addr(dst, self.prop('offset'))}, [{tmap}, {{{coords}}}], "
            f"{addr(mbar, self.prop('mbar_offset'))}{mask};"
        )


@irdl_op_definition
class CpAsyncBulkTensorStoreOp(PtxOp):
    """2-d TMA store, shared memory to global, in the issuing thread's bulk group:
    args = (tensor map, c0, c1, src smem address); `offset` is added to the address.
    With `dims` = 3 (into a batch of matrices) the batch coordinate follows c1."""

    name = "ptx.cp_async_bulk_tensor_store"
    offset = prop_def(INT)
    dims = opt_prop_def(INT)

    def render(self, n: Names) -> str:
        tmap, *coords, src = (n(a) for a in self.args)
        dims = self.prop("dims") if self.has("dims") else 2
        return (
            f"cp.async.bulk.tensor.{dims}d.global.shared::cta.bulk_group "
            f"[{tmap}, {{{', '.join(coords)}}}], {addr(src, self.prop('offset'))};"
        )


@irdl_op_definition
class CpAsyncBulkCommitGroupOp(PtxOp):
    """Closes the issuing thread's current bulk group (the TMA stores since the last)."""

    name = "ptx.cp_async_bulk_commit_group"

    def render(self, n: Names) -> str:
        return "cp.async.bulk.commit_group;"


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(PtxOp):
    """Waits until at most `pending` of the thread's bulk groups are outstanding; with
    `read`, only until they have read their shared-memory source (it may be reused)."""

    name = "ptx.cp_async_bulk_wait_group"
    pending = prop_def(INT)
    read = prop_def(FLAG)

    def render(self, n: Names) -> str:
        read = ".read" if self.prop("read") else ""
        return f"cp.async.bulk.wait_group{read} {self.prop('pending')};"
