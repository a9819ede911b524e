"""What the device's HBM gives a kernel that only streams bytes, at the sizes of the GEMM
suite's memory-bound cases (M <= 64): the ceiling beside issue 22's "85% of the HBM peak"
target, which is a share of the datasheet's figure.

    python bench/hbm_ceiling.py --out hbm.json --table hbm.md [--dtype bf16 --shapes ...]

For each case, on buffers of its least traffic (A + B + D, each once: Case.min_bytes),
rotated through as many copies as the suite's launches are (Case.copies, so no launch
reads what the last left in L2), timed as the suite times (bench/gemm_suite_gpu.py
`measure`: CUDA events, a spin kernel ahead of each sample, interleaved, medians):
- `copy`: torch's copy of the bytes into a second buffer (a device-to-device memcpy: read
  once, written once), counted as twice the bytes: the streaming rate the ceiling is;
- `read`: torch's sum of the bytes (viewed as bf16, f32 accumulation): one read of each
  byte, nothing written. Measured on the H200 it ran below the copy and below the GEMMs
  themselves (a reduction kernel, not a streaming one), so it is shown, not used.
The table gives each one's GB/s and its share of the device's HBM peak
(gemm_suite_report.hbm_peak), beside the suite's own figures where `--suite` names a run,
as a share of the copy's rate. `--from-json` renders an earlier run's table (no GPU).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_suite as suite  # noqa: E402
from gemm_suite_report import hbm_peak  # noqa: E402
from gemm_suite_shapes import Case  # noqa: E402


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", metavar="FILE")
    p.add_argument("--table", metavar="FILE")
    p.add_argument("--shapes", action="append", metavar="SUBSTRING")
    p.add_argument("--category", action="append", metavar="CAT")
    p.add_argument("--dtype", action="append", metavar="T", help="bf16, e4m3 (default: both)")
    p.add_argument("--layout", action="append", metavar="L")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--warmup-rounds", type=int, default=2)
    p.add_argument("--sample-ms", type=float, default=2.0)
    p.add_argument("--from-json", metavar="FILE", help="render this earlier run's --table (no GPU)")
    p.add_argument("--suite", nargs="*", default=[], metavar="FILE",
                   help="bench/gemm_suite.py runs whose lower-tc and cuBLAS GB/s to set beside the ceilings")
    args = p.parse_args(argv)
    args.dtype = args.dtype or ["bf16", "e4m3"]
    args.layout = args.layout or ["linear"]
    return args


def memory_bound_cases(args: argparse.Namespace) -> list[Case]:
    """The suite's M <= 64 cases that the filters select."""
    return [c for c in suite.chosen_cases(args) if c.shape.memory_bound]


