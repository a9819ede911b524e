"""Split-K through global memory (`split_k = S, reduce = "global"`) without a GPU: the
workspace's layout (layout/split_k.py), the options' rules, the chooser's use of it, the
PTX of the sweep's rows (assembled without spills, the protocol's instructions in order)
and the launch path's workspace (a fake driver: allocated zeroed, one per stream, passed
after the arguments). tests/test_split_k_global_gpu.py runs it on the H100."""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT
from fake_cuda import FakeDriver, install
from lower_tc.dialects.tc_schedule import GemmSchedule
from lower_tc.layout.gemm_choice import choose
from lower_tc.layout.split_k import MAX_GLOBAL_SPLIT, SPREAD_WAIT_NS, fragment_offset, reduces_for, split_k_problem, valid_split_k
from lower_tc.layout.gemm import GemmConfig
from lower_tc.lowering.compile import compile_source
from lower_tc.passes.to_ptx.gemm.split_k_global import spreads
from lower_tc.lowering.runtime.callable import Kernel
from test_callable import gpu_array

sys.path.insert(0, str(ROOT / "bench"))
from gemm_suite_shapes import SUITE  # noqa: E402
from gemm_sweep import GemmCase, split_k_global_cases  # noqa: E402
from lower_tc.lowering.backend.ptxas import find_tool  # noqa: E402
from lower_tc.lowering.backend.sass import disassemble, find_disassembler, sass_opcodes  # noqa: E402

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
EXAMPLE = ROOT / "examples" / "gemm_bf16_split_k_global_loop.mlir"


# -- the workspace ------------------------------------------------------------------------


@pytest.mark.parametrize("bn", [8, 64, 128, 256])
@pytest.mark.parametrize("warpgroups", [1, 2])
def test_a_slot_is_every_register_once_and_each_warp_stores_512_contiguous_bytes(bn: int, warpgroups: int) -> None:
    groups = bn // 8  # 16-byte groups of an m64nBN f32 fragment's BN / 2 registers
    offsets = [fragment_offset(w, t, j, bn) for w in range(warpgroups) for t in range(128) for j in range(groups)]
    assert sorted(offsets) == list(range(0, warpgroups * 64 * bn * 4, 16))  # the slot, each 16 bytes once
    for w in range(warpgroups):
        for warp in range(4):
            for j in range(groups):
                store = sorted(fragment_offset(w, 32 * warp + lane, j, bn) for lane in range(32))
                assert store == list(range(store[0], store[0] + 512, 16))


def test_the_range_and_what_each_split_allows() -> None:
    config = GemmConfig(256, 256, 64, 2)
    assert valid_split_k(config, "bf16", "bf16", 65536, reduce="global") == tuple(range(2, MAX_GLOBAL_SPLIT + 1))
    assert valid_split_k(config, "bf16", "bf16", 65536) == ()  # its 256 KiB partial tile does not fit shared memory
    assert valid_split_k(config, "bf16", "bf16", 640, reduce="global") == tuple(range(2, 11))  # 10 K tiles
    assert "1 to 32 with reduce = global" in (split_k_problem(33, config, "bf16", "bf16", None, reduce="global") or "")
    assert "reduce = global takes up to 32" in (split_k_problem(9, GemmConfig(128, 128, 64, 4), "bf16", "bf16", None) or "")
    assert reduces_for("f16") == ("cluster",) and reduces_for("f32") == reduces_for("s32") == ("cluster", "global")


@pytest.mark.parametrize(("schedule", "why"), [
    (GemmSchedule(split_k=12), "split_k = 12 with reduce = cluster"),
    (GemmSchedule(reduce="global"), "reduce = global is how split-K's CTAs sum their partial tiles: it needs split_k"),
    (GemmSchedule("warp_specialized", persistent=True, split_k=4, reduce="global"), "not persistent"),
    (GemmSchedule("warp_specialized", cluster=2, split_k=4, reduce="global", unsplit=8), "pairs the CTAs of one rank"),
    (GemmSchedule("warp_specialized", cluster=2, split_k=4), "the cluster is split_k's"),
    (GemmSchedule(epilogue="tma", split_k=4), "stored from registers"),  # the cluster's sum is in shared memory
])
def test_the_schedule_refuses_what_does_not_go_together(schedule: GemmSchedule, why: str) -> None:
    problem = schedule.problem()
    assert problem is not None and why in problem[1]
    assert GemmSchedule("warp_specialized", split_k=32, reduce="global").problem() is None
    # a global split's CTAs paired to share B (walk.py): one rank's CTAs of two tiles
    assert GemmSchedule("warp_specialized", cluster=2, split_k=8, reduce="global").problem() is None
    # the global split's last CTA sums into its registers, so D may go out by TMA stores
    assert GemmSchedule("warp_specialized", epilogue="tma", split_k=4, reduce="global").problem() is None


