"""The loop-level GEMM on sm_100a: the same K loop and ring as the wgmma one
(gemm.py), with tcgen05's tools.

One warpgroup (128 threads). Warp 0 allocates the accumulator in tensor memory, where
it stays across the loop. Thread 0 runs the loop alone: it waits for stage s's "full"
barrier, issues the stage's tcgen05.mma (the very first one with enable-input-d off,
so no zero fill is needed), and `tcgen05.commit` arrives on stage s's "empty" barrier
once those MMAs have read shared memory; then it refills the previous stage, as the
wgmma kernel does. After the loop, a last commit arrives on a "done" barrier that every
thread waits for; each warp then reads its 32 rows with `tcgen05.ld` (32x32b) and
stores them. Nothing here has run: no Blackwell GPU is lent (docs/tcgen05.md); ptxas
assembles it for sm_100a and the tests check its SASS.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import Float32Type, i1, i16, i32, i64
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.dialects.tc_kernel import kernel_schedule
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.gemm_epilogue import Bounds, output_types, row_base
from lower_tc.passes.to_ptx.gemm import GemmLowering, Ring, Step

f32 = Float32Type()
#: Columns of one tcgen05.ld (32x32b.x32): 32 registers per thread.
LD_COLUMNS = 32


class Tcgen05GemmLowering(GemmLowering):
    MMA = tc.Tcgen05MmaOp
    #: Modifiers of every tcgen05 alloc/dealloc/mma/commit: a CTA pair's kernel adds
    #: cta_group = 2 (ptxas refuses a function that mixes the two groups).
    tcgen05_props: ClassVar[dict[str, object]] = {}

    def _check_mma(self, mma: Operation) -> None:
        if mma.a_in_tmem is not None:  # type: ignore[attr-defined]
            error_at(mma, "the pipelined GEMM reads A from shared memory (a_in_tmem is for single tiles)")
        if mma.cta_pair is not None:  # type: ignore[attr-defined]
            error_at(mma, "a CTA pair's tcgen05.mma (cta_pair) runs in the warp-specialised GEMM with cluster = 2 (#tc.gemm_schedule)")

    def _threads(self, mma: Operation, ring_a: Ring) -> int:
        if self.acc_type.m != 128 or ring_a.layout.mn != 128:
            error_at(mma, f"the tcgen05 GEMM computes 128-row tiles (one M = 128 MMA), not {self.acc_type.m}")
        self.warpgroups = 1
        self.empty_arrivals = 1  # tcgen05.commit's arrive::one
        return 128

    def _extra_barriers(self) -> None:
        self.done_off = self.scratch
        self.tmem_slot = self.scratch + 8
        self.scratch += 16
        self.emit(ptx.MbarrierInitOp, [self.smem], offset=self.done_off, count=1)

    def _setup(self, mma: Operation) -> None:
        acc_t = self.acc_type
        self.columns = max(32, 1 << (acc_t.n - 1).bit_length())
        self.is_warp0 = self._allocate_tmem(0, f"accumulator {acc_t.m}x{acc_t.n}x{acc_t.dtype} in tensor memory: {self.columns} columns")
        self._mma_setup(mma)  # type: ignore[arg-type]
        self._read_idesc(mma)

    def _allocate_tmem(self, warp: int, comment: str) -> SSAValue:
        """Warp `warp` allocates self.columns of tensor memory; every thread then reads the
        address (self.tmem) after the fenced CTA barrier. Returns "this is that warp"."""
        self.warp = self.val(ptx.ShrOp, [self.tid], type="u32", imm=5)
        is_alloc_warp = self.val(ptx.SetpOp, [self.warp], i1, cmp="eq", type="u32", imm=warp)
        skip = self.if_(is_alloc_warp, "tmem_ready")
        self.emit(ptx.Tcgen05AllocOp, [self.smem], offset=self.tmem_slot, columns=self.columns, comment=comment, **self.tcgen05_props)
        self.emit(ptx.Tcgen05RelinquishOp, **self.tcgen05_props)
        self.emit(ptx.LabelOp, label=skip)
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync")
        self.emit(ptx.BarSyncOp)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        self.tmem = self.val(ptx.LdOp, [self.smem], space="shared", type="b32", vec=1, offset=self.tmem_slot)
        return is_alloc_warp

    def _read_idesc(self, mma: Operation) -> None:
        """The MMA's kind and instruction descriptor (tc-compute-descriptors attached it)."""
        idesc = mma.attributes.get("tc.idesc")
        if not isinstance(idesc, tc.IdescAttr):
            error_at(mma, "no instruction descriptor on this op: run tc-compute-descriptors first")
        self.kind = idesc.kind.data
        self.idesc = self.imm(idesc.value.data)

    def _loop_guard(self) -> str | None:
        return self.if_(self.is_thread0, "mma_thread_done")

    def _consume(self, st: Step) -> None:
        self.wait(self.barrier(st.s, self.full_off), st.p, self.full_off)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        a64, b64 = self.stage_bases(st.s)
        accumulate = self.val(ptx.SetpOp, [st.i], i1, cmp="ne", type="u32", imm=0)
        for kk in range(self.slices):
            da = self.val(ptx.AddOp, [self.a_imms[kk], a64], i64, type="s64")
            db = self.val(ptx.AddOp, [self.b_imms[kk], b64], i64, type="s64")
            args = [self.tmem, da, db, self.idesc] + ([accumulate] if kk == 0 else [])
            self.emit(ptx.Tcgen05MmaOp, args, kind=self.kind, enable_input_d=1, a_tmem=0,
                      comment=f"tcgen05.mma kind::{self.kind}, {self.slices} K-slices" if kk == 0 else None)
        self.emit(ptx.Tcgen05CommitOp, [self.barrier(st.s, self.empty_off)], offset=self.empty_off, comment="stage s is free once these MMAs have read it")

    def _loop_tail(self) -> None:
        self.emit(ptx.Tcgen05CommitOp, [self.smem], offset=self.done_off, comment="every MMA done: the accumulator is complete")

    def _drain(self) -> None:
        self.wait(self.smem, self.imm(0), self.done_off)
        self.emit(ptx.BarSyncOp)  # thread 0 rejoins its warp before the .aligned tcgen05.ld
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")

    def _store(self, op: WindowStoreOp) -> None:
        store_rows(self, op)
        # free tensor memory once every warp has read it
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory")
        self.emit(ptx.BarSyncOp)
        skip = self.if_(self.is_warp0, "no_dealloc")
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        self.emit(ptx.Tcgen05DeallocOp, [self.tmem], columns=self.columns)
        self.emit(ptx.LabelOp, label=skip)


