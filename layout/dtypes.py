"""Element types of tensor-core operands, with their bit widths."""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.errors import LayoutError


@dataclass(frozen=True)
class ElementType:
    """An operand element type: its name (as written in PTX), its bit width, and the
    width of the slot it takes in a shared-memory tile.

    The slot is the element itself except for 4- and 6-bit types, which ``tcgen05.mma
    .kind::f8f6f4`` reads padded: 16 elements packed contiguously into the first 8
    (4-bit) or 12 (6-bit) bytes of each 16-byte chunk, padding after them (PTX ISA,
    tcgen05 "packing formats" in shared memory; the tensor-map types 16U4_ALIGN16B and
    16U6_ALIGN16B). So such a tile has the geometry of an 8-bit one: strides, swizzle
    and descriptors count 16 elements per chunk and 32 per instruction.
    """

    name: str
    bits: int
    is_float: bool
    slot_bits: int = 0  # 0: the element's own width

    def __post_init__(self) -> None:
        if not self.slot_bits:
            object.__setattr__(self, "slot_bits", self.bits)

    @property
    def per_chunk(self) -> int:
        """T: elements in one 16-byte chunk (the spec's normalisation factor)."""
        return 128 // self.slot_bits

    @property
    def k_per_instruction(self) -> int:
        """Elements of K one dense MMA instruction reads: always 32 bytes of slots."""
        return 256 // self.slot_bits

    @property
    def padded(self) -> bool:
        """Whether each 16-byte chunk holds padding after the elements' data."""
        return self.slot_bits != self.bits

    @property
    def chunk_data_bytes(self) -> int:
        """Bytes of element data in one 16-byte chunk (8 for 4-bit, 12 for 6-bit types)."""
        return self.per_chunk * self.bits // 8

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
        ElementType("e2m1", 4, True, slot_bits=8),
        ElementType("e2m3", 6, True, slot_bits=8),
        ElementType("e3m2", 6, True, slot_bits=8),
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
