"""tc.attention and tc-expand-attention (docs/attention.md, "The op level"): the op's
refusals, and that the expansion is the loop level bench/attention_loop.py writes for the
same problem and blocks, the kernels its GPU check ran on the H100: the PTX of both is the
same, instruction for instruction (the kernel's name and the source locations aside)."""

from __future__ import annotations

import re
from dataclasses import replace
import sys

import pytest

from conftest import ROOT
from lower_tc.lowering.compile import compile_source
from lower_tc.layout.attention import DEFAULT_BLOCKS, FP8_BLOCKS

sys.path.insert(0, str(ROOT / "bench"))
from attention_loop import AttentionCase  # noqa: E402


def _instructions(ptx: str) -> list[str]:
    """The PTX without comments and the metadata line (locations, the source's name)."""
    return [ln for ln in ptx.splitlines() if ln.strip() and not ln.lstrip().startswith("//")]


def _fp8_levels(problem: dict, **options) -> tuple[AttentionCase, object, object]:
    """An e4m3 problem at the fp8 blocks, and its op level's and loop level's kernels."""
    blocks = FP8_BLOCKS[problem["d"]]
    case = AttentionCase(**problem, **options, dtype="e4m3", bm=blocks.bm, bn=blocks.bn, stages=blocks.stages)
    (op_level,) = compile_source(case.op_source(), "op.mlir")
    (loop_level,) = compile_source(case.source(), "loop.mlir")
    return case, op_level, loop_level


#: Problems the GPU check ran at the default blocks (bench/attention_loop.py CHECKS and BENCH).
PROBLEMS = [
    dict(heads=4, sq=1000, d=64, kv_heads=2, causal=True, lse=True),
    dict(heads=2, sq=4097, d=128, lse=True),
    dict(heads=2, sq=256, d=256),
    dict(heads=1, sq=127, sk=1000, d=64),
    dict(heads=4, sq=512, d=64, kv_heads=1, dtype="f16"),
    dict(heads=4, sq=300, d=128, kv_heads=2, causal=True, lse=True, batch=2, layout="bshd"),
]


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: "_".join(f"{k}{v}" for k, v in p.items()))
def test_the_op_expands_to_the_checked_loop_level(problem) -> None:
    blocks = DEFAULT_BLOCKS[problem["d"]]
    case = AttentionCase(**problem, bm=blocks.bm, bn=blocks.bn, stages=blocks.stages)
    (op_level,) = compile_source(case.op_source(), "op.mlir")
    (loop_level,) = compile_source(case.source(), "loop.mlir")
    assert op_level.info == loop_level.info
    assert _instructions(op_level.ptx) == _instructions(loop_level.ptx)


@pytest.mark.parametrize("problem", [dict(heads=2, sq=1024, d=64, causal=True), dict(heads=4, sq=1008, d=128, kv_heads=2),
                                     dict(heads=2, sq=512, d=256, lse=True)], ids=lambda p: "_".join(f"{k}{v}" for k, v in p.items()))
def test_an_fp8_op_expands_to_the_checked_fp8_loop_level(problem) -> None:
    """e4m3 Q, K and V^T (keys contiguous) with a bf16 O: the op level's kernel runs the
    instructions of bench/attention_loop.py's fp8 loop (V read through a view of a V^T
    argument there, as the strided argument itself here), with the fp8 blocks."""
    case, op_level, loop_level = _fp8_levels(problem)
    assert op_level.info.attention == replace(loop_level.info.attention, v_transposed=False)
    assert op_level.info.args[2].strides[-2:] == (1, case.keys) and loop_level.info.attention.v_transposed
    assert _instructions(op_level.ptx) == _instructions(loop_level.ptx)


@pytest.mark.parametrize("problem", [dict(heads=4, sq=300, d=64, batch=2, layout="bshd", kv_heads=2, causal=True, v_given=True),
                                     dict(heads=2, sq=1008, d=128, kv_heads=1),
                                     dict(heads=1, sq=1000, sk=1009, d=256, causal=True, lse=True, v_given=True)],
                         ids=lambda p: "_".join(f"{k}{v}" for k, v in p.items()))
