"""Where does stream-K pay? The default lower-tc kernel beside stream-K kernels
(`stream_k = true`: persistent CTAs, one per SM, sharing the last waves' K steps across
tiles; layout/stream_k.py) and cuBLAS (torch.matmul) on the same tensors, in one process,
on the GEMM suite's shapes that wave quantisation holds back (few tiles, a short last wave)
and a few that it does not, bf16 with B as nn.Linear's weight or row-major.

    python bench/gemm_stream_k_study.py --out sk.json [--samples 20] [--layout weight,row]

Timing: CUDA events around each launch, the kernels interleaved, `--samples` medians after
warm-up; every output compared with cuBLAS's (max |d - d_cuBLAS| / max |d_cuBLAS|) and
checked for NaN (outputs start as NaN). torch is this benchmark's dependency only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys

#: (label, M, N, K)
SHAPES = [
    ("deepseek-v3 q_a_proj", 128, 1536, 7168),
    ("deepseek-v3 o_proj", 256, 7168, 16384),
    ("llama-2-13b gate_up", 256, 27648, 5120),
    ("llama-3-70b qkv", 512, 10240, 8192),
    ("llama-2-7b mlp up", 1024, 11008, 4096),
    ("llama-2-13b o_proj", 2048, 5120, 5120),
    ("deepseek-v3 expert down", 2048, 7168, 2048),
    ("square 1536", 1536, 1536, 1536),
    ("square 5120", 5120, 5120, 5120),
    ("long-k 256x1024", 256, 1024, 131072),
    ("long-k 512x512", 512, 512, 65536),
    ("ragged 127x11008", 127, 11008, 4096),
    ("ragged 3000x5000", 3000, 5000, 4000),
    ("square 4096", 4096, 4096, 4096),
    ("llama-3-8b mlp gate", 4096, 14336, 4096),
]

#: lower-tc's kernels: the default, and stream-K with the chooser's tile for it and with
#: fixed tiles.
VARIANTS = {
    "default": {},
    "sk": {"stream_k": 1},
    "sk 128x256": {"stream_k": 1, "config": (128, 256, 64, 4)},
    "sk 128x192": {"stream_k": 1, "config": (128, 192, 64, 4)},
    "sk 128x128": {"stream_k": 1, "config": (128, 128, 64, 5)},
}


def tensors(torch, m: int, n: int, k: int, layout: str, seed: int):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
    if layout == "row":
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
    else:
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16, generator=g).t()
    return a, b


def time_shape(torch, lower_tc, label: str, m: int, n: int, k: int, layout: str, samples: int, seed: int) -> dict:
    a, b = tensors(torch, m, n, k, layout, seed)
    ref = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16) for name in VARIANTS}
    runs = {name: (lambda o=options, x=outs[name]: lower_tc.matmul(a, b, x, **o)) for name, options in VARIANTS.items()}
    runs["cublas"] = lambda: torch.matmul(a, b, out=ref)
    skipped = {}
    for name, f in list(runs.items()):
        try:
            f()
        except lower_tc.CompileError as err:
            skipped[name] = str(err).splitlines()[0]
            del runs[name], outs[name]
            continue
        for _ in range(4):
            f()
    torch.cuda.synchronize()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(samples):
        for name, f in runs.items():
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            f()
            e.record()
            e.synchronize()
            times[name].append(s.elapsed_time(e))
    flops = 2 * m * n * k
    out: dict = {"label": label, "m": m, "n": n, "k": k, "layout": layout, **{name: {"skipped": why} for name, why in skipped.items()}}
    for name, t in times.items():
        ms = statistics.median(t)
        out[name] = {"ms": ms, "tflops": flops / ms / 1e9}
    for name, x in outs.items():
        out[name]["of_cublas"] = out["cublas"]["ms"] / out[name]["ms"]
        out[name]["max_rel_err_vs_cublas"] = ((x.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
        out[name]["nan"] = bool(torch.isnan(x).any().item())
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--layout", default="weight,row", help="B's layouts: weight (nn.Linear's N x K) and/or row (K x N)")
    p.add_argument("--match", default="", help="only shapes whose label contains this")
    args = p.parse_args()
    import torch

    import lower_tc

    rows = []
    for layout in args.layout.split(","):
        for label, m, n, k in SHAPES:
            if args.match not in label:
                continue
            r = time_shape(torch, lower_tc, label, m, n, k, layout, args.samples, args.seed)
            rows.append(r)
            ours = ", ".join(f"{name} {r[name]['tflops']:6.1f} ({r[name]['of_cublas']:.0%}{' NaN' if r[name]['nan'] else ''}"
                             f"{' BAD' if r[name]['max_rel_err_vs_cublas'] > 2e-2 else ''})" if "skipped" not in r[name] else f"{name} not run"
                             for name in VARIANTS)
            print(f"{label:26} {layout:6} {m}x{n}x{k}: cuBLAS {r['cublas']['tflops']:6.1f}; {ours}", flush=True)
    if args.out:
        meta = {"device": torch.cuda.get_device_name(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "commit": os.environ.get("LOWER_TC_COMMIT", "unknown"), "command": "python bench/gemm_stream_k_study.py " + " ".join(sys.argv[1:]),
                "torch": torch.__version__, "variants": {k: {o: list(v) if isinstance(v, tuple) else v for o, v in d.items()} for k, d in VARIANTS.items()}}
        with open(args.out, "w") as f:
            json.dump({**meta, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
