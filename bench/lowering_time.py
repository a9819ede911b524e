"""How long lowering a GEMM takes (issue 22: "Lowering a GEMM stays under 1 s"): the default
kernel of each suite case (the program `lower_tc.matmul` writes, bench/gemm_suite.py
`lower_tc_plan`) from `tc.matmul` to PTX by `lowering.compile.compile_source`, no ptxas, no
GPU; the median of --runs runs per program (after one discarded), the slowest printed
first.

    python bench/lowering_time.py                          # every case of the suite
    python bench/lowering_time.py --shapes long-k --runs 7 --top 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gemm_suite  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", action="append", metavar="SUBSTRING", help="shapes whose name contains it (repeatable)")
    p.add_argument("--category", action="append", metavar="CAT", help="decode, batch, prefill, square, long-k, ragged")
    p.add_argument("--dtype", action="append", metavar="T", help="bf16, e4m3 (default both)")
    p.add_argument("--layout", action="append", metavar="L", help="linear, rowmajor (default both)")
    p.add_argument("--runs", type=int, default=5, help="timed runs per program (default 5)")
    p.add_argument("--top", type=int, default=10, help="programs to print, slowest first (default 10)")
    args = p.parse_args(argv)
    from lower_tc.lowering.compile import compile_source

    seen: dict[str, str] = {}
    for case in gemm_suite.chosen_cases(args):
        source = gemm_suite.lower_tc_plan(case).source
        seen.setdefault(source, f"{case.dtype} {case.layout} {case.shape.name}")
    medians = []
    for source, label in seen.items():
        compile_source(source, "<lower_tc.matmul>")  # discarded: imports, caches
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            compile_source(source, "<lower_tc.matmul>")
            times.append(time.perf_counter() - t0)
        medians.append((statistics.median(times), label))
    medians.sort(reverse=True)
    for seconds, label in medians[: args.top]:
        print(f"{seconds:.3f} s  {label}")
    print(f"{len(medians)} programs: slowest {medians[0][0]:.3f} s, median {statistics.median(m for m, _ in medians):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
