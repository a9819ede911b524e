"""The `ptx` dialect: ops that mirror PTX instructions one to one.

Registers are SSA values typed i1 (a predicate), i16, i32, i64 or f32; an
accumulator or fragment is one value of type ``!ptx.regs<64xf32>``, a run of
registers the printer allocates together and that instructions like
``wgmma.mma_async`` read and write in place, as PTX does. Control flow is
PTX's own: ``ptx.label`` and ``ptx.bra``. Each op knows its PTX syntax
(`render`); `lower_tc.lowering.ptx_printer` only allocates register names
and prints.

Kernels are ``ptx.kernel`` ops (a ``.visible .entry``); read-only tables the
lowering computes at compile time are ``ptx.table`` ops (``.global`` arrays).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator

Names = Callable[[SSAValue], str]


@irdl_attr_definition
class RegsType(ParametrizedAttribute, TypeAttribute):
    """``!ptx.regs<64xf32>``: a run of registers (an accumulator or fragment)."""

    name = "ptx.regs"
    count: IntAttr
    element_type: Attribute

    def __init__(self, count: int, elt: Attribute):
        super().__init__(IntAttr(count), elt)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elt = parser.parse_ranked_shape()
        return (IntAttr(dims[0]), elt)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.count.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


class PtxOp(IRDLOperation):
    """An op that renders as PTX; `args` are read, `res` are written."""

    args = var_operand_def()
    res = var_result_def()

    def render(self, n: Names) -> str:
        raise NotImplementedError(self.name)

    def prop(self, key: str) -> object:
        """A modifier's plain value (str or int); modifiers are the op's attributes."""
        attr = self.attributes[key]
        if isinstance(attr, StringAttr):
            return attr.data
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        return attr


def cta_group(op: PtxOp) -> str:
    """The `.cta_group::N` of a tcgen05 (or pair TMA) op: its `cta_group` modifier, 1 by
    default. A kernel's tcgen05 ops all name the same group (ptxas refuses a mix)."""
    attr = op.attributes.get("cta_group")
    return f"cta_group::{attr.value.data if isinstance(attr, IntegerAttr) else 1}"


def _props(**kwargs: object) -> dict[str, Attribute]:
    out: dict[str, Attribute] = {}
    for key, value in kwargs.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = int(value)
        out[key] = IntegerAttr(value, i64) if isinstance(value, int) else StringAttr(str(value))
    return out


def build(cls: type[PtxOp], args: Sequence[SSAValue] = (), results: Sequence[Attribute] = (), **props: object) -> PtxOp:
    """Build a ptx op; `props` are its modifiers, stored as attributes."""
    return cls.build(operands=[list(args)], result_types=[list(results)], attributes=_props(**props))


def regs_list(n: Names, value: SSAValue) -> list[str]:
    """The register names of a `!ptx.regs` value (or a one-element list)."""
    return n(value).split(",") if isinstance(value.type, RegsType) else [n(value)]


def brace(names: Sequence[str]) -> str:
    return "{" + ", ".join(names) + "}"


def _addr(base: str, offset: int) -> str:
    return f"[{base}+{offset}]" if offset else f"[{base}]"


# -- kernels and data ---------------------------------------------------------------


@irdl_op_definition
class KernelOp(IRDLOperation):
    """A ``.visible .entry``: params, threads, dynamic shared memory and a body."""

    name = "ptx.kernel"
    sym_name = prop_def(StringAttr)
    params = prop_def(ArrayAttr[StringAttr])  # PTX param declarations, e.g. ".param .u64 p_A"
    threads = prop_def(IntAttr)
    smem_bytes = prop_def(IntAttr)
    info = opt_prop_def(StringAttr)  # JSON metadata for the runner
    maxnreg = opt_prop_def(IntAttr)  # a register cap at entry (.maxnreg), which setmaxnreg needs
    cluster = opt_prop_def(IntAttr)  # CTAs per cluster along x (.reqnctapercluster N, 1, 1)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())


