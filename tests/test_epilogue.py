"""The TMA-store epilogue's staging pieces (layout/epilogue.py): the addresses the lowering
computes for each thread's stmatrix rows are the layout core's, the pieces are one TMA
box each, and each stmatrix phase writes eight rows without a bank conflict."""

from __future__ import annotations

import pytest
from lower_tc.layout.epilogue import (
    BUFFERS,
    PIECE_BYTES,
    PIECE_COLS,
    PIECE_ROWS,
    STMATRIX_PER_PIECE,
    piece_layout,
    staging_bytes,
    stmatrix_offset,
    stmatrix_row,
)
from lower_tc.layout.gemm import default_persistent
from lower_tc.layout.tma import tma_plan


@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_stmatrix_offsets_are_the_layout_cores_addresses(dtype: str) -> None:
    layout = piece_layout(dtype)
    for warp in range(4):
        for lane in range(32):
            for j in range(STMATRIX_PER_PIECE):
                row, col = stmatrix_row(lane, warp, j)
                assert stmatrix_offset(lane, warp, j) == int(layout.addresses(row, col)), (warp, lane, j)


def test_the_rows_of_a_piece_are_covered_once() -> None:
    """Every 8-element row segment of the 64 x 64 piece is addressed by exactly one
    (warp, lane, j), so the four stmatrix.x4 of four warps write the whole piece."""
    seen = [stmatrix_row(lane, warp, j) for warp in range(4) for lane in range(32) for j in range(STMATRIX_PER_PIECE)]
    assert sorted(seen) == [(r, c) for r in range(PIECE_ROWS) for c in range(0, PIECE_COLS, 8)]


def test_each_stmatrix_phase_is_free_of_bank_conflicts() -> None:
    """A phase is the eight rows of one 8x8 matrix (lanes 8m .. 8m+7): their 16-byte
    rows must fall on eight different groups of four banks."""
    for warp in range(4):
        for j in range(STMATRIX_PER_PIECE):
            for m in range(4):
                groups = {stmatrix_offset(lane, warp, j) % 128 // 16 for lane in range(8 * m, 8 * m + 8)}
                assert len(groups) == 8, (warp, j, m)


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
