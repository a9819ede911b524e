"""The GEMM suite's arithmetic and tables (bench/gemm_suite.py): from measured times to
TFLOP/s, ratios, GB/s and the share of the HBM peak, per-table summaries (geometric mean,
shapes below 95% of cuBLAS) and the Markdown. Plain Python: it runs on a CPU machine, on
made-up records in the tests and on the JSON of device runs (`--from-json`).

A record is one case (shape, dtype, layout) as bench/gemm_suite.py writes it:
{"shape", "category", "m", "n", "k", "dtype", "layout", "min_bytes", "results": {contender:
{"ms", "skipped", "max_rel_err", "nan", ...}}}. A contender's "ms" is the median time of one
launch; "skipped" is None or the reason it did not run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

#: H100 SXM's HBM3 bandwidth, bytes per second (issue 22's ~3.35 TB/s): the peak of a
#: record that names no device (the runs before the H200, all on the H100).
HBM_PEAK = 3.35e12
#: Datasheet HBM bandwidth by the name torch gives the device (a substring of it): the H200
#: is the H100's chip with HBM3e at 4.8 TB/s, so a memory-bound GEMM's share is of its own peak.
HBM_PEAKS = {"H200": 4.8e12, "H100": 3.35e12}


def hbm_peak(device: str | None) -> float:
    """The HBM peak (bytes/s) of the device torch names `device`; H100's for an unknown one."""
    return next((peak for name, peak in HBM_PEAKS.items() if device and name in device), HBM_PEAK)


def record_peak(record: dict[str, Any]) -> float:
    """The HBM peak of the device a record ran on (bench/gemm_suite.py stamps it)."""
    return float(record.get("hbm_peak") or HBM_PEAK)
#: The issue's targets: of cuBLAS on every shape, geometric mean of cuBLAS, of the HBM peak
#: where M <= 64, of Mosaic GPU at the large squares.
TARGET_EVERY = 0.95
TARGET_GEOMEAN = 1.05
TARGET_HBM = 0.85
TARGET_MOSAIC = 1.00
MOSAIC_TARGET_SHAPES = ("square 8192^3", "square 6144^3", "square 4096^3")

#: The contenders, in table order. `cublas` is cuBLAS's default: torch.matmul for bf16,
#: torch._scaled_mm(use_fast_accum=False) for fp8; `cublas-fast` is fp8's
#: use_fast_accum=True; `mosaic` is JAX Mosaic GPU's hopper_matmul_mgpu.
#: `lower-tc-promoted` is lower-tc's fp8 kernel with `accumulation="promoted"` (e4m3 cases).
CONTENDERS = ("lower-tc", "lower-tc-promoted", "cublas", "cublas-fast", "mosaic")
LABELS = {"lower-tc": "lower-tc", "lower-tc-promoted": "lower-tc promoted", "cublas": "cuBLAS",
          "cublas-fast": "cuBLAS fast-accum", "mosaic": "Mosaic GPU"}
#: lower-tc's own kernels; the others are the peers it is measured against.
OURS = ("lower-tc", "lower-tc-promoted")
PEERS = tuple(c for c in CONTENDERS if c not in OURS)


def tflops(flops: float, ms: float | None) -> float | None:
    return flops / (ms * 1e-3) / 1e12 if ms else None


def gbps(nbytes: float, ms: float | None) -> float | None:
    """GB/s (10^9 bytes per second) of `nbytes` moved in `ms`."""
    return nbytes / (ms * 1e-3) / 1e9 if ms else None


def hbm_fraction(nbytes: float, ms: float | None, peak: float = HBM_PEAK) -> float | None:
    return nbytes / (ms * 1e-3) / peak if ms else None


def geomean(values: Iterable[float]) -> float | None:
    xs = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in xs) / len(xs)) if xs else None


def timed(record: dict[str, Any], contender: str) -> float | None:
    """The contender's median time in ms, or None where it was skipped or not run."""
    r = record.get("results", {}).get(contender)
    if not r or r.get("skipped") or not r.get("ms"):
        return None
    return float(r["ms"])


