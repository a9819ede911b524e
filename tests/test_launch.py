"""The runner's launcher does what a kernel's contract says, seen through a fake CUDA
(the GPU tests run this for real on an H100). It launches through the path a `Kernel`
call takes (lowering/runtime/launcher.py): the tensor maps it encodes, the parameters in
the PTX entry's order, the opt-in to large dynamic shared memory, and the grid (counts,
sizes known at launch, the persistent form in whole clusters)."""

from __future__ import annotations

import sys
import numpy as np
import pytest

from conftest import ROOT
from lower_tc.layout.kernel_info import KernelInfo, PersistentGrid
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime import launch as launching
from lower_tc.lowering.runtime.errors import RunError
from lower_tc.lowering.runtime.sizes import resolve_sizes
from lower_tc.lowering.backend.ptxas import find_tool

sys.path.insert(0, str(ROOT / "bench"))
from gemm_sweep import GemmCase  # noqa: E402

from fake_cuda import SMS, FakeDriver, install  # noqa: E402


@pytest.fixture
def driver(monkeypatch) -> FakeDriver:
    return install(monkeypatch)


def _launch(info: KernelInfo) -> None:
    buffers = [np.zeros(8, np.float32) for _ in info.args]
    launching.launch(b"cubin", info, buffers)


@pytest.mark.parametrize("options, cluster", [("", 1), ("cluster = 2, l2_promotion = 256", 2)])
def test_a_persistent_gemm_gets_one_cta_per_sm_in_whole_clusters(driver, options, cluster) -> None:
    case = GemmCase("bf16", "bf16", "f32", "bf16", 4096, 4096, 4096, True, True, None, options=options)
    (kernel,) = compile_source(case.source(), case.name)
    info = kernel.info
    assert isinstance(info.grid[0], PersistentGrid) and info.cluster_size == cluster
    _launch(info)
    (fn, gx, gy, gz, bx, by, bz, smem, stream, params, extra), = driver.called("cuLaunchKernel")
    assert (gx, gy, gz) == (SMS - SMS % cluster, 1, 1) and (bx, by, bz) == (info.threads, 1, 1)
    assert smem == info.smem_bytes > 48 * 1024
    assert driver.called("cuFuncSetAttribute")[0][-1] == info.smem_bytes
    for tm, encoded in zip(info.tensor_maps, driver.tensor_maps, strict=True):
        dtype, rank, _, dims, strides, box, _, _, swizzle, promotion, _ = encoded.args
        assert (dtype, rank, dims, strides, box) == (9, 2, list(tm.global_dims), list(tm.global_strides), list(tm.box))
        assert swizzle == tm.tma_swizzle_code and promotion == (tm.l2_promotion or 0)
    assert {tm.l2_promotion for tm in info.tensor_maps[:2]} == ({3} if "l2_promotion" in options else {None})


def test_a_gemm_with_sizes_known_at_launch_gets_them_in_its_parameters_and_maps(driver) -> None:
    (kernel,) = compile_source((ROOT / "examples" / "gemm_bf16_dynamic.mlir").read_text(), "dyn.mlir")
    with pytest.raises(RunError, match="kernel gemm_bf16_dynamic has sizes known only at launch: resolve_sizes first"):
        _launch(kernel.info)
    assert driver.called("cuMemAlloc") == []  # refused before taking anything
    driver.calls.clear()
    info = resolve_sizes(kernel.info, {"A": (1000, 1000, 1008), "B": (1000, 904, None), "D": (1000, 904, None)})
    _launch(info)
    (_, gx, gy, gz, *_), = driver.called("cuLaunchKernel")
    assert (gx, gy, gz) == (4, 8, 1)
    assert [list(tm.args[3]) for tm in driver.tensor_maps] == [list(tm.global_dims) for tm in info.tensor_maps]
    assert driver.tensor_maps[0].args[3] == [1000, 1000] and driver.tensor_maps[0].args[4] == [2016]
    # the parameters in the PTX entry's order: pointers, the .u32 sizes, the tensor maps
    entry = kernel.ptx.split(".visible .entry", 1)[1].split(")", 1)[0]
    assert entry.count(".param .u64") == len(info.args) and entry.count(".param .u32") == len(info.size_params) == 9


