"""Which kernels cuBLAS runs on issue 22's suite (bench/gemm_suite_shapes.py): each case's
cuBLAS call (torch, exactly as bench/gemm_suite_gpu.py makes it) under torch.profiler, and
per kernel its name, grid, block, shared memory and median duration. cuBLAS's kernel names
say its tile, cluster and schedule (e.g. `nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_TNT`),
so this tells which configuration lower-tc's tuner is up against on a shape where it is
behind. Needs a GPU and torch; no lower-tc.

    python bench/cublas_kernels.py --out k.json --table k.md [--category batch] [--shapes ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gemm_suite_shapes import SUITE, cases  # noqa: E402

#: Launches profiled per case (after WARMUP unprofiled ones); the durations' median is kept.
LAUNCHES = 5
WARMUP = 3


def profile_case(torch: Any, case: Any) -> list[dict[str, Any]]:
    """The kernels of LAUNCHES cuBLAS calls on the case's operands: one row per distinct
    kernel name with its launch shape and median duration in microseconds."""
    from gemm_suite_gpu import arrays, cublas_contenders

    x = arrays(torch, case, seed=1)
    contender = cublas_contenders(torch, case, x)[0]  # bf16: matmul; e4m3: cuBLAS's default mode
    contender.begin()
    for _ in range(WARMUP):
        contender.launch()
    torch.cuda.synchronize()
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(LAUNCHES):
            contender.launch()
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f)["traceEvents"]
    finally:
        os.unlink(path)
    kernels: dict[str, dict[str, Any]] = {}
    for e in events:
        if e.get("cat") != "kernel":
            continue
        args = e.get("args", {})
        row = kernels.setdefault(e["name"], {"name": e["name"], "grid": args.get("grid"), "block": args.get("block"),
                                             "shared_bytes": args.get("shared memory"),
                                             "registers": args.get("registers per thread"), "us": []})
        row["us"].append(float(e.get("dur", 0.0)))
    out = []
    for row in kernels.values():
        row["launches"] = len(row["us"])
        row["us"] = statistics.median(row["us"])
        out.append(row)
    return out


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| dtype | B | shape | kernel | grid | block | smem | us |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["skipped"]:
            lines.append(f"| {r['dtype']} | {r['layout']} | {r['shape']} | not run: {r['skipped']} | | | | |")
        for k in r["kernels"]:
            lines.append(f"| {r['dtype']} | {r['layout']} | {r['shape']} | `{k['name'][:110]}` | {k['grid']} | {k['block']} "
                         f"| {k['shared_bytes']} | {k['us']:.1f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", action="append", default=[], metavar="SUBSTRING")
    p.add_argument("--category", action="append", default=[])
    p.add_argument("--dtype", action="append", default=[])
    p.add_argument("--layout", action="append", default=[])
    p.add_argument("--out", required=True)
    p.add_argument("--table")
    args = p.parse_args()
    import torch

    shapes = [s for s in SUITE if (not args.shapes or any(x in s.name for x in args.shapes))
              and (not args.category or s.category in args.category)]
    rows = []
    for case in cases(shapes, args.dtype or None, args.layout or None):
        try:
            kernels, skipped = profile_case(torch, case), None
        except RuntimeError as err:  # cuBLAS's fp8 refuses sizes not multiples of 16
            kernels, skipped = [], str(err).splitlines()[0]
        rows.append({"shape": case.shape.name, "m": case.shape.m, "n": case.shape.n, "k": case.shape.k,
                     "dtype": case.dtype, "layout": case.layout, "kernels": kernels, "skipped": skipped})
        k = rows[-1]["kernels"]
        print(case.dtype, case.layout, case.shape.name, "|", "; ".join(f"{r['name'][:90]} {r['grid']} {r['us']:.1f}us" for r in k),
              flush=True)
        torch.cuda.empty_cache()
    meta = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "command": " ".join(sys.argv)}
    with open(args.out, "w") as f:
        json.dump({**meta, "results": rows}, f, indent=1)
    if args.table:
        with open(args.table, "w") as f:
            f.write(f"# cuBLAS's kernels on the GEMM suite\n\n- {meta['device']}, torch {meta['torch']} (CUDA {meta['cuda']}), "
                    f"{meta['date']}: `python {meta['command']}`\n\n" + table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
