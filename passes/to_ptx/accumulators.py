"""Accumulators: tc.acc_zero and tc.acc_load only record how an accumulator starts (its
registers or tensor memory are made on first use by an MMA or a store); tc.acc_store writes
D back. wgmma accumulators follow the PTX ISA register-fragment layouts."""

from __future__ import annotations


from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.tcgen05 import tmem_store
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.values import Acc, f32



def lower_acc_zero(kl: KernelLowering, op: tc.AccZeroOp) -> None:
    """Records a zero accumulator; the MMA that first uses it fills it."""
    assert isinstance(op.acc.type, tc.AccType)
    kl.accs[op.acc] = Acc(op.acc.type, "zero", origin=op.acc)


def lower_acc_load(kl: KernelLowering, op: tc.AccLoadOp) -> None:
    """Records an accumulator that starts as C; the MMA that first uses it loads it."""
    assert isinstance(op.acc.type, tc.AccType)
    kl.accs[op.acc] = Acc(op.acc.type, "load", op.src, origin=op.acc)


def wgmma_regs_type(t: tc.AccType) -> ptx.RegsType:
    if t.dtype == "f16":
        return ptx.RegsType(t.n // 4, i32)
    return ptx.RegsType(t.n // 2, f32 if t.dtype == "f32" else i32)


def fragment_row(kl: KernelLowering) -> SSAValue:
    """The thread's first row of an m64 accumulator fragment, 16w + g (w warp, g = lane / 4);
    its second is 8 below."""
    lane = kl.b.val(ptx.AndOp, [kl.tid], type="b32", imm=31)
    g = kl.b.val(ptx.ShrOp, [lane], type="u32", imm=2)
    w16 = kl.b.val(ptx.ShlOp, [kl.warp], type="b32", imm=4)
    return kl.b.val(ptx.AddOp, [w16, g], type="u32")


def fragment_base(kl: KernelLowering, gbase: SSAValue, n: int, eb: int) -> SSAValue:
    """Address of D[16w + g][2q] for this thread (w warp, g = lane / 4, q = lane % 4)."""
    row = fragment_row(kl)
    q = kl.b.val(ptx.AndOp, [kl.tid], type="b32", imm=3)
    q2 = kl.b.val(ptx.ShlOp, [q], type="b32", imm=1)
    rown = kl.b.val(ptx.MulLoOp, [row], type="u32", imm=n)
    elem = kl.b.val(ptx.AddOp, [rown, q2], type="u32")
    byte = kl.b.val(ptx.MulWideOp, [elem], i64, type="u32", imm=eb)
    return kl.b.val(ptx.AddOp, [gbase, byte], i64, type="u64")


def fragment_moves(t: tc.AccType) -> list[tuple[int, int, int]]:
    """(first register, registers, byte offset from the thread's base) per vector access.

    f32/s32: register i holds D[16w + g + 8((i>>1)&1)][8(i>>2) + 2q + (i&1)];
    f16: register j holds two halves at row 16w + g + 8(j&1), columns 8(j>>1) + 2q + {0,1}.
    """
    n = t.n
    if t.dtype == "f16":
        return [(j, 1, ((8 * (j & 1)) * n + 8 * (j >> 1)) * 2) for j in range(n // 4)]
    return [(i, 2, ((8 * ((i >> 1) & 1)) * n + 8 * (i >> 2)) * 4) for i in range(0, n // 2, 2)]


def wgmma_acc(kl: KernelLowering, op: Operation, acc: Acc) -> SSAValue:
    if acc.tmem is not None:
        error_at(op, "this accumulator already lives in tensor memory (tcgen05)")
    if acc.regs is None:
        t = acc.type
        regs = kl.b.val(ptx.DeclRegsOp, result=wgmma_regs_type(t), comment=f"accumulator {t.m}x{t.n}x{t.dtype}")
        if acc.init == "zero":
            zero = "0f00000000" if t.dtype == "f32" else "0"
            kl.b.emit(ptx.FillOp, [regs], type="f32" if t.dtype == "f32" else "b32", value=zero)
        else:
            assert acc.source is not None
            eb = 2 if t.dtype == "f16" else 4
            base = fragment_base(kl, kl.globals_[acc.source], t.n, eb)
            ty = {"f32": "f32", "f16": "b32", "s32": "s32"}[t.dtype]
            for lo, count, off in fragment_moves(t):
                kl.b.emit(ptx.LdRegsOp, [base, regs], space="global", type=ty, vec=count, regs=lo, offset=off)
        acc.regs = regs
    return acc.regs


def lower_acc_store(kl: KernelLowering, op: tc.AccStoreOp) -> None:
    """D to global memory: from the wgmma register fragment, or (sm_100a) from tensor memory."""
    acc = kl.acc_of(op, op.acc)
    t = acc.type
    if acc.tmem is not None or kl.arch == "sm_100a":
        tmem_store(kl, op, acc)
        return
    regs = wgmma_acc(kl, op, acc)
    if t.m != 64:
        error_at(op, f"register accumulators are 64 rows (one warpgroup), not {t.m}")
    eb = 2 if t.dtype == "f16" else 4
    base = fragment_base(kl, kl.globals_[op.dst], t.n, eb)
    ty = {"f32": "f32", "f16": "b32", "s32": "s32"}[t.dtype]
    for lo, count, off in fragment_moves(t):
        kl.b.emit(ptx.StOp, [base, regs], space="global", type=ty, vec=count, regs=lo, offset=off)
