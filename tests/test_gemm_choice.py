"""The default chooser's cost model (layout/gemm_model.py, layout/gemm_choice.py) and the
tuner's candidates (layout/gemm_tuning.py): what each must do for the shapes that motivated
them (issue 22's suite, measured in docs/results/gemm_tune_h100.md)."""

from __future__ import annotations

import pytest

from lower_tc.layout.gemm import GemmConfig, config_problem, rule_config
from lower_tc.layout.gemm_choice import (MAX_STAGES, STAGED_MAX_STAGES, WIDE_BNS, choose_config, prefer_persistent, staged_depth,
                                         tile_configs, unsplit_options)
from lower_tc.layout.gemm_model import H100, estimate
from lower_tc.layout.gemm_tuning import candidates
from lower_tc.layout.targets import Arch


def test_large_squares_keep_the_widest_tiles() -> None:
    for s in (4096, 6144, 16384):
        c = choose_config(s, s, s, "bf16", "bf16", "f32")
        assert (c.bm, c.stages) == (128, 4) and c.bn >= 192


def test_a_last_wave_a_fifth_full_is_avoided() -> None:
    """3072^3: 128x256 tiles make 288 CTAs (2.2 waves of 132); 128x192 make 384 (2.9)."""
    big = estimate(3072, 3072, 3072, GemmConfig(128, 256, 64, 4), "bf16", "bf16")
    mid = estimate(3072, 3072, 3072, GemmConfig(128, 192, 64, 4), "bf16", "bf16")
    assert (big.ctas, big.waves, mid.ctas, mid.waves) == (288, 3, 384, 3)
    assert choose_config(3072, 3072, 3072, "bf16", "bf16", "f32") == GemmConfig(128, 192, 64, 4)


@pytest.mark.parametrize("m,n,k", [(512, 512, 512), (1024, 1024, 1024), (1, 4096, 11008), (64, 4096, 14336), (128, 1536, 7168)])
def test_few_tiles_get_small_tiles_with_deep_rings(m: int, n: int, k: int) -> None:
    c = choose_config(m, n, k, "bf16", "bf16", "f32")
    assert c.bm == 64 and c.bn <= 128 and c.stages == MAX_STAGES
    assert estimate(m, n, k, c, "bf16", "bf16").ctas <= H100.sms  # one wave: more would not help
    assert not prefer_persistent(m, n, c)


def test_a_ring_deeper_than_k_is_not_chosen_for_depth() -> None:
    """K = 64 is one step: 8 stages hold no more than 4."""
    c = choose_config(256, 256, 64, "bf16", "bf16", "f32")
    assert estimate(256, 256, 64, c, "bf16", "bf16").seconds == estimate(256, 256, 64, GemmConfig(c.bm, c.bn, c.bk, 4), "bf16", "bf16").seconds


def test_persistent_only_past_one_wave() -> None:
    c = GemmConfig(128, 256, 64, 4)
    assert not prefer_persistent(1024, 2048, c)  # 8 x 8 = 64 tiles
    assert prefer_persistent(4096, 4096, c)  # 512 tiles
    assert prefer_persistent(1024, 2048, c, batch=4)  # 256 tiles over the batch


