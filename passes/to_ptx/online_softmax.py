"""The online softmax's ops (dialects/tc_rows_ops.py) on wgmma accumulators, in registers,
and on tcgen05 accumulators in tensor memory (sm_100a, `_tmem_*` below).

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
from lower_tc.passes.to_ptx.softmax import f32_immediate, quad_reduce, row_registers
from lower_tc.passes.to_ptx.tcgen05 import load_row, tmem_lanes, tmem_row, tmem_store_words, tmem_written
from lower_tc.passes.to_ptx.values import Acc, f32

NEG_INF = f32_immediate(-math.inf)


def _scale(kl: KernelLowering, scale: float, what: str) -> SSAValue:
    return kl.b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(scale * math.log2(math.e)),
                    comment=f"{what}: scores times {scale:g} x log2 e")


def _finite(kl: KernelLowering, m: SSAValue) -> SSAValue:
    """m, or 0 where m is -inf (module docstring)."""
    b = kl.b
    blind = b.val(ptx.SetpOp, [m, b.val(ptx.MovImmOp, result=f32, type="f32", value=NEG_INF)], i1, cmp="eq", type="f32")
    return b.val(ptx.SelpOp, [b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0)), m, blind], f32, type="f32")


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


# -- tensor memory (sm_100a) ------------------------------------------------------------------
# A tcgen05 accumulator of 128 rows holds row 32w + lane in the lane of thread lane of warp w
# (passes/to_ptx/tcgen05.py), so each thread has its whole row: a row's maximum and sum need
# no shuffle, and a `!tc.rows<128xf32>` is one register a thread (a 1-tuple in `kl.rows`).
# The ops that make a new accumulator write it over their operand's columns (tcgen05.st),
# which the verifier lets nothing read afterwards (tc_rows_ops.check_in_place). A row loaded
# or written stays in `kl.tmem_rows` under its value (which nothing changes in tensor memory
# but the op that makes a new value), so each block loads S's row and O's once.


def _in_tmem(kl: KernelLowering, op, value: SSAValue) -> Acc | None:
    """The accumulator where it lives in tensor memory (sm_100a), else None (registers)."""
    acc = kl.acc_of(op, value)
    return acc if acc.tmem is not None or kl.arch == "sm_100a" else None


def _tmem_row(kl: KernelLowering, op, value: SSAValue, acc: Acc, what: str) -> list[SSAValue]:
    """This thread's row of `value`, a tensor-memory accumulator a tcgen05.mma wrote, as
    registers: those it was loaded or written from, else loaded."""
    if acc.tmem is None or not acc.tmem.written:
        error_at(op, f"{op.name} on sm_100a takes an accumulator a tc.tcgen05_mma wrote (in tensor memory)")
    if value not in kl.tmem_rows:
        row = load_row(kl, acc.tmem, acc.type.n, what)
        kl.tmem_rows[value] = [kl.b.val(ptx.RegOfOp, [row], f32, regs=i) for i in range(acc.type.n)]
    return kl.tmem_rows[value]


def _tmem_write(kl: KernelLowering, result: SSAValue, acc: Acc, values: list[SSAValue]) -> None:
    """`values` (the thread's row) over the accumulator's columns; `result` is that memory,
    and its row those registers."""
    assert acc.tmem is not None
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


def _tmem_row_max(kl: KernelLowering, op: tc.AccRowMaxOp, acc: Acc) -> None:
    c = _scale(kl, op.scale.value.data, "the running maximum of this thread's row (tensor memory: no shuffle)")
    top = _row_top(kl, _tmem_row(kl, op, op.acc, acc, "the row of S"), ptx.MaxOp)
    kl.rows[op.result] = (kl.b.val(ptx.MaxOp, [kl.rows[op.rows][0], kl.b.val(ptx.MulOp, [top, c], f32, type="f32")], f32, type="f32"),)


def _tmem_exp(kl: KernelLowering, op: tc.AccExpOp, acc: Acc) -> None:
    b = kl.b
    c = _scale(kl, op.scale.value.data, "exp2 of each score less its row's running maximum, written back over S")
    m = _finite(kl, kl.rows[op.rows][0])
    values = [b.val(ptx.Ex2Op, [b.val(ptx.SubOp, [b.val(ptx.MulOp, [s, c], f32, type="f32"), m], f32, type="f32")], f32,
                    type="approx.ftz.f32") for s in _tmem_row(kl, op, op.acc, acc, "the row of S")]
    _tmem_write(kl, op.result, acc, values)


def _tmem_row_sum(kl: KernelLowering, op: tc.AccRowSumOp, acc: Acc) -> None:
    total = _row_top(kl, _tmem_row(kl, op, op.acc, acc, "the running sum: this block's row of P"), ptx.AddOp)
    carried = kl.b.val(ptx.MulOp, [kl.rows[op.sum][0], _factor(kl, kl.rows[op.old_max][0], kl.rows[op.new_max][0])], f32, type="f32")
    kl.rows[op.result] = (kl.b.val(ptx.AddOp, [carried, total], f32, type="f32"),)


def _tmem_scaled(kl: KernelLowering, op, acc: Acc, factor: SSAValue, what: str) -> None:
    """Each element of the thread's row times `factor`, written back; an accumulator no MMA
    wrote yet is 0 and stays so (its next MMA starts without it)."""
    if acc.tmem is None or not acc.tmem.written:
        kl.accs[op.result] = acc
        return
    values = [kl.b.val(ptx.MulOp, [v, factor], f32, type="f32") for v in _tmem_row(kl, op, op.acc, acc, what)]
    _tmem_write(kl, op.result, acc, values)


def _tmem_rescale(kl: KernelLowering, op: tc.AccRescaleOp, acc: Acc) -> None:
    factor = _factor(kl, kl.rows[op.old_max][0], kl.rows[op.new_max][0], "O carried to the new maximum: times exp2(old - new)")
    _tmem_scaled(kl, op, acc, factor, "O's row, to rescale in tensor memory")


def _inverse(kl: KernelLowering, l: SSAValue, comment: str | None) -> SSAValue:
    """1 / l (rcp.approx.ftz: rcp.rn is a subroutine call, which serializes wgmma:
    softmax.py), 0 where l is 0."""
    b = kl.b
    inverse = b.val(ptx.RcpOp, [l], f32, type="approx.ftz.f32", comment=comment)
    empty = b.val(ptx.SetpOp, [l, b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0))], i1, cmp="eq", type="f32")
    return b.val(ptx.SelpOp, [b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0)), inverse, empty], f32, type="f32")


def _tmem_row_div(kl: KernelLowering, op: tc.AccRowDivOp, acc: Acc) -> None:
    inverse = _inverse(kl, kl.rows[op.rows][0], "each row over its sum; 0 where the sum is 0")
    _tmem_scaled(kl, op, acc, inverse, "O's row, to divide by its sum")


def _tmem_mask(kl: KernelLowering, op: tc.AccMaskOp, acc: Acc) -> None:
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


def lower_rows_fill(kl: KernelLowering, op: tc.RowsFillOp) -> None:
    value = op.value.value.data
    what = "-inf" if value == -math.inf else f"{value:g}"
    reg = kl.b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(value), comment=f"every row's value: {what}")
    kl.rows[op.result] = (reg,) if kl.arch == "sm_100a" else (reg, reg)


def lower_acc_row_max(kl: KernelLowering, op: tc.AccRowMaxOp) -> None:
    if (acc := _in_tmem(kl, op, op.acc)) is not None:
        return _tmem_row_max(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    c = _scale(kl, op.scale.value.data, "the running maximum of each row")
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
    if (acc := _in_tmem(kl, op, op.acc)) is not None:
        return _tmem_exp(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    c = _scale(kl, op.scale.value.data, "exp2 of each score less its row's running maximum")
    values: dict[int, SSAValue] = {}
    for half, index in enumerate(row_registers(t)):
        m = _finite(kl, kl.rows[op.rows][half])
        for i in index:
            x = b.val(ptx.SubOp, [b.val(ptx.MulOp, [b.val(ptx.RegOfOp, [regs], f32, regs=i), c], f32, type="f32"), m], f32, type="f32")
            values[i] = b.val(ptx.Ex2Op, [x], f32, type="approx.ftz.f32")
    _new_acc(kl, op.result, t, values)


def _factor(kl: KernelLowering, old: SSAValue, new: SSAValue, comment: str | None = None) -> SSAValue:
    """exp2(old - new), new read as 0 where it is -inf."""
    finite = _finite(kl, new)
    return kl.b.val(ptx.Ex2Op, [kl.b.val(ptx.SubOp, [old, finite], f32, type="f32", comment=comment)], f32, type="approx.ftz.f32")


def lower_acc_row_sum(kl: KernelLowering, op: tc.AccRowSumOp) -> None:
    if (acc := _in_tmem(kl, op, op.acc)) is not None:
        return _tmem_row_sum(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    out = []
    for half, index in enumerate(row_registers(t)):
        total = b.val(ptx.RegOfOp, [regs], f32, regs=index[0])
        for n, i in enumerate(index[1:]):
            total = b.val(ptx.AddOp, [total, b.val(ptx.RegOfOp, [regs], f32, regs=i)], f32, type="f32",
                          comment="the running sum of each row: carried to the new maximum, this block's added" if half == n == 0 else None)
        total = quad_reduce(kl, total, ptx.AddOp)
        carried = b.val(ptx.MulOp, [kl.rows[op.sum][half], _factor(kl, kl.rows[op.old_max][half], kl.rows[op.new_max][half])],
                        f32, type="f32")
        out.append(b.val(ptx.AddOp, [carried, total], f32, type="f32"))
    kl.rows[op.result] = (out[0], out[1])


def lower_acc_rescale(kl: KernelLowering, op: tc.AccRescaleOp) -> None:
    if (acc := _in_tmem(kl, op, op.acc)) is not None:
        return _tmem_rescale(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    values: dict[int, SSAValue] = {}
    for half, index in enumerate(row_registers(t)):
        factor = _factor(kl, kl.rows[op.old_max][half], kl.rows[op.new_max][half],
                         "O carried to the new maximum: times exp2(old - new)" if half == 0 else None)
        for i in index:
            values[i] = b.val(ptx.MulOp, [b.val(ptx.RegOfOp, [regs], f32, regs=i), factor], f32, type="f32")
    _new_acc(kl, op.result, t, values)


def lower_acc_row_div(kl: KernelLowering, op: tc.AccRowDivOp) -> None:
    if (acc := _in_tmem(kl, op, op.acc)) is not None:
        return _tmem_row_div(kl, op, acc)
    b = kl.b
    t, regs = _acc_values(kl, op, op.acc)
    values: dict[int, SSAValue] = {}
    for half, index in enumerate(row_registers(t)):
        inverse = _inverse(kl, kl.rows[op.rows][half], "each row over its sum; 0 where the sum is 0" if half == 0 else None)
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
        _mask_at_run_time(kl, op)
        return
    if (acc := _in_tmem(kl, op, op.acc)) is not None:
        return _tmem_mask(kl, op, acc)
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
    end = b.add_imm(k, t.n)
    whole = None
    if keys is not None:
        whole = b.val(ptx.SetpOp, [end], i1, cmp="le", type="s32", imm=keys, comment=f"the block is seen whole: keys < {keys}"
                      + (f", key <= query + {causal}" if causal is not None else ""))
    if causal is not None:
        last = b.val(ptx.SubOp, [b.add_imm(end, -1 - causal), q], type="s32")
        within = b.val(ptx.SetpOp, [last], i1, cmp="le", type="s32", imm=0)
        whole = within if whole is None else b.val(ptx.AndOp, [whole, within], i1, type="pred")
    assert whole is not None
    skip = b.if_(whole, "mask_done", negate=False)
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
