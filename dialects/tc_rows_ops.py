"""The online softmax of attention on wgmma accumulators (sm_90a: single-tile kernels and
attention loops) and on tcgen05 accumulators in tensor memory (sm_100a: single-tile
kernels, 128 rows, one a thread): per-row running statistics (`!tc.rows<64xf32>`, on
sm_100a `!tc.rows<128xf32>`) and the ops that update them block of keys by block
(docs/attention.md, "The online softmax", "tcgen05").

For a block of scores S (an accumulator) the running maximum m and sum l (both in the
log2 units of scale x S: m is a maximum of s c with c = scale x log2 e) go

    %m1 = tc.acc_row_max %s, %m0 scale c        m1 = max(m0, max_j s_ij c)
    %p  = tc.acc_exp %s, %m1 scale c            p_ij = exp2(s_ij c - m1_i)
    %l1 = tc.acc_row_sum %p, %l0, %m0, %m1      l1 = l0 exp2(m0 - m1) + sum_j p_ij
    %o1 = tc.acc_rescale %o0, %m0, %m1          o1 = o0 exp2(m0 - m1)
    ... %o2 = tc.wgmma (tc.acc_to_a %p), %v, %o1
    %o  = tc.acc_row_div %o2, %l                o = o2 / l

with m starting at -inf (`tc.rows_fill -inf`) and l at 0. A row that has seen only -inf
scores (every key masked) keeps m = -inf, read as 0 by the exponentials: its p are 0 (not
exp2(-inf + inf) = NaN), its carry factor exp2(-inf - 0) is 0 on an O and an l that are 0
already, and its final O is 0 where l is 0 (docs/attention.md defines that row's O as 0).

A factor known only at launch (an f32 value: fp8 attention's descaling factors, read by
`memref.load` from a kernel argument) multiplies the scale (`scale c times %f`: the scores
are s c f) and O's division (`tc.acc_row_div %o, %l times %f`: o f / l). A scores' factor
below 0 or NaN would turn the row maximum into a minimum, so the kernel makes it NaN (every
O NaN) rather than a wrong softmax.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import I64, Float32Type, FloatAttr, IndexType, IntegerAttr, MemRefType, NoneAttr, i64
from typing import ClassVar

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments, IRDLOperation, ParsePropInAttrDict, VarConstraint, base, irdl_op_definition, operand_def,
    opt_operand_def, opt_prop_def, prop_def, result_def, var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_kernel import _check_target, in_attention_loop, kernel_target
from lower_tc.dialects.tc_mma_ops import TMEM_TILE_ROWS, check_single_tile_f32, check_softmax_scale, check_tmem_tile_f32
from lower_tc.dialects.tc_types import AccType, RowsType, _memref_shape, dtype_name, matrix_strides
from lower_tc.layout.targets import Arch

#: The largest finite f32.
F32_MAX = 3.4028234663852886e38


def check_rows_op(op: IRDLOperation, *accs: Attribute, rows: tuple[Attribute, ...] = ()) -> None:
    """The rules of this module's ops: on sm_100a those of tc.acc_softmax there (a
    single-tile kernel, 128-row f32 accumulators in tensor memory) with rows of 128;
    elsewhere sm_90a's (`check_single_tile_f32`)."""
    if kernel_target(op) is not Arch.SM100A:
        check_single_tile_f32(op, *accs, rows=rows)
        return
    check_tmem_tile_f32(op, *accs)
    for r in rows:
        if r.m != TMEM_TILE_ROWS:  # type: ignore[attr-defined]
            raise VerifyException(f"{op.name} on sm_100a: a !tc.rows has one value per row of a tcgen05 accumulator, "
                                  f"{TMEM_TILE_ROWS} rows, not {r.m}")  # type: ignore[attr-defined]