@pytest.mark.parametrize("a,acc", [("bf16", "f32"), ("f16", "f16"), ("e4m3", "f32"), ("tf32", "f32"), ("s8", "s32")])
@pytest.mark.parametrize("m,n", [(1, 8), (100, 300), (4096, 4096)])
def test_every_choice_runs(a: str, acc: str, m: int, n: int) -> None:
    c = choose_config(m, n, 2048, a, a, acc, d="s32" if a == "s8" else "f32")
    assert config_problem(c, a, a, acc) is None
    assert c.bm <= max(64, -(-m // 64) * 64) and c.bn <= max(64, -(-n // 64) * 64)


def test_sizes_known_at_launch_and_sm100a_keep_the_rule() -> None:
    assert choose_config(None, 4096, 4096, "bf16", "bf16", "f32") == rule_config(None, 4096, 4096, "bf16", "bf16", "f32")
    assert choose_config(64, 64, 64, "bf16", "bf16", "f32", Arch.SM100A) == rule_config(64, 64, 64, "bf16", "bf16", "f32", Arch.SM100A)
    assert choose_config(4096, 4096, 4096, "bf16", "bf16", "f32", batch=None) == rule_config(4096, 4096, 4096, "bf16", "bf16", "f32")


def test_candidates_start_with_the_default_kernel_and_run() -> None:
    from lower_tc.layout.gemm_tuning import stream_k_groups

    m, n, k = 1000, 3000, 2048
    found = candidates(m, n, k, "bf16", "bf16", "f32")
    first = choose_config(m, n, k, "bf16", "bf16", "f32")
    assert found[0].config == first and found[0].option_dict == {"persistent": prefer_persistent(m, n, first)}
    configs = tile_configs(m, n, "bf16", "bf16", "f32")
    # the widths between and the deeper 128-row rings: timed unsplit only
    splittable = [c for c in configs if not (c.bm == 128 and (c.bn in WIDE_BNS or c.stages > 4))]
    assert len(splittable) < len(configs)
    # each tile persistent and not, and its last wave's tiles split after whole ones
    # (unsplit_options: 1000 x 3000 makes more than one wave of every tile)
    hybrids = [(c, s, f) for c in splittable for s, f in unsplit_options(m, n, k, c, "bf16", "bf16")]
    # and stream-K, one group and one per tile row (2 to 8 rows: layout/gemm_tuning.py)
    streams = [(c, g) for c in splittable for g in stream_k_groups(m, n, k, c)]
    assert {(c.config, c.option_dict["stream_k"]) for c in found if "stream_k" in c.option_dict} == set(streams)
    assert hybrids and len(found) == len(set(found)) == 2 * len(configs) + len(hybrids) + len(streams)
    assert {(c.config, c.option_dict.get("split_k"), c.option_dict.get("unsplit")) for c in found if "unsplit" in c.option_dict} == set(hybrids)
    assert all(config_problem(c.config, "bf16", "bf16", "f32") is None for c in found)
    assert {c.label() for c in found} >= {"128x256x64/4 persistent=True", "64x64x64/8 persistent=False"}


def test_few_tiles_get_the_deep_64_by_64_ring_as_candidates() -> None:
    """Under a wave of 64 x 64 tiles (q_a_proj, 48 tiles) the tuner also times them in 12
    stages, unsplit and split through global memory (the kernel that ran 98-103% there); not
    where they make waves, nor for a decoding GEMM (swapped), nor weighed by the default."""
    from lower_tc.layout.gemm_choice import few_tiles_ring, staging_fits

    deep = few_tiles_ring(128, 1536, "bf16", "bf16", "f32")
    assert deep == GemmConfig(64, 64, 64, 12) and staging_fits(deep, "bf16", "bf16")
    labels = {c.label() for c in candidates(128, 1536, 7168, "bf16", "bf16", "f32")}
    assert {"64x64x64/12 persistent=False", "64x64x64/12 persistent=False split_k=2 reduce=global"} <= labels
    assert not any("/12 " in c.label() and "split_k" in c.label() and "cluster" in c.label()
                   for c in candidates(128, 1536, 7168, "bf16", "bf16", "f32"))
    assert few_tiles_ring(4096, 4096, "bf16", "bf16", "f32") is None
    assert not any(c.config.stages == 12 for c in candidates(4096, 4096, 4096, "bf16", "bf16", "f32"))
    assert not any(c.config == GemmConfig(64, 64, 64, 12) for c in candidates(16, 4096, 4096, "bf16", "bf16", "f32"))
    assert choose_config(128, 1536, 7168, "bf16", "bf16", "f32").stages <= 8


def test_sm100a_candidates_vary_bn_only() -> None:
    found = candidates(4096, 4096, 4096, "bf16", "bf16", "f32", Arch.SM100A)
    assert {c.config.bm for c in found} == {128} and all(not c.options for c in found)
    assert all(config_problem(c.config, "bf16", "bf16", "f32", Arch.SM100A) is None for c in found)


# --- swap-AB (D^T = B^T A^T for decoding GEMMs) -----------------------------------------

from lower_tc.layout.gemm_choice import (SWAP_MAX_STAGES, SWAP_WIDE_K_MAX_N, SWAP_WIDE_K_STAGES,  # noqa: E402
                                         prefer_swap, swap_config)


@pytest.mark.parametrize(("m", "n", "batch", "want"), [
    (1, 6144, 1, True), (64, 1024, 1, True),
    (77, 4096, 1, True),  # the unswapped second 64-row tile would hold 13 rows
    (81, 6144, 1, False), (127, 6144, 1, False), (128, 1536, 1, False),  # past a decoding M
    (16, 1000, 1, False),  # N too small to fill the GPU with 64-row tiles
    (16, 6144, 4, False),  # a batch: D^T is not one view
])
def test_the_chooser_swaps_decoding_gemms(m: int, n: int, batch: int, want: bool) -> None:
    assert prefer_swap(m, n, batch) is want


def test_fp8_promoted_accumulation_is_swapped_too() -> None:
    """Its second accumulator is as small: the tuner's first (the default) kernel swaps."""
    first = candidates(16, 6144, 4096, "e4m3", "e4m3", "f32", promoted=True)[0]
    assert first.option_dict.get("swap_ab") is True and first.config == swap_config(16, 6144, "e4m3", "e4m3", "f32", promoted=True)


def test_the_swapped_tile_takes_64_rows_of_n_unless_they_make_more_than_a_wave() -> None:
    one_wave = swap_config(16, 6144, "bf16", "bf16", "f32")  # 96 tiles of 64 rows
    two_waves = swap_config(16, 10240, "bf16", "bf16", "f32")  # 160 tiles of 64 rows: 80 of 128
    assert (one_wave.bm, one_wave.bn) == (64, 16)
    assert (two_waves.bm, two_waves.bn) == (128, 16)


@pytest.mark.parametrize(("m", "dtype", "bk", "stages"), [
    (1, "bf16", 128, SWAP_WIDE_K_STAGES), (32, "bf16", 128, SWAP_WIDE_K_STAGES),  # 256-byte steps, 8 deep
    (64, "bf16", 128, 7),  # 64 x 64: 32 KiB a stage, 7 fit
    (16, "e4m3", 256, SWAP_WIDE_K_STAGES), (64, "tf32", 64, 7),
    (77, "bf16", 64, 12), (77, "e4m3", 128, 12),  # N' = 80: one 128-byte row a step, as deep as fits
])
def test_a_decoding_swapped_tile_steps_two_swizzle_rows_of_k_up_to_n_64(m: int, dtype: str, bk: int, stages: int) -> None:
    """Two 128-byte rows of K a stage in at most 8 stages ran 0.3-5.7% faster than one row
    12-16 deep on every decoding shape of the suite (H200); at N' = 80 it did not."""
    config = swap_config(m, 4096, dtype, dtype, "f32")
    assert (config.bk, config.stages) == (bk, stages)
    wide = config.bn <= SWAP_WIDE_K_MAX_N
    assert config.stages <= (SWAP_WIDE_K_STAGES if wide else SWAP_MAX_STAGES)
    assert config_problem(config, dtype, dtype, "f32") is None
    assert config_problem(GemmConfig(config.bm, config.bn, config.bk, config.stages + 1), dtype, dtype, "f32") \
        or config.stages == (SWAP_WIDE_K_STAGES if wide else SWAP_MAX_STAGES)  # the deepest ring that fits


@pytest.mark.parametrize(("dtype", "k", "split", "bk"), [
    ("bf16", 104, 2, 64),  # two-row steps would make one K step for two CTAs
    ("bf16", 129, 2, 128), ("bf16", 256, 4, 64), ("e4m3", 200, 2, 128), ("tf32", 60, 2, 32),
    ("bf16", 104, 1, 128),  # unsplit: a step past K is read as zeros
])
def test_a_split_swapped_tile_keeps_a_k_step_per_cta(dtype: str, k: int, split: int, bk: int) -> None:
    """Found by review: swap_ab with split_k = 2 at K = 104 compiled before the two-row
    steps and was refused after them (1 K tile for 2 CTAs)."""
    from lower_tc.layout.split_k import split_k_problem

    config = swap_config(16, 4096, dtype, dtype, "f32", k=k, split=split)
    assert config.bk == bk
    if split > 1:
        assert split_k_problem(split, config, dtype, dtype, k) is None


def test_fp8_promoted_swapped_tile_keeps_one_128_byte_step() -> None:
    """Promotion adds each K step's sums in f32 and holds a step of at most 128 fp8 products."""
    from lower_tc.layout.fp8_accumulation import PROMOTED_MAX_BK, promoted_problem

    config = swap_config(16, 4096, "e4m3", "e4m3", "f32", promoted=True)
    assert config.bk == PROMOTED_MAX_BK and config.stages == SWAP_MAX_STAGES
    assert promoted_problem("e4m3", "e4m3", "f32", config.bm, config.bn, config.bk) is None
    assert swap_config(16, 4096, "bf16", "bf16", "f32", promoted=True).bk == 128  # 16-bit: not promoted, unchanged


@pytest.mark.parametrize(("m", "n", "dtype", "promoted", "want"), [
    (8, 10240, "bf16", False, (128, 8, 256, 3)),  # 512-byte steps of 128 rows: 3 stages fit
    (16, 6144, "e4m3", False, (64, 16, 512, 5)),
    (64, 4096, "bf16", False, (64, 64, 256, 3)),
    (16, 6144, "e4m3", True, None),  # promoted: a step holds at most 128 products
    (77, 4096, "bf16", False, (64, 80, 128, 6)),
])
def test_the_tuner_tries_a_swapped_tile_in_k_steps_twice_as_long(m: int, n: int, dtype: str, promoted: bool, want) -> None:
    """A tuning candidate only: on the H200 it won 4-5% at some N and lost 1% at others."""
    from lower_tc.layout.gemm_choice import SWAP_LONGER_STEP_MIN_STAGES, swap_longer_step

    default = swap_config(m, n, dtype, dtype, "f32", promoted=promoted)
    longer = swap_longer_step(default, dtype, dtype, "f32", promoted)
    assert (None if longer is None else (longer.bm, longer.bn, longer.bk, longer.stages)) == want
    if longer is not None:
        assert longer.bk == 2 * default.bk and longer.stages >= SWAP_LONGER_STEP_MIN_STAGES
        assert config_problem(longer, dtype, dtype, "f32") is None
        assert config_problem(GemmConfig(longer.bm, longer.bn, longer.bk, longer.stages + 1), dtype, dtype, "f32") \
            or longer.stages == SWAP_WIDE_K_STAGES
        tried = candidates(m, n, 4096, dtype, dtype, "f32", promoted=promoted)
        assert any(c.config == longer and c.option_dict == {"swap_ab": True} for c in tried)
    else:
        assert not any(c.config.bk > default.bk for c in candidates(m, n, 4096, dtype, dtype, "f32", promoted=promoted)
                       if c.option_dict.get("swap_ab"))


@pytest.mark.parametrize(("m", "dtype", "bn"), [(1, "bf16", 8), (9, "bf16", 16), (33, "bf16", 40), (33, "s8", 48), (20, "s8", 24)])
def test_the_swapped_n_is_the_least_wgmma_n_holding_m(m: int, dtype: str, bn: int) -> None:
    acc = "s32" if dtype == "s8" else "f32"
    assert swap_config(m, 4096, dtype, dtype, acc).bn == bn


def test_the_tuner_tries_the_swapped_kernels_first_where_the_default_swaps() -> None:
    found = candidates(16, 6144, 4096, "bf16", "bf16", "f32")
    swapped = [c for c in found if c.option_dict.get("swap_ab")]
    assert found[0] == swapped[0] and found[0].config == swap_config(16, 6144, "bf16", "bf16", "f32")
    assert {(c.config.bm, c.config.bk, c.option_dict.get("split_k", 1)) for c in swapped} == {
        (64, 128, 1), (64, 128, 2), (128, 128, 1), (128, 128, 2), (64, 256, 1), (128, 256, 1)}  # and K steps twice as long
    assert any(not c.option_dict.get("swap_ab") for c in found)  # the unswapped ones follow
    assert not any(c.option_dict.get("swap_ab") for c in candidates(4096, 4096, 4096, "bf16", "bf16", "f32"))


def test_multicast_is_preferred_only_for_16_bit_mn_major_b_off_the_l2_lines() -> None:
    from lower_tc.layout.gemm_choice import L2_LINE_BYTES, prefer_multicast

    assert prefer_multicast(10000, True, 16)  # 5000 bf16 columns: 16 bytes past a line
    assert prefer_multicast(8208, True, 16)  # a padded ld of 4104
    assert not prefer_multicast(10240, True, 16)  # whole lines
    assert not prefer_multicast(4 * L2_LINE_BYTES, True, 16)
    assert not prefer_multicast(10000, False, 16)  # K-major B (nn.Linear's weight): a cluster shares only MN-major B
    assert not prefer_multicast(10000, True, 8)  # 8-bit B is K-major on Hopper
    assert not prefer_multicast(None, True, 16)  # ld known at launch


def test_multicast_fits_pairs_of_tile_rows_even_boxes_and_a_wave() -> None:
    from lower_tc.layout.gemm import GemmConfig
    from lower_tc.layout.gemm_choice import multicast_fits

    wide = GemmConfig(128, 256, 64, 4)
    assert multicast_fits(3000, 5000, wide, 16)  # 24 tile rows, 4 boxes, 480 tiles
    assert not multicast_fits(2049, 5000, wide, 16)  # 17 tile rows: one without a partner
    assert not multicast_fits(3000, 5000, GemmConfig(128, 192, 64, 4), 16)  # 3 boxes of B
    assert not multicast_fits(1000, 904, wide, 16)  # 32 tiles: under a wave of 132 SMs
    assert multicast_fits(1024, 4224, wide, 16)  # 8 x 17 = 136 tiles


def test_the_tuners_first_candidate_is_the_defaults_cluster_where_b_rows_are_off_the_lines() -> None:
    """B row-major with 10000-byte rows (5000 bf16 columns): the default pairs CTAs with the
    rule's 128 x 256 tile (layout/gemm_choice.py default_multicast), so the tuner tries that
    kernel first and the cost model's one-CTA tile after it; whole-line rows, a K-major B
    or a batch keep the one-CTA default first. (D in f32: with a 16-bit D this GEMM is
    swapped, `wide_swap`.)"""
    from lower_tc.layout.gemm_choice import default_multicast

    paired = default_multicast(3000, 5000, 4000, "bf16", "bf16", "f32", 10000, True)
    assert paired == GemmConfig(128, 256, 64, 4)
    first, second = candidates(3000, 5000, 4000, "bf16", "bf16", "f32", d="f32", b_row_bytes=10000, b_mn_major=True)[:2]
    assert first.config == paired and first.option_dict == {"cluster": 2, "persistent": True}
    assert second.config == choose_config(3000, 5000, 4000, "bf16", "bf16", "f32", b_mn_major=True) and "cluster" not in second.option_dict
    for rows, mn_major, batch in ((10240, True, 1), (10000, False, 1), (10000, True, 2)):
        assert default_multicast(3000, 5000, 4000, "bf16", "bf16", "f32", rows, mn_major, batch) is None
        assert "cluster" not in candidates(3000, 5000, 4000, "bf16", "bf16", "f32", d="f32", batch=batch, b_row_bytes=rows,
                                           b_mn_major=mn_major)[0].option_dict


# -- tiles as wide as make whole waves (WIDE_BNS) --------------------------------------------


def test_a_width_that_makes_whole_waves_is_chosen() -> None:
    """1536^3 in 128 x 144 tiles is 132 CTAs on 132 SMs (128 x 192 made 96: 86% of cuBLAS
    on the H200, 102% in 128 x 144); 5120^3 in 128 x 224 tiles makes 7 waves less 4 CTAs."""
    c = choose_config(1536, 1536, 1536, "bf16", "bf16", "f32")
    assert (c.bm, c.bn) == (128, 144) and c.tiles(1536, 1536) == H100.sms
    assert choose_config(5120, 5120, 5120, "e4m3", "e4m3", "f32").bn == 224
    # B row-major: 128 x 144 is a 32-byte swizzle's boxes there, not weighed
    assert choose_config(1536, 1536, 1536, "bf16", "bf16", "f32", b_mn_major=True) == GemmConfig(128, 192, 64, 4)


def test_wide_tiles_for_an_mn_major_b_are_whole_64_byte_swizzle_rows() -> None:
    kmajor = {(c.bn, c.stages) for c in tile_configs(4096, 4096, "bf16", "bf16", "f32") if c.bm == 128}
    mnmajor = {(c.bn, c.stages) for c in tile_configs(4096, 4096, "bf16", "bf16", "f32", b_mn_major=True) if c.bm == 128}
    assert {bn for bn, _ in kmajor} >= set(WIDE_BNS) | {128, 192, 256}
    assert {bn for bn, _ in mnmajor} - {64, 128, 192, 256} == {96, 160, 224, 320}
    assert (144, 5) in kmajor and (128, 6) in kmajor and (96, 6) in kmajor and (224, 4) in kmajor


@pytest.mark.parametrize("a", ["bf16", "e4m3"])
@pytest.mark.parametrize("bn", [128, *WIDE_BNS])
def test_the_staged_depth_leaves_room_for_the_tma_store_epilogue(a: str, bn: int) -> None:
    """The chooser's deeper rings must not push the kernel onto the register epilogue: the
    tile compiles to stmatrix pieces and TMA stores, no st.global, and one stage more would
    not leave the staging room (3 stages of the two-wgmma 128 x 320, 4 of the rest)."""
    from lower_tc.layout.epilogue import PIECE_ALIGN, staging_bytes
    from lower_tc.layout.limits import SMEM_CAPACITY
    from lower_tc.lowering.api.matmul_program import Matrix, matmul_program
    from lower_tc.lowering.compile import compile_source

    bk = 64 if a == "bf16" else 128
    config = staged_depth(128, bn, bk, a, a, "f32", Arch.SM90A)
    assert config is not None and (3 if bn > 256 else 4) <= config.stages <= STAGED_MAX_STAGES  # 320: 56 KiB a stage
    more = GemmConfig(128, bn, bk, config.stages + 1)
    if config.stages < STAGED_MAX_STAGES and config_problem(more, a, a, "f32") is None:
        start = -(-more.smem_bytes(a, a) // PIECE_ALIGN) * PIECE_ALIGN
        assert start + staging_bytes(2) > SMEM_CAPACITY
    source = matmul_program("wide", Matrix(1000, 2000, a, True), Matrix(2000, 1024, a, False), Matrix(1000, 1024, "bf16", True),
                            None, acc="f32", config=(128, bn, bk, config.stages))
    ptx = compile_source(source, "wide.mlir")[0].ptx
    assert "stmatrix" in ptx and "st.global" not in ptx


def test_stream_k_groups_and_a_given_split_narrow_the_choice() -> None:
    """stream_k = G asks for a tile count G divides (384 x 4096 x 4096 would otherwise get
    128 x 96, 129 tiles, which tc-expand-matmul refuses for G = 2); split_k given keeps the
    4-stage rings a split runs best with."""
    from lower_tc.layout.gemm_choice import choose

    free = choose(384, 4096, 4096, "bf16", "bf16", "f32", split=False)
    assert free.config.tiles(384, 4096) % 2 == 1
    paired = choose(384, 4096, 4096, "bf16", "bf16", "f32", split=False, groups=2)
    assert paired.config.tiles(384, 4096) % 2 == 0
    given = choose_config(2048, 1000, 8192, "bf16", "bf16", "f32", split_given=True)
    assert not (given.bm == 128 and given.stages > 4)


def test_a_row_major_b_is_swapped_where_the_model_prices_it_faster() -> None:
    """`wide_swap`: 1536^3 with B row-major is 96 tiles of 128 x 192 unswapped (the MN-major
    B's widths) and 132 of 128 x 144 swapped (12 x 11, B' = A^T K-major, with room for the
    staging pieces); the swapped key beats the plain one. Nothing swaps where the swap's
    TMA-store epilogue could not store D^T or B is not MN-major."""
    from lower_tc.layout.gemm_choice import staging_fits, wide_swap

    config = wide_swap(1536, 1536, 1536, "bf16", "bf16", "f32", d="bf16", b_mn_major=True)
    assert config == GemmConfig(128, 144, 64, 5) and config.tiles(1536, 1536) == 132
    assert staging_fits(config, "bf16", "bf16") and not staging_fits(GemmConfig(128, 144, 64, 6), "bf16", "bf16")
    assert choose_config(1536, 1536, 1536, "bf16", "bf16", "f32", b_mn_major=True) == GemmConfig(128, 192, 64, 4)
    # M = 127: both HBM-bound alike, the swapped tiles compute faster (no MN-major width)
    assert wide_swap(127, 11008, 4096, "bf16", "bf16", "f32", d="bf16", b_mn_major=True) == GemmConfig(128, 128, 64, 6)
    for kwargs in ({"b_mn_major": False}, {"a_mn_major": True}, {"with_c": True}, {"batch": 2}, {"d": "f32"}, {"d_row_major": False}):
        args = {"d": "bf16", "b_mn_major": True, **kwargs}
        assert wide_swap(1536, 1536, 1536, "bf16", "bf16", "f32", **args) is None, kwargs  # type: ignore[arg-type]
    assert wide_swap(1536, 1538, 1536, "bf16", "bf16", "f32", d="bf16", b_mn_major=True) is None  # D's rows: 3076 bytes
    assert wide_swap(64, 4096, 4096, "bf16", "bf16", "f32", d="bf16", b_mn_major=True) is None  # decoding: prefer_swap's
    assert wide_swap(1536, 1536, 1536, "e4m3", "e4m3", "f32", d="bf16", b_mn_major=True) is None  # 8-bit: K-major only
    # where the model prices the plain kernel faster or alike, it stays: 4096^3 (128 x 256 either way)
    assert wide_swap(4096, 4096, 4096, "bf16", "bf16", "f32", d="bf16", b_mn_major=True) is None
    assert wide_swap(128, 28672, 4096, "bf16", "bf16", "f32", d="bf16", b_mn_major=True) is None


def test_the_tuner_leads_with_the_wide_swap_and_its_other_swapped_tiles() -> None:
    found = candidates(1536, 1536, 1536, "bf16", "bf16", "f32", b_mn_major=True, b_row_bytes=3072)
    assert found[0].label() == "128x144x64/5 swap_ab=True"
    swapped = [c for c in found if c.option_dict.get("swap_ab")]
    assert all(c.config.bm == 128 for c in swapped) and len(swapped) > 8
    assert any(c.config == GemmConfig(128, 192, 64, 4) and not c.option_dict.get("swap_ab") for c in found)


def test_one_test_says_whether_d_can_be_stored_by_tma() -> None:
    """`tma_store_problem` is the lowering's and the chooser's one test: a row-major D's
    rows and a column-major D's columns (swap-AB's D^T) must end on 16-byte chunks, the
    leading dimension too; C, a 32-bit D, sizes known at launch and a BN off the 16-column
    pieces each say why."""
    from lower_tc.layout.epilogue import tma_store_problem

    ok = {"with_c": False, "row_major": True, "rows": 100, "cols": 256, "ld": 256}
    assert tma_store_problem("bf16", "f32", **ok) is None  # type: ignore[arg-type]
    assert tma_store_problem("bf16", "f32", **{**ok, "row_major": False, "rows": 256, "cols": 100}) is None  # type: ignore[arg-type]
    bad = {
        "C is added": {"with_c": True},
        "D is f32": {"d": "f32"},
        "an f16 accumulator": {"acc": "f16"},
        "known only at launch": {"ld": None},
        "leading dimension is 200 bytes": {"ld": 100},
        "rows are 200 bytes": {"cols": 100, "ld": 104},
        "columns are 200 bytes": {"row_major": False, "ld": 104},
        "BN = 88": {"bn": 88},
        "M = 100 rounded up": {"row_major": False, "rows": 256, "cols": 100, "bn": 8},
        "batch stride is 200 bytes": {"batch": 2, "batch_stride": 100},
    }
    for words, change in bad.items():
        args = {"d": "bf16", "acc": "f32", **ok, **change}
        why = tma_store_problem(args.pop("d"), args.pop("acc"), **args)  # type: ignore[arg-type]
        assert why is not None and words in why, (words, why)


def test_a_swap_asked_for_takes_the_swapped_problems_tile() -> None:
    """`swapped_tile`: past a decoding M the swapped problem's fastest tile (127 x 11008 x
    4096: 128 x 128 in the 6 stages that leave room for the staging pieces, not the decoding
    swap's 10-stage ring); a decoding M keeps `swap_config`, whose N' is a multiple of the
    16-row pieces where they are asked for (M = 7: 16, else 8); with split-K asked, a ring
    a split keeps."""
    from lower_tc.layout.gemm_choice import split_ring, swap_config, swapped_tile

    assert swapped_tile(127, 11008, 4096, "bf16", "bf16", "f32", d="bf16", staged=True) == GemmConfig(128, 128, 64, 6)
    assert swap_config(127, 11008, "bf16", "bf16", "f32") == GemmConfig(128, 128, 64, 7)
    assert swapped_tile(7, 1024, 256, "bf16", "bf16", "f32", d="bf16", staged=True).bn == 16
    assert swapped_tile(7, 1024, 256, "bf16", "bf16", "f32", d="bf16", staged=False).bn == 8
    assert swap_config(24, 4096, "bf16", "bf16", "f32", staged=True).bn == 32
    assert split_ring(swapped_tile(300, 5000, 4000, "bf16", "bf16", "f32", d="bf16", staged=False, split=2))


def test_the_wide_swap_weighs_what_the_pass_gives() -> None:
    """`wide_swap` against the unswapped default as the pass would choose it: with split-K
    ruled out (persistent asked, say) 256 x 5120 x 4096 swaps to 128 x 96 tiles, where the
    split plain kernel is priced faster; a D whose leading dimension is not 16-byte aligned
    or whose rows are not is not swapped. The tuner leads with no swap where A is
    column-major, C is added or D is not row-major."""
    from lower_tc.layout.gemm_choice import d_transposed_storable, wide_swap

    args = {"d": "bf16", "b_mn_major": True}
    assert wide_swap(256, 5120, 4096, "bf16", "bf16", "f32", **args) is None  # type: ignore[arg-type]
    assert wide_swap(256, 5120, 4096, "bf16", "bf16", "f32", **args, split=False) == GemmConfig(128, 96, 64, 6)  # type: ignore[arg-type]
    assert wide_swap(1536, 1536, 1536, "bf16", "bf16", "f32", **args, d_ld=1540) is None  # type: ignore[arg-type]
    assert wide_swap(1536, 1536, 1536, "bf16", "bf16", "f32", **args, d_ld=1544) is not None  # type: ignore[arg-type]
    assert d_transposed_storable(1536, 1536, "bf16", "f32") and not d_transposed_storable(1536, 1538, "bf16", "f32")
    for kwargs in ({"a_mn_major": True}, {"with_c": True}, {"d_row_major": False}, {"d_ld": 1540}):
        found = candidates(1536, 1536, 1536, "bf16", "bf16", "f32", b_mn_major=True, b_row_bytes=3072, **kwargs)  # type: ignore[arg-type]
        assert not found[0].option_dict.get("swap_ab"), kwargs


def test_a_global_split_of_128_row_tiles_runs_in_pairs_sharing_b() -> None:
    """`paired_split`: the long-K shapes' global splits (128 x 128, S = 8) pair one rank's
    CTAs of two tile rows to share B, in the 6 stages that leave staging room, where the
    chooser is told it may (`pair`); not a cluster's split, unsplit tiles first, 64-row
    tiles, a batch, an odd number of tile rows, nor B's boxes an odd count."""
    from lower_tc.layout.gemm_choice import Choice, choose, pair_fits, paired_split

    for mn in (False, True):
        plain = choose(512, 512, 65536, "bf16", "bf16", "f32", b_mn_major=mn)
        assert (plain.config, plain.split_k, plain.reduce, plain.cluster) == (GemmConfig(128, 128, 64, 4), 8, "global", 1)
        paired = choose(512, 512, 65536, "bf16", "bf16", "f32", b_mn_major=mn, pair=True)
        assert (paired.config, paired.split_k, paired.reduce, paired.cluster) == (GemmConfig(128, 128, 64, 6), 8, "global", 2)
    fp8 = choose(256, 1024, 131072, "e4m3", "e4m3", "f32", pair=True)
    assert fp8.cluster == 2 and fp8.config == GemmConfig(128, 128, 128, 6)
    split = Choice(GemmConfig(128, 128, 64, 4), 8, "global")
    args = ("bf16", "bf16", "f32")
    assert paired_split(512, 512, 65536, split, *args, b_mn_major=False) is not None
    assert paired_split(512, 512, 65536, Choice(GemmConfig(128, 128, 64, 4), 8, "cluster"), *args, b_mn_major=False) is None
    assert paired_split(512, 512, 65536, Choice(GemmConfig(128, 128, 64, 4), 8, "global", 4), *args, b_mn_major=False) is None
    assert paired_split(512, 512, 65536, Choice(GemmConfig(64, 128, 64, 8), 8, "global"), *args, b_mn_major=False) is None
    assert paired_split(512, 512, 65536, split, *args, b_mn_major=False, batch=2) is None
    assert paired_split(384, 512, 65536, split, *args, b_mn_major=False) is None  # 3 tile rows
    assert not pair_fits(512, GemmConfig(128, 192, 64, 4), 16, True)  # 3 boxes of 64 columns
    assert not pair_fits(512, GemmConfig(128, 160, 64, 4), 16, True)  # 2.5 boxes: the lowering refuses them
    assert pair_fits(512, GemmConfig(128, 256, 64, 4), 16, True)
    assert pair_fits(512, GemmConfig(128, 192, 64, 4), 16, False)  # K-major: 96 rows each
    # no deeper ring for 128 x 256 (4 stages already): the split stays unpaired
    assert choose(1024, 1024, 32768, "bf16", "bf16", "f32", pair=True).cluster == 1
    # nothing else of the suite's kinds pairs: the decoding, few-tile and cluster splits
    assert choose(128, 1536, 7168, "bf16", "bf16", "f32", pair=True).cluster == 1
    assert choose(256, 7168, 16384, "bf16", "bf16", "f32", pair=True).cluster == 1


def test_the_tuner_leads_with_the_paired_split_only_where_it_can_pair() -> None:
    """`candidates(pair=...)`: the long-K default's paired split first where nothing given
    rules the pair out (`pair_open`), else the unpaired split (an odd raster, the pipelined
    schedule or a cluster given would have the pair refused)."""
    from lower_tc.layout.gemm_choice import pair_open

    assert pair_open() and pair_open("warp_specialized", 8) and pair_open("auto", -1)
    assert not pair_open(raster=3) and not pair_open("pipelined") and not pair_open(cluster=1) and not pair_open(raster=0)
    first = candidates(512, 512, 65536, "bf16", "bf16", "f32")[0]
    assert first.option_dict.get("cluster") == 2 and first.config.stages == 6
    first = candidates(512, 512, 65536, "bf16", "bf16", "f32", pair=False)[0]
    assert "cluster" not in first.option_dict and first.option_dict.get("reduce") == "global" and first.config.stages == 4


def test_one_wave_of_unsplit_64x128_rings_is_priced_at_its_own_efficiency() -> None:
    """A grid of one wave of unsplit CTAs of the 8-stage 64 x 128 ring runs nearer its MMAs'
    speed than 8192^3 (ONE_WAVE_EFFICIENCY): 1024 x 1024 x 32768 (128 CTAs) takes it unsplit,
    bf16 and e4m3, where the model took 128 x 256 split 4 and 128 x 128 split 2; the same tile
    split (two waves) or at 8192^3 keeps the 8192^3 efficiency."""
    from lower_tc.layout.gemm_choice import choose
    from lower_tc.layout.gemm_model import ONE_WAVE_EFFICIENCY, TILE_EFFICIENCY, step_s

    for t, bk in (("bf16", 64), ("e4m3", 128)):
        pick = choose(1024, 1024, 32768, t, t, "f32", Arch.SM90A)
        assert (pick.config, pick.split_k) == (GemmConfig(64, 128, bk, 8), 1), (t, pick)
        ring = GemmConfig(64, 128, bk, 8)
        one = estimate(1024, 1024, 32768, ring, t, t, "bf16", 1, H100)
        split = estimate(1024, 1024, 32768, ring, t, t, "bf16", 1, H100, split_k=2, reduce="global")
        assert one.waves == 1 and split.waves == 2
        mma = 2.0 * 64 * 128 * bk / (H100.dense_tflops[t] * 1e12 / H100.sms)
        assert step_s(ring, t, 128, H100, one_wave=True) == pytest.approx(mma / ONE_WAVE_EFFICIENCY[(64, 128, True)] * 128 / 132)
        assert step_s(ring, t, 132, H100) == pytest.approx(mma / TILE_EFFICIENCY[(64, 128, True)])
        assert split.compute_s == pytest.approx(2 * 16384 // bk * step_s(ring, t, 132, H100))
    # a row-major B of a tile it slows keeps that tile's MN-major efficiency
    wide = GemmConfig(128, 160, 64, 5)
    assert step_s(wide, "bf16", 132, H100, b_mn_major=True, one_wave=True) == step_s(wide, "bf16", 132, H100, b_mn_major=True)


def test_one_wave_of_128x112_tiles_beats_fewer_128x128_ones() -> None:
    """deepseek-v3's o_proj at M = 256 (N = 7168, K = 16384): 128 x 112 tiles make 128 CTAs
    where 128 x 128 make 112 of 132 SMs; in one wave the narrower tile runs 4-5% faster
    (H200: bf16 99% of cuBLAS against 95%, e4m3 106% against 101%), which its 8192^3
    efficiency (0.66) hid. B as the weight (K-major) takes it, bf16 and e4m3; row-major B
    keeps 128 x 128 (98% of cuBLAS); two waves of the same tile and a swapped kernel's
    MN-major A keep the 8192^3 price."""
    from lower_tc.layout.gemm_choice import choose
    from lower_tc.layout.gemm_model import ONE_WAVE_EFFICIENCY, TILE_EFFICIENCY, step_s

    for t, bk in (("bf16", 64), ("e4m3", 128)):
        pick = choose(256, 7168, 16384, t, t, "f32", Arch.SM90A)
        assert (pick.config.bm, pick.config.bn, pick.config.bk, pick.split_k) == (128, 112, bk, 1), (t, pick)
        narrow = GemmConfig(128, 112, bk, 6)
        mma = 2.0 * 128 * 112 * bk / (H100.dense_tflops[t] * 1e12 / H100.sms)
        assert step_s(narrow, t, 128, H100, one_wave=True) == pytest.approx(mma / ONE_WAVE_EFFICIENCY[(128, 112, True)] * 128 / 132)
        assert step_s(narrow, t, 132, H100) == pytest.approx(mma / TILE_EFFICIENCY[(128, 112, True)])
        # measured with A K-major only: a swapped kernel's B^T keeps the 8192^3 price
        assert step_s(narrow, t, 128, H100, one_wave=True, a_mn_major=True) == step_s(narrow, t, 128, H100)
    rowmajor = choose(256, 7168, 16384, "bf16", "bf16", "f32", Arch.SM90A, b_mn_major=True)
    assert (rowmajor.config.bm, rowmajor.config.bn) == (128, 128)
