"""Experiment: which descriptor base offset makes wgmma read a tile placed off its
swizzle-pattern boundary, for each swizzle mode, major-ness, operand and dtype.

For every case the tested tile starts at P = 16384 + 128*r (r = 0..7; the other
operand sits on a 1024-byte boundary) and its data is written by the threads in
one of two conventions:

* ``abs``: swizzled on absolute shared-memory address bits (what TMA does, and
  lower-tc's default);
* ``rel``: swizzled relative to the tile start P (``origin = P`` in #tc.layout).

The descriptor's base offset is then forced to each value 0..7 and the kernel
run against the float64 reference. The table printed at the end lists, per
case and r, the base offsets that read the intended matrix.

    python bench/base_offset.py --out results.tsv     # needs an H100
    python bench/base_offset.py --list                # count the runs, no GPU
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import os
import sys
import time
from collections import defaultdict

ELEMENT = {
    "f16": "f16", "bf16": "bf16", "tf32": "tf32", "e4m3": "f8E4M3FN", "e5m2": "f8E5M2",
    "s8": "si8", "u8": "ui8",
}
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8}
ACC = {"f16": "f32", "bf16": "f32", "tf32": "f32", "e4m3": "f32", "e5m2": "f32", "s8": "i32", "u8": "i32"}
ROW = {"32b": 32, "64b": 64, "128b": 128}


def cases():
    for dtype, swizzle, operand, convention, r in itertools.product(
        ELEMENT, ROW, ("a", "b"), ("abs", "rel"), range(8)
    ):
        majors = ("k", "mn") if BITS[dtype] == 16 else ("k",)
        for major in majors:
            yield dtype, swizzle, operand, major, convention, r


def program(dtype: str, swizzle: str, operand: str, major: str, convention: str, r: int) -> str:
    e, acc = ELEMENT[dtype], ACC[dtype]
    # K one swizzle row for K-major; MN one row for MN-major (N = 64 for B)
    k = max(ROW[swizzle] * 8 // BITS[dtype], 256 // BITS[dtype])
    n = 64
    tested = 16384 + 128 * r
    def layout(which: str, mj: str, offset: int) -> str:
        origin = f", origin = {offset}" if which == operand and convention == "rel" else ""
        return f"#tc.layout<{mj}, swizzle = {swizzle}, offset = {offset}{origin}>"
    la = layout("a", major if operand == "a" else "k", tested if operand == "a" else 0)
    lb = layout("b", major if operand == "b" else "k", tested if operand == "b" else 32768)
    ta, tb = f"!tc.tile<64x{k}x{e}, {la}>", f"!tc.tile<{n}x{k}x{e}, {lb}>"
    return f"""func.func @k(%A: memref<64x{k}x{e}>, %B: memref<{k}x{n}x{e}>, %D: memref<64x{n}x{acc}>) attributes {{tc.target = "sm_90a"}} {{
  %a = tc.smem_tile : {ta}
  %b = tc.smem_tile : {tb}
  tc.copy %A to %a as a : memref<64x{k}x{e}>, {ta}
  tc.copy %B to %b as b : memref<{k}x{n}x{e}>, {tb}
  %acc = tc.acc_zero : !tc.acc<64x{n}x{acc}>
  %d = tc.wgmma %a, %b, %acc : {ta}, {tb}, !tc.acc<64x{n}x{acc}>
  tc.acc_store %d to %D : !tc.acc<64x{n}x{acc}>, memref<64x{n}x{acc}>
  func.return
}}
"""


def _force_base_offset(operand: str, bo: int):
    def edit(module):
        from xdsl.dialects.builtin import ArrayAttr, IntAttr

        from lower_tc.dialects.tc import DescAttr, WgmmaOp

        for op in module.walk():
            if isinstance(op, WgmmaOp):
                key = f"tc.{operand}_descs"
                descs = []
                for d in op.attributes[key].data:
                    value = d.value.data & ~(7 << 49) | bo << 49
                    descs.append(DescAttr(d.k, d.start, d.lbo, d.sbo, IntAttr(bo), d.swizzle, IntAttr(value)))
                op.attributes[key] = ArrayAttr(descs)
    return edit


def _work(job):
    case, bo, seed = job
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.run import run_kernel

    try:
        k = compile_source(program(*case), "-".join(map(str, case)), assemble=True,
                           before_lowering=_force_base_offset(case[2], bo))[0]
        r = run_kernel(k, seed)
        return case, bo, "pass" if r.passed else "fail", r.max_error
    except Exception as err:  # noqa: BLE001
        return case, bo, f"error: {str(err).splitlines()[0][:200]}", float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--list", action="store_true", help="count the runs and exit")
    args = parser.parse_args()
    work = [(c, bo, args.seed + i) for i, (c, bo) in enumerate(itertools.product(cases(), range(8)))]
    print(f"{len(work)} runs", flush=True)
    if args.list:
        return 0
    start = time.monotonic()
    results = []
    with mp.get_context("spawn").Pool(args.workers) as pool:
        for i, row in enumerate(pool.imap_unordered(_work, work, chunksize=4), 1):
            results.append(row)
            if i % 500 == 0:
                print(f"[{i}/{len(work)}] {time.monotonic() - start:.0f} s", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("dtype\tswizzle\toperand\tmajor\tconvention\tr\tbase_offset\tresult\tmax_error\n")
            for case, bo, res, err in sorted(results):
                f.write("\t".join(map(str, (*case, bo, res, err))) + "\n")
    passing = defaultdict(list)
    errors = [r for r in results if r[2].startswith("error")]
    for case, bo, res, _ in results:
        if res == "pass":
            passing[case].append(bo)
    # rule check: abs needs bo = 0 mod W; rel needs bo = (P >> 7) mod W
    mismatches = 0
    rows = defaultdict(dict)
    for case in cases():
        dtype, swizzle, operand, major, convention, r = case
        w = ROW[swizzle] // 16
        tested = 16384 + 128 * r
        want = [bo for bo in range(8) if (bo - (0 if convention == "abs" else (tested >> 7))) % w == 0]
        got = sorted(passing[case])
        mismatches += got != want
        rows[(dtype, swizzle, operand, major, convention)][r] = ",".join(map(str, got)) or "-"
    print("\n| dtype | swizzle | operand | major | data | " + " | ".join(f"r={r}" for r in range(8)) + " |")
    print("|---" * 13 + "|")
    for key in sorted(rows):
        print("| " + " | ".join(key) + " | " + " | ".join(rows[key][r] for r in range(8)) + " |")
    print(f"\n{len(results)} runs in {time.monotonic() - start:.0f} s; {len(errors)} errors; "
          f"{mismatches} of {len(rows) * 8} cases differ from the rule "
          "phys = A ^ ((((A >> 7) - bo) mod W) << 4)")
    for e in errors[:10]:
        print("ERROR", e)
    return 0 if not mismatches and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