# -- the chooser --------------------------------------------------------------------------


def test_the_chooser_splits_through_global_memory_only_the_long_k_shapes() -> None:
    """Measured on the H100 (docs/results/tune_split_k_global_h100.md): the global split
    of every tile wins where K is long and the tiles few; on decode and few-tile shapes the
    cluster's split or none stays faster, so the chooser keeps them. Splitting only the last
    wave's tiles (unsplit) won on two bf16 shapes of a few waves (tune_unsplit_h100.md)."""
    last_wave = set()
    for s in SUITE:
        for t, b_mn_major in (("bf16", False), ("bf16", True), ("e4m3", False)):
            c = choose(s.m, s.n, s.k, t, t, "f32", b_mn_major=b_mn_major)
            if c.split_k > 1 and c.reduce == "global" and not c.unsplit:
                assert s.name.startswith("long-k") and s.k >= 32768, s.name
            if c.unsplit:
                last_wave.add((t, b_mn_major, s.name))
    # a tile as wide as makes whole waves does better there (128 x 160, 128 x 224: layout/
    # gemm_choice.py WIDE_BNS); an MN-major B reads those widths slower, and took the last
    # wave's split at qkv M = 512 and 13b o_proj M = 2048 until 128 x 320 (two wgmmas, whole
    # 128-byte swizzle atoms) made whole waves there too
    assert last_wave == set()
    assert choose(512, 512, 65536, "bf16", "bf16", "f32").reduce == "global"
    assert choose(512, 512, 65536, "f16", "f16", "f16").reduce == "cluster"  # an f16 accumulator: never global


# -- the PTX ------------------------------------------------------------------------------


def _rows() -> list[GemmCase]:
    """Every eleventh of the sweep's 196 rows (CI's time; the sweep runs them all)."""
    return split_k_global_cases()[::11]


