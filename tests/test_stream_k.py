"""Stream-K (`stream_k = G`, layout/stream_k.py) without a GPU: the walk's arithmetic (every
tile's K steps taken once, each partial tile's CTAs and slots as the lowering sums them,
whichever unit comes last), the schedule's rules, the launch contract (version 3, the
persistent grid's K steps, the workspace's size), the PTX (assembled, no spills) and the
tuner's candidates. tests/test_stream_k_gpu.py and the GEMM sweep (`--subset stream_k`)
run it on the H100/H200."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lower_tc.dialects.tc_schedule import GemmSchedule
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.gemm_tuning import candidates, stream_k_groups
from lower_tc.layout.kernel_info import STREAM_K_VERSION, KernelInfo, KernelInfoError, PersistentGrid, WorkspaceInfo
from lower_tc.layout.stream_k import (contributors, counter, dp_waves, slot, stream_k_problem, stream_tiles, units,
                                      workspace_bytes)
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.errors import RunError
from lower_tc.lowering.runtime.launcher import launch_grid

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")


def _op(m: int, n: int, k: int, options: str, config: str = "bm = 128, bn = 256, bk = 64, stages = 4") -> str:
    return (f'func.func @g(%A: memref<{m}x{k}xbf16>, %B: memref<{k}x{n}xbf16>, %D: memref<{m}x{n}xbf16>) attributes {{tc.target = "sm_90a"}} {{\n'
            f"  tc.matmul %A, %B to %D config #tc.gemm_config<{config}> {{{options}}} : memref<{m}x{k}xbf16>, memref<{k}x{n}xbf16>, memref<{m}x{n}xbf16>\n"
            "  func.return\n}\n")


def simulate(ctas: int, tiles: int, kt: int, groups: int, seed: int) -> dict[int, list[tuple[int, int]]]:
    """Runs the walk as the kernel does, units finishing in a random order: each partial
    unit writes its slot and adds its steps to its counter; the unit that completes Kt
    sums the slots of its group's CTAs p_first .. p_first + count - 1 (consecutive from
    slot(p_first)). Returns, per tile, the (K step range) pieces summed for it, in order."""
    rng = random.Random(seed)
    slots: dict[int, tuple[int, int, int]] = {}  # slot -> (tile, k_lo, steps)
    counters: dict[int, int] = {}
    done: dict[int, list[tuple[int, int]]] = {}
    pending = [(c, u) for c in range(ctas) for u in units(c, ctas, tiles, kt, groups)]
    rng.shuffle(pending)
    for c, u in pending:
        if u.steps == kt:
            assert u.tile not in done
            done[u.tile] = [(0, kt)]
            continue
        assert u.stream is not None
        s = slot(c, u.stream, ctas, tiles, groups)
        assert s not in slots, "two units share a slot"
        slots[s] = (u.tile, u.k_lo, u.steps)
        i = counter(c, u.stream, ctas, tiles, groups)
        counters[i] = counters.get(i, 0) + u.steps
        if counters[i] == kt:  # this unit completes the tile: it sums the slots
            first, count = contributors(u.stream, ctas, tiles, kt, groups)
            base = slot(first * groups + c % groups, u.stream, ctas, tiles, groups)
            pieces = [slots[base + j] for j in range(count)]
            assert all(p[0] == u.tile for p in pieces)
            done[u.tile] = [(lo, lo + n) for _, lo, n in pieces]
            counters[i] = 0
    assert all(v == 0 for v in counters.values()), "a counter is left non-zero for the next launch"
    per = ctas // groups
    assert max(slots, default=-1) < groups * (per + stream_tiles(tiles // groups, per))
    return done


@settings(max_examples=300, deadline=None)
@given(groups=st.sampled_from([1, 2, 3, 4, 8]), per_group=st.integers(1, 40), sms=st.integers(1, 140),
       kt=st.integers(1, 300), seed=st.integers(0, 10**6))
def test_every_k_step_of_every_tile_is_summed_once_in_k_order(groups, per_group, sms, kt, seed) -> None:
    tiles = groups * per_group
    ctas = min(sms, tiles * kt)  # the launcher's grid: at most one CTA per K step
    if ctas < groups:
        return
    done = simulate(ctas, tiles, kt, groups, seed)
    assert sorted(done) == list(range(tiles))
    for pieces in done.values():  # K order: consecutive ranges from 0 to Kt
        assert pieces[0][0] == 0 and pieces[-1][1] == kt
        assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))


def test_the_walk_is_data_parallel_first_and_shares_one_to_two_waves() -> None:
    # 800 tiles on 132 SMs: five whole waves, then 140 tiles shared
    assert dp_waves(800, 132) == 5 and stream_tiles(800, 132) == 140
    first = units(0, 132, 800, 80)
    assert [u.tile for u in first[:5]] == [0, 132, 264, 396, 528] and all(u.steps == 80 for u in first[:5])
    # fewer tiles than CTAs: no whole wave; each CTA takes 56 x 256 / 132 = 108 or 109 steps
    steps = [sum(u.steps for u in units(c, 132, 56, 256)) for c in range(132)]
    assert set(steps) == {108, 109} and sum(steps) == 56 * 256
    # groups: CTA c is CTA c / G of group c mod G, whose tiles are g, g + G, ...
    assert {u.tile % 2 for u in units(5, 132, 56, 256, 2)} == {1}
    assert units(131, 131, 56, 256, 2) == []  # the last C mod G CTAs have nothing
    # the same CTA of each group takes the same K steps of the same tile column
    a, b = units(10, 132, 56, 256, 2), units(11, 132, 56, 256, 2)
    assert [(u.tile // 2, u.k_lo, u.steps) for u in a] == [(u.tile // 2, u.k_lo, u.steps) for u in b]


def test_workspace_holds_every_slot_and_counter() -> None:
    for ctas, tiles, groups in ((132, 56, 1), (132, 56, 2), (132, 800, 1), (17, 24, 8), (1, 1, 1)):
        per = ctas // groups
        r = stream_tiles(tiles // groups, per)
        assert workspace_bytes(ctas, tiles, 1000, groups) >= groups * (per + r) * 1000 + 4 * groups * r
        assert workspace_bytes(ctas, tiles, 1000, groups) % 16 == 0
    info = WorkspaceInfo(131072, 1, stream_k_tiles=56, stream_k_groups=2)
    assert info.bytes(132) == workspace_bytes(132, 56, 131072, 2)


def test_problems() -> None:
    assert stream_k_problem(56, 256) is None and stream_k_problem(56, 256, 2) is None
    assert "must divide the 56 tiles" in (stream_k_problem(56, 256, 3) or "")
    assert "1 to 16" in (stream_k_problem(64, 4, 17) or "")
    assert "32-bit" in (stream_k_problem(2**20, 2**12) or "")
    s = GemmSchedule("warp_specialized", True, stream_k=2)
    assert s.problem() is None and s.entries() == ["warp_specialized", "persistent", "stream_k = 2"]
    for bad, why in ((GemmSchedule("warp_specialized", False, stream_k=1), "needs a persistent walk"),
                     (GemmSchedule("warp_specialized", True, stream_k=1, cluster=2), "does not go with cluster = 2"),
                     (GemmSchedule("warp_specialized", True, stream_k=1, mma_depth=2), "does not go with mma_depth = 2")):
        problem = bad.problem()
        assert problem is not None and problem[0] == "stream_k" and why in problem[1]


@needs_ptxas
def test_contract_grid_and_ptx() -> None:
    (kernel,) = compile_source(_op(256, 7168, 16384, "stream_k = 2"), "g.mlir", assemble=True)
    info = kernel.info
    assert info.version == STREAM_K_VERSION == 3
    assert info.launch_grid[0] == PersistentGrid(56, 56 * 256)
    assert info.workspace == WorkspaceInfo(128 * 256 * 4, 1, stream_k_tiles=56, stream_k_groups=2)
    assert KernelInfo.from_json(info.to_json()) == info
    assert launch_grid(info, 132) == (132, 1, 1)
    assert "stream-K" in kernel.ptx and "atom.acq_rel.gpu.global.add.u32" in kernel.ptx
    assert kernel.cubin  # assembled by ptxas (no error)
    with pytest.raises(RunError, match="stream-K in 2 groups of CTAs, but this GPU takes 1 CTAs at once"):
        launch_grid(info, 1)  # a group without a CTA would leave its tiles unwritten
    # one K step per tile on 2 tiles: at most 2 CTAs, however many SMs
    (small,) = compile_source(_op(129, 64, 64, "stream_k = 1", "bm = 128, bn = 128, bk = 64, stages = 2"), "s.mlir")
    assert launch_grid(small.info, 132) == (2, 1, 1)


def test_contract_versions_are_checked() -> None:
    (kernel,) = compile_source(_op(256, 7168, 16384, "stream_k = 1"), "g.mlir")
    d = kernel.info.to_dict()
    d["version"] = 2
    with pytest.raises(KernelInfoError, match="version 2 has no stream-K workspace: it is version 3's"):
        KernelInfo.from_dict(d)
    d["version"] = 3
    d["workspace"] = {**d["workspace"], "stream_k_groups": 5}
    with pytest.raises(KernelInfoError, match="groups dividing the tiles"):
        KernelInfo.from_dict(d)


def test_the_tuner_times_stream_k_per_tile_and_per_tile_row() -> None:
    assert stream_k_groups(256, 7168, 16384, GemmConfig(128, 256, 64, 4)) == (1, 2)
    assert stream_k_groups(4096, 4096, 4096, GemmConfig(128, 256, 64, 4)) == (1,)  # 32 tile rows: no groups
    assert stream_k_groups(256, 7168, 16384, GemmConfig(128, 256, 64, 4), batch=2) == (1,)
    found = {c.label() for c in candidates(256, 7168, 16384, "bf16", "bf16", "f32")}
    assert {"128x256x64/4 stream_k=1", "128x256x64/4 stream_k=2"} <= found
    assert not any("stream_k" in c.label() for c in candidates(256, 7168, 16384, "f16", "f16", "f16"))  # f16 accumulator
