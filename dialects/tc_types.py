"""The tc dialect's types (``!tc.tile``, ``!tc.acc``, ``!tc.wmma_frag``), the element-type
helpers they share, and the shape checks on global-memory memref operands."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    FloatTF32Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    StringAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import LayoutAttr
from lower_tc.layout import LayoutError, Major, TileLayout, element_type


# -- element types ----------------------------------------------------------------


def dtype_name(t: Attribute) -> str:
    """The layout core's name for a builtin element type."""
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, FloatTF32Type):
        return "tf32"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float8E4M3FNType):
        return "e4m3"
    if isinstance(t, Float8E5M2Type):
        return "e5m2"
    if isinstance(t, Float4E2M1FNType):
        return "e2m1"
    if isinstance(t, Float6E2M3FNType):
        return "e2m3"
    if isinstance(t, Float6E3M2FNType):
        return "e3m2"
    if isinstance(t, IntegerType):
        unsigned = t.signedness.data == Signedness.UNSIGNED
        if t.width.data == 8:
            return "u8" if unsigned else "s8"
        if t.width.data == 32 and not unsigned:
            return "s32"
    raise VerifyException(f"element type {t} is not a tensor-core operand or accumulator type")


def element_bits(t: Attribute) -> int:
    name = dtype_name(t)
    return 32 if name == "s32" else element_type(name).bits


# -- types ------------------------------------------------------------------------


def _parse_shape_and_type(parser: AttrParser) -> tuple[list[int], Attribute]:
    dims, elt = parser.parse_ranked_shape()
    if len(dims) != 2:
        parser.raise_error(f"expected a 2-d shape, got {len(dims)} dimensions")
    if any(d < 0 for d in dims):
        parser.raise_error("the shape must be static (no '?'): descriptors are fixed at compile time")
    return dims, elt


def _print_shape_and_type(printer: Printer, shape: Sequence[int], elt: Attribute) -> None:
    printer.print_string("x".join(str(d) for d in shape) + "x")
    printer.print_attribute(elt)


@irdl_attr_definition
class TileType(ParametrizedAttribute, TypeAttribute):
    """``!tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>``: an MN x K tile in shared memory."""

    name = "tc.tile"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    layout: LayoutAttr

    def __init__(self, shape: Sequence[int], elt: Attribute, layout: LayoutAttr):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), elt, layout)

    @property
    def mn(self) -> int:
        return self.shape.data[0].data

    @property
    def k(self) -> int:
        return self.shape.data[1].data

    @property
    def dtype(self) -> str:
        return dtype_name(self.element_type)

    @property
    def major(self) -> Major:
        return Major.parse(self.layout.major.data)

    def with_layout(self, layout: LayoutAttr) -> "TileType":
        return TileType((self.mn, self.k), self.element_type, layout)

    def tile_layout(self) -> TileLayout:
        """The layout core's view; the swizzle must be chosen already."""
        lay = self.layout
        if lay.is_auto:
            raise LayoutError("the tile's swizzle is still auto: run tc-choose-swizzle first")
        strides = tuple(s.data for s in lay.strides.data) or None
        return TileLayout.make(
            self.dtype, self.mn, self.k, lay.major.data, lay.swizzle.data,
            lay.order.data.replace("_", "-"), strides,  # type: ignore[arg-type]
            max(lay.offset.data, 0),
            lay.origin.data if lay.origin.data >= 0 else None,
        )

    def verify(self) -> None:
        if len(self.shape.data) != 2:
            raise VerifyException("a tile is 2-d: MN x K")
        name = self.dtype
        if name in ("f32", "s32"):
            raise VerifyException(f"{name} is an accumulator type, not a tile element type")
        lay = self.layout
        try:
            if lay.is_auto:
                # the narrowest atom still has to fit: 8 rows of 16-byte chunks
                probe = self.with_layout(lay.with_(swizzle="none", offset=max(lay.offset.data, 0)))
                probe.tile_layout()
            else:
                self.tile_layout()
        except LayoutError as err:
            raise VerifyException(str(err)) from None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elt = _parse_shape_and_type(parser)
            parser.parse_punctuation(",")
            layout = parser.parse_attribute()
            if not isinstance(layout, LayoutAttr):
                parser.raise_error("expected a #tc.layout<...> attribute")
        return (ArrayAttr([IntAttr(d) for d in dims]), elt, layout)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_shape_and_type(printer, (self.mn, self.k), self.element_type)
            printer.print_string(", ")
            printer.print_attribute(self.layout)


