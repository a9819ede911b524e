"""The legacy warp-level WMMA path on ``!tc.wmma_frag`` values, straight from global memory:
``tc.wmma_load``, ``tc.wmma_zero``, ``tc.wmma_mma``, ``tc.wmma_store``."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import WmmaLayout, WmmaLayoutAttr
from lower_tc.dialects.tc_types import (
    WMMA_SHAPES,
    WmmaFragType,
    _memref_shape,
    dtype_name,
    element_bits,
    matrix_strides,
)
from lower_tc.layout.limits import index_problem


def _parse_offsets(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


@irdl_op_definition
class WmmaLoadOp(IRDLOperation):
    """``%f = tc.wmma_load %A[0, 16] : memref<32x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>``.

    Loads a fragment from a row-major global matrix at element offsets
    [row, col]; the stride is the memref's row length. A row-layout fragment
    reads its matrix as stored; a col-layout one reads the transposed storage
    (A col: a K x M memref; B row: K x N; B col: N x K).
    """

    name = "tc.wmma_load"
    src = operand_def(MemRefType)
    frag = result_def(WmmaFragType)
    offsets = prop_def(ArrayAttr[IntAttr])

    def __init__(self, src: SSAValue, offsets: Sequence[int], frag: WmmaFragType):
        super().__init__(
            operands=[src], result_types=[frag],
            properties={"offsets": ArrayAttr([IntAttr(o) for o in offsets])},
        )

    @classmethod
    def parse(cls, parser: Parser) -> "WmmaLoadOp":
        src = parser.parse_unresolved_operand()
        offsets = _parse_offsets(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_punctuation("->")
        frag_t = parser.parse_type()
        op = cls(parser.resolve_operand(src, src_t), offsets, frag_t)  # type: ignore[arg-type]
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(f"[{', '.join(str(o.data) for o in self.offsets.data)}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.frag.type)

    def verify_(self) -> None:
        _check_wmma_access(self.frag.type, self.src.type, self.offsets, "load")


@irdl_op_definition
class WmmaMmaOp(IRDLOperation):
    """``%d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a,..>, !tc.wmma_frag<b,..>, !tc.wmma_frag<c,..>``."""

    name = "tc.wmma_mma"
    a = operand_def(WmmaFragType)
    b = operand_def(WmmaFragType)
    c = operand_def(WmmaFragType)
    d = result_def(WmmaFragType)
    assembly_format = "$a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) `->` type($d)"

    def verify_(self) -> None:
        a, b, c, d = (v.type for v in (self.a, self.b, self.c, self.d))
        assert all(isinstance(x, WmmaFragType) for x in (a, b, c, d))
        roles = (a.role.data, b.role.data, c.role.data, d.role.data)  # type: ignore[union-attr]
        if roles != ("a", "b", "c", "c"):
            raise VerifyException("tc.wmma_mma takes a, b and c fragments and gives a c fragment")
        shapes = {x.shape.data for x in (a, b, c, d)}  # type: ignore[union-attr]
        if len(shapes) != 1:
            raise VerifyException(f"fragments of different shapes: {', '.join(sorted(shapes))}")
        if a.dtype != b.dtype:  # type: ignore[union-attr]
            raise VerifyException(f"wmma cannot multiply {a.dtype} by {b.dtype}")  # type: ignore[union-attr]
        allowed = {"f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "s8": ("s32",), "u8": ("s32",)}
        if c.dtype not in allowed[a.dtype]:  # type: ignore[union-attr]
            raise VerifyException(
                f"wmma with {a.dtype} accumulates in {' or '.join(allowed[a.dtype])}, not {c.dtype}"  # type: ignore[union-attr]
            )
        if a.dtype != "f16" and d.dtype != c.dtype:  # type: ignore[union-attr]
            raise VerifyException("the result fragment must have the accumulator's type")
        if d.dtype not in allowed[a.dtype]:  # type: ignore[union-attr]
            raise VerifyException(
                f"wmma with {a.dtype} gives {' or '.join(allowed[a.dtype])} results, not {d.dtype}"  # type: ignore[union-attr]
            )


@irdl_op_definition
class WmmaZeroOp(IRDLOperation):
    """A zero accumulator fragment: ``%c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>``."""

    name = "tc.wmma_zero"
    frag = result_def(WmmaFragType)
    assembly_format = "attr-dict `:` type($frag)"

    def verify_(self) -> None:
        assert isinstance(self.frag.type, WmmaFragType)
        if self.frag.type.role.data != "c":
            raise VerifyException("tc.wmma_zero makes an accumulator (c) fragment")


@irdl_op_definition
class WmmaStoreOp(IRDLOperation):
    """``tc.wmma_store %d to %D[0, 0] row : !tc.wmma_frag<c, ...>, memref<...>``."""

    name = "tc.wmma_store"
    frag = operand_def(WmmaFragType)
    dst = operand_def(MemRefType)
    offsets = prop_def(ArrayAttr[IntAttr])
    layout = prop_def(WmmaLayoutAttr, default_value=WmmaLayoutAttr(WmmaLayout.ROW))

    @classmethod
    def parse(cls, parser: Parser) -> "WmmaStoreOp":
        frag = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        offsets = _parse_offsets(parser)
        layout = WmmaLayout.ROW
        if parser.parse_optional_keyword("col"):
            layout = WmmaLayout.COL
        else:
            parser.parse_optional_keyword("row")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        frag_t = parser.parse_type()
        parser.parse_punctuation(",")
        dst_t = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(frag, frag_t), parser.resolve_operand(dst, dst_t)],
            properties={
                "offsets": ArrayAttr([IntAttr(o) for o in offsets]),
                "layout": WmmaLayoutAttr(layout),
            },
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.frag)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        printer.print_string(f"[{', '.join(str(o.data) for o in self.offsets.data)}]")
        printer.print_string(f" {self.layout.data.value}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.frag.type)
        printer.print_string(", ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        _check_wmma_access(self.frag.type, self.dst.type, self.offsets, "store", self.layout.data.value)


def wmma_stored_extent(frag: WmmaFragType, layout: str) -> tuple[int, int]:
    """(rows, cols) of the fragment's matrix as stored in a row-major memref."""
    m, n, k = WMMA_SHAPES[frag.shape.data]
    logical = {"a": (m, k), "b": (k, n), "c": (m, n)}[frag.role.data]
    return logical if layout == "row" else (logical[1], logical[0])


