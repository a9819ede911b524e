"""The TMA-store epilogue's staging pieces (layout/epilogue.py): the addresses the lowering
computes for each thread's stmatrix rows are the layout core's, the pieces are one TMA
box each, and each stmatrix phase writes eight rows without a bank conflict: for the
64-column pieces and for the 32- and 16-column ones that finish a BN that is not a
multiple of 64; and for a column-major D (swap-AB's D^T), the transposed pieces that
stmatrix.trans fills."""

from __future__ import annotations

import pytest
from lower_tc.layout.epilogue import (
    BUFFERS,
    PIECE_BYTES,
    PIECE_COLS,
    PIECE_ROWS,
    STMATRIX_PER_PIECE,
    piece_layout,
    piece_widths,
    staging_bytes,
    stmatrix_offset,
    stmatrix_row,
    stmatrix_trans_offset,
    stmatrix_trans_row,
    transposed_piece_layout,
)
from lower_tc.layout.gemm import default_persistent
from lower_tc.layout.tma import tma_plan


WIDTHS = (PIECE_COLS, 32, 16)


@pytest.mark.parametrize("cols", WIDTHS)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_stmatrix_offsets_are_the_layout_cores_addresses(dtype: str, cols: int) -> None:
    layout = piece_layout(dtype, cols=cols)
    for warp in range(4):
        for lane in range(32):
            for j in range(cols // 16):
                row, col = stmatrix_row(lane, warp, j)
                assert stmatrix_offset(lane, warp, j, cols) == int(layout.addresses(row, col)), (warp, lane, j)


@pytest.mark.parametrize("cols", WIDTHS)
def test_the_rows_of_a_piece_are_covered_once(cols: int) -> None:
    """Every 8-element row segment of the 64 x cols piece is addressed by exactly one
    (warp, lane, j), so the stmatrix.x4 of four warps write the whole piece, and nothing
    lands past it."""
    seen = [stmatrix_row(lane, warp, j) for warp in range(4) for lane in range(32) for j in range(cols // 16)]
    assert sorted(seen) == [(r, c) for r in range(PIECE_ROWS) for c in range(0, cols, 8)]
    offsets = {stmatrix_offset(lane, warp, j, cols) for warp in range(4) for lane in range(32) for j in range(cols // 16)}
    assert max(offsets) + 16 <= piece_layout("bf16", cols=cols).size_bytes <= PIECE_BYTES


@pytest.mark.parametrize("cols", WIDTHS)
def test_each_stmatrix_phase_is_free_of_bank_conflicts(cols: int) -> None:
    """A phase is the eight rows of one 8x8 matrix (lanes 8m .. 8m+7): their 16-byte
    rows must fall on eight different groups of four banks."""
    assert STMATRIX_PER_PIECE == PIECE_COLS // 16
    for warp in range(4):
        for j in range(cols // 16):
            for m in range(4):
                groups = {stmatrix_offset(lane, warp, j, cols) % 128 // 16 for lane in range(8 * m, 8 * m + 8)}
                assert len(groups) == 8, (warp, j, m)


@pytest.mark.parametrize(("bn", "widths"), [(256, (64, 64, 64, 64)), (64, (64,)), (144, (64, 64, 16)), (176, (64, 64, 32, 16)),
                                            (96, (64, 32)), (80, (64, 16)), (48, (32, 16)), (16, (16,)), (240, (64, 64, 64, 32, 16))])
def test_piece_widths_cover_bn_widest_first(bn: int, widths: tuple[int, ...]) -> None:
    assert piece_widths(bn) == widths and sum(widths) == bn


@pytest.mark.parametrize("bn", [0, 8, 88, 136, 250])
def test_piece_widths_refuse_what_stmatrix_x4_cannot_cover(bn: int) -> None:
    with pytest.raises(ValueError, match="multiples of 16 columns"):
        piece_widths(bn)


@pytest.mark.parametrize(("cols", "code"), [(32, 2), (16, 1)])
def test_a_narrow_piece_is_one_tma_box_swizzled_as_wide_as_its_rows(cols: int, code: int) -> None:
    layout = piece_layout("bf16", cols=cols)
    plan = tma_plan(layout)
    assert plan.box == (cols, PIECE_ROWS)
    assert len(plan.boxes) == 1 and plan.boxes[0].smem_offset == 0
    assert layout.swizzle.tma_code == code and layout.size_bytes == PIECE_ROWS * cols * 2


def test_a_piece_is_one_tma_box_with_the_128_byte_swizzle() -> None:
    layout = piece_layout("bf16")
    plan = tma_plan(layout)
    assert plan.box == (PIECE_COLS, PIECE_ROWS)
    assert len(plan.boxes) == 1 and plan.boxes[0].smem_offset == 0
    assert layout.swizzle.tma_code == 3 and layout.size_bytes == PIECE_BYTES
    assert staging_bytes(2) == 2 * BUFFERS * PIECE_BYTES


def test_persistent_by_default_only_where_it_can_be() -> None:
    assert default_persistent("warp_specialized", 8, 4096, 4096)
    assert not default_persistent("pipelined", 8, 4096, 4096)
    assert not default_persistent("warp_specialized", 0, 4096, 4096)
    assert not default_persistent("warp_specialized", 8, None, 4096)


@pytest.mark.parametrize("rows", WIDTHS)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_transposed_stmatrix_offsets_are_the_layout_cores_addresses(dtype: str, rows: int) -> None:
    """A transposed piece is `rows` of D's rows by the warpgroup's 64 fragment rows (D's
    columns): the lowering's addresses for stmatrix.trans are the layout core's."""
    layout = transposed_piece_layout(dtype, rows)
    for warp in range(4):
        for lane in range(32):
            for j in range(rows // 16):
                row, col = stmatrix_trans_row(lane, warp, j)
                assert stmatrix_trans_offset(lane, warp, j) == int(layout.addresses(row, col)), (warp, lane, j)


@pytest.mark.parametrize("rows", WIDTHS)
def test_a_transposed_piece_is_covered_once_by_the_fragment(rows: int) -> None:
    """Register mm of the j-th stmatrix.x4.trans is the accumulator's 8-column block
    2j + mm / 2 in rows 16 warp + 8 (mm mod 2) ..: stored transposed, that block's column c
    is the piece's row 8 (2j + mm / 2) + c, and its 8 rows are 8 contiguous columns starting
    at 16 warp + 8 (mm mod 2). Every (fragment row, fragment column) of the warpgroup's
    64 x rows fragment lands exactly once, at (piece row = column, piece column = row)."""
    seen = set()
    for warp in range(4):
        for lane in range(32):
            for j in range(rows // 16):
                mm, c = lane >> 3, lane & 7
                block, first_row = 2 * j + (mm >> 1), 16 * warp + 8 * (mm & 1)
                row, col = stmatrix_trans_row(lane, warp, j)
                assert (row, col) == (8 * block + c, first_row)
                for e in range(8):  # element e of the stored row: fragment row first_row + e
                    seen.add((first_row + e, 8 * block + c))
                    assert (row, col + e) == (8 * block + c, first_row + e)
    assert seen == {(r, c) for r in range(64) for c in range(rows)}
    offsets = {stmatrix_trans_offset(lane, warp, j) for warp in range(4) for lane in range(32) for j in range(rows // 16)}
    assert max(offsets) + 16 <= transposed_piece_layout("bf16", rows).size_bytes <= PIECE_BYTES


@pytest.mark.parametrize("rows", WIDTHS)
def test_each_transposed_stmatrix_phase_is_free_of_bank_conflicts(rows: int) -> None:
    for warp in range(4):
        for j in range(rows // 16):
            for m in range(4):
                groups = {stmatrix_trans_offset(lane, warp, j) % 128 // 16 for lane in range(8 * m, 8 * m + 8)}
                assert len(groups) == 8, (warp, j, m)


@pytest.mark.parametrize("rows", WIDTHS)
def test_a_transposed_piece_is_one_tma_box_with_the_128_byte_swizzle(rows: int) -> None:
    layout = transposed_piece_layout("bf16", rows)
    plan = tma_plan(layout)
    assert plan.box == (PIECE_COLS, rows)
    assert len(plan.boxes) == 1 and plan.boxes[0].smem_offset == 0
    assert layout.swizzle.tma_code == 3 and layout.size_bytes == rows * 128
