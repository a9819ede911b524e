"""Loads and stores of registers and register runs (``ld``/``st`` in the global and shared
spaces, scalar or vector), the conversions into and out of one register of a run, and
``stmatrix``."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def

from lower_tc.dialects.ptx.base import Names, PtxOp, addr, brace, regs_list
from lower_tc.dialects.ptx.modifiers import FLAG, INT, PTX_TYPE, TEXT, ints, one_of

#: The flag and counter words' widths (u32 unless given).
WIDTHS = one_of("u32", "u64")
#: The state spaces a load or store names.
SPACES = one_of("global", "shared", "shared::cta", "shared::cluster", "local", "const", "param")
#: ``.v2``, ``.v4``, ``.v8``; 1 is a scalar access.
VECTOR = ints(1, 2, 4, 8)


def _width(op: PtxOp) -> str:
    """A flag or counter op's word width: its `width`, u32 where none is given."""
    return str(op.prop("width")) if op.has("width") else "u32"


def _vec(vec: object) -> str:
    return f".v{vec}" if vec != 1 else ""


@irdl_op_definition
class LdOp(PtxOp):
    """``ld.{space}{.vN}.{type}``: args = (address,), results = the loaded registers."""

    name = "ptx.ld"
    space = prop_def(SPACES)
    type = prop_def(PTX_TYPE)
    vec = prop_def(VECTOR)
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        vec = self.prop("vec")
        dsts = [r for v in self.res for r in regs_list(n, v)]
        dst = brace(dsts) if vec != 1 else dsts[0]
        return (
            f"ld.{self.prop('space')}{_vec(vec)}.{self.prop('type')} {dst}, "
            f"{addr(n(self.args[0]), self.prop('offset'))};"
        )


@irdl_op_definition
class StOp(PtxOp):
    """``st.{space}{.vN}.{type}``: args = (address, values...); with `regs`, the values
    are `vec` registers of a run from that index."""

    name = "ptx.st"
    space = prop_def(SPACES)
    type = prop_def(PTX_TYPE)
    vec = prop_def(VECTOR)
    offset = prop_def(INT)
    regs = opt_prop_def(INT)

    def render(self, n: Names) -> str:
        vec = self.prop("vec")
        srcs = [r for v in self.args[1:] for r in regs_list(n, v)]
        if self.has("regs"):  # a slice of a register run
            lo = self.prop("regs")
            srcs = srcs[lo : lo + vec]  # type: ignore[operator]
        src = brace(srcs) if vec != 1 else srcs[0]
        return (
            f"st.{self.prop('space')}{_vec(vec)}.{self.prop('type')} "
            f"{addr(n(self.args[0]), self.prop('offset'))}, {src};"
        )


@irdl_op_definition
class AtomAddOp(PtxOp):
    """``atom.acq_rel.gpu.global.add.u32 %r, [addr], imm``: adds `imm` (or, with args =
    (address, value), the register `value`) to the u32 at the global address and gives the
    value before, ordered as a release of this thread's earlier accesses and an acquire of
    the later ones at GPU scope: args = (address,)."""

    name = "ptx.atom_add"
    imm = opt_prop_def(INT)
    width = opt_prop_def(WIDTHS)  # "u64": a 64-bit word (the result a 64-bit register)

    def render(self, n: Names) -> str:
        value = n(self.args[1]) if len(self.args) > 1 else self.prop("imm")
        return f"atom.acq_rel.gpu.global.add.{_width(self)} {n(self.res[0])}, [{n(self.args[0])}], {value};"


@irdl_op_definition
class AtomCasOp(PtxOp):
    """``atom.acq_rel.gpu.global.cas.b64 %old, [addr], %expected, %new``: writes `new` where
    the word is `expected` and gives the word before either way (a change that must not
    cross another CTA's): args = (address, expected, new)."""

    name = "ptx.atom_cas"

    def render(self, n: Names) -> str:
        address, expected, new = self.args
        return f"atom.acq_rel.gpu.global.cas.b64 {n(self.res[0])}, [{n(address)}], {n(expected)}, {n(new)};"