def store_rows(g: Tcgen05GemmLowering, op: WindowStoreOp) -> None:
    """Each thread holds one row of the tile (lane 32w + l of tensor memory): it reads
    it 32 columns at a time and stores it, converted, with C added, inside D only."""
    acc_t = g.acc_type
    c = op.c
    d_dtype, c_dtype = output_types(g, op)
    m0, n0 = g.reg(op.row, op), g.reg(op.col, op)
    lane = g.val(ptx.AndOp, [g.tid], type="b32", imm=31, comment=f"epilogue: {acc_t.m}x{acc_t.n}x{acc_t.dtype} from tensor memory into D ({d_dtype})")
    row = g.val(ptx.AddOp, [g.val(ptx.ShlOp, [g.warp], type="b32", imm=5), lane], type="u32")
    row = g.val(ptx.AddOp, [row, m0], type="s32")
    taddr = g.val(ptx.AddOp, [g.tmem, g.val(ptx.ShlOp, [g.warp], type="b32", imm=21)], type="u32")
    d_base, eb = row_base(g, op.dst, row, n0)
    c_base, c_eb = row_base(g, c, row, n0) if c is not None else (None, 0)
    bounds = Bounds(g, op)
    pairs = bounds.pairs
    row_ok = bounds.row_ok(row)
    reg_t = f32 if acc_t.dtype in ("f32", "f16") else i32  # an element's value
    run_t = f32 if acc_t.dtype == "f32" else i32  # what tcgen05.ld writes (f16: in the low half)

    def guard(col: int) -> str | None:
        return bounds.guard(row_ok, n0, col)

    def value(regs: SSAValue, j: int, col: int) -> SSAValue:
        if acc_t.dtype == "f16":  # one f16 per 32-bit column, in its low half
            word = g.val(ptx.RegOfOp, [regs], i32, regs=j)
            half = g.val(ptx.CvtOp, [word], i16, type="u16.u32")
            v = g.val(ptx.CvtOp, [half], f32, type="f32.f16")
        else:
            v = g.val(ptx.RegOfOp, [regs], reg_t, regs=j)
        if c_base is None:
            return v
        assert c_dtype is not None
        if c_dtype in ("f32", "s32"):
            cv = g.val(ptx.LdOp, [c_base], reg_t, space="global", type=c_dtype, vec=1, offset=col * c_eb)
        else:
            h = g.val(ptx.LdOp, [c_base], i16, space="global", type="b16", vec=1, offset=col * c_eb)
            cv = g.val(ptx.CvtOp, [h], f32, type=f"f32.{c_dtype}")
        return g.val(ptx.AddOp, [v, cv], reg_t, type="s32" if reg_t is i32 else "f32")

    for c0 in range(0, acc_t.n, LD_COLUMNS):
        count = min(LD_COLUMNS, acc_t.n - c0)
        regs = g.val(ptx.DeclRegsOp, result=ptx.RegsType(count, run_t))
        g.emit(ptx.Tcgen05LdOp, [regs, taddr], regs=0, num=count, offset=c0)
        g.emit(ptx.Tcgen05WaitLdOp)
        step = 2 if pairs else 1
        for j in range(0, count, step):
            col = c0 + j
            skip = guard(col)
            vals = [value(regs, j + e, col + e) for e in range(step)]
            if d_dtype in ("bf16", "f16"):
                if step == 2:
                    packed = g.val(ptx.CvtOp, [vals[1], vals[0]], i32, type=f"rn.{d_dtype}x2.f32")
                    g.emit(ptx.StOp, [d_base, packed], space="global", type="b32", vec=1, offset=col * eb)
                else:
                    h = g.val(ptx.CvtOp, [vals[0]], i16, type=f"rn.{d_dtype}.f32")
                    g.emit(ptx.StOp, [d_base, h], space="global", type="b16", vec=1, offset=col * eb)
            else:
                g.emit(ptx.StOp, [d_base, *vals], space="global", type=d_dtype, vec=step, offset=col * eb)
            if skip:
                g.emit(ptx.LabelOp, label=skip)


def gemm_lowering(kernel: Operation) -> GemmLowering:
    """The GEMM lowering for the kernel's target and schedule."""
    from lower_tc.passes.to_ptx.gemm_specialized import SpecializedGemmLowering

    target = kernel.attributes.get(tc.TARGET_ATTR)
    schedule = kernel_schedule(kernel)  # tc_kernels checked it (the schedule, target's rules)
    name = schedule.schedule
    if getattr(target, "data", None) == "sm_100a":
        from lower_tc.passes.to_ptx.gemm_tcgen05_specialized import Tcgen05SpecializedGemmLowering

        if schedule.cluster == 2:
            from lower_tc.passes.to_ptx.gemm_tcgen05_pair import Tcgen05PairGemmLowering

            return Tcgen05PairGemmLowering(kernel)
        return Tcgen05SpecializedGemmLowering(kernel) if name == "warp_specialized" else Tcgen05GemmLowering(kernel)
    return SpecializedGemmLowering(kernel) if name == "warp_specialized" else GemmLowering(kernel)
