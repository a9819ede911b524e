"""The `tc` dialect: shared-memory tiles with layouts, and the tensor-core ops on them.

A tile program is a kernel (a ``func.func`` or ``gpu.func`` carrying
``tc.target = "sm_90a"`` or ``"sm_100a"``) whose arguments are global-memory memrefs (A is M x K, B is K x N,
C and D are M x N; copy sources row- or column-major, see `matrix_strides`). Inside it:

* ``tc.smem_tile`` makes a shared-memory tile of type
  ``!tc.tile<MNxKxT, #tc.layout<major, swizzle = ..., order = ..., offset = ...>>``
  (MN is M for an A tile, N for a B tile);
* ``tc.copy`` fills a tile from a global operand, by the threads or by TMA;
* ``tc.wgmma`` (sm_90a) and ``tc.tcgen05_mma`` (sm_100a) multiply tiles into an
  accumulator ``!tc.acc<MxNxT>``, made by ``tc.acc_zero`` or ``tc.acc_load``
  and written back by ``tc.acc_store``;
* ``tc.wmma_load`` / ``tc.wmma_mma`` / ``tc.wmma_store`` are the legacy warp-level
  path on ``!tc.wmma_frag`` values, straight from global memory.

Every verifier calls the pure layout core (`lower_tc.layout`) for the rules the
hardware imposes and reports them at the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar
from enum import auto

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    FloatTF32Type,
    IntAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from lower_tc.layout import LayoutError, Major, Swizzle, TileLayout, element_type
from lower_tc.layout.instr_desc import InstrDescriptor, valid_n
from lower_tc.layout.targets import KERNEL_TARGETS, Arch, check_operand_type, swizzle_rule

#: Shared memory one block may use on H100 and B200 (227 KiB).
SMEM_CAPACITY = 227 * 1024
#: Target attribute on a kernel function.
TARGET_ATTR = "tc.target"


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


def tc_kernels(root: Operation) -> list[Operation]:
    """The tile kernels under `root`: ops carrying ``tc.target`` whose body is one
    block (``func.func``, ``gpu.func``, or any function-like op of another dialect)."""
    return [
        op for op in root.walk()
        if TARGET_ATTR in op.attributes and len(op.regions) == 1 and len(op.regions[0].blocks) == 1
    ]


def kernel_name(kernel: Operation) -> str:
    """The kernel's symbol name (its ``sym_name``, property or attribute)."""
    name = kernel.properties.get("sym_name") or kernel.attributes.get("sym_name")
    if not isinstance(name, StringAttr):
        raise VerifyException(f"the kernel ({kernel.name}) has no sym_name")
    return name.data


def kernel_body(kernel: Operation) -> Block:
    """The kernel's one block, whose arguments are its global operands."""
    return kernel.regions[0].blocks[0]


def parse_kernel_target(text: str) -> Arch:
    """A `tc.target` value: one of the targets lower-tc compiles kernels for."""
    known = ", ".join(a.value for a in KERNEL_TARGETS)
    try:
        arch = Arch.parse(text)
    except LayoutError:
        raise VerifyException(f"unknown target '{text}' (known: {known})") from None
    if arch not in KERNEL_TARGETS:
        raise VerifyException(
            f"lower-tc compiles kernels for {known}; {arch} is known to the "
            "descriptor tools (lower-tc desc) only"
        )
    return arch


def in_gemm_kernel(op: Operation) -> bool:
    """Whether `op` is in a loop-level GEMM kernel (one whose body holds an scf.for):
    there each warpgroup owns 64 rows of a taller tile."""
    parent = op.parent_op()
    while parent is not None and TARGET_ATTR not in parent.attributes:
        parent = parent.parent_op()
    if parent is None or len(parent.regions) != 1 or not parent.regions[0].blocks:
        return False
    return any(o.name == "scf.for" for o in parent.regions[0].blocks[0].ops)


def kernel_target(op: Operation) -> Arch | None:
    """The target of the kernel that holds `op` (the nearest `tc.target`)."""
    parent = op.parent_op()
    while parent is not None:
        attr = parent.attributes.get(TARGET_ATTR)
        if isinstance(attr, StringAttr):
            return parse_kernel_target(attr.data)
        parent = parent.parent_op()
    return None


