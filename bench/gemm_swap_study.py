"""The swap-AB study (issue 22): D = x W^T with a small M computed as D^T = W x^T, the
weight as wgmma's A (64 or 128 rows of N a CTA), x^T as its B (N' = M rounded up to 8),
timed beside cuBLAS and lower-tc's default kernel on the suite's cases (bench/
gemm_suite_shapes.py), the same arrays, interleaved (bench/gemm_suite_gpu.py), the median of
`--samples`. Each swapped candidate is `lower_tc.matmul(W, x.t(), out=dT)` with an explicit
configuration (and split-K), into an N x M' buffer of its own: the swapped kernel as the
chooser now builds it for `lower_tc.matmul(x, W.t())` (passes/expand_matmul/swap_ab.py),
less the stores of D^T down D's rows (at most 64 x N elements). Every output is checked
against cuBLAS's (max |d - d_cuBLAS| / max |d_cuBLAS|).

    python bench/gemm_swap_study.py --compile                      # compile the candidates (no GPU)
    python bench/gemm_swap_study.py --out swap.json                # decoding shapes, bf16 and e4m3
    python bench/gemm_swap_study.py --cat batch,ragged --max-m 128 --splits 2 --out swap128.json
    python bench/gemm_swap_study.py --shapes 'mlp down' --candidate default --candidate 'default cluster=2'

`--candidate` (repeated) replaces the candidates: `default` is the chooser's swapped tile
for the case (`swap_config` with N and K), `BMxBNxBK/S` a tile of its own; then `bm=`,
`bk=`, `stages=` change the tile (`most=N`: as many stages as fit, at most N) and any other `key=value` is a tc.matmul option (`cluster=2`,
`split_k=3`, `reduce=global`).

Results: docs/results/gemm_swap_study_h100.json (decoding), gemm_swap_study_m128_h100.json
(M = 77 to 128); docs/performance.md, "Swap-AB".
"""
from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_suite_shapes as shapes  # noqa: E402

from lower_tc.layout.targets import Arch  # noqa: E402
from lower_tc.layout.gemm_choice import deepest, swap_config  # noqa: E402
from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul  # noqa: E402


def swapped_candidates(m: int, dtype: str, splits: tuple[int, ...] = (2, 4)) -> list[tuple[tuple[int, int, int, int], dict[str, Any]]]:
    """(configuration, options) of each swapped kernel timed: the chooser's swapped tile
    (layout/gemm_choice.py `swap_config`) with 64 and 128 rows of N, unsplit and split each
    of `splits` ways (over a cluster, and through global memory)."""
    out = []
    for bm in (64, 128):
        cfg = swap_config(m, 0, dtype, dtype, "f32", bm=bm)  # N matters only to the rows, given
        for split, reduce in [(1, None)] + [(s, r) for r in ("cluster", "global") for s in splits]:
            opts = {} if split == 1 else {"split_k": split, "reduce": reduce}
            out.append(((cfg.bm, cfg.bn, cfg.bk, cfg.stages), opts))
    return out


def given_candidate(spec: str, case: Any) -> tuple[tuple[int, int, int, int], dict[str, Any]]:
    """A `--candidate` for this case: (configuration, options); see the module's text."""
    head, *rest = spec.split()
    s = case.shape
    if head == "default":
        c = swap_config(s.m, s.n, case.dtype, case.dtype, "f32", k=s.k)
        cfg = [c.bm, c.bn, c.bk, c.stages]
    else:
        tile, stages = head.split("/")
        cfg = [*(int(x) for x in tile.split("x")), int(stages)]
    opts: dict[str, Any] = {}
    most = 0
    for item in rest:
        key, value = item.split("=")
        if key in ("bm", "bk", "stages"):
            cfg[{"bm": 0, "bk": 2, "stages": 3}[key]] = int(value)
        elif key == "most":
            most = int(value)
        else:
            opts[key] = int(value) if value.isdigit() else value
    if most:
        deep = deepest(cfg[0], cfg[1], cfg[2], case.dtype, case.dtype, "f32", Arch.SM90A, most=most)
        cfg[3] = deep.stages if deep else 1
    return (cfg[0], cfg[1], cfg[2], cfg[3]), opts


def label(cfg: tuple[int, int, int, int], opts: dict[str, Any]) -> str:
    s = f"swap {cfg[0]}x{cfg[1]}x{cfg[2]}/{cfg[3]}"
    if opts:
        s += " " + " ".join(f"{k}={v}" for k, v in opts.items())
    return s


