"""Issue 22's GEMM suite: lower-tc's default GEMM beside cuBLAS and JAX Mosaic GPU, on the
same tensors in one process, over 54 shapes (bench/gemm_suite_shapes.py), bf16 and e4m3, B
as nn.Linear's weight and row-major.

    python bench/gemm_suite.py --list                       # the suite (no GPU, no torch)
    python bench/gemm_suite.py --dry-run                    # compile every lower-tc kernel (no GPU)
    python bench/gemm_suite.py --out r.json --table r.md    # on the GPU: everything
    python bench/gemm_suite.py --dtype bf16 --layout rowmajor --category square --out ...
    python bench/gemm_suite.py --from-json a.json b.json --table all.md   # merge runs' tables

Filters, so that the run fits in pieces: `--shapes SUBSTRING` (repeatable; names contain
commas), `--category` (decode, batch, prefill, square, long-k, ragged), `--dtype` (bf16,
e4m3), `--layout` (linear, rowmajor); `--quick` takes 5 samples instead of 20. `--resume`
keeps the cases already in `--out` and skips them; `--budget-s` starts no case after that
many seconds (what is done is written after every case). `--cupti` also times every
contender's kernels with CUPTI (through JAX), as a cross-check of the events.

What is measured and how (contenders, timing, checks): bench/gemm_suite_gpu.py. What is
reported (TFLOP/s, ratios, GB/s and the share of the device's HBM peak (H100 3.35, H200 4.8 TB/s) where M <= 64, the
geometric means and the shapes below 95% of cuBLAS): bench/gemm_suite_report.py. The fp8
error relative to sum |a||b| of each fp8 kernel is measured once on 2048 x 3072 x 4096
whenever e4m3 is among the dtypes (`--no-fp8-error` leaves it out).

Writes `--out` (JSON: device, driver, date UTC, commit (`--commit`, else $LOWER_TC_COMMIT,
else git), the command, versions, the method, and a record per case) and `--table`
(Markdown: a table per dtype and layout with its summary). Progress goes to stdout.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_suite_report as report  # noqa: E402
from gemm_suite_shapes import NOT_RUN, SUITE, Case, cases, select  # noqa: E402

#: What a rough time estimate (`--list`) assumes: bf16 and fp8 TFLOP/s, HBM bytes/s, each
#: contender's host time per launch (s), seconds per case besides the samples (data,
#: compiling, warm-up, checks) and Mosaic's compile per case where it runs.
ESTIMATE_RATE = {"bf16": 600e12, "e4m3": 1100e12}
ESTIMATE_HBM = 2.5e12
ESTIMATE_HOST = {"lower-tc": 20e-6, "cublas": 10e-6, "cublas-fast": 10e-6, "mosaic": 40e-6}
ESTIMATE_FIXED_S = 2.5
ESTIMATE_MOSAIC_S = 3.0


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="print the suite (and the cases the filters keep) and exit")
    what.add_argument("--dry-run", action="store_true", help="compile every lower-tc kernel of the cases (no GPU) and exit")
    what.add_argument("--from-json", nargs="+", metavar="FILE", help="merge the JSON of earlier runs into --out/--table (no GPU)")
    p.add_argument("--out", metavar="FILE", help="JSON record")
    p.add_argument("--table", metavar="FILE", help="Markdown tables")
    p.add_argument("--shapes", action="append", metavar="SUBSTRING", help="shapes whose name contains it (repeatable)")
    p.add_argument("--category", action="append", metavar="CAT", help="decode, batch, prefill, square, long-k, ragged")
    p.add_argument("--dtype", action="append", metavar="T", help="bf16, e4m3 (repeatable or comma-separated)")
    p.add_argument("--layout", action="append", metavar="L", help="linear, rowmajor (repeatable or comma-separated)")
    p.add_argument("--quick", action="store_true", help="5 samples, 1 warm-up round: a quick look, not a result")
    p.add_argument("--samples", type=int, default=None, help="samples per contender (default 20)")
    p.add_argument("--warmup-rounds", type=int, default=None, help="discarded rounds after the warm-up (default 2)")
    p.add_argument("--sample-ms", type=float, default=2.0, help="the least length of one sample, ms (default 2)")
    p.add_argument("--no-mosaic", action="store_true", help="leave JAX Mosaic GPU out")
    p.add_argument("--cupti", action="store_true", help="also time each contender's kernels with CUPTI (needs JAX)")
    p.add_argument("--no-fp8-error", action="store_true", help="leave out the fp8 error measurement")
    p.add_argument("--resume", action="store_true", help="keep the cases already in --out and skip them")
    p.add_argument("--budget-s", type=float, default=None, help="start no case after this many seconds")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--commit", default=None, help="the commit to record (default $LOWER_TC_COMMIT, else git)")
    args = p.parse_args(argv)
    args.samples = args.samples if args.samples is not None else (5 if args.quick else 20)
    args.warmup_rounds = args.warmup_rounds if args.warmup_rounds is not None else (1 if args.quick else 2)
    if args.samples < 1 or args.warmup_rounds < 0 or args.sample_ms <= 0:
        p.error("--samples must be >= 1, --warmup-rounds >= 0, --sample-ms > 0")
    return args


def _split(items: list[str] | None) -> list[str] | None:
    return [x.strip() for item in items for x in item.split(",") if x.strip()] if items else None


def chosen_cases(args: argparse.Namespace) -> list[Case]:
    return cases(select(SUITE, args.shapes, args.category), _split(args.dtype), _split(args.layout))


# --- rough time estimate ------------------------------------------------------------------

def estimate_s(case: Case, samples: int = 20, warmup_rounds: int = 2, sample_ms: float = 2.0) -> float:
    """A rough guess of one case's seconds on an H100 (for chunking runs into 10-minute
    calls): fixed costs, plus each contender's rounds of samples, each sample n launches of
    at least `sample_ms` on the GPU behind a head start of 1.5 x their host time."""
    s = case.shape
    launch = max(s.flops / ESTIMATE_RATE[case.dtype], case.min_bytes / ESTIMATE_HBM)
    n = max(1, min(500, math.ceil(sample_ms * 1e-3 / launch)))
    who = ["lower-tc", "cublas"] + (["cublas-fast"] if case.dtype == "e4m3" else []) + \
        (["mosaic"] if case.mosaic_skip is None else [])
    per_round = sum(n * launch + 1.5 * n * ESTIMATE_HOST[c] + 1e-3 for c in who)
    return ESTIMATE_FIXED_S + (ESTIMATE_MOSAIC_S if case.mosaic_skip is None else 0.0) + \
        (samples + warmup_rounds + 2) * per_round


# --- --list -------------------------------------------------------------------------------

def list_suite(args: argparse.Namespace) -> int:
    chosen = chosen_cases(args)
    shapes = {c.shape.name for c in chosen}
    print(f"{'#':>3}  {'category':<8} {'name':<34} {'M':>6} {'N':>6} {'K':>7} {'GFLOP':>9}  notes")
    for i, s in enumerate(SUITE, 1):
        if s.name not in shapes:
            continue
        here = [c for c in chosen if c.shape is s]
        notes = []
        if s.memory_bound:
            notes.append("memory-bound")
        if any(c.padded for c in here):
            notes.append("padded ld")
        if any(c.mosaic_skip is None for c in here):
            notes.append("Mosaic")
        notes.append(" ".join(f"{c.dtype}/{c.layout}" for c in here))
        print(f"{i:>3}  {s.category:<8} {s.name:<34} {s.m:>6} {s.n:>6} {s.k:>7} {s.flops / 1e9:>9.1f}  {', '.join(notes)}")
    print(f"{len(shapes)} shapes of {len(SUITE)}, {len(chosen)} cases", flush=True)
    for (dtype, layout), why in NOT_RUN.items():
        print(f"not run: {dtype} with B {layout}: {why}")
    total = sum(estimate_s(c, args.samples, args.warmup_rounds, args.sample_ms) for c in chosen)
    print(f"rough time on an H100: {total / 60:.1f} min (plus ~1 min of start-up; a guess, not a measurement)")
    return 0


# --- --dry-run ----------------------------------------------------------------------------

def lower_tc_plan(case: Case) -> Any:
    """The program `lower_tc.matmul(a, b, out=d)` writes for this case's tensors (their
    shapes, strides and dtypes: Case.operands), through the API's own planner."""
    from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul

    ops = case.operands()
    args = [MatrixArg(name, ops[name][0], ops[name][1], case.dtype if name != "out" else "bf16") for name in ("a", "b", "out")]
    return plan_matmul(args[0], args[1], args[2], None, target="sm_90a")


