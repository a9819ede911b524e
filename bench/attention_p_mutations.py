"""Attention's register-level pieces on the GPU, right and deliberately wrong: each example
as lowered must pass the runner's float64 check, and each mutation must fail it, which shows
that the check tells the layouts apart (docs/attention.md):

- examples/attention_p_in_registers.mlir: tc.acc_to_a packing each pair high element
  first; each K-slice of P taken from the next slice's registers;
- examples/attention_p_in_registers_e4m3.mlir (8-bit P, exchanged within each quad) and
  examples/attention_loop_e4m3.mlir (the fp8 loop, V given transposed): each thread keeping
  the other half of the words it reads; the words read from the two lanes the other way
  round;
- examples/attention_tile.mlir: the row maximum and sum reduced across two lanes of the
  quad instead of four;
- examples/attention_online.mlir (the online softmax over four blocks of keys): the
  running maximum and sum reduced across two lanes; O's rows g and g + 8 rescaled each by
  the other's factor;
- examples/attention_loop.mlir (the loop over blocks of keys, masked at run-time positions):
  the causal mask one key short of the diagonal; and bench/attention_loop.py's 1000 keys
  (not causal) with the keys' mask moved to the last block's end, so that its 24 keys past
  the end (zeros) are seen. (One key of 1000 more or less moves O by about 1/1000, inside
  P's bf16 tolerance: the check cannot see that, so that is not the mutation.)

    python bench/attention_p_mutations.py     # on an sm_90a GPU, lower-tc installed
"""

from __future__ import annotations

import sys
from pathlib import Path

import lower_tc.passes.to_ptx.online_softmax as online
from xdsl.dialects.builtin import IntegerAttr, i64

from lower_tc.dialects import tc
from lower_tc.passes.to_ptx import LOWERINGS
import lower_tc.passes.to_ptx.softmax as softmax
import lower_tc.passes.to_ptx.wgmma as wgmma
import lower_tc.layout.fragments as fragments
from lower_tc.layout.fragments import a_from_accumulator as right
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.run import run_kernel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attention_loop import AttentionCase  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def swapped(bits: int, s: int):
    return [[[e[1], e[0]] for e in regs] for regs in right(bits, s)]


def next_slice(bits: int, s: int):
    return right(bits, (s + 1) % 4)


def run(example: str, what: str) -> None:
    run_source((EXAMPLES / example).read_text(), what, example)


def run_source(source: str, what: str, example: str = "attention loop") -> None:
    kernel = compile_source(source, f"{what}.mlir", assemble=True)[0]
    result = run_kernel(kernel, 1)
    print(f"{example}, {what}: {'PASS' if result.passed else 'FAIL'}: {result.summary().splitlines()[0]}")


def main() -> int:
    for what, packing in (("as lowered", right), ("pairs high element first", swapped), ("K-slices rotated", next_slice)):
        wgmma.a_from_accumulator = packing
        run("attention_p_in_registers.mlir", what)
    wgmma.a_from_accumulator = right
    selectors = wgmma.SELECTORS
    low, high = fragments.SELECTORS
    for example in ("attention_p_in_registers_e4m3.mlir", "attention_loop_e4m3.mlir"):
        run(example, "as lowered")
        wgmma.SELECTORS = tuple(reversed(selectors))
        run(example, "each thread keeping the other half of the words")
        wgmma.SELECTORS = (((low & 0xFF) << 8 | low >> 8), ((high & 0xFF) << 8 | high >> 8))  # the second lane's bytes low
        run(example, "the two lanes' bytes the other way round")
        wgmma.SELECTORS = selectors
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
    ragged = AttentionCase(1, 1000, d=64, bm=128, bn=64)  # 1000 keys, not causal: the last block's 24 past the end
    run_source(ragged.source(), "ragged 1000 keys, as lowered")
    mask = LOWERINGS[tc.AccMaskOp]
    for source, what, key, change in (
        ((EXAMPLES / "attention_loop.mlir").read_text(), "causal: the mask one key short of the diagonal", "causal", -1),
        (ragged.source(), "ragged: the keys' mask stopping at the block's end (24 zero keys seen)", "keys", 24),
    ):
        def moved(kl, op, key=key, change=change) -> None:  # the mask as lowered with its bound moved
            kept = op.properties[key]
            op.properties[key] = IntegerAttr(kept.value.data + change, i64)
            try:
                mask(kl, op)
            finally:
                op.properties[key] = kept

        LOWERINGS[tc.AccMaskOp] = moved  # type: ignore[index]
        run_source(source, what)
    LOWERINGS[tc.AccMaskOp] = mask  # type: ignore[index]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
