"""Split-K without a GPU (tests/test_split_k_gpu.py runs it): the partial tile's layout is
free of bank conflicts, the K slices take every K step once, which S a configuration
allows, the K-range check of the lowering, the grid known at launch, the op and the loop
level's forms, and a matrix of kernels (types x transposes x S x ragged x sizes at launch x
batches x schedules) that ptxas assembles with no spill and no local memory, with the
cluster launch, the rank-ordered reduction and both cluster barriers in the PTX."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest
from xdsl.utils.exceptions import VerifyException

from conftest import ROOT
from lower_tc.layout import Arch
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import GridFromArg, grid_entry_from_json, grid_entry_to_json
from lower_tc.layout.split_k import k_slice, partial_bytes, partial_pitch, split_k_problem, valid_split_k
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import disassemble, find_disassembler, sass_opcodes
from lower_tc.lowering.compile import compile_source
from lower_tc.passes.to_ptx.gemm.k_slices import _cover_problem

sys.path.insert(0, str(ROOT / "bench"))
from gemm_sweep import GemmCase, split_k_cases, split_k_default_cases  # noqa: E402

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")


# -- the partial tile and the K slices (layout/split_k.py) ---------------------------------------


def _banks(addresses: list[int], width: int) -> int:
    """The wavefronts shared memory needs for one access phase: the most distinct 4-byte
    words any bank is asked for (each access `width` bytes)."""
    words: dict[int, set[int]] = {}
    for a in addresses:
        for w in range(a // 4, (a + width) // 4):
            words.setdefault(w % 32, set()).add(w)
    return max(len(ws) for ws in words.values())


@pytest.mark.parametrize("bn", [8, 16, 24, 64, 128, 192, 256])
def test_fragment_stores_are_free_of_bank_conflicts(bn: int) -> None:
    """A warp's st.shared.v2 of its fragment (rows g and columns 8i + 2q, lane = 4g + q)
    goes in two half-warp phases; each phase's 16 x 8 bytes hit every bank once."""
    pitch = partial_pitch(bn)
    assert pitch >= 4 * bn and pitch % 16 == 0 and pitch % 128 == 32
    for i in range(bn // 8):
        for half in (range(16), range(16, 32)):
            addresses = [(lane // 4) * pitch + 32 * i + 8 * (lane % 4) for lane in half]
            assert _banks(addresses, 8) == 1


@pytest.mark.parametrize("bn", [64, 128, 256])
def test_reduction_loads_are_free_of_bank_conflicts(bn: int) -> None:
    """The reduction's ld.shared::cluster.v4: thread t reads row t / (BN / 4), 16 bytes at
    column 4 (t mod BN / 4); each quarter-warp phase (8 x 16 bytes) hits every bank once."""
    pitch, per_row = partial_pitch(bn), bn // 4
    for first in range(0, 256, 8):
        addresses = [(t // per_row) * pitch + 16 * (t % per_row) for t in range(first, first + 8)]
        assert _banks(addresses, 16) == 1


@pytest.mark.parametrize("split_k", range(2, 9))
def test_the_slices_take_every_k_tile_once_in_rank_order(split_k: int) -> None:
    for tiles in range(0, 70):
        slices = [k_slice(r, tiles, split_k) for r in range(split_k)]
        assert slices[0][0] == 0 and slices[-1][1] == tiles
        assert all(a[1] == b[0] for a, b in zip(slices, slices[1:]))
        sizes = [hi - lo for lo, hi in slices]
        assert max(sizes) - min(sizes) <= 1  # balanced


def test_which_split_k_a_configuration_allows() -> None:
    config = GemmConfig(128, 128, 64, 4)
    assert valid_split_k(config, "bf16", "bf16", 65536) == (2, 3, 4, 5, 6, 7, 8)
    assert valid_split_k(config, "bf16", "bf16", 200) == (2, 3, 4)  # 4 K tiles
    assert valid_split_k(config, "bf16", "bf16", None) == (2, 3, 4, 5, 6, 7, 8)  # K at launch: empty slices are fine
    assert valid_split_k(GemmConfig(256, 256, 64, 2), "bf16", "bf16", 65536) == ()
    assert valid_split_k(config, "bf16", "bf16", 65536, Arch.SM100A) == ()
    assert partial_bytes(128, 128) == 128 * 544
    why = split_k_problem(2, GemmConfig(256, 256, 64, 2), "bf16", "bf16", 4096)
    assert why is not None and "270336 bytes" in why and "232448" in why
    why = split_k_problem(9, config, "bf16", "bf16", 4096)
    assert why is not None and "1 to 8" in why


def test_the_cover_check() -> None:
    assert _cover_problem([(0, 128), (128, 256), (256, 320)], 300, 64) is None  # the last step ragged
    assert _cover_problem([(0, 0), (0, 0), (0, 64)], 40, 64) is None  # empty slices
    assert "taken twice" in (_cover_problem([(0, 128), (64, 256)], 256, 64) or "")
    assert "no CTA" in (_cover_problem([(0, 64), (128, 256)], 256, 64) or "")
    assert "end at" in (_cover_problem([(0, 64), (64, 128)], 256, 64) or "")


def test_a_grid_known_at_launch_counts_its_clusters() -> None:
    entry = GridFromArg(2, 1, 128, 4)
    assert grid_entry_to_json(entry) == {"arg": 2, "dim": 1, "tile": 128, "times": 4}
    assert grid_entry_from_json(grid_entry_to_json(entry)) == entry
    assert grid_entry_to_json(GridFromArg(2, 1, 128)) == {"arg": 2, "dim": 1, "tile": 128}  # as before
    assert entry.count(129) == 8 and entry.count(128) == 4


# -- the op and the loop level -----------------------------------------------------------------


def test_the_store_and_the_schedule_print_and_parse() -> None:
    from xdsl.dialects.builtin import StringAttr

    from lower_tc.dialects.tc_gemm import WindowStoreOp
    from lower_tc.dialects.tc_schedule import GemmSchedule, GemmScheduleAttr
    from test_gemm_options import parse, printed

    _, module = parse((ROOT / "examples" / "gemm_bf16_split_k_loop.mlir").read_text())
    out = printed(module)
    assert "reduce cluster : !tc.acc<128x128xf32>" in out and "#tc.gemm_schedule<warp_specialized, split_k = 8>" in out
    store = next(op for op in module.walk() if isinstance(op, WindowStoreOp))
    assert store.reduces
    store.properties["reduce"] = StringAttr("warp")  # an op built in Python: the verifier refuses it
    with pytest.raises(VerifyException, match="reduces over the cluster"):
        store.verify()
    attr = GemmScheduleAttr.from_schedule(GemmSchedule("pipelined", split_k=3))
    assert attr.value.split_k == 3 and attr.value.entries() == ["pipelined", "split_k = 3"]
    with pytest.raises(VerifyException, match="split_k = 2 does not go with persistent"):
        GemmScheduleAttr.from_schedule(GemmSchedule("warp_specialized", persistent=True, split_k=2)).verify()


def test_static_split_k_is_not_persistent_and_launches_clusters() -> None:
    case = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 65536, True, True, (128, 128, 128, 4), options="split_k = 8")
    t0 = time.perf_counter()
    kernel = compile_source(case.source(), case.name)[0]
    assert time.perf_counter() - t0 < 1.0  # lowering a GEMM stays under 1 s
    info = kernel.info
    assert info.cluster == (8, 1, 1) and info.grid == (128, 1, 1) and info.threads == 384
    assert info.gemm is not None and info.gemm.split_k == 8 and '"split_k": 8' in info.to_json()
    assert type(info).from_json(info.to_json()) == info
    assert ".reqnctapercluster 8, 1, 1" in kernel.ptx


# -- the default: the chooser splits K where the cost model says so ----------------------------


def _default_kernel(m: int, n: int, k: int, options: str = "", dtype: str = "bf16", config=None):
    case = GemmCase(dtype, dtype, "f32", "bf16", m, n, k, True, False, config, options=options)
    return compile_source(case.source(), case.name)[0].info


def test_the_default_splits_a_long_k_and_says_so_in_the_contract() -> None:
    """512 x 512 x 65536: 16 tiles of 128 x 128 would leave 116 SMs idle; the default
    splits each tile's K over 8 CTAs through global memory (a cluster's split fits only 17
    clusters of 6 or 15 of 8 on an H100, layout/gemm_model.py; measured faster on the
    long-K shapes: docs/results/tune_split_k_global_h100.md), in one wave, its CTAs paired
    in clusters of 2 sharing B (layout/gemm_choice.py `paired_split`)."""
    info = _default_kernel(512, 512, 65536)
    g = info.gemm
    assert g is not None and g.split_k > 1 and g.reduce == "global" and info.cluster == (2, 1, 1)
    assert info.workspace is not None and info.workspace.split_k == g.split_k and info.version == 4
    assert info.workspace.partial_bytes == g.config.bm * g.config.bn * 4
    tiles = -(-512 // g.config.bm) * -(-512 // g.config.bn)
    from lower_tc.layout.gemm_model import H100
    assert tiles * g.split_k <= H100.sms  # one wave of CTAs
    assert isinstance(info.grid[0], int) and info.grid[0] == tiles * g.split_k


def _split_as_it_says(info) -> bool:
    """The kernel is split over K, through a cluster ([S, 1, 1]) or through global memory
    (a workspace; no cluster, or pairs of CTAs sharing B), as its contract says."""
    g = info.gemm
    if g is None or g.split_k == 1:
        return False
    if g.reduce == "global":
        return info.cluster in (None, (2, 1, 1)) and info.workspace is not None and info.workspace.split_k == g.split_k
    return info.cluster == (g.split_k, 1, 1) and info.workspace is None


@pytest.mark.parametrize("case", split_k_default_cases(), ids=lambda c: c.name)
def test_the_sweeps_default_rows_are_split(case: GemmCase) -> None:
    """The sweep's default rows of split-K (bench/gemm_sweep.py) are split by the chooser:
    if the cost model changes, these rows still run what they are there for."""
    info = compile_source(case.source(), case.name)[0].info
    assert _split_as_it_says(info)


def test_the_default_keeps_a_large_square_whole() -> None:
    info = _default_kernel(4096, 4096, 4096)
    assert info.gemm is not None and info.gemm.split_k == 1 and info.cluster is None


@pytest.mark.parametrize("options", ["persistent = true", "epilogue = \"tma\"", "split_k = 1", "mma_depth = 5"])
def test_what_rules_split_k_out_keeps_the_default_whole(options: str) -> None:
    """An op that asks for what split-K does not go with (or for split_k = 1) is not split."""
    info = _default_kernel(512, 512, 65536, options)
    assert info.gemm is not None and info.gemm.split_k == 1 and info.cluster is None


def test_a_given_configuration_is_not_split_unless_asked() -> None:
    info = _default_kernel(512, 512, 65536, config=(128, 128, 64, 4))
    assert info.gemm is not None and info.gemm.split_k == 1
    info = _default_kernel(512, 512, 65536, "split_k = 4", config=(128, 128, 64, 4))
    assert info.gemm is not None and info.gemm.split_k == 4


def test_the_pass_told_to_store_by_tma_keeps_the_default_whole() -> None:
    import lower_tc

    case = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 65536, True, False, None)
    for epilogue, split in (("tma", False), ("registers", True)):
        module = lower_tc.parse(case.source(), case.name)
        lower_tc.run_passes(module, lower_tc.default_pipeline(**{"tc-expand-matmul": {"epilogue": epilogue}}))
        (kernel,) = lower_tc.kernels(module)
        assert kernel.info.gemm is not None and (kernel.info.gemm.split_k > 1) is split, epilogue


def test_the_remark_names_the_split() -> None:
    case = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 65536, True, False, None)
    path_text = case.source()
    done = subprocess.run([sys.executable, "-m", "lower_tc.lowering.cli", "-", "-t", "mlir", "-p", "tc-expand-matmul{remarks=true}"],
                          input=path_text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.search(r"remark: 128x\d+x64, \d stages \(.*, split over K by \d+ through global memory, paired in clusters of 2 "
                     r"sharing B\) for 512x512x65536 \(chosen\)",
                     done.stderr), done.stderr


# -- the matrix: assembled, no spills, no local memory ------------------------------------------


def _matrix() -> list[GemmCase]:
    """Every type (S = 2, 4, 8; the first 12 rows), then every fifth of the transposes,
    options, fixed configurations, C, sizes known at launch, batches and the shapes split-K
    is for: a quarter of the sweep's rows (CI's time; the sweep runs them all on the GPU)."""
    cases = [c for c in split_k_cases() if "split_k" in c.options and "global" not in c.options]  # the default's rows: below
    return cases[:12] + cases[12::5]


@needs_ptxas
@pytest.mark.parametrize("case", _matrix(), ids=lambda c: c.name)
def test_the_matrix_assembles_without_spills(case: GemmCase) -> None:
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    ptx, split = kernel.ptx, int(re.search(r"split_k = (\d)", case.options).group(1))  # type: ignore[union-attr]
    assert f".reqnctapercluster {split}, 1, 1" in ptx and kernel.info.cluster == (split, 1, 1)
    # the cluster's barriers: the partials written (consumers; the producers too when
    # warp-specialised) and the exit
    specialized = "setmaxnreg" in ptx
    assert ptx.count("barrier.cluster.arrive.release;") == (3 if specialized else 2)
    ranks = re.findall(r"mov\.u32 %r(\d+), (\d+);\n\tmapa\.shared::cluster\.u32 %r\d+, %r\d+, %r\1;", ptx)
    assert [int(r) for _, r in ranks] == list(range(split))  # ranks 0 .. S-1, in order
    assert "ld.shared::cluster.v4." in ptx
    proc = subprocess.run([str(find_tool("ptxas")), "-arch=sm_90a", "-v", "-", "-o", "/dev/null"], input=ptx,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"\b0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads", proc.stderr), proc.stderr
    if find_disassembler() is not None:
        ops = sass_opcodes(disassemble(kernel.cubin))
        assert not [o for o in ops if o.startswith(("LDL", "STL"))]
        assert any(o.startswith("LD.E.128") for o in ops)  # the 16-byte loads of the peers' partials
