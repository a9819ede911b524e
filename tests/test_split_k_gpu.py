"""On an sm_90a GPU: split-K GEMMs (`split_k = S`: S CTAs of a cluster per tile, each over
a slice of K, their partial tiles summed through distributed shared memory in rank order)
through `lower_tc.matmul` on torch tensors. Every operand type and transpose, S from 2 to
8 (S = 3 and 5 do not divide the tile's passes), both schedules, ragged sizes, sizes known
at launch (K with fewer K tiles than CTAs: ranks with an empty slice), C (and D += A x B),
batches (grid z and the grouped order), the shapes split-K is for, and the same bits in D
from two runs. Outputs are filled with NaN (or a poison integer) before each launch and
compared with float64 torch.matmul under the runner's tolerances (test_callable_gpu's
check). Each test skips, with the reason, without an sm_90a GPU or torch.

Run on the GPU machine: python -m pytest -m gpu tests/test_split_k_gpu.py -v
"""

from __future__ import annotations

import pytest

import lower_tc
from test_callable_gpu import _id, check, operand, poisoned

pytestmark = pytest.mark.gpu

#: Ragged sizes with a long K (no multiple of any tile; rows a multiple of 16 bytes, for
#: the 8-bit types too).
M, N, K = 200, 136, 2064


@pytest.fixture(autouse=True)
def gpu(require_gpu, kernel_cache) -> None:
    require_gpu("sm_90a")


#: (A, B, accumulator, D, A row-major, B row-major): every type, the 16-bit transposes.
CASES = [
    *[("bf16", "bf16", "f32", "bf16", ar, br) for ar in (True, False) for br in (True, False)],
    ("bf16", "bf16", "f32", "f32", True, False),
    ("f16", "f16", "f16", "f16", False, True),
    ("f16", "f16", "f32", "f32", True, True),
    ("e4m3", "e4m3", "f32", "bf16", True, False),
    ("e5m2", "e4m3", "f16", "f16", True, False),
    ("tf32", "tf32", "f32", "f32", True, False),
    ("s8", "s8", "s32", "s32", True, False),
    ("u8", "s8", "s32", "s32", True, False),
]



def run(torch, case, m: int, n: int, k: int, *, seed: int, c: bool = False, batch: int | None = None, **kwargs):
    """D (poisoned) = A x B (+ C) with the options `kwargs`, checked against float64; D."""
    a_t, b_t, acc, d_t, a_row, b_row = case
    a = operand(torch, m, k, a_t, a_row, seed, batch=batch)
    b = operand(torch, k, n, b_t, b_row, seed + 1, batch=batch)
    shape = (m, n) if batch is None else (batch, m, n)
    cm = None
    if c and d_t == "s32":
        cm = torch.randint(-1000, 1000, shape, dtype=torch.int32, device="cuda")
    elif c:
        cm = operand(torch, m, n, d_t, True, seed + 2, batch=batch)
    d = poisoned(torch, shape, d_t)
    assert lower_tc.matmul(a, b, d, cm, acc=acc, **kwargs) is d
    check(torch, d, a, b, a_t, acc, d_t, c=cm)
    return d


@pytest.mark.parametrize("split_k", [2, 3, 8])
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_type_and_transpose(torch, case, split_k) -> None:
    run(torch, case, M, N, K, seed=split_k, split_k=split_k)


@pytest.mark.parametrize("options", [
    {"split_k": 4},
    {"split_k": 5, "raster": 0},
    {"split_k": 7, "schedule": "pipelined"},
    {"split_k": 4, "schedule": "pipelined", "raster": 0},
    {"split_k": 8, "mma_depth": 2},
    {"split_k": 2, "config": (128, 256, 64, 2)},  # the partial tile is larger than the ring
    {"split_k": 4, "config": (64, 128, 128, 4)},
    {"split_k": 6, "config": (64, 64, 64, 3)},
    {"split_k": 3, "schedule": "pipelined", "config": (256, 128, 64, 3)},
], ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()).replace(" ", ""))
def test_schedules_and_configurations(torch, options) -> None:
    run_configured(torch, options)


def run_configured(torch, options: dict, **extra) -> None:
    """300 x 520 x 5008 with `options` (and `extra`): e4m3 where the configuration's K step
    is 128 elements, else bf16."""
    opts = dict(options)
    config = opts.pop("config", None)
    if config is not None and config[2] == 128:  # BK in bytes of e4m3: 128 elements
        case = ("e4m3", "e4m3", "f32", "bf16", True, False)
    else:
        case = ("bf16", "bf16", "f32", "bf16", True, True)
    run(torch, case, 300, 520, 5008, seed=11, config=config, **opts, **extra)


