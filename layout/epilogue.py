"""The GEMM epilogue through shared memory: where a consumer warpgroup stages its piece of
D before a TMA store writes it out, and which row each thread's `stmatrix` addresses.

A piece is 64 rows by 64 columns of a 16-bit D. Each of its rows is 128 bytes, one row
of the 128-byte swizzle, so a piece is a K-major 64 x 64 tile with that swizzle (rows of
D along MN, its columns along K): the layout a TMA box of 64 x 64 elements writes and
reads with CU_TENSOR_MAP_SWIZZLE_128B. Consecutive rows land in different 16-byte chunks,
so the eight rows of each stmatrix phase hit eight different chunks: no bank conflicts.

Each consumer warpgroup has `BUFFERS` pieces: it fills one while the TMA store of the
last one is still reading it.

Where BN is not a multiple of 64 (a multiple of 16: tiles as wide as make whole waves),
the columns past the last whole piece go in narrower pieces, 32 and then 16 columns
(`piece_widths`), each its own TMA box with the swizzle as wide as its rows: 64 bytes
(CU_TENSOR_MAP_SWIZZLE_64B) and 32 bytes (32B). Both swizzles XOR the 16-byte chunk with
the address bits from 7 up, so a phase's eight rows still land in eight chunks.

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


#: The swizzle of a piece by its width in columns: as many bytes as one of its rows.
PIECE_SWIZZLE = {PIECE_COLS: Swizzle.B128, 32: Swizzle.B64, 16: Swizzle.B32}
#: The narrowest piece: one stmatrix.x4 writes 16 columns of a warp's 16 rows.
PIECE_QUANTUM = 16


def piece_widths(bn: int) -> tuple[int, ...]:
    """The widths of the pieces a warpgroup's 64 x BN fragment is stored in, in column
    order: 64 columns each, then 32 and 16 as BN's remainder needs. BN must be a multiple
    of PIECE_QUANTUM (a ValueError otherwise)."""
    if bn <= 0 or bn % PIECE_QUANTUM:
        raise ValueError(f"BN = {bn}: the staged pieces are multiples of {PIECE_QUANTUM} columns")
    whole, rest = divmod(bn, PIECE_COLS)
    return (PIECE_COLS,) * whole + tuple(w for w in (32, 16) if rest & w)


def piece_layout(dtype: str, address: int = 0, cols: int = PIECE_COLS, rows: int = PIECE_ROWS) -> TileLayout:
    """One staged piece of D as a tile: `rows` rows (MN) by `cols` contiguous columns (K),
    swizzled as wide as a row (PIECE_SWIZZLE)."""
    return TileLayout.make(dtype, rows, cols, Major.K, PIECE_SWIZZLE[cols], address=address)


def transposed_piece_layout(dtype: str, rows: int, address: int = 0) -> TileLayout:
    """One staged piece of a column-major D (swap-AB's D^T, stored as D): `rows` of D's
    rows (the fragment's columns: 64, 32 or 16, `piece_widths`) by the warpgroup's 64
    fragment rows, which are 64 contiguous columns of D: 128-byte rows, 128-byte swizzle."""
    return piece_layout(dtype, address, PIECE_COLS, rows)


def staging_bytes(warpgroups: int) -> int:
    """Shared memory of the staging pieces of `warpgroups` consumer warpgroups."""
    return warpgroups * BUFFERS * PIECE_BYTES


#: The element types a TMA-store epilogue stages (stmatrix stores 16-bit elements).
STAGED_TYPES = ("bf16", "f16")


def tma_store_problem(d: str, acc: str, *, with_c: bool, row_major: bool, rows: int | None, cols: int | None,
                      ld: int | None, batch: int | None = 1, batch_stride: int | None = 0, bn: int | None = None) -> str | None:
    """Why the TMA-store epilogue cannot store a D of type `d` from an `acc` accumulator
    (one line), or None: the one test the lowering (a located error where TMA stores are
    asked for, else the register epilogue) and the chooser (which swaps a row-major B only
    where D^T can be stored so) share. D is `rows` x `cols` (None: known at launch),
    row-major or column-major (swap-AB's D^T, stored in transposed pieces) with leading
    dimension `ld`, `batch` matrices `batch_stride` elements apart; `bn` the tile's width
    (None: not weighed)."""
    if with_c:
        return "C is added in registers (the register epilogue)"
    if d not in STAGED_TYPES:
        return f"D is {d}: stmatrix stores 16-bit elements (bf16 or f16)"
    if acc == "f16" and d != "f16":
        return f"an f16 accumulator is stored as f16, not {d}"
    if None in (rows, cols, ld, batch, batch_stride):
        return "D's sizes are known only at launch (the TMA store's tensor map is fixed at compile time)"
    assert rows is not None and cols is not None and ld is not None and batch_stride is not None
    if batch != 1 and batch_stride * 2 % 16:
        return f"D's batch stride is {batch_stride * 2} bytes: TMA needs a multiple of 16"
    if ld * 2 % 16:
        return f"D's leading dimension is {ld * 2} bytes: TMA needs a multiple of 16"
    # seen on the H100: at the end of a contiguous run a TMA store writes the whole 16-byte
    # chunk, padding past it included (docs/gemm.md)
    if row_major and cols * 2 % 16:
        return (f"D's rows are {cols * 2} bytes: a TMA store writes whole 16-byte chunks at a row's end, "
                "so N x 2 must be a multiple of 16")
    if not row_major and rows * 2 % 16:
        return (f"D is column-major (a transposed view, as swap-AB stores D^T) and its columns are {rows * 2} bytes: "
                "a TMA store writes whole 16-byte chunks at a column's end, so M x 2 must be a multiple of 16")
    if bn is not None and bn % PIECE_QUANTUM:
        if not row_major:
            return (f"BN = {bn} (the tile's width along D's rows: swapped, M = {cols} rounded up to a wgmma width): "
                    f"the transposed pieces hold 64, 32 and 16 of D's rows, so BN must be a multiple of {PIECE_QUANTUM}")
        return (f"BN = {bn}: the TMA-store epilogue stores pieces of 64, 32 and 16 columns, so BN must be a multiple "
                f"of {PIECE_QUANTUM}")
    return None


def stmatrix_row(lane: int, warp: int, j: int) -> tuple[int, int]:
    """(row, first column) of the 8-element row that `lane` of `warp` addresses in the
    j-th stmatrix.x4 of a piece (the rows of a warpgroup's 64-row piece)."""
    return 16 * warp + (lane & 15), 8 * (2 * j + (lane >> 4))


def swizzle_shift(cols: int) -> int:
    """log2 of a `cols`-wide piece's row pitch: the chunk's XOR is the row's address bits
    from 7 up, i.e. row >> (7 - this)."""
    return (2 * cols).bit_length() - 1


def swizzle_mask(cols: int) -> int:
    """The chunk bits a `cols`-wide piece's swizzle XORs: its rows' 16-byte chunks, less one."""
    return 2 * cols // 16 - 1


def stmatrix_offset(lane: int, warp: int, j: int, cols: int = PIECE_COLS) -> int:
    """Byte offset of that row from the piece's 1024-aligned start, as the lowering
    computes it: row * pitch + (chunk ^ ((row >> (7 - log2 pitch)) & mask)) * 16, with
    chunk = 2j + lane / 16 (for the 64-column piece: pitch 128, the XOR row mod 8 = lane
    mod 8, i.e. ((lane / 16 ^ lane mod 8) ^ 2j) * 16)."""
    row = 16 * warp + (lane & 15)
    xor = (row >> (7 - swizzle_shift(cols))) & swizzle_mask(cols)
    return (row << swizzle_shift(cols)) + ((((lane >> 4) ^ xor) ^ (2 * j)) << 4)


def stmatrix_trans_row(lane: int, warp: int, j: int) -> tuple[int, int]:
    """(row, first column) of the 8-element row of a transposed piece (its rows = the
    fragment's columns) that `lane` of `warp` addresses in the j-th stmatrix.x4.trans:
    matrix mm = lane / 8 is register mm, the fragment's 8-column block 2j + mm / 2 in rows
    16 warp + 8 (mm mod 2) .. + 7; stored transposed, its row r = lane mod 8 is the block's
    column r, 8 elements of D's row along the warp's 16 fragment rows."""
    mm, r = lane >> 3, lane & 7
    return 16 * j + 8 * (mm >> 1) + r, 8 * (2 * warp + (mm & 1))


def stmatrix_trans_offset(lane: int, warp: int, j: int) -> int:
    """Byte offset of that row from the transposed piece's 1024-aligned start, as the
    lowering computes it: ((8 (mm / 2) + r) x 128 + ((2 warp + mm mod 2) ^ r) x 16) +
    2048 j, with mm = lane / 8 and r = lane mod 8 (a row's 128-byte swizzle XORs its chunk
    with row mod 8 = r; j moves 16 rows, a whole number of swizzle periods)."""
    mm, r = lane >> 3, lane & 7
    return ((8 * (mm >> 1) + r) << 7) + (((2 * warp + (mm & 1)) ^ r) << 4) + 2048 * j


__all__ = [
    "BUFFERS", "PIECE_ALIGN", "PIECE_BYTES", "PIECE_COLS", "PIECE_QUANTUM", "PIECE_ROWS", "PIECE_SWIZZLE",
    "STMATRIX_PER_PIECE", "piece_layout", "piece_widths", "staging_bytes", "stmatrix_offset", "stmatrix_row",
    "stmatrix_trans_offset", "stmatrix_trans_row", "swizzle_mask", "swizzle_shift", "transposed_piece_layout",
]
