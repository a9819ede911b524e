"""What the tensor core reads for a descriptor: an emulator built from the spec.

Deliberately independent of the encoder and of `TileLayout`: it takes the raw
64-bit value, extracts the fields itself and applies the canonical-layout
definitions of the PTX ISA (and the base-offset behaviour measured on an H100,
DESIGN.md fact 5) directly. Tests then check that both sides agree.
"""

from __future__ import annotations

import numpy as np

from lower_tc.layout.errors import LayoutError
from lower_tc.layout.targets import Arch

# Per descriptor code: (16-byte chunks per swizzle row, XOR shift, pattern rows, rows of K
# per SBO step for MN-major). 128B with 32-byte atomicity has 4-row atoms (PTX ISA swizzle
# atom table; CUTLASS SwizzleAtomKSize).
_SM90_MODES = {0: (1, 4, 1, 8), 1: (8, 4, 8, 8), 2: (4, 4, 4, 8), 3: (2, 4, 2, 8)}
_SM100_MODES = {0: (1, 4, 1, 8), 1: (8, 5, 4, 4), 2: (8, 4, 8, 8), 4: (4, 4, 4, 8), 6: (2, 4, 2, 8)}


def emulate_reads(
    value: int,
    arch: Arch,
    element_bits: int,
    mn_major: bool,
    rows: int,
    slot_bits: int | None = None,
) -> np.ndarray:
    """Byte address read for each (row, k) element of one instruction's operand.

    `rows` is the operand's M (for A) or N (for B); K is the 32 bytes of slots one
    dense instruction reads. `slot_bits` is an element's slot in shared memory where it
    differs from its data: kind::f8f6f4 reads 4-bit elements 16 to a 16-byte chunk,
    packed into its first 8 bytes (the byte of a 4-bit element holds it and its
    neighbour). Returns an int64 array of shape (rows, 256 // slot_bits).
    """
    slot = slot_bits or element_bits
    start = (value & 0x3FFF) << 4
    lbo = ((value >> 16) & 0x3FFF) << 4
    sbo = ((value >> 32) & 0x3FFF) << 4
    base_offset = (value >> 49) & 0x7
    if arch is Arch.SM90A:
        code = (value >> 62) & 0x3
        modes = _SM90_MODES
    else:
        if (value >> 46) & 0x7 != 0b001:
            raise LayoutError("tcgen05 descriptor without version 0b001 in bits 46-48")
        if (value >> 52) & 1:
            raise LayoutError("the emulator does not model the LBO absolute-address mode")
        code = (value >> 61) & 0x7
        modes = _SM100_MODES
    if code not in modes:
        raise LayoutError(f"reserved swizzle code {code}")
    chunks, shift, pattern_rows, k_rows = modes[code]
    per_chunk = 128 // slot
    row = np.arange(rows, dtype=np.int64)[:, None]
    k = np.arange(256 // slot, dtype=np.int64)[None, :]
    row_bytes = 16 * chunks

    def in_chunks(i: np.ndarray) -> np.ndarray:
        """Byte offset of element i of a run of 16-byte chunks."""
        return (i // per_chunk) * 16 + (i % per_chunk) * element_bits // 8

    if not mn_major and code == 0:
        # ((8,m),(T,2k)):((1T,SBO),(1,LBO))
        addr = start + (row // 8) * sbo + (row % 8) * 16 + (k // per_chunk) * lbo
        addr = addr + (k % per_chunk) * element_bits // 8
    elif not mn_major:
        # ((8,m),(T,2k)):((WT,SBO),(1,T)); one swizzle row holds all of K
        addr = start + (row // 8) * sbo + (row % 8) * row_bytes + in_chunks(k)
    elif code == 0:
        # ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
        addr = start + (row // per_chunk) * sbo + (row % per_chunk) * element_bits // 8
        addr = addr + (k // 8) * lbo + (k % 8) * 16
    else:
        # ((T,W,m),(8,k)):((1,T,LBO),(WT,SBO)); 128b_base32b: ((T,8,m),(4,k))
        atom = per_chunk * chunks
        addr = start + (row // atom) * lbo + in_chunks(row % atom)
        addr = addr + (k // k_rows) * sbo + (k % k_rows) * row_bytes
    if pattern_rows > 1:
        phase = ((addr >> 7) - base_offset) % pattern_rows
        addr = addr ^ (phase << shift)
    return addr
