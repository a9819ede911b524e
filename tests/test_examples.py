"""Every example compiles through the default pipeline, assembles with ptxas for
its target and contains the tensor-core instructions in its SASS (no GPU needed);
on a GPU that runs its target, it computes the reference result."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, example_target
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import EXPECTED_SASS, check_sass, disassemble, find_disassembler

#: The SASS each example must contain (a silent fallback would lack it).
SASS = {
    "wgmma_bf16_kmajor": ("wgmma.bf16",),
    "wgmma_bf16_mnmajor": ("wgmma.f16",),
    "wgmma_tf32": ("wgmma.tf32",),
    "wgmma_e4m3": ("wgmma.e4m3", "tma"),
    "wgmma_s8_regs": ("wgmma.s8",),
    "wgmma_bf16_tma_offset": ("wgmma.bf16", "tma"),
    "wmma_f16": ("wmma.f16",),
    "wgmma_f16_gpu_module": ("wgmma.f16",),
    "tcgen05_bf16": ("tcgen05.f16",),
    "tcgen05_m64_tmem_a": ("tcgen05.f16",),
    "attention_tile_tcgen05": ("tcgen05.f16",),
    "attention_online_tcgen05": ("tcgen05.f16",),
    "attention_causal_tcgen05": ("tcgen05.f16",),
    "attention_loop_tcgen05": ("tcgen05.f16", "tma"),
    "tcgen05_e2m1": ("tcgen05.f8f6f4",),
    "tcgen05_tf32_mn_tma": ("tcgen05.tf32", "tma"),
    "gemm_bf16": ("wgmma.bf16", "tma"),
    "gemm_bf16_loop": ("wgmma.bf16", "tma"),
    "gemm_bf16_split_k_loop": ("wgmma.bf16", "tma"),
    "gemm_bf16_split_k_global_loop": ("wgmma.bf16", "tma"),
    "gemm_e4m3": ("wgmma.e4m3", "tma"),
    "gemm_tcgen05_bf16": ("tcgen05.f16", "tma"),
    "gemm_bf16_dynamic": ("wgmma.bf16", "tma"),
    "batched_gemm": ("wgmma.bf16", "tma"),
    "linalg_matmul": ("wgmma.bf16", "tma"),
    "attention_p_in_registers": ("wgmma.bf16",),
    "attention_p_in_registers_e4m3": ("wgmma.e4m3",),
    "attention_tile": ("wgmma.bf16",),
    "attention_online": ("wgmma.bf16",),
    "attention_causal": ("wgmma.bf16",),
    "attention_loop": ("wgmma.bf16", "tma"),
    "attention_loop_e4m3": ("wgmma.e4m3", "tma"),
    "attention_loop_e4m3_v": ("wgmma.e4m3", "tma", "smem_transpose"),
}
#: Sizes known only at launch, per example (lower-tc run --shape).
SHAPES = {"gemm_bf16_dynamic": {"A": (1000, 1000, None), "B": (1000, 1000, None), "D": (1000, 1000, None)}}


def test_every_example_has_an_expectation() -> None:
    assert {p.stem for p in EXAMPLES} == set(SASS)
    assert {example_target(p) for p in EXAMPLES} == {"sm_90a", "sm_100a"}


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_assembles_with_tensor_core_sass(path: Path) -> None:
    kernels = compile_source(path.read_text(), str(path), assemble=True)
    assert len(kernels) == 1
    k = kernels[0]
    assert k.cubin[:4] == b"\x7fELF"
    assert f".target {example_target(path)}" in k.ptx
    if find_disassembler() is None:
        pytest.skip("no nvdisasm/cuobjdump: pip install 'lower-tc[test]'")
    sass = disassemble(k.cubin)
    wanted = [m for key in SASS[path.stem] for m in EXPECTED_SASS[key]]
    assert check_sass(sass, wanted) == []


@pytest.mark.gpu
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_right_on_the_gpu(path: Path, require_gpu) -> None:
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu(example_target(path))
    for seed in (1, 2):
        for k in compile_source(path.read_text(), str(path), assemble=True):
            result = run_kernel(k, seed, shapes=SHAPES.get(path.stem))
            assert result.passed, result.summary()


def _tensor_memory_sass(stem: str) -> dict[str, int]:
    """How many of each tensor-memory instruction (and shuffle, local access) the SASS of
    example `stem` holds; skips where no disassembler is installed."""
    import re

    path = next(p for p in EXAMPLES if p.stem == stem)
    kernel = compile_source(path.read_text(), str(path), assemble=True)[0]
    if find_disassembler() is None:
        pytest.skip("no nvdisasm/cuobjdump: pip install 'lower-tc[test]'")
    sass = disassemble(kernel.cubin)
    return {op: len(re.findall(rf"\b{op}\b", sass)) for op in ("UTCHMMA", "LDTM", "STTM", "SHFL", "LDL", "STL")}


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
@pytest.mark.parametrize("stem", ["attention_online_tcgen05", "attention_causal_tcgen05"])
def test_the_tcgen05_online_softmax_reads_each_row_once_a_block(stem: str) -> None:
    """Four blocks of keys in tensor memory: each block's S loaded once (2 LDTM) and kept in
    registers through the mask, maximum, exp2, sum and P's rounding; O loaded once for each
    rescale (3) and for the division and the store (4): 18 LDTM. Written to tensor memory
    only what an MMA or the store reads there: O rescaled (3 x 2) and divided (2), and P's
    A columns (4): 12 STTM; the masked S and P in f32 stay in registers (a mask costs no
    store). No shuffle (a row is one thread's), no local memory."""
    count = _tensor_memory_sass(stem)
    assert (count["UTCHMMA"], count["LDTM"], count["STTM"]) == (32, 18, 12)
    assert count["SHFL"] == count["LDL"] == count["STL"] == 0


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
def test_the_tcgen05_attention_loop_keeps_its_rows_in_registers_once_a_block() -> None:
    """The tcgen05 attention loop (64 keys a block, head dim 64): a block's Q K^T and P V
    are 4 + 4 UTCHMMA; its S loaded once (2 LDTM) and masked, exponentiated, summed and
    rounded in registers; O rescaled in 32-column pieces (2 LDTM, 2 STTM); P into the A
    columns (1 STTM); after the loop O / l (2 LDTM, 2 STTM) and the store (2 LDTM); O
    zeroed before it (2 STTM). No shuffle, no local memory."""
    count = _tensor_memory_sass("attention_loop_tcgen05")
    assert (count["UTCHMMA"], count["LDTM"], count["STTM"]) == (8, 8, 7)
    assert count["SHFL"] == count["LDL"] == count["STL"] == 0
