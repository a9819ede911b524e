"""The online softmax's ops (dialects/tc_rows_ops.py) on tcgen05 accumulators in tensor
memory (sm_100a, single-tile kernels; docs/attention.md, "tcgen05"), called by
online_softmax.py where an accumulator lives there.

A tcgen05 accumulator of 128 rows holds row 32w + lane in the lane of thread lane of warp w
(passes/to_ptx/tcgen05.py), so each thread has its whole row: a row's maximum and sum need
no shuffle, and a `!tc.rows<128xf32>` is one register a thread (a 1-tuple in `kl.rows`).
The ops that make a new accumulator write it over their operand's columns (tcgen05.st),
which the verifier lets nothing read afterwards (tc_rows_ops.check_in_place). A row loaded
or written stays in `kl.tmem_rows` under its value (which nothing changes in tensor memory
but the op that makes a new value), so each block loads S's row and O's once.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.row_math import NEG_INF, carry_factor, finite, row_divisor, scale_constant, seen_whole
from lower_tc.passes.to_ptx.tcgen05 import row_values, tmem_lanes, tmem_of, tmem_row, tmem_runs, tmem_store_words, tmem_written
from lower_tc.passes.to_ptx.values import Acc, f32


def in_tmem(kl: KernelLowering, op, value: SSAValue) -> Acc | None:
    """The accumulator where it lives in tensor memory (sm_100a), else None (registers)."""
    acc = kl.acc_of(op, value)
    return acc if acc.tmem is not None or kl.arch == "sm_100a" else None


def _tmem_row(kl: KernelLowering, op, value: SSAValue, acc: Acc, what: str) -> list[SSAValue]:
    """This thread's row of `value`, a tensor-memory accumulator a tcgen05.mma wrote, as
    registers: those it was loaded or written from, else loaded."""
    if acc.init == "load":  # C from memory (tc.acc_load): into tensor memory on first use
        tmem_of(kl, op, acc)
    if acc.tmem is None or not acc.tmem.written:
        error_at(op, f"{op.name} on sm_100a takes an accumulator a tc.tcgen05_mma wrote (in tensor memory)")
    return row_values(kl, value, acc.tmem, acc.type.n, what)


#: The ops whose tensor-memory lowering reads an accumulator's row from the registers it
#: was last loaded or written from, where there are such (`row_values`, `_tmem_scaled`).
ROW_READERS = (tc.AccRowMaxOp, tc.AccExpOp, tc.AccRowSumOp, tc.AccMaskOp, tc.AccToAOp, tc.AccRescaleOp, tc.AccRowDivOp)


def read_in_tmem(value: SSAValue) -> bool:
    """Whether something reads `value` from tensor memory (an MMA, a store): else every
    use reads the row its registers hold, and a write of it to tensor memory is wasted."""
    return any(not isinstance(use.operation, ROW_READERS) for use in value.uses)


def _tmem_write(kl: KernelLowering, result: SSAValue, acc: Acc, values: list[SSAValue]) -> None:
    """`values` (the thread's row) over the accumulator's columns, where anything reads
    them there (`read_in_tmem`); `result` is that memory, and its row those registers."""
    assert acc.tmem is not None
    if read_in_tmem(result):
        out = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(len(values), f32))
        for i, v in enumerate(values):
            kl.b.emit(ptx.AssignOp, [kl.b.val(ptx.RegOfOp, [out], f32, regs=i), v], type="f32")
        tmem_store_words(kl, tmem_lanes(kl, acc.tmem.address), out, len(values), 0)
        tmem_written(kl)
    kl.accs[result] = Acc(acc.type, "zero", tmem=acc.tmem, origin=acc.origin)
    kl.tmem_rows[result] = values


def _row_top(kl: KernelLowering, values: list[SSAValue], op: type) -> SSAValue:
    """max or sum of a thread's row, pairwise (a tree: log2 n deep)."""
    while len(values) > 1:
        pairs = [kl.b.val(op, [values[i], values[i + 1]], f32, type="f32") for i in range(0, len(values) - 1, 2)]
        values = pairs + values[len(values) - len(values) % 2:]
    return values[0]


def tmem_row_max(kl: KernelLowering, op: tc.AccRowMaxOp, acc: Acc) -> None:
    c = scale_constant(kl, op, "the running maximum of this thread's row (tensor memory: no shuffle)")
    top = _row_top(kl, _tmem_row(kl, op, op.acc, acc, "the row of S"), ptx.MaxOp)
    kl.rows[op.result] = (kl.b.val(ptx.MaxOp, [kl.rows[op.rows][0], kl.b.val(ptx.MulOp, [top, c], f32, type="f32")], f32, type="f32"),)


def tmem_exp(kl: KernelLowering, op: tc.AccExpOp, acc: Acc) -> None:
    b = kl.b
    c = scale_constant(kl, op, "exp2 of each score less its row's running maximum: P, in S's place")
    m = finite(kl, kl.rows[op.rows][0])
    values = [b.val(ptx.Ex2Op, [b.val(ptx.SubOp, [b.val(ptx.MulOp, [s, c], f32, type="f32"), m], f32, type="f32")], f32,
                    type="approx.ftz.f32") for s in _tmem_row(kl, op, op.acc, acc, "the row of S")]
    _tmem_write(kl, op.result, acc, values)


def tmem_row_sum(kl: KernelLowering, op: tc.AccRowSumOp, acc: Acc) -> None:
    total = _row_top(kl, _tmem_row(kl, op, op.acc, acc, "the running sum: this block's row of P"), ptx.AddOp)
    carried = kl.b.val(ptx.MulOp, [kl.rows[op.sum][0], carry_factor(kl, kl.rows[op.old_max][0], kl.rows[op.new_max][0])], f32, type="f32")
    kl.rows[op.result] = (kl.b.val(ptx.AddOp, [carried, total], f32, type="f32"),)


def _tmem_scaled(kl: KernelLowering, op, acc: Acc, factor: SSAValue, what: str) -> None:
    """Each element of the thread's row times `factor`, written back; a zero accumulator no
    MMA wrote yet stays so (its next MMA starts without it), a loaded one is loaded first.
    A row not in registers already (O's, which an MMA wrote) is scaled 32 columns at a
    time (tcgen05.ld, multiply, tcgen05.st): a head dim of 256 would not fit the registers
    whole beside P's row."""
    if acc.init == "load":  # C from memory (tc.acc_load): into tensor memory first, then scaled
        tmem_of(kl, op, acc)
    elif acc.tmem is None or not acc.tmem.written:
        kl.accs[op.result] = acc
        return
    if op.acc in kl.tmem_rows:
        values = [kl.b.val(ptx.MulOp, [v, factor], f32, type="f32") for v in _tmem_row(kl, op, op.acc, acc, what)]
        _tmem_write(kl, op.result, acc, values)
        return
    tm = acc.tmem
    taddr = tmem_lanes(kl, tm.address)
    for c0, num in tmem_runs(acc.type.n):
        regs = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(num, f32))
        kl.b.emit(ptx.Tcgen05LdOp, [regs, taddr], regs=0, num=num, offset=c0, comment=what if c0 == 0 else None)
        kl.b.emit(ptx.Tcgen05WaitLdOp)
        for i in range(num):
            r = kl.b.val(ptx.RegOfOp, [regs], f32, regs=i)
            kl.b.emit(ptx.AssignOp, [r, kl.b.val(ptx.MulOp, [r, factor], f32, type="f32")], type="f32")
        tmem_store_words(kl, taddr, regs, num, c0)
    tmem_written(kl)
    kl.accs[op.result] = Acc(acc.type, "zero", tmem=tm, origin=acc.origin)


