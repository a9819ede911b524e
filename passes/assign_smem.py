"""tc-assign-smem: gives every tile its offset in dynamic shared memory."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc import SMEM_CAPACITY, SmemTileOp, TileType, tc_kernels
from lower_tc.layout import LayoutError, Swizzle
from lower_tc.layout.gemm import ring_footprint
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.pass_order import require

#: TMA destinations must be 128-byte aligned (measured on an H100, docs/base-offset.md).
MIN_ALIGN = 128


def tile_alignment(tile: TileType) -> int:
    """A tile starts on its swizzle pattern period (and at least 128 bytes)."""
    swizzle = Swizzle.parse(tile.layout.swizzle.data)
    return max(MIN_ALIGN, swizzle.period)


def _align(x: int, a: int) -> int:
    return -(-x // a) * a


def check_capacity(tile_op: SmemTileOp, end: int, pinned: bool) -> None:
    """A located error where the tile (its ring's every stage) would end beyond the
    shared memory a block may use; checked before the tile gets its offset, so no tile
    type past the capacity is ever made."""
    if end > SMEM_CAPACITY:
        what = "this tile" + (f" ({tile_op.ring_stages} stages)" if tile_op.ring_stages > 1 else "")
        what += ", pinned where it is," if pinned else ""
        error_at(
            tile_op,
            f"shared memory exhausted: {what} would end at {end} bytes, "
            f"beyond the {SMEM_CAPACITY} bytes (227 KiB) a block may use",
        )


@dataclass(frozen=True)
class AssignSmemPass(ModulePass):
    """Places each kernel's tiles: pinned offsets are honoured (and checked for
    overlap), the others go first-fit at their swizzle period; the total is
    checked against the 227 KiB a block may use."""

    name = "tc-assign-smem"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = tc_kernels(op)
        require(op, self.name, kernels)  # every swizzle chosen (tc-choose-swizzle ran)
        for kernel in kernels:
            self._assign(kernel)

    def _assign(self, kernel: Operation) -> None:
        tiles = [o for o in kernel.walk() if isinstance(o, SmemTileOp)]
        placed: list[tuple[int, int, SmemTileOp]] = []  # (start, end, op)

        def footprint(tile_op: SmemTileOp, offset: int) -> int:
            tile = tile_op.tile.type
            assert isinstance(tile, TileType)
            if tile.layout.is_auto:
                error_at(tile_op, "the tile's swizzle is still auto: run tc-choose-swizzle first")
            try:
                single = tile.with_layout(tile.layout.with_(offset=offset)).tile_layout().footprint
                return ring_footprint(single, tile_op.ring_stages)  # a ring: its stages' buffers
            except (LayoutError, VerifyException) as err:
                error_at(tile_op, str(err))

        for tile_op in tiles:
            tile = tile_op.tile.type
            assert isinstance(tile, TileType)
            if not tile.layout.has_offset:
                continue
            start = tile.layout.offset.data
            end = start + footprint(tile_op, start)
            check_capacity(tile_op, end, pinned=True)
            for s, e, other in placed:
                if start < e and s < end:
                    error_at(
                        tile_op,
                        f"pinned tile [{start}, {end}) overlaps the tile at [{s}, {e})",
                    )
            placed.append((start, end, tile_op))

        for tile_op in tiles:
            tile = tile_op.tile.type
            assert isinstance(tile, TileType)
            if tile.layout.has_offset:
                continue
            size = footprint(tile_op, 0)  # first: it refuses a swizzle still auto, located
            align = tile_alignment(tile)
            candidates = sorted({0} | {_align(e, align) for _, e, _ in placed})
            for start in candidates:
                if all(start + size <= s or e <= start for s, e, _ in placed):
                    break
            check_capacity(tile_op, start + size, pinned=False)
            placed.append((start, start + size, tile_op))
            Rewriter.replace_value_with_new_type(
                tile_op.tile, tile.with_layout(tile.layout.with_(offset=start))
            )
