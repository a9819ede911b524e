"""Layout pictures: `lower-tc desc show`, `-t svg` and `-t html`.

Every picture is parsed (xml.etree for SVG, html.parser for the page) and checked
against the layout core and `desc encode --json`: one cell per element in each
view, every cell's byte offset, every K-slice's start, LBO, SBO, base offset and
swizzle; the bank view against the copy order the lowering uses. One test opens
the page in headless Chromium where it is installed (skipped with the reason
otherwise).
"""

from __future__ import annotations

import json
import math
import shutil
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest

from lower_tc.layout import Arch, LayoutError, TileLayout, k_slices
from lower_tc.layout.copy_order import bank_of, contiguous_strides, store_phases, thread_copy_chunks
from lower_tc.lowering.cli.main import main
from lower_tc.lowering.pictures.picture import TilePicture, tile_svg

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SVG = "{http://www.w3.org/2000/svg}"


# -- helpers ------------------------------------------------------------------------


def desc(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["desc", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def cells(root: ET.Element, view: str) -> list[ET.Element]:
    groups = [g for g in root.iter(f"{SVG}g") if g.get("data-view") == view]
    assert len(groups) == 1, f"one {view} view"
    return [e for e in groups[0].iter() if e.get("data-mn") is not None]


def title_of(el: ET.Element) -> str:
    t = el.find(f"{SVG}title")
    assert t is not None and t.text, "every cell has a hover title"
    return t.text


def check_picture(root: ET.Element, layout: TileLayout, name: str = "A") -> None:
    """One cell per element in each view, at the layout core's byte, titled."""
    expected = layout.address_map() - layout.address
    for view in ("logical", "smem"):
        seen = {}
        for c in cells(root, view):
            mn, k = int(c.get("data-mn")), int(c.get("data-k"))
            assert (mn, k) not in seen, f"{view}: two cells for ({mn}, {k})"
            seen[(mn, k)] = int(c.get("data-byte"))
            addr = layout.address + seen[(mn, k)]
            assert title_of(c) == f"{name}[{mn},{k}] @ {addr:#06x}, bank {bank_of(addr)}"
        assert len(seen) == layout.mn * layout.k, f"{view}: {len(seen)} cells for {layout.mn}x{layout.k}"
        got = np.zeros_like(expected)
        for (mn, k), byte in seen.items():
            got[mn, k] = byte
        assert np.array_equal(got, expected), f"{view}: data-byte differs from TileLayout.addresses"


def check_descriptors(root: ET.Element, report: dict) -> None:
    """The K-slice annotations carry exactly what `desc encode --json` prints."""
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "kslice"]
    assert [int(g.get("data-slice-k")) for g in groups] == [s["k"] for s in report["k_slices"]]
    for g, s in zip(groups, report["k_slices"]):
        assert int(g.get("data-start")) == s["start_address"]
        assert g.get("data-desc") == s["desc"]
        assert int(g.get("data-lbo")) == report["lbo"] and int(g.get("data-sbo")) == report["sbo"]
        assert int(g.get("data-base-offset")) == report["base_offset"]
        assert g.get("data-swizzle") == report["swizzle"]
        arrows = {p.get("class"): p for p in g.iter(f"{SVG}path")}
        for key in ("lbo", "sbo"):
            arrow = arrows[f"arrow {key}"]
            assert int(arrow.get("data-from")) == s["start_address"]
            assert int(arrow.get("data-bytes")) == report[key]
            assert int(arrow.get("data-to")) == s["start_address"] + report[key]
        start = g.find(f"{SVG}circle")
        assert start is not None and int(start.get("data-address")) == s["start_address"]


# -- every mode ---------------------------------------------------------------------

DTYPES = {  # bits: (dtype, target that reads it)
    4: ("e2m1", "sm_100a"), 6: ("e2m3", "sm_100a"), 8: ("e4m3", "sm_100a"),
    16: ("bf16", "sm_90a"), 32: ("tf32", "sm_100a"),
}
SWIZZLES = ("none", "32b", "64b", "128b", "128b_base32b")
PLACEMENTS = ("mn-first", "k-first", "padded", "origin")


def _shape(dtype: str, major: str, swizzle: str) -> tuple[int, int]:
    """Two atoms along each dimension, K a whole number of 32-byte instruction slices."""
    probe = TileLayout.make(dtype, 256, 256, major, swizzle)
    a_mn, a_k = probe.atom_shape
    k = math.lcm(a_k, probe.dtype.k_per_instruction)
    return 2 * a_mn, max(k, 2 * a_k)


def mode_args(bits: int, major: str, swizzle: str, placement: str) -> list[str]:
    dtype, arch = DTYPES[bits]
    if major == "mn" and dtype == "tf32":
        arch = "sm_100a"
    hopper = dtype == "bf16" or (major == "k" and dtype in ("e4m3", "tf32"))
    if placement == "origin" and hopper:
        arch = "sm_90a"
    try:
        mn, k = _shape(dtype, major, swizzle)
    except LayoutError:
        mn, k = 16, 64
    args = ["--arch", arch, "--dtype", dtype, "--major", major, "--swizzle", swizzle,
            "--mn", str(mn), "--k", str(k)]
    if placement == "k-first":
        args += ["--order", "k-first", "--addr", "0x800"]
    elif placement == "padded":
        try:
            probe = TileLayout.make(dtype, mn, k, major, swizzle)
            step = max(probe.swizzle.period, 16)
            s_mn = probe.atom_bytes + step
            s_k = probe.atoms[0] * s_mn + step
            args += ["--atom-strides", f"{s_mn},{s_k}", "--addr", "0x1000"]
        except LayoutError:
            args += ["--atom-strides", "144,1024"]
    elif placement == "origin" and arch == "sm_90a":  # off the pattern boundary, swizzled from there
        args += ["--addr", "0x480", *(["--swizzle-origin", "0x480"] if swizzle != "none" else [])]
    elif placement == "origin":  # tcgen05 reads only tiles on their pattern boundary
        args += ["--addr", "0x800", *(["--swizzle-origin", "0x400"] if swizzle != "none" else [])]
    else:
        args += ["--addr", "0x400"]
    return args


MODES = [
    (bits, major, swizzle, placement)
    for bits in DTYPES
    for major in ("k", "mn")
    for swizzle in SWIZZLES
    for placement in PLACEMENTS
]


@pytest.mark.parametrize("bits,major,swizzle,placement", MODES)
def test_every_mode_matches_layout_core_and_desc_encode(capsys, tmp_path, bits, major, swizzle, placement) -> None:
    args = mode_args(bits, major, swizzle, placement)
    code, out, err = desc(capsys, "encode", *args, "--json")
    svg = tmp_path / "tile.svg"
    show_code, _, show_err = desc(capsys, "show", *args, "-o", str(svg))
    if code != 0:  # a combination no hardware reads: show refuses it the same way, writing nothing
        assert show_code == 2 and show_err == err and not svg.exists()
        assert err.startswith("lower-tc desc: error: ") and err.count("\n") == 1
        return
    assert show_code == 0, show_err
    report = json.loads(out)
    layout = TileLayout.make(
        report["dtype"], report["mn"], report["k"], report["major"], report["swizzle"],
        atom_strides=tuple(report["atom_strides"]), address=report["start_address"],
        swizzle_origin=int(args[args.index("--swizzle-origin") + 1], 16) if "--swizzle-origin" in args else None,
    )
    root = ET.parse(svg).getroot()
    assert root.get("data-folded") is None
    check_picture(root, layout)
    check_descriptors(root, report)
    # the descriptor panel is desc encode's own text, line by line
    text = [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "desc-text" for t in g]
    code, plain, _ = desc(capsys, "encode", *args)
    assert text == plain.rstrip("\n").split("\n")


def test_modes_cover_every_width_major_and_swizzle(capsys, tmp_path) -> None:
    """The sweep above is not mostly skips: every element width, both major-nesses and
    every swizzle mode (and the padded and origin placements) are drawn somewhere."""
    drawn = set()
    for bits, major, swizzle, placement in MODES:
        code, _, _ = desc(capsys, "encode", *mode_args(bits, major, swizzle, placement))
        if code == 0:
            drawn.add((bits, major, swizzle, placement))
    assert {b for b, *_ in drawn} == set(DTYPES)
    assert {m for _, m, *_ in drawn} == {"k", "mn"}
    assert {s for _, _, s, _ in drawn} == set(SWIZZLES)
    assert {p for *_, p in drawn} == set(PLACEMENTS)
    assert len(drawn) >= 110


def test_pictures_see_a_wrong_address() -> None:
    """The check is not vacuous: a picture of one layout fails against another."""
    right = TileLayout.make("bf16", 16, 64, "k", "128b", address=0x400)
    wrong = TileLayout.make("bf16", 16, 64, "k", "64b", address=0x400)
    root = ET.fromstring(tile_svg(TilePicture(right)))
    check_picture(root, right)
    with pytest.raises(AssertionError):
        check_picture(root, wrong)


# -- size limits --------------------------------------------------------------------


def test_large_tile_is_folded_with_a_note(capsys, tmp_path) -> None:
    svg = tmp_path / "big.svg"
    code, _, err = desc(capsys, "show", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k",
                        "--swizzle", "128b", "--mn", "256", "--k", "256", "-o", str(svg))
    assert code == 0, err
    root = ET.parse(svg).getroot()
    assert root.get("data-folded") == "64x128"
    layout = TileLayout.make("bf16", 256, 256, "k", "128b")
    for view in ("logical", "smem"):
        got = cells(root, view)
        assert len(got) == 64 * 128
        for c in got[::97]:
            mn, k = int(c.get("data-mn")), int(c.get("data-k"))
            assert int(c.get("data-byte")) == int(layout.addresses(mn, k))
    notes = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("folded:")]
    assert notes and "256x256" in notes[0]
    assert svg.stat().st_size < 4_000_000


