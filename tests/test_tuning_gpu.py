"""Tuning on the GPU: `lower_tc.matmul(..., tune=True)` and `lower-tc run --tune` time the
candidates, run the fastest (checked against float64), remember it on disk, and refuse
what tuning cannot do, by name, before launching anything."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import lower_tc
from lower_tc.lowering.api import tuning
from lower_tc.lowering.runtime.errors import ArgumentError
from test_callable_gpu import check, operand, poisoned

pytestmark = pytest.mark.gpu


@pytest.fixture(autouse=True)
def gpu(require_gpu, tmp_path, monkeypatch) -> None:
    require_gpu("sm_90a")
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(tuning, "_memory", {})


def test_matmul_tunes_once_remembers_and_computes(torch, tmp_path) -> None:
    a = operand(torch, 200, 1000, "bf16", True, 1)
    b = operand(torch, 1000, 296, "bf16", True, 2)  # rows of 592 bytes: TMA takes multiples of 16
    d = poisoned(torch, (200, 296), "bf16")
    lower_tc.matmul(a, b, out=d, tune=True)
    check(torch, d, a, b, "bf16", "f32", "bf16")
    [record] = list((tmp_path / "tuning").glob("*.json"))
    data = json.loads(record.read_text())
    timed = [t for t in data["trials"] if t["ms"] is not None]
    assert len(timed) >= 4 and min(t["ms"] for t in timed) > 0
    best = min(timed, key=lambda t: t["ms"])["candidate"]
    c = data["choice"]["config"]
    assert best.startswith(f"{c[0]}x{c[1]}x{c[2]}/{c[3]}")
    # a new process (memory cleared) reads the choice back without timing again
    tuning._memory.clear()
    record.write_text(json.dumps({**data, "trials": []}))
    d2 = poisoned(torch, (200, 296), "bf16")
    lower_tc.matmul(a, b, out=d2, tune=True)
    check(torch, d2, a, b, "bf16", "f32", "bf16")
    assert json.loads(record.read_text())["trials"] == []


def test_tune_without_out_allocates_it(torch) -> None:
    a = operand(torch, 64, 256, "f16", True, 3)
    b = operand(torch, 256, 128, "f16", False, 4)
    d = lower_tc.matmul(a, b, tune=True)
    check(torch, d, a, b, "f16", "f32", "f16")


def test_tune_refusals_name_the_argument(torch) -> None:
    a = operand(torch, 128, 128, "bf16", True, 5)
    b = operand(torch, 128, 128, "bf16", True, 6)
    d = poisoned(torch, (128, 128), "bf16")
    with pytest.raises(ArgumentError) as err:
        lower_tc.matmul(a, b, out=d, tune=True, config=(128, 128, 64, 4))
    assert err.value.argument == "config"
    with pytest.raises(ArgumentError) as err:
        lower_tc.matmul(a, b, out=d, tune=True, dynamic=True)
    assert err.value.argument == "dynamic"
    with pytest.raises(ArgumentError) as err:
        lower_tc.matmul(a, b, out=d, c=d, tune=True)
    assert err.value.argument == "c"
    assert torch.isnan(d.float()).all()  # nothing launched


def test_run_tune_writes_the_choice_in_and_checks_it(tmp_path) -> None:
    path = tmp_path / "g.mlir"
    path.write_text("""func.func @g(%A: memref<256x512xbf16>, %B: memref<512x384xbf16>, %D: memref<256x384xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<256x512xbf16>, memref<512x384xbf16>, memref<256x384xbf16>
  func.return
}""")
    cmd = [sys.executable, "-m", "lower_tc.lowering.cli", "run", "--tune", str(path)]
    # cwd: the installed lower_tc, not the checkout's lower_tc/ folder (the device runs the tests from the checkout)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "g: tuned on" in r.stderr and r.stderr.count(" us") >= 4
    assert "PASS" in r.stdout
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert again.returncode == 0 and "g: tuned before on" in again.stderr and " us" not in again.stderr
