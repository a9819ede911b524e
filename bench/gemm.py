"""lower-tc's GEMM against cuBLAS, in one process, on the GPU: TFLOP/s and the ratio.

    python bench/gemm.py --out gemm_h100.json [--runs 30] [--warmup 10]

For each shape (8192^3, 4096^3, 2048^3, 8192x8192x1024) in bf16 (A row-major, B
row-major, as torch.matmul(a, b)) and e4m3 (B column-major, as cuBLAS's fp8 needs,
through torch._scaled_mm), both with a bf16 D: lower-tc's default GEMM (the op level
with no configuration) is compiled, timed with CUDA events (lowering/runtime/timing.py, driver
API), and cuBLAS is timed with torch's CUDA events: the median of `--runs` samples after
`--warmup` launches, each sample the time of BATCH launches back to back divided by BATCH. torch is this benchmark's dependency only, never lower-tc's.
Writes {"device", "date", "commit", "command", "results": [{"m", "n", "k", "dtype",
"config", "lower_tc_tflops", "cublas_tflops", "ratio"}, ...]}.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_sweep import GemmCase  # noqa: E402

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 2048, 2048), (8192, 8192, 1024)]
#: Launches per timed sample, for both: the host's launch latency stays out of the time.
BATCH = 10


def cublas_ms(torch, m: int, n: int, k: int, dtype: str, warmup: int, runs: int) -> float:
    dev = "cuda"
    if dtype == "bf16":
        a = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
        b = torch.randn(k, n, device=dev, dtype=torch.bfloat16)

        def op():
            return torch.matmul(a, b)
    else:
        a = (torch.rand(m, k, device=dev) * 2 - 1).to(torch.float8_e4m3fn)
        b = (torch.rand(n, k, device=dev) * 2 - 1).to(torch.float8_e4m3fn)  # B column-major
        one = torch.tensor(1.0, device=dev)

        def op():
            return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    for _ in range(warmup):
        op()
    pairs = []
    for _ in range(runs):  # as lowering/runtime/timing.py does: BATCH launches between two events
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(BATCH):
            op()
        e.record()
        pairs.append((s, e))
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) / BATCH for s, e in pairs)


#: The ablation: one technique turned on per row, in order (bf16, A and B row-major).
#: (name, configuration (bm, bn, bk in bytes of K, stages) or None for the chooser's, op options)
ABLATION = [
    ("issue-11 kernel: one loop, thread 0 loading between the MMAs, 128x128 tiles", (128, 128, 128, 4), 'schedule = "pipelined", raster = 0, epilogue = "registers"'),
    ("+ 128x256 tiles (two warpgroups of 64x256)", (128, 256, 128, 4), 'schedule = "pipelined", raster = 0, epilogue = "registers"'),
    ("+ grouped raster (CTAs walk 8 tile rows at a time)", (128, 256, 128, 4), 'schedule = "pipelined", raster = 8, epilogue = "registers"'),
    ("+ warp specialisation (a TMA producer warpgroup, setmaxnreg)", (128, 256, 128, 4), 'schedule = "warp_specialized", raster = 8, persistent = false, epilogue = "registers"'),
    ("+ L2 promotion of the TMA loads (256 B)", (128, 256, 128, 4), 'schedule = "warp_specialized", raster = 8, l2_promotion = 256, persistent = false, epilogue = "registers"'),
    ("+ persistent CTAs (one per SM, the ring running on across tiles)", (128, 256, 128, 4), 'schedule = "warp_specialized", raster = 8, l2_promotion = 256, persistent = true, epilogue = "registers"'),
    ("+ epilogue through shared memory (stmatrix, TMA stores overlapping the next tile)", (128, 256, 128, 4), 'schedule = "warp_specialized", raster = 8, l2_promotion = 256, persistent = true, epilogue = "tma"'),
    ("the default (tc.matmul with no configuration or options)", None, ""),
]
ABLATION_SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096)]


def variant_rows(torch, variants, shapes, dtype: str, args) -> list[dict]:
    """Each variant at each shape: checked once on fresh inputs (lower-tc run's check), then
    timed, with cuBLAS timed next to it in the same process."""
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.run import run_kernel
    from lower_tc.lowering.runtime.timing import time_kernel

    rows = []
    for name, config, options in variants:
        for m, n, k in shapes:
            case = GemmCase(dtype, dtype, "f32", "bf16", m, n, k, True, dtype == "bf16", config, options=options)
            kernel = compile_source(case.source(), case.name, assemble=True)[0]
            check = run_kernel(kernel, seed=3)
            ours = time_kernel(kernel, seed=1, warmup=args.warmup, runs=args.runs, batch=BATCH)
            theirs = cublas_ms(torch, m, n, k, dtype, args.warmup, args.runs)
            c = kernel.info.gemm.config
            row = {
                "variant": name, "m": m, "n": n, "k": k, "dtype": dtype,
                "config": str(c),  # "BMxBNxBK, S stages"
                "options": options or "(none)",
                "correct": check.passed,
                "lower_tc_tflops": round(ours.tflops, 1),
                "cublas_tflops": round(2.0 * m * n * k / (theirs * 1e-3) / 1e12, 1),
            }
            row["ratio"] = round(row["lower_tc_tflops"] / row["cublas_tflops"], 3)
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--dtypes", default="bf16,e4m3")
    p.add_argument("--ablation", metavar="FILE", help="also run the ablation (ABLATION) and write it to FILE")
    p.add_argument("--variants", metavar="FILE", help="only time the variants listed in FILE (a Python list like ABLATION) and print them")
    args = p.parse_args(argv)
    import torch

    if args.variants:
        import ast

        spec = ast.literal_eval(open(args.variants).read())
        for dtype, variants, shapes in spec:
            variant_rows(torch, variants, [tuple(x) for x in shapes], dtype, args)
        return 0
    if args.ablation:
        rows = variant_rows(torch, ABLATION, ABLATION_SHAPES, "bf16", args)
        with open(args.ablation, "w") as f:
            json.dump({"command": "python bench/gemm.py " + " ".join(argv), "results": rows}, f, indent=2)
            f.write("\n")

    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.timing import time_kernel

    results = []
    device = ""
    for dtype in args.dtypes.split(","):
        for m, n, k in SHAPES:
            case = GemmCase(dtype, dtype, "f32", "bf16", m, n, k, True, dtype == "bf16", None)
            kernel = compile_source(case.source(), case.name, assemble=True)[0]
            ours = time_kernel(kernel, seed=1, warmup=args.warmup, runs=args.runs, batch=BATCH)
            device = ours.device
            theirs = cublas_ms(torch, m, n, k, dtype, args.warmup, args.runs)
            flops = 2.0 * m * n * k
            c = kernel.info.gemm.config
            row = {
                "m": m, "n": n, "k": k, "dtype": dtype,
                "config": str(c),  # "BMxBNxBK, S stages"
                "lower_tc_tflops": round(ours.tflops, 1),
                "cublas_tflops": round(flops / (theirs * 1e-3) / 1e12, 1),
            }
            row["ratio"] = round(row["lower_tc_tflops"] / row["cublas_tflops"], 3)
            results.append(row)
            print(json.dumps(row), flush=True)
    commit = os.environ.get("LOWER_TC_COMMIT", "")
    if not commit:  # the device gets a copy of the tree without .git: pass LOWER_TC_COMMIT there
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        except OSError:
            commit = ""
    record = {
        "device": device,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit or "unknown",
        "command": "python bench/gemm.py " + " ".join(argv),
        "torch": torch.__version__,
        "results": results,
    }
    with open(args.out, "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
