"""The warp-level MMA of sm_70 onward: ``wmma.load``, ``wmma.mma``, ``wmma.store``."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, brace, regs_list
from lower_tc.dialects.ptx.modifiers import INT, TEXT, one_of

LAYOUTS = one_of("row", "col")
SHAPES = one_of("m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4", "m8n8k32", "m8n8k128")
#: The element types a fragment is loaded or stored as.
FRAGMENT_TYPES = one_of("f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "b1", "s32")


@irdl_op_definition
class WmmaLoadOp(PtxOp):
    """``wmma.load.{a,b,c}.sync.aligned.{layout}.{shape}.global.{type}``: args = (regs, address)."""

    name = "ptx.wmma_load"
    role = prop_def(one_of("a", "b", "c"))
    layout = prop_def(LAYOUTS)
    shape = prop_def(SHAPES)
    type = prop_def(FRAGMENT_TYPES)
    stride = prop_def(INT)

    def render(self, n: Names) -> str:
        regs = brace(regs_list(n, self.args[0]))
        return (
            f"wmma.load.{self.prop('role')}.sync.aligned.{self.prop('layout')}.{self.prop('shape')}"
            f".global.{self.prop('type')} {regs}, [{n(self.args[1])}], {self.prop('stride')};"
        )


@irdl_op_definition
class WmmaMmaOp(PtxOp):
    """``wmma.mma.sync.aligned``: args = (d, a, b, c) register runs; `types` is the
    form's ``dtype[.atype.btype].ctype``."""

    name = "ptx.wmma_mma"
    alayout = prop_def(LAYOUTS)
    blayout = prop_def(LAYOUTS)
    shape = prop_def(SHAPES)
    types = prop_def(TEXT)

    def render(self, n: Names) -> str:
        d, a, b, c = (brace(regs_list(n, x)) for x in self.args)
        return (
            f"wmma.mma.sync.aligned.{self.prop('alayout')}.{self.prop('blayout')}.{self.prop('shape')}"
            f".{self.prop('types')}\n\t\t{d},\n\t\t{a},\n\t\t{b},\n\t\t{c};"
        )


@irdl_op_definition
class WmmaStoreOp(PtxOp):
    """``wmma.store.d.sync.aligned.{layout}.{shape}.global.{type}``: args = (address, regs)."""

    name = "ptx.wmma_store"
    layout = prop_def(LAYOUTS)
    shape = prop_def(SHAPES)
    type = prop_def(FRAGMENT_TYPES)
    stride = prop_def(INT)

    def render(self, n: Names) -> str:
        regs = brace(regs_list(n, self.args[1]))
        return (
            f"wmma.store.d.sync.aligned.{self.prop('layout')}.{self.prop('shape')}.global."
            f"{self.prop('type')} [{n(self.args[0])}], {regs}, {self.prop('stride')};"
        )
