"""fp8's promoted accumulation at one square size, per tile configuration and schedule,
beside the fast mode: which tiles the promoted run holds at speed (docs/performance.md).

    python bench/fp8_promoted_configs.py [SIZE]     # on a GPU, torch installed; default 4096

e4m3 A (M x K, row-major) times B given as nn.Linear's weight (N x K), D bf16. Each variant
is launched through `lower_tc.matmul`; the variants take turns, 15 rounds of 10 launches
between two CUDA events, and each prints its median. A variant lower-tc refuses prints why.
"""

from __future__ import annotations

import statistics
import sys

import torch

import lower_tc

VARIANTS: dict[str, dict[str, object]] = {
    "fast default": {},
    "promoted default": {"accumulation": "promoted"},
    "fast 128x192": {"config": (128, 192, 128, 4)},
    "promoted 128x192": {"config": (128, 192, 128, 4), "accumulation": "promoted"},
    "promoted 128x192 not persistent": {"config": (128, 192, 128, 4), "accumulation": "promoted", "persistent": False},
    "promoted 128x192 pipelined": {"config": (128, 192, 128, 4), "accumulation": "promoted", "schedule": "pipelined"},
    "promoted 128x128": {"config": (128, 128, 128, 4), "accumulation": "promoted"},
    "promoted 128x160": {"config": (128, 160, 128, 4), "accumulation": "promoted"},
    "promoted 128x176": {"config": (128, 176, 128, 4), "accumulation": "promoted"},
    "promoted 64x192": {"config": (64, 192, 128, 4), "accumulation": "promoted"},
    "promoted 128x192, BK 64": {"config": (128, 192, 64, 6), "accumulation": "promoted"},
}


def main() -> int:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    m = n = k = size
    a = (torch.randn(m, k, device="cuda") * 0.5).to(torch.float8_e4m3fn)
    weight = (torch.randn(n, k, device="cuda") * 0.5).to(torch.float8_e4m3fn)
    b, d = weight.t(), torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    print(f"{torch.cuda.get_device_name()}, e4m3 {m}x{n}x{k}, lower-tc {lower_tc.__version__}")
    runs: dict[str, dict[str, object]] = {}
    for name, options in VARIANTS.items():
        try:
            lower_tc.matmul(a, b, out=d, **options)
            torch.cuda.synchronize()
            runs[name] = options
        except (lower_tc.LaunchError, lower_tc.CompileError) as err:
            print(f"{name}: refused: {err}")
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(15):
        for name, options in runs.items():
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(10):
                lower_tc.matmul(a, b, out=d, **options)
            stop.record()
            torch.cuda.synchronize()
            samples[name].append(start.elapsed_time(stop) / 10)
    for name, times in samples.items():
        ms = statistics.median(times)
        print(f"{name:34s} {ms * 1e3:8.1f} us {2 * m * n * k / ms / 1e9:7.1f} TFLOP/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
