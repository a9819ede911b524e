"""The op level of attention: `tc.attention`, O = softmax(Q K^T scale, masked) V over whole
global tensors as one kernel (docs/attention.md, "The op level"). `tc-expand-attention`
turns it into the loop level (the kernel's scf.for over blocks of keys)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import Float32Type, FloatAttr, MemRefType, UnitAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_operand_def, opt_prop_def
from xdsl.irdl.operations import AttrSizedOperandSegments
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.ir import SSAValue

from lower_tc.dialects.tc_kernel import kernel_target
from lower_tc.dialects.tc_types import check_global_memory, dtype_name, matrix_strides
from lower_tc.layout import Arch
from lower_tc.layout.attention import HEAD_DIMS, AttentionProblem

#: Q's, K's and V's types.
ATTENTION_TYPES = ("bf16", "f16")


def _shape(t: MemRefType, what: str) -> tuple[int, int, int]:
    """(heads, sequence, head dim) of a dense row-major 3-d memref."""
    check_global_memory(t, what)
    shape = t.get_shape()
    if len(shape) != 3:
        raise VerifyException(f"{what} is (heads, sequence, head dim), not {len(shape)}-d (one head: 1 x S x D)")
    if any(s < 0 for s in shape):
        raise VerifyException(f"{what} needs a static shape (sizes known at launch are not built for attention)")
    strides = [1]
    for s in reversed(shape[1:]):
        strides.insert(0, strides[0] * s)
    got = t.get_strides()
    if got is None or list(got) != strides:
        raise VerifyException(f"{what} must be dense and row-major (heads, sequence, head dim: BHSD with the batch "
                              f"and heads as one dimension), not strides {list(got) if got is not None else got}")
    return tuple(shape)  # type: ignore[return-value]


@irdl_op_definition
class AttentionOp(IRDLOperation):
    """``tc.attention %Q, %K, %V to %O [lse %L] {causal, scale = 0.125} : memref<HxSqxDxbf16>,
    memref<HkxSkxDxbf16>, memref<HkxSkxDxbf16>, memref<HxSqxDxbf16> [, memref<HxSqxf32>]``
    (sm_90a): every head's O = softmax(Q K^T scale) V, with Q's head h reading K/V's head
    h / (H / Hk) (grouped-query attention; Hk = 1: multi-query). `causal`: query i sees
    keys j <= i + Sk - Sq (the last query aligned with the last key, FlashAttention's
    convention); a query that sees no key gets O = 0 and a log-sum-exp of -inf. `scale`
    defaults to 1 / sqrt(D). `lse`: each row's log-sum-exp (natural log) into an f32
    (heads, Sq) matrix. Head dims 64, 128 and 256; bf16 or f16; any lengths."""

    name = "tc.attention"
    q = operand_def(MemRefType)
    k = operand_def(MemRefType)
    v = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    lse = opt_operand_def(MemRefType)
    causal = opt_prop_def(UnitAttr)
    scale = opt_prop_def(FloatAttr[Float32Type])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, q: SSAValue, k: SSAValue, v: SSAValue, dst: SSAValue, lse: SSAValue | None = None,
                 causal: bool = False, scale: float | None = None):
        props: dict = {}
        if causal:
            props["causal"] = UnitAttr()
        if scale is not None:
            props["scale"] = FloatAttr(scale, Float32Type())
        super().__init__(operands=[q, k, v, dst, [lse] if lse is not None else []], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> "AttentionOp":
        q = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        k = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        lse = parser.parse_unresolved_operand() if parser.parse_optional_keyword("lse") else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        want = 5 if lse is not None else 4
        if len(types) != want:
            parser.raise_error(f"tc.attention lists {want} types (Q, K, V, O{', the log-sum-exp' if lse else ''}), not {len(types)}")
        operands = [parser.resolve_operand(x, t) for x, t in zip([q, k, v, dst] + ([lse] if lse else []), types)]
        causal = "causal" in attrs
        scale = attrs.get("scale")
        for key in attrs:
            if key not in ("causal", "scale"):
                parser.raise_error(f"tc.attention takes causal and scale, not {key}")
        if causal and not isinstance(attrs["causal"], UnitAttr):
            parser.raise_error("tc.attention's causal is a flag: {causal}")
        if scale is not None and not isinstance(scale, FloatAttr):
            parser.raise_error(f"tc.attention's scale is a number, not {scale}")
        value = float(scale.value.data) if scale is not None else None  # type: ignore[union-attr]
        return cls(*operands[:4], operands[4] if lse else None, causal=causal, scale=value)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.q)
        for x in (self.k, self.v):
            printer.print_string(", ")
            printer.print_operand(x)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        if self.lse is not None:
            printer.print_string(" lse ")
            printer.print_operand(self.lse)
        parts = (["causal"] if self.causal is not None else []) + ([f"scale = {self.scale.value.data!r}"] if self.scale is not None else [])
        if parts:
            printer.print_string(" {" + ", ".join(parts) + "}")
        printer.print_string(" : ")
        types = [self.q.type, self.k.type, self.v.type, self.dst.type] + ([self.lse.type] if self.lse is not None else [])
        for i, t in enumerate(types):
            if i:
                printer.print_string(", ")
            printer.print_attribute(t)

    @property
    def problem(self) -> AttentionProblem:
        """The problem's sizes and options (the verifier has checked them)."""
        h, sq, d = _shape(self.q.type, "Q")  # type: ignore[arg-type]
        hk, sk, _ = _shape(self.k.type, "K")  # type: ignore[arg-type]
        scale = self.scale.value.data if self.scale is not None else 1.0 / math.sqrt(d)
        return AttentionProblem(h, hk, sq, sk, d, dtype_name(self.q.type.element_type), self.causal is not None,  # type: ignore[attr-defined]
                                scale, self.lse is not None)

    def verify_(self) -> None:
        arch = kernel_target(self)
        if arch is not None and arch is not Arch.SM90A:
            raise VerifyException(f"tc.attention is built for sm_90a (wgmma), not {arch.value}")
        types = {}
        for what, x in (("Q", self.q), ("K", self.k), ("V", self.v), ("O", self.dst)):
            t = x.type
            assert isinstance(t, MemRefType)
            types[what] = t
            dtype = dtype_name(t.element_type)
            if dtype not in ATTENTION_TYPES:
                raise VerifyException(f"{what} is bf16 or f16, not {dtype}")
        dtypes = {dtype_name(t.element_type) for t in types.values()}
        if len(dtypes) != 1:
            raise VerifyException(f"Q, K, V and O have one element type, not {', '.join(sorted(dtypes))}")
        q, k, v, o = (_shape(types[w], w) for w in ("Q", "K", "V", "O"))
        if k != v:
            raise VerifyException(f"V's shape {list(v)} is not K's {list(k)}")
        if o != q:
            raise VerifyException(f"O's shape {list(o)} is not Q's {list(q)}")
        if k[2] != q[2]:
            raise VerifyException(f"K's head dim {k[2]} is not Q's {q[2]}")
        if q[2] not in HEAD_DIMS:
            raise VerifyException(f"the head dim is {', '.join(map(str, HEAD_DIMS))}, not {q[2]}")
        if q[0] % k[0]:
            raise VerifyException(f"K/V's {k[0]} heads must divide Q's {q[0]} (grouped-query attention)")
        if self.scale is not None:
            value = self.scale.value.data
            if not (math.isfinite(value) and value > 0):
                raise VerifyException(f"the softmax scale is a finite number above 0, not {value}")
        if self.lse is not None:
            t = self.lse.type
            assert isinstance(t, MemRefType)
            if dtype_name(t.element_type) != "f32" or list(t.get_shape()) != [q[0], q[1]]:
                raise VerifyException(f"the log-sum-exp is f32 (heads, sequence) = {q[0]}x{q[1]}xf32, not {t}")
            if matrix_strides(t, "the log-sum-exp")[1] != 1:
                raise VerifyException("the log-sum-exp is dense along the sequence")


ATTENTION_OPS = [AttentionOp]

__all__ = ["ATTENTION_OPS", "ATTENTION_TYPES", "AttentionOp"]
