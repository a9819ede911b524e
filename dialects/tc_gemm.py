"""The loop level's windows of a whole GEMM (`tc.window_load`, `tc.window_store`).

The loop level is what `tc-expand-matmul` makes of `tc.matmul` (dialects/tc_matmul.py) and
what a kernel engineer writes by hand: shared-memory tiles with `stages` buffers, the CTA's
output tile found from `gpu.block_id` with `arith`, an `scf.for` over K whose body loads
the A and B windows at run-time coordinates and runs `tc.wgmma`, and a `tc.window_store`
of the accumulator into D. The lowering pipelines that loop (docs/gemm.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
)
from xdsl.irdl.operations import AttrSizedOperandSegments
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import Operand, OperandAttr
from lower_tc.dialects.tc_globals import Matrix, check_index_sizes, check_row_pitch, check_tma_source, matrix, tma_dtype_problem
from lower_tc.dialects.tc_types import AccType, TileType, dtype_name
from lower_tc.layout.gemm import STORE_TYPES


#: What works instead of a GEMM (tc.matmul or the loop level) of 4- or 6-bit types.
SUB_BYTE_GEMM = ("multiply 4- and 6-bit types in a single-tile tcgen05 kernel whose tiles are "
                 "filled by thread copies (examples/tcgen05_e2m1.mlir)")


def _parse_index_pair(parser: Parser) -> tuple[object, object]:
    parser.parse_punctuation("[")
    row = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    col = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return row, col


@irdl_op_definition
class WindowLoadOp(IRDLOperation):
    """Loads a window of a global operand into a tile by TMA, at run-time coordinates:
    ``tc.window_load %A[%m0, %k] to %a as a : memref<MxKxT>, !tc.tile<BMxBKxT, ...>``.

    Operand a reads rows [m0, m0 + BM) and columns [k, k + BK) of the M x K matrix A;
    operand b rows [k, k + BK) and columns [n0, n0 + BN) of the K x N matrix B. Past the
    matrix's edge TMA fills zeros, so any M, N, K works. In a loop over a tile with
    `stages`, each iteration loads into the next buffer of the ring."""

    name = "tc.window_load"
    src = operand_def(MemRefType)
    row = operand_def(IndexType)
    col = operand_def(IndexType)
    dst = operand_def(TileType)
    operand = prop_def(OperandAttr)

    def __init__(self, src: SSAValue, row: SSAValue, col: SSAValue, dst: SSAValue, operand: Operand):
        super().__init__(operands=[src, row, col, dst], properties={"operand": OperandAttr(operand)})

    @classmethod
    def parse(cls, parser: Parser) -> "WindowLoadOp":
        src = parser.parse_unresolved_operand()
        row, col = _parse_index_pair(parser)
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        parser.parse_keyword("as")
        operand = parser.parse_str_enum(Operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_punctuation(",")
        dst_t = parser.parse_type()
        index = IndexType()
        op = cls(
            parser.resolve_operand(src, src_t),
            parser.resolve_operand(row, index),  # type: ignore[arg-type]
            parser.resolve_operand(col, index),  # type: ignore[arg-type]
            parser.resolve_operand(dst, dst_t),
            operand,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string("[")
        printer.print_operand(self.row)
        printer.print_string(", ")
        printer.print_operand(self.col)
        printer.print_string("] to ")
        printer.print_operand(self.dst)
        printer.print_string(f" as {self.operand.data.value}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(", ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        tile, src = self.dst.type, self.src.type
        assert isinstance(tile, TileType) and isinstance(src, MemRefType)
        check_index_sizes(matrix(src, "the window's source"), "the window's source")
        src_elt = dtype_name(src.element_type)
        if src_elt != tile.dtype:
            raise VerifyException(f"element types differ: memref {src_elt}, tile {tile.dtype}")
        why = tma_dtype_problem(tile.dtype)
        if why:
            raise VerifyException(f"a window is a TMA load, and {why}: {SUB_BYTE_GEMM}")
        check_tma_source(tile, src, self.operand.data, "the window's source")


@irdl_op_definition
class WindowStoreOp(IRDLOperation):
    """Stores an accumulator into its window of D, converted to D's element type, with an
    optional C added: ``tc.window_store %acc to %D[%m0, %n0] [plus %C] : !tc.acc<...>,
    memref<...> [, memref<...>]``. Elements past D's edge are not written."""

    name = "tc.window_store"
    acc = operand_def(AccType)
    dst = operand_def(MemRefType)
    row = operand_def(IndexType)
    col = operand_def(IndexType)
    c = opt_operand_def(MemRefType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, acc: SSAValue, dst: SSAValue, row: SSAValue, col: SSAValue, c: SSAValue | None = None):
        super().__init__(operands=[acc, dst, row, col, [c] if c is not None else []])

    @classmethod
    def parse(cls, parser: Parser) -> "WindowStoreOp":
        acc = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        row, col = _parse_index_pair(parser)
        c = parser.parse_unresolved_operand() if parser.parse_optional_keyword("plus") else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        acc_t = parser.parse_type()
        parser.parse_punctuation(",")
        dst_t = parser.parse_type()
        c_t = None
        if c is not None:
            parser.parse_punctuation(",")
            c_t = parser.parse_type()
        index = IndexType()
        op = cls(
            parser.resolve_operand(acc, acc_t),
            parser.resolve_operand(dst, dst_t),
            parser.resolve_operand(row, index),  # type: ignore[arg-type]
            parser.resolve_operand(col, index),  # type: ignore[arg-type]
            parser.resolve_operand(c, c_t) if c is not None else None,  # type: ignore[arg-type]
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.acc)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        printer.print_string("[")
        printer.print_operand(self.row)
        printer.print_string(", ")
        printer.print_operand(self.col)
        printer.print_string("]")
        if self.c is not None:
            printer.print_string(" plus ")
            printer.print_operand(self.c)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.acc.type)
        printer.print_string(", ")
        printer.print_attribute(self.dst.type)
        if self.c is not None:
            printer.print_string(", ")
            printer.print_attribute(self.c.type)

    def verify_(self) -> None:
        acc = self.acc.type
        assert isinstance(acc, AccType)
        check_output(self.dst.type, acc.dtype, "D")
        if self.c is not None:
            check_output(self.c.type, acc.dtype, "C")
            if self.c.type.get_shape() != self.dst.type.get_shape():  # type: ignore[union-attr]
                raise VerifyException("C must have D's shape")


def check_output(mem: Attribute, acc: str, what: str) -> None:
    """D (or C): a 2-d row-major matrix of a type the accumulator converts to."""
    geometry = matrix(mem, what)
    assert isinstance(mem, MemRefType)
    if not geometry.row_major:
        raise VerifyException(f"{what} must be row-major (the default layout or strided<[ld, 1]>)")
    check_index_sizes(geometry, what)
    check_row_pitch(geometry, mem, what)
    dtype = dtype_name(mem.element_type)
    if dtype not in STORE_TYPES[acc]:
        raise VerifyException(
            f"{'an' if acc[0] in 'sf' else 'a'} {acc} accumulator is stored as "
            f"{' or '.join(STORE_TYPES[acc])}, not {dtype} ({what})"
        )


WINDOW_OPS = [WindowLoadOp, WindowStoreOp]

__all__ = ["SUB_BYTE_GEMM", "WINDOW_OPS", "Matrix", "WindowLoadOp", "WindowStoreOp", "check_output", "check_tma_source", "matrix"]
