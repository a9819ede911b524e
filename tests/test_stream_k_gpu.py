"""On an sm_90a GPU: stream-K (`stream_k = G`: persistent CTAs, one per SM in G groups,
sharing the tiles' K steps across tile boundaries, partial tiles summed through the
workspace by each tile's last unit) through `lower_tc.matmul` on torch tensors. Every
operand type it takes (f32 and s32 accumulators), the transposes, one group and one per
tile row, fewer tiles than SMs and whole waves first, C, batches, fp8's promoted
accumulation, the workspace's counters left at zero (four launches in a row give the same
bits: the sum is in K order whichever unit comes last) and launches on two streams at
once. Outputs are poisoned before each launch and compared with float64 under the runner's
tolerances. Each test skips, with the reason, without an sm_90a GPU or torch.

Run on the GPU machine: python -m pytest -m gpu tests/test_stream_k_gpu.py -v
"""

from __future__ import annotations

import pytest

import lower_tc
from test_callable_gpu import _id, check, operand, poisoned
from test_split_k_gpu import CASES, K, M, N, run, same_bits_in_a_row

pytestmark = pytest.mark.gpu

#: The cases stream-K takes (f32, s32 accumulators: not f16).
SK_CASES = [c for c in CASES if c[2] != "f16"]
SMALL = (64, 128, 64, 4)  # bf16: 64-element K steps


@pytest.fixture(autouse=True)
def gpu(require_gpu, kernel_cache) -> None:
    require_gpu("sm_90a")


@pytest.mark.parametrize("case", SK_CASES, ids=[_id(c) for c in SK_CASES])
def test_every_type_and_transpose(torch, case) -> None:
    run(torch, case, M, N, K, seed=3, stream_k=1)


@pytest.mark.parametrize(("m", "n", "k", "options"), [
    (256, 7168, 4096, {"stream_k": 2}),  # 56 tiles of 128 x 256, one group per tile row
    (256, 7168, 4096, {"stream_k": 1}),
    (300, 520, 2056, {"stream_k": 5, "config": SMALL}),  # 25 tiles: five groups of 5
    (2049, 2049, 520, {"stream_k": 1, "config": SMALL}),  # 33 x 17 tiles: whole waves first
    (129, 64, 64, {"stream_k": 1}),  # two tiles of one K step: two CTAs
    (1000, 1000, 40, {"stream_k": 1, "config": SMALL}),  # one K step a tile
    (300, 520, 2056, {"stream_k": 1, "epilogue": "registers", "config": SMALL}),
], ids=lambda x: str(x).replace(" ", "") if not isinstance(x, int) else str(x))
def test_walks(torch, m, n, k, options) -> None:
    run(torch, ("bf16", "bf16", "f32", "bf16", True, False), m, n, k, seed=7, **options)


def test_with_c_and_a_batch(torch) -> None:
    run(torch, CASES[0], 300, 520, 2056, seed=9, c=True, stream_k=5, config=SMALL)
    run(torch, CASES[0], 129, 200, 1000, seed=10, batch=3, stream_k=1, config=SMALL)


def test_fp8_promoted(torch) -> None:
    run(torch, ("e4m3", "e4m3", "f32", "bf16", True, False), 300, 520, 4096, seed=12, stream_k=1, accumulation="promoted")


def test_same_bits_launch_after_launch(torch) -> None:
    """The counters are zero again after each launch and the sum is in K order: four
    launches give the same bits."""
    same_bits_in_a_row(torch, 256, 7168, 4096, seed=13, stream_k=2)
    same_bits_in_a_row(torch, 300, 520, 2056, seed=14, stream_k=1, config=SMALL)


def test_two_streams_at_once(torch) -> None:
    """A workspace per stream: two launches at once on two streams, each checked."""
    a, b = operand(torch, 256, 4096, "bf16", True, 15), operand(torch, 4096, 7168, "bf16", False, 16)
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    d1, d2 = poisoned(torch, (256, 7168), "bf16"), poisoned(torch, (256, 7168), "bf16")
    torch.cuda.synchronize()
    for _ in range(3):
        lower_tc.matmul(a, b, d1, stream=s1, stream_k=2)
        lower_tc.matmul(a, b, d2, stream=s2, stream_k=2)
    torch.cuda.synchronize()
    check(torch, d1, a, b, "bf16", "f32", "bf16")
    assert torch.equal(d1.view(torch.int16), d2.view(torch.int16))
