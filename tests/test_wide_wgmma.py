"""Tiles wider than one wgmma (N = 256): a consumer warpgroup of a 128 x 320 tile issues two
wgmmas per K-slice into two runs of its accumulator registers, B's descriptor start moved by
whole swizzle atoms (layout/gemm.py `wgmma_parts`, passes/to_ptx/gemm/wgmma.py
`wgmma_split`). The GPU checks are the GEMM sweep's `wide_wgmma` subset."""

from __future__ import annotations

import re

import pytest

from lower_tc.layout.gemm import GemmConfig, config_problem, wgmma_parts
from lower_tc.layout.gemm_choice import choose_config
from lower_tc.layout.targets import Arch
from lower_tc.lowering.api.matmul_program import Matrix, matmul_program
from lower_tc.lowering.compile import compile_source


def test_the_parts_are_as_even_as_b_s_atoms_allow() -> None:
    assert wgmma_parts(256, 64) == (256,) and wgmma_parts(200, 8) == (200,)
    assert wgmma_parts(320, 8) == (160, 160)  # K-major B: 8-row atoms
    assert wgmma_parts(320, 64) == (192, 128)  # MN-major B, 128-byte swizzle: 64-column atoms
    assert wgmma_parts(320, 32) == (160, 160)  # MN-major B, 64-byte swizzle: 32-column atoms
    with pytest.raises(ValueError, match="does not split"):
        wgmma_parts(330, 8)  # not whole n8 blocks


def test_a_320_wide_tile_takes_at_most_two_consumer_warpgroups() -> None:
    assert config_problem(GemmConfig(128, 320, 64, 3), "bf16", "bf16", "f32") is None
    assert config_problem(GemmConfig(64, 320, 64, 4), "e4m3", "e4m3", "f32") is None
    why = config_problem(GemmConfig(192, 320, 64, 2), "bf16", "bf16", "f32")
    assert why is not None and "at most 2 consumer warpgroups" in why
    why = config_problem(GemmConfig(128, 288, 64, 3), "bf16", "bf16", "f32")
    assert why is not None and "or 320" in why
    # 4 stages of 56 KiB fit the 227 KiB, 5 do not
    assert config_problem(GemmConfig(128, 320, 64, 4), "bf16", "bf16", "f32") is None
    assert "shared memory" in (config_problem(GemmConfig(128, 320, 64, 5), "bf16", "bf16", "f32") or "")
    # fp8's promoted accumulation holds two accumulators: not at this width
    from lower_tc.layout.fp8_accumulation import promoted_problem
    assert promoted_problem("e4m3", "e4m3", "f32", 128, 320) is not None


@pytest.mark.parametrize("b_mn_major", [False, True])
def test_one_wave_of_128x320_tiles_computes_llama_70b_qkv_at_m_512(b_mn_major: bool) -> None:
    """M = 512, N = 10240: 4 x 32 = 128 tiles of 128 x 320, one wave, as cuBLAS computes it;
    on the H200 103% of cuBLAS with B row-major where the swapped 128 x 176 ran 94%, 102%
    (B the weight) where 128 x 160 persistent ran 100%
    (docs/results/gemm_tune_wide_wgmma_h200.md)."""
    c = choose_config(512, 10240, 8192, "bf16", "bf16", "f32", Arch.SM90A, b_mn_major=b_mn_major)
    assert (c.bm, c.bn) == (128, 320) and c.tiles(512, 10240) == 128


def _kernel(b_row_major: bool, bk_type: str = "bf16") -> str:
    bk = 64 if bk_type == "bf16" else 128
    source = matmul_program("wide", Matrix(1000, 2000, bk_type, True), Matrix(2000, 4088, bk_type, b_row_major),
                            Matrix(1000, 4088, "bf16", True), None, acc="f32", config=(128, 320, bk, 3))
    return compile_source(source, "wide.mlir", assemble=True)[0].ptx


