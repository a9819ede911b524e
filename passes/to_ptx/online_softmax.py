"""The online softmax's ops (dialects/tc_rows_ops.py) on wgmma accumulators, in registers;
on tcgen05 accumulators in tensor memory (sm_100a) each op hands over to
online_softmax_tmem.py.

A `!tc.rows<64xf32>` value is two f32 registers per thread: thread 4g + q of warp w holds
rows 16w + g (accumulator registers i with (i % 4) // 2 = 0) and 16w + g + 8 (the others),
and each of a quad's four threads keeps the same two values, since a row's reduction ends
with shfl.sync.bfly 1 and 2 (softmax.py). Every op makes new registers: ptxas folds the
copies, and no value is changed behind another op's back.

Where a row's maximum is still -inf (every score so far masked) the exponentials use 0 in
its place, so that exp2(-inf - -inf) never makes a NaN: the row's p are 0 (its scores are
-inf), its rescale factor exp2(m0 - 0) is 0 on an O and an l that are 0 already. A row
whose l is 0 at the end divides to 0.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import i1, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.accumulators import fragment_row, wgmma_acc, wgmma_regs_type
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.online_softmax_tmem import (in_tmem, tmem_exp, tmem_mask, tmem_mask_at_run_time, tmem_rescale, tmem_row_div,
                                                          tmem_row_max, tmem_row_sum)
from lower_tc.passes.to_ptx.row_math import NEG_INF, carry_factor, finite, row_divisor, scale_constant, seen_whole
from lower_tc.passes.to_ptx.softmax import f32_immediate, quad_reduce, row_registers
from lower_tc.passes.to_ptx.tcgen05 import tmem_row
from lower_tc.passes.to_ptx.values import Acc, f32

def _new_acc(kl: KernelLowering, result: SSAValue, t: tc.AccType, values: dict[int, SSAValue]) -> None:
    """`result` as a new register run holding `values` (register -> value)."""
    out = kl.b.val(ptx.DeclRegsOp, result=wgmma_regs_type(t))
    for i, v in values.items():
        kl.b.emit(ptx.AssignOp, [kl.b.val(ptx.RegOfOp, [out], f32, regs=i), v], type="f32")
    kl.accs[result] = Acc(t, "zero", regs=out, origin=result)  # its registers are set: init is not read


def _acc_values(kl: KernelLowering, op, value: SSAValue) -> tuple[tc.AccType, SSAValue]:
    t = value.type
    assert isinstance(t, tc.AccType)
    return t, wgmma_acc(kl, op, kl.acc_of(op, value))


def lower_rows_fill(kl: KernelLowering, op: tc.RowsFillOp) -> None:
    value = op.value.value.data
    what = "-inf" if value == -math.inf else f"{value:g}"
    reg = kl.b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(value), comment=f"every row's value: {what}")
    kl.rows[op.result] = (reg,) if kl.arch == "sm_100a" else (reg, reg)


def lower_acc_row_max(kl: KernelLowering, op: tc.AccRowMaxOp) -> None:
    if (acc := in_tmem(kl, op, op.acc)) is not None:
        return tmem_row_max(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    c = scale_constant(kl, op, "the running maximum of each row")
    out = []
    for half, index in enumerate(row_registers(t)):
        top = b.val(ptx.RegOfOp, [regs], f32, regs=index[0])
        for i in index[1:]:
            top = b.val(ptx.MaxOp, [top, b.val(ptx.RegOfOp, [regs], f32, regs=i)], f32, type="f32")
        top = b.val(ptx.MulOp, [quad_reduce(kl, top, ptx.MaxOp), c], f32, type="f32")
        out.append(b.val(ptx.MaxOp, [kl.rows[op.rows][half], top], f32, type="f32"))
    kl.rows[op.result] = (out[0], out[1])


def lower_acc_exp(kl: KernelLowering, op: tc.AccExpOp) -> None:
    """p = exp2(s c - m) by ex2.approx.ftz.f32: a result below 2^-126 is 0 (a weight that
    vanishes beside its row's largest, 1), and ptxas puts no subnormal fix-up (an FSETP and
    two predicated FMULs) around each MUFU.EX2: a fifth of a D = 64 attention kernel's
    instructions (docs/attention.md, "Speed")."""
    if (acc := in_tmem(kl, op, op.acc)) is not None:
        return tmem_exp(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    c = scale_constant(kl, op, "exp2 of each score less its row's running maximum")
    values: dict[int, SSAValue] = {}
    for half, index in enumerate(row_registers(t)):
        m = finite(kl, kl.rows[op.rows][half])
        for i in index:
            x = b.val(ptx.SubOp, [b.val(ptx.MulOp, [b.val(ptx.RegOfOp, [regs], f32, regs=i), c], f32, type="f32"), m], f32, type="f32")
            values[i] = b.val(ptx.Ex2Op, [x], f32, type="approx.ftz.f32")
    _new_acc(kl, op.result, t, values)


def lower_acc_row_sum(kl: KernelLowering, op: tc.AccRowSumOp) -> None:
    if (acc := in_tmem(kl, op, op.acc)) is not None:
        return tmem_row_sum(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    out = []
    for half, index in enumerate(row_registers(t)):
        total = b.val(ptx.RegOfOp, [regs], f32, regs=index[0])
        for n, i in enumerate(index[1:]):
            total = b.val(ptx.AddOp, [total, b.val(ptx.RegOfOp, [regs], f32, regs=i)], f32, type="f32",
                          comment="the running sum of each row: carried to the new maximum, this block's added" if half == n == 0 else None)
        total = quad_reduce(kl, total, ptx.AddOp)
        carried = b.val(ptx.MulOp, [kl.rows[op.sum][half], carry_factor(kl, kl.rows[op.old_max][half], kl.rows[op.new_max][half])],
                        f32, type="f32")
        out.append(b.val(ptx.AddOp, [carried, total], f32, type="f32"))
    kl.rows[op.result] = (out[0], out[1])


def lower_acc_rescale(kl: KernelLowering, op: tc.AccRescaleOp) -> None:
    if (acc := in_tmem(kl, op, op.acc)) is not None:
        return tmem_rescale(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    values: dict[int, SSAValue] = {}
    for half, index in enumerate(row_registers(t)):
        factor = carry_factor(kl, kl.rows[op.old_max][half], kl.rows[op.new_max][half],
                         "O carried to the new maximum: times exp2(old - new)" if half == 0 else None)
        for i in index:
            values[i] = b.val(ptx.MulOp, [b.val(ptx.RegOfOp, [regs], f32, regs=i), factor], f32, type="f32")
    _new_acc(kl, op.result, t, values)


def lower_acc_row_div(kl: KernelLowering, op: tc.AccRowDivOp) -> None:
    if (acc := in_tmem(kl, op, op.acc)) is not None:
        return tmem_row_div(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    values: dict[int, SSAValue] = {}
    for half, index in enumerate(row_registers(t)):
        inverse = row_divisor(kl, op, kl.rows[op.rows][half], "each row over its sum; 0 where the sum is 0" if half == 0 else None)
        for i in index:
            values[i] = b.val(ptx.MulOp, [b.val(ptx.RegOfOp, [regs], f32, regs=i), inverse], f32, type="f32")
    _new_acc(kl, op.result, t, values)




def lower_acc_mask(kl: KernelLowering, op: tc.AccMaskOp) -> None:
    """-inf where the key is not seen (dialects/tc_rows_ops.py). Register i of thread
    4g + q of warp w is row 16w + g + 8h (h = (i % 4) / 2), column 8(i / 4) + 2q + i % 2:
    with d = 2q - (16w + g), per thread, a causal mask hides the element where d > first
    query + 8h + causal - first key - (8(i / 4) + i % 2), a key count where 2q >= keys -
    first key - (8(i / 4) + i % 2): one comparison with a constant each. d runs over -63 to 6
    and 2q over 0 to 6, so a comparison that holds for every thread or none is decided here
    and emits nothing (a block every query sees costs no instruction)."""
    if op.positions:
        if (acc := in_tmem(kl, op, op.acc)) is not None:
            first_query, first_key, _, _ = op.mask
            q, k = _position(kl, op, op.positions[0], first_query), _position(kl, op, op.positions[1], first_key)
            return tmem_mask_at_run_time(kl, op, acc, q, k)
        _mask_at_run_time(kl, op)
        return
    if (acc := in_tmem(kl, op, op.acc)) is not None:
        return tmem_mask(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    first_query, first_key, keys, causal = op.mask
    row0 = fragment_row(kl)
    q2 = b.val(ptx.ShlOp, [b.val(ptx.AndOp, [kl.tid], type="b32", imm=3)], type="b32", imm=1,
               comment=f"mask: queries from {first_query}, keys from {first_key}"
                       + (f", keys < {keys}" if keys is not None else "") + (f", key <= query + {causal}" if causal is not None else ""))
    d = b.val(ptx.SubOp, [q2, row0], type="s32")
    hidden = b.val(ptx.MovImmOp, result=f32, type="f32", value=NEG_INF)
    values: dict[int, SSAValue] = {}
    for i in range(t.n // 2):
        col, h = 8 * (i // 4) + i % 2, (i % 4) // 2
        v = b.val(ptx.RegOfOp, [regs], f32, regs=i)
        tests: list[tuple[SSAValue, str, int, int, int]] = []  # (value, cmp, constant, the value's least, greatest)
        if causal is not None:
            tests.append((d, "gt", first_query + 8 * h + causal - first_key - col, -63, 6))
        if keys is not None:
            tests.append((q2, "ge", keys - first_key - col, 0, 6))
        for x, cmp, k, low, high in tests:
            always = low > k if cmp == "gt" else low >= k
            never = high <= k if cmp == "gt" else high < k
            if always:
                v = hidden
            elif not never:
                p = b.val(ptx.SetpOp, [x], i1, cmp=cmp, type="s32", imm=k)
                v = b.val(ptx.SelpOp, [hidden, v, p], f32, type="f32")
        values[i] = v
    _new_acc(kl, op.result, t, values)


def _position(kl: KernelLowering, op: tc.AccMaskOp, value: SSAValue, plus: int) -> SSAValue:
    """An index of the attention loop (kl.indices: its registers and constants) + `plus`."""
    got = kl.indices.get(value)
    if got is None:
        error_at(op, "tc.acc_mask's positions are index values of the kernel (gpu.block_id, arith, the loop's variable)")
    if isinstance(got, int):
        return kl.b.imm(got + plus, "s32")
    return kl.b.add_imm(got, plus)


def _mask_at_run_time(kl: KernelLowering, op: tc.AccMaskOp) -> None:
    """tc.acc_mask at (query, key) registers: the tile's rows are queries q + r, its
    columns keys k + c. Where the whole tile is seen (k + N <= keys, and causally
    k + N - 1 <= q + causal for its first row) a branch skips every comparison, so a block
    inside the mask costs two comparisons of the CTA; else each element is one comparison
    with a per-thread register (the limits below) and a selp, as in `lower_acc_mask`."""
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    first_query, first_key, keys, causal = op.mask
    q = _position(kl, op, op.positions[0], first_query)
    k = _position(kl, op, op.positions[1], first_key)
    if op.acc.has_one_use():  # the scores are read by the mask only: masked in their own registers
        out = regs
    else:
        out = b.val(ptx.DeclRegsOp, result=wgmma_regs_type(t), comment="the masked scores")
        for i in range(t.n // 2):
            b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [out], f32, regs=i), b.val(ptx.RegOfOp, [regs], f32, regs=i)], type="f32")
    skip = b.if_(seen_whole(b, k, t.n, q, keys, causal), "mask_done", negate=False)
    row0 = fragment_row(kl)
    q2 = b.val(ptx.ShlOp, [b.val(ptx.AndOp, [kl.tid], type="b32", imm=3)], type="b32", imm=1)
    kq = b.val(ptx.AddOp, [k, q2], type="s32")
    lim_keys = b.val(ptx.SubOp, [b.imm(keys, "s32"), kq], type="s32") if keys is not None else None
    # causal: hidden where k + col + 2q > q + row0 + 8h + causal, i.e. col - 8h > (q + causal + row0) - (k + 2q)
    lim_causal = (b.val(ptx.SubOp, [b.val(ptx.AddOp, [b.add_imm(q, causal), row0], type="s32"), kq], type="s32")
                  if causal is not None else None)
    hidden = b.val(ptx.MovImmOp, result=f32, type="f32", value=NEG_INF)
    for i in range(t.n // 2):
        col, h = 8 * (i // 4) + i % 2, (i % 4) // 2
        reg = b.val(ptx.RegOfOp, [out], f32, regs=i)
        tests = []
        if lim_keys is not None:
            tests.append(b.val(ptx.SetpOp, [lim_keys], i1, cmp="le", type="s32", imm=col))
        if lim_causal is not None:
            tests.append(b.val(ptx.SetpOp, [lim_causal], i1, cmp="lt", type="s32", imm=col - 8 * h))
        for p in tests:
            b.emit(ptx.AssignOp, [reg, b.val(ptx.SelpOp, [hidden, reg, p], f32, type="f32")], type="f32")
    b.emit(ptx.LabelOp, label=skip)
    kl.accs[op.result] = Acc(t, "zero", regs=out, origin=op.result)


def lower_rows_lse(kl: KernelLowering, op: tc.RowsLseOp) -> None:
    """(m + lg2 l) ln 2 per row: lg2.approx of 0 is -inf, so a row that saw no key is -inf."""
    b = kl.b
    ln2 = b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(math.log(2.0)), comment="log-sum-exp: (m + log2 l) ln 2")
    out = []
    for half in range(len(kl.rows[op.sum])):  # two rows a thread (wgmma), one (tensor memory)
        lg = b.val(ptx.Lg2Op, [kl.rows[op.sum][half]], f32, type="approx.f32")
        out.append(b.val(ptx.MulOp, [b.val(ptx.AddOp, [kl.rows[op.max][half], lg], f32, type="f32"), ln2], f32, type="f32"))
    kl.rows[op.result] = tuple(out)


def lower_rows_store(kl: KernelLowering, op: tc.RowsStoreOp) -> None:
    """Thread 4g of warp w (the quad's first) writes rows 16w + g and 16w + g + 8; on
    sm_100a each thread its own row, 32w + lane."""
    b = kl.b
    t = op.dst.type
    pitch = tc.matrix_strides(t, "the rows' memref")[0] * 4  # type: ignore[arg-type]
    if len(kl.rows[op.rows]) == 1:
        row = tmem_row(kl, 128)
        at = b.val(ptx.AddOp, [kl.globals_[op.dst], b.val(ptx.MulWideOp, [row], i64, type="u32", imm=pitch)], i64, type="u64",
                   comment="one f32 a row, each thread its own")
        b.emit(ptx.StOp, [at, kl.rows[op.rows][0]], space="global", type="f32", vec=1, offset=0)
        return
    row = fragment_row(kl)
    first = b.val(ptx.SetpOp, [b.val(ptx.AndOp, [kl.tid], type="b32", imm=3)], i1, cmp="eq", type="u32", imm=0)
    skip = b.if_(first, "rows_stored")
    at = b.val(ptx.AddOp, [kl.globals_[op.dst], b.val(ptx.MulWideOp, [row], i64, type="u32", imm=pitch)], i64, type="u64",
               comment="one f32 a row, by the quad's first thread")
    for half in (0, 1):
        b.emit(ptx.StOp, [at, kl.rows[op.rows][half]], space="global", type="f32", vec=1, offset=8 * half * pitch)
    b.emit(ptx.LabelOp, label=skip)



__all__ = ["lower_acc_exp", "lower_acc_mask", "lower_acc_rescale", "lower_acc_row_div", "lower_acc_row_max", "lower_acc_row_sum",
           "lower_rows_fill", "lower_rows_lse", "lower_rows_store"]