def test_an_fp8_op_with_descaling_factors_expands_to_the_checked_loop_level(problem) -> None:
    """q_descale, k_descale and v_descale: the op level's kernel runs bench/attention_loop.py's
    loop with the factors (read at the CTA's batch and K head, the scores' product on the
    scale, V's on O's division), and its metadata names the same arguments."""
    _, op_level, loop_level = _fp8_levels(problem, descale=True)
    att = op_level.info.attention
    first = 5 if problem.get("lse") else 4
    assert (att.qk_descale, att.v_descale) == ((first, first + 1), (first + 2,))
    assert att == replace(loop_level.info.attention, v_transposed=att.v_transposed)
    assert _instructions(op_level.ptx) == _instructions(loop_level.ptx)
    assert sum("ld.global.f32" in ln for ln in _instructions(op_level.ptx)) == 3  # each factor read once


@pytest.mark.parametrize("problem", [dict(heads=2, sq=1024, d=64, causal=True), dict(heads=4, sq=1008, d=128, kv_heads=2),
                                     dict(heads=2, sq=512, d=256, lse=True),
                                     dict(heads=4, sq=300, d=64, batch=2, layout="bshd", kv_heads=2, causal=True)],
                         ids=lambda p: "_".join(f"{k}{v}" for k, v in p.items()))
def test_an_fp8_op_with_v_as_given_expands_to_the_checked_loop_level(problem) -> None:
    """e4m3 Q, K and V all with their head dim contiguous (BHSD, and BSHD with a batch): the
    op level's kernel runs the instructions of bench/attention_loop.py's fp8 loop with V
    as given (an MN-major ring and tc.tile_transpose), with the fp8 blocks; V is read as
    given (no v_transposed)."""
    case, op_level, loop_level = _fp8_levels(problem, v_given=True)
    assert op_level.info == loop_level.info and not op_level.info.attention.v_transposed
    assert op_level.info.args[2].strides[-1] == 1
    assert "V transposed" in op_level.ptx
    assert _instructions(op_level.ptx) == _instructions(loop_level.ptx)


def _op(q: str, kv: str, v: str | None = None, attrs: str = "{causal}", o: str | None = None) -> str:
    v, o = v or kv, o or q
    return (f'func.func @f(%Q: {q}, %K: {kv}, %V: {v}, %O: {o}) attributes {{tc.target = "sm_90a"}} {{\n'
            f"  tc.attention %Q, %K, %V to %O {attrs} : {q}, {kv}, {v}, {o}\n  func.return\n}}\n")


E4M3_V = "memref<2x256x64xf8E4M3FN, strided<[16384, 1, 256]>>"  # V^T in memory: keys contiguous