def run_case(torch: Any, gpu: Any, case: Case, args: argparse.Namespace) -> dict[str, Any]:
    import gemm_suite_gpu as g

    elements = -(-case.min_bytes // 2)  # bf16 elements that hold the case's bytes
    copies = case.copies
    src = [torch.rand(elements, device=gpu.device, dtype=torch.float32).to(torch.bfloat16) for _ in range(copies)]
    dst = [torch.empty_like(t) for t in src]
    turns_read, turns_copy = g.Turns(copies), g.Turns(copies)

    def read() -> None:
        j = turns_read.take()
        torch.sum(src[j], dtype=torch.float32)

    def copy() -> None:
        j = turns_copy.take()
        dst[j].copy_(src[j])

    contenders = [g.Contender("read", launch=read, begin=turns_read.reset),
                  g.Contender("copy", launch=copy, begin=turns_copy.reset)]
    n = g.measure(gpu, contenders, args.samples, args.warmup_rounds, args.sample_ms)
    got = {c.name: statistics.median(c.samples) for c in contenders if c.samples and not c.skipped}
    # the read is right: the sum of the last copy's bytes as torch's float64 sum gives it
    want = float(src[0].double().sum())
    got_sum = float(torch.sum(src[0], dtype=torch.float32))
    if abs(got_sum - want) > 1e-3 * abs(want):
        raise RuntimeError(f"{case.shape.name}: the read's sum {got_sum} is not {want}")
    if not torch.equal(dst[0], src[0]):
        raise RuntimeError(f"{case.shape.name}: the copy differs from its source")
    record = {"shape": case.shape.name, "dtype": case.dtype, "m": case.shape.m, "n": case.shape.n, "k": case.shape.k,
              "bytes": 2 * elements, "copies": copies, "launches_per_sample": n,
              "read_ms": got.get("read"), "copy_ms": got.get("copy"),
              "skipped": {c.name: c.skipped for c in contenders if c.skipped}}
    del src, dst, contenders
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    return record


def suite_bandwidth(files: list[str]) -> dict[tuple[str, str], dict[str, float]]:
    """(shape, dtype) -> the GB/s of lower-tc and cuBLAS in the suite runs `files` (B as the
    weight), from their medians and the case's least traffic."""
    found: dict[tuple[str, str], dict[str, float]] = {}
    for f in files:
        for r in json.loads(Path(f).read_text())["results"]:
            if r.get("layout") != "linear" or not r.get("min_bytes"):
                continue
            for who in ("lower-tc", "cublas"):
                ms = (r.get("results", {}).get(who) or {}).get("ms")
                if ms:
                    found.setdefault((r["shape"], r["dtype"]), {})[who] = r["min_bytes"] / (ms * 1e-3) / 1e9
    return found


def table(meta: dict[str, Any], records: list[dict[str, Any]], beside: dict[tuple[str, str], dict[str, float]]) -> str:
    peak = meta["hbm_peak"]
    pct = lambda gbs: f"{gbs:.0f} ({gbs * 1e9 / peak:.0%})"  # noqa: E731
    lines = [f"# HBM ceiling at the suite's memory-bound sizes (bench/hbm_ceiling.py)\n",
             f"- {meta['device']}, {meta['date']}, commit {meta['commit']}: `{meta['command']}`",
             f"- GB/s, and in brackets the share of the HBM peak ({peak / 1e12:.2f} TB/s). `read`: torch's sum of the "
             "case's least traffic in bytes; `copy`: torch's copy of them (2x the bytes). lower-tc's and cuBLAS's "
             "GB/s (the least traffic over the time) are the `--suite` runs', as a share of the copy's.\n",
             "| shape | dtype | MB | copy GB/s | read GB/s | lower-tc GB/s | lower-tc of copy | cuBLAS GB/s | cuBLAS of copy |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        read = r["bytes"] / (r["read_ms"] * 1e-3) / 1e9 if r.get("read_ms") else None
        copy = 2 * r["bytes"] / (r["copy_ms"] * 1e-3) / 1e9 if r.get("copy_ms") else None
        other = beside.get((r["shape"], r["dtype"]), {})
        cells = [r["shape"], r["dtype"], f"{r['bytes'] / 1e6:.0f}", pct(copy) if copy else "", pct(read) if read else ""]
        for who in ("lower-tc", "cublas"):
            gbs = other.get(who)
            cells += [f"{gbs:.0f}" if gbs else "", f"{gbs / copy:.0%}" if gbs and copy else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.from_json:
        run = json.loads(Path(args.from_json).read_text())
        Path(args.table).write_text(table(run, run["results"], suite_bandwidth(args.suite)))
        return 0
    import torch

    import gemm_suite_gpu as g

    gpu = g.Gpu(torch)
    cases = memory_bound_cases(args)
    meta = {"device": torch.cuda.get_device_name(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "commit": os.environ.get("LOWER_TC_COMMIT"), "command": "python bench/hbm_ceiling.py " + " ".join(argv),
            "hbm_peak": hbm_peak(torch.cuda.get_device_name())}
    records = []
    for case in cases:
        with torch.cuda.stream(gpu.stream):
            records.append(run_case(torch, gpu, case, args))
        r = records[-1]
        print(f"{case.dtype} {case.shape.name}: read {r['bytes'] / (r['read_ms'] or 1) / 1e6:.0f} GB/s, "
              f"copy {2 * r['bytes'] / (r['copy_ms'] or 1) / 1e6:.0f} GB/s", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({**meta, "results": records}, indent=1))
    if args.table:
        Path(args.table).write_text(table(meta, records, suite_bandwidth(args.suite)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
