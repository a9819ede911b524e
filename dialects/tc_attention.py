"""The op level of attention: `tc.attention`, O = softmax(Q K^T scale, masked) V over whole
global tensors as one kernel (docs/attention.md, "The op level"). `tc-expand-attention`
turns it into the loop level (the kernel's scf.for over blocks of keys)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from xdsl.dialects.builtin import Float32Type, FloatAttr, IntAttr, MemRefType, NoneAttr, StridedLayoutAttr, UnitAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_operand_def, opt_prop_def
from xdsl.irdl.operations import AttrSizedOperandSegments
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.ir import SSAValue

from lower_tc.dialects.tc_kernel import kernel_target
from lower_tc.dialects.tc_globals import matrix
from lower_tc.dialects.tc_rows_ops import MASK_LIMIT
from lower_tc.dialects.tc_types import check_global_memory, dtype_name, element_bits
from lower_tc.layout.strided import distinct_elements
from lower_tc.layout import Arch
from lower_tc.layout.attention import FP8_OUT_TYPES, FP8_TYPES, HEAD_DIMS, AttentionProblem
from lower_tc.layout.limits import MAX_GRID, index_problem, stride_bound_problem

#: The longest sequence (queries or keys): positions, the loop's bounds and the mask's
#: immediates (tc.acc_mask's) are 32-bit, with room for a block past the end.
MAX_SEQUENCE = MASK_LIMIT

def sequence_problem(what: str, length: int) -> str | None:
    """Why a sequence of `length` (queries or keys of `what`) is too long, or None."""
    if length <= MAX_SEQUENCE:
        return None
    return (f"{what}'s sequence is {length}: at most {MAX_SEQUENCE} (2^30; the kernel's positions and its mask's are "
            "32-bit numbers, with room for a block past the end)")


def grid_problem(what: str, heads: int, batch: int) -> str | None:
    """Why the kernel's grid cannot take `what`'s heads (its y) or batch (its z), or None."""
    for name, one, count, axis in (("heads", "head", heads, 1), ("batch", "batch", batch, 2)):
        if count > MAX_GRID[axis]:
            return (f"{what}'s {name} is {count}: the kernel runs a CTA per {one} along the grid's {'xyz'[axis]}, "
                    f"which CUDA launches up to {MAX_GRID[axis]}")
    return None


#: Q's, K's and V's types (one for the three); O is Q's type, or one of FP8_OUT_TYPES for 8-bit ones.
ATTENTION_TYPES = ("bf16", "f16", *FP8_TYPES)
#: The tensors an 8-bit attention may take descaling factors for (`q_descale` ...).
DESCALED = ("q", "k", "v")


def _shape(t: MemRefType, what: str, keys_contiguous: bool = False) -> tuple[int, int, int, int]:
    """(batch, heads, sequence, head dim) of a (batch, heads, sequence, head dim) or (heads,
    sequence, head dim) memref (batch 1) whose head dim is contiguous, in any other stride
    order (BHSD, BSHD: strided<[S*H*D, D, H*D, 1]>); with `keys_contiguous`, one whose
    sequence is contiguous may do instead (fp8's V: V^T in memory, what fp8 wgmma's
    K-major B reads as it is; with the head dim contiguous the kernel transposes V's
    tiles in shared memory)."""
    check_global_memory(t, what)
    shape = t.get_shape()
    if len(shape) not in (3, 4):
        raise VerifyException(f"{what} is (batch, heads, sequence, head dim) or (heads, sequence, head dim), not {len(shape)}-d")
    if any(s < 0 for s in shape):
        raise VerifyException(f"{what} needs a static shape (sizes known at launch are not built for attention)")
    names = ("batch", "heads", "sequence", "head dim")[-len(shape):]
    for size, name in zip(shape, names):
        if size == 0:
            raise VerifyException(f"{what}'s {name} is 0: an attention's tensors have at least one of each")
        why = index_problem(size, f"{what}'s {name}")
        if why:
            raise VerifyException(why)
    why = sequence_problem(what, shape[-2])
    if why:
        raise VerifyException(why)
    layout = t.layout
    if not isinstance(layout, NoneAttr | StridedLayoutAttr) or (
            isinstance(layout, StridedLayoutAttr) and not (isinstance(layout.offset, IntAttr) and layout.offset.data == 0)):
        raise VerifyException(f"{what} has the default layout or a strided one of offset 0, not {layout}")
    strides = t.get_strides()
    unit = -2 if keys_contiguous and v_keys_contiguous(t) else -1
    if strides is None or any(s is None for s in strides) or strides[unit] != 1:
        shown = list(strides) if strides else strides
        if keys_contiguous:
            raise VerifyException(f"an 8-bit {what} has its head dim contiguous (transposed in shared memory) or its keys "
                                  f"(V^T in memory, strides [..., 1, S_k]), not strides {shown}")
        raise VerifyException(f"{what}'s head dim is contiguous (its stride 1), not strides {shown}")
    row, extent = (strides[-2], shape[-1]) if unit == -1 else (strides[-1], shape[-2])
    if row < extent:  # TMA reads rows of `extent` elements `row` apart (a size of 1 too)
        raise VerifyException(f"{what}'s row stride {row} is less than its rows' length {extent}: TMA reads whole rows "
                              f"(strides {list(strides)})")
    bits = element_bits(t.element_type)
    for size, stride, name in [x for i, x in enumerate(zip(shape, strides, names)) if i != len(shape) + unit]:
        if size > 1 and (stride <= 0 or stride * bits % 128):
            raise VerifyException(f"{what}'s {name} stride {stride} is not a positive multiple of 16 bytes (TMA's rule): "
                                  f"strides {list(strides)}")
        # Q, K, V: TMA's bound; O, stored by threads: no GPU holds 2^40 bytes
        if size > 1 and (problem := stride_bound_problem(stride * bits // 8, f"{what}'s {name} stride {stride}", tma=what != "O")):
            raise VerifyException(problem)
    return (1, *shape) if len(shape) == 3 else tuple(shape)  # type: ignore[return-value]


def v_keys_contiguous(t: MemRefType) -> bool:
    """Whether V's sequence is contiguous (V^T in memory: fp8 wgmma reads its tiles as
    they are) rather than its head dim."""
    strides = t.get_strides()
    return bool(strides) and len(strides) >= 2 and strides[-2] == 1 and strides[-1] != 1


@irdl_op_definition
class AttentionOp(IRDLOperation):
    """``tc.attention %Q, %K, %V to %O [lse %L] {causal, scale = 0.125} : memref<HxSqxDxbf16>,
    memref<HkxSkxDxbf16>, memref<HkxSkxDxbf16>, memref<HxSqxDxbf16> [, memref<HxSqxf32>]``
    (sm_90a): every head's O = softmax(Q K^T scale) V, with Q's head h reading K/V's head
    h / (H / Hk) (grouped-query attention; Hk = 1: multi-query). The tensors are (heads,
    sequence, head dim) or (batch, heads, sequence, head dim), the head dim contiguous and
    the rest in any stride order (BHSD dense, or BSHD: `strided<[S*H*D, D, H*D, 1]>`). `causal`: query i sees
    keys j <= i + Sk - Sq (the last query aligned with the last key, FlashAttention's
    convention); a query that sees no key gets O = 0 and a log-sum-exp of -inf. `scale`
    defaults to 1 / sqrt(D). `lse`: each row's log-sum-exp (natural log) into a dense
    f32 (heads, Sq) or (batch, heads, Sq) memref. Head dims 64, 128 and 256; bf16 or f16; any lengths.
    8-bit (e4m3, e5m2) Q, K and V with a bf16 or f16 O: V with its head dim contiguous
    (its tiles transposed in shared memory: fp8 wgmma reads B only K-major) or its keys
    contiguous (V^T in memory, read as it is). An 8-bit attention's descaling factors
    (``q_descale %QD k_descale %KD v_descale %VD``, any of them, after `lse`, their types
    last): (batch, heads of K) f32 matrices read at launch (FlashAttention-3's), the scores
    times q_descale x k_descale and O times v_descale for each batch and K head."""

    name = "tc.attention"
    q = operand_def(MemRefType)
    k = operand_def(MemRefType)
    v = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    lse = opt_operand_def(MemRefType)
    q_descale = opt_operand_def(MemRefType)
    k_descale = opt_operand_def(MemRefType)
    v_descale = opt_operand_def(MemRefType)
    causal = opt_prop_def(UnitAttr)
    scale = opt_prop_def(FloatAttr[Float32Type])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, q: SSAValue, k: SSAValue, v: SSAValue, dst: SSAValue, lse: SSAValue | None = None,
                 causal: bool = False, scale: float | None = None, descale: Mapping[str, SSAValue] | None = None):
        props: dict = {}
        if causal:
            props["causal"] = UnitAttr()
        if scale is not None:
            props["scale"] = FloatAttr(scale, Float32Type())
        factors = [[descale[w]] if descale and w in descale else [] for w in DESCALED]
        super().__init__(operands=[q, k, v, dst, [lse] if lse is not None else [], *factors], properties=props)

    @property
    def descale(self) -> dict[str, SSAValue]:
        """The descaling factors given: "q", "k", "v" -> the (batch, K heads) f32 memref."""
        return {w: x for w, x in zip(DESCALED, (self.q_descale, self.k_descale, self.v_descale)) if x is not None}

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
        factors = {}
        for w in DESCALED:
            if parser.parse_optional_keyword(f"{w}_descale"):
                factors[w] = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        names = ["Q", "K", "V", "O"] + (["the log-sum-exp"] if lse else []) + [f"{w}_descale" for w in factors]
        if len(types) != len(names):
            parser.raise_error(f"tc.attention lists {len(names)} types ({', '.join(names)}), not {len(types)}")
        unresolved = [q, k, v, dst] + ([lse] if lse else []) + list(factors.values())
        operands = [parser.resolve_operand(x, t) for x, t in zip(unresolved, types)]
        descale = dict(zip(factors, operands[len(operands) - len(factors):]))
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
        return cls(*operands[:4], operands[4] if lse else None, causal=causal, scale=value, descale=descale)

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
        for w, x in self.descale.items():
            printer.print_string(f" {w}_descale ")
            printer.print_operand(x)
        parts = (["causal"] if self.causal is not None else []) + ([f"scale = {self.scale.value.data!r}"] if self.scale is not None else [])
        if parts:
            printer.print_string(" {" + ", ".join(parts) + "}")
        printer.print_string(" : ")
        types = [self.q.type, self.k.type, self.v.type, self.dst.type] + ([self.lse.type] if self.lse is not None else [])
        types += [x.type for x in self.descale.values()]
        for i, t in enumerate(types):
            if i:
                printer.print_string(", ")
            printer.print_attribute(t)

    @property
    def problem(self) -> AttentionProblem:
        """The problem's sizes and options (the verifier has checked them)."""
        b, h, sq, d = _shape(self.q.type, "Q")  # type: ignore[arg-type]
        _, hk, sk, _ = _shape(self.k.type, "K")  # type: ignore[arg-type]
        scale = self.scale.value.data if self.scale is not None else 1.0 / math.sqrt(d)
        return AttentionProblem(h, hk, sq, sk, d, dtype_name(self.q.type.element_type), self.causal is not None,  # type: ignore[attr-defined]
                                scale, self.lse is not None, b)

    def verify_(self) -> None:
        arch = kernel_target(self)
        if arch is not None and arch not in (Arch.SM90A, Arch.SM100A):
            raise VerifyException(f"tc.attention is built for sm_90a (wgmma) and sm_100a (tcgen05), not {arch.value}")
        types = {}
        for what, x in (("Q", self.q), ("K", self.k), ("V", self.v), ("O", self.dst)):
            t = x.type
            assert isinstance(t, MemRefType)
            types[what] = t
            dtype = dtype_name(t.element_type)
            if dtype not in ATTENTION_TYPES:
                raise VerifyException(f"{what} is bf16, f16, e4m3 or e5m2, not {dtype}")
        inputs = {dtype_name(types[w].element_type) for w in ("Q", "K", "V")}
        o_dtype = dtype_name(types["O"].element_type)
        fp8 = bool(inputs & set(FP8_TYPES))
        if len(inputs) != 1:
            raise VerifyException(f"Q, K and V have one element type, not {', '.join(sorted(inputs))}")
        if fp8 and arch is Arch.SM100A:
            raise VerifyException("8-bit attention is built for sm_90a (wgmma); on sm_100a (tcgen05) Q, K and V are bf16 or f16")
        if fp8 and o_dtype not in FP8_OUT_TYPES:
            raise VerifyException(f"O of an 8-bit attention is bf16 or f16, not {o_dtype}")
        if not fp8 and o_dtype not in inputs:
            raise VerifyException(f"Q, K, V and O have one element type, not {', '.join(sorted(inputs | {o_dtype}))}")
        ranks = {len(t.get_shape()) for t in types.values()}
        if len(ranks) != 1:
            raise VerifyException("Q, K, V and O are all 4-d (batch, heads, sequence, head dim) or all 3-d (heads, sequence, head dim)")
        q, k, v, o = (_shape(types[w], w, keys_contiguous=fp8 and w == "V") for w in ("Q", "K", "V", "O"))
        shown = {w: list(types[w].get_shape()) for w in types}
        if k != v:
            raise VerifyException(f"V's shape {shown['V']} is not K's {shown['K']}")
        if o != q:
            raise VerifyException(f"O's shape {shown['O']} is not Q's {shown['Q']}")
        if k[0] != q[0]:
            raise VerifyException(f"K's batch {k[0]} is not Q's {q[0]}")
        if k[3] != q[3]:
            raise VerifyException(f"K's head dim {k[3]} is not Q's {q[3]}")
        if q[3] not in HEAD_DIMS:
            raise VerifyException(f"the head dim is {', '.join(map(str, HEAD_DIMS))}, not {q[3]}")
        if q[1] % k[1]:
            raise VerifyException(f"K/V's {k[1]} heads must divide Q's {q[1]} (grouped-query attention)")
        why = grid_problem("Q", q[1], q[0])
        if why:
            raise VerifyException(why)
        o_t = types["O"]
        if not distinct_elements(o_t.get_shape(), o_t.get_strides()):  # type: ignore[arg-type]
            raise VerifyException(f"O's strides {list(o_t.get_strides())} put two of its elements at one address")  # type: ignore[arg-type]
        if self.scale is not None:
            value = self.scale.value.data
            if not (math.isfinite(value) and value > 0):
                raise VerifyException(f"the softmax scale is a finite number above 0, not {value}")
        if self.lse is not None:
            t = self.lse.type
            assert isinstance(t, MemRefType)
            want = [q[0], q[1], q[2]] if len(q_shape := types["Q"].get_shape()) == 4 else [q[1], q[2]]
            if dtype_name(t.element_type) != "f32" or list(t.get_shape()) != want or not isinstance(t.layout, NoneAttr):
                names = "(batch, heads, sequence)" if len(q_shape) == 4 else "(heads, sequence)"
                raise VerifyException(f"the log-sum-exp is a dense f32 {names} = {'x'.join(map(str, want))}xf32, not {t}")
        for w, x in self.descale.items():
            if not fp8:
                raise VerifyException(f"{w}_descale is for 8-bit Q, K and V (descaling factors), not {', '.join(sorted(inputs))}")
            t = x.type
            assert isinstance(t, MemRefType)
            want = [q[0], k[1]]
            try:
                matrix(t, f"{w}_descale")
            except VerifyException as err:
                raise VerifyException(f"{err} (a (batch, heads of K) = {want[0]}x{want[1]}xf32 matrix)") from None
            if dtype_name(t.element_type) != "f32" or list(t.get_shape()) != want:
                raise VerifyException(f"{w}_descale is a (batch, heads of K) = {want[0]}x{want[1]}xf32 memref "
                                      f"(FlashAttention-3's; batch 1 for 3-d tensors), not {t}")


ATTENTION_OPS = [AttentionOp]

__all__ = ["ATTENTION_OPS", "ATTENTION_TYPES", "DESCALED", "FP8_OUT_TYPES", "AttentionOp"]
