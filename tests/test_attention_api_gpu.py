"""On an sm_90a GPU: lower_tc.attention on torch tensors, against float64 attention
(lowering/runtime/attention_check.py) with O and the log-sum-exp filled with NaN first, so
a row the kernel never wrote fails. BHSD 4-d and 3-d, BSHD (a (B, S, H, D) tensor's
transpose) with and without a batch, GQA, causal with S_q = S_k and S_q > S_k (rows that
see no key: 0 and -inf), ragged lengths, f16, each head dim.

Run on the GPU machine: python -m pytest -m gpu tests/test_attention_api_gpu.py -v
"""

from __future__ import annotations

import pytest

import lower_tc
from lower_tc.lowering.runtime.attention_check import check_attention

pytestmark = pytest.mark.gpu

CASES = [  # (batch, heads, kv heads, S_q, S_k, D, dtype, causal, layout)
    (2, 4, 4, 256, 256, 64, "bfloat16", False, "bhsd"),
    (1, 8, 2, 1000, 1000, 128, "bfloat16", True, "bhsd"),
    (2, 2, 1, 300, 1000, 64, "float16", True, "bhsd"),
    (1, 2, 2, 700, 200, 128, "bfloat16", True, "bhsd"),
    (1, 2, 2, 129, 4097, 256, "bfloat16", False, "bhsd"),
    (2, 4, 2, 1000, 1000, 128, "bfloat16", True, "bshd"),  # 4-d: the batch on the grid's z
    (1, 8, 8, 333, 333, 64, "float16", False, "bshd"),  # a batch of one: 3-d, heads side by side
    (3, 2, 1, 65, 4097, 256, "bfloat16", False, "bshd"),
]


def _array(torch, layout: str, b: int, h: int, s: int, d: int, t, gen):
    """(b, h, s, d) fresh values, dense (BHSD) or a (b, s, h, d) tensor's transpose (BSHD)."""
    if layout == "bshd":
        return torch.randn(b, s, h, d, device="cuda", dtype=t, generator=gen).transpose(1, 2)
    return torch.randn(b, h, s, d, device="cuda", dtype=t, generator=gen)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "_".join(map(str, c)))
def test_attention_on_torch_tensors(torch, require_gpu, case) -> None:
    require_gpu("sm_90a")
    b, h, hk, sq, sk, d, dtype, causal, layout = case
    t = getattr(torch, dtype)
    gen = torch.Generator(device="cuda").manual_seed(7)
    q = _array(torch, layout, b, h, sq, d, t, gen)
    k = _array(torch, layout, b, hk, sk, d, t, gen)
    v = _array(torch, layout, b, hk, sk, d, t, gen)
    out = torch.full_like(q, float("nan"))
    assert out.stride() == q.stride()  # full_like keeps q's layout
    o, lse = lower_tc.attention(q, k, v, out, causal=causal, lse=True)
    torch.cuda.synchronize()
    assert o is out and lse.shape == (b, h, sq) and lse.dtype == torch.float32
    fold = lambda x: x.float().cpu().numpy().reshape(1, -1, *x.shape[2:])  # noqa: E731
    result = check_attention(fold(q), fold(k), fold(v), fold(o), causal=causal, scale=d**-0.5, layout="bhsd",
                             p_dtype="bf16" if dtype == "bfloat16" else "f16",
                             out_dtype="bf16" if dtype == "bfloat16" else "f16",
                             lse=lse.cpu().numpy().reshape(1, -1, sq))
    assert result.ok, result.problems


@pytest.mark.parametrize("layout", ["bhsd", "bshd"])
def test_attention_allocates_o_like_q(torch, require_gpu, layout) -> None:
    """out=None: O of q's shape, type and layout (BSHD memory for a BSHD q)."""
    require_gpu("sm_90a")
    gen = torch.Generator(device="cuda").manual_seed(8)
    q = _array(torch, layout, 2, 2, 128, 64, torch.bfloat16, gen)
    o = lower_tc.attention(q, q, q)
    torch.cuda.synchronize()
    want = torch.nn.functional.scaled_dot_product_attention(q.float(), q.float(), q.float())
    assert o.shape == q.shape and o.dtype == q.dtype and o.stride() == q.stride()
    assert float((o.float() - want).abs().max()) < 2e-2


