"""Attention's register-level pieces on the GPU, right and deliberately wrong: each example
as lowered must pass the runner's float64 check, and each mutation must fail it, which shows
that the check tells the layouts apart (docs/attention.md):

- examples/attention_p_in_registers.mlir: tc.acc_to_a packing each pair high element
  first; each K-slice of P taken from the next slice's registers;
- examples/attention_tile.mlir: the row maximum and sum reduced across two lanes of the
  quad instead of four;
- examples/attention_online.mlir (the online softmax over four blocks of keys): the
  running maximum and sum reduced across two lanes; O's rows g and g + 8 rescaled each by
  the other's factor.

    python bench/attention_p_mutations.py     # on an sm_90a GPU, lower-tc installed
"""

from __future__ import annotations

from pathlib import Path

import lower_tc.passes.to_ptx.online_softmax as online
from xdsl.dialects.builtin import I64, IntegerAttr

from lower_tc.dialects import tc
from lower_tc.passes.to_ptx import LOWERINGS
import lower_tc.passes.to_ptx.softmax as softmax
import lower_tc.passes.to_ptx.wgmma as wgmma
from lower_tc.layout.fragments import a_from_accumulator as right
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.run import run_kernel

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def swapped(bits: int, s: int):
    return [[[e[1], e[0]] for e in regs] for regs in right(bits, s)]


def next_slice(bits: int, s: int):
    return right(bits, (s + 1) % 4)


def run(example: str, what: str) -> None:
    source = (EXAMPLES / example).read_text()
    kernel = compile_source(source, f"{what}.mlir", assemble=True)[0]
    result = run_kernel(kernel, 1)
    print(f"{example}, {what}: {'PASS' if result.passed else 'FAIL'}: {result.summary().splitlines()[0]}")


def main() -> int:
    for what, packing in (("as lowered", right), ("pairs high element first", swapped), ("K-slices rotated", next_slice)):
        wgmma.a_from_accumulator = packing
        run("attention_p_in_registers.mlir", what)
    wgmma.a_from_accumulator = right
    run("attention_tile.mlir", "as lowered")
    lanes = softmax.QUAD_LANES
    softmax.QUAD_LANES = (1,)
    run("attention_tile.mlir", "rows reduced over two lanes")
    softmax.QUAD_LANES = lanes
    run("attention_online.mlir", "as lowered")
    softmax.QUAD_LANES = (1,)  # the online softmax reduces its rows with softmax.quad_reduce
    run("attention_online.mlir", "running max and sum over two lanes")
    softmax.QUAD_LANES = lanes
    halves, rescale = online.row_registers, LOWERINGS[tc.AccRescaleOp]

    def swapped_rescale(kl, op) -> None:  # O's row g carried by row g + 8's factor, and back
        online.row_registers = lambda t: tuple(reversed(halves(t)))  # type: ignore[assignment]
        try:
            rescale(kl, op)
        finally:
            online.row_registers = halves

    LOWERINGS[tc.AccRescaleOp] = swapped_rescale  # type: ignore[index]
    run("attention_online.mlir", "O rescaled by the other row's factor")
    LOWERINGS[tc.AccRescaleOp] = rescale  # type: ignore[index]
    run("attention_loop.mlir", "as lowered")
    mask = LOWERINGS[tc.AccMaskOp]
    for what, key in (("the causal mask one key short of the diagonal", "causal"), ("the keys' count one short", "keys")):
        def shortened(kl, op, key=key) -> None:  # the mask as lowered with its bound less one
            kept = op.properties[key]
            op.properties[key] = IntegerAttr(kept.value.data - 1, I64)
            try:
                mask(kl, op)
            finally:
                op.properties[key] = kept

        LOWERINGS[tc.AccMaskOp] = shortened  # type: ignore[index]
        run("attention_loop.mlir", what)
    LOWERINGS[tc.AccMaskOp] = mask  # type: ignore[index]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
