"""SVG pictures of one shared-memory tile: its logical grid, its bytes, its
descriptors and the banks its thread copy touches.

Why a picture: a descriptor field that is wrong reads the wrong bytes without any
fault. Seeing element (mn, k) at the byte the layout core gives, the swizzle
pattern and the atoms outlined, and the LBO and SBO strides as arrows between the
bytes they join, shows at a glance what the numbers mean.

Every number drawn comes from the layout core (`TileLayout.addresses`, the
descriptor code through `descriptor_report.layout_report`, the same function `lower-tc desc
encode` prints) and the copy order from `lower_tc.layout.copy_order`; nothing is
derived here. The SVG is built as escaped text with the stdlib only. This module
assembles the picture; tile.py holds what it shows, tile_views.py draws the views and
svg.py the building blocks.

Each element's cell (in both views: groups ``g[data-view=logical]`` and
``g[data-view=smem]``) carries ``data-mn``, ``data-k`` and ``data-byte`` (byte offset from the tile's start) and a ``<title>`` such as
``A[3,17] @ 0x0592, bank 4`` that browsers show on hover.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np

from lower_tc.lowering.pictures import svg
from lower_tc.lowering.pictures.svg import HOVER_SCRIPT, MARGIN, PX_PER_BIT, ROW_BYTES, STYLE, Rows
from lower_tc.lowering.pictures.tile import FULL_ELEMENTS, LABEL_ELEMENTS, MAX_EXTENT, PictureError, TilePicture, describe
from lower_tc.lowering.pictures.tile_views import bank_view, descriptor_panel, logical_view, memory_view


def tile_svg(pic: TilePicture) -> str:
    """A standalone SVG document of the tile (hover script included)."""
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + tile_svg_element(pic, script=True) + "\n"


def tile_svg_element(pic: TilePicture, script: bool = False, uid: str = "") -> str:
    """The tile's ``<svg>`` element, for a file or inline in an HTML page (`uid`
    suffixes its ids there)."""
    lay = pic.layout
    if lay.mn > MAX_EXTENT or lay.k > MAX_EXTENT:
        raise PictureError(
            f"tile {lay.mn}x{lay.k} is too large to draw: pictures show at most "
            f"{MAX_EXTENT} x {MAX_EXTENT} elements (desc encode prints its numbers)"
        )
    a_mn, a_k = lay.atom_shape
    md, kd = _folded(lay.mn, lay.k, a_mn, a_k)
    mn_idx, k_idx = np.meshgrid(np.arange(md), np.arange(kd), indexing="ij")
    addr = lay.addresses(mn_idx, k_idx)  # the layout core's byte address of each element
    out = svg.Svg(uid)
    notes = list(pic.notes)
    if (md, kd) != (lay.mn, lay.k):
        notes.append(
            f"folded: drawn MN 0..{md - 1} x K 0..{kd - 1} of {lay.mn}x{lay.k}; the other atoms "
            f"follow the same pattern at atom strides MN {lay.strides[0]} B, K {lay.strides[1]} B"
        )
    labelled = md * kd <= LABEL_ELEMENTS

    # header
    y = MARGIN + 14
    title = pic.title or describe(pic)
    out.add(svg.text(MARGIN, y, title, 15, font_weight="bold"))
    y += 18
    out.add(svg.text(MARGIN, y, f"canonical  {lay.canonical()}", 11))
    for note in notes:
        y += 16
        out.add(svg.text(MARGIN, y, note, 11, fill="#a33"))
    top = y + 60

    # view 1: the logical tile
    cw = svg.clamp(1280 // kd, 4, 26)
    ch = svg.clamp(960 // md, 4, 16)
    x1 = MARGIN + 44
    view1_w = kd * cw
    logical_view(out, pic, addr, md, kd, x1, top, cw, ch, labelled)

    # view 2: shared memory
    x2 = x1 + view1_w + 110
    base = lay.address // ROW_BYTES * ROW_BYTES
    rel = addr - base
    used = sorted(set((rel // ROW_BYTES).ravel().tolist()))
    rh = svg.clamp(1200 // max(len(used), 1), 5, 14)
    rows = Rows.build(base, used, top, rh)
    memory_view(out, pic, addr, md, kd, x2, rows, labelled)

    # the descriptor text and the bank view, below both views
    y = max(top + md * ch, rows.bottom) + 50
    y = descriptor_panel(out, pic, MARGIN, y)
    y = bank_view(out, pic, MARGIN, y + 20)
    out.extend(x2 + ROW_BYTES * 8 * PX_PER_BIT + 150, y + MARGIN)

    folded = f"{md}x{kd}" if (md, kd) != (lay.mn, lay.k) else None
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tc-tile" '
        + svg.attrs(
            width=int(out.width), height=int(out.height),
            viewBox=f"0 0 {int(out.width)} {int(out.height)}",
            data_name=pic.name, data_tile_mn=lay.mn, data_tile_k=lay.k, data_dtype=lay.dtype.name,
            data_major=lay.major.value, data_swizzle=lay.swizzle.value, data_start=lay.address,
            data_folded=folded,
        )
        + ">"
    )
    body = [
        head,
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        f'<rect {svg.attrs(x=0, y=0, width=int(out.width), height=int(out.height), fill="#fff")}/>',
        *out.parts,
    ]
    if script:
        body.append(f"<script><![CDATA[{HOVER_SCRIPT}]]></script>")
    body.append("</svg>")
    return "\n".join(body)


def _folded(mn: int, k: int, a_mn: int, a_k: int) -> tuple[int, int]:
    """The extents drawn: the whole tile up to FULL_ELEMENTS, else the larger extent
    halved in whole atoms (at least one) until it fits."""
    while mn * k > FULL_ELEMENTS:
        if mn >= k and mn > a_mn:
            mn = max(a_mn, mn // 2 // a_mn * a_mn)
        elif k > a_k:
            k = max(a_k, k // 2 // a_k * a_k)
        else:
            break
    return mn, k



__all__ = ["MAX_EXTENT", "PictureError", "TilePicture", "tile_svg", "tile_svg_element"]