def test_too_large_tile_is_one_line_error_and_no_file(capsys, tmp_path) -> None:
    svg = tmp_path / "huge.svg"
    code, out, err = desc(capsys, "show", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k",
                          "--swizzle", "none", "--mn", "512", "--k", "64", "-o", str(svg))
    assert code == 2 and out == "" and not svg.exists()
    assert err == ("lower-tc desc: error: tile 512x64 is too large to draw: pictures show at most "
                   "256 x 256 elements (desc encode prints its numbers)\n")


@pytest.mark.parametrize("argv,message", [
    (["--mn", "12"], "MN extent 12 is not a whole number"),
    (["--dtype", "f64"], "unknown element type 'f64'"),
    (["--addr", "0x40"], "is not 128-byte aligned"),
])
def test_show_bad_input_one_line_exit_2_no_file(capsys, tmp_path, argv, message) -> None:
    base = {"--arch": "sm_90a", "--dtype": "bf16", "--major": "k", "--swizzle": "128b", "--mn": "64", "--k": "64"}
    base.update(dict(zip(argv[::2], argv[1::2])))
    svg = tmp_path / "x.svg"
    code, out, err = desc(capsys, "show", *[x for kv in base.items() for x in kv], "-o", str(svg))
    assert code == 2 and out == "" and not svg.exists()
    assert err.startswith("lower-tc desc: error: ") and message in err and err.count("\n") == 1


