"""`lower-tc -t html`: one self-contained page per program, readable offline.

Why one page: a kernel's tiles, the descriptors of its MMAs and where everything
sits in shared memory belong together when one of them is wrong. The page has no
external resource (styles and the hover script are inline, pictures are inline
SVG), so it opens from a file on a machine without network.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from lower_tc.lowering.pictures.picture import tile_svg_element
from lower_tc.lowering.pictures.svg import HOVER_SCRIPT
from lower_tc.lowering.pictures.picture_program import KernelEntry, MmaEntry

PAGE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 20px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 19px; margin-top: 32px; border-bottom: 1px solid #ccc; }
h3 { font-size: 16px; }
code, td.num, table.desc td { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
table { border-collapse: collapse; margin: 6px 0 14px 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
th { background: #f0f0f0; }
figure { margin: 12px 0 28px 0; overflow-x: auto; }
figcaption { font-weight: bold; margin-bottom: 4px; }
nav a { margin-right: 10px; }
"""

SCRATCH_NOTE = (
    "the tiles end at {start:#x}; the lowering's scratch follows (aligned to 8 or 16 bytes): "
    "the mbarriers of TMA copies, tcgen05 commits and a ring's full/empty stages (8 bytes "
    "each), and tcgen05's tensor-memory address slot (4 bytes); their exact offsets are the "
    "lowering's"
)


