"""fp8's two accumulations on sm_90a (the `accumulation` GEMM option, docs/gemm.md):

- "fast" (the default): the wgmma accumulator holds the whole K sum. Hopper's fp8 tensor
  cores add their products with limited precision (about 14 bits of mantissa, as the
  DeepSeek-V3 report measured), so the error grows with K: like cuBLAS's
  `use_fast_accum=True`.
- "promoted": each K step's MMAs (BK = 128 of K for fp8) start afresh in the accumulator,
  and the step's sums are added into a second run of f32 registers: the tensor core's
  limited precision spans 128 products, the rest is f32 (cuBLAS's default mode, DeepGEMM,
  CUTLASS's fp8 "fast accumulation off").

Plain rules (no xDSL): which operands and tiles allow "promoted". The second run doubles
the accumulator's registers, so a consumer warpgroup's 64 x BN tile is limited to what
its register budget holds beside the descriptors and addresses.
"""

from __future__ import annotations

from lower_tc.layout.targets import Arch

#: The operand types whose wgmma sums are of limited precision (promotion is for them).
FP8_TYPES = ("e4m3", "e5m2")
#: The widest tile N a consumer warpgroup holds twice (2 x BN / 2 f32 registers per
#: thread beside the descriptors and addresses): 192 assembles without spills in both
#: schedules (ptxas 13.0: 168 registers warp-specialised, 209 pipelined); 256 spills.
PROMOTED_MAX_BN = 192
#: The tallest tile: 256 rows are four consumer warpgroups, whose threads have 128
#: registers each (they spill the second accumulator).
PROMOTED_MAX_BM = 128


#: Why a target other than sm_90a refuses it.
PROMOTED_TARGET = "accumulation = promoted is for wgmma's fp8 partial sums (sm_90a): tcgen05 accumulates in tensor memory"


def promoted_tile_fits(bm: int, bn: int) -> bool:
    """Whether a BM x BN tile holds the second accumulator in its consumers' registers."""
    return bm <= PROMOTED_MAX_BM and bn <= PROMOTED_MAX_BN


#: The widest tile N whose promotion overlaps the next K step's MMAs: the step's sums then
#: alternate between two runs beside the total, 3 x BN / 2 f32 registers a thread
#: (`promoted_overlap_fits`).
PROMOTED_OVERLAP_MAX_BN = 128


def promoted_overlap_fits(bn: int) -> bool:
    """Whether a consumer warpgroup's 64 x BN tile holds three runs of its accumulator, so
    that a K step's sums are added while the next step's MMAs run (docs/gemm.md, "fp8
    accumulation", "Overlapped promotion")."""
    return bn <= PROMOTED_OVERLAP_MAX_BN


#: The most products the tensor core sums before they are added in f32: one K step of BK
#: (the K-slices of a step accumulate in the wgmma registers).
PROMOTED_MAX_BK = 128


def promoted_problem(a: str, b: str, acc: str, bm: int | None = None, bn: int | None = None,
                     bk: int | None = None, arch: Arch = Arch.SM90A) -> str | None:
    """Why `accumulation = "promoted"` does not suit the target, these operand types,
    accumulator and tile (None: not known yet), or None."""
    if arch is not Arch.SM90A:
        return PROMOTED_TARGET
    if a not in FP8_TYPES or b not in FP8_TYPES:
        return (f"accumulation = promoted is for fp8 operands (e4m3, e5m2), whose wgmma sums are of limited "
                f"precision; {a} x {b} accumulates exactly in f32 already")
    if acc != "f32":
        return f"accumulation = promoted adds the partial sums into f32 registers: the accumulator must be f32, not {acc}"
    if bm is not None and bn is not None and not promoted_tile_fits(bm, bn):
        return (f"accumulation = promoted holds two accumulators per thread: the tile is at most "
                f"{PROMOTED_MAX_BM} x {PROMOTED_MAX_BN} (the consumers' registers), not {bm} x {bn}")
    if bk is not None and bk > PROMOTED_MAX_BK:
        return (f"accumulation = promoted adds each K step's sums in f32: a step (BK) is at most {PROMOTED_MAX_BK} "
                f"products, not {bk}")
    return None


__all__ = ["FP8_TYPES", "PROMOTED_MAX_BK", "PROMOTED_MAX_BM", "PROMOTED_MAX_BN", "PROMOTED_OVERLAP_MAX_BN", "PROMOTED_TARGET", "promoted_overlap_fits",
           "promoted_problem", "promoted_tile_fits"]
