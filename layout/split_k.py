"""Split-K on sm_90a: S CTAs compute the same BM x BN tile of D, each over a slice of K, and
sum their partial tiles in a fixed order (docs/gemm.md, "Split-K"), in one of two ways
(`reduce`):

- "cluster": the S CTAs are one thread-block cluster and reduce through distributed shared
  memory. S is 2 to 8: a cluster of up to 8 CTAs is portable (CUDA launches it on every GPU
  of compute capability 9.0 without the non-portable attribute); BM need not divide by S
  (the reduction hands out its passes round-robin). A cluster's CTAs share one GPC, so
  fewer clusters than SMs / S run at once (15 of 8 on the H100).
- "global": the S CTAs are any S consecutive CTAs along x, with no cluster: each writes its
  partial tile to a workspace in global memory, counts itself in the tile's counter (an
  atomic add), and the CTA that counts last sums the S partials, rank 0 first, and stores
  D; the others leave. Nothing waits for another CTA, so any grid runs; S is 2 to 32.
  The workspace (`workspace_bytes`) is the launcher's: its counters must be zero before
  the first launch, and each launch leaves them zero (the last CTA resets its tile's).
  With `unsplit = F` (global only) the walk's first F tiles take one CTA each, over the
  whole of K, and only the tiles after them are split: F whole waves and then the last,
  partial wave's tiles spread over S times as many CTAs (`split_ctas`), so the machine
  is not left mostly idle while a few tiles finish (what stream-K's hybrid schedules do).

Plain data and arithmetic, for tc-expand-matmul, the GEMM lowering, the launcher and a
chooser or tuner that asks which S a problem allows.

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

#: How split-K sums its partial tiles (module docstring).
REDUCES = ("cluster", "global")
#: The most CTAs that share one tile's K through the global workspace.
MAX_GLOBAL_SPLIT = 32
#: The values split_k takes: up to MAX_CLUSTER with reduce = "cluster" (portable clusters),
#: up to MAX_GLOBAL_SPLIT with reduce = "global".
SPLIT_K_VALUES = tuple(range(1, MAX_GLOBAL_SPLIT + 1))
#: Why an f16 accumulator does not go with the global reduction.
GLOBAL_F16 = ("reduce = global sums f32 or s32 partial tiles from the accumulator's registers; "
              "an f16 accumulator needs reduce = cluster (which widens it to f32)")
#: Why a target other than sm_90a refuses split-K.
SPLIT_K_TARGET = "split_k is sm_90a only for now"
#: The most CTAs of a global split whose tiles are summed spread over their CTAs (each a
#: share of the columns, once every partial is stored): what one H100 SXM or H200 (132 SMs)
#: runs at once, a CTA per SM; decided at compile time. A CTA that waits for its tile's last
#: one gives up after SPREAD_WAIT_NS and leaves its share to the last, so a GPU that runs
#: fewer at once (an H100 PCIe's 114 SMs, a MIG slice) is slower there, never stuck or wrong.
SPREAD_MAX_CTAS = 132
#: How long a spread sum's CTA waits for its tile's last one (ns, %globaltimer).
SPREAD_WAIT_NS = 20_000
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


def reduces_for(acc: str) -> tuple[str, ...]:
    """The ways split-K can sum partial tiles of accumulator type `acc` (the global
    reduction takes f32 and s32 registers, not f16 ones: GLOBAL_F16)."""
    return tuple(r for r in REDUCES if r != "global" or acc != "f16")


def split_k_range_problem(split_k: int, reduce: str) -> str | None:
    """Why `split_k` is out of the range `reduce` takes, or None."""
    if reduce == "global":
        if not 1 <= split_k <= MAX_GLOBAL_SPLIT:
            return f"split_k is 1 to {MAX_GLOBAL_SPLIT} with reduce = global, not {split_k}"
        return None
    if not 1 <= split_k <= MAX_CLUSTER:
        return (f"split_k = {split_k} with reduce = cluster: a portable cluster has 1 to {MAX_CLUSTER} CTAs "
                f"(reduce = global takes up to {MAX_GLOBAL_SPLIT})")
    return None


def split_k_problem(split_k: int, config: GemmConfig, a: str, b: str, k: int | None, arch: Arch = Arch.SM90A,
                    reduce: str = "cluster") -> str | None:
    """Why `split_k` does not suit this configuration and K (None: known at launch), or None."""
    if split_k == 1:
        return None
    why = split_k_range_problem(split_k, reduce)
    if why:
        return why
    if arch is not Arch.SM90A:
        return SPLIT_K_TARGET
    if k is not None:
        tiles = -(-k // config.bk)
        if tiles < split_k:
            return (f"split_k = {split_k}: K = {k} has {tiles} K tile(s) of {config.bk}, fewer than the "
                    f"{split_k} CTAs that would share them")
    if reduce == "global":  # the partial tile goes from registers to the workspace
        return None
    need = split_k_smem(config, a, b)
    if need > SMEM_CAPACITY:
        return (f"split_k = {split_k}: the {config.bm}x{config.bn} f32 partial tile needs "
                f"{partial_bytes(config.bm, config.bn)} bytes ({config.bm} rows of {partial_pitch(config.bn)}), "
                f"{need} with the barriers, more than the {SMEM_CAPACITY} (227 KiB) a block may use")
    return None


def valid_split_k(config: GemmConfig, a: str, b: str, k: int | None, arch: Arch = Arch.SM90A,
                  reduce: str = "cluster") -> tuple[int, ...]:
    """Every S > 1 that a GEMM with this configuration and K can be split into (for a
    chooser or tuner: which of them is fastest is the device's to say)."""
    return tuple(s for s in SPLIT_K_VALUES[1:] if split_k_problem(s, config, a, b, k, arch, reduce) is None)


# -- the global reduction's workspace ----------------------------------------------------
#
# One slot of `partial_bytes` per CTA of the grid, at its linear block index
# (x + X (y + Y z)), then one u32 counter per tile (the S CTAs x = S t .. S t + S - 1 of a
# row of the grid share tile t of that row: counter (linear index) / S). With unsplit = F
# (a 1-d grid) the first F CTAs have no slot: CTA x >= F has slot x - F and counter
# (x - F) / S, and the workspace is sized for the other CTAs. A slot holds the
# CTA's accumulator fragment as its registers lie (`fragment_offset`): each consumer
# warpgroup's 64 x BN block in turn, in it 16-byte groups of four registers, the 128
# threads' group j side by side, so a warp's store is 512 contiguous bytes. Only threads
# in the same place of another CTA of the tile read a slot, so no row order is needed.
# After the counters, S u32 slice words per tile: room for a sum spread over the tile's
# CTAs (passes/to_ptx/gemm/split_k_global.py `spread_reduce`), which keeps a 64-bit word a
# tile from the counters' start (8 of the 4 (1 + S) bytes a tile).


def split_ctas(tiles: int, split_k: int, unsplit: int = 0) -> int:
    """CTAs of a grid of `tiles` tiles whose first `unsplit` take one CTA each and the
    others `split_k` each (block x = F + S j + r: rank r of split tile F + j)."""
    return unsplit + split_k * (tiles - unsplit)


def unsplit_problem(unsplit: int, split_k: int, reduce: str, tiles: int | None) -> str | None:
    """Why `unsplit` tiles (of `tiles`, None: known only at launch) cannot come before
    the split ones, or None."""
    if unsplit == 0:
        return None
    if split_k < 2 or reduce != "global":
        return (f"unsplit = {unsplit} leaves the walk's first tiles unsplit and splits the others through "
                f"global memory: it needs split_k = S (2 to {MAX_GLOBAL_SPLIT}) with reduce = global")
    if tiles is None:
        return f"unsplit = {unsplit} counts tiles of the walk: it needs M, N and the batch known at compile time"
    if unsplit >= tiles:
        return f"unsplit = {unsplit} leaves no tile to split: the GEMM has {tiles} tile(s), so unsplit is below {tiles}"
    return None


def workspace_partial_bytes(bm: int, bn: int) -> int:
    """Bytes of one CTA's slot: its BM x BN partial tile in f32 (s32)."""
    return bm * bn * PARTIAL_BYTES


def workspace_bytes(ctas: int, split_k: int, partial: int) -> int:
    """Bytes of the workspace of a grid of `ctas` CTAs, `split_k` to a tile, slots of
    `partial` bytes: the slots, then a u32 counter per tile, then `split_k` u32 slice words
    per tile (a spread sum's room: SPREAD_MAX_CTAS), rounded up to 16 bytes."""
    tiles = -(-ctas // split_k)
    return -(-(ctas * partial + 4 * tiles + 4 * split_k * tiles) // 16) * 16


def fragment_offset(warpgroup: int, thread: int, group: int, bn: int) -> int:
    """Byte offset in a slot of registers 4 group .. 4 group + 3 of `thread` (0 to 127) of
    consumer warpgroup `warpgroup`, whose m64nBN f32 fragment has BN / 2 registers."""
    return warpgroup * 64 * bn * PARTIAL_BYTES + (group * 128 + thread) * 16


__all__ = [
    "CHUNK", "GLOBAL_F16", "MAX_GLOBAL_SPLIT", "SPREAD_MAX_CTAS", "SPREAD_WAIT_NS", "PARTIAL_BYTES", "REDUCES", "SPLIT_K_TARGET", "SPLIT_K_VALUES",
    "fragment_offset", "k_slice", "reduces_for", "partial_bytes", "partial_pitch", "split_k_problem", "split_k_range_problem",
    "split_ctas", "split_k_smem", "unsplit_problem", "valid_split_k", "workspace_bytes", "workspace_partial_bytes",
]
