"""Split-K on sm_90a: S CTAs of one thread-block cluster compute the same BM x BN tile of D,
each over a slice of K, and reduce their partial tiles through distributed shared memory in
a fixed order (docs/gemm.md, "Split-K"). Plain data and arithmetic, for tc-expand-matmul,
the GEMM lowering and a chooser or tuner that asks which S a problem allows.

- S is 2 to 8: a cluster of up to 8 CTAs is portable (CUDA launches it on every GPU of
  compute capability 9.0 without the non-portable attribute); any S in that range works,
  BM need not divide by S (the reduction hands out its passes round-robin).
- Rank r of the cluster takes the K tiles [r T / S, (r + 1) T / S) of the T = ceil(K / BK)
  tiles (integer division): balanced, in rank order, every tile once. Where K is known at
  compile time T >= S (every rank has a tile); known at launch, a rank may get none and
  contributes a zero partial.
- Each CTA writes its f32 (s32) partial tile to its own shared memory, where the ring was,
  row-major with a padded row pitch (`partial_pitch`): the accumulator fragment's 64-bit
  stores (8 rows x 4 quads per warp) and the reduction's 128-bit loads (a row's 16-byte
  chunks, one per thread) are free of bank conflicts.
"""

from __future__ import annotations

from lower_tc.layout.gemm import BARRIER_BYTES_PER_STAGE, GemmConfig
from lower_tc.layout.limits import MAX_CLUSTER, SMEM_CAPACITY
from lower_tc.layout.targets import Arch

#: The cluster sizes split-K takes (portable clusters).
SPLIT_K_VALUES = tuple(range(1, MAX_CLUSTER + 1))
#: Why a target other than sm_90a refuses split-K.
SPLIT_K_TARGET = "split_k is sm_90a only for now"
#: Bytes of one partial element (f32 or s32).
PARTIAL_BYTES = 4
#: Elements of one reduction chunk: a 16-byte ld.shared::cluster.v4 per thread.
CHUNK = 4


def partial_pitch(bn: int) -> int:
    """The partial tile's row pitch in bytes: BN f32 padded so the pitch is 32 more than a
    multiple of 128. A warp's fragment stores (v2, processed per half-warp: 4 rows x 32
    bytes) then start in 4 different 32-byte bank groups."""
    row = bn * PARTIAL_BYTES
    return row + (32 - row) % 128


def partial_bytes(bm: int, bn: int) -> int:
    """Shared memory of a BM x BN partial tile."""
    return bm * partial_pitch(bn)


def k_slice(rank: int, tiles: int, split_k: int) -> tuple[int, int]:
    """The K tiles [lo, hi) that rank `rank` of `split_k` takes of `tiles`."""
    return rank * tiles // split_k, (rank + 1) * tiles // split_k


def split_k_smem(config: GemmConfig, a: str, b: str) -> int:
    """Shared memory of a split-K kernel: the ring (or the partial tile where it is
    larger, placed where the ring starts) and the stages' barriers after it."""
    ring = config.smem_bytes(a, b) - config.stages * BARRIER_BYTES_PER_STAGE
    return max(ring, partial_bytes(config.bm, config.bn)) + config.stages * BARRIER_BYTES_PER_STAGE


def split_k_problem(split_k: int, config: GemmConfig, a: str, b: str, k: int | None, arch: Arch = Arch.SM90A) -> str | None:
    """Why `split_k` does not suit this configuration and K (None: known at launch), or None."""
    if split_k == 1:
        return None
    if split_k not in SPLIT_K_VALUES:
        return f"split_k is 1 to {MAX_CLUSTER} (CTAs of a portable cluster), not {split_k}"
    if arch is not Arch.SM90A:
        return SPLIT_K_TARGET
    if k is not None:
        tiles = -(-k // config.bk)
        if tiles < split_k:
            return (f"split_k = {split_k}: K = {k} has {tiles} K tile(s) of {config.bk}, fewer than the "
                    f"{split_k} CTAs that would share them")
    need = split_k_smem(config, a, b)
    if need > SMEM_CAPACITY:
        return (f"split_k = {split_k}: the {config.bm}x{config.bn} f32 partial tile needs "
                f"{partial_bytes(config.bm, config.bn)} bytes ({config.bm} rows of {partial_pitch(config.bn)}), "
                f"{need} with the barriers, more than the {SMEM_CAPACITY} (227 KiB) a block may use")
    return None


def valid_split_k(config: GemmConfig, a: str, b: str, k: int | None, arch: Arch = Arch.SM90A) -> tuple[int, ...]:
    """Every S > 1 that a GEMM with this configuration and K can be split into (for a
    chooser or tuner: which of them is fastest is the device's to say)."""
    return tuple(s for s in SPLIT_K_VALUES[1:] if split_k_problem(s, config, a, b, k, arch) is None)


__all__ = [
    "CHUNK", "PARTIAL_BYTES", "SPLIT_K_TARGET", "SPLIT_K_VALUES", "k_slice", "partial_bytes", "partial_pitch",
    "split_k_problem", "split_k_smem", "valid_split_k",
]