# -- enums ------------------------------------------------------------------------


class Operand(StrEnum):
    A = auto()
    B = auto()


class OperandAttr(EnumAttribute[Operand], SpacedOpaqueSyntaxAttribute):
    name = "tc.operand"


class CopyVia(StrEnum):
    THREADS = auto()
    TMA = auto()


class CopyViaAttr(EnumAttribute[CopyVia], SpacedOpaqueSyntaxAttribute):
    name = "tc.via"


class WmmaLayout(StrEnum):
    ROW = auto()
    COL = auto()


class WmmaLayoutAttr(EnumAttribute[WmmaLayout], SpacedOpaqueSyntaxAttribute):
    name = "tc.wmma_layout"


# -- the layout attribute -----------------------------------------------------------

_SWIZZLE_WORDS = ("auto", "none")


def _parse_swizzle(parser: AttrParser) -> str:
    word = parser.parse_optional_keyword_in(_SWIZZLE_WORDS)
    if word is not None:
        return word
    pos = parser.pos
    width = parser.parse_integer(allow_boolean=False, context_msg=" (a swizzle: auto, none, 32b, ...)")
    suffix = parser.parse_identifier(" (a swizzle unit: b or b_base32b)")
    text = f"{width}{suffix}"
    try:
        Swizzle.parse(text)
    except LayoutError as err:
        parser.raise_error(str(err), pos, parser.pos)
    return text