@pytest.mark.parametrize("b_row_major, parts, b16", [(False, (160, 160), 160 * 128 // 16), (True, (192, 128), 3 * 8 * 1024 // 16)])
def test_each_k_slice_issues_the_parts_into_runs_of_the_accumulator(b_row_major: bool, parts: tuple[int, int], b16: int) -> None:
    """Per K-slice, one wgmma per part: the first into registers 0 .. n0/2 - 1, the second
    into the next n1/2, B's descriptor the first's plus the part's offset: 160 rows of 128
    bytes (K-major) or 3 atoms of 64 columns x 8 K-rows (1024 bytes each) times BK / 8 = 8
    atoms along K (MN-major, atoms K-first). The ring's 4 K-slices give 8 wgmmas a stage."""
    ptx = _kernel(b_row_major)
    mmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.bf16\.bf16\s*\{([^}]*)\},\s*(%rd\d+),\s*(%rd\d+)", ptx)
    assert [int(n) for n, *_ in mmas] == list(parts) * 4
    first, second = mmas[0], mmas[1]
    regs = lambda text: [int(r) for r in re.findall(r"%f(\d+)", text)]  # noqa: E731
    assert regs(first[1]) == list(range(parts[0] // 2))
    assert regs(second[1]) == list(range(parts[0] // 2, 160))
    assert first[2] == second[2], "both parts read the same A"
    add = re.search(rf"add\.s64 {re.escape(second[3])}, {re.escape(first[3])}, (\d+);", ptx)
    assert add is not None and int(add.group(1)) == b16


def test_fp8_and_one_warpgroup_take_it_too() -> None:
    ptx = _kernel(False, "e4m3")
    assert re.findall(r"wgmma\.mma_async\.sync\.aligned\.(m64n\d+k32)", ptx)[:2] == ["m64n160k32", "m64n160k32"]
    source = matmul_program("narrow", Matrix(200, 300, "bf16", True), Matrix(300, 1000, "bf16", False),
                            Matrix(200, 1000, "bf16", True), None, acc="f32", config=(64, 320, 64, 4))
    ptx = compile_source(source, "one.mlir", assemble=True)[0].ptx
    assert len(re.findall(r"wgmma\.mma_async", ptx)) == 8


def test_the_measured_one_wave_price_needs_a_k_major_a() -> None:
    """ONE_WAVE_K_MAJOR_A: 128 x 112 rings were measured with A K-major. A column-major A
    (MN-major) keeps 128 x 128 at deepseek-v3's o_proj M = 256; a swapped kernel's A (B^T)
    is K-major where B is nn.Linear's weight, so `swap_ab = true` there takes 128 x 112 as
    the unswapped kernel does, and 128 x 128 where B is row-major."""
    from lower_tc.layout.gemm_choice import choose, swapped_tile

    assert (choose(256, 7168, 16384, "bf16", "bf16", "f32").config.bn) == 112
    assert (choose(256, 7168, 16384, "bf16", "bf16", "f32", a_mn_major=True).config.bn) == 128
    weight = swapped_tile(7168, 256, 16384, "bf16", "bf16", "f32", d="bf16", staged=True, b_mn_major=False)
    rows = swapped_tile(7168, 256, 16384, "bf16", "bf16", "f32", d="bf16", staged=True, b_mn_major=True)
    assert (weight.bm, weight.bn) == (128, 112) and (rows.bm, rows.bn) == (128, 128)


def test_a_spread_sum_takes_a_320_wide_tile_and_at_most_32_ranks() -> None:
    """A global split of 128 x 320 tiles spreads (40 8-column groups, 5 a slice of 8); the
    tile's word holds a given-up bit for at most 32 ranks."""
    from lower_tc.passes.to_ptx.gemm.split_k_global import SPREAD_MAX_SPLIT, spread_slice, spreads

    assert spreads((64, 1, 1), 8, 0, 320) and [len(spread_slice(q, 8, 320)) for q in range(8)] == [5] * 8
    assert SPREAD_MAX_SPLIT == 32 and not spreads((64, 1, 1), 64, 0, 1024)
    source = matmul_program("spread", Matrix(512, 32768, "bf16", True), Matrix(32768, 640, "bf16", False),
                            Matrix(512, 640, "bf16", True), None, acc="f32", config=(128, 320, 64, 4),
                            options='split_k = 8, reduce = "global"')
    ptx = compile_source(source, "spread.mlir", assemble=True)[0].ptx
    assert "spread split-K" in ptx and ptx.count("atom.acq_rel.gpu.global.cas.b64") == 1
