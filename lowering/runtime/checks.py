"""What a run is held to: the tolerance of each output, and that nothing outside the
result changed.

The error of an output element is measured against the magnitude |A|.|B| (+|C|) that
rounding scales with; its tolerance follows the accumulator type and the operand types of
the MMAs whose results it holds. NaN never passes, and neither does a write outside the
result: every byte of every buffer that the program does not write (inputs, padding, the
rest of an output) must come back as it went in, and so must the poisoned guard regions
before and after each buffer (lowering/runtime/launch.py), which catch writes outside it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lower_tc.layout.kernel_info import ArgInfo
from lower_tc.lowering.runtime.inputs import flat_indices


#: Tolerance on max |out - ref| / (|A|.|B| + |C|), by (operand type, accumulator type).
#: f32 accumulation of exact products: K * 2^-24 at worst; fp8 on Hopper accumulates
#: with reduced precision; f16 accumulators round every partial sum to 11 bits.
def tolerance(operand: str, accumulator: str) -> float:
    if accumulator == "s32":
        return 0.0
    if accumulator == "f16":
        return 5e-3
    if operand in ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1"):
        return 2e-3
    return 1e-4


@dataclass
class OutputCheck:
    """One output argument's comparison: its own tolerance (from its accumulator type
    and the operand types of the MMAs whose results it holds)."""

    param: str
    max_error: float
    tolerance: float
    mismatches: int
    checked: int


def stray_writes(result: np.ndarray, before: np.ndarray, written: np.ndarray | None, arg: ArgInfo) -> int:
    """Elements of a buffer the program does not write but the kernel changed: all of
    an input, and of an output everything outside the written part of the matrix
    (padding included), must still hold, byte for byte, what was there before the
    launch (the input, the poison, or C's values for an accumulator updated in place)."""
    keep = np.ones(result.shape[0], dtype=bool)
    if written is not None:
        keep[flat_indices(arg)[written]] = False
    width = result.dtype.itemsize
    changed = result.view(np.uint8).reshape(-1, width) != before.view(np.uint8).reshape(-1, width)
    return int((changed.any(axis=1) & keep).sum())


def all_stray_writes(
    results: list[np.ndarray], sent: list[np.ndarray], overruns: list[int],
    written: dict[int, np.ndarray], args: tuple[ArgInfo, ...],
) -> int:
    """Bytes written into the guards around the buffers, plus every element outside the
    result (`written`: per output argument, the mask of its matrix, or batch of matrices,
    the program writes)
    that the kernel changed, in any buffer."""
    return sum(overruns) + sum(
        stray_writes(flat, before, written.get(i), a)
        for i, (flat, before, a) in enumerate(zip(results, sent, args))
    )


__all__ = ["OutputCheck", "all_stray_writes", "stray_writes", "tolerance"]