@pytest.mark.parametrize("case", [CASES[0], CASES[7], CASES[10]], ids=_id)
@pytest.mark.parametrize(("m", "n", "k", "split_k"), [(M, N, K, 4), (300, 520, 48, 4), (129, 64, 208, 8), (1000, 1000, 1008, 3)])
def test_sizes_known_at_launch(torch, case, m, n, k, split_k) -> None:
    """K = 48 and 208 (one K tile for 4 CTAs; four of 64, two of 128, for 8): the ranks
    whose slice is empty add a zero partial."""
    run(torch, case, m, n, k, seed=21, dynamic=True, split_k=split_k)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("case", [CASES[0], CASES[4], CASES[7], CASES[10]], ids=_id)
def test_c_is_added_once(torch, case, dynamic) -> None:
    run(torch, case, M, N, K, seed=31, c=True, dynamic=dynamic, split_k=4)


def test_d_plus_equals_a_times_b(torch) -> None:
    """C is D itself: each reducing thread reads its elements of D before it stores them."""
    a, b = operand(torch, M, K, "bf16", True, 41), operand(torch, K, N, "bf16", True, 42)
    d = operand(torch, M, N, "f32", True, 43).contiguous()
    start = d.clone()
    # `plus %D`: one argument read and written (lower_tc.matmul refuses c overlapping out)
    source = (f'func.func @acc(%A: memref<{M}x{K}xbf16>, %B: memref<{K}x{N}xbf16>, %D: memref<{M}x{N}xf32>) '
              f'attributes {{tc.target = "sm_90a"}} {{\n  tc.matmul %A, %B to %D plus %D acc f32 {{split_k = 4}} : '
              f"memref<{M}x{K}xbf16>, memref<{K}x{N}xbf16>, memref<{M}x{N}xf32>, memref<{M}x{N}xf32>\n  func.return\n}}\n")
    kernel = lower_tc.compile(source)
    assert kernel.info.gemm is not None and kernel.info.gemm.split_k == 4 and kernel.info.gemm.c == kernel.info.gemm.d
    kernel(a, b, d)
    torch.cuda.synchronize()
    check(torch, d, a, b, "bf16", "f32", "f32", c=start)


@pytest.mark.parametrize("options", [{"split_k": 4}, {"split_k": 4, "raster": 0}, {"split_k": 2, "schedule": "pipelined", "raster": 0},
                                     {"split_k": 4, "dynamic": True}], ids=["grouped", "grid-z", "pipelined", "dynamic"])
def test_batches(torch, options) -> None:
    run(torch, CASES[1], 129, 72, 4104, seed=51, batch=3, **options)


@pytest.mark.parametrize(("case", "m", "n", "k", "config", "split_k"), [
    (CASES[0], 512, 512, 65536, (128, 128, 64, 4), 8),
    (CASES[1], 16, 4096, 4096, (64, 128, 64, 4), 4),
    (CASES[1], 128, 1536, 7168, (128, 128, 64, 4), 4),
    (CASES[7], 128, 1536, 7168, (128, 128, 128, 4), 4),
], ids=["long-k", "decode", "few-tiles-bf16", "few-tiles-e4m3"])
def test_the_shapes_split_k_is_for(torch, case, m, n, k, config, split_k) -> None:
    run(torch, case, m, n, k, seed=61, config=config, split_k=split_k)


@pytest.mark.parametrize("options", [{"split_k": 8}, {"split_k": 3, "schedule": "pipelined"}, {"split_k": 4, "dynamic": True}],
                         ids=["ws8", "pipelined3", "dynamic4"])
def test_two_runs_give_the_same_bits(torch, options) -> None:
    """The partials are summed in rank order whichever CTA finishes first: D's bits are the
    same from run to run (f32 D: every bit of the sum shows)."""
    same_bits_in_a_row(torch, 256, 384, 16384, 71, **options)


def same_bits_in_a_row(torch, m: int, n: int, k: int, seed: int, **options) -> None:
    """Four launches of lower_tc.matmul with `options` on the same bf16 inputs (A row-major,
    B column-major) give an f32 D of the same bits, each poisoned before, the first checked
    against float64."""
    a, b = operand(torch, m, k, "bf16", True, seed), operand(torch, k, n, "bf16", False, seed + 1)
    first = poisoned(torch, (m, n), "f32")
    lower_tc.matmul(a, b, first, **options)
    for _ in range(3):
        again = poisoned(torch, (m, n), "f32")
        lower_tc.matmul(a, b, again, **options)
        torch.cuda.synchronize()
        assert torch.equal(first.view(torch.int32), again.view(torch.int32))
    check(torch, first, a, b, "bf16", "f32", "f32")
