"""Hopper's warpgroup MMA: ``wgmma.mma_async`` and its fence, commit and wait."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, RegsType, brace, regs_list
from lower_tc.dialects.ptx.modifiers import FLAG, INT, TEXT, ints, one_of

#: The accumulator's type and the operands' types of the wgmma forms.
D_TYPES = one_of("f16", "f32", "s32")
AB_TYPES = one_of("f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "b1")


@irdl_op_definition
class WgmmaFenceOp(PtxOp):
    name = "ptx.wgmma_fence"

    def render(self, n: Names) -> str:
        return "wgmma.fence.sync.aligned;"


@irdl_op_definition
class WgmmaCommitGroupOp(PtxOp):
    name = "ptx.wgmma_commit_group"

    def render(self, n: Names) -> str:
        return "wgmma.commit_group.sync.aligned;"


@irdl_op_definition
class WgmmaWaitGroupOp(PtxOp):
    name = "ptx.wgmma_wait_group"
    pending = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"wgmma.wait_group.sync.aligned {self.prop('pending')};"


@irdl_op_definition
class WgmmaMmaAsyncOp(PtxOp):
    """``wgmma.mma_async``: args = (d regs, a desc or a regs, b desc).

    Modifiers: shape (m64nNkK), dtype/atype/btype, scale_d (the D operand: 0 = D is
    overwritten), scale (0: the integer form, without the scale-a/b operands), trans_a and
    trans_b (-1: the form has none), satfinite (s32 only). With d_first and d_count, D is
    that run of the registers (one of the wgmmas a warpgroup issues for a tile wider than
    N = 256: the n8 blocks' registers follow each other, so each part's are a run).
    """

    name = "ptx.wgmma_mma_async"
    shape = prop_def(TEXT)
    dtype = prop_def(D_TYPES)
    atype = prop_def(AB_TYPES)
    btype = prop_def(AB_TYPES)
    scale_d = prop_def(FLAG)
    scale = prop_def(FLAG)
    trans_a = prop_def(ints(-1, 0, 1))
    trans_b = prop_def(ints(-1, 0, 1))
    satfinite = opt_prop_def(FLAG)
    d_first = opt_prop_def(INT)
    d_count = opt_prop_def(INT)

    def render(self, n: Names) -> str:
        d, a, b = self.args
        dtype, atype, btype = self.prop("dtype"), self.prop("atype"), self.prop("btype")
        sat = ".satfinite" if dtype == "s32" and self.has("satfinite") and self.prop("satfinite") else ""
        head = f"wgmma.mma_async.sync.aligned.{self.prop('shape')}{sat}.{dtype}.{atype}.{btype}"
        a_text = brace(regs_list(n, a)) if isinstance(a.type, RegsType) else n(a)
        d_regs = regs_list(n, d)
        if self.has("d_first"):
            first = int(self.prop("d_first"))  # type: ignore[arg-type]
            d_regs = d_regs[first:first + int(self.prop("d_count"))]  # type: ignore[arg-type]
        ops = [brace(d_regs), a_text, n(b), str(self.prop("scale_d"))]
        if self.prop("scale"):
            ops += ["1", "1"]
        for key in ("trans_a", "trans_b"):
            if self.prop(key) >= 0:  # type: ignore[operator]
                ops.append(str(self.prop(key)))
        return head + "\n\t\t" + ",\n\t\t".join(ops) + ";"
