"""tc.tcgen05_mma (sm_100a): one tensor-memory allocation per kernel, the MMAs, and the
tcgen05.ld/st that move C, A and D between threads and tensor memory.

Tensor memory (PTX ISA "Data path layout organization", cta_group::1): warp w of the
warpgroup reaches lanes 32w..32w+31. D (and A from tensor memory) row r sits in lane r
for M = 128 (layout D) and in lane 32(r // 16) + r % 16 for M = 64 (layout F, lanes
0-15 of each warp's quarter), one 32-bit column per element; 16-bit D elements sit in
the low half of their column. So thread t of warp w owns row 32w + t (M = 128) or
16w + t for t < 16 (M = 64) through tcgen05.ld/st.32x32b.
"""

from __future__ import annotations


import numpy as np
from xdsl.dialects.builtin import i1, i16, i32, i64
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.layout import element_type
from lower_tc.layout.descriptor import INSTRUCTION_K_BYTES
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.values import THREADS, Acc, Tmem, TmemAlloc, f32



def tmem_row(kl: KernelLowering, m: int) -> SSAValue:
    """The accumulator row this thread's lane holds (M = 64: lanes 16-31 of a warp
    mirror lanes 0-15, whose rows they load and never store)."""
    lane = kl.b.val(ptx.AndOp, [kl.tid], type="b32", imm=31)
    if m == 128:
        return kl.b.val(ptx.AddOp, [kl.b.val(ptx.ShlOp, [kl.warp], type="b32", imm=5), lane], type="u32")
    low = kl.b.val(ptx.AndOp, [lane], type="b32", imm=15)
    return kl.b.val(ptx.AddOp, [kl.b.val(ptx.ShlOp, [kl.warp], type="b32", imm=4), low], type="u32")


def tmem_lanes(kl: KernelLowering, address: SSAValue) -> SSAValue:
    """This warp's lanes of a tensor-memory address: lane 32w (bits 16-31) added."""
    lane_base = kl.b.val(ptx.ShlOp, [kl.warp], type="b32", imm=21)  # (32 w) << 16
    return kl.b.val(ptx.AddOp, [address, lane_base], type="u32")


def lower_tcgen05_mma(kl: KernelLowering, op: tc.Tcgen05MmaOp) -> None:
    """One tcgen05.mma per K-slice, issued by one elected thread, then commit and wait on the
    allocation's mbarrier."""
    if op.cta_pair is not None:
        error_at(op, "a CTA pair's tcgen05.mma (cta_pair) needs a cluster of two CTAs: it belongs in a GEMM kernel (tc.matmul with cluster = 2), not a single-tile kernel")
    acc = kl.acc_of(op, op.acc)
    kl.accs[op.result] = acc
    if acc.regs is not None:
        error_at(op, "this accumulator already lives in registers (wgmma)")
    tm = tmem_of(kl, op, acc)
    idesc_attr = op.attributes.get("tc.idesc")
    if not isinstance(idesc_attr, tc.IdescAttr):
        error_at(op, "no instruction descriptor on this op: run tc-compute-descriptors first")
    b_descs = [kl.desc_reg(d) for d in kl.descs(op, "tc.b_descs")]
    a_ops: list[SSAValue]
    if op.a_in_tmem is not None:
        a_ops = a_to_tmem(kl, op, tm, len(b_descs))
    elif op.a_from_fragment:  # tc.acc_to_a stored it in tensor memory (tmem_acc_to_a)
        a_ops = kl.tmem_a[op.a]
        assert len(a_ops) == len(b_descs)  # the verifier's A K = B K
    else:
        a_ops = [kl.desc_reg(d) for d in kl.descs(op, "tc.a_descs")]
    idesc = kl.imm32(idesc_attr.value.data)
    alloc = tm.alloc
    if not alloc.synced or alloc.waited:  # threads read or wrote tensor memory, or may not all have
        tmem_sync(kl)                     # seen the last commit: sync before the MMA (tmem_sync)
    a_tmem = 1 if op.a_in_tmem is not None or op.a_from_fragment else 0
    overwrite = not tm.written
    issue_elected(kl, f"tcgen05.mma kind::{idesc_attr.kind.data}, {len(b_descs)} K-slices, one elected thread",
                  [[tm.address, a_op, b_d, idesc] for a_op, b_d in zip(a_ops, b_descs)], idesc_attr.kind.data, a_tmem,
                  overwrite, alloc.mbar_offset)
    tm.written = True
    kl.wait(alloc.mbar_offset, alloc.phase)
    alloc.phase ^= 1
    alloc.waited = True
    kl.b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")