class _Matrix:
    """The parameters of a 2-d register type (its shape, its element type), declared once
    here for the types that take it (xDSL reads them from the mixin too): built from a
    shape and written ``<RxCxT>``."""

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def _dim(self, i: int) -> int:
        return self.shape.data[i].data

    def __init__(self, shape: Sequence[int], elt: Attribute):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), elt)  # type: ignore[call-arg]

    @property
    def dtype(self) -> str:
        return dtype_name(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elt = _parse_shape_and_type(parser)
        return (ArrayAttr([IntAttr(d) for d in dims]), elt)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_shape_and_type(printer, tuple(d.data for d in self.shape.data), self.element_type)


@irdl_attr_definition
class AccType(_Matrix, ParametrizedAttribute, TypeAttribute):
    """``!tc.acc<64x128xf32>``: an M x N accumulator (registers, or tensor memory on sm_100a)."""

    name = "tc.acc"

    @property
    def m(self) -> int:
        return self._dim(0)

    @property
    def n(self) -> int:
        return self._dim(1)

    def verify(self) -> None:
        if len(self.shape.data) != 2:
            raise VerifyException("an accumulator is 2-d: M x N")
        if self.dtype not in ("f32", "f16", "s32"):
            raise VerifyException(f"accumulators are f32, f16 or s32 (i32), not {self.dtype}")


@irdl_attr_definition
class AFragType(_Matrix, ParametrizedAttribute, TypeAttribute):
    """``!tc.afrag<64x64xbf16>``: an M x K A operand held in the warpgroup's registers in
    wgmma's register-A layout (layout/fragments.py), made from an accumulator by
    ``tc.acc_to_a`` (attention's P = softmax(S) fed to the P V wgmma)."""

    name = "tc.afrag"

    @property
    def mn(self) -> int:
        """M (the rows; named as TileType names them, so a wgmma reads either alike)."""
        return self._dim(0)

    @property
    def k(self) -> int:
        return self._dim(1)

    def verify(self) -> None:
        if len(self.shape.data) != 2:
            raise VerifyException("an A fragment is 2-d: M x K")
        if self.mn not in (64, 128, 192, 256):
            raise VerifyException(f"an A fragment is one warpgroup's 64 rows (wgmma's M), or 128, 192, 256 in an "
                                  f"attention loop (64 a warpgroup), not {self.mn}")
        if self.dtype not in ("bf16", "f16", "e4m3", "e5m2"):
            raise VerifyException(f"an A fragment made from an accumulator is bf16, f16, e4m3 or e5m2, not {self.dtype}")


@irdl_attr_definition
class RowsType(ParametrizedAttribute, TypeAttribute):
    """``!tc.rows<64xf32>``: one f32 per row of a 64-row wgmma accumulator, held where the
    accumulator holds its row (thread 4g + q of warp w: rows 16w + g and 16w + g + 8, each
    of a quad's four threads a copy): the running maximum and sum of attention's online
    softmax (docs/attention.md). On sm_100a, ``!tc.rows<128xf32>``: one per row of a
    tcgen05 accumulator, each thread its own row's."""

    name = "tc.rows"

    rows: IntAttr
    element_type: Attribute

    def __init__(self, rows: int = 64, elt: Attribute | None = None):
        from xdsl.dialects.builtin import Float32Type

        super().__init__(IntAttr(rows), elt if elt is not None else Float32Type())

    @property
    def m(self) -> int:
        return self.rows.data

    @property
    def dtype(self) -> str:
        return dtype_name(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elt = parser.parse_ranked_shape()
            if len(dims) != 1 or dims[0] < 0:
                parser.raise_error(f"!tc.rows is 1-d and static: <64xf32>, not {len(dims)} dimensions")
        return (IntAttr(dims[0]), elt)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"{self.m}x")
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        if self.m not in (64, 128, 192, 256):
            raise VerifyException(f"!tc.rows has one value per row of a wgmma accumulator: 64 rows, or 128, 192, 256 in "
                                  f"an attention loop (64 a warpgroup), not {self.m}")
        if self.dtype != "f32":
            raise VerifyException(f"!tc.rows holds f32, not {self.dtype}")


#: WMMA shapes (M, N, K) and the operand types each takes (PTX ISA wmma.mma).
WMMA_SHAPES: dict[str, tuple[int, int, int]] = {
    "m16n16k16": (16, 16, 16),
    "m32n8k16": (32, 8, 16),
    "m8n32k16": (8, 32, 16),
    "m16n16k8": (16, 16, 8),
}
WMMA_TYPES: dict[str, tuple[str, ...]] = {
    "m16n16k16": ("f16", "bf16", "s8", "u8"),
    "m32n8k16": ("f16", "bf16", "s8", "u8"),
    "m8n32k16": ("f16", "bf16", "s8", "u8"),
    "m16n16k8": ("tf32",),
}
#: 32-bit registers per fragment: (role, shape, type) -> count (PTX ISA, checked by ptxas).
WMMA_REGS: dict[tuple[str, str, str], int] = {}
for _shape in ("m16n16k16", "m32n8k16", "m8n32k16"):
    for _role in ("a", "b"):
        WMMA_REGS[(_role, _shape, "f16")] = 8
    WMMA_REGS[("c", _shape, "f16")] = 4
    WMMA_REGS[("c", _shape, "f32")] = 8
    WMMA_REGS[("c", _shape, "s32")] = 8
WMMA_REGS.update({
    ("a", "m16n16k16", "bf16"): 4, ("b", "m16n16k16", "bf16"): 4,
    ("a", "m32n8k16", "bf16"): 8, ("b", "m32n8k16", "bf16"): 2,
    ("a", "m8n32k16", "bf16"): 2, ("b", "m8n32k16", "bf16"): 8,
    ("a", "m16n16k8", "tf32"): 4, ("b", "m16n16k8", "tf32"): 4, ("c", "m16n16k8", "f32"): 8,
    ("a", "m16n16k16", "s8"): 2, ("b", "m16n16k16", "s8"): 2,
    ("a", "m32n8k16", "s8"): 4, ("b", "m32n8k16", "s8"): 1,
    ("a", "m8n32k16", "s8"): 1, ("b", "m8n32k16", "s8"): 4,
})
for (_role, _shape, _t), _n in list(WMMA_REGS.items()):
    if _t == "s8":
        WMMA_REGS[(_role, _shape, "u8")] = _n


@irdl_attr_definition
class WmmaFragType(ParametrizedAttribute, TypeAttribute):
    """``!tc.wmma_frag<a, m16n16k16, f16, row>``: a warp's WMMA fragment.

    Roles a and b carry their storage layout (row or col); c holds an
    accumulator (also the result of tc.wmma_mma) and has none.
    """

    name = "tc.wmma_frag"

    role: StringAttr
    shape: StringAttr
    element_type: Attribute
    layout: StringAttr

    def __init__(self, role: str, shape: str, elt: Attribute, layout: str = ""):
        super().__init__(StringAttr(role), StringAttr(shape), elt, StringAttr(layout))

    @property
    def dtype(self) -> str:
        return dtype_name(self.element_type)

    @property
    def registers(self) -> int:
        return WMMA_REGS[(self.role.data, self.shape.data, self.dtype)]

    @property
    def bytes(self) -> int:
        """The fragment's size per thread, which WMMA addresses must be aligned to."""
        return 4 * self.registers

    def verify(self) -> None:
        role, shape = self.role.data, self.shape.data
        if role not in ("a", "b", "c"):
            raise VerifyException(f"WMMA fragment role must be a, b or c, not {role}")
        if shape not in WMMA_SHAPES:
            raise VerifyException(f"unknown WMMA shape {shape} (known: {', '.join(WMMA_SHAPES)})")
        if (role in ("a", "b")) != (self.layout.data in ("row", "col")):
            raise VerifyException("a and b fragments need a layout (row or col); c fragments none")
        if role in ("a", "b") and self.dtype not in WMMA_TYPES[shape]:
            raise VerifyException(
                f"wmma {shape} takes {', '.join(WMMA_TYPES[shape])} operands, not {self.dtype}"
            )
        if (role, shape, self.dtype) not in WMMA_REGS:
            raise VerifyException(f"wmma {shape} has no {self.dtype} {role} fragment")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            role = parser.parse_keyword_in(("a", "b", "c"), " (a WMMA fragment role)")
            parser.parse_punctuation(",")
            shape = parser.parse_identifier(" (a WMMA shape such as m16n16k16)")
            parser.parse_punctuation(",")
            elt = parser.parse_type()
            layout = ""
            if parser.parse_optional_punctuation(","):
                layout = parser.parse_keyword_in(("row", "col"))
        return (StringAttr(role), StringAttr(shape), elt, StringAttr(layout))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.role.data}, {self.shape.data}, ")
        printer.print_attribute(self.element_type)
        if self.layout.data:
            printer.print_string(f", {self.layout.data}")
        printer.print_string(">")


