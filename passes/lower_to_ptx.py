"""tc-lower-to-ptx: rewrites each tc kernel into a `ptx.kernel` of PTX-level ops.

The kernel runs one warpgroup (128 threads; 32 when it holds only WMMA ops).
Everything the layout decides is computed here at compile time, by the
layout core: thread copies read a table of (shared offset, global element
offset) per 16-byte chunk, so every element lands at the address the tile's
layout gives; TMA copies get one box per contiguous column of atoms; the
wgmma register fragment of A comes from a table of shared offsets per
thread. Accumulators follow the PTX ISA register-fragment layouts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    Float32Type,
    IntAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnregisteredOp,
    i1,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx
from lower_tc.dialects import tc
from lower_tc.layout import LayoutError, Major, Swizzle, TileLayout, element_type
from lower_tc.layout.descriptor import INSTRUCTION_K_BYTES
from lower_tc.lowering.ptx_printer import TARGET_ATTR as PTX_TARGET_ATTR
from lower_tc.lowering.ptx_printer import VERSION_ATTR as PTX_VERSION_ATTR
from lower_tc.passes.diagnostics import error_at
from lower_tc.passes.gemm_to_ptx import GemmLowering, is_gemm_kernel

f32 = Float32Type()
THREADS = 128


@dataclass
class Acc:
    """An accumulator being lowered: where it lives and how it starts."""

    type: tc.AccType
    init: str  # "zero" or "load"
    source: SSAValue | None = None  # the C memref for "load"
    regs: SSAValue | None = None  # wgmma register run
    tmem: "Tmem | None" = None  # tcgen05 tensor-memory accumulator
    origin: SSAValue | None = None  # the tc.acc_zero / tc.acc_load result that made it


@dataclass
class TmemAlloc:
    """The kernel's one tensor-memory allocation. A CTA may not tcgen05.alloc again after
    relinquish_alloc_permit (PTX ISA), so every accumulator and A get columns of it."""

    address: SSAValue  # lane 0, column 0
    columns: int
    mbar_offset: int  # the mbarrier every tcgen05.commit arrives on
    a_column: int  # where A from tensor memory goes
    phase: int = 0  # of that mbarrier
    synced: bool = True  # no thread has ld/st tensor memory since the last thread sync


@dataclass
class Tmem:
    """One tcgen05 accumulator: its columns of the allocation, rows laid out for M = `rows`
    (64: layout F, 128: layout D)."""

    alloc: TmemAlloc
    address: SSAValue  # lane 0 of its first column
    rows: int
    written: bool = False


@dataclass
class KernelLowering:
    """Builds one ptx.kernel from one tc kernel function."""

    kernel: Operation  # func.func, gpu.func, ...: see tc.tc_kernels
    module_tables: list[ptx.TableOp]
    table_prefix: str
    ops: list[ptx.PtxOp] = field(default_factory=list)
    labels: int = 0
    accs: dict[SSAValue, Acc] = field(default_factory=dict)
    tiles: dict[SSAValue, TileLayout] = field(default_factory=dict)
    globals_: dict[SSAValue, SSAValue] = field(default_factory=dict)
    tensor_maps: list[dict[str, object]] = field(default_factory=list)
    tma_params: list[str] = field(default_factory=list)
    scratch: int = 0
    tmem_alloc: TmemAlloc | None = None  # tcgen05: the one allocation
    tmem_columns: dict[SSAValue, int] = field(default_factory=dict)  # accumulator -> first column
    frags: dict[SSAValue, SSAValue] = field(default_factory=dict)  # WMMA fragment -> registers

    # -- emission helpers -------------------------------------------------------------

    def emit(self, cls: type[ptx.PtxOp], args=(), results=(), **props) -> ptx.PtxOp:
        op = ptx.build(cls, list(args), list(results), **props)
        self.ops.append(op)
        return op

    def val(self, cls: type[ptx.PtxOp], args=(), result: Attribute = i32, **props) -> SSAValue:
        return self.emit(cls, args, [result], **props).res[0]

    def label(self, stem: str) -> str:
        self.labels += 1
        return f"$L_{stem}_{self.labels}"

    def table(self, values: np.ndarray) -> SSAValue:
        name = f"{self.table_prefix}_{len(self.module_tables)}"
        self.module_tables.append(
            ptx.TableOp.build(properties={
                "sym_name": StringAttr(name),
                "values": DenseArrayBase.from_list(i32, [int(v) for v in values.ravel()]),
            })
        )
        return self.val(ptx.SymAddrOp, result=i64, type="u64", symbol=name)

    def imm32(self, value: int) -> SSAValue:
        return self.val(ptx.MovImmOp, type="u32", value=value)

    # -- the kernel -------------------------------------------------------------------

    def run(self) -> ptx.KernelOp:
        k = self.kernel
        block = tc.kernel_body(k)
        body_ops = list(block.ops)
        for op in body_ops:
            if op.regions:
                error_at(op, f"'{op.name}' with regions is not lowered yet: keep the tile program flat")
        wmma_only = all(
            not isinstance(op, tc.SmemTileOp | tc.CopyOp | tc.WgmmaOp | tc.Tcgen05MmaOp | tc.AccStoreOp)
            for op in body_ops
        )
        threads = 32 if wmma_only else THREADS
        self.scratch = self._scratch_start(body_ops)
        self._prologue(block)
        for op in body_ops:
            first = len(self.ops)
            self._lower(op)
            for new in self.ops[first:]:
                new.location = op.location  # the printer cites it; ptxas errors map back to it
        self._epilogue()
        params = [f".param .u64 {self.param_name(a)}" for a in block.args]
        params += [f".param .align 64 .b8 {name}[128]" for name in self.tma_params]
        smem_bytes = -(-self.scratch // 16) * 16
        if smem_bytes > tc.SMEM_CAPACITY:
            error_at(k, f"the kernel needs {smem_bytes} bytes of shared memory, beyond 227 KiB")
        info = {
            "name": tc.kernel_name(k),
            "target": self.arch,
            "threads": threads,
            "smem_bytes": smem_bytes,
            "args": [self._arg_info(a) for a in block.args],
            "tensor_maps": self.tensor_maps,
        }
        kernel = ptx.KernelOp.build(
            properties={
                "sym_name": StringAttr(tc.kernel_name(k)),
                "params": ArrayAttr([StringAttr(p) for p in params]),
                "threads": IntAttr(threads),
                "smem_bytes": IntAttr(smem_bytes),
                "info": StringAttr(json.dumps(info, sort_keys=True)),
            },
            regions=[Region(Block(self.ops))],
        )
        kernel.location = k.location
        return kernel

    @property
    def arch(self) -> str:
        attr = self.kernel.attributes[tc.TARGET_ATTR]
        assert isinstance(attr, StringAttr)
        return attr.data

    @staticmethod
    def param_name(arg: SSAValue) -> str:
        hint = re.sub(r"[^A-Za-z0-9_]", "_", arg.name_hint or "")
        return f"p_{hint}" if hint else f"p_arg{arg.index}"  # type: ignore[attr-defined]

    def _arg_info(self, arg: SSAValue) -> dict[str, object]:
        t = arg.type
        if not isinstance(t, MemRefType):
            error_at(self.kernel, f"kernel argument {self.param_name(arg)} must be a memref")
        written = any(
            isinstance(use.operation, tc.AccStoreOp | tc.WmmaStoreOp) for use in arg.uses
        )
        try:
            strides = tc.matrix_strides(t, f"kernel argument {self.param_name(arg)}")
        except VerifyException as err:
            error_at(self.kernel, str(err))
        try:
            dtype = tc.dtype_name(t.element_type)
        except VerifyException as err:
            error_at(self.kernel, f"kernel argument {self.param_name(arg)}: {err}")
        return {
            "param": self.param_name(arg),
            "shape": list(t.get_shape()),
            "strides": list(strides),
            "dtype": dtype,
            "output": written,
        }

    def _scratch_start(self, body_ops: list[Operation]) -> int:
        end = 0
        for op in body_ops:
            if isinstance(op, tc.SmemTileOp):
                t = op.tile.type
                assert isinstance(t, tc.TileType)
                if t.layout.is_auto or not t.layout.has_offset:
                    error_at(op, "run tc-choose-swizzle and tc-assign-smem before tc-lower-to-ptx")
                layout = self._layout(op, t)
                self.tiles[op.tile] = layout
                end = max(end, layout.address + layout.footprint)
        return -(-end // 16) * 16

    def _scratch(self, size: int, align: int = 8) -> int:
        self.scratch = -(-self.scratch // align) * align
        offset = self.scratch
        self.scratch += size
        return offset

    @staticmethod
    def _layout(op: Operation, t: tc.TileType) -> TileLayout:
        try:
            return t.tile_layout()
        except LayoutError as err:
            error_at(op, str(err))

    def _prologue(self, block: Block) -> None:
        self.tid = self.val(ptx.SregOp, sreg="tid.x", comment="prologue")
        self.smem = self.val(ptx.SymAddrOp, type="u32", symbol="smem")
        shifted = self.val(ptx.ShrOp, [self.smem], type="u32", imm=4)
        self.smem16 = self.val(ptx.CvtOp, [shifted], i64, type="u64.u32")
        for arg in block.args:
            raw = self.val(ptx.LdParamOp, result=i64, type="u64", param=self.param_name(arg))
            self.globals_[arg] = self.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64")
        self.is_thread0 = self.val(ptx.SetpOp, [self.tid], i1, cmp="eq", type="u32", imm=0)
        lane_warp = self.val(ptx.ShrOp, [self.tid], type="u32", imm=5)
        self.warp = lane_warp
        self.is_warp0 = self.val(ptx.SetpOp, [lane_warp], i1, cmp="eq", type="u32", imm=0)

    def _epilogue(self) -> None:
        alloc = self.tmem_alloc
        if alloc is not None:
            self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory")
            self.emit(ptx.BarSyncOp)
            skip = self.label("no_dealloc")
            self.emit(ptx.BraOp, [self.is_warp0], label=skip, negate=1)
            self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
            self.emit(ptx.Tcgen05DeallocOp, [alloc.address], columns=alloc.columns)
            self.emit(ptx.LabelOp, label=skip)
        self.emit(ptx.RetOp)

    # -- dispatch ---------------------------------------------------------------------

    def _lower(self, op: Operation) -> None:
        if isinstance(op, tc.SmemTileOp):
            return
        if isinstance(op, tc.CopyOp):
            if op.via.data is tc.CopyVia.TMA:
                self._copy_tma(op)
            else:
                self._copy_threads(op)
            return
        if isinstance(op, tc.AccZeroOp):
            assert isinstance(op.acc.type, tc.AccType)
            self.accs[op.acc] = Acc(op.acc.type, "zero", origin=op.acc)
            return
        if isinstance(op, tc.AccLoadOp):
            assert isinstance(op.acc.type, tc.AccType)
            self.accs[op.acc] = Acc(op.acc.type, "load", op.src, origin=op.acc)
            return
        if isinstance(op, tc.WgmmaOp):
            self._wgmma(op)
            return
        if isinstance(op, tc.Tcgen05MmaOp):
            self._tcgen05(op)
            return
        if isinstance(op, tc.AccStoreOp):
            self._acc_store(op)
            return
        if isinstance(op, tc.WmmaLoadOp | tc.WmmaZeroOp | tc.WmmaMmaOp | tc.WmmaStoreOp):
            self._wmma(op)
            return
        if op.has_trait(IsTerminator, value_if_unregistered=False):  # func.return, gpu.return
            return
        name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        error_at(op, f"'{name}' cannot be lowered to PTX")

    # -- copies -----------------------------------------------------------------------

    def _copy_threads(self, op: tc.CopyOp) -> None:
        layout = self.tiles.get(op.dst)
        if layout is None:
            error_at(op, "the tile must come from tc.smem_tile in this kernel")
        bits = layout.dtype.bits
        padded = layout.dtype.padded  # 4-/6-bit: 16 elements in 8/12 bytes, then padding
        per = layout.dtype.per_chunk
        eb = max(bits // 8, 1)
        a_role = op.operand.data is tc.Operand.A
        # global element offset of (mn, k): A is M x K, B is K x N
        s_row, s_col = tc.matrix_strides(op.src.type, "the copy's source")
        s_mn, s_k = (s_row, s_col) if a_role else (s_col, s_row)
        # first element (mn, k) of every 16-byte chunk, and the global step between its elements
        if layout.major is Major.K:
            mn, k = np.meshgrid(np.arange(layout.mn), np.arange(0, layout.k, per), indexing="ij")
            step = s_k
        else:
            mn, k = np.meshgrid(np.arange(0, layout.mn, per), np.arange(layout.k), indexing="ij")
            step = s_mn
        mn, k = mn.ravel(), k.ravel()
        smem_off = layout.addresses(mn, k)
        g_off = mn * s_mn + k * s_k
        if padded:  # the table holds byte offsets (packed elements; verified K-contiguous)
            g_off = g_off * bits // 8
            vector = not np.any(g_off % (8 if layout.dtype.chunk_data_bytes == 8 else 4))
        else:
            # one 16-byte load per chunk where the chunk is contiguous and 16-byte aligned in
            # global memory (a leading dimension that is not a multiple of 16 bytes breaks that)
            vector = step == 1 and not np.any((g_off * eb) % 16)
        order = np.argsort(g_off, kind="stable")
        pairs = np.stack([smem_off[order], g_off[order]], axis=1)
        chunks = len(pairs)
        tbl = self.table(pairs)
        t8 = self.val(ptx.MulWideOp, [self.tid], i64, type="u32", imm=8, comment=f"{op.operand.data} copy by threads: {chunks} chunks of 16 bytes")
        tptr = self.val(ptx.AddOp, [tbl, t8], i64, type="u64")
        gbase = self.globals_[op.src]
        for j in range(-(-chunks // THREADS)):
            done = None
            if (j + 1) * THREADS > chunks:
                done = self.label("copy_done")
                p = self.val(ptx.SetpOp, [self.tid], i1, cmp="ge", type="u32", imm=chunks - j * THREADS)
                self.emit(ptx.BraOp, [p], label=done)
            entry = self.emit(ptx.LdOp, [tptr], [i32, i32], space="global", type="u32", vec=2, offset=j * THREADS * 8)
            so, go = entry.res
            gbytes = self.val(ptx.MulWideOp, [go], i64, type="u32", imm=eb)
            gaddr = self.val(ptx.AddOp, [gbase, gbytes], i64, type="u64")
            if padded:
                words = self._load_padded_chunk(gaddr, layout.dtype.chunk_data_bytes, vector)
            else:
                words = self._load_chunk(gaddr, step * eb, bits, vector)
            saddr = self.val(ptx.AddOp, [self.smem, so], type="u32")
            self.emit(ptx.StOp, [saddr, *words], space="shared", type="b32", vec=4, offset=0)
            if done:
                self.emit(ptx.LabelOp, label=done)
        self.emit(ptx.FenceProxyAsyncOp, comment="make the stores visible to the tensor core")
        self.emit(ptx.BarSyncOp)

    def _load_chunk(self, gaddr: SSAValue, stride: int, bits: int, contiguous: bool) -> list[SSAValue]:
        """Four 32-bit words of one 16-byte chunk from global memory."""
        if contiguous:
            return list(self.emit(ptx.LdOp, [gaddr], [i32] * 4, space="global", type="b32", vec=4, offset=0).res)
        per = 128 // bits
        if bits == 32:
            return [self.val(ptx.LdOp, [gaddr], space="global", type="b32", vec=1, offset=e * stride) for e in range(4)]
        if bits == 16:
            halves = [self.val(ptx.LdOp, [gaddr], i16, space="global", type="b16", vec=1, offset=e * stride) for e in range(per)]
            return [self.val(ptx.PackOp, [halves[2 * w], halves[2 * w + 1]]) for w in range(4)]
        return self._gather_bytes(gaddr, 4, stride)

    def _gather_bytes(self, gaddr: SSAValue, words: int, stride: int) -> list[SSAValue]:
        """`words` 32-bit words assembled from bytes `stride` apart (little-endian)."""
        out = []
        for w in range(words):
            acc = None
            for b in range(4):
                byte = self.val(ptx.LdOp, [gaddr], space="global", type="u8", vec=1, offset=(4 * w + b) * stride)
                if b:
                    byte = self.val(ptx.ShlOp, [byte], type="b32", imm=8 * b)
                    acc = self.val(ptx.OrOp, [acc, byte], type="b32")
                else:
                    acc = byte
            out.append(acc)
        return out

    def _load_padded_chunk(self, gaddr: SSAValue, data_bytes: int, aligned: bool) -> list[SSAValue]:
        """A padded chunk: 16 packed 4-bit (8 bytes) or 6-bit (12 bytes) elements from
        global memory, then zeros to 16 bytes (what kind::f8f6f4 reads; PTX ISA tcgen05
        packing formats in shared memory)."""
        words = data_bytes // 4
        if aligned and words == 2:
            data = list(self.emit(ptx.LdOp, [gaddr], [i32] * 2, space="global", type="b32", vec=2, offset=0).res)
        elif aligned:  # 12 bytes, 4-byte aligned: three words (there is no .v3)
            data = [self.val(ptx.LdOp, [gaddr], space="global", type="b32", vec=1, offset=4 * w) for w in range(words)]
        else:
            data = self._gather_bytes(gaddr, words, 1)
        zero = self.imm32(0)
        return [*data] + [zero] * (4 - words)

    def _copy_tma(self, op: tc.CopyOp) -> None:
        layout = self.tiles.get(op.dst)
        if layout is None:
            error_at(op, "the tile must come from tc.smem_tile in this kernel")
        src_t = op.src.type
        assert isinstance(src_t, MemRefType)
        rows, cols = src_t.get_shape()
        s_row, s_col = tc.matrix_strides(src_t, "the copy's source")
        # TMA's dimension 0 is the contiguous one (checked by the verifier to be the tile's)
        global_dims, ld = ([cols, rows], s_row) if s_col == 1 else ([rows, cols], s_col)
        eb_bits = layout.dtype.bits
        a_mn, a_k = layout.atom_shape
        s_mn, s_k = layout.strides
        n_mn, n_k = layout.atoms
        # The tile's contiguous dim is the global inner dim (checked by the verifier).
        if layout.major is Major.K:
            inner, outer_atoms, inner_atoms = a_k, n_mn, n_k
            s_outer, s_inner = s_mn, s_k
        else:
            inner, outer_atoms, inner_atoms = a_mn, n_k, n_mn
            s_outer, s_inner = s_k, s_mn
        # rows of an atom along the outer dimension: 8 (4 for 128b_base32b's K rows)
        atom_rows = a_mn if layout.major is Major.K else a_k
        run = outer_atoms if s_outer == layout.atom_bytes else 1
        run = max(r for r in range(1, min(run, 256 // atom_rows) + 1) if outer_atoms % r == 0)
        box_rows = atom_rows * run
        boxes = []
        for i in range(inner_atoms):
            for o in range(0, outer_atoms, run):
                dst = layout.address + i * s_inner + o * s_outer
                boxes.append((dst, i * inner, atom_rows * o))  # (smem offset, inner coord, outer coord)
        swz = layout.swizzle
        param = f"tmap_{len(self.tma_params)}"
        self.tma_params.append(param)
        arg_index = list(tc.kernel_body(self.kernel).args).index(op.src)  # type: ignore[arg-type]
        self.tensor_maps.append({
            "param": param,
            "arg": arg_index,
            "dtype": layout.dtype.name,
            "global_dims": global_dims,
            "global_strides": [ld * eb_bits // 8],
            "box": [inner, box_rows],
            "swizzle": swz.value,
            "tma_swizzle_code": swz.tma_code,
        })
        total = len(boxes) * inner * box_rows * eb_bits // 8
        mbar = self._scratch(8)
        tmap = self.val(ptx.ParamAddrOp, result=i64, param=param, comment=f"{op.operand.data} copy by TMA: {len(boxes)} boxes of {inner}x{box_rows}, swizzle {swz}")
        inited = self.label("mbarrier_ready")
        self.emit(ptx.BraOp, [self.is_thread0], label=inited, negate=1)
        self.emit(ptx.MbarrierInitOp, [self.smem], offset=mbar, count=1)
        self.emit(ptx.FenceMbarrierInitOp)
        self.emit(ptx.LabelOp, label=inited)
        self.emit(ptx.BarSyncOp)  # every thread sees the initialised barrier before waiting on it
        skip = self.label("tma_issued")
        self.emit(ptx.BraOp, [self.is_thread0], label=skip, negate=1)
        self.emit(ptx.MbarrierArriveExpectTxOp, [self.smem], offset=mbar, bytes=total)
        for dst, c_inner, c_outer in boxes:
            self.emit(ptx.CpAsyncBulkTensorOp, [self.smem, tmap, self.smem], offset=dst, mbar_offset=mbar, c0=c_inner, c1=c_outer)
        self.emit(ptx.LabelOp, label=skip)
        self._wait(mbar, 0)
        self.emit(ptx.BarSyncOp)

    def _wait(self, mbar: int, parity: int) -> None:
        again = self.label("wait")
        self.emit(ptx.LabelOp, label=again)
        ready = self.val(ptx.MbarrierTryWaitParityOp, [self.smem], i1, offset=mbar, parity=parity)
        self.emit(ptx.BraOp, [ready], label=again, negate=1)

    # -- accumulators -------------------------------------------------------------------

    def _acc_of(self, op: Operation, value: SSAValue) -> Acc:
        acc = self.accs.get(value)
        if acc is None:
            error_at(op, "the accumulator must come from tc.acc_zero, tc.acc_load or an MMA in this kernel")
        return acc

    @staticmethod
    def _wgmma_regs_type(t: tc.AccType) -> ptx.RegsType:
        if t.dtype == "f16":
            return ptx.RegsType(t.n // 4, i32)
        return ptx.RegsType(t.n // 2, f32 if t.dtype == "f32" else i32)

    def _fragment_base(self, gbase: SSAValue, n: int, eb: int) -> SSAValue:
        """Address of D[16w + g][2q] for this thread (w warp, g = lane / 4, q = lane % 4)."""
        lane = self.val(ptx.AndOp, [self.tid], type="b32", imm=31)
        g = self.val(ptx.ShrOp, [lane], type="u32", imm=2)
        w16 = self.val(ptx.ShlOp, [self.warp], type="b32", imm=4)
        row = self.val(ptx.AddOp, [w16, g], type="u32")
        q = self.val(ptx.AndOp, [self.tid], type="b32", imm=3)
        q2 = self.val(ptx.ShlOp, [q], type="b32", imm=1)
        rown = self.val(ptx.MulLoOp, [row], type="u32", imm=n)
        elem = self.val(ptx.AddOp, [rown, q2], type="u32")
        byte = self.val(ptx.MulWideOp, [elem], i64, type="u32", imm=eb)
        return self.val(ptx.AddOp, [gbase, byte], i64, type="u64")

    def _fragment_moves(self, t: tc.AccType) -> list[tuple[int, int, int]]:
        """(first register, registers, byte offset from the thread's base) per vector access.

        f32/s32: register i holds D[16w + g + 8((i>>1)&1)][8(i>>2) + 2q + (i&1)];
        f16: register j holds two halves at row 16w + g + 8(j&1), columns 8(j>>1) + 2q + {0,1}.
        """
        n = t.n
        if t.dtype == "f16":
            return [(j, 1, ((8 * (j & 1)) * n + 8 * (j >> 1)) * 2) for j in range(n // 4)]
        return [(i, 2, ((8 * ((i >> 1) & 1)) * n + 8 * (i >> 2)) * 4) for i in range(0, n // 2, 2)]

    def _wgmma_acc(self, op: Operation, acc: Acc) -> SSAValue:
        if acc.tmem is not None:
            error_at(op, "this accumulator already lives in tensor memory (tcgen05)")
        if acc.regs is None:
            t = acc.type
            regs = self.val(ptx.DeclRegsOp, result=self._wgmma_regs_type(t), comment=f"accumulator {t.m}x{t.n}x{t.dtype}")
            if acc.init == "zero":
                zero = "0f00000000" if t.dtype == "f32" else "0"
                self.emit(ptx.FillOp, [regs], type="f32" if t.dtype == "f32" else "b32", value=zero)
            else:
                assert acc.source is not None
                eb = 2 if t.dtype == "f16" else 4
                base = self._fragment_base(self.globals_[acc.source], t.n, eb)
                ty = {"f32": "f32", "f16": "b32", "s32": "s32"}[t.dtype]
                for lo, count, off in self._fragment_moves(t):
                    self.emit(ptx.LdRegsOp, [base, regs], space="global", type=ty, vec=count, regs=lo, offset=off)
            acc.regs = regs
        return acc.regs

    def _acc_store(self, op: tc.AccStoreOp) -> None:
        acc = self._acc_of(op, op.acc)
        t = acc.type
        if acc.tmem is not None or self.arch == "sm_100a":
            self._tmem_store(op, acc)
            return
        regs = self._wgmma_acc(op, acc)
        if t.m != 64:
            error_at(op, f"register accumulators are 64 rows (one warpgroup), not {t.m}")
        eb = 2 if t.dtype == "f16" else 4
        base = self._fragment_base(self.globals_[op.dst], t.n, eb)
        ty = {"f32": "f32", "f16": "b32", "s32": "s32"}[t.dtype]
        for lo, count, off in self._fragment_moves(t):
            self.emit(ptx.StOp, [base, regs], space="global", type=ty, vec=count, regs=lo, offset=off)

    # -- wgmma --------------------------------------------------------------------------

    def _descs(self, op: Operation, key: str) -> list[tc.DescAttr]:
        attr = op.attributes.get(key)
        if not isinstance(attr, ArrayAttr):
            error_at(op, "no descriptors on this op: run tc-compute-descriptors first")
        return list(attr.data)  # type: ignore[arg-type]

    def _desc_reg(self, desc: tc.DescAttr) -> SSAValue:
        """The descriptor with the dynamic shared-memory base added to its start field."""
        const = self.val(ptx.MovImmOp, result=i64, type="b64", value=f"{desc.value.data:#018x}")
        return self.val(ptx.AddOp, [const, self.smem16], i64, type="s64")

    def _wgmma(self, op: tc.WgmmaOp) -> None:
        a_t, b_t = op.a.type, op.b.type
        assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
        acc = self._acc_of(op, op.acc)
        regs = self._wgmma_acc(op, acc)
        self.accs[op.result] = acc
        dtype = a_t.dtype
        kpi = element_type(dtype).k_per_instruction
        b_descs = [self._desc_reg(d) for d in self._descs(op, "tc.b_descs")]
        register_a = op.a_in_registers is not None
        if register_a:
            a_ops = self._a_fragments(op, self.tiles[op.a], len(b_descs))
        else:
            a_ops = [self._desc_reg(d) for d in self._descs(op, "tc.a_descs")]
        sixteen = dtype in ("f16", "bf16")
        is_int = dtype in ("s8", "u8")
        self.emit(ptx.WgmmaFenceOp, comment=f"wgmma m64n{b_t.mn}k{kpi}, {len(b_descs)} K-slices")
        for a_op, b_desc in zip(a_ops, b_descs):
            self.emit(
                ptx.WgmmaMmaAsyncOp, [regs, a_op, b_desc],
                shape=f"m64n{b_t.mn}k{kpi}", dtype=acc.type.dtype, atype=dtype, btype=b_t.dtype,
                scale_d=1, scale=0 if is_int else 1,
                trans_a=(1 if a_t.major is Major.MN else 0) if sixteen and not register_a else -1,
                trans_b=(1 if b_t.major is Major.MN else 0) if sixteen else -1,
            )
        self.emit(ptx.WgmmaCommitGroupOp)
        self.emit(ptx.WgmmaWaitGroupOp, pending=0)

    def _a_fragments(self, op: tc.WgmmaOp, layout: TileLayout, slices: int) -> list[SSAValue]:
        """A's register fragments (4 x b32 per K-slice), loaded from its tile.

        Register r of thread t holds row 16w + g + 8(r&1) and the 32 bits
        starting at K column 8(r>>1) + 2q (16-bit), 4(r>>1) + q (tf32) or
        16(r>>1) + 4q (8-bit) of the slice (PTX ISA wgmma register fragments).
        """
        t = np.arange(THREADS)[:, None, None]
        s = np.arange(slices)[None, :, None]
        r = np.arange(4)[None, None, :]
        w, lane = t // 32, t % 32
        g, q = lane // 4, lane % 4
        row = 16 * w + g + 8 * (r & 1)
        bits = layout.dtype.bits
        col = {16: 8 * (r >> 1) + 2 * q, 32: 4 * (r >> 1) + q, 8: 16 * (r >> 1) + 4 * q}[bits]
        k = s * layout.dtype.k_per_instruction + col
        offsets = layout.addresses(np.broadcast_to(row, k.shape), k)  # (thread, slice, reg)
        tbl = self.table(offsets)
        t16 = self.val(ptx.MulWideOp, [self.tid], i64, type="u32", imm=16 * slices, comment="A fragments from the A tile")
        tptr = self.val(ptx.AddOp, [tbl, t16], i64, type="u64")
        frags = []
        for sl in range(slices):
            offs = self.emit(ptx.LdOp, [tptr], [i32] * 4, space="global", type="u32", vec=4, offset=16 * sl).res
            frag = self.val(ptx.DeclRegsOp, result=ptx.RegsType(4, i32))
            for reg, o in enumerate(offs):
                addr = self.val(ptx.AddOp, [self.smem, o], type="u32")
                self.emit(ptx.LdRegsOp, [addr, frag], space="shared", type="b32", vec=1, regs=reg, offset=0)
            frags.append(frag)
        return frags

    # -- tcgen05 ------------------------------------------------------------------------
    #
    # Tensor memory (PTX ISA "Data path layout organization", cta_group::1): warp w of the
    # warpgroup reaches lanes 32w..32w+31. D (and A from tensor memory) row r sits in lane r
    # for M = 128 (layout D) and in lane 32(r // 16) + r % 16 for M = 64 (layout F, lanes
    # 0-15 of each warp's quarter), one 32-bit column per element; 16-bit D elements sit in
    # the low half of their column. So thread t of warp w owns row 32w + t (M = 128) or
    # 16w + t for t < 16 (M = 64) through tcgen05.ld/st.32x32b.

    def _tmem_row(self, m: int) -> SSAValue:
        """The accumulator row this thread's lane holds (M = 64: lanes 16-31 of a warp
        mirror lanes 0-15, whose rows they load and never store)."""
        lane = self.val(ptx.AndOp, [self.tid], type="b32", imm=31)
        if m == 128:
            return self.val(ptx.AddOp, [self.val(ptx.ShlOp, [self.warp], type="b32", imm=5), lane], type="u32")
        low = self.val(ptx.AndOp, [lane], type="b32", imm=15)
        return self.val(ptx.AddOp, [self.val(ptx.ShlOp, [self.warp], type="b32", imm=4), low], type="u32")

    def _tmem_lanes(self, address: SSAValue) -> SSAValue:
        """This warp's lanes of a tensor-memory address: lane 32w (bits 16-31) added."""
        lane_base = self.val(ptx.ShlOp, [self.warp], type="b32", imm=21)  # (32 w) << 16
        return self.val(ptx.AddOp, [address, lane_base], type="u32")

    def _tcgen05(self, op: tc.Tcgen05MmaOp) -> None:
        acc = self._acc_of(op, op.acc)
        self.accs[op.result] = acc
        if acc.regs is not None:
            error_at(op, "this accumulator already lives in registers (wgmma)")
        tm = self._tmem_of(op, acc)
        idesc_attr = op.attributes.get("tc.idesc")
        if not isinstance(idesc_attr, tc.IdescAttr):
            error_at(op, "no instruction descriptor on this op: run tc-compute-descriptors first")
        b_descs = [self._desc_reg(d) for d in self._descs(op, "tc.b_descs")]
        a_ops: list[SSAValue]
        if op.a_in_tmem is not None:
            a_ops = self._a_to_tmem(op, tm, len(b_descs))
        else:
            a_ops = [self._desc_reg(d) for d in self._descs(op, "tc.a_descs")]
        idesc = self.imm32(idesc_attr.value.data)
        alloc = tm.alloc
        if not alloc.synced:  # threads read or wrote tensor memory: sync before the MMA writes it
            self._tmem_sync()
        skip = self.label("mma_issued")
        self.emit(ptx.BraOp, [self.is_warp0], label=skip, negate=1, comment=f"tcgen05.mma kind::{idesc_attr.kind.data}, {len(b_descs)} K-slices, one elected thread")
        elected = self.val(ptx.ElectSyncOp, result=i1)
        self.emit(ptx.BraOp, [elected], label=skip, negate=1)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        for a_op, b_d in zip(a_ops, b_descs):
            self.emit(
                ptx.Tcgen05MmaOp, [tm.address, a_op, b_d, idesc], kind=idesc_attr.kind.data,
                enable_input_d=1 if tm.written else 0, a_tmem=1 if op.a_in_tmem is not None else 0,
            )
            tm.written = True
        self.emit(ptx.Tcgen05CommitOp, [self.smem], offset=alloc.mbar_offset)
        self.emit(ptx.LabelOp, label=skip)
        self._wait(alloc.mbar_offset, alloc.phase)
        alloc.phase ^= 1
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")

    def _tmem_of(self, op: Operation, acc: Acc) -> "Tmem":
        """The accumulator's tensor memory, (allocated and) C loaded on first use."""
        if acc.tmem is None:
            alloc = self._tmem_alloc(op)
            column = self.tmem_columns[acc.origin]  # type: ignore[index]
            address = self.val(ptx.AddOp, [alloc.address], type="u32", imm=column) if column else alloc.address
            acc.tmem = Tmem(alloc, address, acc.type.m)
            if acc.init == "load":
                assert acc.source is not None
                self._c_to_tmem(acc.tmem, acc.type, acc.source)
        return acc.tmem

    def _tmem_plan(self) -> tuple[dict[SSAValue, int], int, int]:
        """Columns of every accumulator of the kernel (32-column aligned), where A goes, and
        the total: one allocation serves them all."""
        columns: dict[SSAValue, int] = {}
        end = a_cols = 0
        for op in tc.kernel_body(self.kernel).ops:
            if isinstance(op, tc.AccZeroOp | tc.AccLoadOp):
                t = op.acc.type
                assert isinstance(t, tc.AccType)
                columns[op.acc] = end
                end += -(-t.n // 32) * 32
            if isinstance(op, tc.Tcgen05MmaOp) and op.a_in_tmem is not None:
                a = op.a.type
                assert isinstance(a, tc.TileType)
                a_cols = max(a_cols, a.k * element_type(a.dtype).slot_bits // 32)
        return columns, end, end + a_cols

    def _tmem_alloc(self, op: Operation) -> TmemAlloc:
        if self.tmem_alloc is not None:
            return self.tmem_alloc
        self.tmem_columns, a_column, need = self._tmem_plan()
        columns = max(32, 1 << (need - 1).bit_length())
        if columns > 512:
            error_at(op, f"the kernel's accumulators and A need {need} tensor-memory columns, more than 512")
        slot = self._scratch(4, 4)
        mbar = self._scratch(8)
        skip = self.label("tmem_ready")
        self.emit(ptx.BraOp, [self.is_warp0], label=skip, negate=1, comment=f"tensor memory: {columns} columns")
        self.emit(ptx.Tcgen05AllocOp, [self.smem], offset=slot, columns=columns)
        self.emit(ptx.Tcgen05RelinquishOp)
        self.emit(ptx.BraOp, [self.is_thread0], label=skip, negate=1)
        self.emit(ptx.MbarrierInitOp, [self.smem], offset=mbar, count=1)
        self.emit(ptx.FenceMbarrierInitOp)
        self.emit(ptx.LabelOp, label=skip)
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync")
        self.emit(ptx.BarSyncOp)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        address = self.val(ptx.LdOp, [self.smem], space="shared", type="b32", vec=1, offset=slot)
        self.tmem_alloc = TmemAlloc(address, columns, mbar, a_column)
        return self.tmem_alloc

    def _tmem_sync(self) -> None:
        """Order the threads' tensor-memory accesses before what follows (an MMA)."""
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync")
        self.emit(ptx.BarSyncOp)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        assert self.tmem_alloc is not None
        self.tmem_alloc.synced = True

    def _tmem_written(self) -> None:
        """Make tcgen05.st results visible to the tensor core's next MMA."""
        self.emit(ptx.Tcgen05WaitStOp)
        self._tmem_sync()

    def _tmem_store_words(self, taddr: SSAValue, regs: SSAValue, count: int, column: int) -> None:
        """tcgen05.st of `count` 32-bit words per thread from column `column`."""
        for c0, num in tmem_runs(count):
            self.emit(ptx.Tcgen05StOp, [taddr, regs], regs=c0, num=num, offset=column + c0)

    def _c_to_tmem(self, tm: "Tmem", t: tc.AccType, source: SSAValue) -> None:
        """C into D: each thread loads its row and writes it to its lane."""
        row = self._tmem_row(t.m)
        eb = 2 if t.dtype == "f16" else 4
        rown = self.val(ptx.MulWideOp, [row], i64, type="u32", imm=t.n * eb, comment=f"C ({t.m}x{t.n}x{t.dtype}) into tensor memory")
        base = self.val(ptx.AddOp, [self.globals_[source], rown], i64, type="u64")
        words = self.val(ptx.DeclRegsOp, result=ptx.RegsType(t.n, i32))
        if t.dtype == "f16":  # one f16 per 32-bit column, in its low half
            for c in range(t.n):
                h = self.val(ptx.LdOp, [base], i16, space="global", type="b16", vec=1, offset=2 * c)
                self.emit(ptx.CvtToRegOp, [h, words], type="u32.u16", regs=c)
        else:
            for c in range(0, t.n, 4):
                self.emit(ptx.LdRegsOp, [base, words], space="global", type="b32", vec=4, regs=c, offset=4 * c)
        self._tmem_store_words(self._tmem_lanes(tm.address), words, t.n, 0)
        self._tmem_written()
        tm.written = True

    def _a_to_tmem(self, op: tc.Tcgen05MmaOp, tm: "Tmem", slices: int) -> list[SSAValue]:
        """A from its shared-memory tile into tensor memory, K packed into 32-bit columns
        (the element of lower K in the lower bits); one operand address per K-slice."""
        layout = self.tiles[op.a]
        bits = layout.dtype.bits
        per_word = 32 // bits
        words = layout.k // per_word
        t = np.arange(THREADS)[:, None]
        w, lane = t // 32, t % 32
        row = 32 * w + lane if tm.rows == 128 else 16 * w + lane % 16
        k0 = np.arange(words)[None, :] * per_word
        offsets = layout.addresses(row, k0)  # (thread, word): the word's shared-memory offset
        tbl = self.table(offsets)
        tw = self.val(ptx.MulWideOp, [self.tid], i64, type="u32", imm=4 * words, comment=f"A ({layout.mn}x{layout.k}x{layout.dtype}) into tensor memory, {words} columns")
        tptr = self.val(ptx.AddOp, [tbl, tw], i64, type="u64")
        regs = self.val(ptx.DeclRegsOp, result=ptx.RegsType(words, i32))
        for j in range(0, words, 4):
            vec = min(4, words - j)
            offs = self.emit(ptx.LdOp, [tptr], [i32] * vec, space="global", type="u32", vec=vec, offset=4 * j).res
            for r, o in enumerate(offs):
                addr = self.val(ptx.AddOp, [self.smem, o], type="u32")
                self.emit(ptx.LdRegsOp, [addr, regs], space="shared", type="b32", vec=1, regs=j + r, offset=0)
        alloc = tm.alloc
        self._tmem_store_words(self._tmem_lanes(alloc.address), regs, words, alloc.a_column)
        self._tmem_written()
        step = INSTRUCTION_K_BYTES // 4  # 8 columns of 32 bits per 32-byte K-slice
        return [
            self.val(ptx.AddOp, [alloc.address], type="u32", imm=alloc.a_column + s * step)
            for s in range(slices)
        ]

    def _tmem_store(self, op: tc.AccStoreOp, acc: Acc) -> None:
        """D from tensor memory to global memory: each warp reads its 32 lanes (32x32b)."""
        t = acc.type
        tm = self._tmem_of(op, acc)
        row = self._tmem_row(t.m)
        eb = 2 if t.dtype == "f16" else 4
        rown = self.val(ptx.MulWideOp, [row], i64, type="u32", imm=t.n * eb)
        base = self.val(ptx.AddOp, [self.globals_[op.dst], rown], i64, type="u64")
        taddr = self._tmem_lanes(tm.address)
        if not tm.written:  # a zero accumulator no MMA has touched: tensor memory is undefined
            zeros = self.val(ptx.DeclRegsOp, result=ptx.RegsType(t.n, i32), comment="zero accumulator")
            self.emit(ptx.FillOp, [zeros], type="b32", value="0")
            self._tmem_store_words(taddr, zeros, t.n, 0)
            self._tmem_written()
            tm.written = True
        skip = None
        if t.m == 64:  # lanes 16-31 of each warp hold no rows of D
            lane = self.val(ptx.AndOp, [self.tid], type="b32", imm=31)
            upper = self.val(ptx.SetpOp, [lane], i1, cmp="ge", type="u32", imm=16)
        elem = f32 if t.dtype == "f32" else i32
        for c0, chunk in tmem_runs(t.n):
            regs = self.val(ptx.DeclRegsOp, result=ptx.RegsType(chunk, elem))
            self.emit(ptx.Tcgen05LdOp, [regs, taddr], regs=0, num=chunk, offset=c0)
            self.emit(ptx.Tcgen05WaitLdOp)
            tm.alloc.synced = False  # a later MMA must not overwrite D before every warp read it
            if t.m == 64:
                skip = self.label("no_row")
                self.emit(ptx.BraOp, [upper], label=skip)
            if t.dtype == "f16":
                self._store_f16_columns(base, regs, chunk, c0)
            else:
                ty = "f32" if t.dtype == "f32" else "s32"
                for v in range(0, chunk, 4):
                    self.emit(ptx.StOp, [base, regs], space="global", type=ty, vec=4, regs=v, offset=(c0 + v) * 4)
            if skip:
                self.emit(ptx.LabelOp, label=skip)

    def _store_f16_columns(self, base: SSAValue, regs: SSAValue, count: int, c0: int) -> None:
        """f16 D: each 32-bit column holds one f16 in its low half; pack pairs and store."""
        halves = [self.val(ptx.CvtFromRegOp, [regs], i16, type="u16.u32", regs=c) for c in range(count)]
        packed = [self.val(ptx.PackOp, [halves[c], halves[c + 1]]) for c in range(0, count, 2)]
        for v in range(0, len(packed), 4):
            self.emit(ptx.StOp, [base, *packed[v : v + 4]], space="global", type="b32", vec=4, offset=(c0 + 2 * v) * 2)

    # -- wmma -------------------------------------------------------------------------------

    def _wmma(self, op: Operation) -> None:
        if isinstance(op, tc.WmmaZeroOp):
            ft = op.frag.type
            assert isinstance(ft, tc.WmmaFragType)
            regs = self.val(ptx.DeclRegsOp, result=self._frag_regs(ft))
            self.emit(ptx.FillOp, [regs], type="f32" if ft.dtype == "f32" else "b32", value="0f00000000" if ft.dtype == "f32" else "0")
            self.frags[op.frag] = regs
            return
        if isinstance(op, tc.WmmaLoadOp):
            ft = op.frag.type
            assert isinstance(ft, tc.WmmaFragType) and isinstance(op.src.type, MemRefType)
            addr = self._wmma_addr(op.src, op.offsets)
            regs = self.val(ptx.DeclRegsOp, result=self._frag_regs(ft))
            role = ft.role.data
            layout = ft.layout.data or "row"
            self.emit(ptx.WmmaLoadOp, [regs, addr], role=role, layout=layout, shape=ft.shape.data, type=ft.dtype, stride=tc.matrix_strides(op.src.type, 'wmma')[0])
            self.frags[op.frag] = regs
            return
        if isinstance(op, tc.WmmaMmaOp):
            a_t, b_t, c_t = op.a.type, op.b.type, op.c.type
            assert isinstance(a_t, tc.WmmaFragType) and isinstance(b_t, tc.WmmaFragType) and isinstance(c_t, tc.WmmaFragType)
            d = self.val(ptx.DeclRegsOp, result=self._frag_regs(op.d.type))  # type: ignore[arg-type]
            regs = [self.frags[v] for v in (op.a, op.b, op.c)]
            if a_t.dtype == "f16":
                types = f"{op.d.type.dtype}.{c_t.dtype}"  # type: ignore[union-attr]
            else:
                types = f"{c_t.dtype}.{a_t.dtype}.{b_t.dtype}.{c_t.dtype}"
            self.emit(ptx.WmmaMmaOp, [d, *regs], alayout=a_t.layout.data, blayout=b_t.layout.data, shape=a_t.shape.data, types=types)
            self.frags[op.d] = d
            return
        assert isinstance(op, tc.WmmaStoreOp) and isinstance(op.dst.type, MemRefType)
        ft = op.frag.type
        assert isinstance(ft, tc.WmmaFragType)
        addr = self._wmma_addr(op.dst, op.offsets)
        self.emit(ptx.WmmaStoreOp, [addr, self.frags[op.frag]], layout=op.layout.data.value, shape=ft.shape.data, type=ft.dtype, stride=tc.matrix_strides(op.dst.type, 'wmma')[0])

    @staticmethod
    def _frag_regs(ft: tc.WmmaFragType) -> ptx.RegsType:
        return ptx.RegsType(ft.registers, f32 if ft.dtype == "f32" else i32)

    def _wmma_addr(self, mem: SSAValue, offsets: ArrayAttr[IntAttr]) -> SSAValue:
        t = mem.type
        assert isinstance(t, MemRefType)
        r0, c0 = (o.data for o in offsets.data)
        eb = tc.element_bits(t.element_type) // 8
        off = (r0 * tc.matrix_strides(t, 'wmma')[0] + c0) * eb
        base = self.globals_[mem]
        if not off:
            return base
        return self.val(ptx.AddOp, [base], i64, type="u64", imm=off)


def tmem_runs(count: int, most: int = 32) -> list[tuple[int, int]]:
    """(first column, columns) of the tcgen05.ld/st accesses covering `count` columns: each
    a power of two (the .xN of 32x32b), at most `most` (registers per access)."""
    runs, c0 = [], 0
    while c0 < count:
        num = min(most, 1 << ((count - c0).bit_length() - 1))
        runs.append((c0, num))
        c0 += num
    return runs


@dataclass(frozen=True)
class LowerToPtxPass(ModulePass):
    """Rewrites every tc kernel (a func.func or gpu.func with tc.target) into a ptx.kernel.

    Everything else in the module (host functions, other dialects) is left as it is,
    and the PTX printer prints only the ptx ops."""

    name = "tc-lower-to-ptx"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = tc.tc_kernels(op)
        if not kernels:
            error_at(None, "no kernel to lower: mark a func.func or gpu.func with tc.target = \"sm_90a\" or \"sm_100a\"")
        archs = set()
        for k in kernels:
            attr = k.attributes[tc.TARGET_ATTR]
            if not isinstance(attr, StringAttr):
                error_at(k, 'tc.target is a string such as "sm_90a"')
            try:
                archs.add(tc.parse_kernel_target(attr.data).value)
            except VerifyException as err:
                error_at(k, str(err))
        if len(archs) > 1:
            error_at(kernels[-1], f"one PTX module has one target; kernels target {', '.join(sorted(archs))}")
        tables: list[ptx.TableOp] = []
        for k in kernels:
            if is_gemm_kernel(k):  # a loop-level GEMM: its own, pipelined lowering
                lowered = GemmLowering(k).run()
            else:
                lowered = KernelLowering(k, tables, f"lower_tc_{tc.kernel_name(k)}_table").run()
            parent = k.parent_block()
            assert parent is not None
            parent.insert_op_before(lowered, k)
            k.detach()
            k.erase()
        block = op.body.block
        first = block.first_op
        for t in tables:
            if first is None:
                block.add_op(t)
            else:
                block.insert_op_before(t, first)
        arch = archs.pop()
        op.attributes[PTX_TARGET_ATTR] = StringAttr(arch)
        op.attributes[PTX_VERSION_ATTR] = StringAttr(ptx_version(arch, op))


def ptx_version(arch: str, module: ModuleOp) -> str:
    """The lowest PTX ISA version the kernels need (ptxas rejects lower ones):
    wgmma and TMA 8.0, wgmma with mixed s8/u8 operands 8.4, tcgen05 8.6."""
    version = (8, 6) if arch == "sm_100a" else (8, 0)
    for op in module.walk():
        if isinstance(op, ptx.WgmmaMmaAsyncOp) and {op.prop("atype"), op.prop("btype")} == {"s8", "u8"}:
            version = max(version, (8, 4))
    return f"{version[0]}.{version[1]}"
