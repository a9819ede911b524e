"""SVG pictures of one shared-memory tile: its logical grid, its bytes, its
descriptors and the banks its thread copy touches.

Why a picture: a descriptor field that is wrong reads the wrong bytes without any
fault. Seeing element (mn, k) at the byte the layout core gives, the swizzle
pattern and the atoms outlined, and the LBO and SBO strides as arrows between the
bytes they join, shows at a glance what the numbers mean.

Every number drawn comes from the layout core (`TileLayout.addresses`, the
descriptor code through `desc_cli.layout_report`, the same function `lower-tc desc
encode` prints) and the copy order from `lower_tc.layout.copy_order`; nothing is
derived here. The SVG is built as escaped text with the stdlib only.

Each element's cell (in both views: groups ``g[data-view=logical]`` and
``g[data-view=smem]``) carries ``data-mn``, ``data-k`` and ``data-byte`` (byte offset from the tile's start) and a ``<title>`` such as
``A[3,17] @ 0x0592, bank 4`` that browsers show on hover.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from lower_tc.layout import Major, Swizzle, TileLayout
from lower_tc.layout.copy_order import (
    BANKS,
    COPY_THREADS,
    PHASE_THREADS,
    CopyChunks,
    StorePhase,
    bank_of,
    contiguous_strides,
    store_phases,
    thread_copy_chunks,
)

#: Largest extent (elements, along MN or K) a picture shows.
MAX_EXTENT = 256
#: Tiles with more elements are folded: the larger drawn extent is halved (in whole
#: atoms) until the drawing fits, and a note says what is left out.
FULL_ELEMENTS = 8192
#: Up to this many drawn elements, cells carry a visible "mn,k" label.
LABEL_ELEMENTS = 4096
#: Store phases drawn in the bank view (one round of 128 threads); all are counted.
BANK_PHASES_SHOWN = COPY_THREADS // PHASE_THREADS
#: Rows of memory with no drawn element longer than this fold into one band.
FOLD_GAP_ROWS = 2

ROW_BYTES = 128
PX_PER_BIT = 1  # 128-byte rows are 1024 px wide
MARGIN = 20
FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
THREAD_COLOURS = (
    "#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494", "#b3b3b3",
)

#: Hovering a cell outlines its twin in the other view (inline, no network).
HOVER_SCRIPT = """
(function () {
  function twins(el) {
    var svg = el.closest('svg');
    return svg ? svg.querySelectorAll('[data-mn="' + el.getAttribute('data-mn') +
      '"][data-k="' + el.getAttribute('data-k') + '"]') : [];
  }
  document.addEventListener('mouseover', function (e) {
    var el = e.target.closest && e.target.closest('[data-mn]');
    if (el) twins(el).forEach(function (t) { t.classList.add('hl'); });
  });
  document.addEventListener('mouseout', function (e) {
    var el = e.target.closest && e.target.closest('[data-mn]');
    if (el) twins(el).forEach(function (t) { t.classList.remove('hl'); });
  });
})();
"""

STYLE = f"""
svg.tc-tile text {{ font-family: {FONT}; fill: #222; }}
svg.tc-tile .hl {{ stroke: #000; stroke-width: 2.5; }}
svg.tc-tile rect[data-mn] {{ stroke: #fff; stroke-width: 0.4; }}
svg.tc-tile g.labels text {{ pointer-events: none; }}
svg.tc-tile text.ann {{ paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }}
"""


class PictureError(Exception):
    """A tile the pictures cannot show (too large): reported in one line."""


@dataclass
class TilePicture:
    """What one picture shows.

    `report` is `desc_cli.layout_report` of the tile (None when no MMA reads it
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


# -- small helpers -----------------------------------------------------------------


def colour(mn: int, k: int, major: Major = Major.K, per: int = 8) -> str:
    """An element's colour from its coordinates. The hue is that of its 16-byte chunk
    (`per` elements along the contiguous dimension): 0.618 of the circle per chunk
    and 0.155 per row, so a chunk moved by the swizzle shows as one block of colour.
    Inside a chunk, lightness alternates; across rows, saturation does too. Every
    neighbour, diagonal ones included, differs in hue by 55 degrees or more, or in
    lightness."""
    along, row = (k, mn) if major is Major.K else (mn, k)
    hue = ((along // per) * 0.618034 + row * 0.1545) % 1.0 * 360
    light = (58, 76)[along % 2]
    sat = (75, 55)[row % 2]
    r, g, b = colorsys.hls_to_rgb(hue / 360, light / 100, sat / 100)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _attrs(**kw: Any) -> str:
    """XML attributes from keywords (``data_mn`` -> ``data-mn``), values escaped."""
    out = []
    for key, value in kw.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        out.append(f"{name}={quoteattr(str(value))}")
    return " ".join(out)


def _text(x: float, y: float, body: str, size: float = 11, **kw: Any) -> str:
    return f"<text {_attrs(x=x, y=y, font_size=size, **kw)}>{escape(body)}</text>"


def _label(x: float, y: float, w: float, h: float, body: str, size: float) -> str:
    """A cell's "mn,k" label, squeezed to the cell's width whatever the font."""
    fit = min(w - 1.5, len(body) * size * 0.62)
    return f"<text {_attrs(x=round(x + (w - fit) / 2, 1), y=round(y + h * 0.72, 1), textLength=round(fit, 1))}>{body}</text>"


def _labels(out: "_Svg", labels: list[str], size: float) -> None:
    """The cells' labels in one group that sets their font size once."""
    if labels:
        out.add(f'<g class="labels" font-size="{size:.1f}">')
        out.parts.extend(labels)
        out.add("</g>")


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


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


# -- the memory view's rows ----------------------------------------------------------


@dataclass
class _Rows:
    """Which 128-byte rows of shared memory are drawn, and where: rows holding a
    drawn element, short gaps between them, and one band per longer gap."""

    base: int  # address of row 0 (the tile's start rounded down to 128 bytes)
    y0: float
    height: float
    ys: dict[int, float] = field(default_factory=dict)  # row -> y of its top
    folds: list[tuple[int, int, float]] = field(default_factory=list)  # (first, last, y)
    bottom: float = 0.0
    last: int = 0

    @classmethod
    def build(cls, base: int, used: list[int], y0: float, height: float) -> "_Rows":
        rows = cls(base, y0, height)
        y = y0
        prev = None
        for r in used:
            if prev is not None and r - prev - 1 > FOLD_GAP_ROWS:
                rows.folds.append((prev + 1, r - 1, y))
                y += height
            elif prev is not None:
                for gap in range(prev + 1, r):
                    rows.ys[gap] = y
                    y += height
            rows.ys[r] = y
            y += height
            prev = r
        rows.bottom = y
        rows.last = used[-1] if used else 0
        return rows

    def y_of(self, address: int) -> tuple[float, str | None]:
        """Top of the row holding `address`, and a note when that row is not drawn."""
        r = (address - self.base) // ROW_BYTES
        if r in self.ys:
            return self.ys[r], None
        for first, last, y in self.folds:
            if first <= r <= last:
                return y, "in a folded region"
        return self.bottom, "beyond the drawn rows"


# -- the picture ------------------------------------------------------------------


class _Svg:
    """Collects the SVG's parts and tracks its extent."""

    def __init__(self, uid: str = "") -> None:
        self.uid = uid  # keeps ids apart when several pictures share one HTML page
        self.parts: list[str] = []
        self.width = 0.0
        self.height = 0.0

    def add(self, part: str) -> None:
        self.parts.append(part)

    def extend(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)


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
    out = _Svg(uid)
    notes = list(pic.notes)
    if (md, kd) != (lay.mn, lay.k):
        notes.append(
            f"folded: drawn MN 0..{md - 1} x K 0..{kd - 1} of {lay.mn}x{lay.k}; the other atoms "
            f"follow the same pattern at atom strides MN {lay.strides[0]} B, K {lay.strides[1]} B"
        )
    labelled = md * kd <= LABEL_ELEMENTS

    # header
    y = MARGIN + 14
    title = pic.title or _describe(pic)
    out.add(_text(MARGIN, y, title, 15, font_weight="bold"))
    y += 18
    out.add(_text(MARGIN, y, f"canonical  {lay.canonical()}", 11))
    for note in notes:
        y += 16
        out.add(_text(MARGIN, y, note, 11, fill="#a33"))
    top = y + 60

    # view 1: the logical tile
    cw = _clamp(1280 // kd, 4, 26)
    ch = _clamp(960 // md, 4, 16)
    x1 = MARGIN + 44
    view1_w = kd * cw
    _logical_view(out, pic, addr, md, kd, x1, top, cw, ch, labelled)

    # view 2: shared memory
    x2 = x1 + view1_w + 110
    base = lay.address // ROW_BYTES * ROW_BYTES
    rel = addr - base
    used = sorted(set((rel // ROW_BYTES).ravel().tolist()))
    rh = _clamp(1200 // max(len(used), 1), 5, 14)
    rows = _Rows.build(base, used, top, rh)
    _memory_view(out, pic, addr, md, kd, x2, rows, labelled)

    # the descriptor text and the bank view, below both views
    y = max(top + md * ch, rows.bottom) + 50
    y = _descriptor_panel(out, pic, MARGIN, y)
    y = _bank_view(out, pic, MARGIN, y + 20)
    out.extend(x2 + ROW_BYTES * 8 * PX_PER_BIT + 150, y + MARGIN)

    folded = f"{md}x{kd}" if (md, kd) != (lay.mn, lay.k) else None
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tc-tile" '
        + _attrs(
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
        f'<rect {_attrs(x=0, y=0, width=int(out.width), height=int(out.height), fill="#fff")}/>',
        *out.parts,
    ]
    if script:
        body.append(f"<script><![CDATA[{HOVER_SCRIPT}]]></script>")
    body.append("</svg>")
    return "\n".join(body)


def _describe(pic: TilePicture) -> str:
    lay = pic.layout
    arch = f", {pic.report['arch']}" if pic.report else ""
    origin = f", swizzle origin {lay.swizzle_origin:#x}" if lay.swizzle_origin is not None else ""
    where = f"{pic.context} = " if pic.context else ""
    return (
        f"{where}{pic.name}: {lay.mn}x{lay.k} {lay.dtype}, {lay.major.value.upper()}-major, swizzle "
        f"{lay.swizzle}, start {lay.address:#x}{origin}{arch}"
    )


def _element_title(pic: TilePicture, mn: int, k: int, address: int) -> str:
    return f"{pic.name}[{mn},{k}] @ {address:#06x}, bank {bank_of(address)}"


def _logical_view(
    out: _Svg, pic: TilePicture, addr: np.ndarray, md: int, kd: int,
    x0: float, y0: float, cw: float, ch: float, labelled: bool,
) -> None:
    """View 1: MN x K cells coloured by coordinates, the atom grid, the K-slices."""
    lay = pic.layout
    a_mn, a_k = lay.atom_shape
    out.add(_text(x0, y0 - 44, f"logical tile: MN (down) x K (across), atoms of {a_mn}x{a_k}", 12,
                  font_weight="bold"))
    out.add('<g class="logical" data-view="logical">')
    font = min(ch * 0.62, cw / (0.62 * len(f"{md - 1},{kd - 1}")))
    labels = []
    for mn in range(md):
        for k in range(kd):
            a = int(addr[mn, k])
            x, y = x0 + k * cw, y0 + mn * ch
            cell = _attrs(
                x=x, y=y, width=cw, height=ch, fill=colour(mn, k, lay.major, lay.dtype.per_chunk),
                data_mn=mn, data_k=k, data_byte=a - lay.address,
            )
            out.add(f"<rect {cell}><title>{escape(_element_title(pic, mn, k, a))}</title></rect>")
            if labelled and font >= 3.5:
                labels.append(_label(x, y, cw, ch, f"{mn},{k}", font))
    out.add("</g>")
    _labels(out, labels, font)
    # axis labels
    step_mn = max(1, 8 if not labelled else a_mn)
    for mn in range(0, md, step_mn):
        out.add(_text(x0 - 4, y0 + mn * ch + min(ch, 10), str(mn), 9, text_anchor="end"))
    step_k = max(1, lay.dtype.k_per_instruction // (2 if kd <= 64 else 1))
    for k in range(0, kd, step_k):
        out.add(_text(x0 + k * cw, y0 - 3, str(k), 9))
    # the atom grid
    w, h = kd * cw, md * ch
    grid = [f"M{x0 + k * cw:.1f} {y0}v{h}" for k in range(0, kd + 1, a_k)]
    grid += [f"M{x0} {y0 + mn * ch:.1f}h{w}" for mn in range(0, md + 1, a_mn)]
    out.add(f'<path {_attrs(class_="atom-grid", d=" ".join(grid), stroke="#000", stroke_width=1.6, fill="none")}/>')
    # the K-slices the instructions read
    step = lay.dtype.k_per_instruction
    slices = pic.report["k_slices"] if pic.report else [{"k": k} for k in range(0, lay.k, step)]
    for i, s in enumerate(slices):
        k = s["k"]
        if k >= kd:
            break
        xa, xb = x0 + k * cw, x0 + min(k + step, kd) * cw
        yb = y0 - 16 - (i % 2) * 8
        out.add(
            f'<g {_attrs(class_="kslice-mark", data_slice_k=k)}>'
            f'<path {_attrs(d=f"M{xa + 1:.1f} {yb + 5}v-5h{xb - xa - 2:.1f}v5", stroke="#c00", fill="none", stroke_width=1.5)}/>'
            + _text(xa + 2, yb - 2, f"k={k}", 9, fill="#c00")
            + (f"<title>K-slice k={k}: start {s['start_address']:#07x}, desc {s['desc']}</title>" if "desc" in s else "")
            + "</g>"
        )
        if k:
            out.add(f'<path {_attrs(d=f"M{xa:.1f} {y0}v{h}", stroke="#c00", stroke_dasharray="3 3", stroke_width=1)}/>')
    out.extend(x0 + w, y0 + h)


def _range_outline(rows: _Rows, x0: float, start: int, length: int) -> str:
    """Path data outlining the drawn bytes of [start, start + length) in the
    row-wrapped view: one box per partial row, one per run of whole drawn rows."""
    px = 8 * PX_PER_BIT
    boxes: list[list[float]] = []  # [y, first byte, end byte, height]
    a, end = start, start + length
    while a < end:
        row = (a - rows.base) // ROW_BYTES
        b = min(end, rows.base + (row + 1) * ROW_BYTES)
        y, note = rows.y_of(a)
        if note is None:
            ca, cb = (a - rows.base) % ROW_BYTES, (b - rows.base - 1) % ROW_BYTES + 1
            last = boxes[-1] if boxes else None
            if last and (ca, cb) == (0, ROW_BYTES) == (last[1], last[2]) and abs(last[0] + last[3] - y) < 0.01:
                last[3] += rows.height
            else:
                boxes.append([y, ca, cb, rows.height])
        a = b
    return " ".join(
        f"M{x0 + ca * px:.1f} {y:.1f}h{(cb - ca) * px}v{h:.1f}h-{(cb - ca) * px}z" for y, ca, cb, h in boxes
    )


def _memory_view(
    out: _Svg, pic: TilePicture, addr: np.ndarray, md: int, kd: int,
    x0: float, rows: _Rows, labelled: bool,
) -> None:
    """View 2: 128-byte rows of shared memory with every element at its byte."""
    lay = pic.layout
    px = 8 * PX_PER_BIT
    rh = rows.height
    y0 = rows.y0
    out.add(_text(x0, y0 - 44, f"shared memory from {rows.base:#x}: rows of 128 bytes (8 x 16-byte chunks)",
                  12, font_weight="bold"))
    # the 32 banks across the top, and the chunks
    for b in range(BANKS):
        out.add(_text(x0 + b * 4 * px + 2 * px, y0 - 30, str(b), 8, text_anchor="middle", fill="#555"))
    out.add(_text(x0 - 4, y0 - 30, "bank", 8, text_anchor="end", fill="#555"))
    for c in range(8):
        out.add(_text(x0 + c * 16 * px + 8 * px, y0 - 19, f"chunk {c}", 8, text_anchor="middle", fill="#555"))
    # row backgrounds, chunk lines, address labels
    grid = []
    for r, y in sorted(rows.ys.items()):
        grid.append(f"M{x0} {y:.1f}h{ROW_BYTES * px}")
        out.add(_text(x0 - 4, y + rh * 0.8, f"{rows.base + r * ROW_BYTES:#06x}", min(9, rh * 0.85),
                      text_anchor="end", fill="#555"))
    for r, y in sorted(rows.ys.items()):
        for c in range(9):
            grid.append(f"M{x0 + c * 16 * px} {y:.1f}v{rh}")
    grid.append(f"M{x0} {rows.bottom:.1f}h{ROW_BYTES * px}")
    out.add(f'<rect {_attrs(x=x0, y=y0, width=ROW_BYTES * px, height=rows.bottom - y0, fill="#f4f4f4")}/>')
    for first, last, y in rows.folds:
        out.add(f'<rect {_attrs(x=x0, y=y, width=ROW_BYTES * px, height=rh, fill="#ddd")}/>')
        n = last - first + 1
        out.add(_text(x0 + 4, y + rh * 0.8, f"... {n} rows ({n * ROW_BYTES} bytes) not drawn ...",
                      min(9, rh * 0.85), fill="#333"))
    out.add('<g class="smem" data-view="smem">')
    bits = lay.dtype.bits
    per = lay.dtype.per_chunk
    font = min(rh * 0.62, bits * PX_PER_BIT / (0.62 * len(f"{md - 1},{kd - 1}")))
    labels = []
    for mn in range(md):
        for k in range(kd):
            a = int(addr[mn, k])
            y, note = rows.y_of(a)
            assert note is None, "every drawn element's row is drawn"
            along = k if lay.major is Major.K else mn
            sub = ((along % per) * bits) % 8  # bits before the element in its byte (4-/6-bit)
            x = x0 + ((a - rows.base) % ROW_BYTES * 8 + sub) * PX_PER_BIT
            cell = _attrs(
                x=x, y=y, width=bits * PX_PER_BIT, height=rh, fill=colour(mn, k, lay.major, lay.dtype.per_chunk),
                data_mn=mn, data_k=k, data_byte=a - lay.address,
            )
            out.add(f"<rect {cell}><title>{escape(_element_title(pic, mn, k, a))}</title></rect>")
            if labelled and bits * PX_PER_BIT >= 28 and font >= 3.5:
                labels.append(_label(x, y, bits * PX_PER_BIT, rh, f"{mn},{k}", font))
    out.add("</g>")
    _labels(out, labels, font)
    if rh >= 9 and bits * PX_PER_BIT < 28:  # name each 16-byte chunk: the swizzle moves whole chunks
        out.add('<g class="chunk-labels">')
        k_major = lay.major is Major.K
        for mn in range(0, md, 1 if k_major else per):
            for k in range(0, kd, per if k_major else 1):
                a = int(addr[mn, k])
                y, _ = rows.y_of(a)
                x = x0 + (a - rows.base) % ROW_BYTES * 8 * PX_PER_BIT
                body = f"{mn},{k}..{k + per - 1}" if k_major else f"{mn}..{mn + per - 1},{k}"
                out.add(_text(x + 64 * PX_PER_BIT, y + rh * 0.78, body, min(9, rh * 0.8), text_anchor="middle",
                              class_="ann", pointer_events="none"))
        out.add("</g>")
    out.add(f'<path {_attrs(d=" ".join(grid), stroke="#bbb", stroke_width=0.5, fill="none")}/>')
    _pattern_outlines(out, lay, x0, rows)
    _atom_outlines(out, lay, md, kd, x0, rows)
    if pic.report:
        _descriptor_arrows(out, pic, x0, rows)
    out.extend(x0 + ROW_BYTES * px, rows.bottom)


def _pattern_outlines(out: _Svg, lay: TileLayout, x0: float, rows: _Rows) -> None:
    """Dashed boxes around each whole swizzle pattern (256/512/1024 bytes), which
    starts where the XOR's row bits are zero: absolute bits, or the origin's phase."""
    if lay.swizzle is Swizzle.NONE:
        return
    period = lay.swizzle.period
    phase_bytes = lay.phase * ROW_BYTES
    first = (lay.address - phase_bytes) // period * period + phase_bytes
    end = lay.address + lay.footprint
    out.add('<g class="patterns">')
    p = first
    while p < end:
        d = _range_outline(rows, x0, max(p, rows.base), p + period - max(p, rows.base))
        if d:
            out.add(
                f'<path {_attrs(d=d, fill="none", stroke="#1f5fbf", stroke_width=1.2, stroke_dasharray="6 3", data_pattern=p)}>'
                f"<title>{escape(f'{lay.swizzle} swizzle pattern [{p:#x}, {p + period:#x})')}</title></path>"
            )
            y, note = rows.y_of(max(p, rows.base))
            if note is None:
                out.add(_text(x0 + ROW_BYTES * 8 * PX_PER_BIT + 6, y + 10, f"{lay.swizzle} pattern @{p:#x}", 9,
                              fill="#1f5fbf"))
        p += period
    out.add("</g>")


def _atom_outlines(out: _Svg, lay: TileLayout, md: int, kd: int, x0: float, rows: _Rows) -> None:
    """Solid boxes around each drawn atom's bytes."""
    a_mn, a_k = lay.atom_shape
    s_mn, s_k = lay.strides
    out.add('<g class="atoms">')
    for i in range(md // a_mn):
        for j in range(kd // a_k):
            start = lay.address + i * s_mn + j * s_k
            d = _range_outline(rows, x0, start, lay.atom_bytes)
            if d:
                out.add(
                    f'<path {_attrs(d=d, fill="none", stroke="#000", stroke_width=1.6, data_atom=f"{i},{j}")}>'
                    f"<title>atom ({i},{j}): MN {i * a_mn}..{(i + 1) * a_mn - 1}, K {j * a_k}..{(j + 1) * a_k - 1}, "
                    f"bytes [{start:#x}, {start + lay.atom_bytes:#x})</title></path>"
                )
    out.add("</g>")


def _descriptor_arrows(out: _Svg, pic: TilePicture, x0: float, rows: _Rows) -> None:
    """Each K-slice's start marked, and its LBO and SBO drawn as arrows from the start."""
    r = pic.report
    assert r is not None
    px = 8 * PX_PER_BIT
    rh = rows.height
    out.add(
        f'<defs><marker id="arrow{out.uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="context-stroke"/></marker></defs>'
    )
    lbo_role, sbo_role = _roles(r)
    for i, s in enumerate(r["k_slices"]):
        start = s["start_address"]
        y, note = rows.y_of(start)
        xs = x0 + (start - rows.base) % ROW_BYTES * px
        ys = y + rh / 2
        group = _attrs(
            class_="kslice", data_slice_k=s["k"], data_start=start, data_lbo=r["lbo"], data_sbo=r["sbo"],
            data_base_offset=r["base_offset"], data_swizzle=r["swizzle"], data_desc=s["desc"],
        )
        out.add(f"<g {group}>")
        out.add(
            f'<circle {_attrs(class_="start", cx=xs, cy=ys, r=3.5, fill="#c00", stroke="#fff", data_address=start)}>'
            f"<title>K-slice k={s['k']}: start address {start:#07x}, desc {s['desc']}</title></circle>"
        )
        out.add(_text(xs + 4, y - 3, f"k={s['k']} {start:#x}", 9, fill="#c00", font_weight="bold", class_="ann"))
        for name, value, stroke, role, bend in (
            ("lbo", r["lbo"], "#e07000", lbo_role, 2), ("sbo", r["sbo"], "#7b2fbf", sbo_role, 1)
        ):
            target = start + value
            ty, tnote = rows.y_of(target)
            xt = x0 + (target - rows.base) % ROW_BYTES * px
            yt = ty + rh / 2
            if abs(yt - ys) < 1:  # same row: bow under it
                cx, cy = (xs + xt) / 2, ys + 10
            else:
                cx, cy = (xs + xt) / 2 + bend * (40 + 10 * (i % 4)), (ys + yt) / 2
            label = f"{name.upper()} {value}"
            arrow = _attrs(
                class_=f"arrow {name}", d=f"M{xs:.1f} {ys:.1f}Q{cx:.1f} {cy:.1f} {xt:.1f} {yt:.1f}",
                fill="none", stroke=stroke, stroke_width=1.5, marker_end=f"url(#arrow{out.uid})",
                data_from=start, data_to=target, data_bytes=value,
            )
            where = f" ({tnote})" if tnote else ""
            out.add(
                f"<path {arrow}><title>k={s['k']}: {label} B from {start:#x} to {target:#x}{where}: "
                f"{escape(role)}</title></path>"
            )
            lx, ly = (xs + 2 * cx + xt) / 4 + 3, (ys + 2 * cy + yt) / 4
            if abs(yt - ys) < 1:
                lx, ly = max(xs, xt) + 3, ys + rh * 0.9
            out.add(_text(lx, ly, label, 9, fill=stroke, font_weight="bold", class_="ann"))
        out.add("</g>")


def _roles(report: dict[str, Any]) -> tuple[str, str]:
    from lower_tc.lowering.desc_cli import _stride_roles

    return _stride_roles(report["major"], report["swizzle"])


def _descriptor_panel(out: _Svg, pic: TilePicture, x0: float, y: float) -> float:
    """The text `lower-tc desc encode` prints for the tile, line by line."""
    if pic.report is None:
        out.add(_text(x0, y, "descriptors: none (no MMA reads this tile through a descriptor)", 12))
        return y + 16
    from lower_tc.lowering.desc_cli import format_encode

    out.add(_text(x0, y, "descriptors (as lower-tc desc encode prints them):", 12, font_weight="bold"))
    out.add('<g class="desc-text">')
    for line in format_encode(pic.report).splitlines():
        y += 15
        out.add(_text(x0, y, line, 11, style="white-space:pre"))
    out.add("</g>")
    return y + 8


def _bank_view(out: _Svg, pic: TilePicture, x0: float, y: float) -> float:
    """Banks touched by each 8-thread phase of the thread copy's 16-byte stores."""
    lay = pic.layout
    strides = pic.copy_strides or contiguous_strides(lay, pic.global_major)
    chunks = thread_copy_chunks(lay, *strides)
    phases = store_phases(chunks)
    bad = [p for p in phases if p.ways > 1]
    worst = max((p.ways for p in phases), default=1)
    s_mn, s_k = strides
    g = "K" if s_k == 1 else "MN"
    out.add(
        f'<g {_attrs(class_="banks", data_phases=len(phases), data_conflict_phases=len(bad), data_max_ways=worst)}>'
    )
    out.add(_text(x0, y, "banks: the thread copy's 16-byte stores, 8 threads per phase", 12, font_weight="bold"))
    y += 16
    rounds = -(-len(chunks) // COPY_THREADS)
    line = (
        f"{len(chunks)} chunks, {COPY_THREADS} threads, {rounds} round(s); global matrix contiguous along {g} "
        f"(element strides MN {s_mn}, K {s_k}); {len(phases)} phases, "
        + (f"{len(bad)} with bank conflicts, worst {worst}-way" if bad else "all conflict-free")
    )
    out.add(_text(x0, y, line, 11, fill="#a00" if bad else "#070"))
    if pic.copy_note:
        y += 15
        out.add(_text(x0, y, pic.copy_note, 11))
    if lay.swizzle is Swizzle.NONE and bad:
        y += 15
        out.add(_text(x0, y, "without swizzle, the chunks one phase stores lie a whole stride apart and "
                      "share banks: the swizzle spreads them over all 32", 11))
    y += 24
    bw, bh = 26, 16
    xb = x0 + 110
    for b in range(BANKS):
        out.add(_text(xb + b * bw + bw / 2, y - 4, str(b), 8, text_anchor="middle", fill="#555"))
    for row, phase in enumerate(phases[:BANK_PHASES_SHOWN]):
        yr = y + row * bh
        _phase_row(out, pic, chunks, phase, x0, xb, yr, bw, bh)
    shown = min(len(phases), BANK_PHASES_SHOWN)
    y += shown * bh
    if len(phases) > shown:
        y += 14
        out.add(_text(x0, y, f"first {shown} of {len(phases)} phases drawn (one round of {COPY_THREADS} "
                      "threads); the counts above cover all", 10, fill="#555"))
    out.add("</g>")
    out.extend(xb + BANKS * bw + 120, y)
    return y + 10


def _phase_row(
    out: _Svg, pic: TilePicture, chunks: CopyChunks, phase: StorePhase,
    x0: float, xb: float, y: float, bw: float, bh: float,
) -> None:
    lay = pic.layout
    per = lay.dtype.per_chunk
    t0, t1 = phase.threads[0], phase.threads[-1]
    out.add(f'<g {_attrs(class_="phase", data_phase=phase.index, data_ways=phase.ways, data_round=phase.round)}>')
    out.add(_text(x0, y + bh * 0.75, f"r{phase.round} t{t0}-{t1}", 10))

    def what(pos: int) -> str:
        c = phase.chunks[pos]
        mn, k, a = int(chunks.mn[c]), int(chunks.k[c]), phase.addresses[pos]
        elems = f"{pic.name}[{mn},{k}..{k + per - 1}]" if lay.major is Major.K else f"{pic.name}[{mn}..{mn + per - 1},{k}]"
        return f"t{phase.threads[pos]} stores {elems} at {a:#06x}"

    for b, hits in enumerate(phase.banks()):
        x = xb + b * bw
        if not hits:
            out.add(f'<rect {_attrs(x=x, y=y, width=bw, height=bh, fill="#fff", stroke="#ccc", data_bank=b)}/>')
            continue
        title = f"bank {b}: " + "; ".join(what(p) for p in hits)
        conflict = len(hits) > 1
        out.add(f'<g {_attrs(class_="bank-hit", data_bank=b, data_threads=" ".join(str(phase.threads[p]) for p in hits))}>'
                f"<title>{escape(title)}</title>")
        for j, p in enumerate(hits):
            w = bw / len(hits)
            out.add(f'<rect {_attrs(x=x + j * w, y=y, width=w, height=bh, fill=THREAD_COLOURS[p % 8])}/>')
        out.add(f'<rect {_attrs(x=x, y=y, width=bw, height=bh, fill="none", stroke="#c00" if conflict else "#999", stroke_width=2 if conflict else 0.5)}/>')
        label = str(len(hits)) if conflict else f"t{phase.threads[hits[0]]}"
        out.add(_text(x + bw / 2, y + bh * 0.72, label, 8, text_anchor="middle", pointer_events="none",
                      font_weight="bold" if conflict else None))
        out.add("</g>")
    verdict = "conflict-free" if phase.ways == 1 else f"{phase.ways}-way conflict"
    out.add(_text(xb + BANKS * bw + 8, y + bh * 0.75, verdict, 10, fill="#070" if phase.ways == 1 else "#c00",
                  font_weight=None if phase.ways == 1 else "bold"))
    out.add("</g>")
