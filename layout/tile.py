"""A shared-memory tile layout: where every element of an MN x K operand lives.

A tile is a grid of swizzle atoms (PTX ISA "swizzle layout atom"):

* K-major: an atom is 8 rows (along M/N) of one swizzle row of K
  (16, 32, 64 or 128 bytes); rows are dense inside the atom.
* MN-major: an atom is 8 rows (along K) of one swizzle row of M/N.

Without swizzle the atom is the 8 x 16-byte core matrix. Atoms are placed
MN-first, K-first, or at explicit byte strides (padded tiles, sub-tiles of a
larger tile). The XOR swizzle then acts on the absolute shared-memory address
(as TMA writes it), or on addresses relative to an explicit pattern origin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from lower_tc.layout.dtypes import ElementType, element_type
from lower_tc.layout.errors import LayoutError
from lower_tc.layout.swizzle import Swizzle

#: Bytes of the shared-memory window a descriptor can address: 14 bits of x >> 4.
DESCRIPTOR_WINDOW = 1 << 18
#: Rows of an atom along its strided dimension (8 rows of 16-byte chunks; 4 rows of
#: 128 bytes for 128b_base32b, PTX ISA "swizzle atom" table and CUTLASS SwizzleAtomKSize).
ATOM_ROWS = 8


def atom_rows(swizzle: Swizzle) -> int:
    """Rows of one swizzle atom along its strided dimension."""
    return 4 if swizzle is Swizzle.B128_BASE32B else ATOM_ROWS


class Major(Enum):
    """Which dimension of the operand is contiguous in shared memory."""

    K = "k"
    MN = "mn"

    @classmethod
    def parse(cls, text: str) -> "Major":
        for major in cls:
            if major.value == text.lower():
                return major
        raise LayoutError(f"unknown major-ness '{text}' (known: k, mn)")

    def __str__(self) -> str:
        return self.value


class AtomOrder(Enum):
    """How the atoms of a tile follow each other in memory."""

    MN_FIRST = "mn-first"  # consecutive atoms step along M/N
    K_FIRST = "k-first"  # consecutive atoms step along K

    @classmethod
    def parse(cls, text: str) -> "AtomOrder":
        norm = text.lower().replace("_", "-")
        for order in cls:
            if order.value == norm:
                return order
        raise LayoutError(f"unknown atom order '{text}' (known: mn-first, k-first)")

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class TileLayout:
    """An MN x K operand tile in shared memory.

    `address` is the tile's start in shared memory. `atom_strides`, when
    given, is the byte distance between neighbouring atoms (along MN, along K)
    and overrides `order`. `swizzle_origin` is where the XOR pattern starts:
    None means it follows the absolute address bits (what TMA writes); an
    address means the data was swizzled relative to that address.
    """

    dtype: ElementType
    mn: int
    k: int
    major: Major = Major.K
    swizzle: Swizzle = Swizzle.NONE
    order: AtomOrder = AtomOrder.MN_FIRST
    atom_strides: tuple[int, int] | None = None
    address: int = 0
    swizzle_origin: int | None = None
    _strides: tuple[int, int] = field(init=False, repr=False, compare=False)

    @classmethod
    def make(
        cls,
        dtype: str | ElementType,
        mn: int,
        k: int,
        major: str | Major = Major.K,
        swizzle: str | Swizzle = Swizzle.NONE,
        order: str | AtomOrder = AtomOrder.MN_FIRST,
        atom_strides: tuple[int, int] | None = None,
        address: int = 0,
        swizzle_origin: int | None = None,
    ) -> "TileLayout":
        """Build a layout from names as written on a command line or in IR."""
        return cls(
            element_type(dtype),
            mn,
            k,
            major if isinstance(major, Major) else Major.parse(major),
            swizzle if isinstance(swizzle, Swizzle) else Swizzle.parse(swizzle),
            order if isinstance(order, AtomOrder) else AtomOrder.parse(order),
            tuple(atom_strides) if atom_strides is not None else None,
            address,
            swizzle_origin,
        )

    def __post_init__(self) -> None:
        self._check_shape()
        n_mn, n_k = self.atoms
        if self.atom_strides is None:
            size = self.atom_bytes
            strides = (size, n_mn * size) if self.order is AtomOrder.MN_FIRST else (n_k * size, size)
        else:
            strides = self.atom_strides
        object.__setattr__(self, "_strides", strides)
        self._check_placement()

    # -- geometry --------------------------------------------------------------

    @property
    def atom_shape(self) -> tuple[int, int]:
        """(MN elements, K elements) of one atom."""
        row_elems = self.swizzle.row_bytes * 8 // self.dtype.slot_bits
        rows = atom_rows(self.swizzle)
        if self.major is Major.K:
            return (rows, row_elems)
        return (row_elems, rows)

    @property
    def atom_bytes(self) -> int:
        return atom_rows(self.swizzle) * self.swizzle.row_bytes

    @property
    def atoms(self) -> tuple[int, int]:
        """(atoms along MN, atoms along K)."""
        a_mn, a_k = self.atom_shape
        return (self.mn // a_mn, self.k // a_k)

    @property
    def strides(self) -> tuple[int, int]:
        """Byte distance between neighbouring atoms: (along MN, along K)."""
        return self._strides

    @property
    def phase(self) -> int:
        """128-byte row phase of the swizzle pattern origin (0: absolute bits)."""
        if self.swizzle_origin is None or self.swizzle is Swizzle.NONE:
            return 0
        return (self.swizzle_origin >> 7) & (self.swizzle.phases - 1)

    @property
    def footprint(self) -> int:
        """Bytes from the tile's start to one past its last byte."""
        n_mn, n_k = self.atoms
        s_mn, s_k = self.strides
        return (n_mn - 1) * s_mn + (n_k - 1) * s_k + self.atom_bytes

    @property
    def size_bytes(self) -> int:
        """Bytes the elements' slots occupy (without padding between atoms)."""
        return self.mn * self.k * self.dtype.slot_bits // 8

    @property
    def contiguous_bytes(self) -> int:
        """The tile's extent along its contiguous dimension, in bytes."""
        extent = self.k if self.major is Major.K else self.mn
        return extent * self.dtype.slot_bits // 8

    # -- addresses -------------------------------------------------------------

    def linear_addresses(self, mn: np.ndarray | int, k: np.ndarray | int) -> np.ndarray:
        """Unswizzled byte addresses of elements (mn, k); arrays broadcast."""
        mn = np.asarray(mn, dtype=np.int64)
        k = np.asarray(k, dtype=np.int64)
        a_mn, a_k = self.atom_shape
        s_mn, s_k = self.strides
        row_bytes = self.swizzle.row_bytes
        per = self.dtype.per_chunk
        if self.major is Major.K:
            row, col = mn % a_mn, k % a_k
        else:
            row, col = k % a_k, mn % a_mn
        return (
            self.address
            + (mn // a_mn) * s_mn
            + (k // a_k) * s_k
            + row * row_bytes
            + (col // per) * 16  # the element's 16-byte chunk in the row
            + ((col % per) * self.dtype.bits) // 8  # its byte there (padding follows 4-bit data)
        )

    def addresses(self, mn: np.ndarray | int, k: np.ndarray | int) -> np.ndarray:
        """Physical byte addresses of elements (mn, k) after the swizzle."""
        return self.swizzle.apply(self.linear_addresses(mn, k), self.phase)

    def address_map(self) -> np.ndarray:
        """The physical byte address of every element, as an (mn, k) array."""
        mn, k = np.meshgrid(np.arange(self.mn), np.arange(self.k), indexing="ij")
        return self.addresses(mn, k)

    # -- text ------------------------------------------------------------------

    def canonical(self) -> str:
        """The tile's shared-memory layout as CuTe prints it, numbers filled in:
        ``Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,8,1)):((64,512),(1,8,4096))``.

        Read right to left, as CuTe composes: the layout maps (MN, K) to an offset in
        elements (slots, for the padded 4- and 6-bit types: ``smem_ptr[8b]``, as
        CUTLASS's ``*_unpacksmem_t`` types); the pointer of that width turns it into the
        byte address start + offset * width / 8; the swizzle functor acts on that byte
        address (the absolute one, or relative to `swizzle_origin`; docs/layout.md).
        """
        t = self.dtype.per_chunk
        w = self.swizzle.chunks
        rows = atom_rows(self.swizzle)
        n_mn, n_k = self.atoms
        s_mn, s_k = (s * 8 // self.dtype.slot_bits for s in self.strides)
        sw = self.swizzle.cute
        if self.major is Major.K:
            if self.swizzle is Swizzle.NONE:
                body = f"((8,{n_mn}),({t},{n_k})):(({t},{s_mn}),(1,{s_k}))"
            else:
                body = f"((8,{n_mn}),({t},{w},{n_k})):(({w * t},{s_mn}),(1,{t},{s_k}))"
        elif self.swizzle is Swizzle.NONE:
            body = f"(({t},1,{n_mn}),(8,{n_k})):((1,{t},{s_mn}),({t},{s_k}))"
        else:
            body = f"(({t},{w},{n_mn}),({rows},{n_k})):((1,{t},{s_mn}),({w * t},{s_k}))"
        return f"{sw} o smem_ptr[{self.dtype.slot_bits}b](unset) o {body}"

    def __str__(self) -> str:
        return (
            f"{self.mn}x{self.k}x{self.dtype} {self.major}-major swizzle={self.swizzle} "
            f"at {self.address:#x}: {self.canonical()}"
        )

    # -- checks ----------------------------------------------------------------

    def _check_shape(self) -> None:
        if self.mn <= 0 or self.k <= 0:
            raise LayoutError(f"tile shape {self.mn}x{self.k} must be positive")
        if self.swizzle is Swizzle.B128_BASE32B and self.major is Major.K:
            raise LayoutError(
                "swizzle 128b_base32b (32-byte atomicity) exists only for MN-major operands"
            )
        a_mn, a_k = self.atom_shape
        if a_k == 0 or a_mn == 0:
            raise LayoutError(f"{self.dtype} elements do not fill a 16-byte chunk")
        for dim, extent, atom in (("MN", self.mn, a_mn), ("K", self.k, a_k)):
            if extent % atom:
                raise LayoutError(
                    f"{dim} extent {extent} is not a whole number of {self.swizzle} "
                    f"{str(self.major).upper()}-major atoms ({a_mn}x{a_k} {self.dtype} elements, "
                    f"{atom} along {dim})"
                )

    def _check_placement(self) -> None:
        align = 128 if self.swizzle is not Swizzle.NONE else 16
        if self.address < 0:
            raise LayoutError(f"tile start {self.address} is negative: shared-memory addresses start at 0")
        if self.swizzle_origin is not None and not 0 <= self.swizzle_origin < DESCRIPTOR_WINDOW:
            raise LayoutError(
                f"swizzle origin {self.swizzle_origin:#x} lies outside the 256 KiB shared-memory window"
            )
        if self.address % align:
            raise LayoutError(
                f"tile start {self.address:#x} is not {align}-byte aligned"
                + (
                    " (swizzled tiles are read right only from 128-byte-aligned starts, "
                    "see docs/base-offset.md)"
                    if align == 128
                    else " (descriptors address 16-byte chunks)"
                )
            )
        if self.swizzle_origin is not None and self.swizzle_origin % 128:
            raise LayoutError(
                f"swizzle origin {self.swizzle_origin:#x} is not 128-byte aligned; the "
                "descriptor's base offset counts whole 128-byte rows"
            )
        for name, stride in zip(("MN", "K"), self.strides):
            if stride < 0 or stride % align:
                raise LayoutError(
                    f"atom stride along {name} ({stride} bytes) must be a non-negative "
                    f"multiple of {align} bytes for {self.swizzle} layouts"
                )
            if self.atom_strides is not None and stride >= DESCRIPTOR_WINDOW:  # even one unused
                raise LayoutError(
                    f"atom stride along {name} ({stride} bytes) must be below 256 KiB, the "
                    "shared-memory window a descriptor can address"
                )
        # the window first: it costs nothing, and bounds the atoms the overlap check lists
        if self.size_bytes > DESCRIPTOR_WINDOW:
            raise LayoutError(
                f"the tile's {self.size_bytes} bytes exceed the 256 KiB shared-memory window "
                "a descriptor can address"
            )
        end = self.address + self.footprint
        if end > DESCRIPTOR_WINDOW:
            raise LayoutError(
                f"tile ends at {end:#x}, beyond the 256 KiB shared-memory window a "
                "descriptor can address"
            )
        n_mn, n_k = self.atoms
        s_mn, s_k = self.strides
        starts = sorted(i * s_mn + j * s_k for i in range(n_mn) for j in range(n_k))
        if any(b - a < self.atom_bytes for a, b in zip(starts, starts[1:])):
            raise LayoutError(
                f"atom strides ({s_mn}, {s_k}) make {self.atom_bytes}-byte atoms overlap"
            )
