"""The loop-level attention kernel on the GPU: configurations of bench/attention_loop.py's
check (head dims 64/128/256, GQA and MQA, ragged lengths, causal with S_q above and below
S_k, both schedules, f16), each against float64 attention on fresh inputs, O poisoned,
guard bytes (lowering/runtime/run.py, run_attention_kernel)."""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from attention_loop import CHECKS, AttentionCase  # noqa: E402

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("case", CHECKS, ids=lambda c: c.name)
def test_the_loop_kernel_computes_attention(case: AttentionCase, require_gpu) -> None:
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    (k,) = compile_source(case.source(), case.name, assemble=True)
    for seed in (11, 12):
        result = run_kernel(k, seed)
        assert result.passed, result.summary()


@pytest.mark.parametrize("left_out", ["k_descale", "v_descale"])
def test_the_check_sees_a_descaling_factor_left_out(left_out: str, require_gpu) -> None:
    """The runner's reference applies each factor the metadata names: told of one fewer
    than the kernel applies (K's, or V's), it finds O wrong (the factors are drawn from
    0.25 to 2), so the check would see a kernel that dropped one."""
    from dataclasses import replace

    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    case = next(c for c in CHECKS if c.descale and c.v_given and not c.lse)
    (k,) = compile_source(case.source(), case.name, assemble=True)
    assert run_kernel(k, 21).passed
    att = k.info.attention
    k.info = replace(k.info, attention=replace(att, qk_descale=att.qk_descale[:1]) if left_out == "k_descale"
                     else replace(att, v_descale=()))
    result = run_kernel(k, 21)
    assert not result.passed and result.mismatches > 0, result.summary()