def speed_ratio(record: dict[str, Any], ours: str = "lower-tc", theirs: str = "cublas") -> float | None:
    """How fast `ours` ran, as a fraction of `theirs` (their time over ours: a TFLOP/s ratio)."""
    a, b = timed(record, ours), timed(record, theirs)
    return b / a if a and b else None


def flops_of(record: dict[str, Any]) -> float:
    return 2.0 * record["m"] * record["n"] * record["k"]


def derive(record: dict[str, Any]) -> dict[str, Any]:
    """The record with each timed contender's TFLOP/s (and, where M <= 64, GB/s of the
    least traffic and its fraction of HBM_PEAK) and lower-tc's ratios filled in; a new dict."""
    out = dict(record)
    results = {}
    for name, r in record.get("results", {}).items():
        r = dict(r)
        ms = timed(record, name)
        r["tflops"] = _round(tflops(flops_of(record), ms), 1)
        if record["m"] <= 64:
            r["gbps"] = _round(gbps(record["min_bytes"], ms), 1)
            r["hbm_fraction"] = _round(hbm_fraction(record["min_bytes"], ms, record_peak(record)), 4)
        results[name] = r
    out["results"] = results
    out["ratios"] = {f"{ours}/{c}": _round(speed_ratio(record, ours, c), 4) for ours in OURS for c in PEERS
                     if ours in record.get("results", {}) and c in record.get("results", {})}
    return out


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def group_key(record: dict[str, Any]) -> tuple[str, str]:
    return record["dtype"], record["layout"]


