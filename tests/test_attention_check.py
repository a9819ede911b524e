"""The float64 attention reference and its check (lowering/runtime/attention_check.py):
the reference against a row-by-row softmax written out in Python, both layouts, grouped
heads, causal alignment, rows that see no key; the check passes what rounding explains
and nothing else."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from lower_tc.lowering.runtime.attention_check import (
    FULL_CHECK_LIMIT, SAMPLE_ROWS, check_attention, reference, sample_rows, visible_keys,
)


def _naive(q, k, v, causal, scale):
    """BHSD float64, one row at a time: (O, lse)."""
    b, h, sq, d = q.shape
    hk, sk = k.shape[1], k.shape[2]
    o = np.zeros((b, h, sq, d))
    lse = np.full((b, h, sq), -math.inf)
    for bi in range(b):
        for hi in range(h):
            kv = hi // (h // hk)
            for i in range(sq):
                keys = [j for j in range(sk) if not causal or j <= i + sk - sq]
                if not keys:
                    continue
                s = [scale * float(np.dot(q[bi, hi, i], k[bi, kv, j])) for j in keys]
                m = max(s)
                e = [math.exp(x - m) for x in s]
                total = sum(e)
                lse[bi, hi, i] = m + math.log(total)
                for w, j in zip(e, keys):
                    o[bi, hi, i] += w / total * v[bi, kv, j]
    return o, lse


def _inputs(b=2, h=4, hk=2, sq=5, sk=7, d=8, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((b, h, sq, d)), rng.standard_normal((b, hk, sk, d)), rng.standard_normal((b, hk, sk, d)))


@pytest.mark.parametrize(("sq", "sk"), [(5, 7), (7, 5), (6, 6), (1, 9)])
@pytest.mark.parametrize("causal", [False, True])
def test_the_reference_is_a_row_by_row_softmax_in_both_layouts(sq: int, sk: int, causal: bool) -> None:
    q, k, v = _inputs(sq=sq, sk=sk)
    want_o, want_lse = _naive(q, k, v, causal, 0.3)
    o, lse = reference(q, k, v, causal=causal, scale=0.3, layout="bhsd")
    np.testing.assert_allclose(o, want_o, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(np.isinf(lse), np.isinf(want_lse))
    np.testing.assert_allclose(lse[np.isfinite(lse)], want_lse[np.isfinite(want_lse)], rtol=1e-12)
    t = lambda x: x.transpose(0, 2, 1, 3)  # noqa: E731
    o2, lse2 = reference(t(q), t(k), t(v), causal=causal, scale=0.3, layout="bshd")
    np.testing.assert_array_equal(o2, o)
    np.testing.assert_array_equal(lse2, lse)


def test_causal_aligns_the_last_query_with_the_last_key_and_a_blind_row_is_zero() -> None:
    assert visible_keys(3, 5, causal=True).tolist() == [3, 4, 5]
    assert visible_keys(5, 3, causal=True).tolist() == [0, 0, 1, 2, 3]
    assert visible_keys(4, 6, causal=False).tolist() == [6] * 4
    q, k, v = _inputs(sq=5, sk=3)
    o, lse = reference(q, k, v, causal=True, scale=1.0, layout="bhsd")
    assert (o[:, :, :2] == 0).all() and (lse[:, :, :2] == -np.inf).all() and np.isfinite(lse[:, :, 2:]).all()


def _bf16(x):
    return x.astype(ml_dtypes.bfloat16).astype(np.float64)


def _scores(q, k, hi, causal, scale):
    """(the masked, scaled scores of query head `hi` (BHSD), its K/V head)."""
    h, hk, sq, sk = q.shape[1], k.shape[1], q.shape[2], k.shape[2]
    kv = hi // (h // hk)
    s = np.einsum("bqd,bkd->bqk", q[:, hi], k[:, kv]) * scale
    seen = visible_keys(sq, sk, causal)
    return np.where(np.arange(sk)[None, None, :] < seen[None, :, None], s, -np.inf), kv


def _with_p_in_bf16(q, k, v, causal, scale):
    """O as a kernel computes it: P rounded to bf16 before P V, O rounded to bf16 (BHSD)."""
    b, h, sq, d = q.shape
    o = np.zeros((b, h, sq, d))
    for hi in range(h):
        s, kv = _scores(q, k, hi, causal, scale)
        m = np.max(s, axis=-1, keepdims=True)
        p = np.exp(s - np.where(np.isfinite(m), m, 0))
        total = p.sum(-1, keepdims=True)
        o[:, hi] = np.einsum("bqk,bkd->bqd", _bf16(np.where(total > 0, p / np.where(total > 0, total, 1), 0)), v[:, kv])
    return _bf16(o)


@pytest.mark.parametrize("causal", [False, True])
def test_the_check_passes_p_and_o_rounded_to_bf16(causal: bool) -> None:
    q, k, v = (_bf16(x) for x in _inputs(sq=9, sk=6, d=16))
    o = _with_p_in_bf16(q, k, v, causal, 0.25)
    result = check_attention(q, k, v, o, causal=causal, scale=0.25, layout="bhsd")
    assert result.ok, result.problems
    assert result.bad == 0 and result.nan == 0 and result.max_error > 0


def test_the_check_catches_a_wrong_element_nan_a_written_blind_row_and_a_wrong_lse() -> None:
    q, k, v = (_bf16(x) for x in _inputs(sq=6, sk=4, d=16))
    good = _with_p_in_bf16(q, k, v, True, 0.5)
    _, lse = reference(q, k, v, causal=True, scale=0.5, layout="bhsd")
    assert check_attention(q, k, v, good, causal=True, scale=0.5, layout="bhsd", lse=lse).ok

    wrong = good.copy()
    wrong[1, 2, 4, 3] += 0.05
    result = check_attention(q, k, v, wrong, causal=True, scale=0.5, layout="bhsd")
    assert not result.ok and result.bad == 1 and "batch 1, head 2, row 4, column 3" in result.problems[0]

    nan = good.copy()
    nan[0, 0, 5, 0] = np.nan
    result = check_attention(q, k, v, nan, causal=True, scale=0.5, layout="bhsd")
    assert not result.ok and result.nan == 1 and "1 NaN in O" in result.problems

    blind = good.copy()
    blind[0, 1, 0, 2] = 1e-30  # row 0 sees no key (S_q 6 > S_k 4)
    assert any("see no key must be 0" in p for p in check_attention(q, k, v, blind, causal=True, scale=0.5, layout="bhsd").problems)

    off = lse.copy()
    off[0, 0, 3] += 0.1
    assert any("log-sum-exp" in p for p in check_attention(q, k, v, good, causal=True, scale=0.5, layout="bhsd", lse=off).problems)
    finite_blind = lse.copy()
    finite_blind[0, 0, 0] = 0.0
    assert not check_attention(q, k, v, good, causal=True, scale=0.5, layout="bhsd", lse=finite_blind).ok


def test_large_problems_sample_rows_with_the_first_and_the_last() -> None:
    rng = np.random.default_rng(1)
    assert sample_rows(rng, 1024, 1024).tolist() == list(range(1024))
    rows = sample_rows(rng, 4097, 4096)
    assert 4097 * 4096 > FULL_CHECK_LIMIT
    assert rows[0] == 0 and rows[-1] == 4096 and len(rows) <= SAMPLE_ROWS + 2 and (np.diff(rows) > 0).all()


@pytest.mark.parametrize(("shapes", "needle"), [
    (((1, 4, 3, 8), (1, 3, 5, 8), (1, 3, 5, 8)), "K/V's 3 heads must divide Q's 4"),
    (((1, 4, 3, 8), (1, 2, 5, 8), (1, 2, 6, 8)), "V's shape"),
    (((1, 4, 3, 8), (1, 2, 5, 16), (1, 2, 5, 16)), "head dim 16"),
    (((4, 3, 8), (1, 2, 5, 8), (1, 2, 5, 8)), "Q has 4 dimensions"),
])
def test_mismatched_shapes_are_refused_by_name(shapes, needle) -> None:
    q, k, v = (np.ones(s) for s in shapes)
    with pytest.raises(ValueError, match=needle):
        reference(q, k, v, causal=False, scale=1.0, layout="bhsd")


def test_an_unknown_layout_is_refused() -> None:
    q, k, v = _inputs()
    with pytest.raises(ValueError, match="layout is bshd or bhsd, not 'sbhd'"):
        reference(q, k, v, causal=False, scale=1.0, layout="sbhd")


def test_v_with_a_half_of_mean_one_shows_a_few_wrong_keys_given_weight() -> None:
    """The runner's V (run.py, _shift_half_of_v): 24 zero keys past 1000 seen by a ragged
    mask stopping at its block's end weigh O down by 1000/1024; the check sees that in the
    columns of mean 1, and a wrong pairing of P's and V's rows in those of mean 0."""
    from lower_tc.layout.kernel_info import ArgInfo
    from lower_tc.lowering.runtime.inputs import random_input
    from lower_tc.lowering.runtime.run import _shift_half_of_v

    rng = np.random.default_rng(3)
    sq, sk, d = 8, 1000, 64
    q, k = (random_input(rng, "bf16", (1, 1, n, d)).astype(np.float64) for n in (sq, sk))
    flat = random_input(rng, "bf16", (sk * d,))
    _shift_half_of_v(flat, ArgInfo("p_V", (1, sk, d), (sk * d, d, 1), "bf16", False))
    v = flat.astype(np.float64).reshape(1, 1, sk, d)
    assert abs(v[..., : d // 2].mean()) < 0.05 and abs(v[..., d // 2 :].mean() - 1) < 0.05
    zeros = np.zeros((1, 1, 24, d))
    seen, _ = reference(q, np.concatenate([k, zeros], 2), np.concatenate([v, zeros], 2), causal=False, scale=d**-0.5, layout="bhsd")
    result = check_attention(q, k, v, seen, causal=False, scale=d**-0.5, layout="bhsd")
    assert not result.ok and result.bad > sq * d // 4
    paired_wrong, _ = reference(q, k, np.roll(v, 1, axis=2), causal=False, scale=d**-0.5, layout="bhsd")
    assert not check_attention(q, k, v, paired_wrong, causal=False, scale=d**-0.5, layout="bhsd").ok
    exact, _ = reference(q, k, v, causal=False, scale=d**-0.5, layout="bhsd")
    assert check_attention(q, k, v, exact, causal=False, scale=d**-0.5, layout="bhsd").ok


def _e4m3(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).astype(ml_dtypes.float8_e4m3fn).astype(np.float64)


def _online_with_p_in_e4m3(q, k, v, causal: bool, scale: float, block: int, shift: int = 0):
    """What an fp8 attention loop computes, in float64 otherwise: blocks of `block` keys,
    P = exp(s - running max) rounded to e4m3 for P V (P <= 1: no saturation), the running
    sum from P unrounded, O rescaled by exp(m_old - m_new) at each block. `shift` pairs P's
    keys with V's rows `shift` keys later (a wrong fragment order)."""
    b, h, sq, d = q.shape
    sk = k.shape[2]
    o = np.zeros((b, h, sq, d))
    for hi in range(h):
        s, kv = _scores(q, k, hi, causal, scale)
        m = np.full((b, sq, 1), -np.inf)
        total = np.zeros((b, sq, 1))
        acc = np.zeros((b, sq, d))
        for j0 in range(0, sk, block):
            blk = s[:, :, j0 : j0 + block]
            m_new = np.maximum(m, blk.max(-1, keepdims=True))
            safe = np.where(np.isfinite(m_new), m_new, 0.0)
            p = np.exp(blk - safe)
            alpha = np.where(np.isfinite(m), np.exp(m - safe), 0.0)
            total = total * alpha + p.sum(-1, keepdims=True)
            vv = np.roll(v[:, kv], -shift, axis=1)[:, j0 : j0 + block]
            acc = acc * alpha + np.einsum("bqk,bkd->bqd", _e4m3(p), vv)
            m = m_new
        o[:, hi] = np.where(total > 0, acc / np.where(total > 0, total, 1), 0)
    return _bf16(o)


