"""tc-compute-descriptors: attaches each MMA's descriptors as readable attributes."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc import DescAttr, IdescAttr, SmemTileOp, TileType, Tcgen05MmaOp, WgmmaOp, enclosing_kernel, in_gemm_kernel, tc_kernels
from lower_tc.layout.gemm import ring_k_slices
from lower_tc.layout import Arch, LayoutError, Major, k_slices
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.pass_order import require


def descriptor_attrs(tile_value: SSAValue, arch: Arch, row_blocks: int = 1) -> ArrayAttr[DescAttr]:
    """One #tc.desc per 32-byte K-slice of the tile. For a ring (`tc.smem_tile {stages
    = N}`), every stage's, stage-major, and within a stage each 64-row warpgroup block's
    (`row_blocks` of them, for A in a GEMM kernel)."""
    tile = tile_value.type
    assert isinstance(tile, TileType)
    if not tile.layout.has_offset:
        raise LayoutError("the tile has no offset yet: run tc-assign-smem first")
    owner = tile_value.owner
    stages = owner.ring_stages if isinstance(owner, SmemTileOp) else 1
    layout = tile.tile_layout()
    if stages > 1 or row_blocks > 1:
        slices = [(sl.k, sl.descriptor) for sl in ring_k_slices(layout, arch, stages, row_blocks)]
    else:
        slices = [(sl.k, sl.descriptor) for sl in k_slices(layout, arch)]
    return ArrayAttr([
        DescAttr(
            IntAttr(k), IntAttr(d.start_address), IntAttr(d.lbo), IntAttr(d.sbo),
            IntAttr(d.base_offset), StringAttr(d.swizzle.value), IntAttr(d.encode()),
        )
        for k, d in slices
    ])


@dataclass(frozen=True)
class ComputeDescriptorsPass(ModulePass):
    """Sets ``tc.a_descs`` and ``tc.b_descs`` (one #tc.desc per K-slice) on every
    tc.wgmma and tc.tcgen05_mma, and ``tc.idesc`` on every tc.tcgen05_mma."""

    name = "tc-compute-descriptors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = tc_kernels(op)  # checks every kernel's tc attributes (tc_kernel.check_kernel_attributes)
        require(op, self.name, kernels)  # every tile placed (tc-choose-swizzle, tc-assign-smem ran)
        # Linear in the MMAs: whether a kernel is a GEMM is found once per kernel, and
        # each (tile, target, row blocks) gets its descriptors once (a chain of MMAs on
        # the same tiles shares them).
        gemm_kernels: dict[Operation | None, bool] = {}
        descs: dict[tuple[SSAValue, Arch, int], ArrayAttr[DescAttr]] = {}

        def attrs(tile: SSAValue, arch: Arch, row_blocks: int = 1) -> ArrayAttr[DescAttr]:
            key = (tile, arch, row_blocks)
            if key not in descs:
                descs[key] = descriptor_attrs(tile, arch, row_blocks)
            return descs[key]

        for mma in [o for o in op.walk() if isinstance(o, WgmmaOp | Tcgen05MmaOp)]:
            arch = Arch.SM90A if isinstance(mma, WgmmaOp) else Arch.SM100A
            try:
                register_a = (
                    mma.a_in_registers is not None or not isinstance(mma.a.type, TileType)  # a !tc.afrag
                    if isinstance(mma, WgmmaOp)
                    else mma.a_in_tmem is not None or not isinstance(mma.a.type, TileType)  # an !tc.afrag in tensor memory
                )
                if not register_a:
                    # a wgmma GEMM's warpgroups each read their 64 rows of A
                    gemm = False
                    if isinstance(mma, WgmmaOp):
                        kernel = enclosing_kernel(mma)
                        if kernel not in gemm_kernels:
                            gemm_kernels[kernel] = in_gemm_kernel(mma)
                        gemm = gemm_kernels[kernel]
                    blocks = max(mma.a.type.mn // 64, 1) if gemm else 1  # type: ignore[union-attr]
                    mma.attributes["tc.a_descs"] = attrs(mma.a, arch, blocks)
                mma.attributes["tc.b_descs"] = attrs(mma.b, arch)
                if isinstance(mma, Tcgen05MmaOp):
                    idesc = mma.instr_descriptor()
                    mma.attributes["tc.idesc"] = IdescAttr(
                        StringAttr(idesc.kind), StringAttr(idesc.a_type), StringAttr(idesc.b_type),
                        StringAttr(idesc.d_type), IntAttr(idesc.m), IntAttr(idesc.n),
                        StringAttr("mn" if idesc.a_mn_major else "k"),
                        StringAttr("mn" if idesc.b_mn_major else "k"),
                        IntAttr(idesc.encode()),
                    )
            except (LayoutError, VerifyException) as err:
                error_at(mma, str(err))


__all__ = ["ComputeDescriptorsPass", "Major"]
