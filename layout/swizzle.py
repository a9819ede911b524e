"""Swizzle modes: their geometry, their XOR function, and every encoding of them.

Three encodings of the same mode exist (TMA tensor maps, sm_90 wgmma
descriptors, sm_100 tcgen05 descriptors). They are converted here and nowhere
else, because mixing them up gives wrong data, not errors.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

import numpy as np

from lower_tc.layout.errors import LayoutError

IntOrArray = TypeVar("IntOrArray", int, np.ndarray)


class Swizzle(Enum):
    """A shared-memory swizzle mode, named as in the command line and the IR."""

    NONE = "none"
    B32 = "32b"
    B64 = "64b"
    B128 = "128b"
    B128_BASE32B = "128b_base32b"  # sm_100 only: 128B rows, 32-byte atomicity

    @classmethod
    def parse(cls, text: str) -> "Swizzle":
        for mode in cls:
            if mode.value == text.lower():
                return mode
        known = ", ".join(m.value for m in cls)
        raise LayoutError(f"unknown swizzle mode '{text}' (known: {known})")

    def __str__(self) -> str:
        return self.value

    @property
    def row_bytes(self) -> int:
        """Bytes in one swizzle row: the contiguous extent of one atom row."""
        return _ROW_BYTES[self]

    @property
    def chunks(self) -> int:
        """W: 16-byte chunks per swizzle row (1 without swizzle)."""
        return self.row_bytes // 16

    @property
    def period(self) -> int:
        """Bytes after which the XOR pattern repeats (0: no pattern)."""
        return _PERIOD[self]

    @property
    def phases(self) -> int:
        """How many distinct 128-byte row phases the pattern has (1 without swizzle)."""
        return max(self.period // 128, 1)

    @property
    def cute(self) -> str:
        """The CuTe functor acting on byte addresses, as CuTe prints it: ``Sw<3,4,3>`` is
        ``Swizzle<3,4,3>``, x ^ ((x >> 3) & (0b111 << 4))."""
        return _CUTE[self]

    def apply(self, address: IntOrArray, phase: int = 0) -> IntOrArray:
        """The physical byte address of the unswizzled address `address`.

        The XOR takes its row bits from the absolute shared-memory address,
        shifted back by `phase` 128-byte rows: this is what the H100 does with
        a descriptor whose base offset is `phase` (DESIGN.md fact 5), and what
        TMA does with phase 0. Works on Python ints and numpy integer arrays.
        """
        if self is Swizzle.NONE:
            return address
        row = ((address >> 7) - phase) & (self.phases - 1)
        if self is Swizzle.B128_BASE32B:
            return address ^ (row << 5)
        return address ^ (row << 4)

    # -- encodings -----------------------------------------------------------

    @property
    def sm90_code(self) -> int:
        """wgmma descriptor bits 62-63."""
        try:
            return _SM90_CODE[self]
        except KeyError:
            raise LayoutError(f"swizzle {self} exists only on tcgen05 targets (sm_100a, sm_103a)") from None

    @property
    def sm100_code(self) -> int:
        """tcgen05 shared-memory descriptor bits 61-63."""
        return _SM100_CODE[self]

    @property
    def tma_code(self) -> int:
        """CUtensorMapSwizzle value for a TMA tensor map with this swizzle."""
        return _TMA_CODE[self]

    @classmethod
    def from_sm90_code(cls, code: int) -> "Swizzle":
        return _FROM_SM90[code & 0b11]

    @classmethod
    def from_sm100_code(cls, code: int) -> "Swizzle | None":
        """The mode for a 3-bit tcgen05 code; None for the reserved codes 3, 5, 7."""
        return _FROM_SM100.get(code & 0b111)


_ROW_BYTES = {
    Swizzle.NONE: 16,
    Swizzle.B32: 32,
    Swizzle.B64: 64,
    Swizzle.B128: 128,
    Swizzle.B128_BASE32B: 128,
}
_PERIOD = {
    Swizzle.NONE: 0,
    Swizzle.B32: 256,
    Swizzle.B64: 512,
    Swizzle.B128: 1024,
    Swizzle.B128_BASE32B: 512,
}
_CUTE = {
    Swizzle.NONE: "Sw<0,4,3>",
    Swizzle.B32: "Sw<1,4,3>",
    Swizzle.B64: "Sw<2,4,3>",
    Swizzle.B128: "Sw<3,4,3>",
    Swizzle.B128_BASE32B: "Sw<2,5,2>",
}
_SM90_CODE = {Swizzle.NONE: 0, Swizzle.B128: 1, Swizzle.B64: 2, Swizzle.B32: 3}
_SM100_CODE = {
    Swizzle.NONE: 0,
    Swizzle.B128_BASE32B: 1,
    Swizzle.B128: 2,
    Swizzle.B64: 4,
    Swizzle.B32: 6,
}
_TMA_CODE = {
    Swizzle.NONE: 0,
    Swizzle.B32: 1,
    Swizzle.B64: 2,
    Swizzle.B128: 3,
    Swizzle.B128_BASE32B: 4,  # CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B
}
_FROM_SM90 = {code: mode for mode, code in _SM90_CODE.items()}
_FROM_SM100 = {code: mode for mode, code in _SM100_CODE.items()}
