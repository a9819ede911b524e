"""On an sm_90a GPU: split-K through global memory (`split_k = S, reduce = "global"`: S
consecutive CTAs along x per tile, their partial tiles written to the kernel's workspace,
summed in rank order by the tile's last CTA) through `lower_tc.matmul` on torch tensors.
Every operand type it takes (f32 and s32 accumulators), the transposes, S from 2 to 32,
both schedules, grids of more CTAs than the GPU runs at once, ragged sizes, sizes known at
launch (ranks with an empty slice of K), C, batches, and the workspace's counters: left
at zero by each launch (four launches in a row give the same bits), one workspace per
stream (launches on two streams at once). Outputs are poisoned before each launch and
compared with float64 under the runner's tolerances (test_callable_gpu's check). Each test
skips, with the reason, without an sm_90a GPU or torch.

Run on the GPU machine: python -m pytest -m gpu tests/test_split_k_global_gpu.py -v
"""

from __future__ import annotations

import re

import pytest

import lower_tc
from test_callable_gpu import _id, check, operand, poisoned
from test_split_k_gpu import CASES, K, M, N, run, run_configured, same_bits_in_a_row

pytestmark = pytest.mark.gpu

GLOBAL = {"reduce": "global"}
#: The cases whose accumulator the global reduction takes (f32, s32: not f16).
GLOBAL_CASES = [c for c in CASES if c[2] != "f16"]


@pytest.fixture(autouse=True)
def gpu(require_gpu, kernel_cache) -> None:
    require_gpu("sm_90a")


@pytest.mark.parametrize("split_k", [2, 5, 16])
@pytest.mark.parametrize("case", GLOBAL_CASES, ids=[_id(c) for c in GLOBAL_CASES])
def test_every_type_and_transpose(torch, case, split_k) -> None:
    run(torch, case, M, N, K, seed=split_k, split_k=split_k, **GLOBAL)


@pytest.mark.parametrize("options", [
    {"split_k": 3, "schedule": "pipelined"},
    {"split_k": 5, "raster": 0},
    {"split_k": 8, "mma_depth": 2},
    {"split_k": 32},
    {"split_k": 2, "config": (128, 256, 64, 4)},
    {"split_k": 4, "config": (64, 128, 128, 4)},
    {"split_k": 6, "config": (64, 64, 64, 3)},
    {"split_k": 3, "schedule": "pipelined", "config": (256, 128, 64, 3)},
], ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()).replace(" ", ""))
def test_schedules_and_configurations(torch, options) -> None:
    run_configured(torch, options, **GLOBAL)


@pytest.mark.parametrize("case", [CASES[0], CASES[7], CASES[10]], ids=_id)
@pytest.mark.parametrize(("m", "n", "k", "split_k"), [(M, N, K, 4), (300, 520, 48, 4), (129, 64, 208, 8), (1000, 1000, 1008, 24)])
def test_sizes_known_at_launch(torch, case, m, n, k, split_k) -> None:
    """K = 48 and 208 (one K tile for 4 CTAs; four of 64, two of 128, for 8; 16 or 8 for
    24): the ranks whose slice is empty store a zero partial and count themselves."""
    run(torch, case, m, n, k, seed=21, dynamic=True, split_k=split_k, **GLOBAL)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("case", [CASES[0], CASES[4], CASES[7], CASES[10]], ids=_id)
def test_c_is_added_once(torch, case, dynamic) -> None:
    run(torch, case, M, N, K, seed=31, c=True, dynamic=dynamic, split_k=4, **GLOBAL)


@pytest.mark.parametrize("options", [{"split_k": 4}, {"split_k": 4, "raster": 0}, {"split_k": 2, "schedule": "pipelined", "raster": 0},
                                     {"split_k": 12, "dynamic": True}], ids=["grouped", "grid-z", "pipelined", "dynamic"])
def test_batches(torch, options) -> None:
    """Grid z (raster 0) and the grouped order: the workspace's slots and counters follow
    the linear block index over all three dimensions."""
    run(torch, CASES[1], 129, 72, 4104, seed=51, batch=3, **options, **GLOBAL)


@pytest.mark.parametrize(("case", "m", "n", "k", "config", "split_k"), [
    (CASES[0], 512, 512, 65536, (128, 128, 64, 4), 8),
    (CASES[0], 512, 512, 65536, (64, 64, 64, 8), 8),  # 512 CTAs: four times what runs at once
    (CASES[1], 1024, 1024, 32768, (128, 256, 64, 4), 4),
    (CASES[1], 16, 4096, 4096, (64, 64, 64, 8), 2),
    (CASES[7], 128, 1536, 7168, (128, 128, 128, 4), 11),
], ids=["long-k", "more-ctas-than-sms", "long-k-128x256", "decode", "few-tiles-e4m3"])
def test_the_shapes_it_is_for(torch, case, m, n, k, config, split_k) -> None:
    run(torch, case, m, n, k, seed=61, config=config, split_k=split_k, **GLOBAL)


