"""The state of one kernel being lowered, and what every op's lowering shares.

`KernelLowering` holds what the ops of one tc kernel leave for the ones after them (the tiles'
layouts, the accumulators, the WMMA fragments, the tensor-memory allocation, the shared-memory
scratch, the tables) and the builder its ptx ops go to, in order. The
per-op lowerings (copies.py, accumulators.py, wgmma.py, tcgen05.py, wmma.py) are functions of
it, found by op class in the table `lowerings` (passes/to_ptx/__init__.py builds it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    StringAttr,
    UnregisteredOp,
    i1,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx, tc
from lower_tc.layout import TileLayout
from lower_tc.layout.kernel_info import ArgInfo, KernelInfo, TensorMap
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.emit import PtxBuilder, kernel_op, param_name, placed_layout
from lower_tc.passes.to_ptx.values import THREADS, Acc, TmemAlloc



#: Lowers one op of a kernel body, appending its ptx ops to the kernel's.
Lowering = Callable[["KernelLowering", Operation], None]


@dataclass
class KernelLowering:
    """Builds one ptx.kernel from one tc kernel function."""

    kernel: Operation  # func.func, gpu.func, ...: see tc.tc_kernels
    module_tables: list[ptx.TableOp]
    table_prefix: str
    lowerings: Mapping[type[Operation], Lowering]  # op class -> its lowering
    b: PtxBuilder = field(default_factory=PtxBuilder)  # where the kernel's ptx ops go
    accs: dict[SSAValue, Acc] = field(default_factory=dict)
    tiles: dict[SSAValue, TileLayout] = field(default_factory=dict)
    globals_: dict[SSAValue, SSAValue] = field(default_factory=dict)
    tensor_maps: list[TensorMap] = field(default_factory=list)
    tma_params: list[str] = field(default_factory=list)
    scratch: int = 0
    tmem_alloc: TmemAlloc | None = None  # tcgen05: the one allocation
    tmem_columns: dict[SSAValue, int] = field(default_factory=dict)  # accumulator -> first column
    frags: dict[SSAValue, SSAValue] = field(default_factory=dict)  # WMMA fragment -> registers
    a_frags: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)  # !tc.afrag -> 4 b32 per K-slice
    tmem_a: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)  # an sm_100a !tc.afrag -> its tensor-memory address per K-slice
    rows: dict[SSAValue, tuple[SSAValue, ...]] = field(default_factory=dict)  # !tc.rows -> this thread's rows' f32 (two: wgmma; one: tensor memory)
    tmem_rows: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)  # a tensor-memory accumulator -> this thread's row in registers, once loaded or written
    indices: dict[SSAValue, SSAValue | int] = field(default_factory=dict)  # index values of a loop kernel -> s32 registers or constants
    scalars: dict[SSAValue, SSAValue] = field(default_factory=dict)  # f32 values known at launch (scalars.py) -> registers
    launch_scales: dict[tuple[SSAValue, float], SSAValue] = field(default_factory=dict)  # (factor, scale) -> the scores' factor (row_math.py)

    # -- emission helpers -------------------------------------------------------------

    def table(self, values: np.ndarray) -> SSAValue:
        name = f"{self.table_prefix}_{len(self.module_tables)}"
        self.module_tables.append(
            ptx.TableOp.build(properties={
                "sym_name": StringAttr(name),
                "values": DenseArrayBase.from_list(i32, [int(v) for v in values.ravel()]),
            })
        )
        return self.b.val(ptx.SymAddrOp, result=i64, type="u64", symbol=name)

    def imm32(self, value: int) -> SSAValue:
        return self.b.val(ptx.MovImmOp, type="u32", value=value)

    def alloc_scratch(self, size: int, align: int = 8) -> int:
        self.scratch = -(-self.scratch // align) * align
        offset = self.scratch
        self.scratch += size
        return offset

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
        self.scratch = self.scratch_start(body_ops)
        self.prologue(block)
        for op in body_ops:
            self.b.located(op, self.lower)  # the printer cites it; ptxas errors map back to it
        self.epilogue()
        params = [f".param .u64 {param_name(a)}" for a in block.args]
        params += [f".param .align 64 .b8 {name}[128]" for name in self.tma_params]
        smem_bytes = -(-self.scratch // 16) * 16
        if smem_bytes > tc.SMEM_CAPACITY:
            error_at(k, f"the kernel needs {smem_bytes} bytes of shared memory, beyond 227 KiB")
        info = KernelInfo(
            name=tc.kernel_name(k),
            target=self.arch,
            threads=threads,
            smem_bytes=smem_bytes,
            args=tuple(self.arg_info(a) for a in block.args),
            tensor_maps=tuple(self.tensor_maps),
        )
        return kernel_op(k, self.b.ops, params, threads, smem_bytes, info)

    @property
    def arch(self) -> str:
        attr = self.kernel.attributes[tc.TARGET_ATTR]
        assert isinstance(attr, StringAttr)
        return attr.data

    def arg_info(self, arg: SSAValue) -> ArgInfo:
        t = arg.type
        if not isinstance(t, MemRefType):
            error_at(self.kernel, f"kernel argument {param_name(arg)} must be a memref")
        written = any(
            isinstance(use.operation, tc.AccStoreOp | tc.WmmaStoreOp | tc.RowsStoreOp) for use in arg.uses
        )
        try:
            strides = tc.matrix_strides(t, f"kernel argument {param_name(arg)}")
        except VerifyException as err:
            error_at(self.kernel, str(err))
        try:
            dtype = tc.dtype_name(t.element_type)
        except VerifyException as err:
            error_at(self.kernel, f"kernel argument {param_name(arg)}: {err}")
        rows, cols = t.get_shape()
        return ArgInfo(param_name(arg), (rows, cols), (strides[0], strides[1]), dtype, written)

    def scratch_start(self, body_ops: list[Operation]) -> int:
        end = 0
        for op in body_ops:
            if isinstance(op, tc.SmemTileOp):
                layout = placed_layout(op)
                self.tiles[op.tile] = layout
                end = max(end, layout.address + layout.footprint)
        return -(-end // 16) * 16

    def prologue(self, block: Block) -> None:
        self.tid = self.b.val(ptx.SregOp, sreg="tid.x", comment="prologue")
        self.smem = self.b.val(ptx.SymAddrOp, type="u32", symbol="smem")
        shifted = self.b.val(ptx.ShrOp, [self.smem], type="u32", imm=4)
        self.smem16 = self.b.val(ptx.CvtOp, [shifted], i64, type="u64.u32")
        for arg in block.args:
            raw = self.b.val(ptx.LdParamOp, result=i64, type="u64", param=param_name(arg))
            self.globals_[arg] = self.b.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64")
        self.is_thread0 = self.b.val(ptx.SetpOp, [self.tid], i1, cmp="eq", type="u32", imm=0)
        lane_warp = self.b.val(ptx.ShrOp, [self.tid], type="u32", imm=5)
        self.warp = lane_warp
        self.is_warp0 = self.b.val(ptx.SetpOp, [lane_warp], i1, cmp="eq", type="u32", imm=0)

    def epilogue(self) -> None:
        alloc = self.tmem_alloc
        if alloc is not None:
            self.b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory")
            self.b.emit(ptx.BarSyncOp)
            skip = self.b.label("no_dealloc")
            self.b.emit(ptx.BraOp, [self.is_warp0], label=skip, negate=1)
            self.b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
            self.b.emit(ptx.Tcgen05DeallocOp, [alloc.address], columns=alloc.columns)
            self.b.emit(ptx.LabelOp, label=skip)
        self.b.emit(ptx.RetOp)

    # -- dispatch ---------------------------------------------------------------------

    def lower(self, op: Operation) -> None:
        """One op of the body, by its class's entry in `lowerings`; a terminator
        (func.return, gpu.return) needs nothing, any other op cannot be lowered."""
        lowering = self.lowerings.get(type(op))
        if lowering is not None:
            lowering(self, op)
            return
        if op.has_trait(IsTerminator, value_if_unregistered=False):  # func.return, gpu.return
            return
        name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        error_at(op, f"'{name}' cannot be lowered to PTX")

    # -- shared by several op families ------------------------------------------------

    def wait(self, mbar: int, parity: int) -> None:
        again = self.b.label("wait")
        self.b.emit(ptx.LabelOp, label=again)
        ready = self.b.val(ptx.MbarrierTryWaitParityOp, [self.smem], i1, offset=mbar, parity=parity)
        self.b.emit(ptx.BraOp, [ready], label=again, negate=1)

    def acc_of(self, op: Operation, value: SSAValue) -> Acc:
        acc = self.accs.get(value)
        if acc is None:
            error_at(op, "the accumulator must come from tc.acc_zero, tc.acc_load or an MMA in this kernel")
        return acc

    def descs(self, op: Operation, key: str) -> list[tc.DescAttr]:
        attr = op.attributes.get(key)
        if not isinstance(attr, ArrayAttr):
            error_at(op, "no descriptors on this op: run tc-compute-descriptors first")
        return list(attr.data)  # type: ignore[arg-type]

    def desc_reg(self, desc: tc.DescAttr) -> SSAValue:
        """The descriptor with the dynamic shared-memory base added to its start field."""
        const = self.b.val(ptx.MovImmOp, result=i64, type="b64", value=f"{desc.value.data:#018x}")
        return self.b.val(ptx.AddOp, [const, self.smem16], i64, type="s64")


