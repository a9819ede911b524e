"""The GEMM epilogue: a warpgroup's m64nN accumulator fragment into its window of D,
converted to D's type, with C added, and nothing written past D's edge.

Thread (warp w of its warpgroup, lane = 4g + q) holds rows 16w + g and 16w + g + 8 and,
for each 8-column group i, columns 8i + 2q and 8i + 2q + 1 (PTX ISA, wgmma D
fragments): registers 4i + 2h + e of an f32/s32 fragment, or the halves of register
2i + h of an f16 one. Pairs of columns are stored together where D's leading dimension
and N are even (so a pair never straddles the edge and is aligned); otherwise each
element is stored alone. Where the window may cross D's edge (M or N not a multiple
of the tile), each store is guarded by its row and column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import Float32Type, MemRefType, i1, i16, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import WindowStoreOp

if TYPE_CHECKING:
    from lower_tc.passes.gemm_to_ptx import GemmLowering

f32 = Float32Type()
#: Bytes of each D / C element type.
ELEMENT_BYTES = {"f32": 4, "s32": 4, "bf16": 2, "f16": 2}


def _row_base(g: "GemmLowering", mem: SSAValue, row: SSAValue, col0: SSAValue) -> tuple[SSAValue, int]:
    """Address of mem[row, col0] (64-bit) and the element size."""
    t = mem.type
    assert isinstance(t, MemRefType)
    dtype = tc.dtype_name(t.element_type)
    eb = ELEMENT_BYTES[dtype]
    ld = tc.matrix_strides(t, "D")[0]
    rowoff = g.val(ptx.MulWideOp, [row], i64, type="s32", imm=ld * eb)
    coloff = g.val(ptx.MulWideOp, [col0], i64, type="s32", imm=eb)
    off = g.val(ptx.AddOp, [rowoff, coloff], i64, type="s64")
    return g.val(ptx.AddOp, [g.globals_[mem], off], i64, type="s64"), eb


def describe_gemm(g: "GemmLowering", op: WindowStoreOp) -> None:
    """The kernel's metadata for the runner: which arguments are A, B, C and D, the
    problem's M, N, K, the accumulator and the tile configuration."""
    windows = {w.op.operand.data: w for w in g.windows}
    a_src = windows[tc.Operand.A].op.src
    args = list(tc.kernel_body(g.kernel).args)
    d_t = op.dst.type
    assert isinstance(d_t, MemRefType) and isinstance(a_src.type, MemRefType)
    m, n = d_t.get_shape()
    g.gemm_info = {
        "a": args.index(a_src),  # type: ignore[arg-type]
        "b": args.index(windows[tc.Operand.B].op.src),  # type: ignore[arg-type]
        "d": args.index(op.dst),  # type: ignore[arg-type]
        "c": args.index(op.c) if op.c is not None else None,  # type: ignore[arg-type]
        "m": m, "n": n, "k": a_src.type.get_shape()[1], "acc": g.acc_type.dtype,
        "config": {"bm": g.acc_type.m, "bn": g.acc_type.n, "bk": g.step, "stages": g.stages},
    }


