"""tc.wmma_* -> wmma.load / wmma.mma / wmma.store: the legacy warp-level path, straight from
global memory. A fragment is a run of registers, kept per fragment value in `kl.frags`."""

from __future__ import annotations


from xdsl.dialects.builtin import ArrayAttr, IntAttr, MemRefType, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.values import f32



def lower_wmma_zero(kl: KernelLowering, op: tc.WmmaZeroOp) -> None:
    """A zero fragment: its registers, filled."""
    ft = op.frag.type
    assert isinstance(ft, tc.WmmaFragType)
    regs = kl.b.val(ptx.DeclRegsOp, result=frag_regs(ft))
    kl.b.emit(ptx.FillOp, [regs], type="f32" if ft.dtype == "f32" else "b32", value="0f00000000" if ft.dtype == "f32" else "0")
    kl.frags[op.frag] = regs


def lower_wmma_load(kl: KernelLowering, op: tc.WmmaLoadOp) -> None:
    """wmma.load of a fragment straight from global memory."""
    ft = op.frag.type
    assert isinstance(ft, tc.WmmaFragType) and isinstance(op.src.type, MemRefType)
    addr = wmma_addr(kl, op.src, op.offsets)
    regs = kl.b.val(ptx.DeclRegsOp, result=frag_regs(ft))
    role = ft.role.data
    layout = ft.layout.data or "row"
    kl.b.emit(ptx.WmmaLoadOp, [regs, addr], role=role, layout=layout, shape=ft.shape.data, type=ft.dtype, stride=tc.matrix_strides(op.src.type, 'wmma')[0])
    kl.frags[op.frag] = regs


def lower_wmma_mma(kl: KernelLowering, op: tc.WmmaMmaOp) -> None:
    """wmma.mma into fresh registers: D is a new fragment value, C is left as it is."""
    a_t, b_t, c_t = op.a.type, op.b.type, op.c.type
    assert isinstance(a_t, tc.WmmaFragType) and isinstance(b_t, tc.WmmaFragType) and isinstance(c_t, tc.WmmaFragType)
    d = kl.b.val(ptx.DeclRegsOp, result=frag_regs(op.d.type))  # type: ignore[arg-type]
    regs = [kl.frags[v] for v in (op.a, op.b, op.c)]
    if a_t.dtype == "f16":
        types = f"{op.d.type.dtype}.{c_t.dtype}"  # type: ignore[union-attr]
    else:
        types = f"{c_t.dtype}.{a_t.dtype}.{b_t.dtype}.{c_t.dtype}"
    kl.b.emit(ptx.WmmaMmaOp, [d, *regs], alayout=a_t.layout.data, blayout=b_t.layout.data, shape=a_t.shape.data, types=types)
    kl.frags[op.d] = d


def lower_wmma_store(kl: KernelLowering, op: tc.WmmaStoreOp) -> None:
    """wmma.store of a fragment straight to global memory."""
    assert isinstance(op.dst.type, MemRefType)
    ft = op.frag.type
    assert isinstance(ft, tc.WmmaFragType)
    addr = wmma_addr(kl, op.dst, op.offsets)
    kl.b.emit(ptx.WmmaStoreOp, [addr, kl.frags[op.frag]], layout=op.layout.data.value, shape=ft.shape.data, type=ft.dtype, stride=tc.matrix_strides(op.dst.type, 'wmma')[0])


def frag_regs(ft: tc.WmmaFragType) -> ptx.RegsType:
    return ptx.RegsType(ft.registers, f32 if ft.dtype == "f32" else i32)


def wmma_addr(kl: KernelLowering, mem: SSAValue, offsets: ArrayAttr[IntAttr]) -> SSAValue:
    t = mem.type
    assert isinstance(t, MemRefType)
    r0, c0 = (o.data for o in offsets.data)
    eb = tc.element_bits(t.element_type) // 8
    off = (r0 * tc.matrix_strides(t, 'wmma')[0] + c0) * eb
    base = kl.globals_[mem]
    if not off:
        return base
    return kl.b.val(ptx.AddOp, [base], i64, type="u64", imm=off)