def issue_elected(kl: KernelLowering, comment: str, operands: list[list[SSAValue]], kind: str, a_tmem: int, overwrite: bool,
                  mbar_offset: int) -> None:
    """One tcgen05.mma per K-slice (`operands`: d, a, b, idesc each), issued by the elected
    thread of warp 0 and committed onto the mbarrier at smem + `mbar_offset`; the first
    K-slice overwrites the accumulator where `overwrite` (enable-input-d 0). The caller
    waits for the commit."""
    b = kl.b
    skip = b.label("mma_issued")
    b.emit(ptx.BraOp, [kl.is_warp0], label=skip, negate=1, comment=comment)
    b.emit(ptx.BraOp, [b.val(ptx.ElectSyncOp, result=i1)], label=skip, negate=1)
    b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
    for kk, args in enumerate(operands):
        b.emit(ptx.Tcgen05MmaOp, args, kind=kind, enable_input_d=0 if overwrite and kk == 0 else 1, a_tmem=a_tmem)
    b.emit(ptx.Tcgen05CommitOp, [kl.smem], offset=mbar_offset)
    b.emit(ptx.LabelOp, label=skip)


def tmem_of(kl: KernelLowering, op: Operation, acc: Acc) -> Tmem:
    """The accumulator's tensor memory, (allocated and) C loaded on first use."""
    if acc.tmem is None:
        alloc = allocate_tmem(kl, op)
        column = kl.tmem_columns[acc.origin]  # type: ignore[index]
        address = kl.b.val(ptx.AddOp, [alloc.address], type="u32", imm=column) if column else alloc.address
        acc.tmem = Tmem(alloc, address, acc.type.m)
        if acc.init == "load":
            assert acc.source is not None
            c_to_tmem(kl, acc.tmem, acc.type, acc.source)
    return acc.tmem


#: The columns of tensor memory a CTA may allocate.
TMEM_COLUMNS = 512


