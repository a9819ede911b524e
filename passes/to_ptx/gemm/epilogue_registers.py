"""The register epilogue of the wgmma GEMM: a warpgroup's m64nN accumulator fragment into
its window of D, converted to D's type, with C added, and nothing written past D's edge.

Thread (warp w of its warpgroup, lane = 4g + q) holds rows 16w + g and 16w + g + 8 and,
for each 8-column group i, columns 8i + 2q and 8i + 2q + 1 (PTX ISA, wgmma D
fragments): registers 4i + 2h + e of an f32/s32 fragment, or the halves of register
2i + h of an f16 one. Pairs of columns are stored together where D's leading dimension
and N are even (so a pair never straddles the edge and is aligned); otherwise each
element is stored alone. A column-major D (swap-AB's D^T) is stored element by element,
a column (its leading dimension) apart. Where the window may cross D's edge (M or N not a multiple
of the tile), each store is guarded by its row and column.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import Float32Type, i16, i32
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.global_store import Bounds, check_column_offsets, matrix_base, output_types, row_base, steps

f32 = Float32Type()


def store_fragments(k: GemmKernel, op: WindowStoreOp, acc: SSAValue, acc_t: tc.AccType, wg: SSAValue,
                    groups: Sequence[int] | None = None) -> None:
    """Warpgroup `wg` (of the consumers) stores its fragment `acc` (module docstring), or
    only its 8-column groups `groups` (a share of a tile that CTAs store between them)."""
    g = k.b
    c = op.c
    d_dtype, c_dtype = output_types(op)
    bm, bn = acc_t.m, acc_t.n

    m0, n0 = k.index.reg(op.row, op), k.index.reg(op.col, op)
    in_wg = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=127, comment=f"epilogue: {bm}x{bn}x{acc_t.dtype} into D ({d_dtype})" + (f" + C ({c_dtype})" if c is not None else ""))
    warp = g.val(ptx.ShrOp, [in_wg], type="u32", imm=5)
    lane = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=31)
    grp = g.val(ptx.ShrOp, [lane], type="u32", imm=2)
    quad = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=3)
    row = g.val(ptx.ShlOp, [wg], type="b32", imm=6)
    row = g.val(ptx.AddOp, [row, m0], type="s32")
    w16 = g.val(ptx.ShlOp, [warp], type="b32", imm=4)
    row = g.val(ptx.AddOp, [row, w16], type="s32")
    row0 = g.val(ptx.AddOp, [row, grp], type="s32")
    q2 = g.val(ptx.ShlOp, [quad], type="b32", imm=1)
    col0 = g.val(ptx.AddOp, [n0, q2], type="s32")
    rows = [row0, g.val(ptx.AddOp, [row0], type="s32", imm=8)]
    d_matrix = matrix_base(g, k.args, k.index, op.dst, op)
    c_matrix = matrix_base(g, k.args, k.index, c, op) if c is not None else None
    d_bases = [row_base(g, k.args, op.dst, r, col0, d_matrix) for r in rows]
    c_bases = [row_base(g, k.args, c, r, col0, c_matrix) for r in rows] if c is not None else None
    bounds = Bounds.of(g, k.args, op, k.store_inside)
    pairs = bounds.pairs
    row_ok = [bounds.row_ok(r) for r in rows]

    def guard(h: int, col_index: int) -> str | None:
        """Skip the store unless row h and column col_index (from col0) are inside D."""
        return bounds.guard(row_ok[h], col0, col_index)

    def element(i: int, h: int, e: int) -> SSAValue:
        """Accumulator element (row h, column 8i + e of this thread) as an f32/s32 register."""
        if acc_t.dtype == "f16":
            packed = g.val(ptx.RegOfOp, [acc], i32, regs=2 * i + h)
            halves = g.emit(ptx.UnpackOp, [packed], [i16, i16]).res
            return g.val(ptx.CvtOp, [halves[e]], f32, type="f32.f16")
        return g.val(ptx.RegOfOp, [acc], f32 if acc_t.dtype == "f32" else i32, regs=4 * i + 2 * h + e)

    d_step = steps(k.args, op.dst)[1]
    c_step = steps(k.args, c)[1] if c is not None else 0
    check_column_offsets(k.args, op, bn)

    def c_value(h: int, offset: int) -> SSAValue:
        """C at (row h, column col0 + offset) as f32 (s32 for integers)."""
        assert c_bases is not None and c_dtype is not None
        base, _ = c_bases[h]
        if c_dtype in ("f32", "s32"):
            return g.val(ptx.LdOp, [base], f32 if c_dtype == "f32" else i32, space="global", type=c_dtype, vec=1, offset=offset * c_step)
        half = g.val(ptx.LdOp, [base], i16, space="global", type="b16", vec=1, offset=offset * c_step)
        return g.val(ptx.CvtOp, [half], f32, type=f"f32.{c_dtype}")

    def value(i: int, h: int, e: int) -> SSAValue:
        v = element(i, h, e)
        if c is None:
            return v
        cv = c_value(h, 8 * i + e)
        return g.val(ptx.AddOp, [v, cv], v.type, type="s32" if acc_t.dtype == "s32" else "f32")

    def store_scalar(h: int, offset: int, v: SSAValue) -> None:
        base, _ = d_bases[h]
        if d_dtype in ("bf16", "f16"):
            v = g.val(ptx.CvtOp, [v], i16, type=f"rn.{d_dtype}.f32")
            g.emit(ptx.StOp, [base, v], space="global", type="b16", vec=1, offset=offset * d_step)
        else:
            g.emit(ptx.StOp, [base, v], space="global", type=d_dtype, vec=1, offset=offset * d_step)

    fast_same = c is None and pairs and d_dtype == ("f16" if acc_t.dtype == "f16" else acc_t.dtype)
    for i in range(bn // 8) if groups is None else groups:
        for h in range(2):
            base, eb = d_bases[h]
            if pairs:
                skip = guard(h, 8 * i)
                if fast_same and acc_t.dtype == "f16":
                    g.emit(ptx.StOp, [base, acc], space="global", type="b32", vec=1, regs=2 * i + h, offset=8 * i * eb)
                elif fast_same:
                    g.emit(ptx.StOp, [base, acc], space="global", type=d_dtype, vec=2, regs=4 * i + 2 * h, offset=8 * i * eb)
                else:
                    lo, hi = value(i, h, 0), value(i, h, 1)
                    if d_dtype in ("bf16", "f16"):
                        packed = g.val(ptx.CvtOp, [hi, lo], i32, type=f"rn.{d_dtype}x2.f32")
                        g.emit(ptx.StOp, [base, packed], space="global", type="b32", vec=1, offset=8 * i * eb)
                    else:
                        g.emit(ptx.StOp, [base, lo, hi], space="global", type=d_dtype, vec=2, offset=8 * i * eb)
                if skip:
                    g.emit(ptx.LabelOp, label=skip)
            else:
                for e in range(2):
                    skip = guard(h, 8 * i + e)
                    store_scalar(h, 8 * i + e, value(i, h, e))
                    if skip:
                        g.emit(ptx.LabelOp, label=skip)
