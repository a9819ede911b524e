"""On an sm_90a GPU: swap-AB (passes/expand_matmul/swap_ab.py), D = A x B computed as
D^T = B^T x A^T for decoding shapes, and D (or C) column-major, through `lower_tc.matmul`
on torch tensors filled with NaN before each launch (tests/test_callable_gpu.py's check
against float64 torch.matmul) and through `lower-tc run` (the runner's check, with its
guard bytes). Every type family wgmma takes with both operands K-major, B row-major for
16-bit types (A' = B^T read MN-major), M = 1 to 64 with ragged N and K, C added, split-K
over a cluster and through global memory, and the chooser's default against the unswapped
kernel on the same arrays.

Run on the GPU machine: python -m pytest -m gpu tests/test_swap_ab_gpu.py -v
"""

from __future__ import annotations

import json

import pytest

import lower_tc
from test_callable_gpu import check, operand, poisoned

pytestmark = pytest.mark.gpu


@pytest.fixture(autouse=True)
def gpu(require_gpu, kernel_cache) -> None:
    require_gpu("sm_90a")


#: (A, B, accumulator, D, B row-major).
CASES = [
    ("bf16", "bf16", "f32", "bf16", False),  # B = W.t(): nn.Linear's weight
    ("bf16", "bf16", "f32", "bf16", True),  # B row-major: the swapped A is MN-major
    ("f16", "f16", "f16", "f16", False),
    ("f16", "f16", "f32", "f32", True),
    ("e4m3", "e4m3", "f32", "bf16", False),
    ("s8", "s8", "s32", "s32", False),
    ("tf32", "tf32", "f32", "f32", False),
]


def _id(case) -> str:
    a, _, acc, d, b_row = case
    return f"{a}-{acc}-{d}-{'Brow' if b_row else 'Bcol'}"


@pytest.mark.parametrize("m", [1, 7, 16, 33, 64])
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_swapped_every_type(torch, case, m) -> None:
    """swap_ab = true on ragged N and K (neither a multiple of the tiles)."""
    a_t, b_t, acc, d_t, b_row = case
    n, k = 1000, 1008 if a_t in ("e4m3", "s8") else 1000
    a, b = operand(torch, m, k, a_t, True, m), operand(torch, k, n, b_t, b_row, m + 1)
    d = poisoned(torch, (m, n), d_t)
    lower_tc.matmul(a, b, d, acc=acc, swap_ab=True)
    check(torch, d, a, b, a_t, acc, d_t)


@pytest.mark.parametrize("options", [{}, {"split_k": 2}, {"split_k": 4, "reduce": "global"}],
                         ids=["unsplit", "split2-cluster", "split4-global"])
def test_swapped_adds_c_and_splits_k(torch, options) -> None:
    """C added, K split over a cluster or through the workspace: the reduced tile stored
    down D's rows (C = D, D += A x B, is `lower-tc run`'s case below: lower_tc.matmul
    refuses an out that overlaps c)."""
    m, n, k = 24, 2056, 3000
    a, b = operand(torch, m, k, "bf16", True, 3), operand(torch, k, n, "bf16", False, 4)
    c = operand(torch, m, n, "f32", True, 5)
    d = poisoned(torch, (m, n), "f32")
    lower_tc.matmul(a, b, d, c, swap_ab=True, **options)
    check(torch, d, a, b, "bf16", "f32", "f32", c=c)


def test_default_swaps_decoding_and_matches_unswapped(torch) -> None:
    """The chooser swaps M = 16 x N = 4096 (its plan's remark says so) and computes what the
    unswapped kernel computes on the same arrays (both against float64)."""
    m, n, k = 16, 4096, 4096
    a, w = operand(torch, m, k, "bf16", True, 6), operand(torch, n, k, "bf16", True, 7)
    swapped, kept = poisoned(torch, (m, n), "bf16"), poisoned(torch, (m, n), "bf16")
    lower_tc.matmul(a, w.t(), swapped)
    lower_tc.matmul(a, w.t(), kept, swap_ab=False)
    check(torch, swapped, a, w.t(), "bf16", "f32", "bf16")
    check(torch, kept, a, w.t(), "bf16", "f32", "bf16")