def lower_tc_config(case: Case) -> tuple[str, str]:
    """(the chosen tile configuration, the kernel's name), compiled as lower_tc.matmul
    compiles it (lowering/compile.compile_artifact: a disk-cache hit after the call did)."""
    from lower_tc.lowering.compile import compile_artifact

    plan = lower_tc_plan(case)
    artifact = compile_artifact(plan.source, "<lower_tc.matmul>")
    gemm = artifact.infos[0].gemm
    split = f", split_k {gemm.split_k}" if gemm.split_k > 1 else ""
    split += " (global" + (f", after {gemm.unsplit} whole tiles)" if gemm.unsplit else ")") if gemm.reduce == "global" else ""
    split += ", swapped (D^T = B^T A^T)" if gemm.d_transposed else ""
    # a cluster of 2 sharing B (a cluster's split-K has one of S CTAs summing a tile instead)
    if artifact.infos[0].cluster_size == 2 and (gemm.split_k == 1 or gemm.reduce == "global"):
        split += ", B shared by a cluster of 2"
    return str(gemm.config) + split, plan.kernel


def dry_run(args: argparse.Namespace) -> int:
    """Plans and compiles every case's lower-tc kernel without a GPU: PTX and, where an
    assembler is present, the cubin (the disk cache then holds them for a later run on this
    machine). Exit status 1 if any was refused."""
    try:
        from lower_tc.lowering.backend.ptxas import ToolUnavailableError
        from lower_tc.lowering.compile import compile_source
    except Exception as err:  # noqa: BLE001
        print(f"dry run skipped: lower-tc's compiler is not importable ({type(err).__name__}: {err})")
        return 0
    chosen = chosen_cases(args)
    failed = 0
    ptx_only = False
    seen: dict[str, str] = {}
    for i, case in enumerate(chosen, 1):
        t0 = time.perf_counter()
        label = f"[{i}/{len(chosen)}] {case.dtype} {case.layout} {case.shape.name}"
        try:
            plan = lower_tc_plan(case)
            if plan.source in seen:
                print(f"{label}: the same program as {seen[plan.source]}", flush=True)
                continue
            seen[plan.source] = case.shape.name
            if ptx_only:
                kernels = compile_source(plan.source, "<lower_tc.matmul>")
                config = str(kernels[0].info.gemm.config)
            else:
                try:
                    config, _ = lower_tc_config(case)
                except ToolUnavailableError as err:
                    print(f"no assembler ({err}): compiling to PTX only", flush=True)
                    ptx_only = True
                    kernels = compile_source(plan.source, "<lower_tc.matmul>")
                    config = str(kernels[0].info.gemm.config)
        except Exception as err:  # noqa: BLE001 - a refusal, reported and counted
            failed += 1
            print(f"{label}: FAILED {type(err).__name__}: {str(err).strip().splitlines()[0] if str(err).strip() else ''}", flush=True)
            continue
        print(f"{label}: {config} ({time.perf_counter() - t0:.2f} s{', PTX only' if ptx_only else ''})", flush=True)
    print(f"dry run: {len(chosen)} cases, {len(seen)} programs, {failed} failed", flush=True)
    return 1 if failed else 0