FP8_CASES = [  # (batch, heads, kv heads, S_q, S_k, D, dtype, causal, layout of q and k)
    (2, 4, 4, 1024, 1024, 64, "float8_e4m3fn", True, "bhsd"),
    (1, 8, 2, 1000, 1008, 128, "float8_e4m3fn", False, "bhsd"),  # GQA, ragged keys
    (2, 4, 2, 512, 512, 128, "float8_e4m3fn", True, "bshd"),  # 4-d: the batch on the grid's z
    (1, 2, 2, 256, 512, 256, "float8_e4m3fn", False, "bhsd"),
    (1, 4, 4, 512, 512, 64, "float8_e5m2", False, "bhsd"),
]


@pytest.mark.parametrize("v_as", ["vt", "given"])
@pytest.mark.parametrize("case", FP8_CASES + [(1, 4, 2, 999, 1001, 128, "float8_e4m3fn", True, "bshd")],
                         ids=lambda c: "_".join(map(str, c)))
def test_fp8_attention_on_torch_tensors(torch, require_gpu, case, v_as) -> None:
    """8-bit q, k and v, O allocated in bf16: within P's e4m3 rounding of float64
    attention, the log-sum-exp too. v as vt.transpose(-1, -2) (keys contiguous: read as
    it is) or as given, laid out as k (head dim contiguous: the kernel transposes its
    tiles in shared memory; any key count, 1001 too, which V^T's rows cannot take)."""
    require_gpu("sm_90a")
    b, h, hk, sq, sk, d, dtype, causal, layout = case
    if v_as == "vt" and sk % 16:
        pytest.skip("V^T's rows (the keys) are a multiple of 16 bytes for TMA")
    f8 = getattr(torch, dtype)
    gen = torch.Generator(device="cuda").manual_seed(9)
    q = _array(torch, layout, b, h, sq, d, torch.bfloat16, gen).to(f8)
    k = _array(torch, layout, b, hk, sk, d, torch.bfloat16, gen).to(f8)
    if v_as == "vt":
        vt = torch.randn(b, hk, d, sk, device="cuda", dtype=torch.bfloat16, generator=gen).to(f8)
        v = vt.transpose(-1, -2)
    else:
        v = _array(torch, layout, b, hk, sk, d, torch.bfloat16, gen).to(f8)
        assert v.stride(-1) == 1
    o, lse = lower_tc.attention(q, k, v, causal=causal, lse=True)
    torch.cuda.synchronize()
    assert o.dtype == torch.bfloat16 and o.shape == (b, h, sq, d) and o.stride() == q.stride()
    fold = lambda x: x.float().cpu().numpy().reshape(1, -1, *x.shape[2:])  # noqa: E731
    p_dtype = "e4m3" if dtype == "float8_e4m3fn" else "e5m2"
    result = check_attention(fold(q), fold(k), fold(v), fold(o), causal=causal, scale=d**-0.5, layout="bhsd",
                             p_dtype=p_dtype, out_dtype="bf16", lse=lse.cpu().numpy().reshape(1, -1, sq))
    assert result.ok, result.problems


@pytest.mark.parametrize("d", [64, 128])
def test_fp8_attention_into_an_f16_out(torch, require_gpu, d) -> None:
    """8-bit q, k, v (v as given: transposed in shared memory) into a given f16 O
    (poisoned with NaN first): every element written, within P's e4m3 rounding (and
    f16's) of float64 attention."""
    require_gpu("sm_90a")
    b, h, sq, sk = 2, 4, 640, 704
    gen = torch.Generator(device="cuda").manual_seed(17)
    q = torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=gen).to(torch.float8_e4m3fn)
    k = torch.randn(b, h, sk, d, device="cuda", dtype=torch.bfloat16, generator=gen).to(torch.float8_e4m3fn)
    v = torch.randn(b, h, sk, d, device="cuda", dtype=torch.bfloat16, generator=gen).to(torch.float8_e4m3fn)
    o = torch.full((b, h, sq, d), float("nan"), device="cuda", dtype=torch.float16)
    assert lower_tc.attention(q, k, v, o, causal=True) is o
    torch.cuda.synchronize()
    assert not torch.isnan(o).any()
    fold = lambda x: x.float().cpu().numpy().reshape(1, -1, *x.shape[2:])  # noqa: E731
    result = check_attention(fold(q), fold(k), fold(v), fold(o), causal=True, scale=d**-0.5, layout="bhsd",
                             p_dtype="e4m3", out_dtype="f16")
    assert result.ok, result.problems


@pytest.mark.parametrize("case", [(2, 4, 2, 600, 700, 128, True, "bshd", "given"), (1, 4, 4, 512, 512, 64, False, "bhsd", "vt"),
                                  (3, 2, 1, 256, 1001, 256, True, "bhsd", "given")], ids=lambda c: "_".join(map(str, c)))
