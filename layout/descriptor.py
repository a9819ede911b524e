"""Shared-memory matrix descriptors for wgmma (sm_90a) and tcgen05 (sm_100a).

Layout of the 64-bit value (PTX ISA; DESIGN.md facts 1-3):

==========  =========================  ===========================================
bits        sm_90a (wgmma)             sm_100a (tcgen05)
==========  =========================  ===========================================
0-13        start address >> 4         start address >> 4
16-29       LBO >> 4                   LBO >> 4 (or an absolute address, bit 52)
32-45       SBO >> 4                   SBO >> 4
46-48       reserved (0)               version, must be 0b001
49-51       base offset                base offset
52          reserved (0)               LBO mode: 0 relative, 1 absolute address
61-63       62-63: swizzle code        swizzle code (3 bits)
==========  =========================  ===========================================
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from lower_tc.layout.errors import LayoutError
from lower_tc.layout.limits import SMEM_WINDOW
from lower_tc.layout.swizzle import Swizzle
from lower_tc.layout.targets import Arch, check_operand_type, swizzle_rule
from lower_tc.layout.tile import DESCRIPTOR_WINDOW, Major, TileLayout

FIELD_BITS = 14
SM100_VERSION = 0b001
#: Bytes of K one dense MMA instruction reads from each operand row.
INSTRUCTION_K_BYTES = 32

_MASK14 = (1 << FIELD_BITS) - 1


def encode_field(name: str, value: int) -> int:
    """matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, refusing lossy values."""
    if value < 0 or value >= DESCRIPTOR_WINDOW:
        raise LayoutError(
            f"{name} {value:#x} does not fit the 14-bit field (it must be below 256 KiB)"
        )
    if value % 16:
        raise LayoutError(f"{name} {value:#x} is not 16-byte aligned")
    return value >> 4


@dataclass(frozen=True)
class MatrixDescriptor:
    """A descriptor's fields in bytes, for one architecture."""

    arch: Arch
    start_address: int
    lbo: int
    sbo: int
    swizzle: Swizzle
    base_offset: int = 0
    lbo_mode: int = 0  # tcgen05 only: 1 = LBO is an absolute address (sm_103a)
    version: int = SM100_VERSION  # tcgen05 only

    def encode(self) -> int:
        """The 64-bit descriptor; any value that does not fit is a LayoutError."""
        start = encode_field("start address", self.start_address)
        lbo = encode_field("LBO", self.lbo)
        sbo = encode_field("SBO", self.sbo)
        if not 0 <= self.base_offset <= 7:
            raise LayoutError(f"base offset {self.base_offset} does not fit 3 bits")
        value = start | lbo << 16 | sbo << 32 | self.base_offset << 49
        if self.arch is Arch.SM90A:
            if self.lbo_mode:
                raise LayoutError(LBO_ABSOLUTE_TARGETS)
            return value | self.swizzle.sm90_code << 62
        if self.version != SM100_VERSION:
            raise LayoutError(f"tcgen05 descriptors need version 0b001, not {self.version:#05b}")
        if self.lbo_mode not in (0, 1):
            raise LayoutError(f"LBO mode {self.lbo_mode} is not 0 or 1")
        if self.lbo_mode == 1:
            why = lbo_absolute_problem(self.arch, self.swizzle, self.base_offset)
            if why:
                raise LayoutError(why)
        return (
            value
            | self.version << 46
            | self.lbo_mode << 52
            | self.swizzle.sm100_code << 61
        )

    @property
    def encoded_fields(self) -> dict[str, int]:
        """The field values as stored (bytes >> 4)."""
        return {"start": self.start_address >> 4, "lbo": self.lbo >> 4, "sbo": self.sbo >> 4}

    def with_start(self, start_address: int) -> "MatrixDescriptor":
        return replace(self, start_address=start_address)


@dataclass(frozen=True)
class DecodedDescriptor:
    """What a 64-bit value says, and what is wrong with it."""

    value: int
    descriptor: MatrixDescriptor | None  # None when the swizzle code is reserved
    swizzle_code: int
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems


#: Where the PTX ISA allows bit 52 (tcgen05 shared memory descriptor, target notes).
LBO_ABSOLUTE_TARGETS = (
    "the LBO absolute-address mode (bit 52) is supported on sm_103a only (PTX ISA 9.0: "
    "it serves the 48-byte K of 4-bit MMAs with K = 96)"
)


