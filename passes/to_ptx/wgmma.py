"""tc.wgmma -> wgmma.mma_async (sm_90a): descriptors for the shared-memory operands, or A's
register fragments loaded from its tile through a table of shared offsets per thread."""

from __future__ import annotations


import numpy as np
from xdsl.dialects.builtin import i1, i16, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.layout import Arch, Major, TileLayout, element_type
from lower_tc.layout.fragments import (A_REGISTERS, K_PER_SLICE, SELECTORS, a_from_accumulator, a_register_start, own_words,
                                      packed_pairs, quad_exchange)
from lower_tc.passes.to_ptx.accumulators import wgmma_acc
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.tcgen05 import tmem_acc_to_a
from lower_tc.passes.to_ptx.values import THREADS, f32



def lower_acc_to_a(kl: KernelLowering, op: tc.AccToAOp) -> None:
    """The accumulator rounded to 16-bit pairs as A's register fragments, 4 x b32 per
    K-slice s: register r packs accumulator registers 8s + 2r (low half) and 8s + 2r + 1
    (high) of the same thread (layout/fragments.py `a_from_accumulator`). 8-bit: the
    exchange within each quad (`_acc_to_a_8bit`)."""
    frag_t = op.result.type
    assert isinstance(frag_t, tc.AFragType)
    acc = kl.acc_of(op, op.acc)
    if tc.kernel_target(op) is Arch.SM100A:  # P into tensor memory, A of a tc.tcgen05_mma
        tmem_acc_to_a(kl, op, acc)
        return
    regs = wgmma_acc(kl, op, acc)
    if frag_t.dtype in ("e4m3", "e5m2"):
        pack = _acc_to_a_8bit_own if op.accumulator_order is not None else _acc_to_a_8bit
        kl.a_frags[op.result] = pack(kl, regs, frag_t)
        return
    k = K_PER_SLICE[16]
    slices = []
    for s in range(frag_t.k // k):
        sources = a_from_accumulator(16, s)
        frag = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(A_REGISTERS, i32),
                        comment=f"A fragment of K-slice {s}: {frag_t.dtype} pairs of the accumulator" if s == 0 else None)
        for r in range(A_REGISTERS):
            lo, hi = (src.register for src in sources[0][r])  # every thread's own registers, the same indices
            lo_v = kl.b.val(ptx.RegOfOp, [regs], f32, regs=lo)
            hi_v = kl.b.val(ptx.RegOfOp, [regs], f32, regs=hi)
            packed = kl.b.val(ptx.CvtOp, [hi_v, lo_v], i32, type=f"rn.{frag_t.dtype}x2.f32")
            kl.b.emit(ptx.AssignOp, [kl.b.val(ptx.RegOfOp, [frag], i32, regs=r), packed], type="b32")
        slices.append(frag)
    kl.a_frags[op.result] = slices


def _packed_word(b: PtxBuilder, regs: SSAValue, k_slice: int, word: int, half: int, dtype: str) -> SSAValue:
    """One 32-bit word of 8-bit values from this thread's accumulator: the two pairs of
    `packed_pairs(k_slice, word, half)`, each rounded to two bytes (cvt.rn.satfinite, the
    pair's first column low), the first pair low."""
    halves = []
    for lo, hi in packed_pairs(k_slice, word, half):
        lo_v, hi_v = (b.val(ptx.RegOfOp, [regs], f32, regs=i) for i in (lo, hi))
        halves.append(b.val(ptx.CvtOp, [hi_v, lo_v], i16, type=f"rn.satfinite.{dtype}x2.f32"))
    return b.val(ptx.PackOp, halves, i32)


