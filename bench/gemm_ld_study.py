"""Does B's leading dimension decide a GEMM's speed? The default lower-tc kernel
(`lower_tc.matmul`, sizes compiled in) beside cuBLAS (torch.matmul) on the same tensors, in
one process, for shapes whose operand rows are or are not whole 128-byte lines, with B
row-major (K x N, MN-major: TMA boxes of 128-byte rows of N) or as nn.Linear's weight.

    python bench/gemm_ld_study.py --out ld.json [--samples 20]
    python bench/gemm_ld_study.py --ncu LABEL       # one case's lower-tc kernel, three launches (for ncu)

Why: in the GEMM suite, ragged 3000 x 5000 x 4000 ran at 70% of cuBLAS with B row-major and
91% with B as the weight, and 1000 x 904 x 512 at 85% and 99%: both have B rows of 10000 and
1808 bytes, 16 bytes past a 128-byte line, where the weight's rows (8000, 1024 bytes) are
64 or 0. Each case below changes one thing: the shape, the layout or only the padding of
B's rows (`ld`, the same numbers in a wider allocation).

Timing: CUDA events around each launch, lower-tc and cuBLAS interleaved, `--samples`
medians after warm-up; outputs compared (max |d - d_cuBLAS| / max |d_cuBLAS|). torch is
this benchmark's dependency only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
from dataclasses import asdict, dataclass

#: (label, M, N, K, B layout, B's leading dimension in elements or None for dense)
@dataclass(frozen=True)
class Case:
    label: str
    m: int
    n: int
    k: int
    b: str  # "row": K x N row-major; "weight": nn.Linear's N x K, passed transposed
    ld: int | None = None  # B's row stride (elements); None: dense

    def b_row_bytes(self) -> int:
        dense = self.n if self.b == "row" else self.k
        return 2 * (self.ld or dense)


#: lower-tc's kernels timed in each case: the default; `cluster = 1`, the default before it
#: paired CTAs for B rows off the L2 lines (layout/gemm_choice.py `prefer_multicast`); and
#: `cluster = 2`, pairs of CTAs sharing B's loads (B's TMA boxes multicast: half as many B
#: requests to L2), where the kernel allows it (16-bit B row-major).
VARIANTS = {"lower-tc": {}, "lower-tc cluster=1": {"cluster": 1}, "lower-tc cluster=2": {"cluster": 2}}

CASES = [
    Case("3000x5000x4000 row", 3000, 5000, 4000, "row"),
    Case("3000x5000x4000 weight", 3000, 5000, 4000, "weight"),
    Case("3000x5000x4000 row ld 5056", 3000, 5000, 4000, "row", 5056),
    Case("3000x5000x4000 row ld 5120", 3000, 5000, 4000, "row", 5120),
    Case("3000x5000x4000 row ld 5008", 3000, 5000, 4000, "row", 5008),
    Case("3000x5000x4000 row ld 5032", 3000, 5000, 4000, "row", 5032),
    Case("3000x4992x4000 row", 3000, 4992, 4000, "row"),
    Case("3000x5120x4000 row", 3000, 5120, 4000, "row"),
    Case("3000x5000x4000 weight ld 4064", 3000, 5000, 4000, "weight", 4064),
    Case("3000x5000x4000 weight ld 4008", 3000, 5000, 4000, "weight", 4008),
    Case("1000x904x512 row", 1000, 904, 512, "row"),
    Case("1000x904x512 row ld 960", 1000, 904, 512, "row", 960),
    Case("1000x904x512 weight", 1000, 904, 512, "weight"),
    Case("4096x4096x4096 row", 4096, 4096, 4096, "row"),
    Case("4096x4096x4096 row ld 4104", 4096, 4096, 4096, "row", 4104),
]


def tensors(torch, case: Case, seed: int):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(case.m, case.k, device="cuda", dtype=torch.bfloat16, generator=g)
    if case.b == "row":
        full = torch.randn(case.k, case.ld or case.n, device="cuda", dtype=torch.bfloat16, generator=g)
        b = full[:, : case.n]
    else:
        full = torch.randn(case.n, case.ld or case.k, device="cuda", dtype=torch.bfloat16, generator=g)
        b = full[:, : case.k].t()
    d = torch.full((case.m, case.n), float("nan"), device="cuda", dtype=torch.bfloat16)
    return a, b, d


def time_case(torch, lower_tc, case: Case, samples: int, seed: int) -> dict:
    a, b, d = tensors(torch, case, seed)
    ref = torch.empty_like(d)
    outs = {name: d if not options else torch.full_like(d, float("nan")) for name, options in VARIANTS.items()}
    runs = {name: (lambda o=options, x=outs[name]: lower_tc.matmul(a, b, x, **o)) for name, options in VARIANTS.items()}
    runs["cublas"] = lambda: torch.matmul(a, b, out=ref)
    skipped = {}
    for name, f in list(runs.items()):  # compile, warm up
        try:
            f()
        except lower_tc.CompileError as err:  # cluster = 2 with a B it cannot share
            skipped[name] = str(err).splitlines()[0]
            del runs[name], outs[name]
            continue
        for _ in range(4):
            f()
    torch.cuda.synchronize()
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(samples):
        for name, f in runs.items():
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            f()
            e.record()
            e.synchronize()
            times[name].append(s.elapsed_time(e))
    flops = 2 * case.m * case.n * case.k
    out: dict = {"case": asdict(case), "b_row_bytes": case.b_row_bytes(), "b_row_mod_128": case.b_row_bytes() % 128,
                 **{name: {"skipped": why} for name, why in skipped.items()}}
    for name, t in times.items():
        ms = statistics.median(t)
        out[name] = {"ms": ms, "tflops": flops / ms / 1e9}
        if name in outs:
            x = outs[name]
            out[name]["max_rel_err_vs_cublas"] = ((x.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
            out[name]["nan"] = bool(torch.isnan(x).any().item())
    for name in outs:
        out[name]["of_cublas"] = out["cublas"]["ms"] / out[name]["ms"]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--ncu", metavar="LABEL", help="launch one case's lower-tc kernel three times and exit")
    args = p.parse_args()
    import torch

    import lower_tc

    if args.ncu:
        case = next(c for c in CASES if c.label == args.ncu)
        a, b, d = tensors(torch, case, args.seed)
        for _ in range(3):
            lower_tc.matmul(a, b, d)
        torch.cuda.synchronize()
        return 0
    rows = []
    for case in CASES:
        r = time_case(torch, lower_tc, case, args.samples, args.seed)
        rows.append(r)
        ours = ", ".join(f"{name} {r[name]['tflops']:6.1f} ({r[name]['of_cublas']:.0%}, err {r[name]['max_rel_err_vs_cublas']:.0e}"
                         f"{' NaN' if r[name]['nan'] else ''})" if "skipped" not in r[name] else f"{name} not run"
                         for name in VARIANTS)
        print(f"{case.label:30} B rows {r['b_row_bytes']:6} B ({r['b_row_mod_128']:3} past 128): cuBLAS "
              f"{r['cublas']['tflops']:6.1f} TFLOP/s; {ours}", flush=True)
    if args.out:
        meta = {"device": torch.cuda.get_device_name(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "commit": os.environ.get("LOWER_TC_COMMIT", "unknown"), "command": "python bench/gemm_ld_study.py " + " ".join(sys.argv[1:]),
                "torch": torch.__version__}
        with open(args.out, "w") as f:
            json.dump({**meta, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