def swapped_plan(case: Any, cfg: tuple[int, int, int, int], opts: dict[str, Any]) -> Any:
    """The program lower_tc.matmul writes for the swapped candidate on this case's arrays."""
    s = case.shape
    e = shapes.DTYPES[case.dtype]
    ldk = shapes.padded_ld(s.k, e)
    mp = max(8, -(-s.m // 8) * 8)
    a = MatrixArg("a", (s.n, s.k), (ldk, 1), case.dtype)          # W
    b = MatrixArg("b", (s.k, s.m), (1, ldk), case.dtype)          # x^T
    d = MatrixArg("out", (s.n, s.m), (mp, 1), "bf16")             # D^T, rows padded to 8
    return plan_matmul(a, b, d, None, target="sm_90a", config=cfg, options=opts)


def study_cases(dtypes: list[str], cats: tuple[str, ...] = ("decode",)) -> list[Any]:
    """The suite's cases of these categories, B as nn.Linear's weight."""
    return [c for c in shapes.cases(list(shapes.SUITE), dtypes, ["linear"]) if c.shape.category in cats]


def _compile(job: tuple[Any, tuple[int, int, int, int], dict[str, Any]]) -> str | None:
    from lower_tc.lowering.compile import compile_artifact
    case, cfg, opts = job
    try:
        compile_artifact(swapped_plan(case, cfg, opts).source, "<probe>")
        return None
    except Exception as err:  # noqa: BLE001
        return f"{case.shape.name} {case.dtype} {label(cfg, opts)}: {str(err).splitlines()[0] if str(err) else type(err).__name__}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--compile", action="store_true")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--dtype", action="append")
    p.add_argument("--shapes", default="")
    p.add_argument("--out")
    p.add_argument("--samples", type=int, default=9)
    p.add_argument("--cat", default="decode", help="suite categories, comma-separated")
    p.add_argument("--max-m", type=int, default=10**9, help="only cases of M at most this")
    p.add_argument("--splits", default="2,4", help="split-K ways timed besides unsplit, comma-separated")
    p.add_argument("--candidate", action="append", help="a candidate instead of the study's own (repeat; see above)")
    p.add_argument("--ms", default="", help="run each chosen shape's N and K at these M instead (comma-separated)")
    p.add_argument("--sizes", default="", help="run these MxNxK instead of the suite's shapes (comma-separated)")
    args = p.parse_args()
    splits = tuple(int(x) for x in args.splits.split(","))
    cases = [c for c in study_cases(args.dtype or ["bf16", "e4m3"], tuple(args.cat.split(","))) if args.shapes in c.shape.name and c.shape.m <= args.max_m]
    if args.sizes:
        sizes = [tuple(int(x) for x in t.split("x")) for t in args.sizes.split(",")]
        cases = [shapes.Case(shapes.Shape(f"{m}x{n}x{k}", "decode", m, n, k), d, "linear")
                 for d in (args.dtype or ["bf16", "e4m3"]) for m, n, k in sizes]
    if args.ms:  # the same weights at other M: "llama-2-13b mlp down, M=32" -> "..., M=8" and so on
        cases = [dataclasses.replace(c, shape=dataclasses.replace(c.shape, m=m, name=f"{c.shape.name.rsplit(', M=', 1)[0]}, M={m}"))
                 for c in cases for m in (int(x) for x in args.ms.split(","))]

    def candidates(case: Any) -> list[tuple[tuple[int, int, int, int], dict[str, Any]]]:
        if args.candidate:
            return [given_candidate(spec, case) for spec in args.candidate]
        return swapped_candidates(case.shape.m, case.dtype, splits)

    jobs = [(c, cfg, o) for c in cases for cfg, o in candidates(c)]
    t0 = time.monotonic()
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        failed = [f for f in pool.map(_compile, jobs) if f]
    print(f"compiled {len(jobs)} in {time.monotonic() - t0:.0f} s, {len(failed)} failed", flush=True)
    for f in failed[:40]:
        print("  ", f)
    if args.compile:
        return 0
    import gemm_suite_gpu as g
    import torch

    import lower_tc

    gpu = g.Gpu(torch)
    records = []
    for case in cases:
        s = case.shape
        x = g.arrays(torch, case, 1, case.copies)
        contenders = [*g.cublas_contenders(torch, case, x)][:1] + [g.lower_tc_contender(x)]
        mp = max(8, -(-s.m // 8) * 8)
        for cfg, opts in candidates(case):
            dT = [torch.full((s.n, mp), float("nan"), device="cuda", dtype=torch.bfloat16) for _ in range(x.copies)]
            turns = g.Turns(x.copies)

            def launch(cfg=cfg, opts=opts, dT=dT, turns=turns, x=x, s=s):
                j = turns.take()
                lower_tc.matmul(x.b[j].t(), x.a[j].t(), out=dT[j][:, :s.m], config=cfg, **opts)

            contenders.append(g.Contender(label(cfg, opts), launch=launch, output=lambda dT=dT: dT[0][:, :s.m].t(), begin=turns.reset))
        g.measure(gpu, contenders, args.samples, 2, 2.0)
        checks = g.check(torch, contenders)
        res = {}
        for c in contenders:
            r = {"skipped": c.skipped}
            if c.samples:
                r["ms"] = statistics.median(c.samples)
            r.update(checks.get(c.name, {}))
            res[c.name] = r
        cub = res[contenders[0].name].get("ms")
        rec = {"shape": s.name, "dtype": case.dtype, "m": s.m, "n": s.n, "k": s.k, "min_bytes": case.min_bytes, "results": res}
        records.append(rec)
        print(f"{s.name:34} {case.dtype}", flush=True)
        for name, r in sorted(res.items(), key=lambda kv: kv[1].get("ms", 1e9)):
            ms = r.get("ms")
            if ms:
                print(f"   {name:40} {ms * 1e3:8.2f} us  {cub / ms:5.3f} of cuBLAS  {case.min_bytes / ms / 1e6:6.0f} GB/s  "
                      f"err={r.get('max_rel_err')}", flush=True)
            else:
                print(f"   {name:40} skipped {r.get('skipped')}")
        del contenders, x
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    if args.out:
        meta = {"device": torch.cuda.get_device_name(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "commit": os.environ.get("LOWER_TC_COMMIT", "unknown"), "command": "python bench/gemm_swap_study.py " + " ".join(sys.argv[1:])}
        with open(args.out, "w") as f:
            json.dump({**meta, "results": records}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
