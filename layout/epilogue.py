"""The GEMM epilogue through shared memory: where a consumer warpgroup stages its piece of
D before a TMA store writes it out, and which row each thread's `stmatrix` addresses.

A piece is 64 rows by 64 columns of a 16-bit D. Each of its rows is 128 bytes, one row
of the 128-byte swizzle, so a piece is a K-major 64 x 64 tile with that swizzle (rows of
D along MN, its columns along K): the layout a TMA box of 64 x 64 elements writes and
reads with CU_TENSOR_MAP_SWIZZLE_128B. Consecutive rows land in different 16-byte chunks,
so the eight rows of each stmatrix phase hit eight different chunks: no bank conflicts.

Each consumer warpgroup has `BUFFERS` pieces: it fills one while the TMA store of the
last one is still reading it.

`stmatrix.x4` stores four 8 x 8 matrices per warp. For the j-th one of a 64-column piece,
lanes 0-7 give the rows of matrix 0 (rows 0-7 of the warp's 16, columns 16j .. 16j+7),
lanes 8-15 matrix 1 (rows 8-15, same columns), lanes 16-23 and 24-31 the same rows eight
columns on. The lowering computes those addresses with `stmatrix_offset`'s arithmetic;
tests check it against the layout core's `addresses`.
"""

from __future__ import annotations

from lower_tc.layout.swizzle import Swizzle
from lower_tc.layout.tile import Major, TileLayout

#: Rows and (16-bit) columns of one staged piece of D: one TMA box.
PIECE_ROWS = 64
PIECE_COLS = 64
#: Bytes of one piece (64 rows of 128 bytes).
PIECE_BYTES = PIECE_ROWS * PIECE_COLS * 2
#: Pieces per consumer warpgroup: one being filled while the previous one is stored.
BUFFERS = 2
#: The 128-byte swizzle repeats every 1024 bytes: each piece starts on such a boundary.
PIECE_ALIGN = 1024
#: stmatrix.x4 instructions per warp and piece: two 8-column blocks each.
STMATRIX_PER_PIECE = PIECE_COLS // 16


def piece_layout(dtype: str, address: int = 0) -> TileLayout:
    """One staged piece of D as a tile: 64 rows (MN) by 64 contiguous columns (K)."""
    return TileLayout.make(dtype, PIECE_ROWS, PIECE_COLS, Major.K, Swizzle.B128, address=address)


def staging_bytes(warpgroups: int) -> int:
    """Shared memory of the staging pieces of `warpgroups` consumer warpgroups."""
    return warpgroups * BUFFERS * PIECE_BYTES


def stmatrix_row(lane: int, warp: int, j: int) -> tuple[int, int]:
    """(row, first column) of the 8-element row that `lane` of `warp` addresses in the
    j-th stmatrix.x4 of a piece (the rows of a warpgroup's 64 x 64 piece)."""
    return 16 * warp + (lane & 15), 8 * (2 * j + (lane >> 4))


def stmatrix_offset(lane: int, warp: int, j: int) -> int:
    """Byte offset of that row from the piece's 1024-aligned start, as the lowering
    computes it: row * 128 + (chunk ^ (row mod 8)) * 16, with chunk = 2j + lane / 16 and
    row mod 8 = lane mod 8, i.e. ((lane / 16 ^ lane mod 8) ^ 2j) * 16."""
    row = 16 * warp + (lane & 15)
    return row * 128 + ((((lane >> 4) ^ (lane & 7)) ^ (2 * j)) << 4)


__all__ = [
    "BUFFERS", "PIECE_ALIGN", "PIECE_BYTES", "PIECE_COLS", "PIECE_ROWS", "STMATRIX_PER_PIECE",
    "piece_layout", "staging_bytes", "stmatrix_offset", "stmatrix_row",
]
