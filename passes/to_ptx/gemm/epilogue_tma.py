"""The GEMM epilogue through shared memory: each consumer warpgroup converts its 64 x BN
accumulator to D's 16-bit type, `stmatrix`es it 64 columns at a time into a staging
piece (layout/epilogue.py) and has one thread store the piece with a TMA store.

Per piece q (buffer q mod 2 of the warpgroup):
    issuing thread: cp.async.bulk.wait_group.read 1   (piece q-2's store has read it)
    bar.sync (the warpgroup's named barrier, 128 threads)
    four stmatrix.x4 per thread; fence.proxy.async.shared::cta
    bar.sync (the same)
    issuing thread: TMA store of the piece at (n0 + 64q, m0 + 64 wg); commit_group

The stores are asynchronous: the warpgroup moves on (in a persistent kernel, to the next
tile's MMAs) while TMA writes D, and TMA clips every box at D's edge, so ragged tiles need
no guards. The issuing threads wait for their stores before the kernel exits. Where BN
is not a multiple of 64, the last columns go in pieces of 32 and 16 (layout/epilogue.py
`piece_widths`), each width with a tensor map of its own box and swizzle.

A column-major D (swap-AB's D^T = B^T A^T, stored into D) is staged transposed: the
warpgroup's 64 fragment rows are 64 contiguous columns of D, so a piece is 64 (32, 16) of
D's rows (the fragment's columns) by those 64 columns, 128-byte rows with the 128-byte
swizzle, filled by stmatrix.x4.trans (layout/epilogue.py `stmatrix_trans_offset`) and
stored by a TMA box of 64 x rows at (m0 + 64 wg, n0 + first column): the pieces and the
waits are the same, only the addresses, the instruction and the box's axes differ.

This replaces the register epilogue (gemm_epilogue.py) where `epilogue_problem` finds
nothing against it: D of 16 bits with its sizes known, its leading dimension and its
contiguous extent a multiple of 16 bytes, no C, BN a multiple of 16, and room in shared
memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from xdsl.dialects.builtin import Float32Type, i1, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.layout.epilogue import (
    BUFFERS,
    PIECE_ALIGN,
    PIECE_BYTES,
    PIECE_COLS,
    PIECE_QUANTUM,
    PIECE_ROWS,
    piece_layout,
    piece_widths,
    staging_bytes,
    swizzle_mask,
    swizzle_shift,
    tma_store_problem,
    transposed_piece_layout,
)
from lower_tc.layout.limits import SMEM_CAPACITY
from lower_tc.layout.kernel_info import TensorMap
from lower_tc.layout.tma import tma_plan
from lower_tc.passes.to_ptx.copies import tensor_map
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.global_store import output_types
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, find_store

F32 = Float32Type()
#: The first named barrier of the consumer warpgroups (0 is the CTA's bar.sync).
FIRST_NAMED_BARRIER = 1


@dataclass
class TmaStore:
    """The TMA-store epilogue of a kernel: where its staging pieces start in shared
    memory, D's tensor-map parameter per piece width, and (once bound) the maps' addresses."""

    staging: int
    params: dict[int, str]
    tmaps: dict[int, SSAValue] = field(default_factory=dict)

    def bind_tensor_map(self, k: GemmKernel) -> None:
        for cols, param in self.params.items():
            wide = "" if cols == PIECE_COLS else f" {cols} columns wide"
            self.tmaps[cols] = k.b.val(ptx.ParamAddrOp, result=i64, param=param, comment=f"D by TMA stores of staged pieces{wide}")


def choose_epilogue(k: GemmKernel, loop: KLoop, warpgroups: int, wgmma: bool) -> TmaStore | None:
    """The TMA-store epilogue wherever it applies, unless the kernel's schedule says
    epilogue = registers; with tma, a reason against is an error at the store. Its staging
    pieces go after what shared memory holds so far, on a 1024-byte boundary."""
    asked = k.options.epilogue
    if asked == "registers":
        return None
    store = find_store(k.kernel)
    if store is None:
        return None
    if not wgmma:
        problem: str | None = "the tcgen05 GEMM stores D from tensor memory through registers"
    else:
        problem = epilogue_problem(k, loop, store)
    start = -(-k.memory.end // PIECE_ALIGN) * PIECE_ALIGN
    end = start + staging_bytes(warpgroups)
    if problem is None and end > SMEM_CAPACITY:
        problem = f"the stages leave {SMEM_CAPACITY - start} bytes of shared memory and the staging pieces need {end - start}"
    if problem is not None:
        if asked == "tma":
            error_at(store, f"the TMA-store epilogue cannot store this D: {problem}")
        return None
    k.memory.take(end - start, PIECE_ALIGN)
    params = {}
    for cols in sorted(set(piece_widths(loop.acc_type.n)), reverse=True):
        params[cols] = f"tmap_{len(loop.loads)}" + ("" if cols == PIECE_COLS else f"_{cols}")
        k.tensor_maps.append(tma_store_map(k, store, params[cols], cols))
    return TmaStore(start, params)


def epilogue_problem(k: GemmKernel, loop: KLoop, op: WindowStoreOp) -> str | None:
    """Why the TMA-store epilogue cannot store this window (one line), or None
    (layout/epilogue.py `tma_store_problem`)."""
    d = k.args.geometry[op.dst]
    return tma_store_problem(tc.dtype_name(op.dst.type.element_type), loop.acc_type.dtype,  # type: ignore[union-attr]
                             with_c=op.c is not None, row_major=d.row_major, rows=d.rows, cols=d.cols, ld=d.ld,
                             batch=d.batch if d.batched else 1, batch_stride=d.batch_stride, bn=loop.acc_type.n)


def tma_store_map(k: GemmKernel, op: WindowStoreOp, param: str, cols: int = PIECE_COLS) -> TensorMap:
    """D's tensor map for pieces of `cols` of the fragment's columns: dimension 0 along a
    row of D (N; a column-major D's rows, the fragment's rows, are along its columns), box =
    one piece, swizzled as wide as its rows; a batch of matrices (more than one) is its
    dimension 2, one matrix per box."""
    d = k.args.geometry[op.dst]
    dtype = tc.dtype_name(op.dst.type.element_type)  # type: ignore[union-attr]
    layout = piece_layout(dtype, cols=cols) if d.row_major else transposed_piece_layout(dtype, cols)
    dims = [d.cols, d.rows] if d.row_major else [d.rows, d.cols]
    arg = k.args.index(op.dst)
    if not batched_store(k, op):
        return tensor_map(param, arg, layout, tma_plan(layout), dims, [d.ld * 2])  # type: ignore[list-item, operator]
    entry = tensor_map(param, arg, layout, tma_plan(layout), [*dims, d.batch], [d.ld * 2, d.batch_stride * 2])  # type: ignore[list-item, operator]
    return replace(entry, box=(*entry.box, 1))


def batched_store(k: GemmKernel, op: WindowStoreOp) -> bool:
    """The store names a matrix of a batch of more than one (a batch of 1 is one matrix)."""
    return op.batch is not None and k.args.geometry[op.dst].batch != 1


def store_pieces(k: GemmKernel, op: WindowStoreOp, store: TmaStore, acc: SSAValue, acc_t: tc.AccType, wg: SSAValue) -> None:
    """Warpgroup `wg` (of the consumers) stores its fragment `acc` (module docstring)."""
    g = k.b
    staging = store.staging
    assert store.tmaps, "bind_tensor_map first"
    d_dtype, _ = output_types(op)
    widths = piece_widths(acc_t.n)
    m0, n0 = k.index.reg(op.row, op), k.index.reg(op.col, op)
    transposed = not k.args.geometry[op.dst].row_major  # swap-AB's D^T
    pieces = (f"{PIECE_ROWS}x{PIECE_COLS} pieces" if set(widths) == {PIECE_COLS}
              else f"{PIECE_ROWS}-row pieces {'+'.join(map(str, widths))} columns wide")
    if transposed:
        pieces = f"transposed pieces (stmatrix.trans) of {'+'.join(map(str, widths))} rows of D by {PIECE_COLS} columns"
    in_wg = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=127,
                  comment=f"epilogue: {acc_t.m}x{acc_t.n}x{acc_t.dtype} into D ({d_dtype}) by stmatrix and TMA stores of {pieces}")
    warp = g.val(ptx.ShrOp, [in_wg], type="u32", imm=5)
    lane = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=31)
    # this warpgroup's pieces, and the row this lane addresses (layout/epilogue.py)
    wg_pieces = g.val(ptx.MulLoOp, [wg], type="u32", imm=BUFFERS * PIECE_BYTES)
    wg_pieces = g.val(ptx.AddOp, [wg_pieces, k.regs.smem], type="u32")
    if not transposed:
        row = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=15)
        row = g.val(ptx.AddOp, [g.val(ptx.ShlOp, [warp], type="b32", imm=4), row], type="u32")

    def piece_addresses(cols: int) -> list[SSAValue]:
        """The lane's stmatrix addresses in a `cols`-wide piece (layout/epilogue.py
        `stmatrix_offset`), relative to the piece."""
        shift = swizzle_shift(cols)
        row_addr = g.val(ptx.AddOp, [g.val(ptx.ShlOp, [row], type="b32", imm=shift), wg_pieces], type="u32")
        half = g.val(ptx.ShrOp, [lane], type="u32", imm=4)
        # the 64-column piece's XOR is row mod 8 = tid mod 8; the narrower ones' take higher row bits
        source = k.regs.tid if shift == 7 else g.val(ptx.ShrOp, [row], type="u32", imm=7 - shift)
        phase = g.val(ptx.XorOp, [half, g.val(ptx.AndOp, [source], type="b32", imm=swizzle_mask(cols))], type="b32")
        addrs = []
        for j in range(cols // PIECE_QUANTUM):  # one stmatrix.x4 a 16 columns
            chunk = g.val(ptx.XorOp, [phase], type="b32", imm=2 * j) if j else phase
            addrs.append(g.val(ptx.AddOp, [row_addr, g.val(ptx.ShlOp, [chunk], type="b32", imm=4)], type="u32"))
        return addrs

    def transposed_address() -> SSAValue:
        """The lane's stmatrix.trans address in a transposed piece's first 16 rows
        (layout/epilogue.py `stmatrix_trans_offset`); the j-th 16 rows are 2048 j on."""
        r = g.val(ptx.AndOp, [lane], type="b32", imm=7)
        rows = g.val(ptx.OrOp, [g.val(ptx.ShlOp, [r], type="b32", imm=7),
                                g.val(ptx.ShlOp, [g.val(ptx.AndOp, [lane], type="b32", imm=16)], type="b32", imm=6)], type="b32")
        chunk = g.val(ptx.OrOp, [g.val(ptx.ShlOp, [warp], type="b32", imm=1),
                                 g.val(ptx.AndOp, [g.val(ptx.ShrOp, [lane], type="u32", imm=3)], type="b32", imm=1)], type="b32")
        chunk = g.val(ptx.XorOp, [chunk, r], type="b32")
        return g.val(ptx.AddOp, [g.val(ptx.AddOp, [rows, g.val(ptx.ShlOp, [chunk], type="b32", imm=4)], type="u32"), wg_pieces], type="u32")

    if transposed:  # one address: the j-th stmatrix adds 2048 j as its offset
        base = transposed_address()
        addresses = {cols: [base] * (cols // PIECE_QUANTUM) for cols in store.params}
    else:
        addresses = {cols: piece_addresses(cols) for cols in store.params}  # the widths its maps are for, widest first
    issuer = g.val(ptx.SetpOp, [in_wg], i1, cmp="eq", type="u32", imm=0)
    bar_id = g.val(ptx.AddOp, [wg], type="u32", imm=FIRST_NAMED_BARRIER)
    row0 = g.val(ptx.AddOp, [g.val(ptx.ShlOp, [wg], type="b32", imm=6), m0], type="s32")
    batch: list[SSAValue] = []
    dims: dict[str, int] = {}
    if batched_store(k, op):
        assert op.batch is not None
        batch, dims = [k.index.reg(op.batch, op)], {"dims": 3}

    def packed(i: int, h: int) -> SSAValue:
        """Row h (0: rows g, 1: g + 8) of 8-column block i as two 16-bit elements."""
        if acc_t.dtype == "f16":
            return g.val(ptx.RegOfOp, [acc], i32, regs=2 * i + h)
        lo = g.val(ptx.RegOfOp, [acc], F32, regs=4 * i + 2 * h)
        hi = g.val(ptx.RegOfOp, [acc], F32, regs=4 * i + 2 * h + 1)
        return g.val(ptx.CvtOp, [hi, lo], i32, type=f"rn.{d_dtype}x2.f32")

    first_col = 0
    for q, cols in enumerate(widths):
        offset = staging + (q % BUFFERS) * PIECE_BYTES
        skip = g.if_(issuer, "piece_free")
        # pieces restart at buffer 0 on every tile: after an odd number of pieces the last
        # store still pending read buffer 0 too, so a tile's first piece waits for them all
        pending = 0 if q == 0 and len(widths) % BUFFERS else BUFFERS - 1
        g.emit(ptx.CpAsyncBulkWaitGroupOp, pending=pending, read=1, comment=f"piece {q}: its buffer's last store has read it")
        g.emit(ptx.LabelOp, label=skip)
        g.emit(ptx.BarSyncOp, [bar_id], count=128)
        for j, addr in enumerate(addresses[cols]):
            i = first_col // 8 + 2 * j
            regs = [packed(i, 0), packed(i, 1), packed(i + 1, 0), packed(i + 1, 1)]
            if transposed:  # the j-th 16 rows of the piece: 2048 bytes on
                g.emit(ptx.StmatrixOp, [addr, *regs], offset=offset + 2048 * j, trans=1)
            else:
                g.emit(ptx.StmatrixOp, [addr, *regs], offset=offset)
        g.emit(ptx.FenceProxyAsyncOp)
        g.emit(ptx.BarSyncOp, [bar_id], count=128)
        skip = g.if_(issuer, "piece_stored")
        col = g.add_imm(n0, first_col)
        coords = [row0, col] if transposed else [col, row0]  # dimension 0 is along D's rows
        g.emit(ptx.CpAsyncBulkTensorStoreOp, [store.tmaps[cols], *coords, *batch, wg_pieces], offset=offset, **dims)
        g.emit(ptx.CpAsyncBulkCommitGroupOp)
        g.emit(ptx.LabelOp, label=skip)
        first_col += cols


def wait_for_stores(k: GemmKernel) -> None:
    """Each warpgroup's issuing thread: its TMA stores are done before the CTA exits."""
    g = k.b
    in_wg = g.val(ptx.AndOp, [k.regs.tid], type="b32", imm=127)
    issuer = g.val(ptx.SetpOp, [in_wg], i1, cmp="eq", type="u32", imm=0)
    skip = g.if_(issuer, "stores_done")
    g.emit(ptx.CpAsyncBulkWaitGroupOp, pending=0, read=0, comment="the TMA stores of D are complete")
    g.emit(ptx.LabelOp, label=skip)