def _a(**kw: object) -> str:
    return " ".join(f"{k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in kw.items())


def program_html(kernels: list[KernelEntry], source: str) -> str:
    """The whole page: for each kernel its shared-memory map, MMA descriptor tables
    and every tile's picture."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>lower-tc: {escape(source)}</title>",
        f"<style>{PAGE_STYLE}</style></head><body>",
        f"<h1>lower-tc: layouts of {escape(source)}</h1>",
        "<p>After tc-choose-swizzle, tc-assign-smem and tc-compute-descriptors. Hover a cell "
        "for its element, address and bank; the same element is outlined in both views.</p>",
    ]
    if not kernels:
        out.append("<p>No tile kernel (an op with <code>tc.target</code>) in this program.</p>")
    out.append("<nav>" + " ".join(
        f'<a href="#kernel-{escape(k.name)}">{escape(k.name)}</a>' for k in kernels
    ) + "</nav>")
    for n, k in enumerate(kernels):
        out.append(f'<section {_a(id=f"kernel-{k.name}", class_="kernel", data_kernel=k.name)}>')
        out.append(f"<h2>kernel {escape(k.name)} ({escape(k.target)})</h2>")
        out.append("<h3>shared memory</h3>")
        out.append(_smem_map(k))
        out.append("<h3>MMA descriptors</h3>")
        if not k.mmas:
            out.append("<p>No wgmma or tcgen05 MMA reads shared memory through descriptors.</p>")
        for i, mma in enumerate(k.mmas):
            out.append(_mma_table(mma, i))
        out.append("<h3>tiles</h3>")
        for t in k.tiles:
            fig_id = f"tile-{k.name}-{t.name}"
            out.append(f'<figure {_a(id=fig_id, data_tile=t.name)}><figcaption>%{escape(t.name)}</figcaption>')
            out.append(tile_svg_element(t.picture, uid=f"-{n}-{t.name}"))
            out.append("</figure>")
        out.append("</section>")
    out.append(f"<script>{HOVER_SCRIPT}</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _smem_map(k: KernelEntry) -> str:
    """A bar of the kernel's dynamic shared memory with its tiles, and a table."""
    scratch = k.tiles_end
    total = max(scratch, 1)
    width = 1000.0
    scale = width / (total * 1.1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="smem-map" {_a(width=int(width) + 40, height=70)}>',
        f'<rect {_a(x=0, y=10, width=width, height=30, fill="#f4f4f4", stroke="#999")}/>',
    ]
    for i, t in enumerate(k.tiles):
        colour = ("#8da0cb", "#fc8d62", "#66c2a5", "#e78ac3", "#a6d854")[i % 5]
        parts.append(f'<g {_a(class_="smem-tile", data_tile=t.name, data_start=t.layout.address, data_end=t.end, data_stages=t.stages)}>')
        for s in range(t.stages):  # a ring's buffers, each one tile
            start = t.layout.address + s * t.stride
            x, w = start * scale, max(t.layout.footprint * scale, 1)
            label = f"%{t.name}" + (f"[{s}]" if t.stages > 1 else "")
            parts.append(
                f'<rect {_a(x=round(x, 1), y=10, width=round(w, 1), height=30, fill=colour, stroke="#333")}>'
                f"<title>{escape(label)}: [{start:#x}, {start + t.layout.footprint:#x}), "
                f"{t.layout.footprint} bytes</title></rect>"
                f'<text {_a(x=round(x + 3, 1), y=30, font_size=11)}>{escape(label)}</text>'
            )
        parts.append("</g>")
    sx = scratch * scale
    parts.append(
        f'<g {_a(class_="smem-scratch", data_start=scratch)}>'
        f'<rect {_a(x=round(sx, 1), y=10, width=round(width - sx, 1), height=30, fill="#ddd", stroke="#999", stroke_dasharray="4 2")}>'
        f"<title>{escape(SCRATCH_NOTE.format(start=scratch))}</title></rect>"
        f'<text {_a(x=round(sx + 3, 1), y=30, font_size=11)}>scratch...</text></g>'
    )
    parts.append(f'<text {_a(x=0, y=58, font_size=11)}>0</text>')
    parts.append(f'<text {_a(x=round(sx, 1), y=58, font_size=11)}>{scratch:#x}</text>')
    parts.append("</svg>")
    rows = [
        "<table class=\"smem\"><tr><th>tile</th><th>operand</th><th>type</th><th>start</th>"
        "<th>end</th><th>bytes</th><th>swizzle</th><th>stages</th></tr>"
    ]
    for t in k.tiles:
        lay = t.layout
        rows.append(
            f'<tr {_a(data_tile=t.name)}><td>%{escape(t.name)}</td><td>{escape(t.picture.name)}</td>'
            f"<td><code>{lay.mn}x{lay.k}x{lay.dtype} {lay.major.value}-major</code></td>"
            f'<td class="num">{lay.address:#x}</td><td class="num">{t.end:#x}</td>'
            f'<td class="num">{t.end - lay.address}</td><td>{lay.swizzle}</td>'
            f'<td class="num">{t.stages}' + (f" x {t.stride} B" if t.stages > 1 else "") + "</td></tr>"
        )
    rows.append("</table>")
    note = f"<p>{escape(SCRATCH_NOTE.format(start=scratch))}.</p>"
    return "\n".join(parts) + "\n" + "\n".join(rows) + note


def _mma_table(mma: MmaEntry, index: int) -> str:
    head = (
        f"<p><code>{escape(mma.op_name)}</code> #{index} ({escape(mma.where)}): "
        f"A = %{escape(mma.a)}, B = %{escape(mma.b)}</p>"
    )
    rows = [
        f'<table class="desc" {_a(data_mma=index)}><tr><th>operand</th><th>k</th><th>start</th>'
        "<th>LBO</th><th>SBO</th><th>base offset</th><th>swizzle</th><th>descriptor</th></tr>"
    ]
    for role, slices in mma.descs.items():
        for s in slices:
            rows.append(
                f'<tr {_a(data_operand=role, data_slice_k=s["k"], data_start=s["start"], data_lbo=s["lbo"], data_sbo=s["sbo"], data_base_offset=s["base_offset"], data_swizzle=s["swizzle"], data_desc=format(s["value"], "#018x"))}>'
                f"<td>{role}</td><td>{s['k']}</td><td>{s['start']:#07x}</td><td>{s['lbo']}</td>"
                f"<td>{s['sbo']}</td><td>{s['base_offset']}</td><td>{escape(s['swizzle'])}</td>"
                f"<td>{s['value']:#018x}</td></tr>"
            )
    rows.append("</table>")
    if mma.idesc:
        d = mma.idesc
        rows.append(
            f'<p {_a(class_="idesc", data_idesc=format(d["value"], "#010x"))}>instruction descriptor '
            f"<code>{d['value']:#010x}</code>: kind::{escape(d['kind'])}, A {escape(d['a'])} "
            f"({escape(d['a_major'])}-major), B {escape(d['b'])} ({escape(d['b_major'])}-major), "
            f"D {escape(d['d'])}, M {d['m']}, N {d['n']}</p>"
        )
    return head + "\n" + "\n".join(rows)