@irdl_op_definition
class TableOp(IRDLOperation):
    """A read-only ``.global .u32`` table computed at compile time."""

    name = "ptx.table"
    sym_name = prop_def(StringAttr)
    values = prop_def(DenseArrayBase)


# -- moves, special registers, parameters ---------------------------------------------


@irdl_op_definition
class LdParamOp(PtxOp):
    name = "ptx.ld_param"

    def render(self, n: Names) -> str:
        t = self.prop("type")
        return f"ld.param.{t} {n(self.res[0])}, [{self.prop('param')}];"


@irdl_op_definition
class ParamAddrOp(PtxOp):
    """The generic address of a kernel parameter (a by-value tensor map)."""

    name = "ptx.param_addr"

    def render(self, n: Names) -> str:
        r = n(self.res[0])
        return f"mov.b64 {r}, {self.prop('param')};\n\tcvta.param.u64 {r}, {r};"


@irdl_op_definition
class SregOp(PtxOp):
    """``mov.u32 %r, %tid.x``: a special register."""

    name = "ptx.sreg"

    def render(self, n: Names) -> str:
        return f"mov.u32 {n(self.res[0])}, %{self.prop('sreg')};"


@irdl_op_definition
class MovImmOp(PtxOp):
    name = "ptx.mov_imm"

    def render(self, n: Names) -> str:
        return f"mov.{self.prop('type')} {n(self.res[0])}, {self.prop('value')};"


@irdl_op_definition
class SymAddrOp(PtxOp):
    """``mov.u32 %r, smem`` / ``mov.u64 %rd, table``: the address of a symbol."""

    name = "ptx.sym_addr"

    def render(self, n: Names) -> str:
        return f"mov.{self.prop('type')} {n(self.res[0])}, {self.prop('symbol')};"


@irdl_op_definition
class FillOp(PtxOp):
    """Sets every register of a `!ptx.regs` value to an immediate (one mov each)."""

    name = "ptx.fill"

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
class SetMaxNRegOp(PtxOp):
    """``setmaxnreg.{inc,dec}.sync.aligned.u32 N``: a warpgroup gives registers back to the
    pool (a producer) or takes them (the consumers); every warp of it executes it."""

    name = "ptx.setmaxnreg"

    def render(self, n: Names) -> str:
        return f"setmaxnreg.{self.prop('action')}.sync.aligned.u32 {self.prop('count')};"


@irdl_op_definition
class UnpackOp(PtxOp):
    """``mov.b32 {%h0, %h1}, %r``: a 32-bit register into its low and high 16 bits."""

    name = "ptx.unpack"

    def render(self, n: Names) -> str:
        return f"mov.b32 {brace([n(r) for r in self.res])}, {n(self.args[0])};"


# -- integer arithmetic -----------------------------------------------------------------


class _Alu(PtxOp):
    OPCODE: ClassVar[str]

    def render(self, n: Names) -> str:
        srcs = [n(a) for a in self.args] + ([str(self.prop("imm"))] if "imm" in self.attributes else [])
        return f"{self.OPCODE}.{self.prop('type')} {n(self.res[0])}, {', '.join(srcs)};"


def _alu(op_name: str, opcode: str) -> type[_Alu]:
    cls = type(op_name.title().replace(".", "").replace("_", "") + "Op", (_Alu,), {"name": op_name, "OPCODE": opcode, "__annotations__": {"OPCODE": ClassVar[str]}})
    return irdl_op_definition(cls)


AddOp = _alu("ptx.add", "add")
SubOp = _alu("ptx.sub", "sub")
MulLoOp = _alu("ptx.mul_lo", "mul.lo")
MulWideOp = _alu("ptx.mul_wide", "mul.wide")
ShlOp = _alu("ptx.shl", "shl")
ShrOp = _alu("ptx.shr", "shr")
AndOp = _alu("ptx.and", "and")
OrOp = _alu("ptx.or", "or")
CvtOp = _alu("ptx.cvt", "cvt")
CvtaToGlobalOp = _alu("ptx.cvta_to_global", "cvta.to.global")
XorOp = _alu("ptx.xor", "xor")
DivOp = _alu("ptx.div", "div")
RemOp = _alu("ptx.rem", "rem")
MinOp = _alu("ptx.min", "min")
MovOp = _alu("ptx.mov", "mov")  # a register copy (or an f32 add of C: ptx.add with type f32)
SelpOp = _alu("ptx.selp", "selp")  # args = (if true, if false, predicate)


