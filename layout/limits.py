"""The limits of the hardware, of CUDA and of lower-tc's own kernels that lower-tc checks,
in one place: the IR's verifiers and passes refuse what breaks them at compile time (a
located error), the runtime refuses sizes known only at launch that break them (before it
allocates anything). docs/limits.md lists them with where each is checked.

Sources: the CUDA C Programming Guide (grid, block, cluster and shared-memory limits of
compute capability 9.0 and 10.0), the CUDA driver API (`cuTensorMapEncodeTiled`: TMA's
dimensions, strides and boxes), the PTX ISA (coordinates of `cp.async.bulk.tensor` are
.s32), and lower-tc's lowering (indices and coordinates computed in 32-bit registers; the
sizes known at launch passed as .u32 parameters).
"""

from __future__ import annotations

from collections.abc import Sequence

#: Every index, coordinate and count a GEMM kernel computes is a signed 32-bit register
#: (TMA's coordinates are .s32 too): each must lie in [0, MAX_INDEX].
MAX_INDEX = 2**31 - 1
#: Sizes known at launch are .u32 kernel parameters.
MAX_SIZE_PARAM = 2**32 - 1

#: CUDA's grid: x up to 2^31 - 1 blocks, y and z up to 65535.
MAX_GRID = (2**31 - 1, 65535, 65535)
#: Threads of one block.
MAX_BLOCK_THREADS = 1024
#: CTAs of one cluster that every cluster launch may use (the portable size).
MAX_CLUSTER = 8
#: Dynamic shared memory one block may use on H100 and B200 (227 KiB).
SMEM_CAPACITY = 232448
#: Shared-memory addresses a block can have: the SM's 228 KiB (the 227 KiB above plus the
#: 1 KiB CUDA reserves per block), compute capability 9.0 and 10.0.
SMEM_WINDOW = 233472

#: TMA (cuTensorMapEncodeTiled): each global dimension at most 2^32 elements...
TMA_MAX_DIM = 2**32
#: ...each global stride (bytes, beyond the contiguous dimension) a multiple of 16 below 2^40...
TMA_STRIDE_ALIGN = 16
TMA_MAX_STRIDE = 2**40
#: ...and each box dimension at most 256 elements.
TMA_MAX_BOX = 256


def index_problem(value: int, what: str) -> str | None:
    """Why `value` (an index, coordinate or count a kernel computes) does not fit the
    32-bit signed register it is computed in, or None."""
    if 0 <= value <= MAX_INDEX:
        return None
    return f"{what} is {value}: lower-tc's kernels compute indices in 32-bit registers (0 to {MAX_INDEX})"


def grid_problem(grid: Sequence[int]) -> str | None:
    """Why a grid of (x, y, z) blocks cannot be launched, or None."""
    for axis, count, limit in zip("xyz", grid, MAX_GRID):
        if not 1 <= count <= limit:
            return f"the grid's {axis} is {count} blocks: CUDA launches 1 to {limit} along {axis}"
    return None


def tma_stride_problem(stride_bytes: int, what: str) -> str | None:
    """Why a TMA global stride (bytes) is not one cuTensorMapEncodeTiled takes, or None."""
    if stride_bytes % TMA_STRIDE_ALIGN:
        return f"{what} is {stride_bytes} bytes: TMA needs a multiple of {TMA_STRIDE_ALIGN}"
    if not 0 < stride_bytes < TMA_MAX_STRIDE:
        return f"{what} is {stride_bytes} bytes: TMA takes strides below 2^40 bytes"
    return None


def stride_bound_problem(stride_bytes: int, what: str, *, tma: bool = True) -> str | None:
    """Why a global stride (bytes) is 2^40 or more, or None: TMA's bound for what it reads
    (`tma`); for what threads store, a stride no GPU's memory could hold."""
    if stride_bytes < TMA_MAX_STRIDE:
        return None
    bound = "TMA takes strides below 2^40 bytes" if tma else "strides are below 2^40 bytes (no GPU holds more)"
    return f"{what} is {stride_bytes} bytes: {bound}"


def tma_dim_problem(elements: int, what: str) -> str | None:
    """Why a TMA global dimension (elements) is not one cuTensorMapEncodeTiled takes, or None."""
    if not 1 <= elements <= TMA_MAX_DIM:
        return f"{what} is {elements} elements: TMA takes 1 to 2^32"
    return None


__all__ = [
    "MAX_BLOCK_THREADS", "MAX_CLUSTER", "MAX_GRID", "MAX_INDEX", "MAX_SIZE_PARAM", "SMEM_CAPACITY", "SMEM_WINDOW",
    "TMA_MAX_BOX", "TMA_MAX_DIM", "TMA_MAX_STRIDE", "TMA_STRIDE_ALIGN",
    "grid_problem", "index_problem", "stride_bound_problem", "tma_dim_problem", "tma_stride_problem",
]
