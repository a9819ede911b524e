#!/usr/bin/env python3
"""Generates filecheck/descriptors/*.mlir: the pinned descriptor matrix.

Run from anywhere with the project's Python (lower-tc must be installed in it):

    .venv/bin/python filecheck/gen_descriptor_pins.py           # (re)write the files
    .venv/bin/python filecheck/gen_descriptor_pins.py --check   # only verify they are current

For every case (arch x element type x major-ness x swizzle mode x shape) it
writes one kernel, runs

    lower-tc FILE --split-input-file -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir

and reads back every `#tc.desc` (A and B, every K-slice) and every `#tc.idesc`.
Before any value is pinned it is checked independently of the encoder:

* each descriptor's printed fields agree with its 64-bit value (decoded here by hand);
* `lower_tc.layout.emulate_reads(value, arch, bits, mn_major, rows)` -- what the tensor
  core reads for that descriptor -- equals `TileLayout(...).addresses(...)` of the tile as
  the case defines it (major, swizzle, order/strides) at the offset the IR gives, for every
  element of the K-slice;
* auto-placed offsets sit on the swizzle period (and 128 bytes); pinned offsets are kept;
* the spec's worked examples get the spec's LBO/SBO (constants copied here);
* each tcgen05 instruction descriptor equals a value computed here from the bit layout
  of docs/layout.md.

Any disagreement aborts without writing anything. Then it writes the files and prints
how many descriptor values they pin.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lower_tc.layout import Arch, Major, Swizzle, TileLayout, element_type, emulate_reads
from lower_tc.layout.targets import OPERAND_TYPES, swizzle_rule

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE / "descriptors"
BIN = Path(sys.executable).parent
PIPELINE = "tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors"
RUN_LINE = f"// RUN: lower-tc %s --split-input-file -p {PIPELINE} -t mlir | filecheck %s"

MLIR_TYPE = {
    "f16": "f16", "bf16": "bf16", "tf32": "tf32", "e4m3": "f8E4M3FN",
    "e5m2": "f8E5M2", "e2m3": "f6E2M3FN", "e3m2": "f6E3M2FN", "e2m1": "f4E2M1FN", "s8": "si8", "u8": "ui8",
}
DTYPES = ("f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8")
ARCHS = (Arch.SM90A, Arch.SM100A)  # the kernel targets
#: MN-major operand types per arch (what the verifiers accept).
MN_TYPES = {
    Arch.SM90A: {"f16", "bf16"},
    Arch.SM100A: {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"},
}
#: (K-slices of variant 1, of variant 2) per (major, swizzle).
SLICES = {
    ("k", "none"): (1, 4), ("k", "32b"): (1, 3), ("k", "64b"): (2, 4), ("k", "128b"): (4, 4),
    ("mn", "none"): (1, 3), ("mn", "32b"): (2, 4), ("mn", "64b"): (1, 2),
    ("mn", "128b"): (1, 4), ("mn", "128b_base32b"): (2, 3),
}
ROW_BYTES = {"none": 16, "32b": 32, "64b": 64, "128b": 128, "128b_base32b": 128}
PERIOD = {"none": 0, "32b": 256, "64b": 512, "128b": 1024, "128b_base32b": 512}
#: The spec's worked examples (tests/test_spec_examples.py SPEC_TABLES): LBO, SBO in bytes.
SPEC = {
    ("tf32", "k", "none", 16, 16): (256, 128),
    ("tf32", "k", "32b", 16, 16): (16, 256),
    ("bf16", "mn", "none", 16, 16): (256, 128),
    ("bf16", "mn", "32b", 32, 16): (256, 512),
    ("bf16", "mn", "64b", 64, 16): (512, 1024),
}
#: Mixed operand-type pairs (A, B) each family reads.
MIXED = {
    Arch.SM90A: (("e4m3", "e5m2"), ("s8", "u8")),
    Arch.SM100A: (("e4m3", "e5m2"), ("e2m1", "e4m3"), ("e5m2", "e2m1"), ("e2m3", "e3m2"), ("e3m2", "e2m1"),
                  ("e4m3", "e2m3"), ("s8", "u8"), ("u8", "s8")),
}
#: Pinned offsets off the swizzle pattern boundary (B tiles of variant 2 on sm_90a), cycled.
UNALIGNED = (32768 + 384, 32768 + 128, 32768 + 640, 32768 + 896, 32768 + 256)
#: Pinned offsets on the pattern boundary (sm_100a: off-boundary is proven on Hopper only).
ALIGNED = (32768 + 1024, 32768 + 3072, 32768 + 2048)


@dataclass
class Tile:
    mn: int
    k: int
    major: str
    swizzle: str
    order: str = "mn_first"
    strides: tuple[int, int] | None = None
    offset: int | None = None  # pinned offset, or None for tc-assign-smem

    def layout_text(self) -> str:
        parts = [self.major, f"swizzle = {self.swizzle}"]
        if self.strides:
            parts.append(f"strides = [{self.strides[0]}, {self.strides[1]}]")
        elif self.order != "mn_first":
            parts.append(f"order = {self.order}")
        if self.offset is not None:
            parts.append(f"offset = {self.offset}")
        return f"#tc.layout<{', '.join(parts)}>"


@dataclass
class Case:
    name: str
    arch: Arch
    dtype: str
    a: Tile
    b: Tile
    note: str = ""
    spec: tuple[str, tuple[int, int]] | None = None  # ("a"|"b", (lbo, sbo))
    b_dtype: str = ""  # B's element type where it differs from A's (mixed pairs)

    def dtype_of(self, role: str) -> str:
        return self.b_dtype or self.dtype if role == "b" else self.dtype

    @property
    def m(self) -> int:
        return self.a.mn

    @property
    def n(self) -> int:
        return self.b.mn

    @property
    def acc(self) -> str:
        return "i32" if self.dtype in ("s8", "u8") else "f32"

    def tile_type(self, t: Tile, role: str) -> str:
        return f"!tc.tile<{t.mn}x{t.k}x{MLIR_TYPE[self.dtype_of(role)]}, {t.layout_text()}>"

    def kernel(self) -> str:
        op = "tc.wgmma" if self.arch is Arch.SM90A else "tc.tcgen05_mma"
        ta, tb = self.tile_type(self.a, "a"), self.tile_type(self.b, "b")
        acc = f"!tc.acc<{self.m}x{self.n}x{self.acc}>"
        return (
            f'func.func @{self.name}() attributes {{tc.target = "{self.arch}"}} {{\n'
            f"  %a = tc.smem_tile : {ta}\n"
            f"  %b = tc.smem_tile : {tb}\n"
            f"  %acc = tc.acc_zero : {acc}\n"
            f"  %d = {op} %a, %b, %acc : {ta}, {tb}, {acc}\n"
            f"  func.return\n"
            f"}}\n"
        )


# -- the cases -----------------------------------------------------------------------


def valid_n(arch: Arch, dtype: str, n: int) -> bool:
    if dtype in ("s8", "u8"):
        ok = (8, 16, 24) + tuple(range(32, 257, 16)) if arch is Arch.SM90A else (
            (8, 16, 24, 32) + tuple(range(48, 257, 16)))
        return n in ok
    return 8 <= n <= 256 and n % 8 == 0


def swizzles(arch: Arch, dtype: str, major: str) -> tuple[str, ...]:
    """The modes the ISA allows (lower_tc.layout.targets.swizzle_rule): tcgen05 reads
    MN-major tf32 only with 128b_base32b, which no other operand may use."""
    modes = ("none", "32b", "64b", "128b", "128b_base32b")
    return tuple(m for m in modes if not swizzle_rule(arch, dtype, major == "mn", Swizzle.parse(m)))


def build_cases() -> dict[tuple[Arch, str], list[Case]]:
    groups: dict[tuple[Arch, str], list[Case]] = {}
    pin = 0
    for arch in ARCHS:
        tag = "sm90" if arch is Arch.SM90A else "sm100"
        for dtype in DTYPES:
            if dtype not in OPERAND_TYPES[arch]:
                continue
            et = element_type(dtype)
            kpi = et.k_per_instruction
            cases: list[Case] = []
            majors = ["k"] + (["mn"] if dtype in MN_TYPES[arch] else [])
            for major in majors:
                for sw in swizzles(arch, dtype, major):
                    row_elems = ROW_BYTES[sw] * 8 // et.slot_bits
                    for variant, slices in enumerate(SLICES[(major, sw)], start=1):
                        # wgmma is M = 64; tcgen05 gets M = 128, and M = 64 where an MN-major
                        # A tile of 64 rows holds whole atoms
                        m64 = major == "k" or row_elems <= 64
                        m = 64 if arch is Arch.SM90A or (variant == 2 and m64) else 128
                        k = slices * kpi
                        if major == "k":
                            n = 24 if variant == 1 else 128
                        else:
                            base = max(row_elems, 8)  # N must be whole swizzle rows
                            n = base if variant == 1 else 2 * base
                        assert valid_n(arch, dtype, n), (arch, dtype, n)
                        order = "mn_first" if variant == 1 else "k_first"
                        b_off = None
                        if variant == 2:
                            pinned = UNALIGNED if arch is Arch.SM90A else ALIGNED
                            b_off = pinned[pin % len(pinned)] if sw != "none" else 32768 + 48
                            pin += 1
                        name = f"{tag}_{dtype}_{major}_{sw}_n{n}_k{k}" + ("_kfirst" if variant == 2 else "")
                        cases.append(Case(
                            name, arch, dtype,
                            Tile(m, k, major, sw, order),
                            Tile(n, k, major, sw, order, offset=b_off),
                            note=(f"B pinned at {b_off} = {b_off // 1024} KiB + {b_off % 1024} "
                                  "(off the swizzle pattern boundary)" if b_off is not None and b_off % 1024
                                  and sw != "none" else (f"B pinned at {b_off}" if b_off is not None else "")),
                        ))
            # the spec's worked examples, where the instruction shapes allow them
            m = 64 if arch is Arch.SM90A else 128
            for (sdt, smaj, ssw, smn, sk), lbo_sbo in SPEC.items():
                if sdt != dtype or (smaj == "mn" and dtype not in MN_TYPES[arch]):
                    continue
                if smn == m:  # 64x16 bf16 MN-major 64b: the spec's tile is the wgmma A tile
                    a = Tile(smn, sk, smaj, ssw)
                    b = Tile(64, sk, smaj, ssw)
                    role = "a"
                else:
                    a = Tile(m, sk, smaj, ssw)
                    b = Tile(smn, sk, smaj, ssw)
                    role = "b"
                name = f"{tag}_{dtype}_{smaj}_{ssw}_spec_{smn}x{sk}"
                cases.append(Case(
                    name, arch, dtype, a, b,
                    note=(f"spec worked example: {dtype} {'K' if smaj == 'k' else 'MN'}-major {ssw}, "
                          f"{smn}x{sk} ({role.upper()} tile): LBO {lbo_sbo[0]}, SBO {lbo_sbo[1]}"),
                    spec=(role, lbo_sbo),
                ))
            if dtype == "bf16":
                # a padded tile: swizzled atom strides stay whole patterns (SBO 2048, not
                # 1024); B pinned off its pattern boundary where that is proven (Hopper)
                b_at = 128 if arch is Arch.SM90A else 1024
                a = Tile(m, 64, "k", "128b", strides=(2048, 2048 * m // 8), offset=None)
                b = Tile(64, 64, "k", "128b", offset=b_at)
                cases.append(Case(
                    f"{tag}_bf16_k_128b_padded", arch, dtype, a, b,
                    note=f"A padded by one atom (atom strides [2048, ...]); B pinned at {b_at}",
                ))
            # mixed major-ness: each transpose bit on its own
            if dtype in MN_TYPES[arch]:
                k = 4 * kpi  # 128 bytes of K
                for sw in ("128b", "none"):
                    for a_major, b_major in (("mn", "k"), ("k", "mn")):
                        def tile(mn: int, major: str) -> Tile:
                            mode = "128b_base32b" if (dtype, major, arch) == ("tf32", "mn", Arch.SM100A) else sw
                            return Tile(mn, k, major, mode)
                        cases.append(Case(
                            f"{tag}_{dtype}_A{a_major}_B{b_major}_{sw}", arch, dtype,
                            tile(m, a_major), tile(128, b_major),
                            note=f"A {a_major.upper()}-major, B {b_major.upper()}-major",
                        ))
            # mixed operand types (the pairs each kind allows), filed under A's type
            for a_t, b_t in MIXED[arch]:
                if a_t == dtype:
                    k = 4 * kpi
                    cases.append(Case(
                        f"{tag}_{a_t}x{b_t}_k_128b", arch, dtype,
                        Tile(m, k, "k", "128b"), Tile(64, k, "k", "64b" if b_t == "e2m1" else "128b"),
                        note=f"A {a_t}, B {b_t}", b_dtype=b_t,
                    ))
            groups[(arch, dtype)] = cases
    return groups


# -- running lower-tc and reading its answer ----------------------------------------------

DESC_RE = re.compile(
    r"#tc\.desc<k = (\d+), start = (0x[0-9a-f]+), lbo = (\d+), sbo = (\d+), "
    r"base_offset = (\d+), swizzle = (\w+), value = (0x[0-9a-f]+)>"
)
IDESC_RE = re.compile(r"#tc\.idesc<[^>]*>")
TILE_RE = re.compile(r"%(a|b) = tc\.smem_tile : (!tc\.tile<\d+x\d+x\w+, #tc\.layout<([^>]*)>>)")
OP_RE = re.compile(r"(%d = tc\.(?:wgmma|tcgen05_mma) %a, %b, %acc \{)(.*)\} : ")


class Mismatch(Exception):
    pass


def run_lower_tc(text: str) -> list[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        done = subprocess.run(
            [str(BIN / "lower-tc"), path, "--split-input-file", "-p", PIPELINE, "-t", "mlir"],
            capture_output=True, text=True, check=False,
        )
    finally:
        Path(path).unlink()
    if done.returncode != 0 or "error" in done.stderr:
        raise Mismatch(f"lower-tc failed ({done.returncode}):\n{done.stderr}")
    return done.stdout.split("// -----\n")


def parse_layout(text: str) -> dict[str, str]:
    parts = [p.strip() for p in text.split(",")]
    fields = {"major": parts[0]}
    rest = ",".join(parts[1:])
    for key, val in re.findall(r"(\w+) = (\[[^\]]*\]|[\w]+)", rest):
        fields[key] = val
    return fields


def decode_fields(value: int, arch: Arch) -> tuple[int, int, int, int, str]:
    """(start, lbo, sbo, base_offset, swizzle) read from the 64-bit value by hand."""
    start = (value & 0x3FFF) << 4
    lbo = ((value >> 16) & 0x3FFF) << 4
    sbo = ((value >> 32) & 0x3FFF) << 4
    base = (value >> 49) & 7
    def bits(lo: int, hi: int) -> int:
        return (value >> lo) & ((1 << (hi - lo + 1)) - 1)

    reserved = [(14, 15), (30, 31)]
    if arch is Arch.SM90A:
        reserved += [(46, 48), (52, 61)]
        sw = {0: "none", 1: "128b", 2: "64b", 3: "32b"}[bits(62, 63)]
    else:
        reserved += [(52, 60)]  # bit 52 is the LBO mode: lower-tc never sets it
        if bits(46, 48) != 1:
            raise Mismatch(f"{value:#x}: sm_100a version bits are not 0b001")
        sw = {0: "none", 1: "128b_base32b", 2: "128b", 4: "64b", 6: "32b"}[bits(61, 63)]
    if any(bits(lo, hi) for lo, hi in reserved):
        raise Mismatch(f"{value:#x}: reserved bits set for {arch}")
    return start, lbo, sbo, base, sw


def expected_idesc(case: Case) -> int:
    """The tcgen05 instruction descriptor from the bit layout in docs/layout.md."""
    fmt = {"f16": 0, "bf16": 1, "tf32": 2, "e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5, "u8": 0, "s8": 1}
    d_fmt = {"f32": 1, "i32": 2}[case.acc]
    return (
        d_fmt << 4
        | fmt[case.dtype_of("a")] << 7
        | fmt[case.dtype_of("b")] << 10
        | (case.a.major == "mn") << 15
        | (case.b.major == "mn") << 16
        | (case.n >> 3) << 17
        | (case.m >> 4) << 24
    )


def check_tile(case: Case, role: str, tile: Tile, ir_layout: dict[str, str],
               descs: list[tuple[int, ...]], swz: list[str]) -> int:
    """Cross-check one operand's descriptors; returns how many."""
    where = f"{case.name} {role.upper()}"
    et = element_type(case.dtype_of(role))
    if ir_layout["major"] != tile.major or ir_layout["swizzle"] != tile.swizzle:
        raise Mismatch(f"{where}: IR layout {ir_layout} is not the case's {tile}")
    offset = int(ir_layout["offset"])
    if tile.offset is not None and offset != tile.offset:
        raise Mismatch(f"{where}: pinned offset {tile.offset} became {offset}")
    if tile.offset is None and offset % max(128, PERIOD[tile.swizzle]):
        raise Mismatch(f"{where}: auto-placed at {offset}, off the {tile.swizzle} period")
    layout = TileLayout.make(
        case.dtype_of(role), tile.mn, tile.k, tile.major, tile.swizzle,
        tile.order.replace("_", "-"), tile.strides, offset,
    )
    kpi = et.k_per_instruction
    if len(descs) != tile.k // kpi:
        raise Mismatch(f"{where}: {len(descs)} descriptors for {tile.k // kpi} K-slices")
    rows = np.arange(tile.mn)[:, None]
    for i, (k, start, lbo, sbo, base, value) in enumerate(descs):
        if k != i * kpi:
            raise Mismatch(f"{where}: slice {i} has k = {k}")
        if (start, lbo, sbo, base, swz[i]) != decode_fields(value, case.arch):
            raise Mismatch(f"{where} k={k}: printed fields disagree with {value:#x}")
        read = emulate_reads(value, case.arch, et.bits, tile.major == "mn", tile.mn, et.slot_bits)
        want = layout.addresses(rows, k + np.arange(kpi)[None, :])
        if not np.array_equal(read, want):
            bad = tuple(np.argwhere(read != want)[0])
            raise Mismatch(
                f"{where} k={k} desc {value:#x}: element {bad} read at {read[bad]:#x}, "
                f"the layout puts it at {want[bad]:#x}"
            )
    if case.spec and case.spec[0] == role:
        lbo, sbo = case.spec[1]
        if (descs[0][2], descs[0][3]) != (lbo, sbo):
            raise Mismatch(f"{where}: spec example wants LBO {lbo} SBO {sbo}, got {descs[0][2:4]}")
    return len(descs)


