"""What one tile picture shows (`TilePicture`), how large a tile may be drawn, and the
words the picture uses for the tile and its elements."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lower_tc.layout import Major, TileLayout
from lower_tc.layout.copy_order import COPY_THREADS, PHASE_THREADS, bank_of

#: Largest extent (elements, along MN or K) a picture shows.
MAX_EXTENT = 256
#: Tiles with more elements are folded: the larger drawn extent is halved (in whole
#: atoms) until the drawing fits, and a note says what is left out.
FULL_ELEMENTS = 8192
#: Up to this many drawn elements, cells carry a visible "mn,k" label.
LABEL_ELEMENTS = 4096
#: Store phases drawn in the bank view (one round of 128 threads); all are counted.
BANK_PHASES_SHOWN = COPY_THREADS // PHASE_THREADS

class PictureError(Exception):
    """A tile the pictures cannot show (too large): reported in one line."""


@dataclass
class TilePicture:
    """What one picture shows.

    `report` is `descriptor_report.layout_report` of the tile (None when no MMA reads it
    through a descriptor). The bank view assumes the thread copy's global matrix
    has element strides `copy_strides` (s_mn, s_k); without them, a dense matrix
    contiguous along `global_major` (default: the tile's own major-ness).
    """

    layout: TileLayout
    name: str = "A"
    report: dict[str, Any] | None = None
    global_major: Major | None = None
    copy_strides: tuple[int, int] | None = None
    copy_note: str | None = None
    notes: list[str] = field(default_factory=list)
    title: str | None = None
    context: str | None = None  # e.g. "kernel %a", put before the title


# -- the words of a picture ---------------------------------------------------------


def describe(pic: TilePicture) -> str:
    lay = pic.layout
    arch = f", {pic.report['arch']}" if pic.report else ""
    origin = f", swizzle origin {lay.swizzle_origin:#x}" if lay.swizzle_origin is not None else ""
    where = f"{pic.context} = " if pic.context else ""
    return (
        f"{where}{pic.name}: {lay.mn}x{lay.k} {lay.dtype}, {lay.major.value.upper()}-major, swizzle "
        f"{lay.swizzle}, start {lay.address:#x}{origin}{arch}"
    )


def element_title(pic: TilePicture, mn: int, k: int, address: int) -> str:
    return f"{pic.name}[{mn},{k}] @ {address:#06x}, bank {bank_of(address)}"
