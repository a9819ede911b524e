"""The module is verified after every pass but one: between tc-lower-to-ptx and
ptx-lower-loops (lowering/compile.py `UNVERIFIED_BETWEEN`), whose ptx ops are checked as
they are built. An op that reaches the module there unchecked is still refused, at its op,
by the verification after ptx-lower-loops, in the Python API and in `lower-tc`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass

from lower_tc.dialects import ptx
from lower_tc.lowering.compile import apply_pipeline, verified_between
from lower_tc.lowering.parse import parse
from lower_tc.passes import default_pipeline
from lower_tc.passes.lower_to_ptx import LowerToPtxPass
from lower_tc.passes.ptx_lower_loops import LowerLoopsPass

from conftest import ROOT


def test_the_default_pipeline_skips_only_the_ptx_module_before_its_loops_are_lowered() -> None:
    passes = default_pipeline()
    names = [p.name for p in passes]
    skipped = [names[i] for i in range(len(passes)) if not verified_between(passes[i], passes[i + 1] if i + 1 < len(passes) else None)]
    assert skipped == ["tc-lower-to-ptx"]
    assert names[names.index("tc-lower-to-ptx") + 1] == "ptx-lower-loops"
    assert verified_between(passes[-1], None)  # the last pass's module is verified
    assert not verified_between(None, passes[0])


@dataclass(frozen=True)
class _LowerAndBreak(ModulePass):
    """tc-lower-to-ptx, then one ptx op with a modifier its class does not declare, added
    without ptx.build's check: what a bug in a lowering would leave."""

    name = "tc-lower-to-ptx"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        LowerToPtxPass().apply(ctx, op)
        kernel = next(k for k in op.walk() if isinstance(k, ptx.KernelOp))
        bad = ptx.RetOp.build(operands=[[]], result_types=[[]], properties={"bogus": IntegerAttr(1, i64)})
        first = kernel.body.block.first_op
        kernel.body.block.insert_op_before(bad, first)


def test_an_unchecked_ptx_op_is_still_refused_after_the_loops_are_lowered() -> None:
    text = (ROOT / "examples" / "gemm_bf16_loop.mlir").read_text()
    passes = default_pipeline()
    at = [p.name for p in passes].index("tc-lower-to-ptx")
    passes = passes[:at] + [_LowerAndBreak()] + passes[at + 1 :]
    assert isinstance(passes[at + 1], LowerLoopsPass)
    ctx, module = parse(text, "gemm_bf16_loop.mlir")
    with pytest.raises(Exception, match="ptx.ret has no modifier 'bogus'"):
        apply_pipeline(ctx, module, passes)
