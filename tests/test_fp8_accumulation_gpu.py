"""On an sm_90a GPU: fp8's promoted accumulation (`accumulation="promoted"`) through
`lower_tc.matmul` on torch tensors: right against float64 at ragged shapes in every form
the sweep has (both operand pairs, both schedules, persistent, split-K, C, sizes known at
launch, batches), and more precise than the fast default on a long K: its error relative
to sum |a||b| within twice cuBLAS's default mode's (which promotes too; issue 22's bar),
the fast mode's several times larger. Outputs are filled with NaN before each launch.
Each test skips, with the reason, without an sm_90a GPU or torch.

Run on the GPU machine: python -m pytest -m gpu tests/test_fp8_accumulation_gpu.py -v
"""

from __future__ import annotations

import pytest

import lower_tc
from test_callable_gpu import check, operand, poisoned

pytestmark = pytest.mark.gpu

PROMOTED = {"accumulation": "promoted"}


@pytest.fixture(autouse=True)
def gpu(require_gpu, kernel_cache) -> None:
    require_gpu("sm_90a")


@pytest.mark.parametrize(("a_t", "b_t", "d_t"), [("e4m3", "e4m3", "bf16"), ("e5m2", "e4m3", "f32")])
@pytest.mark.parametrize("options", [{}, {"schedule": "pipelined"}, {"schedule": "warp_specialized", "persistent": True},
                                     {"split_k": 4}, {"dynamic": True}, {"config": (64, 192, 128, 4)}],
                         ids=["default", "pipelined", "persistent", "split-k", "dynamic", "64x192"])
def test_promoted_is_right(torch, a_t, b_t, d_t, options) -> None:
    m, n, k = 300, 520, 4112  # K ragged (32 steps of 128 and 16): rows of 8-bit A and B stay 16-byte multiples
    if options.get("persistent"):
        m, n = 2048, 2048  # more tiles than SMs: each CTA walks several
    a = operand(torch, m, k, a_t, True, 1)
    b = operand(torch, k, n, b_t, False, 2)
    d = poisoned(torch, (m, n), d_t)
    assert lower_tc.matmul(a, b, d, acc="f32", **PROMOTED, **options) is d
    check(torch, d, a, b, a_t, "f32", d_t)


def test_promoted_adds_c_and_takes_batches(torch) -> None:
    a = operand(torch, 129, 4112, "e4m3", True, 3, batch=3)
    b = operand(torch, 4112, 72, "e4m3", False, 4, batch=3)
    c = operand(torch, 129, 72, "f32", True, 5, batch=3)
    d = poisoned(torch, (3, 129, 72), "f32")
    lower_tc.matmul(a, b, d, c, acc="f32", **PROMOTED)
    check(torch, d, a, b, "e4m3", "f32", "f32", c=c)


def _error(torch, d, a64, w64) -> float:
    """max |d - a w^T| / (|a| |w|^T), against float64."""
    ref = a64 @ w64.t()
    return ((d.double() - ref).abs() / (a64.abs() @ w64.abs().t()).clamp_min(1e-300)).max().item()


def test_promoted_is_as_precise_as_cublas_default_on_a_long_k(torch) -> None:
    """M = N = 512, K = 16384, D f32: the tensor core's limited-precision sums over the
    whole K (fast) against sums over 128 products added in f32 (promoted), beside cuBLAS's
    two modes on the same tensors."""
    gen = torch.Generator(device="cuda").manual_seed(7)
    m, n, k = 512, 512, 16384
    a = torch.randn(m, k, device="cuda", generator=gen).to(torch.float8_e4m3fn)
    w = torch.randn(n, k, device="cuda", generator=gen).to(torch.float8_e4m3fn)
    a64, w64 = a.double(), w.double()
    one = torch.ones((), device="cuda", dtype=torch.float32)
    errors = {}
    for name, options in (("fast", {}), ("promoted", PROMOTED)):
        d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
        lower_tc.matmul(a, w.t(), out=d, **options)
        torch.cuda.synchronize()
        assert torch.isfinite(d).all()
        errors[name] = _error(torch, d, a64, w64)
    for name, fast in (("cublas", False), ("cublas-fast", True)):
        d = torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=torch.float32, use_fast_accum=fast)
        errors[name] = _error(torch, d, a64, w64)
    assert errors["promoted"] <= 2 * errors["cublas"] + 1e-6, errors
    assert errors["promoted"] * 4 < errors["fast"], errors