def pin_group(cases: list[Case]) -> tuple[str, int]:
    """Run one file's kernels through lower-tc, cross-check, and return (file text, pins)."""
    source = "// -----\n".join(c.kernel() for c in cases)
    chunks = run_lower_tc(source)
    if len(chunks) != len(cases):
        raise Mismatch(f"{len(chunks)} outputs for {len(cases)} kernels")
    body: list[str] = []
    pins = 0
    for case, out in zip(cases, chunks):
        if f"func.func @{case.name}(" not in out:
            raise Mismatch(f"{case.name}: not in its output chunk")
        tiles = {m.group(1): (m.group(2), parse_layout(m.group(3))) for m in TILE_RE.finditer(out)}
        op = OP_RE.search(out)
        if op is None or set(tiles) != {"a", "b"}:
            raise Mismatch(f"{case.name}: cannot find the tiles and the MMA in\n{out}")
        attrs = op.group(2)
        a_part, _, rest = attrs.partition("tc.b_descs = [")
        b_part, _, idesc_part = rest.partition("tc.idesc = ")
        checks = [f"// CHECK-LABEL: func.func @{case.name}("]
        for role in ("a", "b"):
            checks.append(f"// CHECK-NEXT: %{role} = tc.smem_tile : {tiles[role][0]}")
        pieces = [op.group(1) + "tc.a_descs = ["]
        for role, part in (("a", a_part), ("b", b_part)):
            found = list(DESC_RE.finditer(part))
            descs = [(int(m[1]), int(m[2], 16), int(m[3]), int(m[4]), int(m[5]), int(m[7], 16)) for m in found]
            pins += check_tile(case, role, getattr(case, role), tiles[role][1], descs, [m[6] for m in found])
            for j, m in enumerate(found):
                pieces.append(("" if j == 0 else ", ") + m.group(0))
            if role == "a":
                pieces.append("], tc.b_descs = [")
        if case.arch is Arch.SM100A:
            idesc = IDESC_RE.search(idesc_part)
            if idesc is None:
                raise Mismatch(f"{case.name}: no tc.idesc")
            value = int(re.search(r"value = (0x[0-9a-f]+)", idesc.group(0))[1], 16)
            if value != expected_idesc(case):
                raise Mismatch(f"{case.name}: idesc {value:#x}, expected {expected_idesc(case):#x}")
            pieces.append("], tc.idesc = " + idesc.group(0) + "} :")
        else:
            if idesc_part:
                raise Mismatch(f"{case.name}: a wgmma with an idesc")
            pieces.append("]} :")
        checks.append(f"// CHECK-NEXT: %acc = tc.acc_zero : !tc.acc<{case.m}x{case.n}x{case.acc}>")
        checks.append(f"// CHECK-NEXT: {pieces[0]}")
        checks += [f"// CHECK-SAME: {p}" for p in pieces[1:]]
        note = [f"// {case.note}"] if case.note else []
        body.append("\n".join(note + [case.kernel().rstrip("\n")] + checks) + "\n")
    return "// -----\n".join(body), pins