@irdl_op_definition
class AssignOp(PtxOp):
    """``mov.{type} dst, src`` into an existing register: args = (dst, src).

    PTX registers are mutable; this is how a loop-carried value (a loop's counter, a
    stage index, a barrier phase) is updated at the end of each iteration once
    structured control flow has become labels and branches."""

    name = "ptx.assign"

    def render(self, n: Names) -> str:
        return f"mov.{self.prop('type')} {n(self.args[0])}, {n(self.args[1])};"


@irdl_op_definition
class RegOfOp(PtxOp):
    """Names one register of a run (`regs` = its index) as a value of its own, so that
    ordinary instructions can read it: prints nothing (the printer gives the result
    that register's name)."""

    name = "ptx.reg_of"

    def render(self, n: Names) -> str:
        return ""


@irdl_op_definition
class SetpOp(PtxOp):
    name = "ptx.setp"

    def render(self, n: Names) -> str:
        srcs = [n(a) for a in self.args] + ([str(self.prop("imm"))] if "imm" in self.attributes else [])
        return f"setp.{self.prop('cmp')}.{self.prop('type')} {n(self.res[0])}, {', '.join(srcs)};"


# -- control flow and synchronisation ---------------------------------------------------


@irdl_op_definition
class LabelOp(PtxOp):
    name = "ptx.label"

    def render(self, n: Names) -> str:
        return f"{self.prop('label')}:"


@irdl_op_definition
class BraOp(PtxOp):
    """``@%p bra L`` (``@!%p`` with negate), or an unconditional ``bra L``."""

    name = "ptx.bra"

    def render(self, n: Names) -> str:
        guard = ""
        if self.args:
            guard = f"@{'!' if self.attributes.get('negate') else ''}{n(self.args[0])} "
        return f"{guard}bra.uni {self.prop('label')};" if not self.args else f"{guard}bra {self.prop('label')};"


@irdl_op_definition
class BarSyncOp(PtxOp):
    """``bar.sync 0``: every thread of the CTA; or, with args = (barrier id register,) and
    `count`, the named barrier that only `count` threads (one warpgroup) meet at."""

    name = "ptx.bar_sync"

    def render(self, n: Names) -> str:
        if self.args:
            return f"bar.sync {n(self.args[0])}, {self.prop('count')};"
        return "bar.sync 0;"


@irdl_op_definition
class FenceProxyAsyncOp(PtxOp):
    name = "ptx.fence_proxy_async"

    def render(self, n: Names) -> str:
        return "fence.proxy.async.shared::cta;"


@irdl_op_definition
class RetOp(PtxOp):
    name = "ptx.ret"

    def render(self, n: Names) -> str:
        return "ret;"


# -- memory -------------------------------------------------------------------------------


@irdl_op_definition
class LdOp(PtxOp):
    """``ld.{space}{.vN}.{type}``: args = (address,), results = the loaded registers."""

    name = "ptx.ld"

    def render(self, n: Names) -> str:
        vec = self.prop("vec")
        dsts = [r for v in self.res for r in regs_list(n, v)]
        dst = brace(dsts) if vec != 1 else dsts[0]
        v = f".v{vec}" if vec != 1 else ""
        return f"ld.{self.prop('space')}{v}.{self.prop('type')} {dst}, {_addr(n(self.args[0]), self.prop('offset'))};"


@irdl_op_definition
class StOp(PtxOp):
    """``st.{space}{.vN}.{type}``: args = (address, values...)."""

    name = "ptx.st"

    def render(self, n: Names) -> str:
        vec = self.prop("vec")
        srcs = [r for v in self.args[1:] for r in regs_list(n, v)]
        if "regs" in self.attributes:  # a slice of a register run
            lo = self.prop("regs")
            srcs = srcs[lo : lo + vec]
        src = brace(srcs) if vec != 1 else srcs[0]
        v = f".v{vec}" if vec != 1 else ""
        return f"st.{self.prop('space')}{v}.{self.prop('type')} {_addr(n(self.args[0]), self.prop('offset'))}, {src};"


