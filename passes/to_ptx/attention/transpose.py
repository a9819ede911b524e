"""The producer warpgroup's transposition of V (tc.tile_transpose in the key loop): each
block's MN-major V tile, as TMA loaded it, copied into the K-major tile fp8 wgmma reads
(layout/smem_transpose.py has the plan: which 4 x 4 byte blocks each thread moves, its
offsets, the byte permutes).

A thread builds its 8 offsets (4 loads, 4 stores) once from the bits of its index; each
stage then costs, per block of 4 keys x 4 columns, 4 ld.shared.b32, 8 prmt.b32 and 4
st.shared.b32 (and one xor per access whose offset moves with the iteration). The
threads' stores are generic-proxy writes that wgmma reads through the async proxy: each
thread fences (fence.proxy.async.shared::cta) before it arrives on the stage's "ready"
barrier, which the consumers wait on before the P V wgmma."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout import LayoutError
from lower_tc.layout.smem_transpose import PRMT_STEPS, TransposePlan, transpose_plan
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.kloop import TileRing
from lower_tc.passes.to_ptx.gemm.tma_loads import stage_tile


#: Registers a producer thread keeps (setmaxnreg.dec) where it transposes V: its 8 offsets
#: and a group's loaded words (TRANSPOSE_GROUP x 4) besides the loop's state.
TRANSPOSER_REGISTERS = 56
#: Iterations whose loads a thread issues together, ahead of their stores (ptxas keeps a
#: shared load below an earlier shared store: it cannot tell the two tiles apart).
TRANSPOSE_GROUP = 8


def _stage_independent(ring: TileRing) -> bool:
    """Whether every stage's swizzled offsets are stage 0's (its stride a whole number of
    the swizzle's repeats), so one plan serves every stage."""
    layout = ring.layout
    mn, k = np.meshgrid(np.arange(layout.mn), np.arange(layout.k), indexing="ij")
    first = layout.addresses(mn, k) - layout.address
    for s in range(1, ring.stages):
        moved = replace(layout, address=layout.address + s * ring.stride)
        if not np.array_equal(moved.addresses(mn, k) - moved.address, first):
            return False
    return True


@dataclass(frozen=True)
class VTransposer:
    """One producer thread's part: the plan, its offsets, the two rings."""

    b: PtxBuilder
    smem: SSAValue
    plan: TransposePlan
    offsets: tuple[SSAValue, ...]
    src: TileRing
    dst: TileRing

    @classmethod
    def prepare(cls, b: PtxBuilder, smem: SSAValue, op: tc.TileTransposeOp, src: TileRing, dst: TileRing,
                thread: SSAValue) -> "VTransposer":
        """The plan (a located error where there is none) and this thread's offsets;
        `thread` is its index in the warpgroup (0..127, u32)."""
        try:
            plan = transpose_plan(src.layout, dst.layout, op.accumulator_order is not None)
        except LayoutError as err:
            error_at(op, str(err))
        for ring, what in ((src, "source"), (dst, "destination")):
            if not _stage_independent(ring):
                error_at(op, f"the {what} ring's stages are {ring.stride} bytes apart, not a whole number of its "
                             f"{ring.layout.swizzle} swizzle's repeats: one transposition plan cannot serve every stage")
        regs = [b.imm(v) for v in plan.base]
        for bit, xs in enumerate(plan.thread_xor):
            if not any(xs):
                continue
            one = b.val(ptx.AndOp, [b.val(ptx.ShrOp, [thread], type="u32", imm=bit)], type="b32", imm=1)
            mask = b.val(ptx.SubOp, [b.imm(0), one], type="s32", comment=f"all ones where bit {bit} of the thread is set")
            for s, x in enumerate(xs):
                if x:
                    regs[s] = b.val(ptx.XorOp, [regs[s], b.val(ptx.AndOp, [mask], type="b32", imm=x)], type="b32")
        return cls(b, smem, plan, tuple(regs), src, dst)

    def stage(self, s: SSAValue) -> None:
        """Stage s's V tile transposed, this thread's blocks (then the caller fences and
        arrives)."""
        b, plan = self.b, self.plan
        src, src_off = stage_tile(b, self.smem, s, self.src)
        dst, dst_off = stage_tile(b, self.smem, s, self.dst)
        note = (f"V transposed: {plan.iterations} blocks of 4 keys x 4 columns a thread"
                f"{' (16-byte loads)' if plan.wide else ''}, {plan.wavefronts} shared-memory wavefronts for "
                f"{plan.accesses} warp accesses")
        fixed: dict[int, SSAValue] = {}  # slot -> stage base + the thread's offset, where a step adds

        def address(n: int, slot: int) -> tuple[SSAValue, int]:
            base, imm = (src, src_off) if slot < 4 else (dst, dst_off)
            x = plan.step_xor[n][slot]
            if plan.step_adds[n][slot]:
                if slot not in fixed:
                    fixed[slot] = b.val(ptx.AddOp, [base, self.offsets[slot]], type="u32")
                return fixed[slot], imm + x
            off = b.val(ptx.XorOp, [self.offsets[slot]], type="b32", imm=x)
            return b.val(ptx.AddOp, [base, off], type="u32"), imm

        for first in range(0, plan.iterations, TRANSPOSE_GROUP):
            group = range(first, min(first + TRANSPOSE_GROUP, plan.iterations))
            loaded: dict[int, dict[str, SSAValue]] = {n: {} for n in group}
            for n in group:  # every load of the group before any store: ptxas keeps loads below
                if plan.wide and n % 4:  # earlier shared stores (it cannot tell the tiles apart)
                    continue
                for j in range(4):
                    reg, imm = address(n, j)
                    extra = {"comment": note} if n == 0 and j == 0 else {}
                    if plan.wide:  # one 16-byte chunk of key j: the words of iterations n .. n + 3
                        words = b.emit(ptx.LdOp, [reg], [i32] * 4, space="shared", type="b32", vec=4, offset=imm, **extra).res
                        for a, w in enumerate(words):
                            loaded[n + a][f"w{j}"] = w
                    else:
                        loaded[n][f"w{j}"] = b.val(ptx.LdOp, [reg], space="shared", type="b32", vec=1, offset=imm, **extra)
            for n in group:
                regs = loaded[n]
                for out, x, y, sel in PRMT_STEPS:
                    regs[out] = b.val(ptx.PrmtOp, [regs[x], regs[y]], type="b32", imm=sel)
                for i in range(4):
                    reg, imm = address(n, 4 + i)
                    b.emit(ptx.StOp, [reg, regs[f"o{i}"]], space="shared", type="b32", vec=1, offset=imm)

__all__ = ["TRANSPOSER_REGISTERS", "TRANSPOSE_GROUP", "VTransposer"]
