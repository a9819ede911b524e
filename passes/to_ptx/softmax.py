"""tc.acc_softmax -> the softmax of each row of a wgmma accumulator, in its registers (on
sm_100a, of a tensor-memory accumulator's rows, one a thread: `tmem_softmax`).

In the accumulator fragment (layout/fragments.py) thread 4g + q of warp w holds rows
16w + g (registers i with (i % 4) // 2 = 0) and 16w + g + 8 (the others), N/4 elements of
each, and the four threads of a quad hold the whole of those two rows between them. So
each row's maximum and sum are the thread's own, then reduced across its quad with
shfl.sync.bfly 1 and 2 (every lane ends with the row's value). The exponentials are
exp2(s c - m c) with c = scale x log2 e (ex2.approx, as FlashAttention computes them), the
row's largest element giving exactly 1, and each is multiplied by the reciprocal of its
row's sum (rcp.approx.ftz: rcp.rn.f32 is a subroutine call, and a call in the kernel makes
ptxas serialize every wgmma, C7509, as nvJitLink showed on the H100).
"""

from __future__ import annotations

import math
import struct

from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout import Arch
from lower_tc.passes.to_ptx.accumulators import wgmma_acc, wgmma_regs_type
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.tcgen05 import load_row, tmem_lanes, tmem_store_words, tmem_written
from lower_tc.passes.to_ptx.values import Acc, f32

#: Lanes of a quad: the butterfly distances that reduce a row across it.
QUAD_LANES = (1, 2)


def f32_immediate(value: float) -> str:
    """PTX's exact hexadecimal spelling of an f32 (0fXXXXXXXX)."""
    return "0f" + struct.pack(">f", value).hex().upper()


def row_registers(t: tc.AccType) -> tuple[list[int], list[int]]:
    """The accumulator registers of the thread's two rows: 16w + g ((i % 4) // 2 = 0),
    then 16w + g + 8."""
    regs = range(t.n // 2)
    return [i for i in regs if (i % 4) // 2 == 0], [i for i in regs if (i % 4) // 2 == 1]


def quad_reduce(kl: KernelLowering, x: SSAValue, op: type) -> SSAValue:
    """x reduced with `op` across the thread's quad (every lane ends with the row's value)."""
    for lane in QUAD_LANES:
        other = kl.b.val(ptx.ShflBflyOp, [x], f32, lane_mask=lane)
        x = kl.b.val(op, [x, other], f32, type="f32")
    return x


def row_exponentials(kl: KernelLowering, values: list[SSAValue], c: SSAValue, across_quad: bool) -> tuple[list[SSAValue], SSAValue]:
    """One row's exp2(v c - max c) and the reciprocal of their sum; with `across_quad` the
    thread holds part of the row and the max and sum are reduced across its quad."""
    b = kl.b
    top = values[0]
    for v in values[1:]:
        top = b.val(ptx.MaxOp, [top, v], f32, type="f32")
    if across_quad:
        top = quad_reduce(kl, top, ptx.MaxOp)
    top_c = b.val(ptx.MulOp, [top, c], f32, type="f32")
    exps = []
    for v in values:
        x = b.val(ptx.SubOp, [b.val(ptx.MulOp, [v, c], f32, type="f32"), top_c], f32, type="f32")
        exps.append(b.val(ptx.Ex2Op, [x], f32, type="approx.f32"))
    total = exps[0]
    for e in exps[1:]:
        total = b.val(ptx.AddOp, [total, e], f32, type="f32")
    if across_quad:
        total = quad_reduce(kl, total, ptx.AddOp)
    return exps, b.val(ptx.RcpOp, [total], f32, type="approx.ftz.f32")  # MUFU.RCP: rcp.rn is a subroutine call, which serializes wgmma


def lower_acc_softmax(kl: KernelLowering, op: tc.AccSoftmaxOp) -> None:
    """The result is a new register run of the accumulator's type (module docstring)."""
    t = op.acc.type
    assert isinstance(t, tc.AccType)
    b = kl.b
    acc = kl.acc_of(op, op.acc)
    if tc.kernel_target(op) is Arch.SM100A:  # S in tensor memory, one row a thread
        tmem_softmax(kl, op, acc)
        return
    regs = wgmma_acc(kl, op, acc)
    scale = op.scale.value.data
    c = b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(scale * math.log2(math.e)),
              comment=f"softmax of each row of {scale:g} x S: exp2 of (s - max) x {scale:g} x log2 e")
    out = b.val(ptx.DeclRegsOp, result=wgmma_regs_type(t))
    for index in row_registers(t):  # rows g and g + 8 of the thread's warp
        values = [b.val(ptx.RegOfOp, [regs], f32, regs=i) for i in index]
        exps, inverse = row_exponentials(kl, values, c, across_quad=True)
        for i, e in zip(index, exps):
            p = b.val(ptx.MulOp, [e, inverse], f32, type="f32")
            b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [out], f32, regs=i), p], type="f32")
    kl.accs[op.result] = Acc(t, "zero", regs=out, origin=op.result)  # its registers are set: init is not read


def tmem_softmax(kl: KernelLowering, op: tc.AccSoftmaxOp, acc: Acc) -> None:
    """tc.acc_softmax of a tensor-memory accumulator (sm_100a, M = 128): each thread loads
    its own row, so the row's maximum and sum need no shuffle; the exponentials are
    exp2(s c - m c), c = scale x log2 e, times the reciprocal of the sum (as on sm_90a:
    softmax.py); P (f32) is written back over S, which has no other use."""
    t = acc.type
    for use in op.acc.uses:
        if use.operation is not op:
            error_at(op, "tc.acc_softmax on sm_100a writes P over S in tensor memory: S may have no other use")
    if acc.tmem is None or not acc.tmem.written:
        error_at(op, "tc.acc_softmax on sm_100a takes a tc.tcgen05_mma's result (S in tensor memory)")
    tm = acc.tmem
    b = kl.b
    row = load_row(kl, tm, t.n, f"softmax: this thread's row of S ({t.n} columns of tensor memory)")
    scale = op.scale.value.data
    c = b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(scale * math.log2(math.e)),
              comment=f"softmax of the row of {scale:g} x S: exp2 of (s - max) x {scale:g} x log2 e, no shuffle")
    values = [b.val(ptx.RegOfOp, [row], f32, regs=i) for i in range(t.n)]
    exps, inverse = row_exponentials(kl, values, c, across_quad=False)
    out = b.val(ptx.DeclRegsOp, result=ptx.RegsType(t.n, f32))
    for i, e in enumerate(exps):
        b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [out], f32, regs=i), b.val(ptx.MulOp, [e, inverse], f32, type="f32")], type="f32")
    tmem_store_words(kl, tmem_lanes(kl, tm.address), out, t.n, 0)
    tmem_written(kl)
    kl.accs[op.result] = Acc(t, "zero", tmem=tm, origin=acc.origin)


__all__ = ["QUAD_LANES", "f32_immediate", "lower_acc_softmax", "quad_reduce", "row_exponentials", "row_registers", "tmem_softmax"]
