"""tc.smem_tile and tc.copy: tiles are placed before lowering (nothing to emit); a copy fills
its tile by the threads (a table of shared/global offsets per 16-byte chunk, so every element
lands where the tile's layout puts it) or by TMA (one box per contiguous column of atoms)."""

from __future__ import annotations


import numpy as np
from xdsl.dialects.builtin import MemRefType, i1, i16, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.layout import Major, TileLayout
from lower_tc.layout.copy_order import thread_copy_chunks
from lower_tc.layout.kernel_info import TensorMap
from lower_tc.layout.tma import TmaPlan, tma_plan
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.values import THREADS



def lower_smem_tile(kl: KernelLowering, op: tc.SmemTileOp) -> None:
    """Nothing to emit: `KernelLowering.scratch_start` placed every tile before the first op."""


def lower_copy(kl: KernelLowering, op: tc.CopyOp) -> None:
    """A tile filled by TMA or by the threads, as the op says."""
    if op.via.data is tc.CopyVia.TMA:
        copy_by_tma(kl, op)
    else:
        copy_by_threads(kl, op)


def copy_by_threads(kl: KernelLowering, op: tc.CopyOp) -> None:
    layout = kl.tiles.get(op.dst)
    if layout is None:
        error_at(op, "the tile must come from tc.smem_tile in this kernel")
    bits = layout.dtype.bits
    padded = layout.dtype.padded  # 4-/6-bit: 16 elements in 8/12 bytes, then padding
    eb = max(bits // 8, 1)
    a_role = op.operand.data is tc.Operand.A
    # global element offset of (mn, k): A is M x K, B is K x N
    s_row, s_col = tc.matrix_strides(op.src.type, "the copy's source")
    s_mn, s_k = (s_row, s_col) if a_role else (s_col, s_row)
    # every 16-byte chunk in store order (layout/copy_order.py, which the pictures draw),
    # and the global step between a chunk's elements
    order = thread_copy_chunks(layout, s_mn, s_k)
    step = s_k if layout.major is Major.K else s_mn
    g_off = order.gmem
    if padded:  # the table holds byte offsets (packed elements; verified K-contiguous): exact, so the order holds
        g_off = g_off * bits // 8
        vector = not np.any(g_off % (8 if layout.dtype.chunk_data_bytes == 8 else 4))
    else:
        # one 16-byte load per chunk where the chunk is contiguous and 16-byte aligned in
        # global memory (a leading dimension that is not a multiple of 16 bytes breaks that)
        vector = step == 1 and not np.any((g_off * eb) % 16)
    pairs = np.stack([order.smem, g_off], axis=1)
    chunks = len(pairs)
    tbl = kl.table(pairs)
    t8 = kl.b.val(ptx.MulWideOp, [kl.tid], i64, type="u32", imm=8, comment=f"{op.operand.data} copy by threads: {chunks} chunks of 16 bytes")
    tptr = kl.b.val(ptx.AddOp, [tbl, t8], i64, type="u64")
    gbase = kl.globals_[op.src]
    for j in range(-(-chunks // THREADS)):
        done = None
        if (j + 1) * THREADS > chunks:
            done = kl.b.label("copy_done")
            p = kl.b.val(ptx.SetpOp, [kl.tid], i1, cmp="ge", type="u32", imm=chunks - j * THREADS)
            kl.b.emit(ptx.BraOp, [p], label=done)
        entry = kl.b.emit(ptx.LdOp, [tptr], [i32, i32], space="global", type="u32", vec=2, offset=j * THREADS * 8)
        so, go = entry.res
        gbytes = kl.b.val(ptx.MulWideOp, [go], i64, type="u32", imm=eb)
        gaddr = kl.b.val(ptx.AddOp, [gbase, gbytes], i64, type="u64")
        if padded:
            words = load_padded_chunk(kl, gaddr, layout.dtype.chunk_data_bytes, vector)
        else:
            words = load_chunk(kl, gaddr, step * eb, bits, vector)
        saddr = kl.b.val(ptx.AddOp, [kl.smem, so], type="u32")
        kl.b.emit(ptx.StOp, [saddr, *words], space="shared", type="b32", vec=4, offset=0)
        if done:
            kl.b.emit(ptx.LabelOp, label=done)
    kl.b.emit(ptx.FenceProxyAsyncOp, comment="make the stores visible to the tensor core")
    kl.b.emit(ptx.BarSyncOp)


def load_chunk(kl: KernelLowering, gaddr: SSAValue, stride: int, bits: int, contiguous: bool) -> list[SSAValue]:
    """Four 32-bit words of one 16-byte chunk from global memory."""
    if contiguous:
        return list(kl.b.emit(ptx.LdOp, [gaddr], [i32] * 4, space="global", type="b32", vec=4, offset=0).res)
    per = 128 // bits
    if bits == 32:
        return [kl.b.val(ptx.LdOp, [gaddr], space="global", type="b32", vec=1, offset=e * stride) for e in range(4)]
    if bits == 16:
        halves = [kl.b.val(ptx.LdOp, [gaddr], i16, space="global", type="b16", vec=1, offset=e * stride) for e in range(per)]
        return [kl.b.val(ptx.PackOp, [halves[2 * w], halves[2 * w + 1]]) for w in range(4)]
    return gather_bytes(kl, gaddr, 4, stride)


def gather_bytes(kl: KernelLowering, gaddr: SSAValue, words: int, stride: int) -> list[SSAValue]:
    """`words` 32-bit words assembled from bytes `stride` apart (little-endian)."""
    out = []
    for w in range(words):
        acc = None
        for b in range(4):
            byte = kl.b.val(ptx.LdOp, [gaddr], space="global", type="u8", vec=1, offset=(4 * w + b) * stride)
            if b:
                byte = kl.b.val(ptx.ShlOp, [byte], type="b32", imm=8 * b)
                acc = kl.b.val(ptx.OrOp, [acc, byte], type="b32")
            else:
                acc = byte
        out.append(acc)
    return out


def load_padded_chunk(kl: KernelLowering, gaddr: SSAValue, data_bytes: int, aligned: bool) -> list[SSAValue]:
    """A padded chunk: 16 packed 4-bit (8 bytes) or 6-bit (12 bytes) elements from
    global memory, then zeros to 16 bytes (what kind::f8f6f4 reads; PTX ISA tcgen05
    packing formats in shared memory)."""
    words = data_bytes // 4
    if aligned and words == 2:
        data = list(kl.b.emit(ptx.LdOp, [gaddr], [i32] * 2, space="global", type="b32", vec=2, offset=0).res)
    elif aligned:  # 12 bytes, 4-byte aligned: three words (there is no .v3)
        data = [kl.b.val(ptx.LdOp, [gaddr], space="global", type="b32", vec=1, offset=4 * w) for w in range(words)]
    else:
        data = gather_bytes(kl, gaddr, words, 1)
    zero = kl.imm32(0)
    return [*data] + [zero] * (4 - words)


def tensor_map(
    param: str, arg: int, layout: TileLayout, plan: TmaPlan,
    global_dims: list[int] | None, global_strides: list[int] | None,
) -> TensorMap:
    """A TMA tensor map's entry in the kernel metadata, for the host's
    cuTensorMapEncodeTiled: global dimensions contiguous first, strides in bytes (None:
    filled in at launch from sizes known only then), the box and the swizzle."""
    return TensorMap(
        param=param,
        arg=arg,
        dtype=layout.dtype.name,
        box=tuple(plan.box),
        swizzle=layout.swizzle.value,
        tma_swizzle_code=layout.swizzle.tma_code,
        global_dims=tuple(global_dims) if global_dims is not None else None,
        global_strides=tuple(global_strides) if global_strides is not None else None,
    )


def copy_by_tma(kl: KernelLowering, op: tc.CopyOp) -> None:
    layout = kl.tiles.get(op.dst)
    if layout is None:
        error_at(op, "the tile must come from tc.smem_tile in this kernel")
    src_t = op.src.type
    assert isinstance(src_t, MemRefType)
    rows, cols = src_t.get_shape()
    s_row, s_col = tc.matrix_strides(src_t, "the copy's source")
    # TMA's dimension 0 is the contiguous one (checked by the verifier to be the tile's)
    global_dims, ld = ([cols, rows], s_row) if s_col == 1 else ([rows, cols], s_col)
    plan = tma_plan(layout)
    inner, box_rows = plan.box
    swz = layout.swizzle
    param = f"tmap_{len(kl.tma_params)}"
    kl.tma_params.append(param)
    arg_index = list(tc.kernel_body(kl.kernel).args).index(op.src)  # type: ignore[arg-type]
    kl.tensor_maps.append(tensor_map(param, arg_index, layout, plan, global_dims, [ld * layout.dtype.bits // 8]))
    total = plan.bytes
    boxes = plan.boxes
    mbar = kl.alloc_scratch(8)
    tmap = kl.b.val(ptx.ParamAddrOp, result=i64, param=param, comment=f"{op.operand.data} copy by TMA: {len(boxes)} boxes of {inner}x{box_rows}, swizzle {swz}")
    inited = kl.b.label("mbarrier_ready")
    kl.b.emit(ptx.BraOp, [kl.is_thread0], label=inited, negate=1)
    kl.b.emit(ptx.MbarrierInitOp, [kl.smem], offset=mbar, count=1)
    kl.b.emit(ptx.FenceMbarrierInitOp)
    kl.b.emit(ptx.LabelOp, label=inited)
    kl.b.emit(ptx.BarSyncOp)  # every thread sees the initialised barrier before waiting on it
    skip = kl.b.label("tma_issued")
    kl.b.emit(ptx.BraOp, [kl.is_thread0], label=skip, negate=1)
    kl.b.emit(ptx.MbarrierArriveExpectTxOp, [kl.smem], offset=mbar, bytes=total)
    for box in boxes:
        kl.b.emit(ptx.CpAsyncBulkTensorOp, [kl.smem, tmap, kl.smem], offset=layout.address + box.smem_offset, mbar_offset=mbar, c0=box.inner, c1=box.outer)
    kl.b.emit(ptx.LabelOp, label=skip)
    kl.wait(mbar, 0)
    kl.b.emit(ptx.BarSyncOp)
