"""Pure layout and descriptor math for tensor-core operands in shared memory.

This package imports neither xDSL nor CUDA: it can be read, tested and reused
alone. Everything else in lower-tc calls it; nothing re-derives it.

Units: bytes unless a name says otherwise. ``T`` is the number of elements in
one 16-byte chunk (128 / element bits); ``W`` is the swizzle row width in
16-byte chunks (none 1, 32B 2, 64B 4, 128B 8).
"""

from lower_tc.layout.errors import LayoutError
from lower_tc.layout.dtypes import ElementType, element_type, ELEMENT_TYPES
from lower_tc.layout.swizzle import Swizzle
from lower_tc.layout.targets import Arch
from lower_tc.layout.tile import AtomOrder, Major, TileLayout
from lower_tc.layout.choose import SwizzleChoice, choose_placed_swizzle, choose_swizzle
from lower_tc.layout.descriptor import (
    KSlice,
    MatrixDescriptor,
    base_offset_for,
    check_operand_layout,
    decode_descriptor,
    descriptor_for_layout,
    k_slices,
)
from lower_tc.layout.instr_desc import InstrDescriptor
from lower_tc.layout.emulator import emulate_reads

__all__ = [
    "ELEMENT_TYPES",
    "Arch",
    "AtomOrder",
    "ElementType",
    "InstrDescriptor",
    "KSlice",
    "LayoutError",
    "Major",
    "MatrixDescriptor",
    "Swizzle",
    "SwizzleChoice",
    "TileLayout",
    "base_offset_for",
    "check_operand_layout",
    "choose_placed_swizzle",
    "choose_swizzle",
    "decode_descriptor",
    "descriptor_for_layout",
    "element_type",
    "emulate_reads",
    "k_slices",
]