def check_launch_factor(op: IRDLOperation, factor: SSAValue | None) -> None:
    """A factor known at launch (`times`) is read before an attention loop's key loop
    (memref.load of a kernel argument): only such kernels take one."""
    if factor is not None and not in_attention_loop(op):
        raise VerifyException(f"{op.name} takes a factor known at launch (times) in an attention loop kernel only "
                              "(read by memref.load before its key loop)")


def check_in_place(op: IRDLOperation, value: SSAValue) -> None:
    """On sm_100a the op writes its result over `value` in tensor memory, so nothing may
    read `value` after it."""
    if kernel_target(op) is not Arch.SM100A:
        return
    for use in value.uses:
        other = use.operation
        if other is not op and (other.parent_block() is not op.parent_block() or not other.is_before_in_block(op)):
            raise VerifyException(f"{op.name} on sm_100a writes its result over its accumulator in tensor memory, "
                                  f"so the accumulator may not be used after it (by {other.name})")


@irdl_op_definition
class RowsFillOp(IRDLOperation):
    """``%m = tc.rows_fill -inf : !tc.rows<64xf32>`` (or ``0.0``): every row's value, the
    running maximum's start (-inf) or the running sum's (0)."""

    name = "tc.rows_fill"
    value = prop_def(FloatAttr[Float32Type])
    result = result_def(RowsType)

    def __init__(self, value: float, result_type: RowsType | None = None):
        super().__init__(result_types=[result_type or RowsType()], properties={"value": FloatAttr(value, Float32Type())})

    @classmethod
    def parse(cls, parser: Parser) -> "RowsFillOp":
        start = parser.pos
        if parser.parse_optional_punctuation("-") is not None:
            value = -math.inf if parser.parse_optional_keyword("inf") is not None else -float(parser.parse_number())
        else:
            value = float(parser.parse_number())
        if math.isfinite(value) and abs(value) > F32_MAX:
            parser.raise_error(f"tc.rows_fill fills with -inf or a finite f32, not {value:g} (beyond f32's largest)", start, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        if not isinstance(result_type, RowsType):
            parser.raise_error(f"tc.rows_fill makes a !tc.rows<64xf32>, not {result_type}")
        op = cls(value, result_type)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        value = self.value.value.data
        printer.print_string(" -inf" if value == -math.inf else f" {value!r}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        value = self.value.value.data
        if math.isnan(value) or value == math.inf:
            raise VerifyException(f"tc.rows_fill fills with -inf or a finite number, not {value}")
        check_rows_op(self, rows=(self.result.type,))


@irdl_op_definition
class AccRowMaxOp(IRDLOperation):
    """``%m1 = tc.acc_row_max %s, %m0 scale 0.125 [times %f] : !tc.acc<64x64xf32>,
    !tc.rows<64xf32>``: max(m0, each row's largest s x scale [x f] x log2 e), reduced
    across the row's quad (f: an f32 known at launch, module docstring)."""

    name = "tc.acc_row_max"
    ROWS: ClassVar = VarConstraint("ROWS", base(RowsType))
    acc = operand_def(AccType)
    rows = operand_def(ROWS)
    factor = opt_operand_def(Float32Type())
    result = result_def(ROWS)
    scale = prop_def(FloatAttr[Float32Type])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "$acc `,` $rows `scale` $scale (`times` $factor^)? attr-dict `:` type($acc) `,` type($rows)"

    def __init__(self, acc: SSAValue, rows: SSAValue, scale: float, factor: SSAValue | None = None):
        super().__init__(operands=[acc, rows, [factor] if factor is not None else []], result_types=[rows.type],
                         properties={"scale": FloatAttr(scale, Float32Type())})

    def verify_(self) -> None:
        check_rows_op(self, self.acc.type, rows=(self.rows.type,))
        check_softmax_scale(self.scale)
        check_launch_factor(self, self.factor)


@irdl_op_definition
class AccExpOp(IRDLOperation):
    """``%p = tc.acc_exp %s, %m scale 0.125 [times %f] : !tc.acc<64x64xf32>,
    !tc.rows<64xf32>``: each element's exp2(s x scale [x f] x log2 e - m) of its row
    (ex2.approx); 0 in a row whose m is -inf (every score so far masked)."""

    name = "tc.acc_exp"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    acc = operand_def(ACC)
    rows = operand_def(RowsType)
    factor = opt_operand_def(Float32Type())
    result = result_def(ACC)
    scale = prop_def(FloatAttr[Float32Type])
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "$acc `,` $rows `scale` $scale (`times` $factor^)? attr-dict `:` type($acc) `,` type($rows)"

    def __init__(self, acc: SSAValue, rows: SSAValue, scale: float, factor: SSAValue | None = None):
        super().__init__(operands=[acc, rows, [factor] if factor is not None else []], result_types=[acc.type],
                         properties={"scale": FloatAttr(scale, Float32Type())})

    def verify_(self) -> None:
        check_rows_op(self, self.acc.type, rows=(self.rows.type,))
        check_softmax_scale(self.scale)
        check_launch_factor(self, self.factor)
        check_in_place(self, self.acc)


@irdl_op_definition
class AccRowSumOp(IRDLOperation):
    """``%l1 = tc.acc_row_sum %p, %l0, %m0, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>``:
    l0 x exp2(m0 - m1) + each row's sum of p (the running sum carried to the new maximum);
    the factor is 1 where m0 = m1 is finite, 0 where m1 is still -inf (l0 is 0 there)."""

    name = "tc.acc_row_sum"
    ROWS: ClassVar = VarConstraint("ROWS", base(RowsType))
    acc = operand_def(AccType)
    sum = operand_def(ROWS)
    old_max = operand_def(ROWS)
    new_max = operand_def(ROWS)
    result = result_def(ROWS)
    assembly_format = "$acc `,` $sum `,` $old_max `,` $new_max attr-dict `:` type($acc) `,` type($sum)"

    def __init__(self, acc: SSAValue, total: SSAValue, old_max: SSAValue, new_max: SSAValue):
        super().__init__(operands=[acc, total, old_max, new_max], result_types=[total.type])

    def verify_(self) -> None:
        check_rows_op(self, self.acc.type, rows=(self.sum.type,))


@irdl_op_definition
class AccRescaleOp(IRDLOperation):
    """``%o1 = tc.acc_rescale %o0, %m0, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>``: each
    row of o0 times exp2(m0 - m1), the output so far carried to the new maximum (1 where
    m0 = m1 is finite, 0 where m1 is still -inf: o0 is 0 there)."""

    name = "tc.acc_rescale"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    ROWS: ClassVar = VarConstraint("ROWS", base(RowsType))
    acc = operand_def(ACC)
    old_max = operand_def(ROWS)
    new_max = operand_def(ROWS)
    result = result_def(ACC)
    assembly_format = "$acc `,` $old_max `,` $new_max attr-dict `:` type($acc) `,` type($old_max)"

    def __init__(self, acc: SSAValue, old_max: SSAValue, new_max: SSAValue):
        super().__init__(operands=[acc, old_max, new_max], result_types=[acc.type])

    def verify_(self) -> None:
        check_rows_op(self, self.acc.type, rows=(self.old_max.type,))
        check_in_place(self, self.acc)


@irdl_op_definition
class AccRowDivOp(IRDLOperation):
    """``%o = tc.acc_row_div %o2, %l [times %f] : !tc.acc<64x64xf32>, !tc.rows<64xf32>``:
    each row divided by its l (rcp.approx) [and times f, an f32 known at launch: fp8
    attention's V descaling factor]; 0 where l is 0 (a row that saw no key)."""

    name = "tc.acc_row_div"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    acc = operand_def(ACC)
    rows = operand_def(RowsType)
    factor = opt_operand_def(Float32Type())
    result = result_def(ACC)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "$acc `,` $rows (`times` $factor^)? attr-dict `:` type($acc) `,` type($rows)"

    def __init__(self, acc: SSAValue, rows: SSAValue, factor: SSAValue | None = None):
        super().__init__(operands=[acc, rows, [factor] if factor is not None else []], result_types=[acc.type])

    def verify_(self) -> None:
        check_rows_op(self, self.acc.type, rows=(self.rows.type,))
        check_in_place(self, self.acc)
        check_launch_factor(self, self.factor)


#: The largest magnitude of a mask's positions and offsets: they are 32-bit PTX immediates.
MASK_LIMIT = 2**30


@irdl_op_definition
class AccMaskOp(IRDLOperation):
    """``%t = tc.acc_mask %s {first_query = 0, first_key = 192, keys = 250, causal = 186} :
    !tc.acc<64x64xf32>``: the scores of queries first_query + r (rows r) against keys
    first_key + c (columns c), with -inf where the key is not seen: at or past `keys` (the
    keys' count: a ragged last block) and, with `causal` = d, past query i + d (query i sees
    key j iff j <= i + d; d = keys - queries aligns the last query with the last key, as
    FlashAttention does). Each element's row and column come from its register and the
    thread's place in the fragment (layout/fragments.py)."""

    name = "tc.acc_mask"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    acc = operand_def(ACC)
    positions = var_operand_def(IndexType())
    result = result_def(ACC)
    first_query = opt_prop_def(IntegerAttr[I64])
    first_key = opt_prop_def(IntegerAttr[I64])
    keys = opt_prop_def(IntegerAttr[I64])
    causal = opt_prop_def(IntegerAttr[I64])
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$acc (`at` `(` $positions^ `)`)? attr-dict `:` type($acc)"

    def __init__(self, acc: SSAValue, first_query: int | None, first_key: int | None, keys: int | None = None,
                 causal: int | None = None, positions: tuple[SSAValue, SSAValue] | None = None):
        props: dict[str, Attribute] = {}
        for name, value in (("first_query", first_query), ("first_key", first_key), ("keys", keys), ("causal", causal)):
            if value is not None:
                props[name] = IntegerAttr(value, i64)
        super().__init__(operands=[acc, list(positions or ())], result_types=[acc.type], properties=props)

    @property
    def mask(self) -> tuple[int, int, int | None, int | None]:
        """(first query, first key, keys or None, causal offset or None); the first query
        and key are 0 where not given, and add to `positions` where those are given."""
        get = lambda a: None if a is None else a.value.data  # noqa: E731
        return get(self.first_query) or 0, get(self.first_key) or 0, get(self.keys), get(self.causal)  # type: ignore[return-value]

    def verify_(self) -> None:
        check_rows_op(self, self.acc.type)
        check_in_place(self, self.acc)
        first_query, first_key, keys, causal = self.mask
        if keys is None and causal is None:
            raise VerifyException("tc.acc_mask masks nothing: give keys (the keys' count) or causal (the offset), or both")
        if len(self.positions) not in (0, 2):
            raise VerifyException(f"tc.acc_mask is at (query, key): two positions, not {len(self.positions)}")
        if self.positions and not in_attention_loop(self):
            raise VerifyException("tc.acc_mask at run-time positions is for attention loops (a single tile's are numbers: "
                                  "first_query, first_key)")
        for what, value, low in (("first_query", first_query, 0), ("first_key", first_key, 0), ("keys", keys, 0),
                                 ("causal", causal, -MASK_LIMIT)):
            if value is not None and not low <= value <= MASK_LIMIT:
                raise VerifyException(f"{what} is {low} to {MASK_LIMIT}, not {value}")


@irdl_op_definition
class RowsLseOp(IRDLOperation):
    """``%lse = tc.rows_lse %m, %l : !tc.rows<64xf32>``: each row's log-sum-exp of scale x S
    over every key seen, (m + log2 l) ln 2 (lg2.approx), from the online softmax's running
    maximum m (log2 units) and sum l; -inf where l is 0 (a row that saw no key). What a
    backward pass needs beside O."""

    name = "tc.rows_lse"
    ROWS: ClassVar = VarConstraint("ROWS", base(RowsType))
    max = operand_def(ROWS)
    sum = operand_def(ROWS)
    result = result_def(ROWS)
    assembly_format = "$max `,` $sum attr-dict `:` type($max)"

    def __init__(self, maximum: SSAValue, total: SSAValue):
        super().__init__(operands=[maximum, total], result_types=[maximum.type])

    def verify_(self) -> None:
        check_rows_op(self, rows=(self.max.type,))


@irdl_op_definition
class RowsStoreOp(IRDLOperation):
    """``tc.rows_store %lse to %L : !tc.rows<64xf32>, memref<64x1xf32>``: one f32 a row into
    a 64 x 1 column of global memory (any row pitch), written by the quad's first thread.

    In an attention loop, at a window: ``tc.rows_store %lse to %L[%h, %q0] :
    !tc.rows<128xf32>, memref<HxSxf32>`` writes row r into L[h, q0 + r] (a (heads,
    sequence) matrix, dense along the sequence: the log-sum-exp a backward pass reads),
    leaving out rows past its end; ``%L[%b, %h, %q0]`` into a dense (batch, heads,
    sequence) memref likewise."""

    name = "tc.rows_store"
    rows = operand_def(RowsType)
    dst = operand_def(MemRefType)
    indices = var_operand_def(IndexType())
    assembly_format = "$rows `to` $dst (`[` $indices^ `]`)? attr-dict `:` type($rows) `,` type($dst)"

    def verify_(self) -> None:
        check_rows_op(self, rows=(self.rows.type,))
        if self.indices:
            if len(self.indices) not in (2, 3):
                raise VerifyException(f"tc.rows_store at a window names (head, first row) or (batch, head, first row): two or "
                                      f"three indices, not {len(self.indices)}")
            if not in_attention_loop(self):
                raise VerifyException("tc.rows_store at a window is for attention loops (a single tile stores a 64 x 1 column)")
            if dtype_name(self.dst.type.element_type) != "f32":  # type: ignore[attr-defined]
                raise VerifyException(f"tc.rows_store writes f32, not {dtype_name(self.dst.type.element_type)}")  # type: ignore[attr-defined]
            if len(self.indices) == 3:
                t = self.dst.type
                if not isinstance(t, MemRefType) or len(t.get_shape()) != 3 or not isinstance(t.layout, NoneAttr) or min(t.get_shape()) < 0:
                    raise VerifyException(f"tc.rows_store at three indices writes a dense (batch, heads, sequence) memref, not {t}")
                return
            _memref_shape(self.dst.type, "the rows' memref")
            if matrix_strides(self.dst.type, "the rows' memref")[1] != 1:
                raise VerifyException("tc.rows_store at a window writes a row-major (heads, sequence) matrix: dense along the sequence")
            return
        shape = _memref_shape(self.dst.type, "the rows' memref")
        if shape != (self.rows.type.m, 1):  # type: ignore[attr-defined]
            raise VerifyException(f"tc.rows_store writes a {self.rows.type.m} x 1 column, not {shape[0]}x{shape[1]}")  # type: ignore[attr-defined]
        if dtype_name(self.dst.type.element_type) != "f32":  # type: ignore[attr-defined]
            raise VerifyException(f"tc.rows_store writes f32, not {dtype_name(self.dst.type.element_type)}")  # type: ignore[attr-defined]
        matrix_strides(self.dst.type, "the rows' memref")


#: This module's ops, in the order dialects/tc.py registers them.
ROWS_OPS = [RowsFillOp, AccRowMaxOp, AccExpOp, AccRowSumOp, AccRescaleOp, AccRowDivOp, AccMaskOp, RowsLseOp, RowsStoreOp]

__all__ = ["MASK_LIMIT", "ROWS_OPS", "AccExpOp", "AccMaskOp", "RowsLseOp", "RowsStoreOp", "AccRescaleOp", "AccRowDivOp", "AccRowMaxOp", "AccRowSumOp", "RowsFillOp"]