def header(arch: Arch, dtype: str, kernels: int, pins: int) -> str:
    family = "tc.wgmma (M = 64)" if arch is Arch.SM90A else "tc.tcgen05_mma (M = 128 and 64, with #tc.idesc)"
    return (
        "// GENERATED FILE -- do not edit. Regenerate with:\n"
        "//   .venv/bin/python filecheck/gen_descriptor_pins.py\n"
        f"// Pinned descriptors for {dtype} on {arch}, {family}: {kernels} kernels, "
        f"{pins} #tc.desc values.\n"
        "// Every value was checked by the generator against lower_tc.layout.emulate_reads\n"
        "// (what the tensor core reads) == TileLayout.addresses (where the data is).\n"
        f"{RUN_LINE}\n\n"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if a file is missing or stale")
    args = ap.parse_args()
    files: dict[Path, str] = {}
    total = kernels = 0
    try:
        for (arch, dtype), cases in build_cases().items():
            text, pins = pin_group(cases)
            name = f"{'sm90a' if arch is Arch.SM90A else 'sm100a'}_{dtype}.mlir"
            files[OUT_DIR / name] = header(arch, dtype, len(cases), pins) + text
            total += pins
            kernels += len(cases)
    except Mismatch as err:
        print(f"gen_descriptor_pins: MISMATCH, nothing written: {err}", file=sys.stderr)
        return 1
    if args.check:
        stale = [p.name for p, t in files.items() if not p.exists() or p.read_text() != t]
        if stale:
            print(f"gen_descriptor_pins: stale or missing: {', '.join(stale)}", file=sys.stderr)
            return 1
        print(f"{len(files)} files current: {kernels} kernels, {total} descriptor values")
        return 0
    OUT_DIR.mkdir(exist_ok=True)
    for path, text in files.items():
        path.write_text(text)
    print(f"wrote {len(files)} files in {OUT_DIR}: {kernels} kernels, "
          f"{total} pinned #tc.desc values (all cross-checked with the emulator)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
