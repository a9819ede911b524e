"""The CI slice of the hardware sweep: every dtype, major pair, swizzle, copy path,
register-A and off-boundary case once, and the same for tcgen05, compiled through the
full pipeline, assembled by ptxas and SASS-checked (the GPU part runs by hand, see
docs/sweep.md; tcgen05 has no GPU here, see docs/tcgen05.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import find_disassembler

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import sweep  # noqa: E402

pytestmark = pytest.mark.skipif(
    find_tool("ptxas") is None or find_disassembler() is None,
    reason="ptxas or nvdisasm/cuobjdump not found (pip install 'lower-tc[test]')",
)


def test_ci_subset_covers_every_axis() -> None:
    configs = sweep.ci_subset()
    assert {c.dtype for c in configs} == set(sweep.ELEMENT)
    assert {c.swizzle for c in configs} == set(sweep.SWIZZLES)
    assert {c.copy for c in configs} == {"threads", "tma"}
    assert any(c.a_regs for c in configs) and any(c.relative for c in configs)
    assert {(c.a_major, c.b_major) for c in configs if c.dtype == "bf16"} == {
        ("k", "k"), ("k", "mn"), ("mn", "k"), ("mn", "mn")}


def assemble_subset(subset: str, at_least: int) -> None:
    """Compile, assemble and SASS-check a subset of the sweep, in parallel; all must pass."""
    import multiprocessing as mp
    import os

    jobs = sweep.jobs(subset, 1, assemble_only=True)
    with mp.get_context("spawn").Pool(max(1, os.cpu_count() or 1)) as pool:
        rows = pool.map(sweep._work, jobs, chunksize=4)
    bad = [r for r in rows if r[1] != "ASSEMBLED" or r[5] != f"sass {sweep._family(r[0])} ok"]
    assert not bad, bad[:5]
    assert len(rows) == len(jobs) > at_least


def test_the_ci_slices_hold_every_pair_of_axis_values_of_the_whole_sweep() -> None:
    """Pairwise coverage: every pair of axis values that some configuration has (the major
    pair counted as one axis) is in the slice, which is far smaller than the sweep."""
    import itertools

    for slice_, everything, signature in (
        (sweep.ci_subset(), list(itertools.chain(sweep.all_configs(), sweep.offset_configs())), sweep.ci_signature),
        (sweep.tc5_ci_subset(), list(sweep.tc5_configs()), sweep.tc5_signature),
    ):
        held = set().union(*(sweep.value_pairs(signature(c)) for c in slice_))
        assert set().union(*(sweep.value_pairs(signature(c)) for c in everything)) <= held
        assert len(slice_) < len(everything) / 3


def test_pairwise_keeps_a_configuration_only_for_a_new_pair() -> None:
    """Three two-valued axes: four configurations hold every pair, so the other four of
    the eight add none and are left out."""
    design = [(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)]
    rest = [(0, 0, 1), (1, 1, 1), (0, 1, 0), (1, 0, 0)]
    assert sweep.pairwise(design + rest, lambda c: c) == design
    assert sweep.pairwise([(0, 0, 0), (0, 0, 0), (0, 0, 1)], lambda c: c) == [(0, 0, 0), (0, 0, 1)]


def test_assemble_only_without_a_disassembler_is_not_a_pass(monkeypatch) -> None:
    """Assembled but not SASS-checked must not count as ASSEMBLED (a silent fallback
    to non-tensor-core code would pass)."""
    from lower_tc.lowering.backend import sass

    monkeypatch.setattr(sass, "find_disassembler", lambda: None)
    key, text, seed, _ = sweep.jobs("tcgen05-ci", 1, assemble_only=True)[0]
    row = sweep._work((key, text, seed, True))
    assert row[1] == "NO_SASS_CHECK" and "nvdisasm" in row[5]


def test_ci_subset_assembles_and_has_tensor_core_sass() -> None:
    assemble_subset("ci", 100)


def test_tcgen05_ci_subset_covers_every_axis() -> None:
    configs = sweep.tc5_ci_subset()
    assert {sweep.TC5_KIND[c.dtype] for c in configs} == {"f16", "tf32", "f8f6f4", "i8"}
    assert {c.dtype for c in configs} == set(sweep.TC5_ELEMENT)
    assert {c.m for c in configs} == {64, 128}
    assert {c.swizzle for c in configs} == set(sweep.TC5_SWIZZLES)
    assert {c.copy for c in configs} == {"threads", "tma"}
    assert {(c.a_major, c.b_major) for c in configs if c.dtype == "tf32"} == {
        ("k", "k"), ("k", "mn"), ("mn", "k"), ("mn", "mn")}
    assert any(c.a_tmem for c in configs) and any(c.c_load for c in configs)
    assert {c.acc for c in configs} == {"f32", "f16", "s32"}
    assert any(c.dtype != c.b_dtype for c in configs)


def test_tcgen05_ci_subset_assembles_for_sm100a_with_its_mma_in_the_sass() -> None:
    """No Blackwell GPU is needed: ptxas for sm_100a and the UTC*MMA opcode of each kind."""
    assemble_subset("tcgen05-ci", 100)


def test_ptx_hashes_tell_configurations_apart() -> None:
    """--ptx-hashes: the same configuration hashes the same, another one differently
    (docs/sweep.md uses it to show the recorded run still holds for the current code)."""
    jobs = {j[0]: j for j in sweep.jobs("ci", 1, True)}
    first, second = list(jobs)[:2]
    line = sweep._ptx_hash(jobs[first])
    key, ptx_hash, info_hash = line.split("\t")
    assert key == first and len(ptx_hash) == len(info_hash) == 16
    assert sweep._ptx_hash(jobs[first]) == line
    assert sweep._ptx_hash(jobs[second]).split("\t")[1] != ptx_hash


def test_wmma_sweep_covers_every_shape_type_layout_and_store() -> None:
    cases = sweep.WMMA_CASES
    assert {(c[0], c[1]) for c in cases} == {
        (s, t) for s in ("m16n16k16", "m32n8k16", "m8n32k16") for t in sweep.WMMA_TYPES} | {("m16n16k8", "tf32")}
    assert {(c[3], c[4]) for c in cases} == {("row", "col"), ("col", "row"), ("row", "row"), ("col", "col")}
    assert {c[5] if len(c) > 5 else "scol" for c in cases} == {"scol", "srow"}
