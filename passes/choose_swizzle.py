"""tc-choose-swizzle: fills every `auto` swizzle with the chooser's choice."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc import SmemTileOp, TileTransposeOp, TileType, kernel_target, tc_kernels
from lower_tc.layout import Arch, LayoutError, Major, Swizzle, check_operand_layout, choose_placed_swizzle
from lower_tc.dialects.diagnostics import error_at, remark_at
from lower_tc.dialects.pass_order import require


def is_transpose_source(tile_op: SmemTileOp) -> bool:
    """Whether the tile is only loaded and read by tc.tile_transpose (no MMA reads it: an
    8-bit MN-major staging tile, which no tensor core could read)."""
    return any(isinstance(u.operation, TileTransposeOp) and u.operation.src is tile_op.tile for u in tile_op.tile.uses)


@dataclass(frozen=True)
class ChooseSwizzlePass(ModulePass):
    """Chooses the widest legal swizzle for each tile whose swizzle is `auto`.

    Pinned modes are kept. Options: ``max`` caps the width (e.g.
    ``tc-choose-swizzle{max=64b}``); ``remarks=true`` prints the reason for
    every tile on stderr as a located remark.
    """

    name = "tc-choose-swizzle"
    max: str = "128b"
    remarks: bool = False

    def __post_init__(self) -> None:
        """A bad option is the command line's error, found before any input is read."""
        try:
            Swizzle.parse(self.max)
        except LayoutError as err:
            raise ValueError(f"tc-choose-swizzle: max={self.max}: {err}") from None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        maximum = Swizzle.parse(self.max)
        kernels = tc_kernels(op)  # checks every kernel's tc attributes (tc_kernel.check_kernel_attributes)
        require(op, self.name, kernels)  # no linalg left: convert-linalg-to-tc ran
        for tile_op in [o for o in op.walk() if isinstance(o, SmemTileOp)]:
            tile = tile_op.tile.type
            assert isinstance(tile, TileType)
            if not tile.layout.is_auto:
                if self.remarks:
                    remark_at(tile_op, f"{tile.layout.swizzle.data}: pinned")
                continue
            arch = kernel_target(tile_op)
            if arch is None:
                error_at(tile_op, "no tc.target on the enclosing kernel: cannot choose a swizzle")
            extent = tile.k if tile.major is Major.K else tile.mn
            staged = is_transpose_source(tile_op)

            def fits(mode: Swizzle, tile: TileType = tile, arch: Arch = arch, staged: bool = staged) -> None:
                """The tile, with `mode`, where it is pinned, and readable there by `arch`
                (an MMA operand; a tc.tile_transpose source is read by threads only)."""
                try:
                    placed = tile.with_layout(tile.layout.with_(swizzle=mode.value))
                except VerifyException as err:
                    raise LayoutError(str(err)) from None
                if not staged:
                    check_operand_layout(placed.tile_layout(), arch)

            try:
                choice = choose_placed_swizzle(tile.dtype, tile.major, extent, arch, fits, maximum=maximum)
            except LayoutError as err:
                error_at(tile_op, str(err))
            new_type = tile.with_layout(tile.layout.with_(swizzle=choice.swizzle.value))
            Rewriter.replace_value_with_new_type(tile_op.tile, new_type)
            if self.remarks:
                remark_at(tile_op, choice.reason)
