"""The default chooser's cost model (layout/gemm_model.py, layout/gemm_choice.py) and the
tuner's candidates (layout/gemm_tuning.py): what each must do for the shapes that motivated
them (issue 22's suite, measured in docs/results/gemm_tune_h100.md)."""

from __future__ import annotations

import pytest

from lower_tc.layout.gemm import GemmConfig, config_problem, rule_config
from lower_tc.layout.gemm_choice import MAX_STAGES, choose_config, prefer_persistent, tile_configs, unsplit_options
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
    m, n, k = 1000, 3000, 2048
    found = candidates(m, n, k, "bf16", "bf16", "f32")
    first = choose_config(m, n, k, "bf16", "bf16", "f32")
    assert found[0].config == first and found[0].option_dict == {"persistent": prefer_persistent(m, n, first)}
    configs = tile_configs(m, n, "bf16", "bf16", "f32")
    # each tile persistent and not, and its last wave's tiles split after whole ones
    # (unsplit_options: 1000 x 3000 makes more than one wave of every tile)
    hybrids = [(c, s, f) for c in configs for s, f in unsplit_options(m, n, k, c, "bf16", "bf16")]
    assert hybrids and len(found) == len(set(found)) == 2 * len(configs) + len(hybrids)
    assert {(c.config, c.option_dict.get("split_k"), c.option_dict.get("unsplit")) for c in found if "unsplit" in c.option_dict} == set(hybrids)
    assert all(config_problem(c.config, "bf16", "bf16", "f32") is None for c in found)
    assert {c.label() for c in found} >= {"128x256x64/4 persistent=True", "64x64x64/8 persistent=False"}


def test_sm100a_candidates_vary_bn_only() -> None:
    found = candidates(4096, 4096, 4096, "bf16", "bf16", "f32", Arch.SM100A)
    assert {c.config.bm for c in found} == {128} and all(not c.options for c in found)
    assert all(config_problem(c.config, "bf16", "bf16", "f32", Arch.SM100A) is None for c in found)
