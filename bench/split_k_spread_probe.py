"""The global split's two sums side by side: the default kernel of each long-K suite shape
(bf16 with B both ways, e4m3), as compiled (its tiles' sum spread over their CTAs where the
grid allows it: passes/to_ptx/gemm/split_k_global.py `spreads`) and compiled with the sum
left to each tile's last CTA (bench/split_k_tail_probe.py `compile_last_cta_sum`), timed
as the suite times them (bench/gemm_suite_gpu.py), cuBLAS beside them, on the same arrays;
whether the two outputs are the same bits.

    python bench/split_k_spread_probe.py --out split_k_spread_probe.json

torch and cuda-bindings are its dependencies (the device's).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--samples", type=int, default=15)
    args = p.parse_args(argv)
    import torch

    import gemm_suite_gpu as g
    from lower_tc.lowering.compile import compile_source

    from split_k_tail_probe import compile_last_cta_sum, long_k_programs

    gpu = g.Gpu(torch)
    rows = []
    for case, source in long_k_programs({"bf16": ("linear", "rowmajor"), "e4m3": ("linear",)}):
        kernels = {"spread": compile_source(source, "probe")[0], "last": compile_last_cta_sum(source)}
        if "spread split-K" not in kernels["spread"].ptx:
            continue  # not a spread sum: nothing to compare
        us, checks, by = g.time_kernels(gpu, torch, case, {n: (ck.ptx, ck.info) for n, ck in kernels.items()}, args.samples)
        checks["same_bits"] = bool(torch.equal(by["spread"].output(), by["last"].output()))
        gemm = kernels["spread"].info.gemm
        row = {"shape": case.shape.name, "dtype": case.dtype, "layout": case.layout, "config": str(gemm.config), "split_k": gemm.split_k,
               "us": us, "checks": checks}
        print(json.dumps(row, default=str), flush=True)
        rows.append(row)
        del by
    g.write_study(args.out, torch, "bench/split_k_spread_probe.py", argv, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