def tmem_rescale(kl: KernelLowering, op: tc.AccRescaleOp, acc: Acc) -> None:
    factor = carry_factor(kl, kl.rows[op.old_max][0], kl.rows[op.new_max][0], "O carried to the new maximum: times exp2(old - new)")
    _tmem_scaled(kl, op, acc, factor, "O's row, to rescale in tensor memory")


def tmem_row_div(kl: KernelLowering, op: tc.AccRowDivOp, acc: Acc) -> None:
    inverse = row_divisor(kl, op, kl.rows[op.rows][0], "each row over its sum; 0 where the sum is 0")
    _tmem_scaled(kl, op, acc, inverse, "O's row, to divide by its sum")


def tmem_mask(kl: KernelLowering, op: tc.AccMaskOp, acc: Acc) -> None:
    """-inf where the key is not seen, in the thread's row r = 32w + lane of tensor memory:
    column c is key first_key + c, past the keys' count for every row alike (decided here),
    and causally hidden where first_key + c > first_query + r + causal, i.e. r < c - D with
    D = first_query + causal - first_key: one comparison of r with a constant, none where
    every row or no row (0 to 127) is hidden. Written back over S; a block every row sees
    whole is left as it is (no load, no store)."""
    b = kl.b
    first_query, first_key, keys, causal = op.mask
    n, rows = acc.type.n, acc.type.m
    seen = (keys is None or first_key + n <= keys) and (causal is None or n - 1 - (first_query + causal - first_key) <= 0)
    if seen and acc.tmem is not None and acc.tmem.written:
        if op.acc in kl.tmem_rows:  # its value may be in registers only (`read_in_tmem`): they stay its
            _tmem_write(kl, op.result, acc, kl.tmem_rows[op.acc])
        else:
            kl.accs[op.result] = acc
        return
    values = _tmem_row(kl, op, op.acc, acc, f"mask: queries from {first_query}, keys from {first_key}"
                       + (f", keys < {keys}" if keys is not None else "") + (f", key <= query + {causal}" if causal is not None else ""))
    row = tmem_row(kl, 128)
    hidden = b.val(ptx.MovImmOp, result=f32, type="f32", value=NEG_INF)
    out = []
    for c, v in enumerate(values):
        if keys is not None and first_key + c >= keys:
            v = hidden
        elif causal is not None:
            limit = c - (first_query + causal - first_key)  # hidden where r < limit
            if limit > rows - 1:
                v = hidden
            elif limit > 0:
                v = b.val(ptx.SelpOp, [hidden, v, b.val(ptx.SetpOp, [row], i1, cmp="lt", type="s32", imm=limit)], f32, type="f32")
        out.append(v)
    _tmem_write(kl, op.result, acc, out)


