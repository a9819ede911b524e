"""The hardware sweep: every wgmma/wmma configuration through the full pipeline, on the GPU.

Each configuration is a tile program written as tc IR, compiled by the
default pipeline, assembled by ptxas, run with fresh random inputs against the
float64 reference. Workers compile and run in parallel, each in its own CUDA
context, so a faulting kernel is reported without stopping the others.

    python bench/sweep.py --list                 # count configurations, no GPU
    python bench/sweep.py --out results.tsv      # run them all (needs an H100)
    python bench/sweep.py --subset ci --assemble-only   # what CI assembles (no GPU)
    python bench/sweep.py --shard 0/2 --out a.tsv # half of them (then --shard 1/2)
    python bench/sweep.py --subset tcgen05 --assemble-only   # sm_100a: ptxas + SASS, no GPU
    python bench/sweep.py --summarize docs/results/sweep.tsv # the table of a recorded run
    python bench/sweep.py --ptx-hashes h.tsv     # hash each configuration's PTX (diff two trees)

Prints a progress line per 100 configurations and a summary table; writes one
TSV row per configuration.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any
from dataclasses import dataclass

ELEMENT = {
    "f16": "f16", "bf16": "bf16", "tf32": "tf32", "e4m3": "f8E4M3FN", "e5m2": "f8E5M2",
    "s8": "si8", "u8": "ui8",
}
ACC_ELEMENT = {"f32": "f32", "f16": "f16", "s32": "i32"}
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8}
ACCS = {
    "f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "e4m3": ("f32", "f16"),
    "e5m2": ("f32", "f16"), "s8": ("s32",), "u8": ("s32",),
}
N_VALUES = (8, 16, 24, 64, 128, 256)
SWIZZLES = ("none", "32b", "64b", "128b")


@dataclass(frozen=True)
class Config:
    dtype: str
    a_major: str
    b_major: str
    swizzle: str
    n: int
    k_slices: int
    order: str
    copy: str  # threads | tma
    a_regs: bool
    acc: str
    b_dtype: str = ""
    a_offset: int = -1  # pinned offsets for off-boundary placements
    b_offset: int = -1
    relative: bool = False  # data swizzled relative to the tile start (origin = offset)
    a_global: str = "row"  # A (M x K) in global memory: row- or column-major
    b_global: str = "row"  # B (K x N) in global memory: row- or column-major
    pad: int = 0  # extra elements in each global row/column (a leading dimension > extent)

    @property
    def key(self) -> str:
        parts = [
            self.dtype + (f"x{self.b_dtype}" if self.b_dtype else ""),
            f"A{self.a_major}", f"B{self.b_major}", self.swizzle, f"n{self.n}",
            f"k{self.k_slices}", self.order, self.copy, "regsA" if self.a_regs else "smemA", self.acc,
        ]
        if self.a_offset >= 0:
            parts.append(f"@{self.a_offset},{self.b_offset}" + ("rel" if self.relative else "abs"))
        if (self.a_global, self.b_global) != ("row", "row") or self.pad:
            parts.append(f"g{self.a_global[0]}{self.b_global[0]}" + (f"+{self.pad}" if self.pad else ""))
        return "-".join(parts)

    @property
    def k(self) -> int:
        return self.k_slices * 256 // BITS[self.dtype]


def _legal_n(dtype: str, n: int) -> bool:
    if dtype in ("s8", "u8"):
        return n in (8, 16, 24) or (n >= 32 and n % 16 == 0)
    return n % 8 == 0


def _atoms_fit(extent_bytes: int, swizzle: str) -> bool:
    row = {"none": 16, "32b": 32, "64b": 64, "128b": 128}[swizzle]
    return extent_bytes % row == 0


def legal(c: Config) -> bool:
    bits = BITS[c.dtype]
    if not _legal_n(c.dtype, c.n):
        return False
    for major, mn in ((c.a_major, 64), (c.b_major, c.n)):
        extent = (c.k if major == "k" else mn) * bits // 8
        if not _atoms_fit(extent, c.swizzle):
            return False
        if major == "mn" and bits != 16:
            return False
    if c.a_regs and c.a_major != "k":
        return False
    if c.copy == "tma" and (c.a_global, c.b_global) != tma_globals(c.a_major, c.b_major):
        return False  # TMA cannot transpose: the tile's contiguous dimension is the global one's
    if c.copy == "tma" and c.pad * bits % 128:
        return False  # TMA's global strides are multiples of 16 bytes
    return True


def tma_globals(a_major: str, b_major: str) -> tuple[str, str]:
    """The global layouts whose contiguous dimension is each tile's: A (M x K) row-major is
    K-contiguous, B (K x N) row-major is N-contiguous."""
    return ("row" if a_major == "k" else "col", "row" if b_major == "mn" else "col")


def all_configs() -> Iterator[Config]:
    """The full sweep of the issue: dtypes x majors x swizzles x N x K-slices x orders x copies x accs."""
    for dtype in ELEMENT:
        majors = ("k", "mn") if BITS[dtype] == 16 else ("k",)
        for a_major, b_major, swizzle, n, ks, order, copy, acc in itertools.product(
            majors, majors, SWIZZLES, N_VALUES, (1, 2, 3, 4), ("mn_first", "k_first"),
            ("threads", "tma"), ACCS[dtype],
        ):
            a_g, b_g = tma_globals(a_major, b_major) if copy == "tma" else ("row", "row")
            c = Config(dtype, a_major, b_major, swizzle, n, ks, order, copy, False, acc,
                       a_global=a_g, b_global=b_g)
            if legal(c):
                yield c
        # global operands of the other major-ness (the threads gather them), and padded
        # leading dimensions (threads and TMA; 4 elements of padding leave 16- and 8-bit
        # rows off 16-byte alignment, so the threads load them element by element)
        for a_major, b_major, swizzle, n, (copy, a_g, b_g, pad) in itertools.product(
            majors, majors, SWIZZLES, (16, 128),
            (("threads", "col", "col", 0), ("threads", "col", "row", 8), ("threads", "row", "row", 4),
             ("tma", "", "", 64)),
        ):
            if copy == "tma":
                a_g, b_g = tma_globals(a_major, b_major)
            c = Config(dtype, a_major, b_major, swizzle, n, 2, "mn_first", copy, False,
                       ACCS[dtype][0], a_global=a_g, b_global=b_g, pad=pad)
            if legal(c):
                yield c
        # A in registers: a subset (K-major A, each swizzle, two N, 1 and 4 K-slices), and
        # with the tiles copied by TMA in K-first atom order
        for b_major, swizzle, n, ks, acc in itertools.product(
            majors, SWIZZLES, (16, 128), (1, 4), ACCS[dtype]
        ):
            c = Config(dtype, "k", b_major, swizzle, n, ks, "mn_first", "threads", True, acc)
            if legal(c):
                yield c
        for b_major, swizzle in itertools.product(majors, SWIZZLES):
            a_g, b_g = tma_globals("k", b_major)
            c = Config(dtype, "k", b_major, swizzle, 64, 4, "k_first", "tma", True, ACCS[dtype][0],
                       a_global=a_g, b_global=b_g)
            if legal(c):
                yield c
    # mixed fp8 and integer operand pairs
    for a, b, acc in (("e4m3", "e5m2", "f32"), ("e5m2", "e4m3", "f16"), ("s8", "u8", "s32"), ("u8", "s8", "s32")):
        for swizzle, n in itertools.product(SWIZZLES, (16, 64)):
            c = Config(a, "k", "k", swizzle, n, 2, "mn_first", "threads", False, acc, b_dtype=b)
            if legal(c):
                yield c


def offset_configs() -> Iterator[Config]:
    """Tiles placed off their swizzle pattern boundary, 1024*n + 128*r: the cases
    docs/base-offset.md proves, with data swizzled on absolute address bits (threads
    or TMA, base offset 0) or relative to the tile start (threads, base offset r)."""
    for dtype, swizzle, r, (copy, relative), (a_major, b_major) in itertools.product(
        ELEMENT, ("32b", "64b", "128b"), range(8),
        (("threads", False), ("tma", False), ("threads", True)),
        (("k", "k"), ("k", "mn"), ("mn", "mn")),
    ):
        if BITS[dtype] != 16 and "mn" in (a_major, b_major):
            continue
        a_g, b_g = tma_globals(a_major, b_major) if copy == "tma" else ("row", "row")
        for ks in (2, 4):  # 2 K-slices where the mode fits 64 bytes of K, else 4 (128 bytes)
            c = Config(dtype, a_major, b_major, swizzle, 64, ks, "mn_first", copy, False, ACCS[dtype][0],
                       a_offset=1024 + 128 * r, b_offset=24576 + 128 * ((r + 3) % 8), relative=relative,
                       a_global=a_g, b_global=b_g)
            if legal(c):
                yield c
                break


def value_pairs(signature: tuple) -> set[tuple]:
    """Every pair of a signature's axis values, each with its axes' positions."""
    return {(i, signature[i], j, signature[j]) for i in range(len(signature)) for j in range(i + 1, len(signature))}


def pairwise(configs: list, signature: Callable[[Any], tuple]) -> list:
    """The configurations (in order) that each bring a pair of axis values none before them
    had: every pair of values that occurs among `configs` occurs in the result, in about a
    quarter as many configurations (pairwise coverage)."""
    seen: set[tuple] = set()
    out = []
    for c in configs:
        pairs = value_pairs(signature(c))
        if not pairs <= seen:
            seen |= pairs
            out.append(c)
    return out


def ci_signature(c: Config) -> tuple:
    """What the CI slice tells configurations apart by (the major pair one axis, so that
    every type meets every pair)."""
    return (c.dtype, c.b_dtype, (c.a_major, c.b_major), c.swizzle, c.copy, c.a_regs, c.acc,
            c.a_offset >= 0, c.relative, c.a_global, c.b_global, c.pad > 0)


def ci_subset() -> list[Config]:
    """A representative slice for CI (assembled and SASS-checked, no GPU): of the
    configurations with distinct `ci_signature`s, every pair of axis values (dtype, major
    pair, swizzle, copy path, register A, accumulator, offsets, ...) at least once; the
    whole sweep runs on the GPU (docs/sweep.md)."""
    seen: set[tuple] = set()
    distinct = []
    for c in itertools.chain(all_configs(), offset_configs()):
        sig = ci_signature(c)
        if sig not in seen:
            seen.add(sig)
            distinct.append(c)
    return pairwise(distinct, ci_signature)


# -- IR ---------------------------------------------------------------------------------------


def tile_type(dtype: str, mn: int, k: int, major: str, swizzle: str, order: str, offset: int,
              relative: bool = False) -> str:
    extra = f", order = {order}" if order != "mn_first" else ""
    if offset >= 0:
        extra += f", offset = {offset}"
        if relative:
            extra += f", origin = {offset}"
    return f"!tc.tile<{mn}x{k}x{ELEMENT[dtype]}, #tc.layout<{major}, swizzle = {swizzle}{extra}>>"


def global_type(rows: int, cols: int, element: str, order: str, pad: int) -> str:
    """A rows x cols global matrix, row- or column-major, each row/column `pad` elements longer."""
    if order == "row":
        layout = f", strided<[{cols + pad}, 1]>" if pad else ""
    else:
        layout = f", strided<[1, {rows + pad}]>"
    return f"memref<{rows}x{cols}x{element}{layout}>"


def program(c: Config) -> str:
    """The tc IR of one configuration: D = A x B, A 64 x K, B K x N."""
    b_dtype = c.b_dtype or c.dtype
    ea, eb = ELEMENT[c.dtype], ELEMENT[b_dtype]
    ga = global_type(64, c.k, ea, c.a_global, c.pad)
    gb = global_type(c.k, c.n, eb, c.b_global, c.pad)
    acc = ACC_ELEMENT[c.acc]
    ta = tile_type(c.dtype, 64, c.k, c.a_major, c.swizzle, c.order, c.a_offset, c.relative)
    tb = tile_type(b_dtype, c.n, c.k, c.b_major, c.swizzle, c.order, c.b_offset, c.relative)
    via = " via tma" if c.copy == "tma" else ""
    regs = " a_in_registers" if c.a_regs else ""
    return f"""func.func @k(%A: {ga}, %B: {gb}, %D: memref<64x{c.n}x{acc}>) attributes {{tc.target = "sm_90a"}} {{
  %a = tc.smem_tile : {ta}
  %b = tc.smem_tile : {tb}
  tc.copy %A to %a as a{via} : {ga}, {ta}
  tc.copy %B to %b as b{via} : {gb}, {tb}
  %acc = tc.acc_zero : !tc.acc<64x{c.n}x{acc}>
  %d = tc.wgmma %a, %b, %acc{regs} : {ta}, {tb}, !tc.acc<64x{c.n}x{acc}>
  tc.acc_store %d to %D : !tc.acc<64x{c.n}x{acc}>, memref<64x{c.n}x{acc}>
  func.return
}}
"""


WMMA_TYPES = ("f16", "bf16", "s8", "u8")
WMMA_CASES = [
    # (shape, type, acc, a layout, b layout[, "srow": D stored row-major; default col])
    (shape, t, acc, al, bl, *store)
    for shape, types in (("m16n16k16", WMMA_TYPES), ("m32n8k16", WMMA_TYPES),
                         ("m8n32k16", WMMA_TYPES), ("m16n16k8", ("tf32",)))
    for t in types
    for acc in ({"f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "s8": ("s32",), "u8": ("s32",)}[t])
    for al, bl in (("row", "col"), ("col", "row"), ("row", "row"), ("col", "col"))
    for store in ((), ("srow",))
]


def wmma_program(shape: str, t: str, acc: str, al: str, bl: str, store: str = "scol") -> str:
    m, n, k = {"m16n16k16": (16, 16, 16), "m32n8k16": (32, 8, 16), "m8n32k16": (8, 32, 16), "m16n16k8": (16, 16, 8)}[shape]
    e, ea = ELEMENT[t], ACC_ELEMENT[acc]
    # row pitches padded to 32 elements: every row start aligned to any fragment size
    pad = lambda rows, cols: (rows, -(-cols // 32) * 32)  # noqa: E731
    a_shape = pad(m, 2 * k) if al == "row" else pad(2 * k, m)
    b_shape = pad(2 * k, n) if bl == "row" else pad(n, 2 * k)
    c_shape, d_shape = pad(m, n), (pad(m, n) if store == "srow" else pad(n, m))
    fa = f"!tc.wmma_frag<a, {shape}, {e}, {al}>"
    fb = f"!tc.wmma_frag<b, {shape}, {e}, {bl}>"
    fc = f"!tc.wmma_frag<c, {shape}, {ea}>"
    a1 = "[0, {k}]" if al == "row" else "[{k}, 0]"
    b1 = "[{k}, 0]" if bl == "row" else "[0, {k}]"
    ma, mb = f"memref<{a_shape[0]}x{a_shape[1]}x{e}>", f"memref<{b_shape[0]}x{b_shape[1]}x{e}>"
    mc, md = f"memref<{c_shape[0]}x{c_shape[1]}x{ea}>", f"memref<{d_shape[0]}x{d_shape[1]}x{ea}>"
    return f"""func.func @k(%A: {ma}, %B: {mb}, %C: {mc}, %D: {md}) attributes {{tc.target = "sm_90a"}} {{
  %c0 = tc.wmma_load %C[0, 0] : {mc} -> {fc}
  %a0 = tc.wmma_load %A[0, 0] : {ma} -> {fa}
  %b0 = tc.wmma_load %B[0, 0] : {mb} -> {fb}
  %c1 = tc.wmma_mma %a0, %b0, %c0 : {fa}, {fb}, {fc} -> {fc}
  %a1 = tc.wmma_load %A{a1.format(k=k)} : {ma} -> {fa}
  %b1 = tc.wmma_load %B{b1.format(k=k)} : {mb} -> {fb}
  %c2 = tc.wmma_mma %a1, %b1, %c1 : {fa}, {fb}, {fc} -> {fc}
  tc.wmma_store %c2 to %D[0, 0] {store[1:]} : {fc}, {md}
  func.return
}}
"""


# -- tcgen05 (sm_100a: assembled and SASS-checked here; run where a Blackwell GPU exists) --------

TC5_ELEMENT = dict(ELEMENT, e2m3="f6E2M3FN", e3m2="f6E3M2FN", e2m1="f4E2M1FN")
TC5_BITS = dict(BITS, e2m3=8, e3m2=8, e2m1=8)  # 4/6-bit types take 8-bit slots in shared memory
TC5_PADDED = ("e2m3", "e3m2", "e2m1")  # packed in global memory, padded chunks in shared memory
TC5_KIND = {"f16": "f16", "bf16": "f16", "tf32": "tf32", "e4m3": "f8f6f4", "e5m2": "f8f6f4",
            "e2m3": "f8f6f4", "e3m2": "f8f6f4", "e2m1": "f8f6f4", "s8": "i8", "u8": "i8"}
TC5_ACCS = {"f16": ("f32", "f16"), "bf16": ("f32",), "tf32": ("f32",), "e4m3": ("f32", "f16"),
            "e5m2": ("f32", "f16"), "e2m3": ("f32",), "e3m2": ("f32",), "e2m1": ("f32",),
            "s8": ("s32",), "u8": ("s32",)}
TC5_SWIZZLES = ("none", "32b", "64b", "128b", "128b_base32b")


@dataclass(frozen=True)
class Tc5Config:
    """One tcgen05 configuration: D (M x N) = A (M x K) x B (K x N) on sm_100a."""

    dtype: str
    b_dtype: str
    m: int
    a_major: str
    b_major: str
    swizzle: str
    n: int
    k_slices: int
    copy: str  # threads | tma
    a_tmem: bool
    acc: str
    c_load: bool  # the accumulator starts from C (tc.acc_load) rather than zero

    @property
    def key(self) -> str:
        pair = self.dtype + (f"x{self.b_dtype}" if self.b_dtype != self.dtype else "")
        return "-".join([
            "tc5", pair, f"m{self.m}", f"A{self.a_major}", f"B{self.b_major}", self.swizzle,
            f"n{self.n}", f"k{self.k_slices}", self.copy, "tmemA" if self.a_tmem else "smemA",
            self.acc, "C" if self.c_load else "zero",
        ])

    @property
    def k(self) -> int:
        return self.k_slices * 256 // TC5_BITS[self.dtype]

    def tile_swizzle(self, dtype: str, major: str) -> str:
        """`swizzle` is the K-major tiles' mode (and the MN-major ones'), except that tcgen05
        reads MN-major tf32 only with 128b_base32b."""
        return "128b_base32b" if (dtype, major) == ("tf32", "mn") else self.swizzle


def tc5_legal(c: Tc5Config) -> bool:
    """What the ISA and lower-tc's verifiers accept (lower_tc.layout is the authority: a
    configuration it refuses is skipped here, never hidden: the verifier tests cover those)."""
    from lower_tc.layout import Arch, LayoutError, Swizzle, TileLayout
    from lower_tc.layout.instr_desc import InstrDescriptor
    from lower_tc.layout.targets import check_operand_type, swizzle_rule

    if c.swizzle == "128b_base32b" and "k" in (c.a_major, c.b_major):
        return False  # a K-major tile has no 128b_base32b; its tf32 MN-major partner gets it anyway
    try:
        for dtype, major, mn in ((c.dtype, c.a_major, c.m), (c.b_dtype, c.b_major, c.n)):
            check_operand_type(Arch.SM100A, dtype, major == "mn")
            swizzle = c.tile_swizzle(dtype, major)
            if swizzle_rule(Arch.SM100A, dtype, major == "mn", Swizzle.parse(swizzle)):
                return False
            TileLayout.make(dtype, mn, c.k, major, swizzle)
        InstrDescriptor(c.dtype, c.b_dtype, c.acc, c.m, c.n, c.a_major == "mn", c.b_major == "mn").check()
    except LayoutError:
        return False
    if c.a_tmem and (c.a_major != "k" or c.dtype in TC5_PADDED or (c.m == 128 and c.n % 16)):
        return False
    if c.copy == "tma" and {c.dtype, c.b_dtype} & set(TC5_PADDED):
        return False
    return True


def tc5_configs() -> Iterator[Tc5Config]:
    """The tcgen05 sweep: kinds x M x majors x swizzles x N x K-slices x copy paths, plus
    A from tensor memory, C loaded into tensor memory and mixed-format pairs."""
    for dtype, m, a_major, b_major, swizzle, n, ks, copy in itertools.product(
        TC5_ELEMENT, (64, 128), ("k", "mn"), ("k", "mn"), TC5_SWIZZLES, (8, 16, 24, 64, 256),
        (1, 2, 4), ("threads", "tma"),
    ):
        c = Tc5Config(dtype, dtype, m, a_major, b_major, swizzle, n, ks, copy, False, TC5_ACCS[dtype][0], False)
        if tc5_legal(c):
            yield c
    for dtype, m, swizzle, n, acc, c_load in itertools.product(
        TC5_ELEMENT, (64, 128), TC5_SWIZZLES, (16, 128), ("f32", "f16", "s32"), (False, True),
    ):
        if acc not in TC5_ACCS[dtype]:
            continue
        for a_tmem in (False, True):
            c = Tc5Config(dtype, dtype, m, "k", "k", swizzle, n, 2, "threads", a_tmem, acc, c_load)
            if tc5_legal(c):
                yield c
    for a, b in (("e4m3", "e5m2"), ("e2m1", "e4m3"), ("e5m2", "e2m1"), ("e2m3", "e3m2"), ("e3m2", "e2m1"),
                 ("e4m3", "e2m3"), ("s8", "u8"), ("u8", "s8")):
        for m, swizzle in itertools.product((64, 128), TC5_SWIZZLES):
            c = Tc5Config(a, b, m, "k", "k", swizzle, 64, 2, "threads", False, TC5_ACCS[a][0], False)
            if tc5_legal(c):
                yield c


def tc5_signature(c: Tc5Config) -> tuple:
    return (c.dtype, c.b_dtype, c.m, (c.a_major, c.b_major), c.copy, c.a_tmem, c.acc, c.c_load, c.swizzle)


def tc5_ci_subset() -> list[Tc5Config]:
    """Every type with each M, major pair, swizzle, copy path, A source, accumulator and C,
    and every type pair, at least once: pairwise over the tcgen05 configurations."""
    return pairwise(list(tc5_configs()), tc5_signature)


def tc5_global(rows: int, cols: int, element: str, k_contiguous_dim: int | None) -> str:
    """A global matrix laid out so TMA (and the packed 4/6-bit types' thread copies) find K contiguous where
    the tile is K-major: dimension `k_contiguous_dim` (0 or 1) is made the contiguous one."""
    if k_contiguous_dim == 0:
        return f"memref<{rows}x{cols}x{element}, strided<[1, {rows}]>>"
    return f"memref<{rows}x{cols}x{element}>"


def tc5_program(c: Tc5Config) -> str:
    ea, eb, acc = TC5_ELEMENT[c.dtype], TC5_ELEMENT[c.b_dtype], ACC_ELEMENT[c.acc]
    # A (M x K): row-major is K-contiguous; B (K x N): column-major is K-contiguous
    ga = tc5_global(c.m, c.k, ea, 1 if c.a_major == "k" else 0)
    gb = tc5_global(c.k, c.n, eb, 0 if c.b_major == "k" else 1)
    ta = f"!tc.tile<{c.m}x{c.k}x{ea}, #tc.layout<{c.a_major}, swizzle = {c.tile_swizzle(c.dtype, c.a_major)}>>"
    tb = f"!tc.tile<{c.n}x{c.k}x{eb}, #tc.layout<{c.b_major}, swizzle = {c.tile_swizzle(c.b_dtype, c.b_major)}>>"
    via = " via tma" if c.copy == "tma" else ""
    tacc = f"!tc.acc<{c.m}x{c.n}x{acc}>"
    macc = f"memref<{c.m}x{c.n}x{acc}>"
    init = f"tc.acc_load %C : {macc} -> {tacc}" if c.c_load else f"tc.acc_zero : {tacc}"
    return f"""func.func @k(%A: {ga}, %B: {gb}, %C: {macc}, %D: {macc}) attributes {{tc.target = "sm_100a"}} {{
  %a = tc.smem_tile : {ta}
  %b = tc.smem_tile : {tb}
  tc.copy %A to %a as a{via} : {ga}, {ta}
  tc.copy %B to %b as b{via} : {gb}, {tb}
  %acc = {init}
  %d = tc.tcgen05_mma %a, %b, %acc{" a_in_tmem" if c.a_tmem else ""} : {ta}, {tb}, {tacc}
  tc.acc_store %d to %D : {tacc}, {macc}
  func.return
}}
"""


# -- running ------------------------------------------------------------------------------------


_BROKEN: list[str] = []  # set once this worker's CUDA context is lost (a fault or a hung kernel)


def _work(job: tuple[str, str, int, bool]) -> tuple[str, str, str, float, float, str]:
    """Compile, assemble and (unless assemble-only) run one configuration."""
    key, text, seed, assemble_only = job
    if _BROKEN:
        return key, "RETRY", "", 0.0, 0.0, f"worker context lost after {_BROKEN[0]}"
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.errors import RunError
    from lower_tc.lowering.runtime.run import run_kernel
    from lower_tc.lowering.backend.sass import EXPECTED_SASS, check_sass, disassemble, find_disassembler

    try:
        kernels = compile_source(text, key, assemble=True)
    except Exception as err:  # noqa: BLE001 - reported per configuration
        return key, "COMPILE_ERROR", "", 0.0, 0.0, f"{type(err).__name__}: {str(err).splitlines()[0][:300]}"
    k = kernels[0]
    family = _family(key)
    if find_disassembler() is not None:
        missing = check_sass(disassemble(k.cubin), EXPECTED_SASS[family])  # type: ignore[arg-type]
        if missing:
            return key, "SASS_MISSING", "", 0.0, 0.0, f"missing {missing} ({family})"
        note = f"sass {family} ok"
    elif assemble_only:  # assembling alone proves nothing about a silent fallback
        return key, "NO_SASS_CHECK", "", 0.0, 0.0, "no nvdisasm/cuobjdump: pip install 'lower-tc[test]'"
    else:
        note = "no SASS check"
    if assemble_only:
        return key, "ASSEMBLED", "", 0.0, 0.0, note
    try:
        r = run_kernel(k, seed, timeout=10.0)
    except RunError as err:
        _BROKEN.append(key)  # a fault or a kernel still running: this context is done
        return key, "RUN_ERROR", "", 0.0, 0.0, str(err)[:300]
    except Exception as err:  # noqa: BLE001 - a harness bug must not stop the sweep
        return key, "RUN_ERROR", "", 0.0, 0.0, f"{type(err).__name__}: {str(err)[:300]}"
    status = "PASS" if r.passed else "FAIL"
    return key, status, r.device, r.max_error, r.tolerance, f"nan={r.nan_count} mismatches={r.mismatches}/{r.checked} stray={r.stray}"


def _family(key: str) -> str:
    if key.startswith("tc5-"):
        return "tcgen05." + TC5_KIND[key.split("-")[1].split("x")[0]]
    if key.startswith("wmma"):
        t = key.split("-")[2]
        return "wmma.s8" if t in ("s8", "u8") else "wmma.f16"
    t = key.split("-")[0].split("x")[0]
    if t in ("e4m3", "e5m2"):
        return "wgmma.e4m3"
    if t in ("s8", "u8"):
        return "wgmma.s8"
    return "wgmma.f16"


def _ptx_hash(job: tuple[str, str, int, bool]) -> str:
    """One TSV line: the configuration, sha256 of its PTX and of the runner's metadata."""
    import hashlib

    from lower_tc.lowering.compile import compile_source

    key, text = job[0], job[1]
    try:
        k = compile_source(text, key)[0]
    except Exception as err:  # noqa: BLE001 - recorded per configuration
        return f"{key}\terror\t{type(err).__name__}: {str(err).splitlines()[0][:200]}"
    digest = lambda data: hashlib.sha256(data.encode()).hexdigest()[:16]  # noqa: E731
    return f"{key}\t{digest(k.ptx)}\t{digest(k.info.to_json())}"


def jobs(subset: str, seed: int, assemble_only: bool) -> list[tuple[str, str, int, bool]]:
    if subset in ("tcgen05", "tcgen05-ci"):
        tc5 = tc5_ci_subset() if subset == "tcgen05-ci" else list(tc5_configs())
        return [(c.key, tc5_program(c), seed + i, assemble_only) for i, c in enumerate(tc5)]
    if subset == "ci":
        configs = ci_subset()
        wmma = WMMA_CASES[::3]
    elif subset == "offsets":
        configs, wmma = list(offset_configs()), []
    else:
        configs = list(all_configs()) + list(offset_configs())
        wmma = WMMA_CASES
    out = [(c.key, program(c), seed + i, assemble_only) for i, c in enumerate(configs)]
    out += [
        ("wmma-" + "-".join(case), wmma_program(*case), seed + 100000 + i, assemble_only)
        for i, case in enumerate(wmma)
    ]
    return out


def summarize(rows: list[tuple[str, str, str, float, float, str]]) -> str:
    by_group: dict[str, Counter] = defaultdict(Counter)
    worst: dict[str, float] = defaultdict(float)
    for key, status, _dev, err, _tol, _note in rows:
        parts = key.split("-")
        group = {"wmma": f"wmma-{parts[2] if len(parts) > 2 else ''}", "tc5": f"tcgen05-{parts[1]}"}.get(parts[0], parts[0])
        by_group[group][status] += 1
        worst[group] = max(worst[group], err)
    statuses = sorted({s for c in by_group.values() for s in c})
    lines = ["| group | " + " | ".join(statuses) + " | max error |", "|---" * (len(statuses) + 2) + "|"]
    for group in sorted(by_group):
        c = by_group[group]
        lines.append(f"| {group} | " + " | ".join(str(c[s]) for s in statuses) + f" | {worst[group]:.2g} |")
    total = Counter(s for _, s, *_ in rows)
    lines.append(f"| **all** | " + " | ".join(str(total[s]) for s in statuses) + " | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subset", choices=["all", "ci", "offsets", "tcgen05", "tcgen05-ci"], default="all")
    parser.add_argument("--list", action="store_true", help="print the configurations and exit")
    parser.add_argument("--assemble-only", action="store_true", help="compile, assemble and SASS-check only")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--limit", type=int, default=0, help="run only the first N configurations")
    parser.add_argument("--shard", default="", help="I/N: run every N-th configuration from the I-th (0-based)")
    parser.add_argument("--out", default="", help="TSV file for one row per configuration")
    parser.add_argument("--summarize", nargs="+", metavar="TSV", help="print the summary table of recorded TSVs and exit")
    parser.add_argument("--ptx-hashes", metavar="TSV", help="write a hash of each configuration's PTX and "
                        "kernel metadata (no ptxas, no GPU) and exit: diff two of them to see which "
                        "configurations a change of the lowering touched")
    args = parser.parse_args(argv)
    if args.summarize:
        recorded = []
        for path in args.summarize:
            with open(path) as f:
                for line in f.read().splitlines()[1:]:
                    key, status, device, err, tol, note = line.split("\t")
                    recorded.append((key, status, device, float(err), float(tol), note))
        devices = sorted({r[2] for r in recorded if r[2]}) or ["none (assembled only)"]
        print(f"{len(recorded)} configurations; device: {', '.join(devices)}")
        print(summarize(sorted(recorded)))
        return 0 if all(r[1] in ("PASS", "ASSEMBLED") for r in recorded) else 1
    work = jobs(args.subset, args.seed, args.assemble_only)
    if args.shard:
        index, count = (int(x) for x in args.shard.split("/"))
        work = work[index::count]
    if args.limit:
        work = work[: args.limit]
    if args.list:
        for key, *_ in work:
            print(key)
        print(f"{len(work)} configurations", file=sys.stderr)
        return 0
    if args.ptx_hashes:
        with mp.get_context("spawn").Pool(args.workers) as pool:
            lines = sorted(pool.map(_ptx_hash, work, chunksize=16))
        with open(args.ptx_hashes, "w") as f:
            f.write("config\tptx_sha256\tinfo_sha256\n" + "\n".join(lines) + "\n")
        errors = sum("\terror\t" in line for line in lines)
        print(f"{len(lines)} configurations hashed, {errors} did not compile", file=sys.stderr)
        return 1 if errors else 0
    start = time.monotonic()
    rows: list[tuple[str, str, str, float, float, str]] = []
    header = "config\tstatus\tdevice\tmax_error\ttolerance\tnote\n"
    partial = open(args.out + ".partial", "w") if args.out else None  # survives a cut-off run
    if partial:
        partial.write(header)
    ctx = mp.get_context("spawn")
    pending = work
    while pending:
        done: list[tuple[str, str, str, float, float, str]] = []
        with ctx.Pool(args.workers) as pool:
            for row in pool.imap_unordered(_work, pending, chunksize=2):
                done.append(row)
                if partial and row[1] != "RETRY":
                    partial.write("\t".join(str(x) for x in row) + "\n")
                    partial.flush()
                if row[1] not in ("PASS", "ASSEMBLED", "RETRY"):
                    print(f"  {row[1]}: {row[0]}: {row[5]}", flush=True)
                n = len(rows) + len(done)
                if n % 100 == 0:
                    bad = sum(r[1] not in ("PASS", "ASSEMBLED", "RETRY") for r in rows + done)
                    print(f"[{n}/{len(work)}] {time.monotonic() - start:.0f} s, {bad} not passing", flush=True)
        retry = {r[0] for r in done if r[1] == "RETRY"}
        rows += [r for r in done if r[1] != "RETRY"]
        if retry:
            print(f"re-running {len(retry)} configurations whose worker lost its CUDA context", flush=True)
        pending = [j for j in pending if j[0] in retry]
    print(f"[{len(rows)}/{len(work)}] done in {time.monotonic() - start:.0f} s", flush=True)
    rows.sort()
    if args.out:
        assert partial is not None
        partial.close()
        with open(args.out, "w") as f:
            f.write(header)
            for r in rows:
                f.write("\t".join(str(x) for x in r) + "\n")
        os.remove(args.out + ".partial")
    print(summarize(rows))
    ok = {"PASS", "ASSEMBLED"}
    return 0 if all(r[1] in ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