@pytest.mark.parametrize("options", [{"split_k": 8}, {"split_k": 3, "schedule": "pipelined"}, {"split_k": 16, "dynamic": True}],
                         ids=["ws8", "pipelined3", "dynamic16"])
def test_launches_in_a_row_give_the_same_bits(torch, options) -> None:
    """The partials are summed in rank order whichever CTA comes last, and each launch
    leaves the counters at zero for the next (one that did not would leave D poisoned):
    four launches on the same workspace give the same bits (f32 D: every bit shows)."""
    same_bits_in_a_row(torch, 256, 384, 16384, 71, **options, **GLOBAL)


def test_each_stream_has_its_own_workspace(torch) -> None:
    """One compiled kernel launched on two streams at once, many times: each stream's
    launches use their own workspace (one shared would mix the two streams' partials and
    counters)."""
    m, n, k = 256, 256, 32768
    source = (f'func.func @g(%A: memref<{m}x{k}xbf16>, %B: memref<{k}x{n}xbf16>, %D: memref<{m}x{n}xf32>) '
              f'attributes {{tc.target = "sm_90a"}} {{\n  tc.matmul %A, %B to %D {{split_k = 16, reduce = "global"}} : '
              f"memref<{m}x{k}xbf16>, memref<{k}x{n}xbf16>, memref<{m}x{n}xf32>\n  func.return\n}}\n")
    kernel = lower_tc.compile(source)
    assert kernel.info.workspace is not None and kernel.info.cluster is None
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    inputs = [(operand(torch, m, k, "bf16", True, 81 + 2 * i), operand(torch, k, n, "bf16", True, 82 + 2 * i)) for i in range(2)]
    outs = [[poisoned(torch, (m, n), "f32") for _ in range(8)] for _ in range(2)]
    torch.cuda.synchronize()
    for r in range(8):
        for s, stream in enumerate(streams):
            with torch.cuda.stream(stream):
                kernel(*inputs[s], outs[s][r], stream=stream)
    torch.cuda.synchronize()
    for s in range(2):
        for r in range(8):
            assert torch.equal(outs[s][0].view(torch.int32), outs[s][r].view(torch.int32))
        check(torch, outs[s][0], *inputs[s], "bf16", "f32", "f32")


# -- the last wave's tiles split after whole ones (unsplit = F) -------------------------------


@pytest.mark.parametrize(("split_k", "unsplit"), [(3, 20), (5, 1), (2, 24)])
@pytest.mark.parametrize("case", GLOBAL_CASES, ids=[_id(c) for c in GLOBAL_CASES])
def test_unsplit_every_type_and_transpose(torch, case, split_k, unsplit) -> None:
    """304 x 520 in 64 x 128 tiles: 25 tiles, the first `unsplit` whole and the rest split
    (ragged M, N and K)."""
    bk = {"tf32": 32, "bf16": 64, "f16": 64}.get(case[0], 128)  # a 128-byte K step
    run(torch, case, 304, 520, 2064, seed=91 + split_k, config=(64, 128, bk, 4), split_k=split_k, unsplit=unsplit, **GLOBAL)


@pytest.mark.parametrize("options", [
    {"schedule": "pipelined"}, {"epilogue": "registers"}, {"c": True}, {"batch": 3},
], ids=["pipelined", "registers", "c", "batch"])
def test_unsplit_schedules_epilogues_c_and_batches(torch, options) -> None:
    run(torch, CASES[0], 300, 520, 2064, seed=95, config=(64, 128, 64, 4), split_k=3, unsplit=10, **options, **GLOBAL)


@pytest.mark.parametrize(("m", "n", "k", "config", "split_k", "unsplit"), [
    (512, 10240, 8192, (128, 256, 64, 4), 4, 132),
    (2048, 5120, 5120, (128, 256, 64, 4), 2, 264),
    (512, 10240, 8192, None, None, None),  # the chooser's own (this split)
], ids=["qkv-512", "o_proj-2048", "default-qkv-512"])
def test_unsplit_the_shapes_it_is_for(torch, m, n, k, config, split_k, unsplit) -> None:
    options = {} if config is None else {"config": config, "split_k": split_k, "unsplit": unsplit, **GLOBAL}
    run(torch, CASES[0], m, n, k, seed=97, **options)


def test_unsplit_launches_in_a_row_give_the_same_bits(torch) -> None:
    same_bits_in_a_row(torch, 300, 520, 4096, 99, config=(64, 128, 64, 4), split_k=5, unsplit=12, **GLOBAL)


@pytest.mark.parametrize("split_k", [2, 5, 16])
@pytest.mark.parametrize("case", GLOBAL_CASES, ids=[_id(c) for c in GLOBAL_CASES])
def test_in_pairs_sharing_b(torch, case, split_k) -> None:
    """`cluster = 2` with the global split: one rank's CTAs of two tile rows share B's
    boxes (passes/expand_matmul/walk.py), the tile's last CTA sums every other slot."""
    bk = {"bf16": 64, "f16": 64, "tf32": 32}.get(case[0], 128)  # one 128-byte swizzle row of K
    run(torch, case, 504, N, K, seed=30 + split_k, split_k=split_k, cluster=2, config=(128, 128, bk, 5), **GLOBAL)