# --- the run on the GPU -------------------------------------------------------------------

def _commit(given: str | None) -> str:
    if given:
        return given
    if os.environ.get("LOWER_TC_COMMIT"):
        return os.environ["LOWER_TC_COMMIT"]
    try:  # the device gets a copy of the tree without .git: pass --commit there
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=os.path.dirname(os.path.abspath(__file__)), timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _driver() -> str:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip().splitlines()[0] if out.stdout.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_meta(args: argparse.Namespace, argv: list[str], torch: Any, gpu: Any, mosaic: Any) -> dict[str, Any]:
    from gemm_suite_gpu import MOSAIC_CONFIG

    try:
        import lower_tc

        lower_tc_version = lower_tc.__version__
    except Exception:  # noqa: BLE001
        lower_tc_version = None
    return {
        "suite": "bench/gemm_suite.py",
        "device": torch.cuda.get_device_name(),
        "driver": _driver(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _commit(args.commit),
        "command": "python bench/gemm_suite.py " + shlex.join(argv),
        "versions": {"torch": torch.__version__, "cuda": torch.version.cuda, "jax": getattr(mosaic, "version", None),
                     "lower_tc": lower_tc_version, "python": sys.version.split()[0]},
        "method": {"samples": args.samples, "warmup_rounds": args.warmup_rounds, "sample_ms": args.sample_ms,
                   "data": "standard normal (fp8: rounded to e4m3), fresh per case", "seed": args.seed,
                   "spin_cycles_per_ms": round(gpu.cycles_per_ms), "timing": "CUDA events on one stream, host kept ahead "
                   "by a spin kernel (bench/gemm_suite_gpu.py)"},
        "mosaic": {"config": MOSAIC_CONFIG, "not_run": getattr(mosaic, "why", None) if mosaic is not None else "--no-mosaic"},
    }


def run_case(torch: Any, gpu: Any, mosaic: Any, case: Case, seed: int, args: argparse.Namespace) -> dict[str, Any]:
    """One case: its tensors, its contenders timed side by side, their outputs checked."""
    import gemm_suite_gpu as g

    x = g.arrays(torch, case, seed, case.copies)
    contenders = [g.lower_tc_contender(x), *g.cublas_contenders(torch, case, x)]
    if case.dtype == "e4m3":  # fp8's promoted accumulation, against cuBLAS's default mode
        contenders.insert(1, g.lower_tc_contender(x, promoted=True))
    if case.dtype == "bf16" and case.layout == "rowmajor":
        contenders.append(g.mosaic_contender(torch, mosaic, case, x) if mosaic is not None
                          else g.Contender("mosaic", skipped="--no-mosaic"))
    n = g.measure(gpu, contenders, args.samples, args.warmup_rounds, args.sample_ms)
    checks = g.check(torch, contenders)
    cupti = g.cupti_ms(gpu, contenders) if args.cupti else {}
    results: dict[str, Any] = {}
    for c in contenders:
        r: dict[str, Any] = {"skipped": c.skipped}
        if not c.skipped and c.samples:
            r.update(ms=statistics.median(c.samples), min_ms=min(c.samples), max_ms=max(c.samples),
                     samples_ms=[round(v, 6) for v in c.samples], late=c.late)
        elif not c.skipped:
            r["skipped"] = "no samples"
        r.update(checks.get(c.name, {}))
        if c.name in cupti:
            r["cupti"] = cupti[c.name]
        results[c.name] = r
    record: dict[str, Any] = {
        "shape": case.shape.name, "category": case.shape.category, "m": case.shape.m, "n": case.shape.n,
        "k": case.shape.k, "dtype": case.dtype, "layout": case.layout, "padded": case.padded,
        "min_bytes": case.min_bytes, "copies": case.copies, "launches_per_sample": n, "results": results,
        "hbm_peak": report.hbm_peak(torch.cuda.get_device_name()),
    }
    if "skipped" in cupti:
        record["cupti_skipped"] = cupti["skipped"]
    try:
        record["lower_tc_config"], record["lower_tc_kernel"] = lower_tc_config(case)
    except Exception as err:  # noqa: BLE001
        record["lower_tc_config"] = None
        record["lower_tc_config_error"] = g.reason(err)
    del contenders, x
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    return record


def progress(i: int, total: int, record: dict[str, Any], seconds: float) -> str:
    r = report.derive(record)
    parts = []
    for name, res in r["results"].items():
        label = report.LABELS.get(name, name)
        if res.get("skipped"):
            parts.append(f"{label} not run ({res['skipped']})" if name != "mosaic" or "tiles" not in res["skipped"] else f"{label} -")
        else:
            parts.append(f"{label} {res['tflops']:.1f} TFLOP/s" + (" NaN!" if res.get("nan") else ""))
    ratios = ", ".join(f"{report.LABELS[k.split('/')[1]]} {100 * v:.0f}%" for k, v in r["ratios"].items() if v is not None)
    return (f"[{i}/{total}] {record['dtype']} {record['layout']} {record['shape']} ({seconds:.1f} s): "
            + "; ".join(parts) + (f" | lower-tc of {ratios}" if ratios else ""))


def write(args: argparse.Namespace, record: dict[str, Any]) -> None:
    """The JSON (whole, replaced) and the Markdown, after every case."""
    if args.out:
        tmp = Path(args.out + ".tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n")
        tmp.replace(args.out)
    if args.table:
        Path(args.table).write_text(report.markdown(record) + "\n")


def run(args: argparse.Namespace, argv: list[str]) -> int:
    chosen = chosen_cases(args)
    if not chosen:
        print("no case matches the filters (--list shows the suite)")
        return 2
    try:
        import torch
    except ImportError as err:
        print(f"torch is needed to run the suite ({err}); --list and --dry-run need none")
        return 2
    if not torch.cuda.is_available():
        print("no CUDA GPU here: the suite runs on one (--list and --dry-run need none)")
        return 2
    import gemm_suite_gpu as g

    start = time.monotonic()
    done: list[dict[str, Any]] = []
    fp8: list[dict[str, Any]] = []
    if args.resume and args.out and Path(args.out).exists():
        old = json.loads(Path(args.out).read_text())
        done, fp8 = old.get("results", []), old.get("fp8_error", [])
        earlier = old.get("resumed_from", []) + [{k: old.get(k) for k in ("date", "commit", "command", "device", "driver")}]
        print(f"resuming: {len(done)} cases already in {args.out}", flush=True)
    else:
        earlier = []
    have = {(r["shape"], r["dtype"], r["layout"]) for r in done}
    todo = [c for c in chosen if (c.shape.name, c.dtype, c.layout) not in have]
    wants_mosaic = not args.no_mosaic and any(c.mosaic_skip is None for c in todo)
    gpu = g.Gpu(torch)
    mosaic = g.load_mosaic() if wants_mosaic or args.cupti else None
    if mosaic is not None and mosaic.why:
        print(f"Mosaic GPU: {mosaic.why}", flush=True)
    if args.no_mosaic:
        mosaic = None
    meta = run_meta(args, argv, torch, gpu, mosaic)
    if earlier:
        meta["resumed_from"] = earlier  # the runs whose cases this file keeps
    print(f"{meta['device']}, driver {meta['driver']}, torch {meta['versions']['torch']}, jax {meta['versions']['jax']}, "
          f"commit {meta['commit']}: {len(todo)} cases", flush=True)
    index = {(c.shape.name, c.dtype, c.layout): i for i, c in enumerate(chosen)}
    stopped = []
    for i, case in enumerate(todo, 1):
        if args.budget_s is not None and time.monotonic() - start > args.budget_s:
            stopped = todo[i - 1:]
            break
        t0 = time.monotonic()
        record = run_case(torch, gpu, mosaic, case, args.seed * 1000 + index[(case.shape.name, case.dtype, case.layout)], args)
        done.append(report.derive(record))
        print(progress(i, len(todo), record, time.monotonic() - t0), flush=True)
        write(args, {**meta, "results": done, "fp8_error": fp8})
    if stopped:
        print(f"budget of {args.budget_s:.0f} s spent: {len(stopped)} cases not run (rerun with --resume): "
              + "; ".join(f"{c.dtype} {c.layout} {c.shape.name}" for c in stopped), flush=True)
    elif "e4m3" in {c.dtype for c in chosen} and not args.no_fp8_error and not fp8:
        print("fp8 error relative to sum |a||b| (2048x3072x4096) ...", flush=True)
        fp8 = [g.fp8_error(torch)]
        print("\n".join(report.fp8_error_lines(fp8[0])), flush=True)
    meta["finished"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    record = {**meta, "results": done, "fp8_error": fp8, "not_run_budget": [
        f"{c.dtype} {c.layout} {c.shape.name}" for c in stopped]}
    write(args, record)
    for (dtype, layout), recs in report.groups(done).items():
        print(f"== {dtype}, B {layout}")
        print("\n".join(report.summary_lines(report.summarize(recs))), flush=True)
    return 0


def merge(args: argparse.Namespace) -> int:
    """The records of several runs' JSON as one report (a case measured twice: the later
    file's)."""
    runs, records, fp8 = [], {}, []
    for name in args.from_json:
        data = json.loads(Path(name).read_text())
        for sub in data.get("runs") or [data]:
            runs.append({k: v for k, v in sub.items() if k not in ("results", "fp8_error", "runs")})
        for r in data.get("results", []):
            records[(r["shape"], r["dtype"], r["layout"])] = report.derive(r)
        fp8 += data.get("fp8_error") or []
    order = {(c.shape.name, c.dtype, c.layout): i for i, c in enumerate(cases(list(SUITE)))}
    merged = {"runs": runs, "results": sorted(records.values(), key=lambda r: order.get((r["shape"], r["dtype"], r["layout"]), len(order))),
              "fp8_error": fp8}
    write(args, merged)
    for (dtype, layout), recs in report.groups(merged["results"]).items():
        print(f"== {dtype}, B {layout}: {len(recs)} cases")
        print("\n".join(report.summary_lines(report.summarize(recs))))
    return 0


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        if args.list:
            return list_suite(args)
        if args.dry_run:
            return dry_run(args)
        if args.from_json:
            return merge(args)
        return run(args, argv)
    except ValueError as err:  # an unknown dtype, layout or category
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
