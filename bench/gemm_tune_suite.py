"""Every tuning candidate (layout/gemm_tuning.py `candidates`) on issue 22's suite, beside
cuBLAS on the same tensors in one process: the data the default chooser's rules
(layout/gemm.py `choose_config`, `default_persistent`) are read from.

    python bench/gemm_tune_suite.py --list --dtype bf16        # the cases and candidates (no GPU)
    python bench/gemm_tune_suite.py --compile --jobs 16 ...    # fill the kernel cache, in parallel
    python bench/gemm_tune_suite.py --out t.json --table t.md --dtype bf16 --layout linear

Filters as bench/gemm_suite.py's (`--shapes`, `--category`, `--dtype`, `--layout`). Each case
times cuBLAS and every candidate (`lower_tc.matmul(a, b, out=d, config=..., **options)`,
each with its own D), interleaved, rotating through copies of the arrays as the suite does
(bench/gemm_suite_gpu.py), `--samples` medians (default 7: this ranks candidates, the
suite's 20 samples are the figures to quote). fp8 times both cuBLAS modes ("cublas", its
default, which the table's shares are of; "cublas-fast", use_fast_accum=True). Each candidate's D is checked against cuBLAS's
(max |d - d_cuBLAS| / max |d_cuBLAS|, NaN flagged). The table gives, per case, the
default's and the best candidate's share of cuBLAS.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_suite as suite  # noqa: E402
from gemm_suite_shapes import Case, Shape  # noqa: E402

from lower_tc.layout.gemm_tuning import Candidate, candidates  # noqa: E402

D_TYPE = "bf16"


def case_candidates(case: Case, match: str | None = None, extra: tuple[str, ...] = (),
                    vary: tuple[str, ...] = ()) -> list[Candidate]:
    """The case's candidates: the default first, then those whose label `match` finds
    (a regular expression; None: every one), then the labels of `extra` (`--add`), then
    the default with each of `vary`'s options (`--vary`, `varied`), each once."""
    s = case.shape
    found = candidates(s.m, s.n, s.k, case.dtype, case.dtype, "f32", **b_layout(case.layout, case))
    chosen = found[:1] + [c for c in found[1:] if match is None or re.search(match, c.label())]
    for c in [*map(Candidate.parse, extra), *(varied(found[0], v) for v in vary)]:
        if c not in chosen:
            chosen.append(c)
    return chosen