def groups(records: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Records by (dtype, layout), in first-seen order."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        out.setdefault(group_key(r), []).append(r)
    return out


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One table's summary: the geometric mean of lower-tc / each peer, the shapes below
    TARGET_EVERY of cuBLAS (the default mode; for fp8 also below the fast mode), the
    memory-bound shapes' share of the HBM peak, and what did not run or came out NaN."""
    out: dict[str, Any] = {"cases": len(records)}
    for ours in OURS:
        # lower-tc's default kernel against each peer at the top level; the promoted fp8
        # kernel's under "promoted"
        into = out if ours == "lower-tc" else out.setdefault("promoted", {})
        for peer in PEERS:
            compared = _compare(records, ours, peer)
            if compared:
                into[peer] = compared
    if not out.get("promoted"):
        out.pop("promoted", None)
    bound = [r for r in records if r["m"] <= 64]
    fractions = [(r["shape"], hbm_fraction(r["min_bytes"], timed(r, "lower-tc"), record_peak(r))) for r in bound]
    fractions = [(s, f) for s, f in fractions if f is not None]
    if fractions:
        out["memory_bound"] = {
            "compared": len(fractions),
            "hbm_peak": max(record_peak(r) for r in bound),
            "min_hbm_fraction": _round(min(f for _, f in fractions), 4),
            "below_85": [s for s, f in fractions if f < TARGET_HBM],
            "cublas_min_hbm_fraction": _round(min((f for f in (hbm_fraction(r["min_bytes"], timed(r, "cublas"), record_peak(r)) for r in bound)
                                                   if f is not None), default=None), 4),
        }
    out["mosaic_targets"] = {r["shape"]: _round(speed_ratio(r, "lower-tc", "mosaic"), 4)
                             for r in records if r["shape"] in MOSAIC_TARGET_SHAPES and speed_ratio(r, "lower-tc", "mosaic")}
    not_run: dict[str, list[str]] = {}
    for r in records:
        for c, res in r.get("results", {}).items():
            if res.get("skipped"):
                not_run.setdefault(f"{LABELS.get(c, c)}: {res['skipped']}", []).append(r["shape"])
    out["not_run"] = not_run  # "contender: reason" -> the shapes
    out["nan"] = [f"{r['shape']} / {LABELS.get(c, c)}" for r in records for c, res in r.get("results", {}).items() if res.get("nan")]
    out["late_samples"] = sum(int(res.get("late") or 0) for r in records for res in r.get("results", {}).values())
    return out


def _compare(records: list[dict[str, Any]], ours: str, peer: str) -> dict[str, Any] | None:
    pairs = [(r["shape"], speed_ratio(r, ours, peer)) for r in records]
    pairs = [(s, x) for s, x in pairs if x is not None]
    if not pairs:
        return None
    worst = min(pairs, key=lambda p: p[1])
    return {
        "compared": len(pairs),
        "geomean": _round(geomean(x for _, x in pairs), 4),
        "min": _round(worst[1], 4),
        "min_shape": worst[0],
        "below_95": [s for s, x in pairs if x < TARGET_EVERY],
    }


FP8_NOTE = ("lower-tc's fp8 GEMM accumulates as wgmma does (the tensor core's limited-precision partial sums): "
            "the like-for-like peer is cuBLAS fast-accum (`use_fast_accum=True`); cuBLAS's default promotes the partial "
            "sums (more precise, the fp8 error table below).")


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "" if x is None else f"{x:.{digits}f}"


def _err(x: float | None) -> str:
    return "" if x is None else f"{x:.1e}"


def present(records: list[dict[str, Any]]) -> list[str]:
    """The contenders that appear in any record, in CONTENDERS order."""
    seen = {c for r in records for c in r.get("results", {})}
    return [c for c in CONTENDERS if c in seen]


def table(records: list[dict[str, Any]]) -> list[str]:
    """One Markdown table (one dtype and layout): a row per shape, TFLOP/s of each
    contender, lower-tc's share of each peer, GB/s and the share of the HBM peak where
    M <= 64, the largest relative difference from cuBLAS's default and notes."""
    who = present(records)
    peers = [c for c in who if c not in OURS]
    promoted = "lower-tc-promoted" in who
    head = ["shape", "M", "N", "K", "lower-tc config"] + [f"{LABELS[c]} TFLOP/s" for c in who]
    head += [f"of {LABELS[c]}" for c in peers]
    head += ["promoted of cuBLAS"] if promoted and "cublas" in who else []
    head += [f"{LABELS[c]} GB/s (of HBM)" for c in ("lower-tc", "cublas") if c in who]
    head += ["max rel. diff. from cuBLAS", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in records:
        cells = [r["shape"], str(r["m"]), str(r["n"]), str(r["k"]), r.get("lower_tc_config") or ""]
        cells += [_num(tflops(flops_of(r), timed(r, c))) for c in who]
        cells += [_pct(speed_ratio(r, "lower-tc", c)) for c in peers]
        if promoted and "cublas" in who:
            cells.append(_pct(speed_ratio(r, "lower-tc-promoted", "cublas")))
        for c in ("lower-tc", "cublas"):
            if c in who:
                ms = timed(r, c)
                cells.append(f"{_num(gbps(r['min_bytes'], ms), 0)} ({_pct(hbm_fraction(r['min_bytes'], ms, record_peak(r)))})"
                             if r["m"] <= 64 and ms else "")
        errs = [f"{LABELS[c]} {_err(res.get('max_rel_err'))}" for c, res in r.get("results", {}).items()
                if c != "cublas" and res.get("max_rel_err") is not None]
        cells.append(", ".join(errs))
        notes = [f"{LABELS.get(c, c)}: NaN" for c, res in r.get("results", {}).items() if res.get("nan")]
        notes += [f"{LABELS.get(c, c)} not run: {res['skipped']}" for c, res in r.get("results", {}).items()
                  if res.get("skipped") and c != "mosaic"]
        late = sum(int(res.get("late") or 0) for res in r.get("results", {}).values())
        if late:
            notes.append(f"{late} late samples")
        if r.get("padded"):
            notes.append("padded ld")
        cells.append("; ".join(notes))
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return lines


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary of one table, as Markdown bullets with the issue's targets beside."""
    lines = []
    for ours, into in (("lower-tc", summary), ("lower-tc-promoted", summary.get("promoted") or {})):
        for peer in PEERS:
            s = into.get(peer)
            if not s:
                continue
            line = (f"- {LABELS[ours]} / {LABELS[peer]}: geometric mean {_pct(s['geomean'])} over {s['compared']} shapes, "
                    f"lowest {_pct(s['min'])} ({s['min_shape']}), {len(s['below_95'])} below 95%")
            if peer == "cublas" and ours == "lower-tc":
                line += f" (targets: geomean >= {_pct(TARGET_GEOMEAN)}, none below {_pct(TARGET_EVERY)})"
            if peer == "cublas" and ours == "lower-tc-promoted":
                line += " (target: >= 100% of cuBLAS's default mode, which promotes too)"
            if s["below_95"]:
                line += ": " + ", ".join(s["below_95"])
            lines.append(line)
    mb = summary.get("memory_bound")
    if mb:
        line = (f"- memory-bound (M <= 64): lower-tc's least-traffic bandwidth at least {_pct(mb['min_hbm_fraction'])} of "
                f"{mb.get('hbm_peak', HBM_PEAK) / 1e12:.2f} TB/s over {mb['compared']} shapes (cuBLAS at least {_pct(mb['cublas_min_hbm_fraction'])}), "
                f"{len(mb['below_85'])} below {_pct(TARGET_HBM)}")
        if mb["below_85"]:
            line += ": " + ", ".join(mb["below_85"])
        lines.append(line)
    if summary.get("mosaic_targets"):
        lines.append("- of Mosaic GPU at the target squares (>= 100%): "
                     + ", ".join(f"{s} {_pct(x)}" for s, x in summary["mosaic_targets"].items()))
    for why, shapes in (summary.get("not_run") or {}).items():
        listed = ": " + ", ".join(shapes) if len(shapes) <= 6 else ""
        lines.append(f"- not run, {len(shapes)} shape{'s' if len(shapes) > 1 else ''}: {why}{listed}")
    if summary.get("nan"):
        lines.append("- NaN or Inf in D: " + ", ".join(summary["nan"]))
    if summary.get("late_samples"):
        lines.append(f"- {summary['late_samples']} samples were late (the host still launching when the GPU reached them: "
                     "retried with a longer head start)")
    return lines


def fp8_error_lines(fp8: dict[str, Any]) -> list[str]:
    """The fp8 precision measurement as a Markdown table."""
    lines = [f"fp8 error relative to sum |a||b| ({fp8['shape']}, {fp8['rows']} sampled rows against float64; D {', '.join(fp8['d_types'])}):",
             "", "| kernel | D | max | mean |", "|---|---|---|---|"]
    for row in fp8["kernels"]:
        if row.get("skipped"):
            lines.append(f"| {LABELS.get(row['kernel'], row['kernel'])} | {row['d']} | not run: {row['skipped']} | |")
        else:
            lines.append(f"| {LABELS.get(row['kernel'], row['kernel'])} | {row['d']} | {_err(row['max'])} | {_err(row['mean'])} |")
    return lines


def markdown(record: dict[str, Any]) -> str:
    """The whole report: the run's facts, a table and its summary per (dtype, layout), the
    fp8 error table where measured."""
    runs = record.get("runs") or [record]
    out = ["# GEMM suite (bench/gemm_suite.py)", ""]
    for run in runs:
        for r in [*run.get("resumed_from", []), run]:
            out.append(f"- {r.get('device', '?')}, driver {r.get('driver', '?')}, {r.get('date', '?')}, "
                       f"commit {r.get('commit', '?')}: `{r.get('command', '?')}`")
        if run.get("not_run_budget"):
            out.append(f"  - not reached within its time budget: {'; '.join(run['not_run_budget'])}")
    out += ["", "TFLOP/s = 2MNK / the median time of one launch. \"of X\": lower-tc's speed as a share of X's "
            "(X's time / lower-tc's). GB/s: the least traffic (A + B + D, each once) over the time, where M <= 64.", ""]
    for (dtype, layout), recs in groups(record["results"]).items():
        out += [f"## {dtype}, B {'as nn.Linear weight (N x K)' if layout == 'linear' else 'row-major (K x N)'}", ""]
        out += table(recs)
        out += [""] + summary_lines(summarize(recs)) + [""]
        if dtype == "e4m3":
            out += [FP8_NOTE, ""]
    for fp8 in record.get("fp8_error") or []:
        out += fp8_error_lines(fp8) + [""]
    return "\n".join(out)


__all__ = [
    "CONTENDERS", "HBM_PEAK", "HBM_PEAKS", "derive", "fp8_error_lines", "gbps", "geomean", "groups", "hbm_fraction", "hbm_peak", "markdown",
    "speed_ratio", "summarize", "summary_lines", "table", "tflops", "timed",
]
