"""The tc dialect's attributes: the operand/copy/WMMA-layout enums, ``#tc.layout``, and the
descriptors ``#tc.desc`` and ``#tc.idesc`` that tc-compute-descriptors attaches."""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from lower_tc.layout import LayoutError, Swizzle


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
