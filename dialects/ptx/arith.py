"""Register arithmetic: ``{opcode}.{type} d, a[, b][, imm]`` (the ALU ops, conversions,
selects) and comparisons into a predicate (``setp``)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp
from lower_tc.dialects.ptx.modifiers import INT, PTX_TYPE, TEXT, one_of

#: setp's comparisons: integer (signed and unsigned) and floating point, ordered and not.
COMPARISONS = one_of(
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
)


class _Alu(PtxOp):
    """``{OPCODE}.{type} d, args...[, imm]``: the sources are the args, then `imm` if set."""

    OPCODE: ClassVar[str]
    type = prop_def(PTX_TYPE)
    imm = opt_prop_def(INT)

    def render(self, n: Names) -> str:
        srcs = [n(a) for a in self.args] + ([str(self.prop("imm"))] if self.has("imm") else [])
        return f"{self.OPCODE}.{self.prop('type')} {n(self.res[0])}, {', '.join(srcs)};"


class _Cvt(_Alu):
    """A conversion: its `type` is the compound ``[rounding.]dst.src`` (``rn.f16x2.f32``)."""

    type = prop_def(TEXT)


def _alu(op_name: str, opcode: str, base: type[_Alu] = _Alu) -> type[_Alu]:
    cls = type(
        op_name.title().replace(".", "").replace("_", "") + "Op",
        (base,),
        {"name": op_name, "OPCODE": opcode, "__module__": __name__, "__annotations__": {"OPCODE": ClassVar[str]}},
    )
    return irdl_op_definition(cls)


AddOp = _alu("ptx.add", "add")
SubOp = _alu("ptx.sub", "sub")
MulLoOp = _alu("ptx.mul_lo", "mul.lo")
MulWideOp = _alu("ptx.mul_wide", "mul.wide")
ShlOp = _alu("ptx.shl", "shl")
ShrOp = _alu("ptx.shr", "shr")
AndOp = _alu("ptx.and", "and")
OrOp = _alu("ptx.or", "or")
CvtOp = _alu("ptx.cvt", "cvt", _Cvt)
CvtaToGlobalOp = _alu("ptx.cvta_to_global", "cvta.to.global")
XorOp = _alu("ptx.xor", "xor")
DivOp = _alu("ptx.div", "div")
RemOp = _alu("ptx.rem", "rem")
MinOp = _alu("ptx.min", "min")
MovOp = _alu("ptx.mov", "mov")  # a register copy (or an f32 add of C: ptx.add with type f32)
SelpOp = _alu("ptx.selp", "selp")  # args = (if true, if false, predicate)
MaxOp = _alu("ptx.max", "max")
MulOp = _alu("ptx.mul", "mul")  # floating point (mul.f32); integers have mul.lo / mul.wide
Ex2Op = _alu("ptx.ex2", "ex2", _Cvt)  # type "approx.f32" (or approx.ftz.f32): 2^a
RcpOp = _alu("ptx.rcp", "rcp", _Cvt)  # type "approx.ftz.f32" (or rn.f32, a subroutine call): 1 / a
Lg2Op = _alu("ptx.lg2", "lg2", _Cvt)  # type "approx.f32": log2 a (-inf at 0)
PrmtOp = _alu("ptx.prmt", "prmt")  # type "b32", args (a, b, selector): bytes of {b, a} picked by the selector's nibbles


@irdl_op_definition
class ShflBflyOp(PtxOp):
    """``shfl.sync.bfly.b32 d, a, lane_mask, 31, 0xffffffff``: every lane of the warp takes
    `a` from the lane whose index differs by `lane_mask` (XOR); all 32 lanes take part."""

    name = "ptx.shfl_bfly"
    lane_mask = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"shfl.sync.bfly.b32 {n(self.res[0])}, {n(self.args[0])}, {self.prop('lane_mask')}, 31, -1;"


@irdl_op_definition
class ShflIdxOp(PtxOp):
    """``shfl.sync.idx.b32 d, a, lane, 31, 0xffffffff``: every lane of the warp takes `a`
    from lane `lane` (a register: each lane names its own source); all 32 lanes take part."""

    name = "ptx.shfl_idx"

    def render(self, n: Names) -> str:
        return f"shfl.sync.idx.b32 {n(self.res[0])}, {n(self.args[0])}, {n(self.args[1])}, 31, -1;"


@irdl_op_definition
class SetpOp(PtxOp):
    """``setp.{cmp}.{type} p, a, b`` (or ``a, imm``)."""

    name = "ptx.setp"
    cmp = prop_def(COMPARISONS)
    type = prop_def(PTX_TYPE)
    imm = opt_prop_def(INT)

    def render(self, n: Names) -> str:
        srcs = [n(a) for a in self.args] + ([str(self.prop("imm"))] if self.has("imm") else [])
        return f"setp.{self.prop('cmp')}.{self.prop('type')} {n(self.res[0])}, {', '.join(srcs)};"
