"""The views of a tile picture: the logical MN x K grid, the bytes in 128-byte rows of
shared memory (swizzle patterns, atoms, each K-slice's start with its LBO and SBO arrows),
the descriptor text, and the banks each 8-thread phase of the thread copy touches.

Every number comes from the layout core (`TileLayout.addresses`), the descriptor report
(lowering/descriptor_report.py) and the copy order (`lower_tc.layout.copy_order`).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

import numpy as np

from lower_tc.layout import Major, Swizzle, TileLayout
from lower_tc.layout.copy_order import (
    BANKS,
    COPY_THREADS,
    CopyChunks,
    StorePhase,
    contiguous_strides,
    store_phases,
    thread_copy_chunks,
)
from lower_tc.lowering.descriptor_report import format_encode, stride_roles
from lower_tc.lowering.pictures import svg
from lower_tc.lowering.pictures.svg import PX_PER_BIT, ROW_BYTES, THREAD_COLOURS, Rows, Svg
from lower_tc.lowering.pictures.tile import BANK_PHASES_SHOWN, TilePicture, element_title


def logical_view(
    out: Svg, pic: TilePicture, addr: np.ndarray, md: int, kd: int,
    x0: float, y0: float, cw: float, ch: float, labelled: bool,
) -> None:
    """View 1: MN x K cells coloured by coordinates, the atom grid, the K-slices."""
    lay = pic.layout
    a_mn, a_k = lay.atom_shape
    out.add(svg.text(x0, y0 - 44, f"logical tile: MN (down) x K (across), atoms of {a_mn}x{a_k}", 12,
                  font_weight="bold"))
    out.add('<g class="logical" data-view="logical">')
    font = min(ch * 0.62, cw / (0.62 * len(f"{md - 1},{kd - 1}")))
    labels = []
    for mn in range(md):
        for k in range(kd):
            a = int(addr[mn, k])
            x, y = x0 + k * cw, y0 + mn * ch
            cell = svg.attrs(
                x=x, y=y, width=cw, height=ch, fill=svg.colour(mn, k, lay.major, lay.dtype.per_chunk),
                data_mn=mn, data_k=k, data_byte=a - lay.address,
            )
            out.add(f"<rect {cell}><title>{escape(element_title(pic, mn, k, a))}</title></rect>")
            if labelled and font >= 3.5:
                labels.append(svg.label(x, y, cw, ch, f"{mn},{k}", font))
    out.add("</g>")
    svg.labels(out, labels, font)
    # axis labels
    step_mn = max(1, 8 if not labelled else a_mn)
    for mn in range(0, md, step_mn):
        out.add(svg.text(x0 - 4, y0 + mn * ch + min(ch, 10), str(mn), 9, text_anchor="end"))
    step_k = max(1, lay.dtype.k_per_instruction // (2 if kd <= 64 else 1))
    for k in range(0, kd, step_k):
        out.add(svg.text(x0 + k * cw, y0 - 3, str(k), 9))
    # the atom grid
    w, h = kd * cw, md * ch
    grid = [f"M{x0 + k * cw:.1f} {y0}v{h}" for k in range(0, kd + 1, a_k)]
    grid += [f"M{x0} {y0 + mn * ch:.1f}h{w}" for mn in range(0, md + 1, a_mn)]
    out.add(f'<path {svg.attrs(class_="atom-grid", d=" ".join(grid), stroke="#000", stroke_width=1.6, fill="none")}/>')
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
            f'<g {svg.attrs(class_="kslice-mark", data_slice_k=k)}>'
            f'<path {svg.attrs(d=f"M{xa + 1:.1f} {yb + 5}v-5h{xb - xa - 2:.1f}v5", stroke="#c00", fill="none", stroke_width=1.5)}/>'
            + svg.text(xa + 2, yb - 2, f"k={k}", 9, fill="#c00")
            + (f"<title>K-slice k={k}: start {s['start_address']:#07x}, desc {s['desc']}</title>" if "desc" in s else "")
            + "</g>"
        )
        if k:
            out.add(f'<path {svg.attrs(d=f"M{xa:.1f} {y0}v{h}", stroke="#c00", stroke_dasharray="3 3", stroke_width=1)}/>')
    out.extend(x0 + w, y0 + h)


def memory_view(
    out: Svg, pic: TilePicture, addr: np.ndarray, md: int, kd: int,
    x0: float, rows: Rows, labelled: bool,
) -> None:
    """View 2: 128-byte rows of shared memory with every element at its byte."""
    lay = pic.layout
    px = 8 * PX_PER_BIT
    rh = rows.height
    y0 = rows.y0
    out.add(svg.text(x0, y0 - 44, f"shared memory from {rows.base:#x}: rows of 128 bytes (8 x 16-byte chunks)",
                  12, font_weight="bold"))
    # the 32 banks across the top, and the chunks
    for b in range(BANKS):
        out.add(svg.text(x0 + b * 4 * px + 2 * px, y0 - 30, str(b), 8, text_anchor="middle", fill="#555"))
    out.add(svg.text(x0 - 4, y0 - 30, "bank", 8, text_anchor="end", fill="#555"))
    for c in range(8):
        out.add(svg.text(x0 + c * 16 * px + 8 * px, y0 - 19, f"chunk {c}", 8, text_anchor="middle", fill="#555"))
    # row backgrounds, chunk lines, address labels
    grid = []
    for r, y in sorted(rows.ys.items()):
        grid.append(f"M{x0} {y:.1f}h{ROW_BYTES * px}")
        out.add(svg.text(x0 - 4, y + rh * 0.8, f"{rows.base + r * ROW_BYTES:#06x}", min(9, rh * 0.85),
                      text_anchor="end", fill="#555"))
    for r, y in sorted(rows.ys.items()):
        for c in range(9):
            grid.append(f"M{x0 + c * 16 * px} {y:.1f}v{rh}")
    grid.append(f"M{x0} {rows.bottom:.1f}h{ROW_BYTES * px}")
    out.add(f'<rect {svg.attrs(x=x0, y=y0, width=ROW_BYTES * px, height=rows.bottom - y0, fill="#f4f4f4")}/>')
    for first, last, y in rows.folds:
        out.add(f'<rect {svg.attrs(x=x0, y=y, width=ROW_BYTES * px, height=rh, fill="#ddd")}/>')
        n = last - first + 1
        out.add(svg.text(x0 + 4, y + rh * 0.8, f"... {n} rows ({n * ROW_BYTES} bytes) not drawn ...",
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
            cell = svg.attrs(
                x=x, y=y, width=bits * PX_PER_BIT, height=rh, fill=svg.colour(mn, k, lay.major, lay.dtype.per_chunk),
                data_mn=mn, data_k=k, data_byte=a - lay.address,
            )
            out.add(f"<rect {cell}><title>{escape(element_title(pic, mn, k, a))}</title></rect>")
            if labelled and bits * PX_PER_BIT >= 28 and font >= 3.5:
                labels.append(svg.label(x, y, bits * PX_PER_BIT, rh, f"{mn},{k}", font))
    out.add("</g>")
    svg.labels(out, labels, font)
    if rh >= 9 and bits * PX_PER_BIT < 28:  # name each 16-byte chunk: the swizzle moves whole chunks
        out.add('<g class="chunk-labels">')
        k_major = lay.major is Major.K
        for mn in range(0, md, 1 if k_major else per):
            for k in range(0, kd, per if k_major else 1):
                a = int(addr[mn, k])
                y, _ = rows.y_of(a)
                x = x0 + (a - rows.base) % ROW_BYTES * 8 * PX_PER_BIT
                body = f"{mn},{k}..{k + per - 1}" if k_major else f"{mn}..{mn + per - 1},{k}"
                out.add(svg.text(x + 64 * PX_PER_BIT, y + rh * 0.78, body, min(9, rh * 0.8), text_anchor="middle",
                              class_="ann", pointer_events="none"))
        out.add("</g>")
    out.add(f'<path {svg.attrs(d=" ".join(grid), stroke="#bbb", stroke_width=0.5, fill="none")}/>')
    _pattern_outlines(out, lay, x0, rows)
    _atom_outlines(out, lay, md, kd, x0, rows)
    if pic.report:
        _descriptor_arrows(out, pic, x0, rows)
    out.extend(x0 + ROW_BYTES * px, rows.bottom)


def _pattern_outlines(out: Svg, lay: TileLayout, x0: float, rows: Rows) -> None:
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
        d = svg.range_outline(rows, x0, max(p, rows.base), p + period - max(p, rows.base))
        if d:
            out.add(
                f'<path {svg.attrs(d=d, fill="none", stroke="#1f5fbf", stroke_width=1.2, stroke_dasharray="6 3", data_pattern=p)}>'
                f"<title>{escape(f'{lay.swizzle} swizzle pattern [{p:#x}, {p + period:#x})')}</title></path>"
            )
            y, note = rows.y_of(max(p, rows.base))
            if note is None:
                out.add(svg.text(x0 + ROW_BYTES * 8 * PX_PER_BIT + 6, y + 10, f"{lay.swizzle} pattern @{p:#x}", 9,
                              fill="#1f5fbf"))
        p += period
    out.add("</g>")


def _atom_outlines(out: Svg, lay: TileLayout, md: int, kd: int, x0: float, rows: Rows) -> None:
    """Solid boxes around each drawn atom's bytes."""
    a_mn, a_k = lay.atom_shape
    s_mn, s_k = lay.strides
    out.add('<g class="atoms">')
    for i in range(md // a_mn):
        for j in range(kd // a_k):
            start = lay.address + i * s_mn + j * s_k
            d = svg.range_outline(rows, x0, start, lay.atom_bytes)
            if d:
                out.add(
                    f'<path {svg.attrs(d=d, fill="none", stroke="#000", stroke_width=1.6, data_atom=f"{i},{j}")}>'
                    f"<title>atom ({i},{j}): MN {i * a_mn}..{(i + 1) * a_mn - 1}, K {j * a_k}..{(j + 1) * a_k - 1}, "
                    f"bytes [{start:#x}, {start + lay.atom_bytes:#x})</title></path>"
                )
    out.add("</g>")


def _descriptor_arrows(out: Svg, pic: TilePicture, x0: float, rows: Rows) -> None:
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
        group = svg.attrs(
            class_="kslice", data_slice_k=s["k"], data_start=start, data_lbo=r["lbo"], data_sbo=r["sbo"],
            data_base_offset=r["base_offset"], data_swizzle=r["swizzle"], data_desc=s["desc"],
        )
        out.add(f"<g {group}>")
        out.add(
            f'<circle {svg.attrs(class_="start", cx=xs, cy=ys, r=3.5, fill="#c00", stroke="#fff", data_address=start)}>'
            f"<title>K-slice k={s['k']}: start address {start:#07x}, desc {s['desc']}</title></circle>"
        )
        out.add(svg.text(xs + 4, y - 3, f"k={s['k']} {start:#x}", 9, fill="#c00", font_weight="bold", class_="ann"))
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
            arrow = svg.attrs(
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
            out.add(svg.text(lx, ly, label, 9, fill=stroke, font_weight="bold", class_="ann"))
        out.add("</g>")


def _roles(report: dict[str, Any]) -> tuple[str, str]:
    return stride_roles(report["major"], report["swizzle"])


def descriptor_panel(out: Svg, pic: TilePicture, x0: float, y: float) -> float:
    """The text `lower-tc desc encode` prints for the tile, line by line."""
    if pic.report is None:
        out.add(svg.text(x0, y, "descriptors: none (no MMA reads this tile through a descriptor)", 12))
        return y + 16
    out.add(svg.text(x0, y, "descriptors (as lower-tc desc encode prints them):", 12, font_weight="bold"))
    out.add('<g class="desc-text">')
    for line in format_encode(pic.report).splitlines():
        y += 15
        out.add(svg.text(x0, y, line, 11, style="white-space:pre"))
    out.add("</g>")
    return y + 8


def bank_view(out: Svg, pic: TilePicture, x0: float, y: float) -> float:
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
        f'<g {svg.attrs(class_="banks", data_phases=len(phases), data_conflict_phases=len(bad), data_max_ways=worst)}>'
    )
    out.add(svg.text(x0, y, "banks: the thread copy's 16-byte stores, 8 threads per phase", 12, font_weight="bold"))
    y += 16
    rounds = -(-len(chunks) // COPY_THREADS)
    line = (
        f"{len(chunks)} chunks, {COPY_THREADS} threads, {rounds} round(s); global matrix contiguous along {g} "
        f"(element strides MN {s_mn}, K {s_k}); {len(phases)} phases, "
        + (f"{len(bad)} with bank conflicts, worst {worst}-way" if bad else "all conflict-free")
    )
    out.add(svg.text(x0, y, line, 11, fill="#a00" if bad else "#070"))
    if pic.copy_note:
        y += 15
        out.add(svg.text(x0, y, pic.copy_note, 11))
    if lay.swizzle is Swizzle.NONE and bad:
        y += 15
        out.add(svg.text(x0, y, "without swizzle, the chunks one phase stores lie a whole stride apart and "
                      "share banks: the swizzle spreads them over all 32", 11))
    y += 24
    bw, bh = 26, 16
    xb = x0 + 110
    for b in range(BANKS):
        out.add(svg.text(xb + b * bw + bw / 2, y - 4, str(b), 8, text_anchor="middle", fill="#555"))
    for row, phase in enumerate(phases[:BANK_PHASES_SHOWN]):
        yr = y + row * bh
        _phase_row(out, pic, chunks, phase, x0, xb, yr, bw, bh)
    shown = min(len(phases), BANK_PHASES_SHOWN)
    y += shown * bh
    if len(phases) > shown:
        y += 14
        out.add(svg.text(x0, y, f"first {shown} of {len(phases)} phases drawn (one round of {COPY_THREADS} "
                      "threads); the counts above cover all", 10, fill="#555"))
    out.add("</g>")
    out.extend(xb + BANKS * bw + 120, y)
    return y + 10


def _phase_row(
    out: Svg, pic: TilePicture, chunks: CopyChunks, phase: StorePhase,
    x0: float, xb: float, y: float, bw: float, bh: float,
) -> None:
    lay = pic.layout
    per = lay.dtype.per_chunk
    t0, t1 = phase.threads[0], phase.threads[-1]
    out.add(f'<g {svg.attrs(class_="phase", data_phase=phase.index, data_ways=phase.ways, data_round=phase.round)}>')
    out.add(svg.text(x0, y + bh * 0.75, f"r{phase.round} t{t0}-{t1}", 10))

    def what(pos: int) -> str:
        c = phase.chunks[pos]
        mn, k, a = int(chunks.mn[c]), int(chunks.k[c]), phase.addresses[pos]
        elems = f"{pic.name}[{mn},{k}..{k + per - 1}]" if lay.major is Major.K else f"{pic.name}[{mn}..{mn + per - 1},{k}]"
        return f"t{phase.threads[pos]} stores {elems} at {a:#06x}"

    for b, hits in enumerate(phase.banks()):
        x = xb + b * bw
        if not hits:
            out.add(f'<rect {svg.attrs(x=x, y=y, width=bw, height=bh, fill="#fff", stroke="#ccc", data_bank=b)}/>')
            continue
        title = f"bank {b}: " + "; ".join(what(p) for p in hits)
        conflict = len(hits) > 1
        out.add(f'<g {svg.attrs(class_="bank-hit", data_bank=b, data_threads=" ".join(str(phase.threads[p]) for p in hits))}>'
                f"<title>{escape(title)}</title>")
        for j, p in enumerate(hits):
            w = bw / len(hits)
            out.add(f'<rect {svg.attrs(x=x + j * w, y=y, width=w, height=bh, fill=THREAD_COLOURS[p % 8])}/>')
        out.add(f'<rect {svg.attrs(x=x, y=y, width=bw, height=bh, fill="none", stroke="#c00" if conflict else "#999", stroke_width=2 if conflict else 0.5)}/>')
        label = str(len(hits)) if conflict else f"t{phase.threads[hits[0]]}"
        out.add(svg.text(x + bw / 2, y + bh * 0.72, label, 8, text_anchor="middle", pointer_events="none",
                      font_weight="bold" if conflict else None))
        out.add("</g>")
    verdict = "conflict-free" if phase.ways == 1 else f"{phase.ways}-way conflict"
    out.add(svg.text(xb + BANKS * bw + 8, y + bh * 0.75, verdict, 10, fill="#070" if phase.ways == 1 else "#c00",
                  font_weight=None if phase.ways == 1 else "bold"))
    out.add("</g>")