@pytest.mark.parametrize("causal", [False, True])
def test_the_check_passes_an_online_softmax_with_p_in_e4m3_and_catches_a_shifted_v(causal: bool) -> None:
    q, k, v = (_e4m3(x) for x in _inputs(h=2, hk=1, sq=96, sk=128, d=16, seed=3))
    v[..., 8:] = _e4m3(v[..., 8:] + 1.0)  # as the runner: half of V of mean 1
    o = _online_with_p_in_e4m3(q, k, v, causal, 0.25, block=32)
    result = check_attention(q, k, v, o, causal=causal, scale=0.25, layout="bhsd", p_dtype="e4m3")
    assert result.ok, result.problems
    assert result.max_error > 1e-3  # P's e4m3 rounding shows: a bf16 bound would not hold it
    assert not check_attention(q, k, v, o, causal=causal, scale=0.25, layout="bhsd").ok
    wrong = _online_with_p_in_e4m3(q, k, v, causal, 0.25, block=32, shift=1)
    assert not check_attention(q, k, v, wrong, causal=causal, scale=0.25, layout="bhsd", p_dtype="e4m3").ok


def test_an_e4m3_p_below_its_normals_is_bounded_by_its_subnormal_step(monkeypatch) -> None:
    """Below e4m3's normals (2^-6) P's rounding is absolute (up to 2^-10): 1023 keys of
    p = 1.3 x 2^-9 each round down by 0.3 x 2^-9, O moves by 0.17 where the relative bound
    alone allows 0.125; the per-key term holds it, and without it the check fails."""
    import lower_tc.lowering.runtime.attention_check as check

    q = np.zeros((1, 1, 1, 8))
    q[..., 0] = 1.0
    k = np.zeros((1, 1, 1024, 8))
    k[0, 0, 1:, 0] = math.log(1.3 * 2.0**-9)
    v = np.ones((1, 1, 1024, 8))
    o = _online_with_p_in_e4m3(q, k, v, False, 1.0, block=64)
    assert check_attention(q, k, v, o, causal=False, scale=1.0, layout="bhsd", p_dtype="e4m3").ok
    monkeypatch.setattr(check, "SUBNORMAL_ROUNDING", {})
    assert not check_attention(q, k, v, o, causal=False, scale=1.0, layout="bhsd", p_dtype="e4m3").ok