def test_a_single_tile_kernel_is_one_cta(driver) -> None:
    (kernel,) = compile_source((ROOT / "examples" / "wgmma_bf16_tma_offset.mlir").read_text(), "t.mlir")
    assert kernel.info.grid is None and kernel.info.size_params is None
    _launch(kernel.info)
    (_, gx, gy, gz, bx, *_), = driver.called("cuLaunchKernel")
    assert (gx, gy, gz, bx) == (1, 1, 1, 128)
    assert len(driver.tensor_maps) == len(kernel.info.tensor_maps) == 2
    assert driver.called("cuFuncSetAttribute") == []  # under 48 KiB
    # the runner launches through a Kernel's own path: cuda.core's module, then the driver
    assert driver.called("ObjectCode.from_cubin") == [(b"cubin", "wgmma_bf16_tma_offset")]
    assert driver.names.index("ObjectCode.from_cubin") < driver.names.index("cuTensorMapEncodeTiled")


def _instructions_before_the_first_param_load(ptx: str) -> list[str]:
    """The kernel body's instructions up to its first ld.param (the operands' addresses:
    nothing can touch global memory before it)."""
    body = ptx.split(".visible .entry", 1)[1].split("\n{\n", 1)[1]
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith(("//", ".reg"))]
    return lines[: next(i for i, ln in enumerate(lines) if ln.startswith("ld.param"))]


@pytest.mark.parametrize("source", ["gemm", "attention"])
def test_whole_gemms_and_attention_loops_wait_first_and_launch_dependent(driver, monkeypatch, source) -> None:
    """Their first instruction is griddepcontrol.wait (nothing reads or writes global memory
    before the kernel before it in the stream has finished), so the launcher launches them
    with programmatic stream serialization allowed: cuLaunchKernelEx, its attribute set;
    LOWER_TC_DEPENDENT_LAUNCH=0 launches them plainly. A single tile waits for nothing."""
    if source == "gemm":
        case = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 512, True, True, None, options="split_k = 2")
        (kernel,) = compile_source(case.source(), case.name)
    else:
        (kernel,) = compile_source((ROOT / "examples" / "attention_loop.mlir").read_text(), "a.mlir")
    assert _instructions_before_the_first_param_load(kernel.ptx)[:1] == ["griddepcontrol.wait;"]
    assert kernel.ptx.count("griddepcontrol") == 1
    assert kernel.info.dependent_launch and KernelInfo.from_json(kernel.info.to_json()).dependent_launch
    _launch(kernel.info)
    assert driver.dependent_launches == [{"CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION":
                                          {"programmaticStreamSerializationAllowed": 1}}]
    assert len(driver.called("cuLaunchKernel")) == 1
    monkeypatch.setenv("LOWER_TC_DEPENDENT_LAUNCH", "0")
    _launch(kernel.info)
    assert len(driver.dependent_launches) == 1 and len(driver.called("cuLaunchKernel")) == 2
    (tile,) = compile_source((ROOT / "examples" / "wgmma_bf16_tma_offset.mlir").read_text(), "t.mlir")
    assert "griddepcontrol" not in tile.ptx and not tile.info.dependent_launch


def test_the_dependent_launch_study_varies_only_the_wait_and_the_trigger() -> None:
    """bench/dependent_launch_study.py's four forms of a kernel's PTX: without the wait, as
    compiled (the wait first), the wait after the barriers' first bar.sync, and with an
    early trigger too; everything else the same instructions."""
    import dependent_launch_study as study

    case = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 512, True, True, None)
    (kernel,) = compile_source(case.source(), case.name)
    forms = {name: study.variant_ptx(kernel.ptx, name) for name in study.VARIANTS}
    assert forms["wait_first"] == kernel.ptx
    strip = lambda ptx: [ln for ln in ptx.splitlines() if "griddepcontrol" not in ln]  # noqa: E731
    assert all(strip(text) == strip(kernel.ptx) for text in forms.values())
    assert [forms[n].count("griddepcontrol") for n in study.VARIANTS] == [0, 1, 1, 2]
    after = forms["wait_after_init"].splitlines()
    wait = next(i for i, ln in enumerate(after) if "griddepcontrol.wait" in ln)
    assert after[wait - 1].strip() == "bar.sync 0;" and "mbarrier.init" in "\n".join(after[:wait])
    assert "griddepcontrol.launch_dependents" in forms["trigger_at_start"].split("ld.param", 1)[0]


