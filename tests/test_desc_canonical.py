"""`desc encode`'s canonical line, read as CuTe reads it, gives the layout core's addresses.

The line is meant to be pasted into CuTe: `Sw<B,M,S> o smem_ptr[Nb](unset) o shape:stride`.
The evaluator below reads it with CuTe's algebra alone and shares no code with lower-tc:
it parses the shape and stride tuples, maps (MN, K) to an offset colexicographically (the
first mode of each tuple runs fastest), turns the offset into a byte address through the
pointer (start + offset * N / 8, the pointer bound to the tile's start), and applies the
swizzle functor Sw<B,M,S>(x) = x ^ ((x >> S) & (((1 << B) - 1) << M)) to that byte
address (relative to the swizzle origin when one is given: origin + Sw(x - origin)). A line
without a pointer (`Sw o layout`) composes the swizzle with the layout's own output, the
element offset, as CuTe's `composition(Swizzle, layout)` does.

For the padded 4- and 6-bit types the pointer counts 8-bit slots (CUTLASS's
`*_unpacksmem_t`); inside its 16-byte chunk, slot s holds its data from bit s * width
(docs/layout.md), which the evaluator applies last.

Every element of every accepted tile must land on the byte `TileLayout.addresses` gives.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Union

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lower_tc.layout import TileLayout
from lower_tc.lowering.cli.main import main

Tuple = Union[int, tuple["Tuple", ...]]

#: Element widths in bits, written out here rather than taken from lower-tc.
WIDTH = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "e4m3": 8, "e5m2": 8, "e2m1": 4,
         "e2m3": 6, "e3m2": 6, "s8": 8, "u8": 8}
ARCHS = ("sm_90a", "sm_100a", "sm_103a")
SWIZZLES = ("none", "32b", "64b", "128b", "128b_base32b")

LINE = re.compile(
    r"(?:Sw|Swizzle)<(?P<b>\d+),(?P<m>\d+),(?P<s>\d+)> o (?:smem_ptr\[(?P<ptr>\d+)b\]\(unset\) o )?"
    r"(?P<shape>\S+):(?P<stride>\S+)"
)


# -- the evaluator: CuTe's algebra, nothing from lower-tc --------------------------------


def parse_tuple(text: str) -> Tuple:
    """`((8,8),(8,8,1))` as nested Python tuples of ints."""
    pos = 0

    def value() -> Tuple:
        nonlocal pos
        if text[pos] == "(":
            pos += 1
            items = [value()]
            while text[pos] == ",":
                pos += 1
                items.append(value())
            assert text[pos] == ")", text
            pos += 1
            return tuple(items)
        digits = re.match(r"\d+", text[pos:])
        assert digits, text
        pos += digits.end()
        return int(digits.group())

    result = value()
    assert pos == len(text), f"trailing text in {text!r}"
    return result


def size(shape: Tuple) -> int:
    return shape if isinstance(shape, int) else int(np.prod([size(s) for s in shape]))


def offset(index: int, shape: Tuple, stride: Tuple) -> int:
    """CuTe's idx2crd then crd2offset: the offset of the `index`-th coordinate of a mode."""
    if isinstance(shape, int):
        assert isinstance(stride, int) and 0 <= index < shape
        return index * stride
    assert not isinstance(stride, int) and len(shape) == len(stride)
    total = 0
    for sub_shape, sub_stride in zip(shape, stride):  # colexicographic: first mode fastest
        n = size(sub_shape)
        total += offset(index % n, sub_shape, sub_stride)
        index //= n
    assert index == 0
    return total


