"""The CI slice of the hardware sweep: every dtype, major pair, swizzle, copy path,
register-A and off-boundary case once, compiled through the full pipeline,
assembled by ptxas and SASS-checked (the GPU part runs by hand, see docs/sweep.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lower_tc.lowering.ptxas import find_tool

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import sweep  # noqa: E402

pytestmark = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found")


def test_ci_subset_covers_every_axis() -> None:
    configs = sweep.ci_subset()
    assert {c.dtype for c in configs} == set(sweep.ELEMENT)
    assert {c.swizzle for c in configs} == set(sweep.SWIZZLES)
    assert {c.copy for c in configs} == {"threads", "tma"}
    assert any(c.a_regs for c in configs) and any(c.relative for c in configs)
    assert {(c.a_major, c.b_major) for c in configs if c.dtype == "bf16"} == {
        ("k", "k"), ("k", "mn"), ("mn", "k"), ("mn", "mn")}


def test_ci_subset_assembles_and_has_tensor_core_sass() -> None:
    import multiprocessing as mp
    import os

    jobs = sweep.jobs("ci", 1, assemble_only=True)
    with mp.get_context("spawn").Pool(max(1, os.cpu_count() or 1)) as pool:
        rows = pool.map(sweep._work, jobs, chunksize=4)
    bad = [r for r in rows if r[1] != "ASSEMBLED"]
    assert not bad, bad[:5]
    assert len(rows) == len(jobs) > 150