def test_the_paired_default_gives_the_same_bits_in_a_row(torch) -> None:
    """512 x 512 x 65536 by default: 128 x 128 tiles split 8 in pairs sharing B, 6 stages
    (layout/gemm_choice.py `paired_split`); four launches, the same bits."""
    same_bits_in_a_row(torch, 512, 512, 65536, seed=41)


def test_a_spread_sum_is_right_when_its_ctas_cannot_all_run_at_once(torch) -> None:
    """The sum spread over a tile's CTAs (a grid of at most 132 CTAs, S a power of two:
    split_k_global.py `spread_reduce`) while another stream's kernel holds 110 SMs for about
    a millisecond (one CTA each, 200 KiB of shared memory): the CTAs that run early wait at
    most 20 us for their tiles' others, give their slices up and leave; the tiles' last CTAs
    sum those. D matches float64, and bit for bit the same launch on an idle GPU."""
    cupy = pytest.importorskip("cupy")
    hold = cupy.RawKernel(r'''
extern "C" __global__ void hold(long long cycles) {
    extern __shared__ char s[];
    long long t = clock64();
    while (clock64() - t < cycles) { if (threadIdx.x == 4096) s[0] = 1; }
}''', "hold")
    hold.max_dynamic_shared_size_bytes = 200 * 1024
    m, n, k = 512, 512, 16384  # 16 tiles of 128 x 128, 8 CTAs each: 128 CTAs
    a, b = operand(torch, m, k, "bf16", True, 91), operand(torch, k, n, "bf16", False, 92)
    options = dict(config=(128, 128, 64, 4), split_k=8, **GLOBAL)
    alone = poisoned(torch, (m, n), "bf16")
    lower_tc.matmul(a, b, out=alone, **options)
    torch.cuda.synchronize()
    held = poisoned(torch, (m, n), "bf16")
    other = cupy.cuda.Stream(non_blocking=True)
    mine = torch.cuda.Stream()
    with other:
        hold((110,), (128,), (2_000_000,), shared_mem=200 * 1024)
    with torch.cuda.stream(mine):
        lower_tc.matmul(a, b, out=held, **options)
    torch.cuda.synchronize()
    other.synchronize()
    check(torch, held, a, b, "bf16", "f32", "bf16")
    assert torch.equal(held, alone)


def test_a_spread_sum_whose_ctas_give_up_at_once_is_right_launch_after_launch(torch, monkeypatch) -> None:
    """The spread sum compiled with no wait (SPREAD_WAIT_NS = 0): a CTA that does not find
    its tile's count complete at its first look gives its slice up (atom.cas on the tile's
    word) and the last CTA sums it from the bits its own add returned, then clears them.
    Five launches in a row into fresh outputs: each matches float64, and all match the
    kernel that waits (the same bits), so the bits are cleared between launches and a given
    up slice is summed once."""
    import lower_tc.passes.to_ptx.gemm.split_k_global as split_k_global
    from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul
    from lower_tc.lowering.backend.assembler import assemble
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.callable import Kernel

    m, n, k = 512, 512, 16384  # 16 tiles of 128 x 128, 8 CTAs each: 128 CTAs, spread
    a, b = operand(torch, m, k, "bf16", True, 93), operand(torch, k, n, "bf16", False, 94)
    args = [MatrixArg("a", (m, k), tuple(a.stride()), "bf16"), MatrixArg("b", (k, n), tuple(b.stride()), "bf16"),
            MatrixArg("out", (m, n), (n, 1), "bf16")]
    source = plan_matmul(*args, None, target="sm_90a", config=(128, 128, 64, 4),
                         options={"split_k": 8, "reduce": "global", "persistent": False}).source
    waits = compile_source(source, "waits")[0]
    monkeypatch.setattr(split_k_global, "SPREAD_WAIT_NS", 0)
    impatient = compile_source(source, "impatient")[0]
    assert "atom.acq_rel.gpu.global.cas.b64" in impatient.ptx
    assert re.search(r"setp\.gt\.s64 %p\d+, %rd\d+, 0;", impatient.ptx), "the wait is 0 ns"
    kernels = [Kernel(assemble(ck.ptx, "sm_90a"), ck.info) for ck in (waits, impatient)]
    want = poisoned(torch, (m, n), "bf16")
    kernels[0](a, b, want)
    check(torch, want, a, b, "bf16", "f32", "bf16")
    for _ in range(5):
        d = poisoned(torch, (m, n), "bf16")
        kernels[1](a, b, d)
        check(torch, d, a, b, "bf16", "f32", "bf16")
        assert torch.equal(d, want)
