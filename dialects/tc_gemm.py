"""The loop level's windows of a whole GEMM (`tc.window_load`, `tc.window_store`).

The loop level is what `tc-expand-matmul` makes of `tc.matmul` (dialects/tc_matmul.py) and
what a kernel engineer writes by hand: shared-memory tiles with `stages` buffers, the CTA's
output tile found from `gpu.block_id` with `arith`, an `scf.for` over K whose body loads
the A and B windows at run-time coordinates and runs `tc.wgmma`, and a `tc.window_store`
of the accumulator into D. The lowering pipelines that loop (docs/gemm.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, MemRefType, StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.irdl.operations import AttrSizedOperandSegments
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import Operand, OperandAttr
from lower_tc.dialects.tc_globals import Matrix, check_batch_stride, check_index_sizes, check_row_pitch, check_tma_source, matrix, tma_dtype_problem
from lower_tc.dialects.tc_types import AccType, TileType, dtype_name
from lower_tc.layout.gemm import STORE_TYPES
from lower_tc.layout.split_k import REDUCES


#: What `tc.window_store ... reduce X` sums over: the CTAs of a split-K cluster, or split-K's
#: CTAs through the global workspace (layout/split_k.py REDUCES).
REDUCTIONS = REDUCES

#: What works instead of a GEMM (tc.matmul or the loop level) of 4- or 6-bit types.
SUB_BYTE_GEMM = ("multiply 4- and 6-bit types in a single-tile tcgen05 kernel whose tiles are "
                 "filled by thread copies (examples/tcgen05_e2m1.mlir)")


def _parse_indices(parser: Parser) -> tuple[object | None, object | None, object, object]:
    """``[%row, %col]``; into a batch of matrices ``[%batch, %row, %col]``; into a batch of
    batches (a 4-d memref) ``[%outer, %batch, %row, %col]``."""
    start = parser.pos
    indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
    if len(indices) not in (2, 3, 4):
        parser.raise_error(f"a window has 2 indices (row, column), 3 (batch, row, column) or 4 (outer batch, batch, row, column), "
                           f"not {len(indices)}", start, parser.pos)
    return (None,) * (4 - len(indices)) + tuple(indices)  # type: ignore[return-value]


def _print_indices(printer: Printer, outer: SSAValue | None, batch: SSAValue | None, row: SSAValue, col: SSAValue) -> None:
    printer.print_string("[")
    printer.print_list([v for v in (outer, batch, row, col) if v is not None], printer.print_operand)
    printer.print_string("]")


def _check_index_count(mem: Attribute, outer: SSAValue | None, batch: SSAValue | None, what: str) -> None:
    """A window names one index per dimension of its memref: [outer, batch, row, column]
    into a 4-d one, [batch, row, column] into a batch of matrices, [row, column] into a
    matrix."""
    rank = len(mem.get_shape())  # type: ignore[attr-defined]
    given = 2 + (batch is not None) + (outer is not None)
    if given != rank:
        names = {2: "[row, column]", 3: "[batch, row, column]", 4: "[outer batch, batch, row, column]"}
        kind = {2: "one matrix", 3: "a batch of matrices", 4: "a batch of batches of matrices"}.get(rank, f"{rank}-d")
        raise VerifyException(f"{what} is {kind}: the window's indices are {names.get(rank, rank)}")


@irdl_op_definition
class WindowLoadOp(IRDLOperation):
    """Loads a window of a global operand into a tile by TMA, at run-time coordinates:
    ``tc.window_load %A[%m0, %k] to %a as a : memref<MxKxT>, !tc.tile<BMxBKxT, ...>``.

    Operand a reads rows [m0, m0 + BM) and columns [k, k + BK) of the M x K matrix A;
    operand b rows [k, k + BK) and columns [n0, n0 + BN) of the K x N matrix B. Past the
    matrix's edge TMA fills zeros, so any M, N, K works. In a loop over a tile with
    `stages`, each iteration loads into the next buffer of the ring. From a batch of
    matrices (a 3-d memref) the window names the batch first: ``%A[%b, %m0, %k]``; from a
    batch of batches (a 4-d memref: attention's batch x heads, in any stride order) both:
    ``%Q[%b, %h, %q0, %c0]``."""

    name = "tc.window_load"
    src = operand_def(MemRefType)
    outer = opt_operand_def(IndexType)
    batch = opt_operand_def(IndexType)
    row = operand_def(IndexType)
    col = operand_def(IndexType)
    dst = operand_def(TileType)
    operand = prop_def(OperandAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, src: SSAValue, row: SSAValue, col: SSAValue, dst: SSAValue, operand: Operand, batch: SSAValue | None = None,
                 outer: SSAValue | None = None):
        super().__init__(operands=[src, [outer] if outer is not None else [], [batch] if batch is not None else [], row, col, dst],
                         properties={"operand": OperandAttr(operand)})

    @classmethod
    def parse(cls, parser: Parser) -> "WindowLoadOp":
        src = parser.parse_unresolved_operand()
        outer, batch, row, col = _parse_indices(parser)
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
            parser.resolve_operand(batch, index) if batch is not None else None,  # type: ignore[arg-type]
            parser.resolve_operand(outer, index) if outer is not None else None,  # type: ignore[arg-type]
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_indices(printer, self.outer, self.batch, self.row, self.col)
        printer.print_string(" to ")
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
        check_index_sizes(matrix(src, "the window's source", batched=True, nested=True), "the window's source")
        _check_index_count(src, self.outer, self.batch, "the window's source")
        src_elt = dtype_name(src.element_type)
        if src_elt != tile.dtype:
            raise VerifyException(f"element types differ: memref {src_elt}, tile {tile.dtype}")
        why = tma_dtype_problem(tile.dtype)
        if why:
            raise VerifyException(f"a window is a TMA load, and {why}: {SUB_BYTE_GEMM}")
        check_tma_source(tile, src, self.operand.data, "the window's source", batched=True, nested=True)


@irdl_op_definition
class WindowStoreOp(IRDLOperation):
    """Stores an accumulator into its window of D, converted to D's element type, with an
    optional C added: ``tc.window_store %acc to %D[%m0, %n0] [plus %C] : !tc.acc<...>,
    memref<...> [, memref<...>]``. Elements past D's edge are not written. Into a batch
    of matrices the window names the batch first, ``%D[%b, %m0, %n0]``, and C (D's shape)
    is read at the same batch; into a batch of batches (4-d) ``%O[%b, %h, %q0, %c0]``.

    ``reduce cluster`` (after C): the accumulator is this CTA's partial tile of a split-K
    cluster (``split_k = S`` in the kernel's #tc.gemm_schedule), each CTA having taken a
    slice of K; the S partials are summed in rank order 0, 1, ..., S-1 (the same bits every
    run), C added once, and each element stored once (docs/gemm.md, "Split-K").
    ``reduce global``: the same sum, of the S consecutive CTAs along x (``split_k = S,
    reduce = global``), through a workspace in global memory; the CTA that finishes last
    sums and stores."""

    name = "tc.window_store"
    acc = operand_def(AccType)
    dst = operand_def(MemRefType)
    outer = opt_operand_def(IndexType)
    batch = opt_operand_def(IndexType)
    row = operand_def(IndexType)
    col = operand_def(IndexType)
    c = opt_operand_def(MemRefType)
    reduce = opt_prop_def(StringAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, acc: SSAValue, dst: SSAValue, row: SSAValue, col: SSAValue, c: SSAValue | None = None, batch: SSAValue | None = None,
                 reduce: str | None = None, outer: SSAValue | None = None):
        props = {"reduce": StringAttr(reduce)} if reduce is not None else {}
        super().__init__(operands=[acc, dst, [outer] if outer is not None else [], [batch] if batch is not None else [], row, col,
                                   [c] if c is not None else []], properties=props)

    @property
    def reduces(self) -> bool:
        """The store sums split-K's partial tiles (``reduce cluster`` or ``reduce global``)."""
        return self.reduce is not None

    @classmethod
    def parse(cls, parser: Parser) -> "WindowStoreOp":
        acc = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        outer, batch, row, col = _parse_indices(parser)
        c = parser.parse_unresolved_operand() if parser.parse_optional_keyword("plus") else None
        reduce = None
        if parser.parse_optional_keyword("reduce"):
            start = parser.pos
            reduce = parser.parse_optional_identifier()
            if reduce not in REDUCTIONS:
                shown = reduce if reduce is not None else parser._current_token.text  # pyright: ignore[reportPrivateUsage]
                parser.raise_error(f"tc.window_store reduces over the cluster (`reduce cluster`) or the global workspace (`reduce global`), not {shown}", start, max(parser.pos, start + 1))
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
            parser.resolve_operand(batch, index) if batch is not None else None,  # type: ignore[arg-type]
            reduce,
            parser.resolve_operand(outer, index) if outer is not None else None,  # type: ignore[arg-type]
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.acc)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        _print_indices(printer, self.outer, self.batch, self.row, self.col)
        if self.c is not None:
            printer.print_string(" plus ")
            printer.print_operand(self.c)
        if self.reduce is not None:
            printer.print_string(f" reduce {self.reduce.data}")
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
        _check_index_count(self.dst.type, self.outer, self.batch, "D")
        if self.reduce is not None and self.reduce.data not in REDUCTIONS:
            raise VerifyException(f"tc.window_store reduces over the cluster (`reduce cluster`) or the global workspace (`reduce global`), not {self.reduce.data}")
        if self.c is not None:
            check_output(self.c.type, acc.dtype, "C", written=False)
            if self.c.type.get_shape() != self.dst.type.get_shape():  # type: ignore[union-attr]
                raise VerifyException("C must have D's shape")


def check_output(mem: Attribute, acc: str, what: str, written: bool = True) -> None:
    """D (or C): a row-major matrix, or a batch of them whose matrices do not overlap, of
    a type the accumulator converts to; or one column-major matrix of sizes known at
    compile time (what swap-AB's D^T is: the TMA-store epilogue stages it transposed, the
    register epilogue stores it element by element down its columns)."""
    geometry = matrix(mem, what, batched=True, nested=True)
    assert isinstance(mem, MemRefType)
    if not geometry.row_major and (geometry.batched or not geometry.static):
        strided = "strided<[so, sb, ld, 1]>" if geometry.nested else "strided<[sb, ld, 1]>" if geometry.batched else "strided<[ld, 1]>"
        why = "a batch" if geometry.batched else "sizes or a leading dimension known only at launch"
        raise VerifyException(f"{what} must be row-major (the default layout or {strided}) with {why}: "
                              "a column-major one is a single matrix of sizes known at compile time")
    check_index_sizes(geometry, what)
    check_batch_stride(geometry, mem, what, tma=False, output=written)
    check_row_pitch(geometry, mem, what)
    dtype = dtype_name(mem.element_type)
    if dtype not in STORE_TYPES[acc]:
        raise VerifyException(
            f"{'an' if acc[0] in 'sf' else 'a'} {acc} accumulator is stored as "
            f"{' or '.join(STORE_TYPES[acc])}, not {dtype} ({what})"
        )


WINDOW_OPS = [WindowLoadOp, WindowStoreOp]

__all__ = ["SUB_BYTE_GEMM", "WINDOW_OPS", "Matrix", "WindowLoadOp", "WindowStoreOp", "check_output", "check_tma_source", "matrix"]