def test_fp8_attention_with_descaling_factors(torch, require_gpu, case) -> None:
    """q, k and v quantized to e4m3 with a scale for each batch and head of k (FlashAttention-3's
    descaling factors, drawn from 0.25 to 2): O and the log-sum-exp within P's e4m3 rounding of
    float64 attention of the dequantized values (q8 q_descale, k8 k_descale, v8 v_descale)."""
    require_gpu("sm_90a")
    b, h, hk, sq, sk, d, causal, layout, v_as = case
    f8 = torch.float8_e4m3fn
    gen = torch.Generator(device="cuda").manual_seed(23)
    factors = {w: 0.25 + 1.75 * torch.rand(b, hk, device="cuda", generator=gen) for w in ("q", "k", "v")}
    per_head = lambda f, heads: f.repeat_interleave(heads // hk, dim=1)[:, :, None, None]  # noqa: E731
    q = (_array(torch, layout, b, h, sq, d, torch.float32, gen) / per_head(factors["q"], h)).to(f8)
    k = (_array(torch, layout, b, hk, sk, d, torch.float32, gen) / per_head(factors["k"], hk)).to(f8)
    if v_as == "vt":
        vt = (torch.randn(b, hk, d, sk, device="cuda", generator=gen) / factors["v"][:, :, None, None]).to(f8)
        v = vt.transpose(-1, -2)
    else:
        v = (_array(torch, layout, b, hk, sk, d, torch.float32, gen) / per_head(factors["v"], hk)).to(f8)
    o, lse = lower_tc.attention(q, k, v, causal=causal, lse=True, q_descale=factors["q"], k_descale=factors["k"],
                                v_descale=factors["v"])
    torch.cuda.synchronize()
    fold = lambda x: x.cpu().numpy().reshape(1, -1, *x.shape[2:])  # noqa: E731
    dq, dk, dv = (x.float() * per_head(factors[w], x.shape[1]) for w, x in (("q", q), ("k", k), ("v", v)))
    result = check_attention(fold(dq), fold(dk), fold(dv), fold(o.float()), causal=causal, scale=d**-0.5, layout="bhsd",
                             p_dtype="e4m3", out_dtype="bf16", lse=lse.cpu().numpy().reshape(1, -1, sq))
    assert result.ok, result.problems


def test_a_negative_descaling_product_makes_o_nan(torch, require_gpu) -> None:
    """q_descale x k_descale below 0 for one head of k: that head's O is NaN (a negative
    factor would turn the row maximum into a minimum), the other head's is not."""
    require_gpu("sm_90a")
    f8 = torch.float8_e4m3fn
    gen = torch.Generator(device="cuda").manual_seed(29)
    q, k, v = (torch.randn(1, 2, 256, 64, device="cuda", generator=gen).to(f8) for _ in range(3))
    k_descale = torch.tensor([[1.0, -1.0]], device="cuda")
    o = lower_tc.attention(q, k, v, k_descale=k_descale)
    torch.cuda.synchronize()
    assert torch.isnan(o[0, 1]).all() and not torch.isnan(o[0, 0]).any()


def test_a_zero_descaling_product_gives_a_uniform_softmax(torch, require_gpu) -> None:
    """q_descale x k_descale of exactly 0 for one head of k, causal over 300 keys (masked
    keys in the diagonal blocks): every score of that head is equal, so each row's O is the
    mean of V over the keys it sees (times v_descale); no NaN where keys are masked (-inf
    x 0 would be); the other head is an ordinary softmax."""
    require_gpu("sm_90a")
    f8 = torch.float8_e4m3fn
    gen = torch.Generator(device="cuda").manual_seed(31)
    q, k, v = (torch.randn(1, 2, 300, 64, device="cuda", generator=gen).to(f8) for _ in range(3))
    q_descale = torch.tensor([[0.0, 1.5]], device="cuda")
    v_descale = torch.tensor([[0.5, 1.0]], device="cuda")
    o = lower_tc.attention(q, k, v, causal=True, q_descale=q_descale, v_descale=v_descale)
    torch.cuda.synchronize()
    assert not torch.isnan(o).any()
    seen = torch.arange(1, 301, device="cuda", dtype=torch.float64)[:, None]
    mean = v[0, 0].double().cumsum(0) / seen * 0.5
    assert torch.allclose(o[0, 0].double(), mean, atol=2e-2, rtol=1e-2)
    assert not torch.allclose(o[0, 1].double(), v[0, 1].double().cumsum(0) / seen, atol=2e-2, rtol=1e-2)
