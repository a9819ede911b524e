"""Shared-memory tiles and the copies that fill them: ``tc.smem_tile``, ``tc.copy``, and
``tc.tile_transpose`` (an 8-bit tile copied MN-major to K-major in shared memory)."""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, MemRefType, UnitAttr, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import CopyVia, CopyViaAttr, Operand, OperandAttr
from lower_tc.dialects.tc_globals import check_tma_source, tma_dtype_problem
from lower_tc.dialects.tc_kernel import enclosing_kernel, in_attention_loop, kernel_target
from lower_tc.layout.limits import MAX_INDEX, SMEM_CAPACITY
from lower_tc.dialects.tc_types import TileType, _memref_shape, dtype_name, element_bits, matrix_strides
from lower_tc.layout import Major, Swizzle, element_type
from lower_tc.layout.gemm import ring_footprint
from lower_tc.layout.smem_transpose import transpose_problem
from lower_tc.layout.targets import swizzle_rule


#: A ring has 1 to this many buffers (`tc.smem_tile {stages = N}`).
MAX_STAGES = 16


@irdl_op_definition
class SmemTileOp(IRDLOperation):
    """Allocates a tile in shared memory: ``%a = tc.smem_tile : !tc.tile<...>``; with
    ``{stages = N}`` (1 to 16) a ring of N buffers of it, which a GEMM's K loop loads in
    turn (docs/gemm.md). `stages` is a declared property, written in the attr-dict."""

    name = "tc.smem_tile"
    tile = result_def(TileType)
    stages = opt_prop_def(IntegerAttr[I64])

    def __init__(self, tile_type: TileType, stages: int | None = None):
        props = {"stages": IntegerAttr(stages, i64)} if stages is not None else {}
        super().__init__(result_types=[tile_type], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> "SmemTileOp":
        """``{stages = N}`` is the property; a value that is not an integer is an error at
        the attr-dict (its range is the verifier's); other entries stay attributes."""
        start = parser.pos
        attrs = parser.parse_optional_attr_dict()
        end = parser.pos
        stages = attrs.pop("stages", None)
        if stages is not None and not (
            isinstance(stages, IntegerAttr) and isinstance(stages.type, IntegerType) and stages.type.width.data > 1
        ):
            parser.raise_error(f"stages is an integer (the ring's buffers, 1 to {MAX_STAGES}), not {stages}", start, end)
        parser.parse_punctuation(":")
        tile_type = parser.parse_type()
        if not isinstance(tile_type, TileType):
            parser.raise_error(f"expected a !tc.tile type, not {tile_type}")
        op = cls(tile_type, stages.value.data if stages is not None else None)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        stages = {"stages": self.stages} if self.stages is not None else {}
        printer.print_op_attributes(stages | dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.tile.type)

    @property
    def ring_stages(self) -> int:
        """How many buffers the tile has: its `stages`, 1 without it."""
        return self.stages.value.data if self.stages is not None else 1

    def verify_(self) -> None:
        if not 1 <= self.ring_stages <= MAX_STAGES:
            raise VerifyException(f"stages is an integer from 1 to {MAX_STAGES}: tc.smem_tile {{stages = 4}} : ...")
        tile = self.tile.type
        assert isinstance(tile, TileType)
        lay = tile.layout
        if lay.is_auto:
            return
        arch = kernel_target(self)
        if arch is not None:
            why = swizzle_rule(arch, tile.dtype, tile.major is Major.MN, Swizzle.parse(lay.swizzle.data))
            if why:
                raise VerifyException(why)
        footprint = ring_footprint(tile.tile_layout().footprint, self.ring_stages)
        start = max(lay.offset.data, 0)
        if start + footprint > SMEM_CAPACITY:
            ring = f" ({self.ring_stages} stages)" if self.ring_stages > 1 else ""
            raise VerifyException(
                f"tile{ring} needs shared memory up to {start + footprint} bytes, beyond the "
                f"{SMEM_CAPACITY} bytes (227 KiB) a block may use"
            )


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Fills a tile from a global operand: ``tc.copy %A to %a as a via tma : memref<...>, !tc.tile<...>``.

    Operand a reads an M x K matrix, operand b a K x N matrix, row-major or
    column-major (``strided<[1, ld]>``, see `matrix_strides`); the tile is
    MN x K. `via` is ``threads`` (16-byte vector stores, any major-ness) or
    ``tma`` (the tile's contiguous dimension must be the global one's: TMA
    does not transpose).
    """

    name = "tc.copy"
    src = operand_def(MemRefType)
    dst = operand_def(TileType)
    operand = prop_def(OperandAttr)
    via = prop_def(CopyViaAttr, default_value=CopyViaAttr(CopyVia.THREADS))

    @classmethod
    def parse(cls, parser: Parser) -> "CopyOp":
        src = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        parser.parse_keyword("as")
        operand = parser.parse_str_enum(Operand)
        via = CopyVia.THREADS
        if parser.parse_optional_keyword("via"):
            via = parser.parse_str_enum(CopyVia)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_punctuation(",")
        dst_t = parser.parse_type()
        op = cls(parser.resolve_operand(src, src_t), parser.resolve_operand(dst, dst_t), operand, via)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        printer.print_string(f" as {self.operand.data.value}")
        if self.via.data is not CopyVia.THREADS:
            printer.print_string(f" via {self.via.data.value}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(", ")
        printer.print_attribute(self.dst.type)

    def __init__(self, src: SSAValue, dst: SSAValue, operand: Operand, via: CopyVia = CopyVia.THREADS):
        super().__init__(
            operands=[src, dst],
            properties={"operand": OperandAttr(operand), "via": CopyViaAttr(via)},
        )

    def verify_(self) -> None:
        tile = self.dst.type
        assert isinstance(tile, TileType) and isinstance(self.src.type, MemRefType)
        rows, cols = _memref_shape(self.src.type, "the copy's source")
        s_row, s_col = matrix_strides(self.src.type, "the copy's source")
        role = self.operand.data
        expected = (tile.mn, tile.k) if role is Operand.A else (tile.k, tile.mn)
        dims = "M x K" if role is Operand.A else "K x N"
        if (rows, cols) != expected:
            raise VerifyException(
                f"operand {role} reads a {dims} matrix: expected memref "
                f"{expected[0]}x{expected[1]} for a {tile.mn}x{tile.k} tile, got {rows}x{cols}"
            )
        src_elt = dtype_name(self.src.type.element_type)
        if src_elt != tile.dtype:
            raise VerifyException(f"element types differ: memref {src_elt}, tile {tile.dtype}")
        etype = element_type(tile.dtype)
        if etype.padded:
            # 16 packed 4-/6-bit elements (8/12 bytes) per 16-byte chunk, then padding
            s_mn, s_k = (s_row, s_col) if role is Operand.A else (s_col, s_row)
            if self.via.data is CopyVia.TMA:
                raise VerifyException(f"{tma_dtype_problem(tile.dtype)}: copy via threads")
            if s_k != 1 or s_mn * etype.bits % 8:
                raise VerifyException(
                    f"thread copies of {tile.dtype} read 16 packed elements per chunk: the global "
                    "matrix must be contiguous along K with rows starting on whole bytes "
                    f"(a leading dimension times {etype.bits} bits a multiple of 8)"
                )
        if self.via.data is CopyVia.TMA:
            check_tma_source(tile, self.src.type, role)
        else:  # the threads' table holds each chunk's offset, their loads add byte offsets: 32 bits
            span = -(-((rows - 1) * s_row + (cols - 1) * s_col + 1) * etype.bits // 8)
            if span > MAX_INDEX:
                raise VerifyException(
                    f"the copy's source spans {span} bytes (strides [{s_row}, {s_col}]): a thread "
                    f"copy addresses it with 32-bit offsets (0 to {MAX_INDEX})"
                )


@irdl_op_definition
class TileTransposeOp(IRDLOperation):
    """``tc.tile_transpose %vs to %v : !tc.tile<DxBNxf8E4M3FN, #tc.layout<mn, ...>>,
    !tc.tile<DxBNxf8E4M3FN, #tc.layout<k, ...>>``: copies an 8-bit MN-major tile (as TMA
    loaded it) into a K-major one of the same shape in shared memory, stage by stage of
    their rings, since fp8 wgmma reads B only K-major. In an attention kernel's key loop
    (V given with its head dim contiguous), the producer warpgroup runs it
    (layout/smem_transpose.py; docs/attention.md, "fp8 attention at the loop level").
    ``{accumulator_order}``: each 16 keys stored in the order P's accumulator fragment holds
    them (0, 1, 8, 9, 2, 3, 10, 11, ...), for a P made by ``tc.acc_to_a {accumulator_order}``
    without exchanging bytes between threads."""

    name = "tc.tile_transpose"
    src = operand_def(TileType)
    dst = operand_def(TileType)
    accumulator_order = opt_prop_def(UnitAttr)
    assembly_format = "$src `to` $dst attr-dict `:` type($src) `,` type($dst)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, src: SSAValue, dst: SSAValue, accumulator_order: bool = False):
        props = {"accumulator_order": UnitAttr()} if accumulator_order else {}
        super().__init__(operands=[src, dst], properties=props)

    def verify_(self) -> None:
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, TileType) and isinstance(dst, TileType)
        if self.attributes:  # the attr-dict holds the property: a misspelling would be kept and ignored
            raise VerifyException(f"tc.tile_transpose takes {{accumulator_order}}, not {', '.join(sorted(self.attributes))}")
        if src.dtype != dst.dtype:
            raise VerifyException(f"tc.tile_transpose copies between tiles of one type, not {src.dtype} to {dst.dtype}")
        if src.major is not Major.MN or dst.major is not Major.K:
            raise VerifyException(f"tc.tile_transpose copies an MN-major tile into a K-major one, not {src.major.value} "
                                  f"to {dst.major.value} (fp8 wgmma reads B K-major; 16-bit wgmma reads MN-major B itself)")
        if (src.mn, src.k) != (dst.mn, dst.k):
            raise VerifyException(f"tc.tile_transpose's tiles have one shape, not {src.mn}x{src.k} and {dst.mn}x{dst.k}")
        why = transpose_problem(element_type(src.dtype).bits, src.mn, src.k)
        if why:
            raise VerifyException(why)
        if enclosing_kernel(self) is not None and not in_attention_loop(self):
            raise VerifyException("tc.tile_transpose runs in an attention kernel's key loop, where the producer warpgroup "
                                  "transposes each block of V (docs/attention.md, 'V as given'); no other kernel lowers it")
        for v, what in ((self.src, "source"), (self.dst, "destination")):
            if not isinstance(v.owner, SmemTileOp):
                raise VerifyException(f"tc.tile_transpose's {what} is a tc.smem_tile")
        assert isinstance(self.src.owner, SmemTileOp) and isinstance(self.dst.owner, SmemTileOp)
        if self.src.owner.ring_stages != self.dst.owner.ring_stages:
            raise VerifyException(f"tc.tile_transpose's tiles have as many stages: {self.src.owner.ring_stages} and "
                                  f"{self.dst.owner.ring_stages}")


#: This module's ops, in the order dialects/tc.py registers them.
TILE_OPS = [SmemTileOp, CopyOp, TileTransposeOp]