@irdl_op_definition
class CvtToRegOp(PtxOp):
    """``cvt.{type} %r, %h`` into one register of a run: args = (source, run); `regs` = index."""

    name = "ptx.cvt_to_reg"

    def render(self, n: Names) -> str:
        dst = regs_list(n, self.args[1])[self.prop("regs")]  # type: ignore[index]
        return f"cvt.{self.prop('type')} {dst}, {n(self.args[0])};"


@irdl_op_definition
class CvtFromRegOp(PtxOp):
    """``cvt.{type} %h, %r`` from one register of a run: args = (run,); `regs` = index."""

    name = "ptx.cvt_from_reg"

    def render(self, n: Names) -> str:
        src = regs_list(n, self.args[0])[self.prop("regs")]  # type: ignore[index]
        return f"cvt.{self.prop('type')} {n(self.res[0])}, {src};"


@irdl_op_definition
class LdRegsOp(PtxOp):
    """Loads into a slice of a register run: ``ld.global.v2.f32 {%f4, %f5}, [%rd+8]``."""

    name = "ptx.ld_regs"

    def render(self, n: Names) -> str:
        vec, lo = self.prop("vec"), self.prop("regs")
        dsts = regs_list(n, self.args[1])[lo : lo + vec]
        dst = brace(dsts) if vec != 1 else dsts[0]
        v = f".v{vec}" if vec != 1 else ""
        return f"ld.{self.prop('space')}{v}.{self.prop('type')} {dst}, {_addr(n(self.args[0]), self.prop('offset'))};"


# -- mbarrier and TMA -------------------------------------------------------------------


@irdl_op_definition
class MbarrierInitOp(PtxOp):
    name = "ptx.mbarrier_init"

    def render(self, n: Names) -> str:
        return (
            f"mbarrier.init.shared::cta.b64 {_addr(n(self.args[0]), self.prop('offset'))}, {self.prop('count')};"
        )


@irdl_op_definition
class FenceMbarrierInitOp(PtxOp):
    name = "ptx.fence_mbarrier_init"

    def render(self, n: Names) -> str:
        return "fence.mbarrier_init.release.cluster;"


@irdl_op_definition
class MbarrierArriveExpectTxOp(PtxOp):
    name = "ptx.mbarrier_arrive_expect_tx"

    def render(self, n: Names) -> str:
        return (
            f"mbarrier.arrive.expect_tx.shared::cta.b64 _, "
            f"{_addr(n(self.args[0]), self.prop('offset'))}, {self.prop('bytes')};"
        )


@irdl_op_definition
class MbarrierArriveOp(PtxOp):
    """``mbarrier.arrive.shared::cta.b64 _, [addr]``: one arrival (args = (address,))."""

    name = "ptx.mbarrier_arrive"

    def render(self, n: Names) -> str:
        return f"mbarrier.arrive.shared::cta.b64 _, {_addr(n(self.args[0]), self.prop('offset'))};"


@irdl_op_definition
class MbarrierTryWaitParityOp(PtxOp):
    """args = (address,) with an immediate `parity`, or (address, parity register)."""

    name = "ptx.mbarrier_try_wait_parity"

    def render(self, n: Names) -> str:
        parity = n(self.args[1]) if len(self.args) > 1 else self.prop("parity")
        return (
            f"mbarrier.try_wait.parity.shared::cta.b64 {n(self.res[0])}, "
            f"{_addr(n(self.args[0]), self.prop('offset'))}, {parity};"
        )