def _parse_int_list(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


@irdl_attr_definition
class LayoutAttr(ParametrizedAttribute):
    """``#tc.layout<k, swizzle = 128b, order = mn_first, strides = [1024, 8192], offset = 1024>``

    `swizzle` is ``auto`` (filled by tc-choose-swizzle) or a mode; `order`
    (``mn_first`` or ``k_first``) or explicit atom `strides` (bytes, along MN
    then K); `offset` is the tile's place in dynamic shared memory (pinned by
    the user, or assigned by tc-assign-smem); -1 while unassigned. `origin`
    (optional, a 128-byte-aligned offset) says the data is swizzled relative
    to that address rather than on absolute address bits (the default, which
    TMA uses); the descriptors then carry the matching base offset.
    """

    name = "tc.layout"

    major: StringAttr
    swizzle: StringAttr
    order: StringAttr
    strides: ArrayAttr[IntAttr]
    offset: IntAttr
    origin: IntAttr

    def __init__(
        self,
        major: str,
        swizzle: str = "auto",
        order: str = "mn_first",
        strides: Sequence[int] = (),
        offset: int = -1,
        origin: int = -1,
    ):
        super().__init__(
            StringAttr(major),
            StringAttr(swizzle),
            StringAttr(order),
            ArrayAttr([IntAttr(s) for s in strides]),
            IntAttr(offset),
            IntAttr(origin),
        )

    @property
    def is_auto(self) -> bool:
        return self.swizzle.data == "auto"

    @property
    def has_offset(self) -> bool:
        return self.offset.data >= 0

    def with_(self, **changes: object) -> "LayoutAttr":
        fields = {
            "major": self.major.data,
            "swizzle": self.swizzle.data,
            "order": self.order.data,
            "strides": [s.data for s in self.strides.data],
            "offset": self.offset.data,
            "origin": self.origin.data,
        }
        fields.update(changes)
        return LayoutAttr(**fields)  # type: ignore[arg-type]

    def verify(self) -> None:
        if self.major.data not in ("k", "mn"):
            raise VerifyException(f"major-ness must be k or mn, not {self.major.data}")
        if self.order.data not in ("mn_first", "k_first"):
            raise VerifyException(f"atom order must be mn_first or k_first, not {self.order.data}")
        if self.swizzle.data not in _SWIZZLE_WORDS:
            try:
                Swizzle.parse(self.swizzle.data)
            except LayoutError as err:
                raise VerifyException(str(err)) from None
        if len(self.strides.data) not in (0, 2):
            raise VerifyException("strides takes two byte strides: [along MN, along K]")
        if self.offset.data < -1:
            raise VerifyException(f"offset {self.offset.data} is negative")
        if self.origin.data < -1:
            raise VerifyException(f"origin {self.origin.data} is negative")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            major = parser.parse_keyword_in(("k", "mn"), " (the major-ness: k or mn)")
            fields: dict[str, object] = {}
            while parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                key = parser.parse_keyword_in(("swizzle", "order", "strides", "offset", "origin"))
                if key in fields:
                    parser.raise_error(f"'{key}' given twice", pos, parser.pos)
                parser.parse_punctuation("=")
                if key == "swizzle":
                    fields[key] = _parse_swizzle(parser)
                elif key == "order":
                    fields[key] = parser.parse_keyword_in(("mn_first", "k_first"))
                elif key == "strides":
                    fields[key] = _parse_int_list(parser)
                else:
                    value = parser.parse_integer(allow_boolean=False)
                    if value < 0:  # -1 is the internal "not assigned yet"
                        parser.raise_error(f"{key} must be a non-negative byte offset", pos, parser.pos)
                    fields[key] = value
            if "order" in fields and "strides" in fields:
                parser.raise_error("give either an atom order or explicit strides, not both")
        attr = LayoutAttr(major, **fields)  # type: ignore[arg-type]
        return (attr.major, attr.swizzle, attr.order, attr.strides, attr.offset, attr.origin)

    def print_parameters(self, printer: Printer) -> None:
        parts = [self.major.data, f"swizzle = {self.swizzle.data}"]
        if self.strides.data:
            parts.append(f"strides = [{', '.join(str(s.data) for s in self.strides.data)}]")
        elif self.order.data != "mn_first":
            parts.append(f"order = {self.order.data}")
        if self.has_offset:
            parts.append(f"offset = {self.offset.data}")
        if self.origin.data >= 0:
            parts.append(f"origin = {self.origin.data}")
        printer.print_string(f"<{', '.join(parts)}>")


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


@irdl_attr_definition
class AccType(ParametrizedAttribute, TypeAttribute):
    """``!tc.acc<64x128xf32>``: an M x N accumulator (registers, or tensor memory on sm_100a)."""

    name = "tc.acc"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[int], elt: Attribute):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), elt)

    @property
    def m(self) -> int:
        return self.shape.data[0].data

    @property
    def n(self) -> int:
        return self.shape.data[1].data

    @property
    def dtype(self) -> str:
        return dtype_name(self.element_type)

    def verify(self) -> None:
        if len(self.shape.data) != 2:
            raise VerifyException("an accumulator is 2-d: M x N")
        if self.dtype not in ("f32", "f16", "s32"):
            raise VerifyException(f"accumulators are f32, f16 or s32 (i32), not {self.dtype}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elt = _parse_shape_and_type(parser)
        return (ArrayAttr([IntAttr(d) for d in dims]), elt)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_shape_and_type(printer, (self.m, self.n), self.element_type)


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


# -- descriptor attributes (set by tc-compute-descriptors) ------------------------------


@irdl_attr_definition
class DescAttr(ParametrizedAttribute):
    """One K-slice's matrix descriptor, readable and exact:
    ``#tc.desc<k = 16, start = 0x20, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010002>``.

    Start addresses are relative to the dynamic shared-memory base (1024-byte
    aligned); the kernel adds the base's ``>> 4`` to the value at run time.
    """

    name = "tc.desc"

    k: IntAttr
    start: IntAttr
    lbo: IntAttr
    sbo: IntAttr
    base_offset: IntAttr
    swizzle: StringAttr
    value: IntAttr

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<k = {self.k.data}, start = {self.start.data:#x}, lbo = {self.lbo.data}, "
            f"sbo = {self.sbo.data}, base_offset = {self.base_offset.data}, "
            f"swizzle = {self.swizzle.data}, value = {self.value.data:#018x}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, object] = {}
        keys = ("k", "start", "lbo", "sbo", "base_offset", "swizzle", "value")
        with parser.in_angle_brackets():
            for i, key in enumerate(keys):
                if i:
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                values[key] = _parse_swizzle(parser) if key == "swizzle" else parser.parse_integer(
                    allow_boolean=False
                )
        return tuple(
            StringAttr(values[k]) if k == "swizzle" else IntAttr(values[k])  # type: ignore[arg-type]
            for k in keys
        )


@irdl_attr_definition
class IdescAttr(ParametrizedAttribute):
    """A tcgen05 instruction descriptor: ``#tc.idesc<kind = f16, a = bf16, b = bf16, d = f32,
    m = 128, n = 64, a_major = k, b_major = k, value = 0x08100490>``."""

    name = "tc.idesc"

    kind: StringAttr
    a: StringAttr
    b: StringAttr
    d: StringAttr
    m: IntAttr
    n: IntAttr
    a_major: StringAttr
    b_major: StringAttr
    value: IntAttr

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<kind = {self.kind.data}, a = {self.a.data}, b = {self.b.data}, d = {self.d.data}, "
            f"m = {self.m.data}, n = {self.n.data}, a_major = {self.a_major.data}, "
            f"b_major = {self.b_major.data}, value = {self.value.data:#010x}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        keys = ("kind", "a", "b", "d", "m", "n", "a_major", "b_major", "value")
        out: list[Attribute] = []
        with parser.in_angle_brackets():
            for i, key in enumerate(keys):
                if i:
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                if key in ("m", "n", "value"):
                    out.append(IntAttr(parser.parse_integer(allow_boolean=False)))
                else:
                    out.append(StringAttr(parser.parse_identifier()))
        return out


# -- ops ----------------------------------------------------------------------------


def _memref_shape(t: Attribute, what: str) -> tuple[int, int]:
    if not isinstance(t, MemRefType) or len(t.get_shape()) != 2:
        raise VerifyException(f"{what} must be a 2-d memref")
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


def _check_target(op: Operation, arch: Arch) -> None:
    target = kernel_target(op)
    if target is not None and target is not arch:
        raise VerifyException(f"{op.name} needs target {arch}, but the kernel targets {target}")


@irdl_op_definition
class SmemTileOp(IRDLOperation):
    """Allocates a tile in shared memory: ``%a = tc.smem_tile : !tc.tile<...>``."""

    name = "tc.smem_tile"
    tile = result_def(TileType)
    assembly_format = "attr-dict `:` type($tile)"

    def __init__(self, tile_type: TileType):
        super().__init__(result_types=[tile_type])

    def verify_(self) -> None:
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
        footprint = tile.tile_layout().footprint
        start = max(lay.offset.data, 0)
        if start + footprint > SMEM_CAPACITY:
            raise VerifyException(
                f"tile needs shared memory up to {start + footprint} bytes, beyond the "
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
                raise VerifyException(
                    f"TMA copies of {tile.dtype} tiles need the padded 16U{etype.bits}_ALIGN16B "
                    "tensor-map type, which lower-tc does not emit yet: copy via threads"
                )
            if s_k != 1 or s_mn * etype.bits % 8:
                raise VerifyException(
                    f"thread copies of {tile.dtype} read 16 packed elements per chunk: the global "
                    "matrix must be contiguous along K with rows starting on whole bytes "
                    f"(a leading dimension times {etype.bits} bits a multiple of 8)"
                )
        if self.via.data is CopyVia.TMA:
            if tile.layout.origin.data >= 0:
                raise VerifyException(
                    "TMA swizzles on absolute address bits: a tile with a swizzle origin "
                    "must be copied via threads"
                )
            # which logical dimension is contiguous in global memory, and its name
            row_contiguous = s_col == 1
            dims = ("M", "K") if role is Operand.A else ("K", "N")
            contiguous_dim = dims[1] if row_contiguous else dims[0]
            contiguous_major = Major.K if contiguous_dim == "K" else Major.MN
            if tile.major is not contiguous_major:
                other = "column" if row_contiguous else "row"
                raise VerifyException(
                    f"TMA cannot transpose: operand {role}'s global matrix is contiguous along "
                    f"{contiguous_dim}, so its tile must be {contiguous_major}-major for a TMA "
                    f"copy; store it {other}-major or copy via threads"
                )
            lay = tile.layout
            places = [("offset", lay.offset.data)] if lay.has_offset else []
            places += [(f"atom stride along {d}", v.data) for d, v in zip(("MN", "K"), lay.strides.data)]
            for what, value in places:
                if value % 128:
                    raise VerifyException(
                        f"TMA writes shared memory at 128-byte-aligned addresses: the tile's "
                        f"{what} {value} is not a multiple of 128 (docs/base-offset.md)"
                    )
            bits = element_bits(self.src.type.element_type)
            ld_bytes = (s_row if row_contiguous else s_col) * bits // 8
            if ld_bytes % 16:
                raise VerifyException(
                    f"TMA needs a leading dimension of a multiple of 16 bytes, not {ld_bytes}"
                )


@irdl_op_definition
class AccZeroOp(IRDLOperation):
    """A zero accumulator: ``%acc = tc.acc_zero : !tc.acc<64x128xf32>``."""

    name = "tc.acc_zero"
    acc = result_def(AccType)
    assembly_format = "attr-dict `:` type($acc)"

    def __init__(self, acc_type: AccType):
        super().__init__(result_types=[acc_type])

    def verify_(self) -> None:
        _check_acc_shape(self, self.acc.type)


@irdl_op_definition
class AccLoadOp(IRDLOperation):
    """An accumulator initialised from C: ``%acc = tc.acc_load %C : memref<..> -> !tc.acc<..>``."""

    name = "tc.acc_load"
    src = operand_def(MemRefType)
    acc = result_def(AccType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($acc)"

    def verify_(self) -> None:
        _check_acc_shape(self, self.acc.type)
        _check_acc_memref(self.acc.type, self.src.type, "C")


@irdl_op_definition
class AccStoreOp(IRDLOperation):
    """Writes an accumulator to global memory: ``tc.acc_store %acc to %D : !tc.acc<..>, memref<..>``."""

    name = "tc.acc_store"
    acc = operand_def(AccType)
    dst = operand_def(MemRefType)
    assembly_format = "$acc `to` $dst attr-dict `:` type($acc) `,` type($dst)"

    def verify_(self) -> None:
        _check_acc_memref(self.acc.type, self.dst.type, "D")


def _check_acc_shape(op: Operation, acc: Attribute) -> None:
    """An accumulator the kernel's tensor cores can hold: wgmma's is one warpgroup's
    M = 64 register fragment, tcgen05's M = 64 or 128 rows of tensor memory; N as the
    MMA instructions allow (the stores assume it)."""
    assert isinstance(acc, AccType)
    arch = kernel_target(op)
    if arch is None:
        return
    integer = acc.dtype == "s32"
    if arch is Arch.SM90A:
        if in_gemm_kernel(op):
            if acc.m % 64 or not 64 <= acc.m <= 256:
                raise VerifyException(
                    f"a GEMM kernel's accumulator has M = 64, 128, 192 or 256 (one warpgroup "
                    f"per 64 rows), not {acc.m}"
                )
        elif acc.m != 64:
            raise VerifyException(f"a wgmma accumulator has M = 64 (one warpgroup's registers), not {acc.m}")
        ok_n = wgmma_valid_n("s8" if integer else "f16")
    else:
        if acc.m not in (64, 128):
            raise VerifyException(f"a tcgen05 accumulator has M = 64 or 128 (tensor-memory lanes), not {acc.m}")
        ok_n = valid_n("i8" if integer else "f16")
    if acc.n not in ok_n:
        rule = "8, 16, 24, then multiples of 16" if integer else "a multiple of 8"
        raise VerifyException(f"an accumulator's N must be {rule} from 8 to 256, not {acc.n}")


def _check_acc_memref(acc: Attribute, mem: Attribute, what: str) -> None:
    assert isinstance(acc, AccType)
    rows, cols = _memref_shape(mem, what)
    if (rows, cols) != (acc.m, acc.n):
        raise VerifyException(f"{what} is {rows}x{cols} but the accumulator is {acc.m}x{acc.n}")
    if matrix_strides(mem, what) != (cols, 1):
        raise VerifyException(f"{what} must be dense and row-major (the default memref layout)")
    assert isinstance(mem, MemRefType)
    if dtype_name(mem.element_type) != acc.dtype:
        raise VerifyException(
            f"{what} holds {dtype_name(mem.element_type)} but the accumulator is {acc.dtype}"
        )


#: wgmma accumulators per A/B type (PTX ISA; bf16 and tf32 accumulate in f32 only).
WGMMA_ACCUMULATORS = {
    "f16": ("f32", "f16"),
    "bf16": ("f32",),
    "tf32": ("f32",),
    "e4m3": ("f32", "f16"),
    "e5m2": ("f32", "f16"),
    "s8": ("s32",),
    "u8": ("s32",),
}


def wgmma_valid_n(dtype: str) -> tuple[int, ...]:
    """N of wgmma.mma_async: multiples of 8 up to 256; s8/u8: 8, 16, 24, then steps of 16."""
    if dtype in ("s8", "u8"):
        return (8, 16, 24) + tuple(range(32, 257, 16))
    return tuple(range(8, 257, 8))


def _check_pair(a: TileType, b: TileType, acc: AccType) -> None:
    if a.k != b.k:
        raise VerifyException(f"A has K = {a.k} but B has K = {b.k}")
    if (acc.m, acc.n) != (a.mn, b.mn):
        raise VerifyException(
            f"the accumulator is {acc.m}x{acc.n} but A x B is {a.mn}x{b.mn}"
        )
    kpi = element_type(a.dtype).k_per_instruction
    if a.k % kpi:
        raise VerifyException(
            f"K = {a.k} is not a whole number of {kpi}-element (32-byte) instruction K-slices"
        )


def _check_acc_consumed(mma: Operation, acc: SSAValue) -> None:
    """An MMA updates its accumulator in place (registers or tensor memory), so the
    input value no longer exists afterwards: only the MMA's result may be used."""
    later = set()
    op = mma.next_op
    while op is not None:
        later.add(op)
        op = op.next_op
    for use in acc.uses:
        if use.operation in later:
            raise VerifyException(
                f"the accumulator is used again after this MMA (by {use.operation.name}), "
                "but the MMA updates it in place: use the MMA's result instead"
            )


@irdl_op_definition
class WgmmaOp(IRDLOperation):
    """``%d = tc.wgmma %a, %b, %acc : !tc.tile<...>, !tc.tile<...>, !tc.acc<...>`` (sm_90a).

    One wgmma.mma_async per 32-byte K-slice of the tiles, accumulating into
    %acc. With ``a_in_registers``, A is first loaded from its tile into the
    warpgroup's registers (the register form of wgmma).
    """

    name = "tc.wgmma"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    a = operand_def(TileType)
    b = operand_def(TileType)
    acc = operand_def(ACC)
    result = result_def(ACC)
    a_in_registers = opt_prop_def(UnitAttr)
    assembly_format = (
        "$a `,` $b `,` $acc (`a_in_registers` $a_in_registers^)? attr-dict "
        "`:` type($a) `,` type($b) `,` type($acc)"
    )

    def __init__(self, a: SSAValue, b: SSAValue, acc: SSAValue, a_in_registers: bool = False):
        super().__init__(
            operands=[a, b, acc],
            result_types=[acc.type],
            properties={"a_in_registers": UnitAttr()} if a_in_registers else {},
        )

    def verify_(self) -> None:
        a, b, acc = self.a.type, self.b.type, self.acc.type
        assert isinstance(a, TileType) and isinstance(b, TileType) and isinstance(acc, AccType)
        _check_target(self, Arch.SM90A)
        if a.mn != 64 and not (in_gemm_kernel(self) and a.mn % 64 == 0 and a.mn <= 256):
            raise VerifyException(f"wgmma has M = 64: the A tile is {a.mn}x{a.k}")
        pair = {a.dtype, b.dtype}
        same_kind = a.dtype == b.dtype or pair <= {"e4m3", "e5m2"} or pair <= {"s8", "u8"}
        if not same_kind:
            raise VerifyException(f"wgmma cannot multiply {a.dtype} by {b.dtype}")
        try:
            check_operand_type(Arch.SM90A, a.dtype, a.major is Major.MN)
            check_operand_type(Arch.SM90A, b.dtype, b.major is Major.MN)
        except LayoutError as err:
            raise VerifyException(str(err)) from None
        if b.mn not in wgmma_valid_n(a.dtype):
            rule = "8, 16, 24, then multiples of 16" if a.dtype in ("s8", "u8") else "a multiple of 8"
            raise VerifyException(f"wgmma N must be {rule} from 8 to 256, not {b.mn}")
        _check_pair(a, b, acc)
        if acc.dtype not in WGMMA_ACCUMULATORS[a.dtype]:
            allowed = " or ".join(WGMMA_ACCUMULATORS[a.dtype])
            raise VerifyException(f"wgmma with {a.dtype} accumulates in {allowed}, not {acc.dtype}")
        if self.a_in_registers is not None and a.major is not Major.K:
            raise VerifyException("wgmma with A in registers needs a K-major A tile")
        _check_acc_consumed(self, self.acc)


@irdl_op_definition
class Tcgen05MmaOp(IRDLOperation):
    """``%d = tc.tcgen05_mma %a, %b, %acc : ...`` (sm_100a): accumulates in tensor memory."""

    name = "tc.tcgen05_mma"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    a = operand_def(TileType)
    b = operand_def(TileType)
    acc = operand_def(ACC)
    result = result_def(ACC)
    a_in_tmem = opt_prop_def(UnitAttr)
    assembly_format = (
        "$a `,` $b `,` $acc (`a_in_tmem` $a_in_tmem^)? attr-dict "
        "`:` type($a) `,` type($b) `,` type($acc)"
    )

    def instr_descriptor(self) -> InstrDescriptor:
        a, b, acc = self.a.type, self.b.type, self.acc.type
        assert isinstance(a, TileType) and isinstance(b, TileType) and isinstance(acc, AccType)
        return InstrDescriptor(
            a.dtype, b.dtype, acc.dtype, acc.m, acc.n,
            a.major is Major.MN, b.major is Major.MN,
        )

    def verify_(self) -> None:
        a, b, acc = self.a.type, self.b.type, self.acc.type
        assert isinstance(a, TileType) and isinstance(b, TileType) and isinstance(acc, AccType)
        _check_target(self, Arch.SM100A)
        _check_pair(a, b, acc)
        try:
            check_operand_type(Arch.SM100A, a.dtype, a.major is Major.MN)
            check_operand_type(Arch.SM100A, b.dtype, b.major is Major.MN)
            self.instr_descriptor().check()
        except LayoutError as err:
            raise VerifyException(str(err)) from None
        if self.a_in_tmem is not None:
            if a.major is not Major.K:
                raise VerifyException("tcgen05.mma with A in tensor memory needs a K-major A tile")
            if element_type(a.dtype).padded:
                raise VerifyException(
                    f"A from tensor memory holds {a.dtype} in 8-bit containers (tcgen05.cp "
                    "expansion), which lower-tc does not emit: keep A in shared memory"
                )
            if acc.m == 128 and acc.n % 16:
                raise VerifyException(
                    f"tcgen05.mma with A in tensor memory and M = 128 needs N a multiple of 16, "
                    f"not {acc.n} (CUTLASS's UMMA TS atoms; lower-tc keeps their rule)"
                )
        _check_acc_consumed(self, self.acc)


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


TC = Dialect(
    "tc",
    [
        SmemTileOp,
        CopyOp,
        AccZeroOp,
        AccLoadOp,
        AccStoreOp,
        WgmmaOp,
        Tcgen05MmaOp,
        WmmaLoadOp,
        WmmaMmaOp,
        WmmaZeroOp,
        WmmaStoreOp,
    ],
    [
        LayoutAttr,
        TileType,
        AccType,
        WmmaFragType,
        DescAttr,
        IdescAttr,
        OperandAttr,
        CopyViaAttr,
        WmmaLayoutAttr,
    ],
)
