"""Blackwell's fifth-generation tensor core: tensor-memory allocation, ``tcgen05.mma`` and
its commit to an mbarrier, the thread-sync fences, and tensor-memory loads and stores.
Every op names its CTA group (`cta_group`, 1 by default; 2 for a CTA pair)."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, addr, brace, cta_group, regs_list
from lower_tc.dialects.ptx.modifiers import CTA_GROUP, FLAG, INT, ints, one_of

#: ``.kind::`` of tcgen05.mma: the operand types' family.
MMA_KINDS = one_of("f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4")
#: ``.xN`` of the 32x32b tensor-memory loads and stores: registers (columns) per thread.
COLUMN_COUNTS = ints(1, 2, 4, 8, 16, 32, 64, 128)


@irdl_op_definition
class Tcgen05AllocOp(PtxOp):
    """Allocates `columns` of tensor memory; the address lands at args[0] + `offset`."""

    name = "ptx.tcgen05_alloc"
    offset = prop_def(INT)
    columns = prop_def(INT)
    cta_group = opt_prop_def(CTA_GROUP)

    def render(self, n: Names) -> str:
        return (
            f"tcgen05.alloc.{cta_group(self)}.sync.aligned.shared::cta.b32 "
            f"{addr(n(self.args[0]), self.prop('offset'))}, {self.prop('columns')};"
        )


@irdl_op_definition
class Tcgen05RelinquishOp(PtxOp):
    name = "ptx.tcgen05_relinquish_alloc_permit"
    cta_group = opt_prop_def(CTA_GROUP)

    def render(self, n: Names) -> str:
        return f"tcgen05.relinquish_alloc_permit.{cta_group(self)}.sync.aligned;"


@irdl_op_definition
class Tcgen05DeallocOp(PtxOp):
    name = "ptx.tcgen05_dealloc"
    columns = prop_def(INT)
    cta_group = opt_prop_def(CTA_GROUP)

    def render(self, n: Names) -> str:
        return f"tcgen05.dealloc.{cta_group(self)}.sync.aligned.b32 {n(self.args[0])}, {self.prop('columns')};"


@irdl_op_definition
class Tcgen05MmaOp(PtxOp):
    """``tcgen05.mma.cta_group::1.kind::K [d], a, b, idesc, enable_input_d``.

    args = (d tmem address, a desc (or a tmem address, with `a_tmem`), b desc, idesc[,
    enable-input-d predicate]); without the predicate, `enable_input_d` is the immediate.
    """

    name = "ptx.tcgen05_mma"
    kind = prop_def(MMA_KINDS)
    enable_input_d = opt_prop_def(FLAG)
    a_tmem = opt_prop_def(FLAG)
    cta_group = opt_prop_def(CTA_GROUP)

    @classmethod
    def needed_modifiers(cls, nargs: int) -> tuple[str, ...]:
        return ("enable_input_d",) if nargs < 5 else ()

    def render(self, n: Names) -> str:
        d, a, b, idesc = (n(x) for x in self.args[:4])
        a_text = f"[{a}]" if self.has("a_tmem") and self.prop("a_tmem") else a
        # enable-input-d: an immediate, or a predicate register (a K loop's first MMA)
        enable = n(self.args[4]) if len(self.args) > 4 else self.prop("enable_input_d")
        return (
            f"tcgen05.mma.{cta_group(self)}.kind::{self.prop('kind')} [{d}], {a_text}, {b}, {idesc}, "
            f"{enable};"
        )


@irdl_op_definition
class Tcgen05CommitOp(PtxOp):
    """One arrival on an mbarrier once this thread's earlier tcgen05 ops are done: args =
    (address,), or (address, 16-bit CTA mask) to arrive on the barrier at that offset in
    each CTA of the mask (`.multicast::cluster`)."""

    name = "ptx.tcgen05_commit"
    offset = prop_def(INT)
    cta_group = opt_prop_def(CTA_GROUP)

    def render(self, n: Names) -> str:
        multicast = len(self.args) == 2
        mask = f", {n(self.args[1])}" if multicast else ""
        return (
            f"tcgen05.commit.{cta_group(self)}.mbarrier::arrive::one.shared::cluster"
            f"{'.multicast::cluster' if multicast else ''}.b64 "
            f"{addr(n(self.args[0]), self.prop('offset'))}{mask};"
        )


@irdl_op_definition
class Tcgen05FenceOp(PtxOp):
    name = "ptx.tcgen05_fence"
    kind = prop_def(one_of("before_thread_sync", "after_thread_sync"))

    def render(self, n: Names) -> str:
        return f"tcgen05.fence::{self.prop('kind')};"


@irdl_op_definition
class Tcgen05LdOp(PtxOp):
    """``tcgen05.ld.sync.aligned.32x32b.xN.b32``: args = (regs, tmem address); loads `num`
    registers of the run from index `regs`, at column `offset`."""

    name = "ptx.tcgen05_ld"
    regs = prop_def(INT)
    num = prop_def(COLUMN_COUNTS)
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        lo, num = self.prop("regs"), self.prop("num")
        dsts = regs_list(n, self.args[0])[lo : lo + num]  # type: ignore[operator]
        return (
            f"tcgen05.ld.sync.aligned.32x32b.x{num}.b32 {brace(dsts)}, "
            f"{addr(n(self.args[1]), self.prop('offset'))};"
        )


@irdl_op_definition
class Tcgen05StOp(PtxOp):
    """``tcgen05.st.sync.aligned.32x32b.xN.b32 [taddr], {regs}``: args = (tmem address, regs);
    each thread writes its lane, one 32-bit column per register."""

    name = "ptx.tcgen05_st"
    regs = prop_def(INT)
    num = prop_def(COLUMN_COUNTS)
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        lo, num = self.prop("regs"), self.prop("num")
        srcs = regs_list(n, self.args[1])[lo : lo + num]  # type: ignore[operator]
        return f"tcgen05.st.sync.aligned.32x32b.x{num}.b32 {addr(n(self.args[0]), self.prop('offset'))}, {brace(srcs)};"


@irdl_op_definition
class Tcgen05WaitLdOp(PtxOp):
    name = "ptx.tcgen05_wait_ld"

    def render(self, n: Names) -> str:
        return "tcgen05.wait::ld.sync.aligned;"


@irdl_op_definition
class Tcgen05WaitStOp(PtxOp):
    name = "ptx.tcgen05_wait_st"

    def render(self, n: Names) -> str:
        return "tcgen05.wait::st.sync.aligned;"