def accumulator_columns(n: int) -> int:
    """Columns an accumulator of n 32-bit columns takes: a 32-column aligned region."""
    return -(-n // 32) * 32


def a_columns(a: tc.TileType | tc.AFragType) -> int:
    """Columns A takes in tensor memory: its K packed into 32-bit columns."""
    return a.k * element_type(a.dtype).slot_bits // 32


def allocation_columns(need: int) -> int:
    """What tcgen05.alloc takes for `need` columns: a power of two, at least 32."""
    return max(32, 1 << (need - 1).bit_length())


def tmem_plan(kl: KernelLowering) -> tuple[dict[SSAValue, int], int, int]:
    """Columns of every accumulator of the kernel (32-column aligned), where A goes, and
    the total: one allocation serves them all."""
    columns: dict[SSAValue, int] = {}
    end = a_cols = 0
    for op in tc.kernel_body(kl.kernel).ops:
        if isinstance(op, tc.AccZeroOp | tc.AccLoadOp):
            t = op.acc.type
            assert isinstance(t, tc.AccType)
            columns[op.acc] = end
            end += accumulator_columns(t.n)
        if isinstance(op, tc.Tcgen05MmaOp) and (op.a_in_tmem is not None or op.a_from_fragment):
            a = op.a.type
            assert isinstance(a, tc.TileType | tc.AFragType)
            a_cols = max(a_cols, a_columns(a))
    return columns, end, end + a_cols


def allocate_tmem(kl: KernelLowering, op: Operation) -> TmemAlloc:
    if kl.tmem_alloc is not None:
        return kl.tmem_alloc
    kl.tmem_columns, a_column, need = tmem_plan(kl)
    columns = allocation_columns(need)
    if columns > TMEM_COLUMNS:
        error_at(op, f"the kernel's accumulators and A need {need} tensor-memory columns, more than {TMEM_COLUMNS}")
    slot = kl.alloc_scratch(4, 4)
    mbar = kl.alloc_scratch(8)
    skip = kl.b.label("tmem_ready")
    kl.b.emit(ptx.BraOp, [kl.is_warp0], label=skip, negate=1, comment=f"tensor memory: {columns} columns")
    kl.b.emit(ptx.Tcgen05AllocOp, [kl.smem], offset=slot, columns=columns)
    kl.b.emit(ptx.Tcgen05RelinquishOp)
    kl.b.emit(ptx.BraOp, [kl.is_thread0], label=skip, negate=1)
    kl.b.emit(ptx.MbarrierInitOp, [kl.smem], offset=mbar, count=1)
    kl.b.emit(ptx.FenceMbarrierInitOp)
    kl.b.emit(ptx.LabelOp, label=skip)
    kl.b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync")
    kl.b.emit(ptx.BarSyncOp)
    kl.b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
    address = kl.b.val(ptx.LdOp, [kl.smem], space="shared", type="b32", vec=1, offset=slot)
    kl.tmem_alloc = TmemAlloc(address, columns, mbar, a_column)
    return kl.tmem_alloc


def tmem_sync(kl: KernelLowering) -> None:
    """Order the threads' tensor-memory accesses before what follows (an MMA), and their
    waits for the last commit: one elected thread issues the next MMA and commits onto
    the same mbarrier, which must not complete again before every thread has seen it
    complete (a waiter two phases behind would wait for a phase that never comes)."""
    kl.b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync")
    kl.b.emit(ptx.BarSyncOp)
    kl.b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
    assert kl.tmem_alloc is not None
    kl.tmem_alloc.synced = True
    kl.tmem_alloc.waited = False


def tmem_written(kl: KernelLowering) -> None:
    """Make tcgen05.st results visible to the tensor core's next MMA."""
    kl.b.emit(ptx.Tcgen05WaitStOp)
    tmem_sync(kl)


def tmem_store_words(kl: KernelLowering, taddr: SSAValue, regs: SSAValue, count: int, column: int) -> None:
    """tcgen05.st of `count` 32-bit words per thread from column `column`."""
    for c0, num in tmem_runs(count):
        kl.b.emit(ptx.Tcgen05StOp, [taddr, regs], regs=c0, num=num, offset=column + c0)


def c_to_tmem(kl: KernelLowering, tm: Tmem, t: tc.AccType, source: SSAValue) -> None:
    """C into D: each thread loads its row and writes it to its lane."""
    row = tmem_row(kl, t.m)
    eb = 2 if t.dtype == "f16" else 4
    rown = kl.b.val(ptx.MulWideOp, [row], i64, type="u32", imm=t.n * eb, comment=f"C ({t.m}x{t.n}x{t.dtype}) into tensor memory")
    base = kl.b.val(ptx.AddOp, [kl.globals_[source], rown], i64, type="u64")
    words = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(t.n, i32))
    if t.dtype == "f16":  # one f16 per 32-bit column, in its low half
        for c in range(t.n):
            h = kl.b.val(ptx.LdOp, [base], i16, space="global", type="b16", vec=1, offset=2 * c)
            kl.b.emit(ptx.CvtToRegOp, [h, words], type="u32.u16", regs=c)
    else:
        for c in range(0, t.n, 4):
            kl.b.emit(ptx.LdRegsOp, [base, words], space="global", type="b32", vec=4, regs=c, offset=4 * c)
    tmem_store_words(kl, tmem_lanes(kl, tm.address), words, t.n, 0)
    tmem_written(kl)
    tm.written = True