@irdl_op_definition
class MbarrierInvalOp(PtxOp):
    name = "ptx.mbarrier_inval"

    def render(self, n: Names) -> str:
        return f"mbarrier.inval.shared::cta.b64 {_addr(n(self.args[0]), self.prop('offset'))};"


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
    shared::cluster address): both CTAs' boxes complete the pair leader's barrier."""

    name = "ptx.cp_async_bulk_tensor"

    def render(self, n: Names) -> str:
        dst, tmap, mbar = (n(a) for a in self.args[:3])
        if len(self.args) >= 5:
            c0, c1 = n(self.args[3]), n(self.args[4])
        else:
            c0, c1 = self.prop("c0"), self.prop("c1")
        multicast = ".multicast::cluster" if len(self.args) == 6 else ""
        mask = f", {n(self.args[5])}" if multicast else ""
        pair = f".{cta_group(self)}" if "cta_group" in self.attributes else ""
        return (
            f"cp.async.bulk.tensor.2d{pair}.shared::cluster.global.mbarrier::complete_tx::bytes{multicast} "
            f"{_addr(dst, self.prop('offset'))}, [{tmap}, {{{c0}, {c1}}}], "
            f"{_addr(mbar, self.prop('mbar_offset'))}{mask};"
        )


@irdl_op_definition
class MapaOp(PtxOp):
    """``mapa.shared::cluster.u32 d, a, rank``: the address of shared::cta address a in the
    shared memory of the cluster's CTA `rank` (args = (a, rank))."""

    name = "ptx.mapa"

    def render(self, n: Names) -> str:
        return f"mapa.shared::cluster.u32 {n(self.res[0])}, {n(self.args[0])}, {n(self.args[1])};"


@irdl_op_definition
class MbarrierArriveClusterOp(PtxOp):
    """One arrival on an mbarrier of another CTA of the cluster (args = (its
    shared::cluster address,)), releasing this thread's prior accesses cluster-wide."""

    name = "ptx.mbarrier_arrive_cluster"

    def render(self, n: Names) -> str:
        return f"mbarrier.arrive.shared::cluster.b64 _, {_addr(n(self.args[0]), self.prop('offset'))};"


@irdl_op_definition
class ClusterBarrierOp(PtxOp):
    """Every thread of the cluster meets here: ``barrier.cluster.arrive`` then ``wait``."""

    name = "ptx.cluster_barrier"

    def render(self, n: Names) -> str:
        return "barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"


