"""Registers: moves, immediates, special registers, kernel parameters, register runs
(declaring one, naming one of its registers, filling it) and the warpgroup's register
budget (setmaxnreg)."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, brace, regs_list
from lower_tc.dialects.ptx.modifiers import ADDRESS_TYPE, INT, INT_OR_TEXT, PTX_TYPE, TEXT, one_of

#: The 32-bit special registers ``ptx.sreg`` reads (``mov.u32 %r, %tid.x``).
SPECIAL_REGISTERS = one_of(
    *(f"{r}.{d}" for r in ("tid", "ntid", "ctaid", "nctaid") for d in "xyz"),
    *(f"{r}.{d}" for r in ("cluster_ctaid", "cluster_nctaid", "clusterid", "nclusterid") for d in "xyz"),
    "cluster_ctarank", "cluster_nctarank", "is_explicit_cluster",
    "laneid", "warpid", "nwarpid", "smid", "nsmid",
    "lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt",
    "clock", "clock_hi", "dynamic_smem_size", "total_smem_size",
)


@irdl_op_definition
class LdParamOp(PtxOp):
    name = "ptx.ld_param"
    type = prop_def(PTX_TYPE)
    param = prop_def(TEXT)

    def render(self, n: Names) -> str:
        return f"ld.param.{self.prop('type')} {n(self.res[0])}, [{self.prop('param')}];"


@irdl_op_definition
class ParamAddrOp(PtxOp):
    """The generic address of a kernel parameter (a by-value tensor map)."""

    name = "ptx.param_addr"
    param = prop_def(TEXT)

    def render(self, n: Names) -> str:
        r = n(self.res[0])
        return f"mov.b64 {r}, {self.prop('param')};\n\tcvta.param.u64 {r}, {r};"


@irdl_op_definition
class SregOp(PtxOp):
    """``mov.u32 %r, %tid.x``: a special register."""

    name = "ptx.sreg"
    sreg = prop_def(SPECIAL_REGISTERS)

    def render(self, n: Names) -> str:
        return f"mov.u32 {n(self.res[0])}, %{self.prop('sreg')};"


@irdl_op_definition
class GlobalTimerOp(PtxOp):
    """``mov.u64 %rd, %globaltimer``: the GPU's nanosecond timer (a bounded spin's clock)."""

    name = "ptx.globaltimer"

    def render(self, n: Names) -> str:
        return f"mov.u64 {n(self.res[0])}, %globaltimer;"


@irdl_op_definition
class MovImmOp(PtxOp):
    """``mov.{type} %r, value``: an immediate, an integer or PTX text (``0x...``)."""

    name = "ptx.mov_imm"
    type = prop_def(PTX_TYPE)
    value = prop_def(INT_OR_TEXT)

    def render(self, n: Names) -> str:
        return f"mov.{self.prop('type')} {n(self.res[0])}, {self.prop('value')};"


@irdl_op_definition
class SymAddrOp(PtxOp):
    """``mov.u32 %r, smem`` / ``mov.u64 %rd, table``: the address of a symbol."""

    name = "ptx.sym_addr"
    type = prop_def(ADDRESS_TYPE)
    symbol = prop_def(TEXT)

    def render(self, n: Names) -> str:
        return f"mov.{self.prop('type')} {n(self.res[0])}, {self.prop('symbol')};"


@irdl_op_definition
class FillOp(PtxOp):
    """Sets every register of a `!ptx.regs` value to an immediate (one mov each)."""

    name = "ptx.fill"
    type = prop_def(PTX_TYPE)
    value = prop_def(INT_OR_TEXT)

    def render(self, n: Names) -> str:
        regs = regs_list(n, self.args[0])
        t, v = self.prop("type"), self.prop("value")
        return "\n\t".join(f"mov.{t} {r}, {v};" for r in regs)


@irdl_op_definition
class PackOp(PtxOp):
    """``mov.b32 %r, {%h0, %h1}``: two 16-bit registers into one 32-bit register."""

    name = "ptx.pack"

    def render(self, n: Names) -> str:
        return f"mov.b32 {n(self.res[0])}, {brace([n(a) for a in self.args])};"


@irdl_op_definition
class UnpackOp(PtxOp):
    """``mov.b32 {%h0, %h1}, %r``: a 32-bit register into its low and high 16 bits."""

    name = "ptx.unpack"

    def render(self, n: Names) -> str:
        return f"mov.b32 {brace([n(r) for r in self.res])}, {n(self.args[0])};"


@irdl_op_definition
class SetMaxNRegOp(PtxOp):
    """``setmaxnreg.{inc,dec}.sync.aligned.u32 N``: a warpgroup gives registers back to the
    pool (a producer) or takes them (the consumers); every warp of it executes it."""

    name = "ptx.setmaxnreg"
    action = prop_def(one_of("inc", "dec"))
    count = prop_def(INT)

    def render(self, n: Names) -> str:
        return f"setmaxnreg.{self.prop('action')}.sync.aligned.u32 {self.prop('count')};"


@irdl_op_definition
class AssignOp(PtxOp):
    """``mov.{type} dst, src`` into an existing register: args = (dst, src).

    PTX registers are mutable; this is how a loop-carried value (a loop's counter, a
    stage index, a barrier phase) is updated at the end of each iteration once
    structured control flow has become labels and branches."""

    name = "ptx.assign"
    type = prop_def(PTX_TYPE)

    def render(self, n: Names) -> str:
        return f"mov.{self.prop('type')} {n(self.args[0])}, {n(self.args[1])};"


@irdl_op_definition
class RegOfOp(PtxOp):
    """Names one register of a run (`regs` = its index) as a value of its own, so that
    ordinary instructions can read it: prints nothing (the printer gives the result
    that register's name)."""

    name = "ptx.reg_of"
    regs = prop_def(INT)

    def render(self, n: Names) -> str:
        return ""


@irdl_op_definition
class DeclRegsOp(PtxOp):
    """Declares a register run (no PTX of its own beyond the .reg declaration)."""

    name = "ptx.regs"

    def render(self, n: Names) -> str:
        return ""
