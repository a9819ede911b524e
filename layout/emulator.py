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

# (16-byte chunks per swizzle row, XOR shift, pattern rows) per descriptor code.
_SM90_MODES = {0: (1, 4, 1), 1: (8, 4, 8), 2: (4, 4, 4), 3: (2, 4, 2)}
_SM100_MODES = {0: (1, 4, 1), 1: (8, 5, 4), 2: (8, 4, 8), 4: (4, 4, 4), 6: (2, 4, 2)}


def emulate_reads(
    value: int, arch: Arch, element_bits: int, mn_major: bool, rows: int
) -> np.ndarray:
    """Byte address read for each (row, k) element of one instruction's operand.

    `rows` is the operand's M (for A) or N (for B); K is the 32 bytes one dense
    instruction reads. Returns an int64 array of shape (rows, 256 // bits).
    """
    start = (value & 0x3FFF) << 4
    lbo = ((value >> 16) & 0x3FFF) << 4
    sbo = ((value >> 32) & 0x3FFF) << 4
    base_offset = (value >> 49) & 0x7
    if arch is Arch.SM90A:
        code = (value >> 62) & 0x3
        modes = _SM90_MODES
    else:
        if (value >> 46) & 0x7 != 0b001:
            raise LayoutError("sm_100a descriptor without version 0b001 in bits 46-48")
        if (value >> 52) & 1:
            raise LayoutError("the emulator does not model the LBO absolute-address mode")
        code = (value >> 61) & 0x7
        modes = _SM100_MODES
    if code not in modes:
        raise LayoutError(f"reserved swizzle code {code}")
    chunks, shift, pattern_rows = modes[code]
    per_chunk = 128 // element_bits
    row = np.arange(rows, dtype=np.int64)[:, None]
    k = np.arange(256 // element_bits, dtype=np.int64)[None, :]
    row_bytes = 16 * chunks

    if not mn_major and code == 0:
        # ((8,m),(T,2k)):((1T,SBO),(1,LBO))
        addr = start + (row // 8) * sbo + (row % 8) * 16 + (k // per_chunk) * lbo
        addr = addr + (k % per_chunk) * element_bits // 8
    elif not mn_major:
        # ((8,m),(T,2k)):((WT,SBO),(1,T)); one swizzle row holds all of K
        addr = start + (row // 8) * sbo + (row % 8) * row_bytes + k * element_bits // 8
    elif code == 0:
        # ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
        addr = start + (row // per_chunk) * sbo + (row % per_chunk) * element_bits // 8
        addr = addr + (k // 8) * lbo + (k % 8) * 16
    else:
        # ((T,W,m),(8,k)):((1,T,LBO),(WT,SBO))
        atom = per_chunk * chunks
        addr = start + (row // atom) * lbo + (row % atom) * element_bits // 8
        addr = addr + (k // 8) * sbo + (k % 8) * row_bytes
    if pattern_rows > 1:
        phase = ((addr >> 7) - base_offset) % pattern_rows
        addr = addr ^ (phase << shift)
    return addr
