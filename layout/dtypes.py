"""Element types of tensor-core operands, with their bit widths."""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.errors import LayoutError


@dataclass(frozen=True)
class ElementType:
    """An operand element type: its name (as written in PTX) and bit width."""

    name: str
    bits: int
    is_float: bool

    @property
    def per_chunk(self) -> int:
        """T: elements in one 16-byte chunk (the spec's normalisation factor)."""
        return 128 // self.bits

    @property
    def k_per_instruction(self) -> int:
        """Elements of K one dense MMA instruction reads: always 32 bytes."""
        return 256 // self.bits

    def __str__(self) -> str:
        return self.name


ELEMENT_TYPES: dict[str, ElementType] = {
    t.name: t
    for t in (
        ElementType("f16", 16, True),
        ElementType("bf16", 16, True),
        ElementType("tf32", 32, True),
        ElementType("f32", 32, True),
        ElementType("e4m3", 8, True),
        ElementType("e5m2", 8, True),
        ElementType("e2m1", 4, True),
        ElementType("s8", 8, False),
        ElementType("u8", 8, False),
    )
}


def element_type(name: str | ElementType) -> ElementType:
    """Look an element type up by name; unknown names are a LayoutError."""
    if isinstance(name, ElementType):
        return name
    try:
        return ELEMENT_TYPES[name]
    except KeyError:
        known = ", ".join(ELEMENT_TYPES)
        raise LayoutError(f"unknown element type '{name}' (known: {known})") from None