def test_an_fp8_log_sum_exp_is_held_to_the_scores_accumulation(monkeypatch) -> None:
    """8-bit scores come from the tensor core's fp8 sums (about 14 bits kept): a log-sum-exp
    off by 2^-13 of the rows' average |q| . |k| x scale passes for e4m3 and fails for bf16,
    and one off by ten times that fails for e4m3 too."""
    import lower_tc.lowering.runtime.attention_check as check

    q, k, v = (_e4m3(x) for x in _inputs(h=2, hk=1, sq=16, sk=64, d=128, seed=7))
    o, lse = reference(q, k, v, causal=False, scale=128**-0.5, layout="bhsd")
    spread = check._attend(q, k, (v,), causal=False, scale=128**-0.5, layout="bhsd", rows=None, abs_scores=True)[0][-1]
    assert np.all(spread > 0)
    o = _bf16(o)
    shifted = lse + 2.0**-13 * spread
    ok = check_attention(q, k, v, o, causal=False, scale=128**-0.5, layout="bhsd", p_dtype="e4m3", lse=shifted)
    assert ok.ok, ok.problems
    assert not check_attention(q, k, v, o, causal=False, scale=128**-0.5, layout="bhsd", lse=shifted).ok
    far = check_attention(q, k, v, o, causal=False, scale=128**-0.5, layout="bhsd", p_dtype="e4m3", lse=lse + 10 * 2.0**-12 * spread)
    assert not far.ok and "log-sum-exp" in far.problems[0]