def _check_wmma_access(
    frag: Attribute, mem: Attribute, offsets: ArrayAttr[IntAttr], what: str, layout: str | None = None
) -> None:
    assert isinstance(frag, WmmaFragType) and isinstance(mem, MemRefType)
    if frag.role.data == "c" and what == "load" and layout is None:
        layout = "row"
    layout = layout or frag.layout.data
    rows, _ = _memref_shape(mem, f"the wmma {what}'s memref")
    cols, unit = matrix_strides(mem, f"the wmma {what}'s memref")
    if unit != 1:
        raise VerifyException(
            f"the wmma {what}'s memref must be row-major: the fragment's row/col layout says "
            "how the matrix is stored, the memref's row stride is the wmma stride"
        )
    why = index_problem(cols, f"the wmma {what}'s stride (its memref's row stride)")
    if why:  # wmma.load/store take the stride as a 32-bit operand
        raise VerifyException(why)
    if len(offsets.data) != 2:
        raise VerifyException("offsets are [row, col]")
    r0, c0 = (o.data for o in offsets.data)
    er, ec = wmma_stored_extent(frag, layout)
    width = mem.get_shape()[1]
    if r0 < 0 or c0 < 0 or r0 + er > rows or c0 + ec > width:
        raise VerifyException(
            f"a {er}x{ec} {frag.role.data} fragment at [{r0}, {c0}] does not fit the {rows}x{width} memref"
        )
    mem_t = dtype_name(mem.element_type)
    if mem_t != frag.dtype:
        raise VerifyException(f"the memref holds {mem_t} but the fragment is {frag.dtype}")
    elt = element_bits(mem.element_type) // 8
    align = frag.bytes
    if (cols * elt) % align:
        raise VerifyException(
            f"wmma stride of {cols} {mem_t} elements is {cols * elt} bytes, not a multiple of the "
            f"{align}-byte fragment (PTX ISA: every row start must be aligned to the fragment size)"
        )
    if ((r0 * cols + c0) * elt) % align:
        raise VerifyException(
            f"wmma {what} at [{r0}, {c0}] starts at byte {(r0 * cols + c0) * elt}, not aligned "
            f"to the {align}-byte fragment"
        )


#: This module's ops, in the order dialects/tc.py registers them.
WMMA_OPS = [WmmaLoadOp, WmmaMmaOp, WmmaZeroOp, WmmaStoreOp]