def store_window(g: "GemmLowering", op: WindowStoreOp) -> None:
    acc_t = g.acc_type
    d_t = op.dst.type
    assert isinstance(d_t, MemRefType)
    m, n = d_t.get_shape()
    ld = tc.matrix_strides(d_t, "D")[0]
    d_dtype = tc.dtype_name(d_t.element_type)
    c = op.c
    c_dtype = tc.dtype_name(c.type.element_type) if c is not None else None  # type: ignore[union-attr]
    c_ld = tc.matrix_strides(c.type, "C")[0] if c is not None else 0
    bm, bn = acc_t.m, acc_t.n
    describe_gemm(g, op)

    m0, n0 = g.reg(op.row, op), g.reg(op.col, op)
    in_wg = g.val(ptx.AndOp, [g.tid], type="b32", imm=127, comment=f"epilogue: {bm}x{bn}x{acc_t.dtype} into D ({d_dtype})" + (f" + C ({c_dtype})" if c is not None else ""))
    warp = g.val(ptx.ShrOp, [in_wg], type="u32", imm=5)
    lane = g.val(ptx.AndOp, [g.tid], type="b32", imm=31)
    grp = g.val(ptx.ShrOp, [lane], type="u32", imm=2)
    quad = g.val(ptx.AndOp, [g.tid], type="b32", imm=3)
    row = g.val(ptx.ShlOp, [g.wg], type="b32", imm=6)
    row = g.val(ptx.AddOp, [row, m0], type="s32")
    w16 = g.val(ptx.ShlOp, [warp], type="b32", imm=4)
    row = g.val(ptx.AddOp, [row, w16], type="s32")
    row0 = g.val(ptx.AddOp, [row, grp], type="s32")
    q2 = g.val(ptx.ShlOp, [quad], type="b32", imm=1)
    col0 = g.val(ptx.AddOp, [n0, q2], type="s32")
    rows = [row0, g.val(ptx.AddOp, [row0], type="s32", imm=8)]
    d_bases = [_row_base(g, op.dst, r, col0) for r in rows]
    c_bases = [_row_base(g, c, r, col0) for r in rows] if c is not None else None

    # the window lies inside D wherever every CTA's tile does
    guarded = m % bm != 0 or n % bn != 0
    pairs = ld % 2 == 0 and n % 2 == 0 and (c is None or c_ld % 2 == 0)
    row_ok = [g.val(ptx.SetpOp, [r], i1, cmp="lt", type="s32", imm=m) for r in rows] if guarded else None

    def guard(h: int, col_index: int) -> str | None:
        """Skip the store unless row h and column col_index (from col0) are inside D."""
        if not guarded:
            return None
        assert row_ok is not None
        col_ok = g.val(ptx.SetpOp, [col0], i1, cmp="lt", type="s32", imm=n - col_index)
        both = g.val(ptx.AndOp, [row_ok[h], col_ok], i1, type="pred")
        return g.if_(both, "outside_d")

    def element(i: int, h: int, e: int) -> SSAValue:
        """Accumulator element (row h, column 8i + e of this thread) as an f32/s32 register."""
        if acc_t.dtype == "f16":
            packed = g.val(ptx.RegOfOp, [g.acc], i32, regs=2 * i + h)
            halves = g.emit(ptx.UnpackOp, [packed], [i16, i16]).res
            return g.val(ptx.CvtOp, [halves[e]], f32, type="f32.f16")
        return g.val(ptx.RegOfOp, [g.acc], f32 if acc_t.dtype == "f32" else i32, regs=4 * i + 2 * h + e)

    def c_value(h: int, offset: int) -> SSAValue:
        """C at (row h, column col0 + offset / element size) as f32 (s32 for integers)."""
        assert c_bases is not None and c_dtype is not None
        base, eb = c_bases[h]
        if c_dtype in ("f32", "s32"):
            return g.val(ptx.LdOp, [base], f32 if c_dtype == "f32" else i32, space="global", type=c_dtype, vec=1, offset=offset * eb)
        half = g.val(ptx.LdOp, [base], i16, space="global", type="b16", vec=1, offset=offset * eb)
        return g.val(ptx.CvtOp, [half], f32, type=f"f32.{c_dtype}")

    def value(i: int, h: int, e: int) -> SSAValue:
        v = element(i, h, e)
        if c is None:
            return v
        cv = c_value(h, 8 * i + e)
        return g.val(ptx.AddOp, [v, cv], v.type, type="s32" if acc_t.dtype == "s32" else "f32")

    def store_scalar(h: int, offset: int, v: SSAValue) -> None:
        base, eb = d_bases[h]
        if d_dtype in ("bf16", "f16"):
            v = g.val(ptx.CvtOp, [v], i16, type=f"rn.{d_dtype}.f32")
            g.emit(ptx.StOp, [base, v], space="global", type="b16", vec=1, offset=offset * eb)
        else:
            g.emit(ptx.StOp, [base, v], space="global", type=d_dtype, vec=1, offset=offset * eb)

    fast_same = c is None and pairs and d_dtype == ("f16" if acc_t.dtype == "f16" else acc_t.dtype)
    for i in range(bn // 8):
        for h in range(2):
            base, eb = d_bases[h]
            if pairs:
                skip = guard(h, 8 * i)
                if fast_same and acc_t.dtype == "f16":
                    g.emit(ptx.StOp, [base, g.acc], space="global", type="b32", vec=1, regs=2 * i + h, offset=8 * i * eb)
                elif fast_same:
                    g.emit(ptx.StOp, [base, g.acc], space="global", type=d_dtype, vec=2, regs=4 * i + 2 * h, offset=8 * i * eb)
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
