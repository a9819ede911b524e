"""Host time per call: a cached lower-tc kernel called on torch tensors, beside
torch.matmul on the same tensors, in one process (issue 20's target: at most 10 us per
call and at most 2x torch's).

    python bench/call_overhead.py --out call_overhead.json [--calls 1000] [--rounds 15]

A 256^3 bf16 GEMM (A, B row-major, D bf16, as torch.matmul(a, b, out=d)): `Kernel(a, b,
d)` from `lower_tc.compile`, `lower_tc.matmul(a, b, d)` (the whole API: views, plan and
kernel found in its caches), and `torch.matmul(a, b, out=d)`. Each sample is the wall time
of `--calls` calls with no synchronisation, divided by the calls, after which the GPU is
drained (outside the timed span); the three are interleaved round by round and the median
over `--rounds` is reported. `gpu_bound` says whether the GPU finishing the queued work
took longer than the host issuing it (then the host time includes waiting on a full
launch queue). torch is this benchmark's dependency only, never lower-tc's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from lower_tc.lowering.api.matmul_program import Matrix, matmul_program  # noqa: E402

SIZE = 256


def sample(torch, call, calls: int) -> tuple[float, float]:
    """(host seconds per call, seconds per call until the GPU finished them)."""
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        call()
    issued = time.perf_counter()
    torch.cuda.synchronize()
    done = time.perf_counter()
    return (issued - start) / calls, (done - start) / calls


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    import torch  # the benchmark's peer, not lower-tc's dependency

    import lower_tc

    a = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.bfloat16)
    d = torch.empty(SIZE, SIZE, device="cuda", dtype=torch.bfloat16)
    m = Matrix(SIZE, SIZE, "bf16")
    kernel = lower_tc.compile(matmul_program("bench_gemm", m, m, m, acc="f32"))
    calls = {
        "lower_tc.Kernel": lambda: kernel(a, b, d),
        "lower_tc.matmul": lambda: lower_tc.matmul(a, b, d),
        "torch.matmul": lambda: torch.matmul(a, b, out=d),
    }
    want = (a.double() @ b.double())
    for name, call in calls.items():  # warm up each (compile, caches, cuBLAS handles) and check it
        d.fill_(float("nan"))
        call()
        torch.cuda.synchronize()
        err = ((d.double() - want).abs() / (a.double().abs() @ b.double().abs())).max().item()
        assert err < 0.01, f"{name}: max relative error {err}"
        sample(torch, call, args.calls)
    host: dict[str, list[float]] = {n: [] for n in calls}
    total: dict[str, list[float]] = {n: [] for n in calls}
    for _ in range(args.rounds):
        for name, call in calls.items():
            h, t = sample(torch, call, args.calls)
            host[name].append(h)
            total[name].append(t)
    results = []
    for name in calls:
        h, t = statistics.median(host[name]), statistics.median(total[name])
        results.append({"call": name, "host_us": round(h * 1e6, 2), "until_done_us": round(t * 1e6, 2),
                        "gpu_bound": t > 1.05 * h})
    torch_host = next(r["host_us"] for r in results if r["call"] == "torch.matmul")
    for r in results:
        r["vs_torch"] = round(r["host_us"] / torch_host, 2)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or os.environ.get("COMMIT", "unknown")
    report = {
        "device": torch.cuda.get_device_name(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit, "command": "python bench/call_overhead.py " + " ".join(argv),
        "shape": [SIZE, SIZE, SIZE], "dtype": "bf16", "calls_per_sample": args.calls, "rounds": args.rounds,
        "results": results,
    }
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    for r in results:
        print(f"{r['call']:18s} {r['host_us']:8.2f} us/call on the host  {r['until_done_us']:8.2f} us/call until done"
              f"  {r['vs_torch']:.2f}x torch{'  (GPU-bound)' if r['gpu_bound'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