@irdl_op_definition
class StRelaxedOp(PtxOp):
    """``st.relaxed.gpu.global.u32 [addr], %v``: a u32 that another CTA polls with
    LdAcquireOp (a flag with no data behind it): args = (address, value)."""

    name = "ptx.st_relaxed"
    width = opt_prop_def(WIDTHS)

    def render(self, n: Names) -> str:
        return f"st.relaxed.gpu.global.{_width(self)} [{n(self.args[0])}], {n(self.args[1])};"


@irdl_op_definition
class LdAcquireOp(PtxOp):
    """``ld.acquire.gpu.global.u32 %r, [addr]``: a u32 that another CTA's release wrote,
    with every access before that release visible to this thread's later ones (a spin on
    a flag): args = (address,)."""

    name = "ptx.ld_acquire"
    width = opt_prop_def(WIDTHS)

    def render(self, n: Names) -> str:
        return f"ld.acquire.gpu.global.{_width(self)} {n(self.res[0])}, [{n(self.args[0])}];"


@irdl_op_definition
class LdRegsOp(PtxOp):
    """Loads into a slice of a register run: ``ld.global.v2.f32 {%f4, %f5}, [%rd+8]``
    (args = (address, run); `regs` = the slice's first index)."""

    name = "ptx.ld_regs"
    space = prop_def(SPACES)
    type = prop_def(PTX_TYPE)
    vec = prop_def(VECTOR)
    regs = prop_def(INT)
    offset = prop_def(INT)

    def render(self, n: Names) -> str:
        vec, lo = self.prop("vec"), self.prop("regs")
        dsts = regs_list(n, self.args[1])[lo : lo + vec]  # type: ignore[operator]
        dst = brace(dsts) if vec != 1 else dsts[0]
        return (
            f"ld.{self.prop('space')}{_vec(vec)}.{self.prop('type')} {dst}, "
            f"{addr(n(self.args[0]), self.prop('offset'))};"
        )


@irdl_op_definition
class CvtToRegOp(PtxOp):
    """``cvt.{type} %r, %h`` into one register of a run: args = (source, run); `regs` = index."""

    name = "ptx.cvt_to_reg"
    type = prop_def(TEXT)
    regs = prop_def(INT)

    def render(self, n: Names) -> str:
        dst = regs_list(n, self.args[1])[self.prop("regs")]  # type: ignore[index]
        return f"cvt.{self.prop('type')} {dst}, {n(self.args[0])};"


@irdl_op_definition
class CvtFromRegOp(PtxOp):
    """``cvt.{type} %h, %r`` from one register of a run: args = (run,); `regs` = index."""

    name = "ptx.cvt_from_reg"
    type = prop_def(TEXT)
    regs = prop_def(INT)

    def render(self, n: Names) -> str:
        src = regs_list(n, self.args[0])[self.prop("regs")]  # type: ignore[index]
        return f"cvt.{self.prop('type')} {n(self.res[0])}, {src};"


@irdl_op_definition
class StmatrixOp(PtxOp):
    """``stmatrix.sync.aligned.m8n8.x4{.trans}.shared.b16``: a warp stores four 8x8 matrices
    of 16-bit elements; args = (this thread's row address, four b32 registers), each register
    two neighbouring elements of one matrix's row (the wgmma accumulator's pairs). With
    `trans` (1) each matrix is stored transposed: the addressed rows are its columns."""

    name = "ptx.stmatrix"
    offset = prop_def(INT)
    trans = opt_prop_def(FLAG)

    def render(self, n: Names) -> str:
        address = addr(n(self.args[0]), self.prop("offset"))
        trans = ".trans" if self.has("trans") and self.prop("trans") else ""
        return f"stmatrix.sync.aligned.m8n8.x4{trans}.shared.b16 {address}, {brace([n(a) for a in self.args[1:]])};"