def test_column_major_d_is_written_and_padding_left_alone(torch) -> None:
    """A column-major D (and C) that is not a swap: the transpose of a padded N x M tensor;
    the padding keeps its NaN."""
    m, n, k = 200, 136, 112
    a, b = operand(torch, m, k, "bf16", True, 8), operand(torch, k, n, "bf16", True, 9)
    whole = poisoned(torch, (n, m + 8), "f32")
    d = whole[:, :m].t()
    c = operand(torch, m, n, "f32", False, 10)
    for options in ({}, {"split_k": 2}, {"split_k": 2, "reduce": "global"}):
        lower_tc.matmul(a, b, d, c, swap_ab=False, **options)
        check(torch, d, a, b, "bf16", "f32", "f32", c=c)
        torch.cuda.synchronize()
        assert torch.isnan(whole[:, m:]).all()


@pytest.mark.parametrize(("bm", "bn"), [(128, 144), (128, 176), (128, 224), (128, 256), (64, 48), (128, 16)])
@pytest.mark.parametrize("b_row", [True, False], ids=["Brow", "Bcol"])
def test_swapped_wide_tiles_store_d_by_transposed_tma_pieces(torch, bm, bn, b_row) -> None:
    """Swapped tiles whose D^T the TMA-store epilogue stages transposed (stmatrix.trans:
    64-, 32- and 16-row pieces) into a D that is a padded tensor's view: ragged M (the last
    tile's pieces clipped by TMA) and K; the padding columns keep their NaN."""
    m, n, k = 1000, 1032, 520
    a, b = operand(torch, m, k, "bf16", True, 11), operand(torch, k, n, "bf16", b_row, 12)
    whole = poisoned(torch, (m, n + 8), "bf16")
    d = whole[:, :n]
    lower_tc.matmul(a, b, d, config=(bm, bn, 64, 4), swap_ab=True, epilogue="tma")  # no fall-back to registers
    check(torch, d, a, b, "bf16", "f32", "bf16")
    torch.cuda.synchronize()
    assert torch.isnan(whole[:, n:]).all()


@pytest.mark.parametrize("m", [7, 24, 127, 300])
def test_a_swap_asked_for_takes_the_swapped_problems_tile(torch, m) -> None:
    """swap_ab=True and TMA stores without a configuration (layout/gemm_choice.py
    `swapped_tile`): at M = 7 and 24 the decoding tile with N' = 16 and 32 (whole 16-row
    pieces: M = 7 computes 9 columns of D^T that TMA clips), at M = 127 and 300 128-row
    tiles of D^T with room for the staging pieces; into a padded D, ragged K."""
    n, k = 1032, 520
    a, b = operand(torch, m, k, "bf16", True, 13), operand(torch, k, n, "bf16", True, 14)
    whole = poisoned(torch, (m, n + 8), "bf16")
    d = whole[:, :n]
    lower_tc.matmul(a, b, d, swap_ab=True, epilogue="tma")
    check(torch, d, a, b, "bf16", "f32", "bf16")
    torch.cuda.synchronize()
    assert torch.isnan(whole[:, n:]).all()


SWAPPED_MLIR = """func.func @decode(%x: memref<{m}x{k}xbf16>, %W: memref<{n}x{k}xbf16>, %D: memref<{m}x{n}xf32>) attributes {{tc.target = "sm_90a"}} {{
  %B = tc.transpose %W : memref<{n}x{k}xbf16> to memref<{k}x{n}xbf16, strided<[1, {k}]>>
  tc.matmul %x, %B to %D plus %D {{swap_ab = true{extra}}} : memref<{m}x{k}xbf16>, memref<{k}x{n}xbf16, strided<[1, {k}]>>, memref<{m}x{n}xf32>, memref<{m}x{n}xf32>
  func.return
}}
"""


@pytest.mark.parametrize("extra", ["", ", split_k = 2", ", split_k = 3, reduce = \"global\""], ids=["unsplit", "cluster", "global"])
def test_lower_tc_run_checks_a_swapped_kernel(tmp_path, capsys, extra) -> None:
    """`lower-tc run` reads d_transposed from the metadata and checks D (= C + A B, C = D)
    against float64, every element, with its guard bytes around every buffer."""
    from lower_tc.lowering.cli.main import main

    m, n, k = 5, 1032, 520
    src = tmp_path / "decode.mlir"
    src.write_text(SWAPPED_MLIR.format(m=m, n=n, k=k, extra=extra))
    code = main(["run", str(src), "--seed", "5", "--json"])
    out = capsys.readouterr()
    (result,) = json.loads(out.out)
    assert code == 0 and result["passed"], out
    assert result["checked"] == m * n and result["stray"] == 0