def cute_addresses(line: str, start: int, origin: int | None, dtype: str) -> np.ndarray:
    """The byte address of every element (MN, K) of the tile, read from `line` alone (and
    the pointer's value, the tile's start)."""
    match = LINE.fullmatch(line)
    assert match, f"not a CuTe swizzled layout: {line!r}"
    b, m, s = (int(match[g]) for g in "bms")
    shape, stride = parse_tuple(match["shape"]), parse_tuple(match["stride"])
    assert isinstance(shape, tuple) and isinstance(stride, tuple) and len(shape) == 2, line
    offsets = np.add.outer(
        [offset(i, shape[0], stride[0]) for i in range(size(shape[0]))],
        [offset(j, shape[1], stride[1]) for j in range(size(shape[1]))],
    ).astype(np.int64)

    def sw(x: np.ndarray) -> np.ndarray:
        return x ^ ((x >> s) & (((1 << b) - 1) << m))

    if match["ptr"] is None:  # the swizzle composed with the layout: it acts on elements
        slot = 8 if WIDTH[dtype] < 8 else WIDTH[dtype]
        return start + sw(offsets) * slot // 8
    bits = int(match["ptr"])
    assert np.all(offsets * bits % 8 == 0)
    linear = start + offsets * bits // 8
    addr = sw(linear) if origin is None else origin + sw(linear - origin)
    if WIDTH[dtype] < bits:  # padded slots: the data packed at the chunk's start
        addr = (addr & ~15) | ((addr & 15) * WIDTH[dtype] // 8)
    return addr


# -- the CLI and the layout core ---------------------------------------------------------


def encode(capsys, argv: list[str]) -> tuple[dict, str] | None:
    """`desc encode` of `argv`: its JSON report and the canonical line of its text output,
    or None where it refuses the tile (one line, exit status 2)."""
    code = main(["desc", "encode", *argv])
    out, err = capsys.readouterr()
    if code != 0:
        assert code == 2 and out == "" and err.count("\n") == 1, err
        return None
    line = next(row for row in out.splitlines() if row.startswith("canonical  "))
    assert main(["desc", "encode", *argv, "--json"]) == 0
    report = json.loads(capsys.readouterr()[0])
    assert report["canonical"] == line.removeprefix("canonical  ")
    return report, report["canonical"]


def check_tile(capsys, argv: list[str]) -> bool:
    """Whether `desc encode argv` accepted the tile; if so, its line must give the layout
    core's address for every element."""
    encoded = encode(capsys, argv)
    if encoded is None:
        return False
    r, line = encoded
    layout = TileLayout.make(
        r["dtype"], r["mn"], r["k"], r["major"], r["swizzle"],
        atom_strides=tuple(r["atom_strides"]), address=r["start_address"],
        swizzle_origin=r.get("swizzle_origin"),
    )
    expected = layout.address_map()
    got = cute_addresses(line, r["start_address"], r.get("swizzle_origin"), r["dtype"])
    assert got.shape == expected.shape, (line, got.shape, expected.shape)
    wrong = np.argwhere(got != expected)
    if len(wrong):
        i, j = wrong[0]
        raise AssertionError(
            f"{' '.join(argv)}: {line} puts element ({i}, {j}) at {got[i, j]}, the layout core "
            f"at {expected[i, j]} ({len(wrong)} of {got.size} elements differ)"
        )
    return True


def tile_argv(arch: str, dtype: str, major: str, swizzle: str, mn: int, k: int, *extra: str) -> list[str]:
    return ["--arch", arch, "--dtype", dtype, "--major", major, "--swizzle", swizzle,
            "--mn", str(mn), "--k", str(k), *extra]


# -- the tests ---------------------------------------------------------------------------


def test_the_readme_example(capsys) -> None:
    """A[3,17] of the README's 64x64 bf16 K-major 128B tile at 0x400: the XOR of bits 7-9
    into bits 4-6 of the byte address 0x400 + 2 * (3 * 64 + 17) = 0x5a2 gives 0x592 = 1426
    (reading the swizzle on element offsets gave 1410)."""
    argv = tile_argv("sm_90a", "bf16", "k", "128b", 64, 64, "--addr", "0x400")
    r, line = encode(capsys, argv)  # type: ignore[misc]
    assert line == "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,8,1)):((64,512),(1,8,4096))"
    assert cute_addresses(line, 0x400, None, "bf16")[3, 17] == 1426
    assert TileLayout.make("bf16", 64, 64, "k", "128b", address=0x400).addresses(3, 17) == 1426


def test_the_evaluator_reads_cute_composition() -> None:
    """The evaluator itself, on CuTe's own examples: a pointer-less `Sw o layout` swizzles
    element offsets (so the pre-fix line put A[3,17] at 1410), Sw<0,M,S> is the identity,
    and Sw<2,5,2> moves 32-byte units."""
    old = "Sw<3,4,3> o ((8,8),(8,8,1)):((64,512),(1,8,4096))"
    assert cute_addresses(old, 0x400, None, "bf16")[3, 17] == 1410
    plain = cute_addresses("Sw<0,4,3> o smem_ptr[8b](unset) o (4,2):(1,16)", 0x100, None, "s8")
    assert plain.tolist() == [[0x100, 0x110], [0x101, 0x111], [0x102, 0x112], [0x103, 0x113]]
    base32b = cute_addresses("Sw<2,5,2> o smem_ptr[32b](unset) o (1,4):(0,32)", 0, None, "tf32")
    assert base32b.tolist() == [[0, 128 ^ 32, 256 ^ 64, 384 ^ 96]]
    assert cute_addresses("Sw<1,4,3> o smem_ptr[8b](unset) o (1,1):(0,0)", 0x100, 0x80, "u8")[0, 0] == 0x110


#: Placements every tile is tried at: (name, flags). The encoder refuses some of them for
#: some tiles (tcgen05 keeps swizzled tiles on their pattern; Hopper reads any 128-byte
#: phase); those are skipped, the rest must all agree.
PLACEMENTS = [
    ("mn-first at 0", []),
    ("k-first at 0x400", ["--order", "k-first", "--addr", "0x400"]),
    ("padded strides at 0x800", ["--atom-strides", "3072,7168", "--addr", "0x800"]),
    ("off-pattern start", ["--addr", "0x180"]),
    ("k-first, swizzle origin 0x200", ["--order", "k-first", "--addr", "0x1000", "--swizzle-origin", "0x200"]),
    ("padded, origin 0x80 below the start", ["--atom-strides", "1152,5120", "--addr", "0x2080",
                                             "--swizzle-origin", "0x80"]),
]


def _two_by_two(dtype: str, major: str, swizzle: str) -> tuple[int, int]:
    """MN and K extents of 2 x 2 atoms (more along K where one instruction's 32 bytes of K
    need it): the atom is 8 rows (4 for base32b) of one swizzle row."""
    row = {"none": 16, "32b": 32, "64b": 64, "128b": 128, "128b_base32b": 128}[swizzle]
    slot = max(WIDTH[dtype], 8)
    per_row = row * 8 // slot
    rows = 4 if swizzle == "128b_base32b" else 8
    k_min = 256 // slot
    return (2 * rows, max(2 * per_row, k_min)) if major == "k" else (2 * per_row, max(2 * rows, k_min))


@pytest.mark.parametrize("arch", ARCHS)
def test_every_accepted_tile_agrees_element_by_element(capsys, arch) -> None:
    """Every type, major-ness and swizzle (pinned and auto) at every placement above: each
    tile the encoder accepts must put every element where the layout core does."""
    accepted: dict[tuple[str, str, str], int] = {}
    for dtype, major, swizzle in itertools.product(WIDTH, ("k", "mn"), (*SWIZZLES, "auto")):
        mn, k = _two_by_two(dtype, major, "128b" if swizzle == "auto" else swizzle)
        for _, flags in PLACEMENTS:
            if check_tile(capsys, tile_argv(arch, dtype, major, swizzle, mn, k, *flags)):
                accepted[dtype, major, swizzle] = accepted.get((dtype, major, swizzle), 0) + 1
    # the sweep covers what it claims: every swizzle, type and major-ness the arch reads
    assert {s for _, _, s in accepted} == set(SWIZZLES) - ({"128b_base32b"} if arch == "sm_90a" else set()) | {"auto"}
    types = {"f16", "bf16", "tf32", "e4m3", "e5m2"} | ({"s8", "u8"} if arch != "sm_103a" else set())
    padded = {"e2m1", "e2m3", "e3m2"} if arch != "sm_90a" else set()
    assert {d for d, _, _ in accepted} == types | padded
    mn_major = {"f16", "bf16"} | ({"tf32", "e4m3", "e5m2"} if arch != "sm_90a" else set())
    assert {d for d, m, _ in accepted if m == "mn"} >= mn_major
    assert min(accepted.values()) >= 3  # each at several placements


@st.composite
def random_tiles(draw) -> list[str]:
    """Command lines of random tiles: any type, major-ness, swizzle, extents of 1-4 atoms,
    atom order or explicit strides, start and swizzle origin (many are refused)."""
    arch = draw(st.sampled_from(ARCHS))
    dtype = draw(st.sampled_from(sorted(WIDTH)))
    major = draw(st.sampled_from(("k", "mn")))
    swizzle = draw(st.sampled_from((*SWIZZLES, "auto")))
    mn, k = _two_by_two(dtype, major, "128b" if swizzle == "auto" else swizzle)
    mn, k = mn // 2 * draw(st.integers(1, 4)), k // 2 * draw(st.integers(1, 4))
    flags: list[str] = []
    if draw(st.booleans()):
        flags += ["--atom-strides", f"{128 * draw(st.integers(0, 48))},{128 * draw(st.integers(0, 96))}"]
    elif draw(st.booleans()):
        flags += ["--order", "k-first"]
    flags += ["--addr", hex(128 * draw(st.integers(0, 256)))]
    if swizzle != "none" and draw(st.booleans()):
        flags += ["--swizzle-origin", hex(128 * draw(st.integers(0, 64)))]
    return tile_argv(arch, dtype, major, swizzle, mn, k, *flags)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.filter_too_much])
@given(argv=random_tiles())
def test_random_tiles_agree_element_by_element(capsys, argv) -> None:
    assume(check_tile(capsys, argv))
