"""fp8's overlapped promotion (passes/to_ptx/gemm/wgmma.py `Wgmma.steps`) run through a
simulator of the CTA's PTX (tests/gemm_ring_sim.py): every stage waited for and released
once per fill, never released or overwritten while MMAs read it, every step's sums added
into the total once; K steps of one to ten (the groups of four and the last 1 to 3),
persistent CTAs walking several tiles, clusters of 2 sharing B, K known at launch. The
same checks catch the protocol's plausible mistakes (the mutants below); on the GPU,
bench/gemm_sweep.py's promoted rows check the numbers."""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT
from gemm_ring_sim import Fail, analyse
from lower_tc.lowering.compile import compile_source

sys.path.insert(0, str(ROOT / "bench"))
from gemm_sweep import GemmCase  # noqa: E402

PROMOTED = 'accumulation = "promoted"'


def _ptx(shape: tuple[int, int, int], config: tuple[int, int, int, int], options: str = PROMOTED, **kw: object) -> str:
    case = GemmCase("e4m3", "e4m3", "f32", "bf16", *shape, True, False, config, options=options, **kw)  # type: ignore[arg-type]
    ptx = compile_source(case.source(), case.name)[0].ptx
    assert "overlapped promotion" in ptx
    return ptx


@pytest.mark.parametrize("k", [128, 256, 384, 512, 640, 7 * 128 - 5, 10 * 128])
def test_each_count_of_steps(k: int) -> None:
    for fills, releases, tiles in analyse(_ptx((200, 136, k), (64, 128, 128, 4)), seeds=(0, 1, 2)):
        assert fills == releases == -(-k // 128) and [len(t) for t in tiles] == [-(-k // 128)]


def test_persistent_ctas_walk_several_tiles() -> None:
    ptx = _ptx((200, 136, 9 * 128), (64, 128, 128, 4), f'{PROMOTED}, schedule = "warp_specialized", persistent = true')
    for fills, releases, tiles in analyse(ptx, nctaid=1, seeds=(0, 1)):
        assert len(tiles) == 8 and all(len(t) == 9 for t in tiles) and fills == releases == 72


def test_a_cluster_releases_on_both_ctas() -> None:
    for fills, releases, tiles in analyse(_ptx((256, 512, 640), (64, 128, 128, 4), f"{PROMOTED}, cluster = 2"), seeds=(0, 1)):
        assert releases == 2 * fills == 10 and [len(t) for t in tiles] == [5]


@pytest.mark.parametrize("k", [100, 384, 700, 1024])
def test_k_known_at_launch(k: int) -> None:
    ptx = _ptx((200, 136, 1024), (64, 128, 128, 4), dynamic=True)
    params = {"p_A_rows": 200, "p_A_cols": k, "p_A_ld": 1024, "p_B_rows": k, "p_B_cols": 136, "p_B_ld": 1024,
              "p_D_rows": 200, "p_D_cols": 136, "p_D_ld": 136}
    for fills, _, tiles in analyse(ptx, seeds=(0, 1), params=params):
        assert fills == -(-k // 128) and [len(t) for t in tiles] == [-(-k // 128)]


def _mutants(ptx: str) -> dict[str, str]:
    """The protocol's plausible mistakes, each a small edit of a right kernel's PTX."""
    wait = ptx.index("wgmma.wait_group.sync.aligned 1;")
    arrive = ptx.index("mbarrier.arrive", wait)
    line_end = ptx.index("\n", arrive) + 1
    release = ptx[arrive:line_end]
    first_add = ptx.index("add.f32", wait)
    return {
        "a deeper wait": ptx.replace("wgmma.wait_group.sync.aligned 1;", "wgmma.wait_group.sync.aligned 2;", 1),
        "a release dropped": ptx[:arrive] + "// dropped\n" + ptx[line_end:],
        "a release doubled": ptx[:line_end] + release + ptx[line_end:],
        "the running step's run added": ptx[:first_add] + ptx[first_add:].replace(", %f0;", ", %f128;", 1),
        "a release before the wait": ptx[:wait] + release + ptx[wait:arrive] + ptx[line_end:],
    }


@pytest.mark.parametrize("name", ["a deeper wait", "a release dropped", "a release doubled", "the running step's run added",
                                  "a release before the wait"])
def test_the_simulator_catches_the_protocols_mistakes(name: str) -> None:
    ptx = _ptx((200, 136, 10 * 128), (64, 128, 128, 3))
    analyse(ptx, seeds=(0, 1))  # the right kernel passes
    with pytest.raises((Fail, AssertionError)):
        analyse(_mutants(ptx)[name], seeds=(0, 1, 2, 3))
