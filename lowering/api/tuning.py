"""Tuning: time each candidate configuration of a GEMM (layout/gemm_tuning.py) on the GPU
and keep the fastest, per problem and device, in memory and on disk.

`lower_tc.matmul(..., tune=True)` and `lower-tc run --bench --tune` use it. The default
chooser (layout/gemm_choice.py) predicts; tuning measures, so it also finds what the
model does not know (another GPU's SM count or clocks, a shape the model misjudges).

The disk record is one small JSON file per problem under the kernel cache's folder
(lowering/runtime/cache.py: `tuning/<sha256>.json`, written under a temporary name and
renamed), keyed by everything the choice depends on: the device's name, lower-tc itself
(its sources' digest), the target, and the problem (the arrays' shapes, strides and
dtypes, or the program's text). Deleting the folder forgets every choice.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.gemm_tuning import Candidate
from lower_tc.lowering.runtime.cache import cache_dir, compiler_identity

#: What a sample is at least (ms of launches back to back), and how many are taken.
SAMPLE_MS = 1.0
SAMPLES = 5
#: Format of a record; raised when its meaning changes, so old records are not read.
RECORD_FORMAT = "lower-tc-tuning-1"


@dataclass(frozen=True)
class Trial:
    """One candidate's result: its median time per launch (ms), or why it did not run."""

    candidate: Candidate
    ms: float | None = None
    skipped: str | None = None


def tuning_key(*parts: object) -> str:
    """The sha256 naming a tuning record: RECORD_FORMAT, lower-tc's identity and `parts`."""
    text = json.dumps([RECORD_FORMAT, compiler_identity(), *[repr(p) for p in parts]])
    return hashlib.sha256(text.encode()).hexdigest()


_memory: dict[str, Candidate] = {}


def _record_path(key: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / "tuning" / f"{key}.json"


def remembered(key: str) -> Candidate | None:
    """The choice made before for `key` (this process, else the disk), or None."""
    found = _memory.get(key)
    if found is not None:
        return found
    path = _record_path(key)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text())
        c = data["choice"]
        found = Candidate(GemmConfig(*c["config"]), tuple((k, v) for k, v in c["options"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    _memory[key] = found
    return found


def remember(key: str, trials: Sequence[Trial], problem: str) -> Candidate:
    """Keeps the fastest of `trials` as `key`'s choice (memory, and disk where the cache
    is on; a folder that cannot be written only loses the disk copy) and returns it."""
    timed = [t for t in trials if t.ms is not None]
    if not timed:
        why = "; ".join(f"{t.candidate.label()}: {t.skipped}" for t in trials[:3])
        raise RuntimeError(f"no candidate ran ({why})")
    best = min(timed, key=lambda t: t.ms)  # type: ignore[arg-type, return-value]
    _memory[key] = best.candidate
    path = _record_path(key)
    if path is not None:
        c = best.candidate.config
        record = {
            "format": RECORD_FORMAT, "problem": problem,
            "choice": {"config": [c.bm, c.bn, c.bk, c.stages], "options": [list(o) for o in best.candidate.options]},
            "trials": [{"candidate": t.candidate.label(), "ms": t.ms, "skipped": t.skipped} for t in trials],
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as f:
                json.dump(record, f, indent=1)
            os.replace(f.name, path)
        except OSError:
            pass
    return best.candidate


def time_launches(cuda: Any, stream: Any, launch: Callable[[], None], samples: int = SAMPLES, sample_ms: float = SAMPLE_MS) -> float:
    """The median ms of one `launch` on `stream` (CUDA events around enough launches back
    to back to fill `sample_ms`), after one warm-up launch that also sizes the samples."""
    start, end = cuda.call("cuEventCreate", 0), cuda.call("cuEventCreate", 0)
    try:
        def sample(n: int) -> float:
            cuda.call("cuEventRecord", start, stream)
            for _ in range(n):
                launch()
            cuda.call("cuEventRecord", end, stream)
            cuda.call("cuEventSynchronize", end)
            return cuda.call("cuEventElapsedTime", start, end) / n

        launch()
        first = sample(1)
        n = max(1, min(1000, int(sample_ms / max(first, 1e-4))))
        return statistics.median(sample(n) for _ in range(samples))
    finally:
        cuda.call("cuEventDestroy", start)
        cuda.call("cuEventDestroy", end)


def run_trials(candidates: Sequence[Candidate], prepare: Callable[[Candidate], Any],
               measure: Callable[[Any], float]) -> list[Trial]:
    """Each candidate prepared (compiled, loaded: a refusal is that candidate skipped with
    its reason) and what `prepare` made timed by `measure` (a fault there is raised)."""
    trials = []
    for cand in candidates:
        try:
            launch = prepare(cand)
        except Exception as err:  # noqa: BLE001 - a candidate this problem cannot take
            text = str(err).strip().splitlines()
            trials.append(Trial(cand, skipped=text[0] if text else type(err).__name__))
            continue
        trials.append(Trial(cand, ms=measure(launch)))
    return trials


__all__ = ["RECORD_FORMAT", "SAMPLES", "SAMPLE_MS", "Trial", "remember", "remembered", "run_trials", "time_launches", "tuning_key"]