def a_to_tmem(kl: KernelLowering, op: tc.Tcgen05MmaOp, tm: Tmem, slices: int) -> list[SSAValue]:
    """A from its shared-memory tile into tensor memory, K packed into 32-bit columns
    (the element of lower K in the lower bits); one operand address per K-slice."""
    layout = kl.tiles[op.a]
    bits = layout.dtype.bits
    per_word = 32 // bits
    words = layout.k // per_word
    t = np.arange(THREADS)[:, None]
    w, lane = t // 32, t % 32
    row = 32 * w + lane if tm.rows == 128 else 16 * w + lane % 16
    k0 = np.arange(words)[None, :] * per_word
    offsets = layout.addresses(row, k0)  # (thread, word): the word's shared-memory offset
    tbl = kl.table(offsets)
    tw = kl.b.val(ptx.MulWideOp, [kl.tid], i64, type="u32", imm=4 * words, comment=f"A ({layout.mn}x{layout.k}x{layout.dtype}) into tensor memory, {words} columns")
    tptr = kl.b.val(ptx.AddOp, [tbl, tw], i64, type="u64")
    regs = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(words, i32))
    for j in range(0, words, 4):
        vec = min(4, words - j)
        offs = kl.b.emit(ptx.LdOp, [tptr], [i32] * vec, space="global", type="u32", vec=vec, offset=4 * j).res
        for r, o in enumerate(offs):
            addr = kl.b.val(ptx.AddOp, [kl.smem, o], type="u32")
            kl.b.emit(ptx.LdRegsOp, [addr, regs], space="shared", type="b32", vec=1, regs=j + r, offset=0)
    return a_words_to_tmem(kl, tm.alloc, regs, words, slices)


def a_words_to_tmem(kl: KernelLowering, alloc: TmemAlloc, regs: SSAValue, words: int, slices: int) -> list[SSAValue]:
    """Each thread's packed row of A (`words` 32-bit registers) into the allocation's A
    columns, made visible to the MMA; the tensor-memory address of each of `slices`
    K-slices (8 columns of 32 bits a 32-byte slice)."""
    tmem_store_words(kl, tmem_lanes(kl, alloc.address), regs, words, alloc.a_column)
    tmem_written(kl)
    step = INSTRUCTION_K_BYTES // 4
    return [
        kl.b.val(ptx.AddOp, [alloc.address], type="u32", imm=alloc.a_column + s * step)
        for s in range(slices)
    ]


def load_row(kl: KernelLowering, tm: Tmem, n: int, what: str) -> SSAValue:
    """This thread's row of a tensor-memory accumulator (M = 128: row 32w + lane) as n f32
    registers, the loads waited for."""
    regs = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(n, f32))
    taddr = tmem_lanes(kl, tm.address)
    for c0, num in tmem_runs(n):
        kl.b.emit(ptx.Tcgen05LdOp, [regs, taddr], regs=c0, num=num, offset=c0, comment=what if c0 == 0 else None)
    kl.b.emit(ptx.Tcgen05WaitLdOp)
    tm.alloc.synced = False
    return regs


def row_values(kl: KernelLowering, value: SSAValue, tm: Tmem, n: int, what: str) -> list[SSAValue]:
    """This thread's row of the tensor-memory accumulator `value` as n f32 registers: those
    it was last loaded or written from (`kl.tmem_rows`: nothing changes a value's tensor
    memory but the op that makes a new value), else loaded (`load_row`) and kept."""
    if value not in kl.tmem_rows:
        row = load_row(kl, tm, n, what)
        kl.tmem_rows[value] = [kl.b.val(ptx.RegOfOp, [row], f32, regs=i) for i in range(n)]
    return kl.tmem_rows[value]


