"""Whole-GEMM pieces without a GPU: configurations, the ring's descriptors (checked by the
emulator against the layout), TMA box plans, the D check, the pipelined PTX assembled by
ptxas with its SASS, and the GEMM sweep's CI slice. On an H100, GEMMs are run too."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from lower_tc.layout import Arch, TileLayout, emulate_reads
from lower_tc.layout.gemm import GemmConfig, config_problem, ring_k_slices, ring_stride
from lower_tc.layout.gemm_choice import choose_config, prefer_swap, wide_swap
from lower_tc.layout.gemm_model import H100
from lower_tc.layout.kernel_info import GemmInfo, GridFromArg, PersistentGrid
from lower_tc.layout.tma import tma_plan
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.gemm_check import check_gemm, sample
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import EXPECTED_SASS, check_sass, disassemble, find_disassembler

sys.path.insert(0, str(ROOT / "bench"))
from gemm_sweep import GemmCase, cases, tcgen05_ws_cases  # noqa: E402

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")


# -- configurations -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("m", "n", "a", "acc", "bk"),
    [
        (4096, 4096, "bf16", "f32", 64),
        (50, 4096, "bf16", "f32", 64),
        (4096, 40, "f16", "f16", 64),
        (4096, 128, "f16", "f32", 64),
        (4096, 4096, "e4m3", "f32", 128),
        (4096, 4096, "tf32", "f32", 32),
        (4096, 4096, "s8", "s32", 128),
    ],
)
def test_chooser_takes_a_k_step_of_one_swizzle_row(m, n, a, acc, bk) -> None:
    got = choose_config(m, n, 1024, a, a, acc)
    assert got.bk == bk
    assert config_problem(got, a, a, acc) is None
    assert got.bm <= -(-m // 64) * 64 and got.bn <= -(-n // 64) * 64  # no tile mostly empty


@pytest.mark.parametrize(
    ("config", "a", "acc", "needle"),
    [
        (GemmConfig(96, 128, 64, 4), "bf16", "f32", "BM = 96"),
        (GemmConfig(320, 128, 64, 2), "bf16", "f32", "BM = 320"),
        (GemmConfig(128, 264, 64, 2), "bf16", "f32", "BN = 264"),
        (GemmConfig(128, 40, 64, 2), "s8", "s32", "BN = 40"),
        (GemmConfig(128, 128, 24, 2), "bf16", "f32", "BK = 24"),
        (GemmConfig(128, 128, 16, 2), "e4m3", "f32", "BK = 16"),
        (GemmConfig(128, 128, 64, 1), "bf16", "f32", "at least 2"),
        (GemmConfig(128, 128, 64, 2), "bf16", "f16", "accumulates in f32"),
        (GemmConfig(256, 256, 64, 4), "bf16", "f32", "262208 bytes of shared memory"),
    ],
)
def test_each_rule_has_its_reason(config, a, acc, needle) -> None:
    problem = config_problem(config, a, a, acc)
    assert problem is not None and needle in problem


def test_smem_counts_stages_and_barriers() -> None:
    c = GemmConfig(128, 256, 64, 3)
    assert c.stage_bytes("bf16", "bf16") == (128 * 64 + 256 * 64) * 2
    assert c.smem_bytes("bf16", "bf16") == 3 * 49152 + 3 * 16
    assert c.warpgroups == 2 and c.threads == 256


# -- the ring's descriptors, read back by the emulator --------------------------------------

RING_LAYOUTS = [
    ("bf16", 128, 64, "k", "128b", "mn_first"),
    ("bf16", 128, 64, "mn", "128b", "k_first"),
    ("f16", 64, 128, "mn", "128b", "k_first"),
    ("e4m3", 128, 128, "k", "128b", "mn_first"),
    ("tf32", 128, 32, "k", "128b", "mn_first"),
    ("s8", 192, 64, "k", "64b", "mn_first"),
    ("bf16", 256, 32, "mn", "64b", "k_first"),
]


@pytest.mark.parametrize("spec", RING_LAYOUTS, ids=lambda s: "-".join(map(str, s)))
def test_every_stage_and_warpgroup_slice_reads_its_elements(spec) -> None:
    dtype, mn, k, major, swizzle, order = spec
    layout = TileLayout.make(dtype, mn, k, major, swizzle, order, address=0x4000)
    stages, blocks = 3, mn // 64
    slices = ring_k_slices(layout, Arch.SM90A, stages, blocks)
    assert len(slices) == stages * blocks * (k // layout.dtype.k_per_instruction)
    stride = ring_stride(layout.footprint)
    rows = np.arange(64)[:, None]
    for sl in slices:
        reads = emulate_reads(sl.descriptor.encode(), Arch.SM90A, layout.dtype.bits, major == "mn", 64)
        cols = sl.k + np.arange(reads.shape[1])[None, :]
        want = layout.addresses(64 * sl.block + rows, cols) + sl.stage * stride
        assert np.array_equal(reads, want), (sl.stage, sl.block, sl.k)


def test_ring_stride_keeps_the_swizzle_phase() -> None:
    assert ring_stride(16384) == 16384
    assert ring_stride(16400) == 17408
    assert ring_stride(1) == 1024


# -- TMA plans ------------------------------------------------------------------------------


@pytest.mark.parametrize("parts", [1, 2])
@pytest.mark.parametrize("spec", RING_LAYOUTS, ids=lambda s: "-".join(map(str, s)))
def test_tma_boxes_cover_the_tile_once(spec, parts) -> None:
    """Every element once, each box row after row from its offset; with parts = 2 (a
    cluster's CTAs sharing the boxes) an even number of boxes where the tile has two or
    more atom rows along its outer dimension."""
    dtype, mn, k, major, swizzle, order = spec
    layout = TileLayout.make(dtype, mn, k, major, swizzle, order)
    plan = tma_plan(layout, parts)
    if parts > 1 and plan.box[1] > layout.atom_shape[0 if major == "k" else 1]:
        assert len(plan.boxes) % parts == 0
    if parts > 1 and len(tma_plan(layout).boxes) % parts == 0:
        assert plan == tma_plan(layout)  # already shareable: the same plan
    inner, outer = plan.box
    assert inner * layout.dtype.bits // 8 == layout.swizzle.row_bytes  # one swizzle row
    assert outer <= 256
    covered = []
    for box in plan.boxes:
        i, o = np.meshgrid(np.arange(inner), np.arange(outer), indexing="ij")
        ci, co = box.inner + i, box.outer + o
        mn_i, k_i = (co, ci) if major == "k" else (ci, co)
        lin = layout.linear_addresses(mn_i, k_i)
        # the box is written contiguously, row after row, from its smem offset
        expect = box.smem_offset + (o * inner + i) * layout.dtype.bits // 8
        assert np.array_equal(lin, expect)
        covered.append((mn_i * k + k_i).ravel())
    every = np.sort(np.concatenate(covered))
    assert np.array_equal(every, np.arange(mn * k))
    assert plan.bytes == mn * k * layout.dtype.bits // 8


# -- the D check ------------------------------------------------------------------------------


def _problem(m, n, k, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(-1, 1, (m, k)), rng.uniform(-1, 1, (k, n))
    return {"a": a, "b": b}, a @ b


GEMM = GemmInfo(a=0, b=1, d=2, c=None, m=300, n=200, k=64, acc="f32", config=GemmConfig(128, 128, 64, 3))


def test_check_passes_the_right_product_and_catches_one_wrong_element() -> None:
    ops, d = _problem(300, 200, 64)
    rng = np.random.default_rng(1)
    worst, bad, checked, missing, tol = check_gemm(GEMM, ops, d.copy(), "f32", "bf16", 1e-4, rng)
    assert (bad, missing, checked) == (0, 0, 300 * 200) and worst < 1e-12
    wrong = d.copy()
    wrong[299, 199] += 0.5
    assert check_gemm(GEMM, ops, wrong, "f32", "bf16", 1e-4, rng)[1] == 1
    unwritten = d.copy()
    unwritten[17, 3] = np.nan
    worst, bad, checked, missing, _ = check_gemm(GEMM, ops, unwritten, "f32", "bf16", 1e-4, rng)
    assert missing == 1 and bad == 1 and worst == np.inf


def test_bf16_output_rounding_is_in_the_tolerance() -> None:
    ops, d = _problem(64, 64, 64)
    _, _, _, _, tol = check_gemm(replace(GEMM, m=64, n=64), ops, d, "bf16", "bf16", 1e-4, np.random.default_rng(0))
    assert tol == pytest.approx(1e-4 + 2.0**-8)


def test_large_problems_sample_edges_and_points() -> None:
    s = sample(np.random.default_rng(0), 4097, 4095, 4099, 128, 256)
    assert not s.full
    assert {0, 4096, 4096 // 128 * 128} <= set(s.rows.tolist())
    assert {0, 4094, 4094 // 256 * 256} <= set(s.cols.tolist())
    assert len(s.points[0]) >= 4096
    small = sample(np.random.default_rng(0), 1000, 1000, 1000, 128, 128)
    assert small.full


# -- sizes known at launch ----------------------------------------------------------------------


def _dynamic_info():
    return compile_source((ROOT / "examples" / "gemm_bf16_dynamic.mlir").read_text(), "dyn.mlir")[0].info


def test_dynamic_sizes_are_parameters_resolved_at_launch() -> None:
    from lower_tc.lowering.runtime.sizes import resolve_sizes

    info = _dynamic_info()
    assert info.args[0].shape == (None, None) and info.gemm.m is None
    assert [p.param for p in info.size_params][:3] == ["p_A_rows", "p_A_cols", "p_A_ld"]
    assert info.grid[0] == GridFromArg(arg=2, dim=1, tile=256)  # 128x256 tiles
    got = resolve_sizes(info, {"A": (1000, 1000, 1008), "B": (1000, 904, None), "D": (1000, 904, None)})
    assert got.grid == (4, 8, 1)
    assert got.args[0].strides == (1008, 1)
    assert got.tensor_maps[0].global_dims == (1000, 1000)
    assert got.tensor_maps[0].global_strides == (2016,)
    assert [p.value for p in got.size_params] == [1000, 1000, 1008, 1000, 904, 904, 1000, 904, 904]
    assert (got.gemm.m, got.gemm.n, got.gemm.k) == (1000, 904, 1000)
    assert info.args[0].shape == (None, None)  # the compiled metadata is untouched
    assert got.static and not info.static


@pytest.mark.parametrize(
    ("shapes", "needle"),
    [
        ({"A": (64, 64, None), "B": (64, 64, None)}, "give them with --shape D="),
        ({"A": (64, 100, None), "B": (100, 64, None), "D": (64, 64, None)}, "TMA needs a multiple of 16"),
        ({"A": (64, 64, None), "B": (72, 64, None), "D": (64, 64, None)}, "do not make a GEMM"),
        ({"A": (64, 64, 32), "B": (64, 64, None), "D": (64, 64, None)}, "less than the contiguous extent"),
        ({"A": (64, 64, None), "B": (64, 64, None), "D": (64, 64, None), "E": (1, 1, None)}, "names no argument"),
    ],
)
def test_wrong_launch_sizes_are_refused(shapes, needle) -> None:
    from lower_tc.lowering.runtime.errors import ShapeError
    from lower_tc.lowering.runtime.sizes import resolve_sizes

    with pytest.raises(ShapeError, match=needle):
        resolve_sizes(_dynamic_info(), shapes)


def test_shape_option_syntax() -> None:
    from lower_tc.lowering.runtime.errors import ShapeError
    from lower_tc.lowering.runtime.sizes import parse_shape

    assert parse_shape("A=4096x1024") == ("A", (4096, 1024, None))
    assert parse_shape("%B=8x16@24") == ("B", (8, 16, 24))
    for bad in ("A", "A=4096", "A=0x4", "A=4x4@x"):
        with pytest.raises(ShapeError):
            parse_shape(bad)


# -- compiled kernels ---------------------------------------------------------------------------


def _sass(kernel):
    if find_disassembler() is None:
        pytest.skip("no nvdisasm/cuobjdump: pip install 'lower-tc[test]'")
    return disassemble(kernel.cubin)


#: The CI slice's rows that the default swaps for their row-major B (layout/gemm_choice.py
#: `wide_swap`), pinned: 3000 x 5000 x 4000 with B row-major and a 16-bit D prices 128 x 240
#: tiles of D^T faster than the MN-major B's widths; the others keep the plain kernel (B
#: K-major, a C, an f32 D, fp8, batches, a given configuration or option).
WIDE_SWAPPED_CI = {"bf16xbf16_f32_bf16_NN_3000x5000x4000_auto", "f16xf16_f32_f16_NN_3000x5000x4000_auto"}


def test_the_pinned_wide_swaps_are_the_choosers() -> None:
    """WIDE_SWAPPED_CI is what `wide_swap` says of those rows (its inputs as the pass gives
    them), so a change of the model shows here and in the slice test below."""
    for case in cases("ci"):
        if case.name in WIDE_SWAPPED_CI:
            assert wide_swap(case.m, case.n, case.k, case.a, case.b, case.acc, d=case.d, b_mn_major=case.b_row,
                             a_mn_major=not case.a_row, with_c=case.with_c) is not None, case.name


@needs_ptxas
@pytest.mark.parametrize("case", cases("ci"), ids=lambda c: c.name)
def test_ci_slice_of_the_gemm_sweep_assembles(case: GemmCase) -> None:
    """Every configuration of the CI slice compiles, assembles without serialised wgmma
    (the backend refuses that warning) and has its MMA and TMA in the SASS."""
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    key = {"bf16": "wgmma.bf16", "f16": "wgmma.f16", "tf32": "wgmma.tf32", "e4m3": "wgmma.e4m3", "e5m2": "wgmma.e5m2", "s8": "wgmma.s8"}[case.a]
    assert check_sass(_sass(kernel), [*EXPECTED_SASS[key], *EXPECTED_SASS["tma"]]) == []
    from lower_tc.lowering.runtime.sizes import resolve_sizes

    info = resolve_sizes(kernel.info, case.shapes())  # sizes known at launch: as the runner does
    gemm = info.gemm
    # swapped (D^T = B^T A^T) where asked, and by default at a decoding shape of one matrix or
    # where the model prices a row-major B swapped faster (`wide_swap`)
    open_ = ("swap_ab" not in case.options and case.config is None and not case.batch and not case.dynamic
             and case.target == "sm_90a" and not any(o in case.options for o in ("split_k", "stream_k", "cluster = 2")))
    wide = case.name in WIDE_SWAPPED_CI
    swapped = "swap_ab = true" in case.options or (open_ and prefer_swap(case.m, case.n) and 'epilogue = "tma"' not in case.options) or wide
    assert gemm.d_transposed == swapped
    m, n = (case.n, case.m) if swapped else (case.m, case.n)
    assert (gemm.m, gemm.n, gemm.k) == (m, n, case.k)
    assert gemm.batched == (case.batch > 0) and gemm.batch == max(case.batch, 1)
    c = gemm.config
    batch = max(case.batch, 1)  # a batched GEMM: the batch as grid z, or its tiles after each other on x
    tiles = (-(-n // c.bn), -(-m // c.bm), batch)
    raster = info.grid == (tiles[0] * tiles[1] * batch, 1, 1)  # the grouped order: a 1-d grid
    persistent = info.grid == (PersistentGrid(tiles[0] * tiles[1] * batch), 1, 1)  # sized at launch
    # stream-K: persistent, up to one CTA per K step of every tile (layout/stream_k.py)
    steps = tiles[0] * tiles[1] * batch * -(-case.k // c.bk)
    streamed = info.grid == (PersistentGrid(tiles[0] * tiles[1] * batch, steps), 1, 1)
    assert streamed == ("stream_k" in case.options)
    # split-K: S CTAs a tile, a cluster's along x beside the tiles or the global split's
    # consecutive on a 1-d grid
    split = gemm.split_k > 1 and info.grid in ((tiles[0] * gemm.split_k, tiles[1], batch),
                                                (tiles[0] * tiles[1] * batch * gemm.split_k, 1, 1))
    assert (gemm.split_k > 1) == ("split_k" in case.options and "split_k = 1," not in case.options + ",")
    assert info.grid == tiles or raster or persistent or streamed or split
    # persistent where asked, and by default where warp-specialised, rastered, static and
    # more than one wave of tiles (layout/gemm_choice.py prefer_persistent)
    by_default = "persistent" not in case.options and not case.dynamic and '"pipelined"' not in case.options and "raster = 0" not in case.options and c.bm <= 128 \
        and tiles[0] * tiles[1] * batch > H100.sms and not streamed and gemm.split_k == 1  # a split kernel is not persistent
    assert persistent == ("persistent = true" in case.options or by_default)
    specialized = "setmaxnreg" in kernel.ptx  # a producer warpgroup more
    assert info.threads == 128 * (c.bm // 64 + specialized)


TCGEN05_SASS = {"bf16": "tcgen05.f16", "f16": "tcgen05.f16", "tf32": "tcgen05.tf32", "e4m3": "tcgen05.f8f6f4", "e5m2": "tcgen05.f8f6f4", "s8": "tcgen05.i8"}


@needs_ptxas
@pytest.mark.parametrize("case", cases("tcgen05-ci"), ids=lambda c: c.name)
def test_ci_slice_of_the_tcgen05_gemm_assembles(case: GemmCase) -> None:
    """tcgen05 GEMMs cannot run here (no Blackwell GPU): each of the CI slice is assembled
    for sm_100a and its SASS has the kind's UTC*MMA, the TMA loads and the tensor-memory
    loads of the epilogue (LDTM)."""
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    assert kernel.info.target == "sm_100a" and kernel.info.threads == 128
    sass = _sass(kernel)
    assert check_sass(sass, [*EXPECTED_SASS[TCGEN05_SASS[case.a]], *EXPECTED_SASS["tma"], "LDTM"]) == []


@needs_ptxas
@pytest.mark.parametrize("case", tcgen05_ws_cases()[::23], ids=lambda c: c.name)
def test_ci_slice_of_the_warp_specialized_tcgen05_gemm_assembles(case: GemmCase) -> None:
    """The warp-specialised tcgen05 GEMM (asked for; not run: no Blackwell GPU): 256 threads,
    persistent where asked, and in the SASS the kind's UTC*MMA, the TMA loads, the commits
    (UTCBAR), the elected MMA thread (ELECT) and the epilogue's tensor-memory loads."""
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    info = kernel.info
    assert info.target == "sm_100a" and info.threads == 256
    assert isinstance(info.grid[0], PersistentGrid) == ("persistent = true" in case.options)
    assert "elect.sync" in kernel.ptx and kernel.ptx.count("tcgen05.commit") == 2
    sass = _sass(kernel)
    assert check_sass(sass, [*EXPECTED_SASS[TCGEN05_SASS[case.a]], *EXPECTED_SASS["tma"], "LDTM", "UTCBAR", "ELECT"]) == []


@needs_ptxas
def test_serialized_wgmma_is_an_error() -> None:
    """ptxas's 'wgmma ... serialized' warning fails the build: an accumulator register
    touched between the MMAs of one group (here a mov into the fragment)."""
    from lower_tc.lowering.backend.ptxas import BackendError, assemble

    kernel = compile_source((ROOT / "examples" / "gemm_bf16_loop.mlir").read_text(), "gemm_bf16_loop.mlir")[0]
    ptx = kernel.ptx
    first = ptx.index("wgmma.mma_async")
    second = ptx.index("wgmma.mma_async", first + 1)
    broken = ptx[:second] + "\tmov.f32 %f0, 0f3F800000;\n" + ptx[second:]
    with pytest.raises(BackendError, match="serialized"):
        assemble(broken, "sm_90a")


def test_the_loop_level_example_round_trips() -> None:
    """The hand-written loop level parses, prints and parses again unchanged."""
    from lower_tc.lowering.compile import parse

    text = (ROOT / "examples" / "gemm_bf16_loop.mlir").read_text()
    _, module = parse(text, "loop.mlir")
    printed = str(module)
    _, again = parse(printed, "again.mlir")
    assert str(again) == printed
    assert "tc.window_load %A[%m0, %k] to %a as a" in printed


# -- on the GPU ------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(129, 65, 33), (1000, 1000, 1000), (300, 520, 40)])
@pytest.mark.parametrize("types", [("bf16", "f32", "bf16", True), ("f16", "f16", "f16", False), ("e4m3", "f32", "f32", False), ("s8", "s32", "s32", False)])
def test_gemm_runs_right_on_the_gpu(shape, types, require_gpu) -> None:
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    a, acc, d, b_row = types
    case = GemmCase(a, a, acc, d, *shape, True, b_row, None, with_c=shape[0] == 1000)
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    for seed in (1, 2):
        result = run_kernel(kernel, seed)
        assert result.passed, result.summary()


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(1000, 1000, 1000), (72, 200, 40), (2048, 1920, 256)])
@pytest.mark.parametrize("options", ['epilogue = "tma", schedule = "pipelined", raster = 0', 'epilogue = "tma", persistent = true', 'epilogue = "registers", persistent = true', "mma_depth = 2"])
def test_both_epilogues_run_right_on_the_gpu(shape, options, require_gpu) -> None:
    """The TMA-store epilogue clips ragged tiles at D's edge by itself; the persistent
    kernel reuses its staging pieces tile after tile."""
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    case = GemmCase("bf16", "bf16", "f32", "bf16", *shape, True, True, None, options=options)
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    assert ("stmatrix" in kernel.ptx) == ('"registers"' not in options)  # the TMA stores unless asked not to
    result = run_kernel(kernel, 4)
    assert result.passed, result.summary()


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(256, 512, 128), (1000, 1000, 1000)])
@pytest.mark.parametrize("options", ["cluster = 2", "cluster = 2, persistent = false"])
def test_clusters_of_two_run_right_on_the_gpu(shape, options, require_gpu) -> None:
    """CTA pairs multicast B; rank 1's shared addresses carry its rank (bit 24), which the
    descriptors must mask off (wrong columns 64 and up, before that was found)."""
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    case = GemmCase("bf16", "bf16", "f32", "bf16", *shape, True, True, None, options=options)
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    assert ".multicast::cluster" in kernel.ptx and kernel.info.cluster == (2, 1, 1)
    for seed in (1, 2):
        result = run_kernel(kernel, seed)
        assert result.passed, result.summary()


