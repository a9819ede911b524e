"""The loop-level GEMM kernel being lowered, as every part of the lowering reads it: the
builder the ops go to, the prologue's registers, the operands, the index arithmetic, the
ring tiles before the K loop, shared memory, and the tensor maps of the metadata."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.ir import Operation

from lower_tc.dialects import tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.dialects.tc_schedule import GemmSchedule
from lower_tc.layout.kernel_info import TensorMap
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.grid import Grid, read_grid
from lower_tc.passes.to_ptx.gemm.index import IndexEnv
from lower_tc.passes.to_ptx.gemm.index_range import analyse
from lower_tc.passes.to_ptx.gemm.kloop import BeforeLoop
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs, Prologue, read_operands
from lower_tc.passes.to_ptx.gemm.smem import SharedMemory


@dataclass
class GemmKernel:
    """One kernel's lowering state that the parts share."""

    kernel: Operation
    options: GemmSchedule  # the kernel's #tc.gemm_schedule, defaults filled in
    b: PtxBuilder
    regs: Prologue
    args: KernelArgs
    index: IndexEnv
    before: BeforeLoop
    memory: SharedMemory
    loop_op: scf.ForOp
    after_loop: list[Operation]
    grid: Grid
    store_inside: bool  # every CTA's store lies inside D (index_range.py): no bounds checks
    tensor_maps: list[TensorMap] = field(default_factory=list)

    @classmethod
    def read(cls, kernel: Operation, options: GemmSchedule) -> "GemmKernel":
        """Emits the prologue and the ops before the K loop (the index arithmetic), each
        at its op's location; reads the grid and checks the index arithmetic over it."""
        body = list(tc.kernel_body(kernel).ops)
        loops = [op for op in body if isinstance(op, scf.ForOp)]
        if len(loops) != 1:
            error_at(loops[1], "a GEMM kernel has one K loop")
        at = body.index(loops[0])
        b = PtxBuilder()
        regs, args = read_operands(b, kernel)
        index = IndexEnv(b, args)
        before = BeforeLoop()
        for op in body[:at]:
            b.located(op, lambda o: before.add(o, index))
        grid = read_grid(kernel, args, index.uses_block_id)
        store = next((op for op in body[at + 1 :] if isinstance(op, WindowStoreOp)), None)
        acc = store.acc.type if store is not None else None
        tile = (acc.m, acc.n) if isinstance(acc, tc.AccType) else None
        facts = analyse(kernel, index, args, grid, store, tile)
        return cls(kernel, options, b, regs, args, index, before, SharedMemory(before.smem_end), loops[0], body[at + 1 :], grid, facts.inside)