def test_the_split_k_tail_probe_takes_only_the_last_ctas_branch() -> None:
    """bench/split_k_tail_probe.py's timing-only form of a global split: the one branch that
    sends all but the tile's last CTA past the sum is taken by every CTA, nothing else
    changes; a kernel without a global split is refused."""
    import split_k_tail_probe as probe

    split = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 8192, True, True, None, options="split_k = 4, reduce = \"global\"")
    (kernel,) = compile_source(split.source(), split.name)
    bare = probe.no_sum(kernel.ptx)
    changed = [(a, b) for a, b in zip(kernel.ptx.splitlines(), bare.splitlines()) if a != b]
    assert len(changed) == 1 and len(bare.splitlines()) == len(kernel.ptx.splitlines())
    before, after = changed[0]
    assert before.strip().startswith("@!%p") and after.strip() == before.strip().split(" ", 1)[1]
    assert "$L_split_k_done_" in after
    one = [(a, b) for a, b in zip(kernel.ptx.splitlines(), probe.one_slot(kernel.ptx).splitlines()) if a != b]
    assert len(one) == 1 and one[0][0].endswith(", 4;") and one[0][1].endswith(", 1;") and "mov.s32" in one[0][1]
    fences = kernel.ptx.count("fence.acq_rel.gpu;")
    assert probe.no_acquire_fence(kernel.ptx).count("fence.acq_rel.gpu;") == fences - 1
    moved = probe.one_release_fence(kernel.ptx)
    assert moved.count("fence.acq_rel.gpu;") == fences and sorted(moved.splitlines()) == sorted(kernel.ptx.splitlines())
    assert "fence.acq_rel.gpu;\n\tatom.acq_rel.gpu.global.add.u32" in moved
    # where the default spreads the sum (128 CTAs), the probe compiles the last CTA's sum, and leaves the rule as it was
    spread = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 65536, True, True, (128, 128, 128, 4), options="split_k = 8, reduce = \"global\"")
    (default,) = compile_source(spread.source(), spread.name)
    last = probe.compile_last_cta_sum(spread.source())
    assert "spread split-K" in default.ptx and "spread split-K" not in last.ptx and "$L_split_k_done_" in last.ptx
    assert "spread split-K" in compile_source(spread.source(), spread.name)[0].ptx
    (plain,) = compile_source(GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 512, True, True, None).source(), "plain")
    for variant in probe.VARIANTS.values():
        with pytest.raises(ValueError):
            variant(plain.ptx)


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
def test_the_order_probe_relabels_every_cta_of_a_paired_split() -> None:
    """bench/split_k_order_probe.py: hardware pair p plays the kernel's pair (p mod P) S +
    p / P, a permutation of the pairs that keeps each pair's two CTAs a hardware cluster;
    every %ctaid.x read is relabelled and the variant assembles; a kernel that is not a
    paired global split has no variant."""
    import split_k_order_probe as probe

    from lower_tc.lowering.backend.assembler import assemble

    pairs, s = 8, 8
    assert sorted((p % pairs) * s + p // pairs for p in range(pairs * s)) == list(range(pairs * s))
    paired = GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 65536, True, False, None)
    found = probe.variants(paired.source())
    assert found is not None
    kernel, forms = found
    reads = kernel.ptx.count("%ctaid.x")
    assert reads >= 2 and forms["rank_major"].count("%ctaid.x") == reads
    assert forms["rank_major"].count(f"rem.u32 %ord3, %ord1, {pairs};") == reads and ".reg .b32 %ord<5>;" in forms["rank_major"]
    assemble(forms["rank_major"], "sm_90a")
    assert probe.variants(GemmCase("bf16", "bf16", "f32", "bf16", 512, 512, 512, True, True, None).source()) is None