@irdl_op_definition
class CpAsyncBulkTensorStoreOp(PtxOp):
    """2-d TMA store, shared memory to global, in the issuing thread's bulk group:
    args = (tensor map, c0, c1, src smem address); `offset` is added to the address."""

    name = "ptx.cp_async_bulk_tensor_store"

    def render(self, n: Names) -> str:
        tmap, c0, c1, src = (n(a) for a in self.args)
        return (
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
            f"[{tmap}, {{{c0}, {c1}}}], {_addr(src, self.prop('offset'))};"
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

    def render(self, n: Names) -> str:
        read = ".read" if self.prop("read") else ""
        return f"cp.async.bulk.wait_group{read} {self.prop('pending')};"


@irdl_op_definition
class StmatrixOp(PtxOp):
    """``stmatrix.sync.aligned.m8n8.x4.shared.b16``: a warp stores four 8x8 matrices of
    16-bit elements; args = (this thread's row address, four b32 registers), each register
    two neighbouring elements of one matrix's row (the wgmma accumulator's pairs)."""

    name = "ptx.stmatrix"

    def render(self, n: Names) -> str:
        addr = _addr(n(self.args[0]), self.prop("offset"))
        return f"stmatrix.sync.aligned.m8n8.x4.shared.b16 {addr}, {brace([n(a) for a in self.args[1:]])};"


# -- wgmma ----------------------------------------------------------------------------------


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

    def render(self, n: Names) -> str:
        return f"wgmma.wait_group.sync.aligned {self.prop('pending')};"


@irdl_op_definition
class WgmmaMmaAsyncOp(PtxOp):
    """``wgmma.mma_async``: args = (d regs, a desc or a regs, b desc).

    Properties: shape (m64nNkK), dtype/atype/btype, trans_a/trans_b (-1: the
    form has none), scale (0: int form without scale operands).
    """

    name = "ptx.wgmma_mma_async"

    def render(self, n: Names) -> str:
        d, a, b = self.args
        dtype, atype, btype = self.prop("dtype"), self.prop("atype"), self.prop("btype")
        sat = ".satfinite" if dtype == "s32" and self.attributes.get("satfinite") else ""
        head = f"wgmma.mma_async.sync.aligned.{self.prop('shape')}{sat}.{dtype}.{atype}.{btype}"
        a_text = brace(regs_list(n, a)) if isinstance(a.type, RegsType) else n(a)
        ops = [brace(regs_list(n, d)), a_text, n(b), str(self.prop("scale_d"))]
        if self.prop("scale"):
            ops += ["1", "1"]
        for key in ("trans_a", "trans_b"):
            if self.prop(key) >= 0:  # type: ignore[operator]
                ops.append(str(self.prop(key)))
        return head + "\n\t\t" + ",\n\t\t".join(ops) + ";"


# -- tcgen05 --------------------------------------------------------------------------------


@irdl_op_definition
class Tcgen05AllocOp(PtxOp):
    name = "ptx.tcgen05_alloc"

    def render(self, n: Names) -> str:
        return (
            f"tcgen05.alloc.{cta_group(self)}.sync.aligned.shared::cta.b32 "
            f"{_addr(n(self.args[0]), self.prop('offset'))}, {self.prop('columns')};"
        )


@irdl_op_definition
class Tcgen05RelinquishOp(PtxOp):
    name = "ptx.tcgen05_relinquish_alloc_permit"

    def render(self, n: Names) -> str:
        return f"tcgen05.relinquish_alloc_permit.{cta_group(self)}.sync.aligned;"


@irdl_op_definition
class Tcgen05DeallocOp(PtxOp):
    name = "ptx.tcgen05_dealloc"

    def render(self, n: Names) -> str:
        return f"tcgen05.dealloc.{cta_group(self)}.sync.aligned.b32 {n(self.args[0])}, {self.prop('columns')};"


@irdl_op_definition
class Tcgen05MmaOp(PtxOp):
    """``tcgen05.mma.cta_group::1.kind::K [d], a, b, idesc, enable_input_d``.

    args = (d tmem address, a desc (or a tmem address), b desc, idesc[, enable-input-d
    predicate]).
    """

    name = "ptx.tcgen05_mma"

    def render(self, n: Names) -> str:
        d, a, b, idesc = (n(x) for x in self.args[:4])
        a_text = f"[{a}]" if self.attributes.get("a_tmem") else a
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

    def render(self, n: Names) -> str:
        multicast = len(self.args) == 2
        mask = f", {n(self.args[1])}" if multicast else ""
        return (
            f"tcgen05.commit.{cta_group(self)}.mbarrier::arrive::one.shared::cluster"
            f"{'.multicast::cluster' if multicast else ''}.b64 "
            f"{_addr(n(self.args[0]), self.prop('offset'))}{mask};"
        )


@irdl_op_definition
class Tcgen05FenceOp(PtxOp):
    name = "ptx.tcgen05_fence"

    def render(self, n: Names) -> str:
        return f"tcgen05.fence::{self.prop('kind')};"


@irdl_op_definition
class Tcgen05LdOp(PtxOp):
    """``tcgen05.ld.sync.aligned.32x32b.xN.b32``: args = (regs, tmem address)."""

    name = "ptx.tcgen05_ld"

    def render(self, n: Names) -> str:
        lo, num = self.prop("regs"), self.prop("num")
        dsts = regs_list(n, self.args[0])[lo : lo + num]
        return (
            f"tcgen05.ld.sync.aligned.32x32b.x{num}.b32 {brace(dsts)}, "
            f"[{n(self.args[1])}+{self.prop('offset')}];"
            if self.prop("offset")
            else f"tcgen05.ld.sync.aligned.32x32b.x{num}.b32 {brace(dsts)}, [{n(self.args[1])}];"
        )


@irdl_op_definition
class Tcgen05StOp(PtxOp):
    """``tcgen05.st.sync.aligned.32x32b.xN.b32 [taddr], {regs}``: args = (tmem address, regs);
    each thread writes its lane, one 32-bit column per register."""

    name = "ptx.tcgen05_st"

    def render(self, n: Names) -> str:
        lo, num = self.prop("regs"), self.prop("num")
        srcs = regs_list(n, self.args[1])[lo : lo + num]
        offset = self.prop("offset")
        addr = f"[{n(self.args[0])}+{offset}]" if offset else f"[{n(self.args[0])}]"
        return f"tcgen05.st.sync.aligned.32x32b.x{num}.b32 {addr}, {brace(srcs)};"


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


@irdl_op_definition
class ElectSyncOp(PtxOp):
    name = "ptx.elect_sync"

    def render(self, n: Names) -> str:
        return f"elect.sync _|{n(self.res[0])}, 0xffffffff;"


# -- wmma -------------------------------------------------------------------------------------


@irdl_op_definition
class WmmaLoadOp(PtxOp):
    """``wmma.load.{a,b,c}.sync.aligned.{layout}.{shape}.global.{type}``: args = (regs, address)."""

    name = "ptx.wmma_load"

    def render(self, n: Names) -> str:
        regs = brace(regs_list(n, self.args[0]))
        return (
            f"wmma.load.{self.prop('role')}.sync.aligned.{self.prop('layout')}.{self.prop('shape')}"
            f".global.{self.prop('type')} {regs}, [{n(self.args[1])}], {self.prop('stride')};"
        )


@irdl_op_definition
class WmmaMmaOp(PtxOp):
    """``wmma.mma.sync.aligned``: args = (d, a, b, c) register runs."""

    name = "ptx.wmma_mma"

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

    def render(self, n: Names) -> str:
        regs = brace(regs_list(n, self.args[1]))
        return (
            f"wmma.store.d.sync.aligned.{self.prop('layout')}.{self.prop('shape')}.global."
            f"{self.prop('type')} [{n(self.args[0])}], {regs}, {self.prop('stride')};"
        )


@irdl_op_definition
class DeclRegsOp(PtxOp):
    """Declares a register run (no PTX of its own beyond the .reg declaration)."""

    name = "ptx.regs"

    def render(self, n: Names) -> str:
        return ""


PTX = Dialect(
    "ptx",
    [
        KernelOp, TableOp, LdParamOp, ParamAddrOp, SregOp, MovImmOp, SymAddrOp, FillOp, PackOp,
        AddOp, SubOp, MulLoOp, MulWideOp, ShlOp, ShrOp, AndOp, OrOp, CvtOp, CvtaToGlobalOp,
        XorOp, DivOp, RemOp, MinOp, MovOp, SelpOp, AssignOp, RegOfOp, UnpackOp, SetMaxNRegOp, MbarrierArriveOp,
        SetpOp, LabelOp, BraOp, BarSyncOp, FenceProxyAsyncOp, RetOp, LdOp, StOp, LdRegsOp,
        CvtToRegOp, CvtFromRegOp,
        MbarrierInitOp, FenceMbarrierInitOp, MbarrierArriveExpectTxOp, MbarrierTryWaitParityOp,
        MbarrierInvalOp, PrefetchTensormapOp, CpAsyncBulkTensorOp, CpAsyncBulkTensorStoreOp,
        MapaOp, MbarrierArriveClusterOp, ClusterBarrierOp,
        CpAsyncBulkCommitGroupOp, CpAsyncBulkWaitGroupOp, StmatrixOp, WgmmaFenceOp,
        WgmmaCommitGroupOp, WgmmaWaitGroupOp, WgmmaMmaAsyncOp, Tcgen05AllocOp,
        Tcgen05RelinquishOp, Tcgen05DeallocOp, Tcgen05MmaOp, Tcgen05CommitOp, Tcgen05FenceOp,
        Tcgen05LdOp, Tcgen05StOp, Tcgen05WaitLdOp, Tcgen05WaitStOp, ElectSyncOp, WmmaLoadOp, WmmaMmaOp, WmmaStoreOp, DeclRegsOp,
    ],
    [RegsType],
)

__all__ = ["PTX", "RegsType", "build", "i32"]
