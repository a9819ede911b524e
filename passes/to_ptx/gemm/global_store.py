"""What the register epilogues (wgmma fragments, tcgen05 rows from tensor memory) share:
the address of a row of D or C, and which stores need a guard to stay inside D."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType, i1, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.index import IndexEnv
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs

#: The largest 32-bit unsigned immediate (mul.wide.u32's).
MAX_U32 = 2**32 - 1

#: The largest immediate offset of a global address ([reg + imm] takes a 32-bit one).
MAX_OFFSET = 2**31 - 1

#: Bytes of each D / C element type.
ELEMENT_BYTES = {"f32": 4, "s32": 4, "bf16": 2, "f16": 2}


def output_types(op: WindowStoreOp) -> tuple[str, str | None]:
    """D's element type and C's (None without C)."""
    d_dtype = tc.dtype_name(op.dst.type.element_type)  # type: ignore[union-attr]
    c_dtype = tc.dtype_name(op.c.type.element_type) if op.c is not None else None  # type: ignore[union-attr]
    return d_dtype, c_dtype


def matrix_base(b: PtxBuilder, args: KernelArgs, index: IndexEnv, mem: SSAValue, op: WindowStoreOp) -> SSAValue:
    """The 64-bit address of the matrix the store's window is in: the argument's address,
    plus (into a batch) the window's batch index times the batch stride in bytes, a
    number or, where known only at launch, its .u32 parameter (in elements); into a 4-d
    D, the outer batch index times its stride too."""
    if op.batch is None:
        return args.address[mem]
    t = mem.type
    assert isinstance(t, MemRefType)
    eb = ELEMENT_BYTES[tc.dtype_name(t.element_type)]
    base = args.address[mem]
    if op.outer is not None:  # a 4-d D (static): the outer batch's offset first
        stride = args.geometry[mem].outer_stride
        assert isinstance(stride, int)
        wide = b.val(ptx.CvtOp, [index.reg(op.outer, op)], i64, type="u64.u32", comment="the window's batch of the outer batch")
        base = b.val(ptx.AddOp, [base, b.val(ptx.MulLoOp, [wide], i64, type="u64", imm=stride * eb)], i64, type="s64")
    which = index.reg(op.batch, op)
    stride = args.size(mem, "batch_stride")
    if isinstance(stride, int) and stride * eb <= MAX_U32:
        off = b.val(ptx.MulWideOp, [which], i64, type="u32", imm=stride * eb, comment="the window's matrix of the batch")
    elif isinstance(stride, int):  # more than 4 GiB apart: a 64-bit product
        wide = b.val(ptx.CvtOp, [which], i64, type="u64.u32", comment="the window's matrix of the batch")
        off = b.val(ptx.MulLoOp, [wide], i64, type="u64", imm=stride * eb)
    else:
        off = b.val(ptx.MulWideOp, [which, stride], i64, type="u32", comment="the window's matrix of the batch")
        off = b.val(ptx.ShlOp, [off], i64, type="b64", imm=eb.bit_length() - 1)
    return b.val(ptx.AddOp, [base, off], i64, type="s64")


def steps(args: KernelArgs, mem: SSAValue) -> tuple[int | None, int]:
    """Bytes from one row of `mem` to the next and from one column to the next: (ld x
    element, element) for a row-major matrix (None where ld is known only at launch),
    (element, ld x element) for a column-major one (swap-AB's D^T: sizes known at compile
    time, tc_gemm.check_output)."""
    t = mem.type
    assert isinstance(t, MemRefType)
    eb = ELEMENT_BYTES[tc.dtype_name(t.element_type)]
    ld = args.size(mem, "ld")
    if args.geometry[mem].row_major:
        return (ld * eb if isinstance(ld, int) else None), eb
    assert isinstance(ld, int)
    return eb, ld * eb


def check_column_offsets(args: KernelArgs, op: WindowStoreOp, columns: int) -> None:
    """An epilogue adds each column's offset to a row's address as an immediate: for a
    column-major D or C the last one, (columns - 1) x ld x element, must fit one."""
    mems = [op.dst] + ([op.c] if op.c is not None else [])
    widest = max(steps(args, x)[1] for x in mems)
    if (columns - 1) * widest > MAX_OFFSET:
        error_at(op, f"a column-major D or C whose columns are {widest} bytes apart: {columns} of them are past a store's 32-bit offset")


def row_base(b: PtxBuilder, args: KernelArgs, mem: SSAValue, row: SSAValue, col0: SSAValue, base: SSAValue | None = None) -> tuple[SSAValue, int]:
    """Address of mem[row, col0] (64-bit) and the element size; the leading dimension is a
    number or, where known only at launch, its parameter's register. `base` is the
    matrix's address (matrix_base) where it is not the argument's. A column-major `mem`
    steps rows by the element and columns by the leading dimension (`steps`)."""
    t = mem.type
    assert isinstance(t, MemRefType)
    eb = ELEMENT_BYTES[tc.dtype_name(t.element_type)]
    row_step, col_step = steps(args, mem)
    if row_step is not None:
        comment = None if args.geometry[mem].row_major else "D^T: rows are contiguous"
        rowoff = b.val(ptx.MulWideOp, [row], i64, type="s32", imm=row_step, comment=comment)
    else:  # a row-major leading dimension known at launch
        rowoff = b.val(ptx.MulWideOp, [row, args.size(mem, "ld")], i64, type="s32")
        rowoff = b.val(ptx.ShlOp, [rowoff], i64, type="b64", imm=eb.bit_length() - 1)
    coloff = b.val(ptx.MulWideOp, [col0], i64, type="s32", imm=col_step)
    off = b.val(ptx.AddOp, [rowoff, coloff], i64, type="s64")
    return b.val(ptx.AddOp, [base if base is not None else args.address[mem], off], i64, type="s64"), eb


@dataclass(frozen=True)
class Bounds:
    """Which stores stay inside D: none need a guard when every CTA's window was shown to
    lie inside (over the whole grid); otherwise a row and a column test each.
    Pairs of columns are stored together only where N and the leading dimensions are
    known to be even (a pair then never straddles the edge and is aligned), and D and C
    are row-major (a column-major one's neighbouring columns are a column apart)."""

    b: PtxBuilder
    m: int | SSAValue
    n: int | SSAValue
    guarded: bool
    pairs: bool

    @classmethod
    def of(cls, b: PtxBuilder, args: KernelArgs, op: WindowStoreOp, inside: bool) -> "Bounds":
        """`inside`: every CTA's window was shown to lie inside D (index_range.py)."""
        m, n = args.size(op.dst, "rows"), args.size(op.dst, "cols")
        guarded = not inside
        mems = [op.dst] + ([op.c] if op.c is not None else [])
        lds = [args.size(x, "ld") for x in mems]
        pairs = all(isinstance(x, int) and x % 2 == 0 for x in [n, *lds]) and all(args.geometry[x].row_major for x in mems)
        return cls(b, m, n, guarded, pairs)

    def row_ok(self, row: SSAValue) -> SSAValue | None:
        if not self.guarded:
            return None
        if isinstance(self.m, int):
            return self.b.val(ptx.SetpOp, [row], i1, cmp="lt", type="s32", imm=self.m)
        return self.b.val(ptx.SetpOp, [row, self.m], i1, cmp="lt", type="s32")

    def guard(self, row_ok: SSAValue | None, col0: SSAValue, col: int) -> str | None:
        """Skip to the returned label unless the row holds and col0 + col < N."""
        if row_ok is None:
            return None
        b = self.b
        if isinstance(self.n, int):
            col_ok = b.val(ptx.SetpOp, [col0], i1, cmp="lt", type="s32", imm=self.n - col)
        else:
            col_ok = b.val(ptx.SetpOp, [b.add_imm(col0, col), self.n], i1, cmp="lt", type="s32")
        return b.if_(b.val(ptx.AndOp, [row_ok, col_ok], i1, type="pred"), "outside_d")
