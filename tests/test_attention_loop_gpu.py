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
