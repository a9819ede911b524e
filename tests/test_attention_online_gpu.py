"""On an sm_90a GPU: attention over four blocks of keys with the online softmax and masks
(examples/attention_online.mlir and attention_causal.mlir, and the causal example with
other key counts and offsets: ragged, causal, a single key, rows that see no key), each
run by the runner against its float64 reference on fresh random inputs, with poisoned
outputs and guard bytes (lowering/runtime/run.py). Skips, with the reason, without an
sm_90a GPU.

Run on the GPU machine: python -m pytest -m gpu tests/test_attention_online_gpu.py -v
"""

from __future__ import annotations

import pytest

from conftest import ROOT
from lower_tc.lowering.compile import compile_source
from test_attention_online import causal_variant

pytestmark = pytest.mark.gpu


@pytest.fixture(autouse=True)
def gpu(require_gpu) -> None:
    require_gpu("sm_90a")


def _run(text: str, name: str, seed: int):
    from lower_tc.lowering.runtime.run import run_kernel

    kernel = compile_source(text, name, assemble=True)[0]
    return run_kernel(kernel, seed)


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_the_online_softmax_over_four_blocks(seed: int) -> None:
    result = _run((ROOT / "examples" / "attention_online.mlir").read_text(), "attention_online.mlir", seed)
    assert result.passed, result.summary()


@pytest.mark.parametrize(("keys", "causal"), [(250, 186), (256, 192), (250, None), (44, -20), (1, None), (130, 66)],
                         ids=["ragged-causal", "causal", "ragged", "rows-that-see-nothing", "one-key", "two-blocks"])
def test_masks(keys: int, causal: int | None) -> None:
    result = _run(causal_variant(keys, causal), "attention_causal.mlir", 31)
    assert result.passed, result.summary()