def lbo_absolute_problem(arch: Arch, swizzle: Swizzle | None, base_offset: int) -> str | None:
    """Why a descriptor may not use the LBO absolute-address mode, or None.

    PTX ISA "Restrictions on the Leading Dimension Absolute Address Stride": 128B
    swizzle with 16-byte atomicity only, K-major only (checked where the layout is
    known: descriptor_for_layout), base offset 0; and sm_103a only.
    """
    if arch is not Arch.SM103A:
        return LBO_ABSOLUTE_TARGETS
    if swizzle is not Swizzle.B128:
        return "the LBO absolute-address mode needs 128b swizzle (16-byte atomicity)"
    if base_offset:
        return "the LBO absolute-address mode needs base offset 0"
    return None


def _bits(value: int, lo: int, hi: int) -> int:
    return (value >> lo) & ((1 << (hi - lo + 1)) - 1)


def decode_descriptor(value: int, arch: Arch) -> DecodedDescriptor:
    """Split a 64-bit descriptor into fields and flag what the hardware forbids."""
    if not 0 <= value < 1 << 64:
        raise LayoutError(f"descriptor {value:#x} is not a 64-bit value")
    start = _bits(value, 0, 13) << 4
    lbo = _bits(value, 16, 29) << 4
    sbo = _bits(value, 32, 45) << 4
    base_offset = _bits(value, 49, 51)
    problems: list[str] = []
    notes: list[str] = []
    reserved = [(14, 15), (30, 31)]
    if arch is Arch.SM90A:
        code = _bits(value, 62, 63)
        swizzle: Swizzle | None = Swizzle.from_sm90_code(code)
        version, lbo_mode = 0, 0
        reserved += [(46, 48), (52, 61)]
    else:
        code = _bits(value, 61, 63)
        swizzle = Swizzle.from_sm100_code(code)
        version = _bits(value, 46, 48)
        lbo_mode = _bits(value, 52, 52)
        reserved += [(53, 60)]
        if version != SM100_VERSION:
            problems.append(
                f"version bits 46-48 are {version:#05b}; {arch} requires 0b001 (bit 46 set)"
            )
        if swizzle is None:
            problems.append(f"swizzle code {code} (bits 61-63) is reserved")
        if lbo_mode:
            why = lbo_absolute_problem(arch, swizzle, base_offset)
            if why:
                problems.append(why)
    if start >= SMEM_WINDOW:  # the field reaches 256 KiB; no block's shared memory does
        notes.append(
            f"start address {start:#x} lies beyond the {SMEM_WINDOW // 1024} KiB of shared memory "
            "a block can address"
        )
    for lo, hi in reserved:
        if _bits(value, lo, hi):
            problems.append(f"reserved bits {lo}-{hi} are set")
    if swizzle is Swizzle.NONE and base_offset:
        notes.append("base offset is ignored without swizzle")
    if swizzle is not None and swizzle is not Swizzle.NONE and base_offset >= swizzle.phases:
        notes.append(
            f"only base offset mod {swizzle.phases} matters for {swizzle} swizzle "
            "(measured on an H100, docs/base-offset.md)"
        )
    desc = None
    if swizzle is not None:
        desc = MatrixDescriptor(
            arch, start, lbo, sbo, swizzle, base_offset, lbo_mode, version or SM100_VERSION
        )
    return DecodedDescriptor(value, desc, code, problems, notes)


def base_offset_for(layout: TileLayout) -> int:
    """The descriptor base offset with which the tensor core reads `layout`.

    The one place this rule lives. Measured on an H100 (DESIGN.md fact 5): the
    tensor core swizzles as if the address were ``A - 128 * base_offset``, so
    data swizzled on absolute address bits (TMA, and lower-tc's default) needs
    0 at any 128-byte-aligned start, and data swizzled relative to a pattern
    origin P needs ``(P >> 7) mod W`` (W = 2, 4, 8 row phases for 32B, 64B, 128B).
    The PTX ISA writes ``(P >> 7) & 7``; only the value mod W matters on the
    hardware, so the two read the same, and this one is also Triton's.
    """
    return layout.phase


@dataclass(frozen=True)
class KSlice:
    """One instruction's share of a tile: K elements [k, k + 32 bytes)."""

    k: int
    descriptor: MatrixDescriptor

    @property
    def start_address(self) -> int:
        return self.descriptor.start_address


