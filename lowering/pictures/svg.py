"""The SVG building blocks of the tile pictures: sizes, colours, escaped text and
attributes, the collected document, and which 128-byte rows of shared memory are drawn.

Stdlib only (and the layout core's `Major`): the pictures are escaped text, no SVG library.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from lower_tc.layout import Major

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


#: Rows of memory with no drawn element longer than this fold into one band.
FOLD_GAP_ROWS = 2


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


def attrs(**kw: Any) -> str:
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


def text(x: float, y: float, body: str, size: float = 11, **kw: Any) -> str:
    return f"<text {attrs(x=x, y=y, font_size=size, **kw)}>{escape(body)}</text>"


def label(x: float, y: float, w: float, h: float, body: str, size: float) -> str:
    """A cell's "mn,k" label, squeezed to the cell's width whatever the font."""
    fit = min(w - 1.5, len(body) * size * 0.62)
    return f"<text {attrs(x=round(x + (w - fit) / 2, 1), y=round(y + h * 0.72, 1), textLength=round(fit, 1))}>{body}</text>"


def labels(out: Svg, cells: list[str], size: float) -> None:
    """The cells' labels in one group that sets their font size once."""
    if cells:
        out.add(f'<g class="labels" font-size="{size:.1f}">')
        out.parts.extend(cells)
        out.add("</g>")


def clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


# -- the memory view's rows ----------------------------------------------------------


@dataclass
class Rows:
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
    def build(cls, base: int, used: list[int], y0: float, height: float) -> "Rows":
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


class Svg:
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


def range_outline(rows: Rows, x0: float, start: int, length: int) -> str:
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