@needs_ptxas
@pytest.mark.parametrize("case", _rows(), ids=lambda c: c.name)
def test_the_sweeps_rows_assemble_without_spills_and_follow_the_protocol(case: GemmCase) -> None:
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    ptx, info = kernel.ptx, kernel.info
    split = int(re.search(r"split_k = (\d+)", case.options).group(1))  # type: ignore[union-attr]
    assert info.cluster is None and ".reqnctapercluster" not in ptx and "barrier.cluster" not in ptx
    assert info.workspace is not None and info.workspace.split_k == split and info.gemm is not None and info.gemm.reduce == "global"
    assert info.workspace.partial_bytes == info.gemm.config.bm * info.gemm.config.bn * 4
    if spreads(info.grid, split, info.workspace.unsplit, info.gemm.config.bn):
        # stores, fence, count in the tile's 64-bit word (this launch ends at the next multiple
        # of S); the others wait (bounded by %globaltimer), and out of time set their bit with
        # a cas; each slice summed over ranks 0 .. S-1 in order; the last clears the bits its
        # add returned and sums the slices they name, polling nothing
        order = ["st.global.v4.", "fence.acq_rel.gpu;", "atom.acq_rel.gpu.global.add.u64", "mul.lo.u32",
                 "%globaltimer", "ld.acquire.gpu.global.u64", "atom.acq_rel.gpu.global.cas.b64",
                 "bar.red.or.pred", "rank 0's partial", "'s partial added, ranks in order", "st.relaxed.gpu.global.u64"]
        at = 0
        for what in order:
            at = ptx.index(what, at) + 1
        assert ptx.count("rank 0's partial into the registers") == 2 * split
        assert ptx.count("atom.") == 2 and ptx.count("ld.acquire.") == 1 and "spread_poll" not in ptx
        assert ptx.count("bar.red.or.pred") == split + 2 and ptx.count("st.relaxed.") == 1
        assert re.search(rf"setp\.gt\.s64 %p\d+, %rd\d+, {SPREAD_WAIT_NS};", ptx), "the wait is bounded"
        assert "st.global.u32" not in ptx, "no counter reset: each launch adds S"
    else:
        # stores, fence, meet, count, learn, fence, reset, the ranks' loads in order
        order = ["st.global.v4.", "fence.acq_rel.gpu;", "atom.acq_rel.gpu.global.add.u32", "bar.red.or.pred",
                 "fence.acq_rel.gpu;", "st.global.u32", "rank 0's partial", "rank i's partial added"]
        at = 0
        for what in order:
            at = ptx.index(what, at) + 1
        # rank 0's slot into the registers, then a loop from rank 1 to S adding each slot in turn
        assert ptx.count("rank 0's partial into the registers") == 1 and ptx.count("rank i's partial added") == 1
        loop = re.search(r"mov\.s32 %r\d+, 1;\n\tmov\.s32 %r\d+, (\d+);\n(?:.*\n){0,6}?\$L_for_\d+_head:", ptx[ptx.index("rank 0's partial"):])
        assert loop is not None and int(loop.group(1)) == split, "the loop over ranks 1 .. S-1"
        assert ptx.count("atom.") == 1 and ptx.count("bar.red.or.pred") == 1
    proc = subprocess.run([str(find_tool("ptxas")), "-arch=sm_90a", "-v", "-", "-o", "/dev/null"], input=ptx,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    spilled = int(re.search(r"(\d+) bytes spill stores", proc.stderr).group(1))  # type: ignore[union-attr]
    # ptxas hoists the reduction's loads of all S slots (their sums need them) and may spill
    # a few registers there, in the tile's last CTA only: at most 64 bytes, never before
    assert spilled <= 64, proc.stderr
    if find_disassembler() is not None:
        ops = sass_opcodes(disassemble(kernel.cubin))
        counted = next(i for i, o in enumerate(ops) if o.startswith("ATOMG"))
        assert not [o for o in ops[:counted] if o.startswith(("LDL", "STL"))]  # the K loop and the partial's stores


# -- the launch path's workspace (a fake driver) -------------------------------------------


@pytest.fixture
def fake(monkeypatch) -> FakeDriver:
    driver = FakeDriver()
    install(monkeypatch, driver)
    return driver


def test_the_workspace_is_zeroed_once_per_stream_and_passed_after_the_arguments(fake) -> None:
    (compiled,) = compile_source(EXAMPLE.read_text(), EXAMPLE.name)
    info = compiled.info
    assert info.workspace is not None
    arrays = [gpu_array(fake, *a.shape, a.dtype, order="C") for a in info.args]  # type: ignore[misc]
    kernel = Kernel(b"cubin", info)
    need = info.workspace.bytes(128)  # the grid: 32 x 4 CTAs
    kernel(*arrays, stream=77)
    kernel(*arrays, stream=77)
    allocs = [a for a in fake.called("cuMemAlloc")]
    assert allocs == [(need,)]
    ((ptr, value, size),) = fake.called("cuMemsetD8")
    assert (value, size) == (0, need) and fake.names.index("cuMemsetD8") < fake.names.index("cuLaunchKernel")
    assert "cuCtxSynchronize" in fake.names  # zero before any stream may launch on it
    launches = fake.called("cuLaunchKernel")
    assert len(launches) == 2 and launches[0][9] == launches[1][9]  # one launch, built once
    assert _pointers(launches[0][9]) == [getattr(x, "array", x).__cuda_array_interface__["data"][0] for x in arrays] + [ptr]
    kernel(*arrays, stream=78)  # another stream: another workspace
    assert len(fake.called("cuMemAlloc")) == 2 and len(fake.called("cuMemsetD8")) == 2
    (second, _, _) = fake.called("cuMemsetD8")[-1]
    assert second != ptr and _pointers(fake.called("cuLaunchKernel")[-1][9])[3] == second


def _pointers(params: int, count: int = 4) -> list[int]:
    """The first `count` u64 parameters of a launch's parameter block (an array of the
    parameters' addresses)."""
    addresses = np.frombuffer(ctypes.string_at(params, 8 * count), np.uint64)
    return [int(np.frombuffer(ctypes.string_at(int(p), 8), np.uint64)[0]) for p in addresses]


def test_a_plan_without_the_workspace_address_is_refused() -> None:
    from lower_tc.lowering.runtime import launcher
    from lower_tc.lowering.runtime.errors import RunError

    (compiled,) = compile_source(EXAMPLE.read_text(), EXAMPLE.name)
    with pytest.raises(RunError, match="takes 4 addresses \\(its arguments and its workspace\\), not 3"):
        launcher.plan("fn", compiled.info, (128, 1, 1), (1, 2, 3), ())