def tmem_acc_to_a(kl: KernelLowering, op: tc.AccToAOp, acc: Acc) -> None:
    """tc.acc_to_a of a tensor-memory accumulator (sm_100a, M = 128): each thread loads its
    row, rounds it to 16-bit pairs (the lower K in the lower half, as A in tensor memory
    packs K: a_to_tmem) and stores them to the allocation's A columns, where the next
    tc.tcgen05_mma reads A; its K-slices' addresses go to `kl.tmem_a`."""
    frag = op.result.type
    assert isinstance(frag, tc.AFragType)
    if acc.tmem is None or not acc.tmem.written:
        error_at(op, "tc.acc_to_a on sm_100a takes an accumulator in tensor memory (a tc.tcgen05_mma's or tc.acc_softmax's result)")
    tm = acc.tmem
    t = acc.type
    b = kl.b
    values = row_values(kl, op.acc, tm, t.n, f"A from the accumulator: this thread's row, rounded to {frag.dtype} pairs")
    words = t.n // 2
    packed = b.val(ptx.DeclRegsOp, result=ptx.RegsType(words, i32), comment=f"A from the accumulator: this thread's row in {frag.dtype} pairs")
    for w in range(words):
        lo, hi = values[2 * w], values[2 * w + 1]
        word = b.val(ptx.CvtOp, [hi, lo], i32, type=f"rn.{frag.dtype}x2.f32")
        b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [packed], i32, regs=w), word], type="b32")
    kl.tmem_a[op.result] = a_words_to_tmem(kl, tm.alloc, packed, words, words // (INSTRUCTION_K_BYTES // 4))


def tmem_store(kl: KernelLowering, op: tc.AccStoreOp, acc: Acc) -> None:
    """D from tensor memory to global memory: each warp reads its 32 lanes (32x32b)."""
    t = acc.type
    tm = tmem_of(kl, op, acc)
    row = tmem_row(kl, t.m)
    eb = 2 if t.dtype == "f16" else 4
    rown = kl.b.val(ptx.MulWideOp, [row], i64, type="u32", imm=t.n * eb)
    base = kl.b.val(ptx.AddOp, [kl.globals_[op.dst], rown], i64, type="u64")
    taddr = tmem_lanes(kl, tm.address)
    if not tm.written:  # a zero accumulator no MMA has touched: tensor memory is undefined
        zeros = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(t.n, i32), comment="zero accumulator")
        kl.b.emit(ptx.FillOp, [zeros], type="b32", value="0")
        tmem_store_words(kl, taddr, zeros, t.n, 0)
        tmem_written(kl)
        tm.written = True
    skip = None
    if t.m == 64:  # lanes 16-31 of each warp hold no rows of D
        lane = kl.b.val(ptx.AndOp, [kl.tid], type="b32", imm=31)
        upper = kl.b.val(ptx.SetpOp, [lane], i1, cmp="ge", type="u32", imm=16)
    elem = f32 if t.dtype == "f32" else i32
    for c0, chunk in tmem_runs(t.n):
        regs = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(chunk, elem))
        kl.b.emit(ptx.Tcgen05LdOp, [regs, taddr], regs=0, num=chunk, offset=c0)
        kl.b.emit(ptx.Tcgen05WaitLdOp)
        tm.alloc.synced = False  # a later MMA must not overwrite D before every warp read it
        if t.m == 64:
            skip = kl.b.label("no_row")
            kl.b.emit(ptx.BraOp, [upper], label=skip)
        if t.dtype == "f16":
            store_f16_columns(kl, base, regs, chunk, c0)
        else:
            ty = "f32" if t.dtype == "f32" else "s32"
            for v in range(0, chunk, 4):
                kl.b.emit(ptx.StOp, [base, regs], space="global", type=ty, vec=4, regs=v, offset=(c0 + v) * 4)
        if skip:
            kl.b.emit(ptx.LabelOp, label=skip)


def store_f16_columns(kl: KernelLowering, base: SSAValue, regs: SSAValue, count: int, c0: int) -> None:
    """f16 D: each 32-bit column holds one f16 in its low half; pack pairs and store."""
    halves = [kl.b.val(ptx.CvtFromRegOp, [regs], i16, type="u16.u32", regs=c) for c in range(count)]
    packed = [kl.b.val(ptx.PackOp, [halves[c], halves[c + 1]]) for c in range(0, count, 2)]
    for v in range(0, len(packed), 4):
        kl.b.emit(ptx.StOp, [base, *packed[v : v + 4]], space="global", type="b32", vec=4, offset=(c0 + 2 * v) * 2)


def tmem_runs(count: int, most: int = 32) -> list[tuple[int, int]]:
    """(first column, columns) of the tcgen05.ld/st accesses covering `count` columns: each
    a power of two (the .xN of 32x32b), at most `most` (registers per access)."""
    runs, c0 = [], 0
    while c0 < count:
        num = min(most, 1 << ((count - c0).bit_length() - 1))
        runs.append((c0, num))
        c0 += num
    return runs