@pytest.mark.gpu
def test_a_loop_level_grid_past_d_stores_nothing_outside_it(require_gpu) -> None:
    """The loop-level example with f32 D and one tile row of CTAs too many: the CTAs of
    row 32 compute rows 4096-4223, which the bounds-checked stores must not write (before
    the grid was analysed, the checks were dropped because 4096 is a multiple of 128 and
    those rows landed past D's end); the rows inside D are right."""
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    text = (ROOT / "examples" / "gemm_bf16_loop.mlir").read_text()
    text = text.replace("tc.grid = [16, 32, 1]", "tc.grid = [16, 33, 1]")
    text = text.replace("%D: memref<4096x4096xbf16>", "%D: memref<4096x4096xf32>")
    text = text.replace("!tc.acc<128x256xf32>, memref<4096x4096xbf16>", "!tc.acc<128x256xf32>, memref<4096x4096xf32>")
    kernel = compile_source(text, "loop_past_d.mlir", assemble=True)[0]
    assert "$L_outside_d_" in kernel.ptx and kernel.info.grid == (16, 33, 1)
    result = run_kernel(kernel, 3)
    assert result.passed and result.stray == 0, result.summary()


@pytest.mark.gpu
def test_a_wrong_byte_count_is_caught_by_the_time_limit(require_gpu, tmp_path: Path) -> None:
    """An expect_tx count the boxes do not reach leaves the "full" barrier incomplete for
    ever: the runner must report the hang in time (in its own process: a hung kernel
    leaves its context unusable)."""
    import subprocess

    require_gpu("sm_90a")
    script = tmp_path / "hang.py"
    script.write_text(
        "import sys\n"
        "from lower_tc.lowering.compile import compile_source\n"
        "from lower_tc.lowering.runtime.errors import KernelError\n"
        "from lower_tc.lowering.runtime.run import run_kernel\n"
        f"src = open({str(ROOT / 'examples' / 'gemm_bf16.mlir')!r}).read()\n"
        "k = compile_source(src, 'g.mlir')[0]\n"
        "assert ', 49152;' in k.ptx  # 16 KiB of A and 32 KiB of B per stage\n"
        "k.ptx = k.ptx.replace(', 49152;', ', 49168;')  # 16 bytes TMA never delivers\n"
        "from lower_tc.lowering.backend.ptxas import assemble\n"
        "k.cubin = assemble(k.ptx, 'sm_90a')\n"
        "try:\n"
        "    run_kernel(k, 1, timeout=3.0)\n"
        "except KernelError as err:\n"
        "    print('caught:', err); sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "did not finish within 3 s" in proc.stdout


# -- schedules --------------------------------------------------------------------------------


def test_setmaxnreg_budget_fits_the_sm() -> None:
    """The consumers grow only by what the producer gives back (setmaxnreg.inc waits for
    released registers: four consumers asking for more hung on the H100), and every thread's
    registers fit the SM's 65536 at entry and after."""
    from lower_tc.passes.to_ptx.gemm.specialized import PRODUCER_REGISTERS, consumer_registers, entry_registers

    for warpgroups in (1, 2, 3, 4):
        cap, grown = entry_registers(warpgroups), consumer_registers(warpgroups)
        threads = 128 * (warpgroups + 1)
        assert cap % 8 == 0 and grown % 8 == 0 and 24 <= PRODUCER_REGISTERS <= cap <= grown <= 256
        assert cap * threads <= 65536 and cap <= 255  # ptxas ignores a larger .maxnreg
        assert 128 * PRODUCER_REGISTERS + 128 * warpgroups * grown <= 65536
        assert 128 * warpgroups * (grown - cap) <= 128 * (cap - PRODUCER_REGISTERS)
    assert (entry_registers(2), consumer_registers(2)) == (168, 232)
    assert (entry_registers(1), consumer_registers(1)) == (248, 256)


@needs_ptxas
def test_one_consumer_kernel_caps_its_registers_where_ptxas_honours_it() -> None:
    """A warp-specialised kernel with one consumer warpgroup (BM = 64) is capped at 248 at
    entry: ptxas ignores a `.maxnreg` above 255 with a warning, and setmaxnreg would then run
    under no cap at entry."""
    import subprocess
    import tempfile

    case = GemmCase("bf16", "bf16", "f32", "bf16", 256, 256, 512, True, False, (64, 128, 128, 8), options='schedule = "warp_specialized"')
    kernel = compile_source(case.source(), case.name)[0]
    assert "setmaxnreg.inc.sync.aligned.u32 256;" in kernel.ptx and "\n.maxnreg 248\n" in kernel.ptx
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.ptx"
        src.write_text(kernel.ptx)
        proc = subprocess.run([str(find_tool("ptxas")), "-arch=sm_90a", str(src), "-o", str(Path(tmp) / "k.cubin")],
                              capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "maxnreg" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_defaults_are_warp_specialised_with_raster_where_sizes_are_known() -> None:
    from lower_tc.layout.gemm import DEFAULT_RASTER, default_schedule

    assert default_schedule(4096, 4096, GemmConfig(128, 256, 64, 4)) == ("warp_specialized", DEFAULT_RASTER)
    assert default_schedule(None, 4096, GemmConfig(128, 256, 64, 4)) == ("warp_specialized", 0)
    assert default_schedule(4096, 4096, GemmConfig(192, 128, 64, 4)) == ("pipelined", DEFAULT_RASTER)


@pytest.mark.parametrize(("options", "needle"), [({"schedule": "eager"}, "schedule=eager"), ({"raster": -2}, "raster=-2"), ({"epilogue": "fast"}, "epilogue=fast")])
def test_bad_expand_options_are_refused_before_any_input(options, needle) -> None:
    from lower_tc.passes.expand_matmul import ExpandMatmulPass

    with pytest.raises(ValueError, match=needle):
        ExpandMatmulPass(**options)


def test_raster_visits_every_tile_once() -> None:
    """The grouped order of tc-expand-matmul, evaluated for every CTA of a ragged grid, is a
    permutation of the tiles (no tile twice, none left out)."""

    from lower_tc.lowering.compile import parse
    from lower_tc.passes.expand_matmul import ExpandMatmulPass
    from xdsl.dialects import arith, gpu

    case = GemmCase("bf16", "bf16", "f32", "bf16", 1000, 3000, 64, True, True, (128, 256, 128, 2), options='raster = 3')
    ctx, module = parse(case.source(), "r.mlir")
    ExpandMatmulPass().apply(ctx, module)
    ops = [o for o in module.walk() if isinstance(o, (gpu.BlockIdOp, arith.ConstantOp, arith.MuliOp, arith.AddiOp, arith.SubiOp, arith.DivUIOp, arith.RemUIOp, arith.MinUIOp))]
    grid = [a.value.data for a in next(o for o in module.walk() if "tc.grid" in o.attributes).attributes["tc.grid"].data]
    tiles_m, tiles_n = -(-1000 // 128), -(-3000 // 256)
    assert grid == [tiles_m * tiles_n, 1, 1]
    folds = {arith.MuliOp: lambda a, b: a * b, arith.AddiOp: lambda a, b: a + b, arith.SubiOp: lambda a, b: a - b,
             arith.DivUIOp: lambda a, b: a // b, arith.RemUIOp: lambda a, b: a % b, arith.MinUIOp: min}
    seen = set()
    for pid in range(grid[0]):
        value = {}
        for o in ops:
            if isinstance(o, gpu.BlockIdOp):
                value[o.result] = pid
            elif isinstance(o, arith.ConstantOp):
                value[o.result] = o.value.value.data
            else:
                value[o.result] = folds[type(o)](value[o.lhs], value[o.rhs])
        names = {v.name_hint: value[v] for v in value if v.name_hint in ("m0", "n0")}
        seen.add((names["m0"], names["n0"]))
    assert seen == {(128 * i, 256 * j) for i in range(tiles_m) for j in range(tiles_n)}
