"""f32 values known only at launch, in registers: `memref.load` of one f32 from a kernel
argument and `arith.mulf` of two such values. They are what fp8 attention's descaling
factors are (docs/attention.md, "Descaling factors"): read once before the key loop, then
a factor of the softmax's scale and of O's division (`times` on tc.acc_row_max,
tc.acc_exp and tc.acc_row_div; dialects/tc_rows_ops.py)."""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import Float32Type, MemRefType, i64

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.values import f32


def lower_memref_load(kl: KernelLowering, op: memref.LoadOp) -> None:
    """One f32 of a kernel argument at index values of the kernel (each thread loads it:
    the same address, one L1 line), at the argument's strides."""
    b = kl.b
    t = op.memref.type
    assert isinstance(t, MemRefType)
    if not isinstance(t.element_type, Float32Type):
        error_at(op, f"memref.load reads an f32 (a factor known at launch), not {t.element_type}")
    base = kl.globals_.get(op.memref)
    if base is None:
        error_at(op, "memref.load reads a kernel argument (a factor known at launch)")
    strides = t.get_strides()
    if strides is None or any(s is None for s in strides):
        error_at(op, f"memref.load's memref has static strides, not {t}")
    offset = 0  # elements, where every index is a number
    regs = []
    for index, stride in zip(op.indices, strides):
        value = kl.indices.get(index)
        if value is None:
            error_at(op, "memref.load's indices are index values of the kernel (gpu.block_id, arith)")
        if isinstance(value, int):
            offset += value * stride  # type: ignore[operator]
        elif stride == 1:
            regs.append(value)
        elif stride:
            regs.append(b.val(ptx.MulLoOp, [value], type="s32", imm=stride))
    at = base
    if regs:
        total = regs[0]
        for r in regs[1:]:
            total = b.val(ptx.AddOp, [total, r], type="s32")
        at = b.val(ptx.AddOp, [base, b.val(ptx.MulWideOp, [total], i64, type="s32", imm=4)], i64, type="u64")
    kl.scalars[op.res] = b.val(ptx.LdOp, [at], f32, space="global", type="f32", vec=1, offset=4 * offset,
                               comment="a factor known at launch")


def lower_mulf(kl: KernelLowering, op: arith.MulfOp) -> None:
    """The product of two f32 values known at launch."""
    values = [kl.scalars.get(x) for x in (op.lhs, op.rhs)]
    if not isinstance(op.result.type, Float32Type) or any(v is None for v in values):
        error_at(op, "arith.mulf multiplies two f32 values read by memref.load (factors known at launch)")
    kl.scalars[op.result] = kl.b.val(ptx.MulOp, values, f32, type="f32")


__all__ = ["lower_memref_load", "lower_mulf"]
