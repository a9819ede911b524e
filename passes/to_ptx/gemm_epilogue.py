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
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import GemmInfo

if TYPE_CHECKING:
    from lower_tc.passes.to_ptx.gemm import GemmLowering

f32 = Float32Type()
#: Bytes of each D / C element type.
ELEMENT_BYTES = {"f32": 4, "s32": 4, "bf16": 2, "f16": 2}


def row_base(g: "GemmLowering", mem: SSAValue, row: SSAValue, col0: SSAValue) -> tuple[SSAValue, int]:
    """Address of mem[row, col0] (64-bit) and the element size; the leading dimension is a
    number or, where known only at launch, its parameter's register."""
    t = mem.type
    assert isinstance(t, MemRefType)
    eb = ELEMENT_BYTES[tc.dtype_name(t.element_type)]
    ld = g.size(mem, "ld")
    if isinstance(ld, int):
        rowoff = g.val(ptx.MulWideOp, [row], i64, type="s32", imm=ld * eb)
    else:
        rowoff = g.val(ptx.MulWideOp, [row, ld], i64, type="s32")
        rowoff = g.val(ptx.ShlOp, [rowoff], i64, type="b64", imm=eb.bit_length() - 1)
    coloff = g.val(ptx.MulWideOp, [col0], i64, type="s32", imm=eb)
    off = g.val(ptx.AddOp, [rowoff, coloff], i64, type="s64")
    return g.val(ptx.AddOp, [g.globals_[mem], off], i64, type="s64"), eb


class Bounds:
    """Which stores stay inside D: none need a guard when every CTA tile lies inside
    (M and N static multiples of the tile); otherwise a row and a column test each.
    Pairs of columns are stored together only where N and the leading dimensions are
    known to be even (a pair then never straddles the edge and is aligned)."""

    def __init__(self, g: "GemmLowering", op: WindowStoreOp) -> None:
        self.g = g
        self.m, self.n = g.size(op.dst, "rows"), g.size(op.dst, "cols")
        acc = g.acc_type
        static = isinstance(self.m, int) and isinstance(self.n, int)
        self.guarded = not static or self.m % acc.m != 0 or self.n % acc.n != 0  # type: ignore[operator]
        lds = [g.size(op.dst, "ld")] + ([g.size(op.c, "ld")] if op.c is not None else [])
        self.pairs = all(isinstance(x, int) and x % 2 == 0 for x in [self.n, *lds])

    def row_ok(self, row: SSAValue) -> SSAValue | None:
        if not self.guarded:
            return None
        if isinstance(self.m, int):
            return self.g.val(ptx.SetpOp, [row], i1, cmp="lt", type="s32", imm=self.m)
        return self.g.val(ptx.SetpOp, [row, self.m], i1, cmp="lt", type="s32")

    def guard(self, row_ok: SSAValue | None, col0: SSAValue, col: int) -> str | None:
        """Skip to the returned label unless the row holds and col0 + col < N."""
        if row_ok is None:
            return None
        g = self.g
        if isinstance(self.n, int):
            col_ok = g.val(ptx.SetpOp, [col0], i1, cmp="lt", type="s32", imm=self.n - col)
        else:
            col_ok = g.val(ptx.SetpOp, [g.add_imm(col0, col), self.n], i1, cmp="lt", type="s32")
        return g.if_(g.val(ptx.AndOp, [row_ok, col_ok], i1, type="pred"), "outside_d")


def describe_gemm(g: "GemmLowering", op: WindowStoreOp) -> None:
    """The kernel's metadata for the runner: which arguments are A, B, C and D, the
    problem's M, N, K, the accumulator and the tile configuration."""
    windows = {w.op.operand.data: w for w in g.windows}
    a_src = windows[tc.Operand.A].op.src
    args = list(tc.kernel_body(g.kernel).args)
    d = g.geometry[op.dst]
    m, n, k = d.rows, d.cols, g.geometry[a_src].cols  # None: known at launch
    g.gemm_info = GemmInfo(
        a=args.index(a_src),  # type: ignore[arg-type]
        b=args.index(windows[tc.Operand.B].op.src),  # type: ignore[arg-type]
        d=args.index(op.dst),  # type: ignore[arg-type]
        c=args.index(op.c) if op.c is not None else None,  # type: ignore[arg-type]
        m=m, n=n, k=k, acc=g.acc_type.dtype,
        config=GemmConfig(g.acc_type.m, g.acc_type.n, g.step, g.stages),
    )


def output_types(g: "GemmLowering", op: WindowStoreOp) -> tuple[str, str | None]:
    """D's element type and C's (None without C); records the kernel's GEMM metadata."""
    describe_gemm(g, op)
    d_dtype = tc.dtype_name(op.dst.type.element_type)  # type: ignore[union-attr]
    c_dtype = tc.dtype_name(op.c.type.element_type) if op.c is not None else None  # type: ignore[union-attr]
    return d_dtype, c_dtype


def store_window(g: "GemmLowering", op: WindowStoreOp) -> None:
    acc_t = g.acc_type
    c = op.c
    d_dtype, c_dtype = output_types(g, op)
    bm, bn = acc_t.m, acc_t.n

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
    d_bases = [row_base(g, op.dst, r, col0) for r in rows]
    c_bases = [row_base(g, c, r, col0) for r in rows] if c is not None else None
    bounds = Bounds(g, op)
    pairs = bounds.pairs
    row_ok = [bounds.row_ok(r) for r in rows]

    def guard(h: int, col_index: int) -> str | None:
        """Skip the store unless row h and column col_index (from col0) are inside D."""
        return bounds.guard(row_ok[h], col0, col_index)

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
