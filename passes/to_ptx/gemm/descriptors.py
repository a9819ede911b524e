"""The MMA's shared-memory descriptors in the K loop, for wgmma and tcgen05 alike.

tc-compute-descriptors attached every descriptor of every stage, warpgroup and K-slice;
they differ only in the start address, by the stage's and the warpgroup's byte offsets.
So the loop keeps stage 0's (warpgroup 0's) descriptor of each K-slice as a 64-bit
immediate and adds (shared-memory base + stage offset + row-block offset) >> 4 at run
time. This is checked here against every attached descriptor, so a descriptor the loop
would compute differently is a located error, not a silently wrong kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, i64
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, TileRing

#: What a descriptor's start field keeps of a shared address: the address within the
#: CTA's 256 KiB (a cluster launch puts the CTA's rank in bit 24).
CTA_ADDRESS_MASK = 0x3FFFF


@dataclass(frozen=True)
class StageDescriptors:
    """Per K-slice, the A and B descriptors of stage 0 as immediates, and the registers
    a stage's offsets are added to."""

    a_imms: list[SSAValue]
    b_imms: list[SSAValue]
    a_stage16: int  # a stage's A bytes >> 4
    b_stage16: int
    a_fixed16: SSAValue  # (shared base + this warpgroup's rows) >> 4
    b_fixed16: SSAValue  # shared base >> 4

    @property
    def slices(self) -> int:
        return len(self.b_imms)

    @classmethod
    def setup(
        cls, b: PtxBuilder, mma: Operation, loop: KLoop, warpgroups: int, wg: SSAValue,
        smem: SSAValue, smem16: SSAValue, clustered: bool,
    ) -> "StageDescriptors":
        """Checks the attached descriptors against the ring and emits the immediates;
        `wg` is the warpgroup's index among the MMA's `warpgroups` (64 rows each)."""
        return cls.of_rings(b, mma, loop.rings, loop.k_slices, warpgroups, wg, smem, smem16, clustered)

    @classmethod
    def of_rings(
        cls, b: PtxBuilder, mma: Operation, rings: tuple[TileRing | None, TileRing], slices: int, warpgroups: int,
        wg: SSAValue, smem: SSAValue, smem16: SSAValue, clustered: bool,
    ) -> "StageDescriptors":
        """`setup` for any MMA on ring tiles (`slices` K-slices a stage): A's ring is None
        where A is a register fragment (no A descriptors), and a tile of one stage stays
        where it is while B's stages turn (attention's Q against each block of K)."""
        a_ring, b_ring = rings
        a_descs, b_descs = mma.attributes.get("tc.a_descs"), mma.attributes.get("tc.b_descs")
        if (a_ring is not None and not isinstance(a_descs, ArrayAttr)) or not isinstance(b_descs, ArrayAttr):
            error_at(mma, "run tc-compute-descriptors before tc-lower-to-ptx")
        row_block = int(a_ring.layout.linear_addresses(64, 0) - a_ring.layout.linear_addresses(0, 0)) if warpgroups > 1 and a_ring is not None else 0
        checks = [("B", b_descs, b_ring, 1, 0)]
        if a_ring is not None:
            checks.insert(0, ("A", a_descs, a_ring, warpgroups, row_block))
        for what, descs, ring, blocks, block_bytes in checks:
            if len(descs.data) != ring.stages * blocks * slices:
                error_at(mma, f"tc.{what.lower()}_descs has {len(descs.data)} descriptors, not stages x warpgroups x K-slices = {ring.stages * blocks * slices}: run tc-compute-descriptors again")
            for idx, d in enumerate(descs.data):
                s, rest = divmod(idx, blocks * slices)
                w, kk = divmod(rest, slices)
                base = descs.data[kk].value.data  # type: ignore[attr-defined]
                want = base + ((s * ring.stride + w * block_bytes) >> 4)
                if d.value.data != want:  # type: ignore[attr-defined]
                    error_at(mma, f"tc.{what.lower()}_descs[{idx}] is not stage {s}, warpgroup {w}, K-slice {kk} of the ring: run tc-compute-descriptors again")
        a_imms = [b.imm(f"{d.value.data:#018x}", "b64") for d in a_descs.data[:slices]] if a_ring is not None else []  # type: ignore[union-attr]
        b_imms = [b.imm(f"{d.value.data:#018x}", "b64") for d in b_descs.data[:slices]]  # type: ignore[attr-defined]
        wg_off = b.val(ptx.MulLoOp, [wg], type="u32", imm=row_block >> 4) if row_block else None
        if clustered:
            # in a cluster launch a CTA's shared addresses carry its rank (bit 24: rank 1's
            # shared memory starts at 0x1000400, seen on the H100); a descriptor holds
            # (address & 0x3FFFF) >> 4, so the rest must not carry into LBO
            masked = b.val(ptx.AndOp, [smem], type="b32", imm=CTA_ADDRESS_MASK)
            smem16 = b.val(ptx.ShrOp, [masked], type="u32", imm=4, comment="the descriptors' base: the shared address within the CTA's 256 KiB")
        a_fixed16 = b.val(ptx.AddOp, [smem16, wg_off], type="u32") if wg_off is not None else smem16
        a_stage16 = a_ring.stride >> 4 if a_ring is not None and a_ring.stages > 1 else 0
        return cls(a_imms, b_imms, a_stage16, b_ring.stride >> 4, a_fixed16, smem16)

    def bases(self, b: PtxBuilder, s: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The 64-bit amounts that stage s adds to the A and B descriptors."""
        a_base = b.val(ptx.MulLoOp, [s], type="u32", imm=self.a_stage16)
        a_base = b.val(ptx.AddOp, [a_base, self.a_fixed16], type="u32")
        b_base = b.val(ptx.MulLoOp, [s], type="u32", imm=self.b_stage16)
        b_base = b.val(ptx.AddOp, [b_base, self.b_fixed16], type="u32")
        a64 = b.val(ptx.CvtOp, [a_base], i64, type="u64.u32")
        b64 = b.val(ptx.CvtOp, [b_base], i64, type="u64.u32")
        return a64, b64

    def b_stage64(self, b: PtxBuilder, s: SSAValue) -> SSAValue:
        """The 64-bit amount stage s adds to the B descriptors alone (an MMA whose A is
        fixed or in registers: attention's)."""
        b_base = b.val(ptx.AddOp, [b.val(ptx.MulLoOp, [s], type="u32", imm=self.b_stage16), self.b_fixed16], type="u32")
        return b.val(ptx.CvtOp, [b_base], i64, type="u64.u32")

    def slice(self, b: PtxBuilder, kk: int, a64: SSAValue, b64: SSAValue) -> tuple[SSAValue, SSAValue]:
        """K-slice kk's A and B descriptors at the stage whose bases are a64, b64."""
        da = b.val(ptx.AddOp, [self.a_imms[kk], a64], i64, type="s64")
        db = b.val(ptx.AddOp, [self.b_imms[kk], b64], i64, type="s64")
        return da, db