def test_show_unwritable_output(capsys, tmp_path) -> None:
    code, _, err = desc(capsys, "show", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k",
                        "--swizzle", "128b", "--mn", "8", "--k", "64", "-o", str(tmp_path / "no" / "x.svg"))
    assert code == 2 and err.startswith("lower-tc desc: error: cannot write") and err.count("\n") == 1


# -- banks ----------------------------------------------------------------------------


def _bank_group(root: ET.Element) -> ET.Element:
    (g,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "banks"]
    return g


@pytest.mark.parametrize("swizzle,ways", [("none", 8), ("32b", 4), ("64b", 2), ("128b", 1)])
def test_bank_view_shows_why_swizzling_exists(swizzle, ways) -> None:
    """A 64 x 64 bf16 K-major tile copied from a row-major matrix: each phase of 8
    threads stores one 128-byte row of K. Unswizzled, the row's 8 chunks are a whole
    LBO apart and all land on banks 0-3 (8-way); each swizzle width halves that."""
    layout = TileLayout.make("bf16", 64, 64, "k", swizzle)
    root = ET.fromstring(tile_svg(TilePicture(layout)))
    g = _bank_group(root)
    assert int(g.get("data-max-ways")) == ways
    assert int(g.get("data-phases")) == 64 * 64 * 2 // 16 // 8
    assert int(g.get("data-conflict-phases")) == (0 if ways == 1 else 64)
    first = [p for p in g if p.get("class") == "phase"][0]
    assert int(first.get("data-ways")) == ways
    hits = {int(h.get("data-bank")): h.get("data-threads") for h in first.iter(f"{SVG}g")
            if h.get("class") == "bank-hit"}
    if swizzle == "none":  # thread t stores A[0, 8t..8t+7] at t * LBO (1024 bytes): banks 0-3
        assert hits == {b: "0 1 2 3 4 5 6 7" for b in range(4)}
    if swizzle == "128b":  # the row's 8 chunks are 8 different 16-byte columns
        assert hits == {b: str(b // 4) for b in range(32)}


def test_copy_order_is_the_lowerings() -> None:
    """thread_copy_chunks is the table tc-lower-to-ptx builds: sorted by global offset,
    each entry (shared offset, global offset) of a chunk's first element."""
    layout = TileLayout.make("bf16", 64, 32, "mn", "64b", address=0x400)
    s_mn, s_k = 1, 64  # B stored K x N row-major: contiguous along N
    chunks = thread_copy_chunks(layout, s_mn, s_k)
    assert len(chunks) == 64 * 32 // 8
    assert list(chunks.gmem) == sorted(chunks.gmem)
    assert list(chunks.smem) == [int(layout.addresses(m, k)) for m, k in zip(chunks.mn, chunks.k)]
    assert {(int(m), int(k)) for m, k in zip(chunks.mn, chunks.k)} == {
        (m, k) for m in range(0, 64, 8) for k in range(32)
    }
    phases = store_phases(chunks)
    assert [p.threads for p in phases[:2]] == [tuple(range(8)), tuple(range(8, 16))]
    assert phases[16].round == 1 and phases[16].threads[0] == 0
    assert contiguous_strides(layout) == (1, 64)


def test_lowering_stores_chunks_in_copy_order() -> None:
    """The copy tables in the PTX of a thread-copied kernel hold, entry by entry, the
    (shared offset, global offset) pairs of thread_copy_chunks: the bank view shows
    the stores the lowering emits."""
    import re

    from lower_tc.dialects import tc
    from lower_tc.lowering.compile import compile_source

    src = (EXAMPLES / "wgmma_bf16_kmajor.mlir").read_text()
    placed = []  # the tc IR as tc-lower-to-ptx receives it: tiles placed
    (kernel,) = compile_source(src, "wgmma_bf16_kmajor.mlir", before_lowering=lambda m: placed.append(m.clone()))
    tables = [
        [int(v) for v in body.split(",")]
        for body in re.findall(r"_table_\d+\[\d+\] = \{([^}]*)\}", kernel.ptx)
    ]
    copies = [op for op in placed[0].walk() if isinstance(op, tc.CopyOp)]
    assert copies and all(op.via.data is tc.CopyVia.THREADS for op in copies)
    assert len(tables) >= len(copies)
    for op, table in zip(copies, tables):
        s_row, s_col = tc.matrix_strides(op.src.type, "src")
        strides = (s_row, s_col) if op.operand.data is tc.Operand.A else (s_col, s_row)
        chunks = thread_copy_chunks(op.dst.type.tile_layout(), *strides)
        assert table[0::2] == [int(a) for a in chunks.smem]
        assert table[1::2] == [int(g) for g in chunks.gmem]


# -- programs -------------------------------------------------------------------------


def driver(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from lower_tc.lowering.cli.main import main; sys.exit(main())", *argv],
        capture_output=True, text=True, check=False,
    )


def test_svg_target_writes_one_picture_per_tile(tmp_path, capsys) -> None:
    out = tmp_path / "pics"
    done = driver(str(EXAMPLES / "wgmma_bf16_tma_offset.mlir"), "-t", "svg", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["wgmma_bf16_tma_offset.a.svg", "wgmma_bf16_tma_offset.b.svg"]
    a = ET.parse(out / "wgmma_bf16_tma_offset.a.svg").getroot()
    # the pinned offset and the tile's own layout, as desc encode sees them
    layout = TileLayout.make("bf16", 64, 64, "k", "128b", address=1152)
    check_picture(a, layout, "A")
    code, js, _ = desc(capsys, "encode", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k",
                       "--swizzle", "128b", "--mn", "64", "--k", "64", "--addr", "1152", "--json")
    check_descriptors(a, json.loads(js))
    b = ET.parse(out / "wgmma_bf16_tma_offset.b.svg").getroot()
    layout_b = TileLayout.make("bf16", 64, 64, "mn", "128b", order="k-first", address=9344)
    check_picture(b, layout_b, "B")
    assert b.get("data-start") == "9344"


def test_svg_target_errors_write_nothing(tmp_path) -> None:
    out = tmp_path / "pics"
    done = driver(str(EXAMPLES / "wgmma_bf16_kmajor.mlir"), "-t", "svg", "-o", str(out), "-p", "tc-choose-swizzle")
    assert done.returncode == 1 and not out.exists()
    assert done.stderr.count("\n") == 1 and "wgmma_bf16_kmajor.mlir:" in done.stderr
    assert "error: pictures show placed tiles: run tc-choose-swizzle and tc-assign-smem first" in done.stderr
    done = driver(str(EXAMPLES / "wgmma_bf16_kmajor.mlir"), "-t", "svg")
    assert done.returncode == 1 and done.stderr == "lower-tc: error: -t svg writes one file per tile: give -o DIR\n"


class _Page(HTMLParser):
    """Collects the page's tags and attributes (stdlib parser)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.titles = 0
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        want = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in want.items())]


def test_html_page_is_self_contained_and_complete(tmp_path) -> None:
    page = tmp_path / "k.html"
    src = EXAMPLES / "wgmma_bf16_tma_offset.mlir"
    done = driver(str(src), "-t", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    p = _Page()
    p.feed(text)
    # offline: nothing is fetched (no src/href to another resource, no <link>, no @import)
    assert not p.find("link") and "@import" not in text
    for _, attrs in p.tags:
        for key in ("src", "href"):
            value = attrs.get(key)
            assert value is None or value.startswith("#"), f"{key}={value}"
    # every tile's picture, with one cell per element per view
    assert len(p.find("svg", class_="tc-tile")) == 2
    cells_ = [a for t, a in p.tags if t == "rect" and a.get("data-mn") is not None]
    assert len(cells_) == 2 * (64 * 64 + 64 * 64)
    # the shared-memory map: the tiles where tc-assign-smem put them, scratch after
    tiles = {a["data-tile"]: (int(a["data-start"]), int(a["data-end"])) for a in p.find("g", class_="smem-tile")}
    assert tiles == {"a": (1152, 1152 + 8192), "b": (9344, 9344 + 8192)}
    (scratch,) = p.find("g", class_="smem-scratch")
    assert int(scratch["data-start"]) == 9344 + 8192
    # the MMA's descriptor table is the IR's #tc.desc attributes, which are desc encode's
    rows = p.find("tr", data_operand="A") + p.find("tr", data_operand="B")
    la = TileLayout.make("bf16", 64, 64, "k", "128b", address=1152)
    lb = TileLayout.make("bf16", 64, 64, "mn", "128b", order="k-first", address=9344)
    want = [(s.k, s.start_address, f"{s.descriptor.encode():#018x}") for s in k_slices(la, Arch.SM90A)]
    want += [(s.k, s.start_address, f"{s.descriptor.encode():#018x}") for s in k_slices(lb, Arch.SM90A)]
    assert [(int(r["data-slice-k"]), int(r["data-start"]), r["data-desc"]) for r in rows] == want


def test_html_to_stdout_and_tcgen05_idesc(tmp_path) -> None:
    done = driver(str(EXAMPLES / "tcgen05_bf16.mlir"), "-t", "html")
    assert done.returncode == 0, done.stderr
    p = _Page()
    p.feed(done.stdout)
    (idesc,) = p.find("p", class_="idesc")
    assert idesc["data-idesc"].startswith("0x")
    assert p.find("svg", class_="tc-tile")


# -- a real browser -------------------------------------------------------------------


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def read_png(data: bytes) -> np.ndarray:
    """Decodes an 8-bit RGB(A) PNG (what Chromium writes) with zlib and numpy."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * bpp + 1)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prev = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        else:
            cur = np.zeros_like(line)
            for x in range(len(line)):
                a = cur[x - bpp] if x >= bpp else 0
                b, c = prev[x], prev[x - bpp] if x >= bpp else 0
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + b) // 2
                else:
                    p_ = a + b - c
                    pa, pb, pc = abs(p_ - a), abs(p_ - b), abs(p_ - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[x] = (line[x] + pred) & 255
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)[:, :, :3]


def test_page_in_headless_chromium(tmp_path) -> None:
    """Loads the page in a real browser: its DOM holds the pictures with their hover
    titles, and its screenshot is not blank."""
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium on this machine (apt-get install -y chromium); CI does not install it")
    page = tmp_path / "k.html"
    done = driver(str(EXAMPLES / "wgmma_bf16_kmajor.mlir"), "-t", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=800,600"]
    dom = subprocess.run([browser, *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120, check=False)
    assert dom.returncode == 0, dom.stderr[-2000:]
    p = _Page()
    p.feed(dom.stdout)
    assert len(p.find("svg", class_="tc-tile")) >= 2
    assert dom.stdout.count("<title>A[0,0] @ ") == 2  # the hover title of A[0,0], in both views
    assert dom.stdout.count(", bank ") > 1000
    shot = tmp_path / "shot.png"
    done = subprocess.run([browser, *flags, f"--screenshot={shot}", page.as_uri()], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    pixels = read_png(shot.read_bytes())
    assert pixels.shape[:2] == (600, 800)
    not_white = (pixels < 240).any(axis=2).mean()
    colours = len(np.unique(pixels.reshape(-1, 3) // 16, axis=0))
    assert not_white > 0.05 and colours > 20, f"blank page? {not_white:.1%} non-white, {colours} colours"


def test_ring_tiles_show_every_stage_in_the_memory_map(tmp_path) -> None:
    """A tc.smem_tile {stages = 3} is a ring of 3 buffers, 1024-byte rounded apart: the
    map shows all three, the tile's end covers them, and the picture says stage 0 is drawn."""
    src = EXAMPLES / "gemm_bf16_loop.mlir"
    if not src.exists():
        pytest.skip("no ring example")
    done = driver(str(src), "-t", "html")
    assert done.returncode == 0, done.stderr
    p = _Page()
    p.feed(done.stdout)
    tiles = {a["data-tile"]: a for a in p.find("g", class_="smem-tile")}
    assert tiles["a"]["data-stages"] == "3" and int(tiles["a"]["data-end"]) == 3 * 128 * 64 * 2
    assert int(tiles["b"]["data-start"]) >= int(tiles["a"]["data-end"])
    (scratch,) = p.find("g", class_="smem-scratch")
    assert int(scratch["data-start"]) == int(tiles["b"]["data-end"])
    assert "a ring of 3 buffers: stage 0 is drawn" in done.stdout