def _acc_to_a_8bit(kl: KernelLowering, regs: SSAValue, frag_t: tc.AFragType) -> list[SSAValue]:
    """8-bit A fragments from the f32 accumulator (layout/fragments.py `quad_exchange`):
    per K-slice and register, each thread rounds two pairs of its accumulator into one
    32-bit word (cvt.rn.satfinite.e4m3x2.f32: the pair's first column in the low byte), reads
    that word from quad lanes 2 (q % 2) and 2 (q % 2) + 1 (shfl.sync.idx) and keeps half
    q // 2 of each (prmt). Every thread computes its two source lanes and selector once."""
    b = kl.b
    tid = kl.tid
    lane = b.val(ptx.AndOp, [tid], i32, type="b32", imm=31, comment=f"8-bit A fragments ({frag_t.dtype}) from the accumulator: each quad exchanges its bytes")
    quad = b.val(ptx.AndOp, [lane], i32, type="b32", imm=3)
    base = b.val(ptx.SubOp, [lane, quad], i32, type="s32")
    odd = b.val(ptx.AndOp, [quad], i32, type="b32", imm=1)
    first = b.val(ptx.AddOp, [base, b.val(ptx.ShlOp, [odd], i32, type="b32", imm=1)], i32, type="s32", comment="quad lanes 2 (q % 2), 2 (q % 2) + 1")
    second = b.val(ptx.AddOp, [first], i32, type="s32", imm=1)
    upper = b.val(ptx.SetpOp, [quad], i1, cmp="ge", type="u32", imm=2)
    low_sel, high_sel = (b.imm(f"0x{s:04x}", "b32") for s in SELECTORS)
    selector = b.val(ptx.SelpOp, [high_sel, low_sel, upper], i32, type="b32", comment="half q // 2 of each word")
    slices = []
    for s in range(frag_t.k // K_PER_SLICE[8]):
        frag = b.val(ptx.DeclRegsOp, result=ptx.RegsType(A_REGISTERS, i32), comment=f"A fragment of K-slice {s}: {frag_t.dtype} quads")
        for x in quad_exchange(s):
            word = _packed_word(b, regs, s, x.word, x.half, frag_t.dtype)
            from_first = b.val(ptx.ShflIdxOp, [word, first], i32)
            from_second = b.val(ptx.ShflIdxOp, [word, second], i32)
            bytes_ = b.val(ptx.PrmtOp, [from_first, from_second, selector], i32, type="b32")
            b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [frag], i32, regs=x.register), bytes_], type="b32")
        slices.append(frag)
    return slices


