"""One tuning candidate launched a few times on fresh arrays, for a profiler to pick a
launch from (Nsight Compute: `ncu --set full -k regex:lower_tc --launch-skip 3
--launch-count 1 python bench/gemm_candidate_launches.py 128 1536 7168 '64x64x64/12
split_k=2 reduce=global persistent=False'`). bf16, A row-major, B as nn.Linear's weight
(`w.t()`), D bf16; prints the result's error against a float32 product, so a profiled
kernel is also a right one."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("m", type=int)
    p.add_argument("n", type=int)
    p.add_argument("k", type=int)
    p.add_argument("candidate", help="a label of layout/gemm_tuning.py's Candidate, e.g. '64x64x64/8 persistent=False'")
    p.add_argument("--launches", type=int, default=4)
    args = p.parse_args(argv)
    import torch

    import lower_tc
    from lower_tc.layout.gemm_tuning import Candidate

    cand = Candidate.parse(args.candidate)
    a = torch.randn(args.m, args.k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(args.n, args.k, device="cuda", dtype=torch.bfloat16)
    d = torch.empty(args.m, args.n, device="cuda", dtype=torch.bfloat16)
    for _ in range(args.launches):
        lower_tc.matmul(a, w.t(), out=d, config=cand.config, **cand.option_dict)
    torch.cuda.synchronize()
    ref = a.float() @ w.float().t()
    print(f"max |d - a w^T| / max |a w^T| = {float((d.float() - ref).abs().max() / ref.abs().max()):.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