# -- global-memory operands ----------------------------------------------------------


def check_global_memory(t: MemRefType, what: str) -> None:
    """A kernel's operands live in global memory: a memref with no memory space (or 0,
    the default one). Shared memory is a tile's (tc.smem_tile), not a memref's."""
    space = t.memory_space
    if isinstance(space, NoneAttr) or (isinstance(space, IntegerAttr) and space.value.data == 0):
        return
    shown = space.value.data if isinstance(space, IntegerAttr) else space
    raise VerifyException(
        f"{what} is in memory space {shown}: lower-tc's operands are global memory "
        "(a memref with no memory space); shared memory is a tc.smem_tile's"
    )


def _memref_shape(t: Attribute, what: str) -> tuple[int, int]:
    if not isinstance(t, MemRefType) or len(t.get_shape()) != 2:
        raise VerifyException(f"{what} must be a 2-d memref")
    check_global_memory(t, what)
    rows, cols = t.get_shape()
    if rows < 0 or cols < 0:
        raise VerifyException(f"{what} needs a static shape")
    return rows, cols


def matrix_strides(t: Attribute, what: str) -> tuple[int, int]:
    """(row, column) strides in elements of a 2-d global matrix.

    Row-major (the default layout, or ``strided<[ld, 1]>``) or column-major
    (``strided<[1, ld]>``), with a leading dimension ``ld`` of at least the
    contiguous extent and offset 0: what BLAS calls a matrix with a leading
    dimension, and all that copies, TMA and WMMA need.
    """
    rows, cols = _memref_shape(t, what)
    assert isinstance(t, MemRefType)
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return cols, 1
    shape = "row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>)"
    if not isinstance(layout, StridedLayoutAttr):
        raise VerifyException(f"{what} must be {shape}, not {layout}")
    strides = t.get_strides()
    if strides is None or any(s is None for s in strides):
        raise VerifyException(f"{what} needs static strides")
    if not (isinstance(layout.offset, IntAttr) and layout.offset.data == 0):
        raise VerifyException(f"{what} needs offset 0 in its strided layout")
    s0, s1 = strides
    if s1 == 1 and s0 >= cols:
        return s0, s1
    if s0 == 1 and s1 >= rows:
        return s0, s1
    raise VerifyException(
        f"{what} has strides [{s0}, {s1}]; it must be {shape} with a leading dimension "
        f"of at least its contiguous extent"
    )
