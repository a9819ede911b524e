"""The loop-level attention kernel (docs/attention.md, "The loop level"): what it promises
its launcher, its schedule's shape in the SASS, and the runner's attention check on a fake
GPU (a right answer passes; a wrong element, NaN and a stray write fail). The GPU runs are
tests/test_attention_loop_gpu.py and bench/attention_loop.py --check."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest

from conftest import ROOT
from lower_tc.layout.kernel_info import AttentionInfo, KernelInfo
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import disassemble, find_disassembler
from lower_tc.lowering.compile import compile_source
import lower_tc.lowering.runtime.run as running
from lower_tc.lowering.runtime.attention_check import reference
from lower_tc.lowering.runtime.inputs import matrix_view

sys.path.insert(0, str(ROOT / "bench"))
from attention_loop import CHECKS, AttentionCase  # noqa: E402

EXAMPLE = ROOT / "examples" / "attention_loop.mlir"
needs_tools = pytest.mark.skipif(find_tool("ptxas") is None or find_disassembler() is None,
                                 reason="ptxas and nvdisasm/cuobjdump not found: pip install 'lower-tc[test]'")


def _info(case: AttentionCase) -> KernelInfo:
    (k,) = compile_source(case.source(), case.name)
    return k.info


#: A plain kernel, MQA, causal, S_q > S_k with the log-sum-exp, the pipelined schedule, a
#: BSHD batch, and ping-pong on a causal BSHD batch.
CONTRACT_CASES = [CHECKS[0], CHECKS[6], CHECKS[13], CHECKS[16], next(c for c in CHECKS if c.schedule == "pipelined"),
                  next(c for c in CHECKS if c.batch > 1 and c.layout == "bshd"), next(c for c in CHECKS if c.pingpong),
                  next(c for c in CHECKS if c.descale and c.lse), next(c for c in CHECKS if c.descale and c.batch > 1)]


@pytest.mark.parametrize("case", CONTRACT_CASES, ids=lambda c: c.name)
def test_the_contract_names_q_k_v_o_the_mask_and_the_schedule(case: AttentionCase) -> None:
    """...and the flop count counts every head of every batch (4 B H S_q S_k D, half where
    causal: FA3's count)."""
    from lower_tc.lowering.runtime.timing import attention_flops

    info = _info(case)
    assert attention_flops(info) == 4.0 * case.batch * case.heads * case.sq * case.keys * case.d / (2 if case.causal else 1)
    att = info.attention
    assert isinstance(att, AttentionInfo)
    assert (att.q, att.k, att.v, att.o) == (0, 1, 2, 3)
    assert [a.output for a in info.args] == [False, False, False, True] + ([True] if case.lse else []) + [False] * (3 * case.descale)
    assert att.lse == (4 if case.lse else None)
    first = 4 + case.lse  # the descaling factors follow O and the log-sum-exp
    assert (att.qk_descale, att.v_descale) == (((first, first + 1), (first + 2,)) if case.descale else ((), ()))
    assert att.scale == pytest.approx(case.d**-0.5)
    assert att.causal == (case.keys - case.sq if case.causal else None)
    assert att.keys == (case.keys if case.keys % case.bn else None)
    assert (att.block_m, att.block_n) == (case.bm, case.bn)
    consumers = 128 * (case.bm // 64)
    assert info.threads == (consumers if case.schedule == "pipelined" else consumers + 128)
    assert info.grid == (-(-case.sq // case.bm), case.heads, case.batch)
    assert KernelInfo.from_json(info.to_json()) == info  # the JSON keeps every fact


@needs_tools
@pytest.mark.parametrize("case", [CHECKS[2], CHECKS[4], CHECKS[14]], ids=lambda c: c.name)
def test_each_block_is_two_mmas_on_the_tensor_cores_and_nothing_spills(case: AttentionCase) -> None:
    """D/16 HGMMAs for S (from shared memory) and BN/16 for P V with A from registers,
    twice each: the overlapped loop's first block's S and last block's P V are outside it;
    MUFU.EX2 for the exponentials; the quad's reductions; no local memory (d = 256 keeps
    O's 128 registers a thread and S's besides under setmaxnreg)."""
    (k,) = compile_source(case.source(), case.name, assemble=True)
    sass = disassemble(k.cubin)
    mmas = [ln for ln in sass.splitlines() if "HGMMA" in ln]
    from_registers = [ln for ln in mmas if re.search(r"HGMMA\.\S+ R\d+, R\d+, gdesc", ln)]
    assert len(from_registers) == 2 * case.bn // 16
    assert len(mmas) - len(from_registers) == 2 * case.d // 16
    assert "MUFU.EX2" in sass and "SHFL.BFLY" in sass
    assert not re.search(r"\b(LDL|STL)\b", sass)


def test_the_example_is_the_causal_case_of_the_check() -> None:
    """examples/attention_loop.mlir (hand-written, commented) lowers to the same kernel
    as the bench's causal case of its shape, so the GPU check covers it."""
    case = AttentionCase(2, 1000, d=64, bm=128, bn=64, causal=True)
    (ours,) = compile_source(EXAMPLE.read_text(), str(EXAMPLE))
    (theirs,) = compile_source(case.source(), case.name)
    assert ours.info.attention == theirs.info.attention
    body = lambda ptx: [ln for ln in ptx.splitlines() if ln.startswith("\t") and "//" not in ln]  # noqa: E731
    assert len(body(ours.ptx)) == len(body(theirs.ptx))


def _fake_run(monkeypatch, case: AttentionCase, spoil=None) -> running.RunResult:
    """run_kernel on a fake GPU that writes float64 attention into O (rounded to O's
    type), then lets `spoil(flat O)` change it."""
    (k,) = compile_source(case.source(), case.name)
    info = k.info

    def launch(cubin, info, host_args, timeout):
        att = info.attention
        out = [b.copy() for b in host_args]
        q, kk, v = (matrix_view(host_args[i], info.args[i]).astype(np.float64) for i in (att.q, att.k, att.v))
        heads = lambda x: x[None] if x.ndim == 3 else x[None, None]  # noqa: E731
        want, want_lse = reference(heads(q), heads(kk), heads(v), causal=att.causal is not None, scale=att.scale, layout="bhsd")
        if att.lse is not None:
            lse_flat = out[att.lse]
            lse_flat[:] = want_lse[0].astype(np.float32).reshape(-1).view(lse_flat.dtype)
        o_arg = info.args[att.o]
        flat = out[att.o]
        view = matrix_view(flat, o_arg)
        dense = want[0].reshape(view.shape).astype(np.float32)
        import ml_dtypes

        flat[:] = dense.astype(ml_dtypes.bfloat16).view(flat.dtype).reshape(-1)[: flat.size]
        if spoil is not None:
            spoil(flat, out)
        return out, "fake GPU", [0] * len(out)

    monkeypatch.setattr(running, "launch", launch)
    return running.run_kernel(k, seed=3)


@pytest.mark.parametrize("spoil, passes", [(None, True), ("wrong", False), ("finite for -inf", False)])
def test_the_runner_checks_the_log_sum_exp(monkeypatch, spoil, passes) -> None:
    """Queries 0 .. 1 of 4 see no key (4 queries, 2 keys, causal): their log-sum-exp is
    -inf, and a finite value there fails, as does a wrong one elsewhere."""
    case = AttentionCase(1, 4, sk=2, d=64, bm=64, bn=64, causal=True, lse=True)

    def change(flat, out):
        lse = out[4].view(np.float32)
        if spoil == "wrong":
            lse[3] += 0.01
        elif spoil == "finite for -inf":
            lse[0] = 0.0
    r = _fake_run(monkeypatch, case, None if spoil is None else change)
    assert r.passed == passes, r.summary()


@pytest.mark.parametrize("spoil, passes", [
    (None, True),
    ("wrong", False),
    ("nan", False),
    ("stray", False),
])
def test_the_runner_checks_o_against_float64_attention(monkeypatch, spoil, passes) -> None:
    case = AttentionCase(2, 128, d=64, bm=64, bn=64, causal=True)
    import ml_dtypes

    def change(flat, out):
        values = flat.view(ml_dtypes.bfloat16)
        if spoil == "wrong":
            values[3 * 64 + 5] = values[3 * 64 + 5] + ml_dtypes.bfloat16(0.25)
        elif spoil == "nan":
            values[200] = ml_dtypes.bfloat16(np.nan)
        elif spoil == "stray":
            out[0].view(np.uint8)[7] ^= 1  # an input changed
    r = _fake_run(monkeypatch, case, None if spoil is None else change)
    assert r.passed == passes, r.summary()
    assert r.checked == 2 * 128 * 64
    if spoil == "stray":
        assert r.stray > 0
    if spoil == "nan":
        assert r.nan_count > 0



EXAMPLE_E4M3 = ROOT / "examples" / "attention_loop_e4m3.mlir"


@pytest.mark.parametrize("level", ["loop", "op"])
@pytest.mark.parametrize("spoil, passes", [(None, True), ("keys rolled", False)])
def test_the_runner_reads_a_transposed_v_of_an_fp8_kernel(monkeypatch, spoil, passes, level) -> None:
    """e4m3 Q, K and V with V^T in memory (the K-major B fp8 wgmma reads), causal:
    examples/attention_loop_e4m3.mlir takes V^T (head dim x keys) through a view, and its
    metadata says V is transposed; the op level takes V with its keys contiguous (a strided
    argument). Either way the runner gives V's second half of head-dim columns mean 1, reads
    V as keys x head dim and checks O within P's e4m3 rounding: a fake GPU that writes
    float64 attention passes, one that pairs P with V's keys one off fails."""
    import ml_dtypes

    if level == "loop":
        (k,) = compile_source(EXAMPLE_E4M3.read_text(), str(EXAMPLE_E4M3))
    else:
        (k,) = compile_source(AttentionCase(2, 1024, d=64, causal=True, dtype="e4m3").op_source(), "op.mlir")
    att = k.info.attention
    assert att is not None and att.v_transposed == (level == "loop") and (att.q, att.k, att.v, att.o) == (0, 1, 2, 3)
    assert [a.dtype for a in k.info.args] == ["e4m3", "e4m3", "e4m3", "bf16"]
    assert k.info.args[att.v].shape == ((2, 64, 1024) if level == "loop" else (2, 1024, 64))

    def launch(cubin, info, host_args, timeout):
        out = [b.copy() for b in host_args]
        q, kk, v = (matrix_view(host_args[i], info.args[i]).astype(np.float64) for i in (att.q, att.k, att.v))
        if att.v_transposed:
            v = np.swapaxes(v, -1, -2)
        assert abs(v[..., 32:].mean() - 1.0) < 0.1 and abs(v[..., :32].mean()) < 0.1  # the runner's shift, by head dim
        if spoil == "keys rolled":
            v = np.roll(v, 1, axis=-2)
        want, _ = reference(q[None], kk[None], v[None], causal=True, scale=att.scale, layout="bhsd")
        flat = out[att.o]
        flat[:] = want[0].astype(np.float32).astype(ml_dtypes.bfloat16).view(flat.dtype).reshape(-1)
        return out, "fake GPU", [0] * len(out)

    monkeypatch.setattr(running, "launch", launch)
    r = running.run_kernel(k, seed=3)
    assert r.passed == passes, r.summary()
    assert r.checked == 2 * 1024 * 64


@needs_tools
def test_the_fp8_loop_is_qgmma_with_p_from_registers_and_nothing_spills() -> None:
    """The e4m3 loop: QGMMAs only (8-bit, k32: D/32 for S and BN/32 for P V, twice each as
    in 16-bit), P's quad exchange (SHFL.IDX, PRMT), no local memory."""
    (k,) = compile_source(EXAMPLE_E4M3.read_text(), str(EXAMPLE_E4M3), assemble=True)
    sass = disassemble(k.cubin)
    assert "HGMMA" not in sass
    mmas = [ln for ln in sass.splitlines() if "QGMMA" in ln]
    from_registers = [ln for ln in mmas if re.search(r"QGMMA\.\S+ R\d+, R\d+, gdesc", ln)]
    assert len(from_registers) == 2 * 64 // 32
    assert len(mmas) - len(from_registers) == 2 * 64 // 32
    assert "SHFL.IDX" in sass and "PRMT" in sass
    assert not re.search(r"\b(LDL|STL)\b", sass)
