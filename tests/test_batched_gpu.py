"""On an sm_90a GPU: batched GEMMs (issue 21) through `lower_tc.matmul` and a compiled
Kernel on torch tensors, and through `lower-tc run`. Every type family (bf16, f16 with
f16 and f32 accumulators, e4m3, s8, tf32), B transposed per batch (nn.Linear-style
weights, `w.transpose(-1, -2)`), B one matrix for every batch (2-d, 1 x K x N, an
expanded view), sizes known at launch, C, padding between D's matrices (left untouched),
on outputs filled with NaN (or a poison integer) before each launch; results against
float64 torch.matmul under the runner's tolerances (tests/test_callable_gpu.py's check).
Each test skips, with the reason, without an sm_90a GPU or torch.

Run on the GPU machine: python -m pytest -m gpu tests/test_batched_gpu.py -v
"""

from __future__ import annotations

import json
import sys

import pytest

import lower_tc
from conftest import ROOT
from test_callable_gpu import check, operand, poisoned

pytestmark = pytest.mark.gpu

#: Ragged sizes (no multiple of the tiles; rows a multiple of 16 bytes) and a batch.
B, M, N, K = 3, 200, 136, 112


@pytest.fixture(autouse=True)
def gpu(require_gpu, kernel_cache) -> None:
    require_gpu("sm_90a")


def batch_operand(torch, batch: int, rows: int, cols: int, dtype: str, row: bool, seed: int, *, pad: int = 0,
                  gap: int = 0):
    """batch x rows x cols fresh values (test_callable_gpu's operand, batched)."""
    return operand(torch, rows, cols, dtype, row, seed, pad, batch=batch, gap=gap)


#: (A, B, accumulator, D, A row-major, B row-major).
CASES = [
    ("bf16", "bf16", "f32", "bf16", True, True),
    ("bf16", "bf16", "f32", "bf16", True, False),  # B = w.transpose(-1, -2): nn.Linear's weights
    ("bf16", "bf16", "f32", "f32", False, True),
    ("f16", "f16", "f16", "f16", True, False),
    ("f16", "f16", "f32", "f32", False, False),
    ("e4m3", "e4m3", "f32", "bf16", True, False),
    ("s8", "s8", "s32", "s32", True, False),
    ("tf32", "tf32", "f32", "f32", True, False),
]


def _id(case) -> str:
    a, b, acc, d, ar, br = case
    return f"{a}x{b}-{acc}-{d}-{'r' if ar else 'c'}{'r' if br else 'c'}"


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_batched_matmul_every_type_and_transpose(torch, case, dynamic) -> None:
    a_t, b_t, acc, d_t, a_row, b_row = case
    a, b = batch_operand(torch, B, M, K, a_t, a_row, 1), batch_operand(torch, B, K, N, b_t, b_row, 2)
    d = poisoned(torch, (B, M, N), d_t)
    assert lower_tc.matmul(a, b, d, acc=acc, dynamic=dynamic) is d
    check(torch, d, a, b, a_t, acc, d_t)


@pytest.mark.parametrize("form", ["2d", "batch1", "expanded", "a2d"])
def test_one_matrix_for_every_batch(torch, form) -> None:
    """B (K x N, 1 x K x N or an expanded view) the same for every batch; or A 2-d."""
    a = batch_operand(torch, B, M, K, "bf16", True, 3)
    w = batch_operand(torch, 1, K, N, "bf16", False, 4)
    b = {"2d": w[0], "batch1": w, "expanded": w.expand(B, K, N), "a2d": batch_operand(torch, B, K, N, "bf16", False, 5)}[form]
    if form == "a2d":
        a = a[0]
    for dynamic in (False, True):
        d = poisoned(torch, (B, M, N), "bf16")
        lower_tc.matmul(a, b, d, dynamic=dynamic)
        check(torch, d, a, b, "bf16", "f32", "bf16")


def test_batched_matmul_allocates_d_adds_c_and_leaves_padding_alone(torch) -> None:
    a, b = batch_operand(torch, B, M, K, "bf16", True, 6), batch_operand(torch, B, K, N, "bf16", False, 7)
    d = lower_tc.matmul(a, b)
    assert d.shape == (B, M, N) and d.dtype == torch.bfloat16
    check(torch, d, a, b, "bf16", "f32", "bf16")
    c = batch_operand(torch, B, M, N, "f32", True, 8)
    whole = poisoned(torch, (B, M + 5, N + 8), "f32")  # D's matrices 5 rows apart, rows 8 apart
    d = whole[:, :M, :N]
    lower_tc.matmul(a, b, d, c)
    check(torch, d, a, b, "bf16", "f32", "f32", c=c)
    torch.cuda.synchronize()
    assert torch.isnan(whole[:, M:, :]).all() and torch.isnan(whole[:, :, N:]).all()  # the padding untouched


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_batched_matmul_into_matrices_side_by_side(torch, dynamic) -> None:
    """D's matrices interleaved in its rows (batch stride N, rows B x N apart: an M x B x N
    array seen as B x M x N, as attention's BSHD heads lie): every element written once,
    none over another."""
    a, b = batch_operand(torch, B, M, K, "bf16", True, 13), batch_operand(torch, B, K, N, "bf16", False, 14)
    whole = poisoned(torch, (M, B, N), "f32")
    d = whole.transpose(0, 1)
    lower_tc.matmul(a, b, d, dynamic=dynamic)
    check(torch, d, a, b, "bf16", "f32", "f32")