def check_operand_layout(layout: TileLayout, arch: Arch) -> None:
    """What `arch` reads at all: the operand type and its major-ness, the swizzle mode,
    and (swizzled) placements measured on hardware. Raises LayoutError saying why not;
    the swizzle chooser asks it too, so that `auto` steps down to a mode that is read."""
    why = swizzle_rule(arch, layout.dtype.name, layout.major is Major.MN, layout.swizzle)
    if why:
        raise LayoutError(why)
    check_operand_type(arch, layout.dtype.name, layout.major is Major.MN)
    if layout.swizzle is not Swizzle.NONE:
        _check_on_pattern_boundary(layout, arch)


def _check_on_pattern_boundary(layout: TileLayout, layout_arch: Arch) -> None:
    """Swizzled placements off the pattern boundary, within what hardware has shown.

    On Hopper the start (and origin) may be any multiple of 128 bytes: the base-offset
    experiment measured every 128-byte phase (docs/base-offset.md). Atom strides must
    stay multiples of the pattern period there too: with them, every 8-row group starts
    in the phase of the tile's start, which is all the experiment varied; a stride such
    as 1152 for 128B would tell apart rules the measurement cannot. On tcgen05 nothing
    off the boundary is measured, so the start and origin must sit on it as well.
    """
    period = layout.swizzle.period
    places: list[tuple[str, int]] = []
    if layout_arch.is_tcgen05:
        places.append(("start", layout.address))
        if layout.swizzle_origin is not None:
            places.append(("swizzle origin", layout.swizzle_origin))
        where = "tiles off their pattern boundary are proven on Hopper only"
    else:
        where = "only strides of whole patterns were measured"
    places += [(f"atom stride along {d}", s) for d, s in zip(("MN", "K"), layout.strides)]
    for what, value in places:
        if value % period:
            raise LayoutError(
                f"{layout_arch.family} ({layout_arch}): the tile's {what} {value:#x} is not a "
                f"multiple of the {period}-byte {layout.swizzle} pattern; {where} (docs/base-offset.md)"
            )


def descriptor_for_layout(
    layout: TileLayout, arch: Arch, lbo_absolute: int | None = None
) -> MatrixDescriptor:
    """The descriptor of the whole tile, starting at its first element.

    LBO and SBO follow the canonical layouts (docs/layout.md). Without
    swizzle, LBO steps along K and SBO along MN for both major-nesses; with
    swizzle, K-major uses SBO only (LBO "assumed 1", encoded as 1) and
    MN-major swaps the roles: LBO steps atoms along MN, SBO along K.

    `lbo_absolute`, on sm_103a, puts that shared-memory address in the LBO field in
    the absolute-address mode (bit 52): where the second chunk of a 48-byte K row
    lives. The ISA's restrictions are enforced here: K-major, 128B swizzle, base offset 0.
    """
    check_operand_layout(layout, arch)
    s_mn, s_k = layout.strides
    if layout.swizzle is Swizzle.NONE:
        lbo, sbo = s_k, s_mn
    elif layout.major is Major.K:
        lbo, sbo = 16, s_mn
    else:
        lbo, sbo = s_mn, s_k
    lbo_mode = 0
    if lbo_absolute is not None:
        if layout.major is not Major.K:
            raise LayoutError("the LBO absolute-address mode is K-major only (PTX ISA)")
        lbo, lbo_mode = lbo_absolute, 1
    desc = MatrixDescriptor(
        arch, layout.address, lbo, sbo, layout.swizzle, base_offset_for(layout), lbo_mode
    )
    desc.encode()  # refuse now what cannot be encoded
    return desc


def k_slices(layout: TileLayout, arch: Arch) -> list[KSlice]:
    """The descriptor of each instruction's 32-byte K-slice across the tile.

    Stepping K moves only the start address (to the unswizzled address of the
    slice's first element); strides come from the whole tile.
    """
    k_bytes = layout.k * layout.dtype.slot_bits // 8
    if k_bytes % INSTRUCTION_K_BYTES:
        raise LayoutError(
            f"K extent {layout.k} ({k_bytes} bytes of {layout.dtype}) is not a whole number "
            f"of {INSTRUCTION_K_BYTES}-byte instruction K-slices"
        )
    tile_desc = descriptor_for_layout(layout, arch)
    step = layout.dtype.k_per_instruction
    slices = []
    for k in range(0, layout.k, step):
        start = int(layout.linear_addresses(0, k))
        desc = tile_desc.with_start(start)
        desc.encode()
        slices.append(KSlice(k, desc))
    return slices