def _acc_to_a_8bit_own(kl: KernelLowering, regs: SSAValue, frag_t: tc.AFragType) -> list[SSAValue]:
    """8-bit A fragments in accumulator order (tc.acc_to_a {accumulator_order};
    layout/fragments.py `own_words`): register r of each K-slice is the thread's own two
    pairs of n8 blocks 4s + 2 (r // 2) and + 1 in row half r % 2, rounded and packed, the
    word the quad exchange would have sent; no shuffle."""
    b = kl.b
    slices = []
    for s in range(frag_t.k // K_PER_SLICE[8]):
        frag = b.val(ptx.DeclRegsOp, result=ptx.RegsType(A_REGISTERS, i32),
                     comment=f"A fragment of K-slice {s}: {frag_t.dtype}, the accumulator's order (own bytes)")
        for r, (word, half) in enumerate(own_words(s)):
            b.emit(ptx.AssignOp, [b.val(ptx.RegOfOp, [frag], i32, regs=r), _packed_word(b, regs, s, word, half, frag_t.dtype)],
                   type="b32")
        slices.append(frag)
    return slices


def wgmma_props(a_t: tc.TileType | tc.AFragType, b_t: tc.TileType, acc_dtype: str, a_in_registers: bool) -> dict[str, object]:
    """wgmma.mma_async's modifiers for A (a tile in shared memory, or registers), B and
    the accumulator: the shape m64nNkK, the types, scale-d 1 (accumulate; a first K-slice
    that starts afresh overrides it), the immediate scale (0 for integers), and the
    transposes, which only 16-bit types take, A's only from shared memory (-1: none)."""
    dtype = a_t.dtype
    sixteen = dtype in ("f16", "bf16")
    return dict(
        shape=f"m64n{b_t.mn}k{element_type(dtype).k_per_instruction}", dtype=acc_dtype, atype=dtype, btype=b_t.dtype,
        scale_d=1, scale=0 if dtype in ("s8", "u8") else 1,
        trans_a=(1 if a_t.major is Major.MN else 0) if sixteen and not a_in_registers else -1,  # type: ignore[union-attr]
        trans_b=(1 if b_t.major is Major.MN else 0) if sixteen else -1,
    )


def lower_wgmma(kl: KernelLowering, op: tc.WgmmaOp) -> None:
    """One wgmma.mma_async per K-slice into the accumulator's registers, then commit and wait."""
    a_t, b_t = op.a.type, op.b.type
    assert isinstance(a_t, tc.TileType | tc.AFragType) and isinstance(b_t, tc.TileType)
    acc = kl.acc_of(op, op.acc)
    regs = wgmma_acc(kl, op, acc)
    kl.accs[op.result] = acc
    dtype = a_t.dtype
    kpi = element_type(dtype).k_per_instruction
    b_descs = [kl.desc_reg(d) for d in kl.descs(op, "tc.b_descs")]
    register_a = op.a_in_registers is not None or isinstance(a_t, tc.AFragType)
    if isinstance(a_t, tc.AFragType):
        a_ops = kl.a_frags[op.a]  # tc.acc_to_a made them
    elif register_a:
        a_ops = a_fragments(kl, op, kl.tiles[op.a], len(b_descs))
    else:
        a_ops = [kl.desc_reg(d) for d in kl.descs(op, "tc.a_descs")]
    props = wgmma_props(a_t, b_t, acc.type.dtype, register_a)
    kl.b.emit(ptx.WgmmaFenceOp, comment=f"wgmma m64n{b_t.mn}k{kpi}, {len(b_descs)} K-slices")
    for a_op, b_desc in zip(a_ops, b_descs):
        kl.b.emit(ptx.WgmmaMmaAsyncOp, [regs, a_op, b_desc], **props)
    kl.b.emit(ptx.WgmmaCommitGroupOp)
    kl.b.emit(ptx.WgmmaWaitGroupOp, pending=0)


def a_fragments(kl: KernelLowering, op: tc.WgmmaOp, layout: TileLayout, slices: int) -> list[SSAValue]:
    """A's register fragments (4 x b32 per K-slice), loaded from its tile.

    Register r of thread t holds row 16w + g + 8(r&1) and the 32 bits
    starting at K column 8(r>>1) + 2q (16-bit), 4(r>>1) + q (tf32) or
    16(r>>1) + 4q (8-bit) of the slice (PTX ISA wgmma register fragments).
    """
    t = np.arange(THREADS)[:, None, None]
    s = np.arange(slices)[None, :, None]
    r = np.arange(A_REGISTERS)[None, None, :]
    row, col = a_register_start(layout.dtype.bits, t, r)  # layout/fragments.py
    k = s * layout.dtype.k_per_instruction + col
    offsets = layout.addresses(np.broadcast_to(row, k.shape), k)  # (thread, slice, reg)
    tbl = kl.table(offsets)
    t16 = kl.b.val(ptx.MulWideOp, [kl.tid], i64, type="u32", imm=16 * slices, comment="A fragments from the A tile")
    tptr = kl.b.val(ptx.AddOp, [tbl, t16], i64, type="u64")
    frags = []
    for sl in range(slices):
        offs = kl.b.emit(ptx.LdOp, [tptr], [i32] * 4, space="global", type="u32", vec=4, offset=16 * sl).res
        frag = kl.b.val(ptx.DeclRegsOp, result=ptx.RegsType(4, i32))
        for reg, o in enumerate(offs):
            addr = kl.b.val(ptx.AddOp, [kl.smem, o], type="u32")
            kl.b.emit(ptx.LdRegsOp, [addr, frag], space="shared", type="b32", vec=1, regs=reg, offset=0)
        frags.append(frag)
    return frags
