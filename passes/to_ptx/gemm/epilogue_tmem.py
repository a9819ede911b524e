"""The tcgen05 GEMM's epilogue: each thread of the epilogue warpgroup holds one row of
the tile (warp w reads tensor-memory lanes 32w .. 32w + 31), reads it 32 columns at a
time with `tcgen05.ld` (32x32b.x32) and stores it, converted, with C added, inside D only."""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type, i16, i32
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.global_store import Bounds, check_column_offsets, matrix_base, output_types, row_base, steps

f32 = Float32Type()
#: Columns of one tcgen05.ld (32x32b.x32): 32 registers per thread.
LD_COLUMNS = 32


def store_rows(k: GemmKernel, op: WindowStoreOp, acc_t: tc.AccType, tmem: SSAValue, warp: SSAValue) -> None:
    """Warp `warp` (0-3 of the epilogue warpgroup) stores its 32 rows of the accumulator
    at tensor-memory address `tmem` (module docstring)."""
    g = k.b
    c = op.c
    d_dtype, c_dtype = output_types(op)
    m0, n0 = k.index.reg(op.row, op), k.index.reg(op.col, op)
    lane = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=31, comment=f"epilogue: {acc_t.m}x{acc_t.n}x{acc_t.dtype} from tensor memory into D ({d_dtype})")
    row = g.val(ptx.AddOp, [g.val(ptx.ShlOp, [warp], type="b32", imm=5), lane], type="u32")
    row = g.val(ptx.AddOp, [row, m0], type="s32")
    taddr = g.val(ptx.AddOp, [tmem, g.val(ptx.ShlOp, [warp], type="b32", imm=21)], type="u32")
    d_matrix = matrix_base(g, k.args, k.index, op.dst, op)
    c_matrix = matrix_base(g, k.args, k.index, c, op) if c is not None else None
    d_base, _ = row_base(g, k.args, op.dst, row, n0, d_matrix)
    c_base, _ = row_base(g, k.args, c, row, n0, c_matrix) if c is not None else (None, 0)
    check_column_offsets(k.args, op, acc_t.n)
    eb = steps(k.args, op.dst)[1]  # bytes from a column to the next (a column-major D's: its ld)
    c_eb = steps(k.args, c)[1] if c is not None else 0
    bounds = Bounds.of(g, k.args, op, k.store_inside)
    pairs = bounds.pairs
    row_ok = bounds.row_ok(row)
    reg_t = f32 if acc_t.dtype in ("f32", "f16") else i32  # an element's value
    run_t = f32 if acc_t.dtype == "f32" else i32  # what tcgen05.ld writes (f16: in the low half)

    def guard(col: int) -> str | None:
        return bounds.guard(row_ok, n0, col)

    def value(regs: SSAValue, j: int, col: int) -> SSAValue:
        if acc_t.dtype == "f16":  # one f16 per 32-bit column, in its low half
            word = g.val(ptx.RegOfOp, [regs], i32, regs=j)
            half = g.val(ptx.CvtOp, [word], i16, type="u16.u32")
            v = g.val(ptx.CvtOp, [half], f32, type="f32.f16")
        else:
            v = g.val(ptx.RegOfOp, [regs], reg_t, regs=j)
        if c_base is None:
            return v
        assert c_dtype is not None
        if c_dtype in ("f32", "s32"):
            cv = g.val(ptx.LdOp, [c_base], reg_t, space="global", type=c_dtype, vec=1, offset=col * c_eb)
        else:
            h = g.val(ptx.LdOp, [c_base], i16, space="global", type="b16", vec=1, offset=col * c_eb)
            cv = g.val(ptx.CvtOp, [h], f32, type=f"f32.{c_dtype}")
        return g.val(ptx.AddOp, [v, cv], reg_t, type="s32" if reg_t is i32 else "f32")

    for c0 in range(0, acc_t.n, LD_COLUMNS):
        count = min(LD_COLUMNS, acc_t.n - c0)
        regs = g.val(ptx.DeclRegsOp, result=ptx.RegsType(count, run_t))
        g.emit(ptx.Tcgen05LdOp, [regs, taddr], regs=0, num=count, offset=c0)
        g.emit(ptx.Tcgen05WaitLdOp)
        step = 2 if pairs else 1
        for j in range(0, count, step):
            col = c0 + j
            skip = guard(col)
            vals = [value(regs, j + e, col + e) for e in range(step)]
            if d_dtype in ("bf16", "f16"):
                if step == 2:
                    packed = g.val(ptx.CvtOp, [vals[1], vals[0]], i32, type=f"rn.{d_dtype}x2.f32")
                    g.emit(ptx.StOp, [d_base, packed], space="global", type="b32", vec=1, offset=col * eb)
                else:
                    h = g.val(ptx.CvtOp, [vals[0]], i16, type=f"rn.{d_dtype}.f32")
                    g.emit(ptx.StOp, [d_base, h], space="global", type="b16", vec=1, offset=col * eb)
            else:
                g.emit(ptx.StOp, [d_base, *vals], space="global", type=d_dtype, vec=step, offset=col * eb)
            if skip:
                g.emit(ptx.LabelOp, label=skip)
