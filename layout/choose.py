"""Choosing a swizzle mode: the widest one the tile's contiguous extent allows.

Wider swizzles spread the 8 rows an instruction reads over more shared-memory
banks. A mode is legal when the contiguous extent (K bytes for K-major, MN
bytes for MN-major) is a whole number of its rows: the extent each
instruction and copy actually touches, not a wider CTA tile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lower_tc.layout.dtypes import ElementType, element_type
from lower_tc.layout.errors import LayoutError
from lower_tc.layout.swizzle import Swizzle
from lower_tc.layout.targets import Arch, swizzle_rule
from lower_tc.layout.tile import Major

#: Modes the chooser considers, widest first. 128b_base32b comes last: it is legal only
#: where it is the only choice (MN-major tf32 on sm_100a).
AUTO_MODES = (Swizzle.B128, Swizzle.B64, Swizzle.B32, Swizzle.NONE, Swizzle.B128_BASE32B)


@dataclass(frozen=True)
class SwizzleChoice:
    """The chosen mode and a one-line reason a person can check."""

    swizzle: Swizzle
    reason: str

    def __str__(self) -> str:
        return self.reason


def _legal(mode: Swizzle, dtype: ElementType, extent_bytes: int, major: Major, arch: Arch) -> str | None:
    """Why `mode` is illegal here, or None when it is legal."""
    why = swizzle_rule(arch, dtype.name, major is Major.MN, mode)
    if why:
        return why
    if extent_bytes % mode.row_bytes:
        return f"the extent is not a multiple of its {mode.row_bytes}-byte row"
    return None


def choose_swizzle(
    dtype: str | ElementType,
    major: Major,
    extent: int,
    arch: Arch,
    pinned: Swizzle | None = None,
    maximum: Swizzle | None = None,
) -> SwizzleChoice:
    """The widest legal swizzle for a tile whose contiguous extent is `extent` elements."""
    etype = element_type(dtype)
    dim = "K" if major is Major.K else "MN"
    extent_bytes = extent * etype.slot_bits // 8
    what = f"the {dim} extent is {extent_bytes} bytes ({extent} x {etype})"
    if extent <= 0 or extent_bytes % 16:
        raise LayoutError(f"no swizzle fits: {what}, not a whole number of 16-byte chunks")
    if pinned is not None:
        why_not = _legal(pinned, etype, extent_bytes, major, arch)
        if why_not:
            raise LayoutError(f"pinned swizzle {pinned} is illegal: {why_not} ({what})")
        return SwizzleChoice(pinned, f"{pinned}: pinned ({what})")
    cap = maximum.row_bytes if maximum is not None else Swizzle.B128.row_bytes
    why_not = {m: _legal(m, etype, extent_bytes, major, arch) for m in AUTO_MODES}
    for mode in AUTO_MODES:
        if mode.row_bytes > cap or why_not[mode]:
            continue
        if mode is Swizzle.B128_BASE32B:
            reason = f"{mode}: the only mode tcgen05 reads MN-major tf32 with ({what})"
        elif mode is Swizzle.NONE:
            reason = f"none: {what}, not a multiple of 32 bytes"
        elif mode.row_bytes == extent_bytes:
            reason = f"{mode}: {what}"
        else:
            reason = f"{mode}: {what}, a multiple of the {mode.row_bytes}-byte row"
        if maximum is not None and mode.row_bytes == cap and mode is not Swizzle.B128:
            wider = [m for m in AUTO_MODES if m.row_bytes > cap and not why_not[m]]
            if wider:
                reason = f"{mode}: capped by the maximum {maximum} ({what})"
        return SwizzleChoice(mode, reason)
    by_reason: dict[str, list[str]] = {}
    for m in AUTO_MODES:
        by_reason.setdefault(why_not[m] or f"wider than the maximum {maximum}", []).append(str(m))
    reasons = "; ".join(f"{', '.join(modes)}: {why}" for why, modes in by_reason.items())
    raise LayoutError(f"no swizzle fits ({what}): {reasons}")


#: The caps the placement-aware chooser steps down through.
NARROWING = (Swizzle.B64, Swizzle.B32, Swizzle.NONE)


def choose_placed_swizzle(
    dtype: str | ElementType,
    major: Major,
    extent: int,
    arch: Arch,
    fits: Callable[[Swizzle], None],
    maximum: Swizzle | None = None,
) -> SwizzleChoice:
    """The widest legal mode that also fits where the tile is placed.

    `fits(mode)` raises LayoutError when the tile, with `mode`, cannot sit where it is
    pinned (an offset off 128 bytes, atom strides that would make wider atoms overlap);
    the chooser then tries the next narrower mode and says why the wider ones went.
    """
    refused: dict[str, list[str]] = {}  # reason -> modes it rules out

    def why_not() -> str:
        return "; ".join(f"{', '.join(modes)}: {why}" for why, modes in refused.items())

    cap = maximum
    while True:
        try:
            choice = choose_swizzle(dtype, major, extent, arch, maximum=cap)
        except LayoutError as err:
            if not refused:
                raise
            raise LayoutError(f"no swizzle fits the tile's placement ({why_not()}; {err})") from None
        try:
            fits(choice.swizzle)
        except LayoutError as err:
            refused.setdefault(str(err), []).append(str(choice.swizzle))
            narrower = [m for m in NARROWING if m.row_bytes < choice.swizzle.row_bytes]
            if not narrower:
                raise LayoutError(f"no swizzle fits the tile's placement ({why_not()})") from None
            cap = narrower[0]
            continue
        if refused:
            return SwizzleChoice(choice.swizzle, f"{choice.swizzle}: the widest mode its placement allows ({why_not()})")
        return choice