def test_dynamic_batches_are_one_kernel_for_every_shape(torch, tmp_path, monkeypatch) -> None:
    import importlib

    from lower_tc.lowering.runtime.callable import LruCache

    matmul_module = importlib.import_module("lower_tc.lowering.api.matmul")  # the module, not the function

    # this test's kernels are compiled here, into its own disk cache: none from the
    # process's memory (an earlier test may have built the plain dynamic GEMM)
    for name, size in (("_plans", 256), ("_kernels", 64), ("_torch_calls", 256)):
        monkeypatch.setattr(matmul_module, name, LruCache(size))
    for batch, m, n, k, gap in ((3, 200, 136, 112, 0), (5, 1000, 904, 1008, 2), (1, 64, 16, 32, 0), (70, 64, 64, 64, 1)):
        a, b = batch_operand(torch, batch, m, k, "bf16", True, m, gap=gap), batch_operand(torch, batch, k, n, "bf16", False, n)
        d = poisoned(torch, (batch, m, n), "bf16")
        lower_tc.matmul(a, b, d, dynamic=True)
        check(torch, d, a, b, "bf16", "f32", "bf16")
    # the batched kernel and, for the batch of 1, the plain one
    assert len(list((tmp_path / "cache").rglob("*.cubin"))) == 2


def test_a_compiled_batched_kernel_on_torch_tensors(torch) -> None:
    """lower_tc.compile of a tc.matmul with 3-d operands (sizes at launch, B one matrix for
    every batch), called on a batch, with B 2-d or expanded."""
    sys.path.insert(0, str(ROOT / "bench"))
    from gemm_sweep import GemmCase

    case = GemmCase("bf16", "bf16", "f32", "bf16", M, N, K, True, False, None, batch=B, dynamic=True, broadcast_b="2d")
    k = lower_tc.compile(case.source())
    assert [len(a.shape) for a in k.args] == [3, 2, 3]
    a, w = batch_operand(torch, 4, M, K, "bf16", True, 9), batch_operand(torch, 1, K, N, "bf16", False, 10)
    for b in (w[0], w.expand(4, K, N)):
        d = poisoned(torch, (4, M, N), "bf16")
        k(a, b, d)
        check(torch, d, a, b, "bf16", "f32", "bf16")


def test_batched_matmul_refuses_bad_tensors_by_name(torch) -> None:
    a, b = batch_operand(torch, 3, 128, 64, "f16", True, 11), batch_operand(torch, 4, 64, 128, "f16", True, 12)
    with pytest.raises(lower_tc.ArgumentError) as err:
        lower_tc.matmul(a, b)
    assert err.value.argument == "b" and "batch of 4" in str(err.value)
    d = torch.empty(128, 128, device="cuda", dtype=torch.float16).expand(3, 128, 128)
    with pytest.raises(lower_tc.ArgumentError) as err:
        lower_tc.matmul(a, b[:3], d)
    assert err.value.argument == "out" and "batch stride is 0" in str(err.value)


# -- lower-tc run -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_lower_tc_run_checks_a_batched_kernel(tmp_path, capsys, dynamic) -> None:
    """A batched GEMM (B one matrix for every batch, C, padding between D's matrices)
    through `lower-tc run`: every matrix checked, nothing outside D written."""
    from lower_tc.lowering.cli.main import main

    sys.path.insert(0, str(ROOT / "bench"))
    from gemm_sweep import GemmCase

    cases = [
        GemmCase("bf16", "bf16", "f32", "bf16", 129, 65, 33, True, False, None, batch=3, dynamic=dynamic, pad=64, with_c=True),
        GemmCase("e4m3", "e4m3", "f32", "bf16", 300, 40, 520, True, False, None, batch=4, dynamic=dynamic, broadcast_b="2d"),
    ]
    for case in cases:
        src = tmp_path / f"{case.name}.mlir"
        src.write_text(case.source())
        argv = ["run", str(src), "--seed", "5", "--json"]
        for name, shape in (case.shapes() or {}).items():
            if len(shape) == 5:
                batch, rows, cols, ld, stride = shape
                argv += ["--shape", f"{name}={batch}x{rows}x{cols}@{ld},{stride}"]
            else:
                rows, cols, ld = shape
                argv += ["--shape", f"{name}={rows}x{cols}@{ld}"]
        code = main(argv)
        out = capsys.readouterr()
        (result,) = json.loads(out.out)
        assert code == 0 and result["passed"], out
        assert result["checked"] == case.batch * case.m * case.n and result["stray"] == 0