@pytest.mark.parametrize(("text", "why"), [
    (_op("memref<4x256x48xbf16>", "memref<2x256x48xbf16>"), "the head dim is 64, 128, 256, not 48"),
    (_op("memref<4x256x64xbf16>", "memref<3x256x64xbf16>"), "K/V's 3 heads must divide Q's 4"),
    (_op("memref<4x256x64xbf16>", "memref<2x256x64xbf16>", "memref<2x256x64xf16>"), "Q, K and V have one element type, not bf16, f16"),
    (_op("memref<4x256x64xbf16>", "memref<2x256x64xbf16>", o="memref<4x256x64xf16>"), "Q, K, V and O have one element type, not bf16, f16"),
    (_op("memref<4x256x64xf8E4M3FN>", "memref<2x256x64xf8E4M3FN>", E4M3_V), "O of an 8-bit attention is bf16 or f16, not e4m3"),
    (_op("memref<4x256x64xf8E4M3FN>", "memref<2x256x64xf8E4M3FN>", "memref<2x256x64xf8E4M3FN, strided<[32768, 128, 2]>>",
         o="memref<4x256x64xbf16>"), "an 8-bit V has its head dim contiguous (transposed in shared memory) or its keys"),
    (_op("memref<4x256x64xf8E4M3FN>", "memref<2x256x64xf8E4M3FN>", "memref<2x256x64xf8E4M3FN, strided<[16384, 1, 264]>>",
         o="memref<4x256x64xbf16>"), "V's head dim stride 264 is not a positive multiple of 16 bytes"),
    (_op("memref<4x256x64xf8E4M3FN>", "memref<2x256x64xf8E4M3FN>", "memref<2x256x64xf8E5M2, strided<[16384, 1, 256]>>",
         o="memref<4x256x64xbf16>"), "Q, K and V have one element type, not e4m3, e5m2"),
    (_op("memref<4x256x64xbf16>", "memref<2x256x64xbf16>", attrs="{scale = -1.0}"), "the softmax scale is a finite number above 0"),
    (_op("memref<256x64xbf16>", "memref<256x64xbf16>"), "Q is (batch, heads, sequence, head dim) or (heads, sequence, head dim), not 2-d"),
    (_op("memref<4x256x64xf32>", "memref<2x256x64xf32>"), "Q is bf16, f16, e4m3 or e5m2, not f32"),
    (_op("memref<4x256x64xbf16>", "memref<2x300x64xbf16>", "memref<2x256x64xbf16>"), "V's shape [2, 256, 64] is not K's [2, 300, 64]"),
])
def test_the_op_refuses_what_the_loop_level_cannot_run(text: str, why: str) -> None:
    import lower_tc

    with pytest.raises(lower_tc.CompileError, match=r"<source>:2:3: error: " + re.escape(why)):
        lower_tc.compile(text)


#: Problems on tcgen05 (sm_100a) at its blocks: every head dim, causal and ragged, GQA, the
#: log-sum-exp, f16, a BSHD batch.
TCGEN05_PROBLEMS = [
    dict(heads=4, sq=1000, d=64, kv_heads=2, causal=True, lse=True),
    dict(heads=2, sq=4097, d=128, lse=True),
    dict(heads=2, sq=256, d=256, causal=True),
    dict(heads=1, sq=127, sk=1000, d=64, dtype="f16"),
    dict(heads=4, sq=300, d=128, kv_heads=2, causal=True, lse=True, batch=2, layout="bshd"),
]


@pytest.mark.parametrize("problem", TCGEN05_PROBLEMS, ids=lambda p: "_".join(f"{k}{v}" for k, v in p.items()))
def test_the_op_on_sm100a_expands_to_the_tcgen05_loop_level(problem) -> None:
    """On sm_100a the op's expansion is the loop level written with tc.tcgen05_mma at
    TCGEN05_BLOCKS (128 queries a block), instruction for instruction; with ptxas it
    assembles with no spill and its SASS holds the tensor-memory MMAs and no shuffle (a
    row is one thread's)."""
    from lower_tc.layout.attention import TCGEN05_BLOCKS
    from lower_tc.lowering.backend.sass import disassemble, find_disassembler
    from lower_tc.lowering.backend.ptxas import find_tool

    blocks = TCGEN05_BLOCKS[problem["d"]]
    case = AttentionCase(**problem, bm=blocks.bm, bn=blocks.bn, stages=blocks.stages, target="sm_100a")
    assemble = find_tool("ptxas") is not None
    (op_level,) = compile_source(case.op_source(), "op.mlir", assemble=assemble)
    (loop_level,) = compile_source(case.source(), "loop.mlir")
    assert op_level.info == loop_level.info
    assert op_level.info.threads == 128 and op_level.info.attention.block_m == 128
    assert _instructions(op_level.ptx) == _instructions(loop_level.ptx)
    assert "tcgen05.mma.cta_group::1.kind::f16" in op_level.ptx and "wgmma" not in op_level.ptx
    if not assemble or find_disassembler() is None:
        pytest.skip("ptxas or nvdisasm not found: the PTX is checked, not its SASS")
    sass = disassemble(op_level.cubin)
    count = lambda op: len(re.findall(rf"\b{op}\b", sass))  # noqa: E731
    slices = problem["d"] // 16 + blocks.bn // 16  # Q K^T's K-slices and P V's, a block
    assert count("UTCHMMA") == slices
    assert count("SHFL") == count("LDL") == count("STL") == 0
