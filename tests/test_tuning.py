"""Tuning without a GPU: the record of a choice (lowering/api/tuning.py), the trials, and
`lower-tc run --tune`'s refusals that come before any GPU work."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.gemm_tuning import Candidate
from lower_tc.lowering.api import tuning


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LOWER_TC_NO_CACHE", raising=False)
    monkeypatch.setattr(tuning, "_memory", {})
    return tmp_path


A = Candidate(GemmConfig(128, 256, 64, 4), (("persistent", True),))
B = Candidate(GemmConfig(64, 128, 64, 8), (("persistent", False),))


def test_the_fastest_trial_is_remembered_on_disk(cache) -> None:
    key = tuning.tuning_key("matmul", "NVIDIA H100", "sm_90a", ((4096, 4096),))
    assert tuning.remembered(key) is None
    trials = [tuning.Trial(A, ms=0.31), tuning.Trial(B, ms=0.29), tuning.Trial(A, skipped="refused")]
    assert tuning.remember(key, trials, problem="x") == B
    record = json.loads((cache / "tuning" / f"{key}.json").read_text())
    assert record["choice"] == {"config": [64, 128, 64, 8], "options": [["persistent", False]]}
    assert [t["ms"] for t in record["trials"]] == [0.31, 0.29, None]
    tuning._memory.clear()  # a new process reads the disk
    assert tuning.remembered(key) == B


def test_keys_differ_with_every_part_and_a_broken_record_is_absent(cache) -> None:
    keys = {tuning.tuning_key("matmul", d, t) for d in ("NVIDIA H100", "NVIDIA H200") for t in ("sm_90a", "sm_100a")}
    assert len(keys) == 4
    key = keys.pop()
    (cache / "tuning").mkdir()
    (cache / "tuning" / f"{key}.json").write_text("{cut short")
    assert tuning.remembered(key) is None


def test_no_candidate_running_is_an_error_not_a_choice(cache) -> None:
    with pytest.raises(RuntimeError, match="no candidate ran"):
        tuning.remember("k", [tuning.Trial(A, skipped="refused")], problem="x")


def test_trials_skip_what_cannot_compile_and_time_the_rest() -> None:
    def prepare(c: Candidate) -> str:
        if c is B:
            raise ValueError("BN = 128: not here\nmore")
        return c.label()

    trials = tuning.run_trials([A, B], prepare, lambda made: float(len(made)))
    assert trials == [tuning.Trial(A, ms=float(len(A.label()))), tuning.Trial(B, skipped="BN = 128: not here")]


def _run(*args: str, text: str, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "k.mlir"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "lower_tc.lowering.cli", "run", *args, str(path)], capture_output=True, text=True, timeout=120)


def test_run_tune_refuses_sizes_known_only_at_launch(tmp_path) -> None:
    text = """func.func @dyn(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  func.return
}"""
    r = _run("--tune", text=text, tmp_path=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1] == ("lower-tc run: error: --tune: dyn's tc.matmul has sizes known only at launch; "
                                                 "tuning times kernels compiled for fixed sizes: give the memrefs static sizes")


@pytest.mark.parametrize(("n", "paired"), [(5000, True), (5120, False)])
def test_matmul_tune_tries_the_defaults_cluster_first_where_b_rows_are_off_the_lines(monkeypatch, tmp_path, n, paired) -> None:
    """lower_tc.matmul(tune=True) reads B's row stride: with 5000 bf16 columns (10000-byte
    rows, 16 past an L2 line) its first candidate is the default's cluster of 2 on the rule's
    128 x 256 tile (the same kernel as none given), with 5120 the one-CTA default (a fake
    driver; the trials stop before anything is timed)."""
    import importlib

    from fake_cuda import install
    from test_callable import gpu_array

    import lower_tc

    matmul_api = importlib.import_module("lower_tc.lowering.api.matmul")
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path / "cache"))
    fake = install(monkeypatch)
    seen: list[Candidate] = []

    def trials(cands, prepare, time):
        seen.extend(cands)
        raise RuntimeError("stop before timing")

    monkeypatch.setattr(matmul_api, "run_trials", trials)
    monkeypatch.setattr(matmul_api, "_not_capturing", lambda: ())  # the fake's cuStreamIsCapturing answers nothing
    # D in f32: with a 16-bit D the default swaps this GEMM (layout/gemm_choice.py `wide_swap`)
    a, b, d = gpu_array(fake, 3000, 4000, "bf16"), gpu_array(fake, 4000, n, "bf16"), gpu_array(fake, 3000, n, "f32")
    with pytest.raises(RuntimeError, match="stop before timing"):
        lower_tc.matmul(a, b, d, tune=True)
    first = seen[0]
    assert (first.option_dict.get("cluster") == 2) == paired
    assert (first.config == GemmConfig(128, 256, 64, 4)) == paired
    assert not any(c.option_dict.get("cluster") == 2 for c in seen[1:])


def test_a_candidate_label_parses_back_to_the_candidate() -> None:
    from lower_tc.layout.gemm import GemmConfig
    from lower_tc.layout.gemm_tuning import Candidate

    c = Candidate(GemmConfig(128, 144, 64, 5), (("persistent", False), ("split_k", 2), ("reduce", "global")))
    assert Candidate.parse(c.label()) == c
    for bad, why in (("bogus", "BMxBNxBK/STAGES"), ("128x144x64", "BMxBNxBK/STAGES"), ("", "BMxBNxBK/STAGES"),
                     ("128x144x64/4 persistent", "not an option=value"), ("128x144x64/4 =1", "not an option=value")):
        with pytest.raises(ValueError, match=why):
            Candidate.parse(bad)