def varied(default: Candidate, options: str) -> Candidate:
    """The default kernel with `options` ("split_k=2 reduce=global") set over its own: a
    case's own tile (a decoding GEMM's swapped N' follows M) with what a study varies. A
    split is not persistent."""
    given = Candidate.parse(f"{default.config.bm}x{default.config.bn}x{default.config.bk}/{default.config.stages} {options}")
    merged = dict(default.options) | dict(given.options)
    if merged.get("split_k", 1) > 1 and "persistent" in merged:
        merged["persistent"] = False
    return Candidate(default.config, tuple(merged.items()))


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="print the cases and their candidates and exit")
    what.add_argument("--compile", action="store_true", help="compile every candidate into the kernel cache and exit")
    what.add_argument("--from-json", nargs="+", metavar="FILE", help="merge earlier runs into --out/--table (no GPU)")
    what.add_argument("--score", nargs="+", metavar="FILE", help="how the default chooser's pick (this checkout's) ranks among "
                      "the candidates measured in these runs (no GPU)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for --compile")
    p.add_argument("--out", metavar="FILE")
    p.add_argument("--table", metavar="FILE")
    p.add_argument("--shapes", action="append", metavar="SUBSTRING")
    p.add_argument("--category", action="append", metavar="CAT")
    p.add_argument("--dtype", action="append", metavar="T")
    p.add_argument("--layout", action="append", metavar="L")
    p.add_argument("--match", metavar="REGEX", help="time only the candidates whose label this finds (and the default)")
    p.add_argument("--add", action="append", default=[], metavar="LABEL",
                   help="time this candidate too, e.g. '128x144x64/4 persistent=True' (repeatable)")
    p.add_argument("--vary", action="append", default=[], metavar="OPTIONS",
                   help="time the default's configuration with these options too, e.g. 'split_k=2 reduce=global' (repeatable)")
    p.add_argument("--samples", type=int, default=7)
    p.add_argument("--cupti", action="store_true", help="also time each contender's kernels with CUPTI (needs JAX): "
                                                        "their durations without the gaps between back-to-back launches")
    p.add_argument("--warmup-rounds", type=int, default=1)
    p.add_argument("--sample-ms", type=float, default=2.0)
    p.add_argument("--budget-s", type=float, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--commit", default=None)
    args = p.parse_args(argv)
    for label in args.add:  # malformed: a usage error, not a traceback later
        try:
            Candidate.parse(label)
        except ValueError as err:
            p.error(f"--add: {err}")
    for options in args.vary:
        try:
            Candidate.parse("64x64x64/4 " + options)
        except ValueError as err:
            p.error(f"--vary: {err}")
    return args


def plan(case: Case, cand: Candidate | None) -> Any:
    """The program lower_tc.matmul writes for this case's tensors with `cand` (None: the
    default kernel)."""
    from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul

    ops = case.operands()
    args = [MatrixArg(name, ops[name][0], ops[name][1], case.dtype if name != "out" else D_TYPE) for name in ("a", "b", "out")]
    c = cand.config if cand is not None else None
    config = (c.bm, c.bn, c.bk, c.stages) if c is not None else None
    return plan_matmul(args[0], args[1], args[2], None, target="sm_90a", config=config,
                       options=cand.option_dict if cand is not None else None)


def _compile_one(job: tuple[Case, Candidate]) -> str | None:
    from lower_tc.lowering.compile import compile_artifact

    case, cand = job
    try:
        compile_artifact(plan(case, cand).source, "<lower_tc.matmul>")
    except Exception as err:  # noqa: BLE001 - reported, the run skips it
        return f"{case.shape.name} {cand.label()}: {str(err).splitlines()[0] if str(err) else type(err).__name__}"
    return None


def compile_all(cases: list[Case], jobs: int, match: str | None = None, extra: tuple[str, ...] = (),
                vary: tuple[str, ...] = ()) -> int:
    work = [(c, cand) for c in cases for cand in case_candidates(c, match, extra, vary)]
    t0 = time.monotonic()
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        failed = [f for f in pool.map(_compile_one, work, chunksize=4) if f]
    print(f"compiled {len(work)} kernels in {time.monotonic() - t0:.0f} s with {jobs} processes; {len(failed)} failed")
    for f in failed:
        print("  " + f)
    return 1 if failed else 0


def run_case(torch: Any, gpu: Any, case: Case, seed: int, args: argparse.Namespace) -> dict[str, Any]:
    import gemm_suite_gpu as g
    import lower_tc

    x = g.arrays(torch, case, seed, case.copies)
    cands = case_candidates(case, args.match, tuple(args.add), tuple(args.vary))
    contenders = [*g.cublas_contenders(torch, case, x)]  # fp8: cuBLAS's default mode, then its fast-accum one
    for cand in cands:
        d = [torch.full_like(t, float("nan")) for t in x.d]
        turns = g.Turns(x.copies)

        def launch(cand: Candidate = cand, d: list[Any] = d, turns: g.Turns = turns) -> None:
            j = turns.take()
            lower_tc.matmul(x.a[j], x.b[j], out=d[j], config=cand.config, **cand.option_dict)

        contenders.append(g.Contender(cand.label(), launch=launch, output=lambda d=d: d[0], begin=turns.reset))
    n = g.measure(gpu, contenders, args.samples, args.warmup_rounds, args.sample_ms)
    checks = g.check(torch, contenders)
    cupti = g.cupti_ms(gpu, contenders) if args.cupti else {}  # the kernels alone, without the gaps between launches
    results = {}
    for c in contenders:
        r: dict[str, Any] = {"skipped": c.skipped}
        if not c.skipped and c.samples:
            r.update(ms=statistics.median(c.samples), late=c.late)
        r.update(checks.get(c.name, {}))
        if c.name in cupti:
            r["cupti"] = cupti[c.name]
        results[c.name] = r
    record = {"shape": case.shape.name, "category": case.shape.category, "m": case.shape.m, "n": case.shape.n,
              "k": case.shape.k, "dtype": case.dtype, "layout": case.layout, "copies": case.copies,
              "launches_per_sample": n, "default": cands[0].label(), "results": results}
    del contenders, x
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    return record


def summarize(record: dict[str, Any]) -> dict[str, Any]:
    """The default's and the best candidate's share of cuBLAS, and the best's name."""
    res = record["results"]
    ref = res.get("cublas", {}).get("ms")
    timed = {k: v["ms"] for k, v in res.items() if not k.startswith("cublas") and v.get("ms") and not v.get("nan")}
    if not ref or not timed:
        return {"default_of_cublas": None, "best": None, "best_of_cublas": None}
    best = min(timed, key=timed.__getitem__)
    default = timed.get(record["default"])
    return {"default_of_cublas": ref / default if default else None, "best": best, "best_of_cublas": ref / timed[best]}


def wrong_above(dtype: str) -> float:
    """The largest max |d - d_cuBLAS| / max |d_cuBLAS| a right kernel shows: 2e-2 for 16-bit
    inputs; 5e-2 for fp8, whose fast accumulation (~14 bits in the tensor core) differs from
    cuBLAS's promoting default by 1.6e-2 at K = 28672 for lower-tc and cuBLAS's own
    fast-accum mode alike (docs/results/gemm_suite_h200_8d18b3b.md), 2.1e-2 in this
    script's run on the same shape. The GEMM sweep checks every kernel against float64."""
    return 5e-2 if dtype in ("e4m3", "e5m2") else 2e-2


def table(records: list[dict[str, Any]]) -> str:
    lines = ["| dtype | B | shape | default | of cuBLAS | best | of cuBLAS | best / default | wrong |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        s = summarize(r)
        wrong = [k for k, v in r["results"].items() if v.get("nan") or (v.get("max_rel_err") or 0) > wrong_above(r["dtype"])]
        pct = lambda v: f"{100 * v:.0f}%" if v else ""  # noqa: E731
        gain = s["best_of_cublas"] / s["default_of_cublas"] if s["best_of_cublas"] and s["default_of_cublas"] else None
        lines.append(f"| {r['dtype']} | {r['layout']} | {r['shape']} | {r['default']} | {pct(s['default_of_cublas'])} | "
                     f"{s['best'] or ''} | {pct(s['best_of_cublas'])} | {f'{gain:.2f}x' if gain else ''} | {', '.join(wrong)} |")
    return "\n".join(lines) + "\n"


def b_layout(layout: str, case: Case | None = None) -> dict[str, Any]:
    """What the chooser knows of B's layout (layout/gemm_tuning.py `candidates`): MN-major
    where row-major, and then its rows' bytes (the case's padded leading dimension)."""
    if layout != "rowmajor":
        return {"b_mn_major": False}
    row_bytes = None
    if case is not None:
        (_, strides, _) = case.operands()["b"]
        row_bytes = strides[0] * (1 if case.dtype == "e4m3" else 2)
    return {"b_mn_major": True, "b_row_bytes": row_bytes}


def chooser_label(record: dict[str, Any]) -> str:
    """The label of the candidate this checkout's default chooser picks for the record's
    case (its config, split-K, persistent or not: the tuner's first candidate), as the
    study names candidates."""
    m, n, k, t = record["m"], record["n"], record["k"], record["dtype"]
    case = Case(Shape(record["shape"], record.get("category", ""), m, n, k), t, record["layout"])
    return candidates(m, n, k, t, t, "f32", d=D_TYPE, **b_layout(record["layout"], case))[0].label()


def _explicit(label: str) -> str:
    return label if " " in label else label + " persistent=True"


def score(records: list[dict[str, Any]]) -> str:
    """Per case: the chooser's pick's time over the best candidate's (1.00: it picked the
    best), and the geometric mean."""
    lines = ["| dtype | B | shape | chooser's pick | of cuBLAS | best measured | of cuBLAS | pick / best |",
             "|---|---|---|---|---|---|---|---|"]
    ratios = []
    for r in records:
        res, ref = r["results"], r["results"].get("cublas", {}).get("ms")
        # a label without options is the persistent kernel (runs before 2026-11-25's chooser)
        timed = {_explicit(k): v["ms"] for k, v in res.items() if not k.startswith("cublas") and v.get("ms") and not v.get("nan")}
        pick = chooser_label(r)
        t_pick = timed.get(pick)
        if not timed or t_pick is None or not ref:
            lines.append(f"| {r['dtype']} | {r['layout']} | {r['shape']} | {pick} | | | | not measured |")
            continue
        best = min(timed, key=timed.__getitem__)
        ratios.append(timed[best] / t_pick)
        lines.append(f"| {r['dtype']} | {r['layout']} | {r['shape']} | {pick} | {ref / t_pick:.0%} | {best} | "
                     f"{ref / timed[best]:.0%} | {timed[best] / t_pick:.2f} |")
    if ratios:
        geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        lines.append(f"\nThe chooser's pick runs at {geo:.3f} of the best candidate's speed (geometric mean over "
                     f"{len(ratios)} cases), at least {min(ratios):.2f}.")
    return "\n".join(lines) + "\n"


def write(args: argparse.Namespace, meta: dict[str, Any], records: list[dict[str, Any]]) -> None:
    if args.out:
        Path(args.out).write_text(json.dumps({**meta, "results": records}, indent=1))
    if args.table:
        head = f"# Tuning candidates on the GEMM suite\n\n- {meta.get('device')}, {meta.get('date')}, commit {meta.get('commit')}: `{meta.get('command')}`\n\n"
        Path(args.table).write_text(head + table(records))


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.score:
        print(score([r for f in args.score for r in json.loads(Path(f).read_text())["results"]]), end="")
        return 0
    if args.from_json:
        runs = [json.loads(Path(f).read_text()) for f in args.from_json]
        write(args, {k: runs[0].get(k) for k in ("device", "date", "commit", "command")}, [r for run in runs for r in run["results"]])
        return 0
    chosen = suite.chosen_cases(args)
    if args.list:
        for c in chosen:
            cands = case_candidates(c, args.match, tuple(args.add), tuple(args.vary))
            print(f"{c.dtype} {c.layout} {c.shape.name}: {len(cands)} candidates: " + "; ".join(x.label() for x in cands))
        return 0
    if args.compile:
        return compile_all(chosen, args.jobs, args.match, tuple(args.add), tuple(args.vary))
    import torch

    import gemm_suite_gpu as g

    gpu = g.Gpu(torch)
    meta = suite.run_meta(args, argv, torch, gpu, None)
    meta["suite"] = "bench/gemm_tune_suite.py"
    meta["command"] = "python bench/gemm_tune_suite.py " + " ".join(argv)
    records: list[dict[str, Any]] = []
    start = time.monotonic()
    for i, case in enumerate(chosen):
        if args.budget_s is not None and time.monotonic() - start > args.budget_s:
            print(f"budget spent: {len(chosen) - i} cases not run")
            break
        t0 = time.monotonic()
        record = run_case(torch, gpu, case, args.seed * 1000 + i, args)
        records.append(record)
        s = summarize(record)
        print(f"[{i + 1}/{len(chosen)}] {case.dtype} {case.layout} {case.shape.name}: default {s['default_of_cublas'] or 0:.0%}, "
              f"best {s['best']} {s['best_of_cublas'] or 0:.0%} ({time.monotonic() - t0:.1f} s)", flush=True)
        write(args, meta, records)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