def tmem_mask_at_run_time(kl: KernelLowering, op: tc.AccMaskOp, acc: Acc, q: SSAValue, k: SSAValue) -> None:
    """tc.acc_mask at (query, key) registers on the thread's row r = 32w + lane (query
    q + r; column c is key k + c): where the whole block is seen (k + N <= keys, and
    causally k + N - 1 <= q + causal, its first row's last key) a branch skips every
    comparison; else each element is one comparison of c with a per-thread limit and a
    selp, keys - k (the keys' count) and q + r + causal - k (causal). The row is loaded
    before the branch and masked in its own registers, so both ways leave it there."""
    b = kl.b
    first_query, first_key, keys, causal = op.mask
    n = acc.type.n
    values = _tmem_row(kl, op, op.acc, acc, "the row of S, to mask at run time")
    skip = b.if_(seen_whole(b, k, n, q, keys, causal), "mask_done", negate=False)
    lim_keys = b.val(ptx.SubOp, [b.imm(keys, "s32"), k], type="s32") if keys is not None else None
    lim_causal = (b.val(ptx.SubOp, [b.val(ptx.AddOp, [b.add_imm(q, causal), tmem_row(kl, 128)], type="s32"), k], type="s32")
                  if causal is not None else None)
    hidden = b.val(ptx.MovImmOp, result=f32, type="f32", value=NEG_INF)
    for c, v in enumerate(values):
        tests = []
        if lim_keys is not None:
            tests.append(b.val(ptx.SetpOp, [lim_keys], i1, cmp="le", type="s32", imm=c))
        if lim_causal is not None:
            tests.append(b.val(ptx.SetpOp, [lim_causal], i1, cmp="lt", type="s32", imm=c))
        for p in tests:
            b.emit(ptx.AssignOp, [v, b.val(ptx.SelpOp, [hidden, v, p], f32, type="f32")], type="f32")
    b.emit(ptx.LabelOp, label=skip)
    _tmem_write(kl, op.result, acc, values)


__all__ = ["in_tmem", "read_in_tmem", "tmem_exp", "tmem_mask", "tmem_mask_at_run_time", "tmem_rescale", "tmem_row_div", "tmem_row_max", "tmem_row_sum"]
