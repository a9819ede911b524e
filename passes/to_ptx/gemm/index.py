"""The kernel's index arithmetic (the CTA's tile origin from gpu.block_id, sizes from
memref.dim, arith on them) as 32-bit PTX integer ops, with constants folded.

A persistent kernel runs the same arithmetic again for every tile it walks, with
gpu.block_id x standing for the tile's index: `IndexEnv.replay`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.limits import index_problem
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs, dim_names

#: Index arithmetic a GEMM kernel may do (on sizes and block indices, all non-negative):
#: the PTX op, its type, and the fold for constants.
INDEX_OPS = {
    arith.MuliOp: (ptx.MulLoOp, "s32", lambda a, b: a * b),
    arith.AddiOp: (ptx.AddOp, "s32", lambda a, b: a + b),
    arith.SubiOp: (ptx.SubOp, "s32", lambda a, b: a - b),
    arith.DivUIOp: (ptx.DivOp, "u32", lambda a, b: a // b),
    arith.RemUIOp: (ptx.RemOp, "u32", lambda a, b: a % b),
    arith.MinUIOp: (ptx.MinOp, "u32", min),
}


@dataclass
class IndexEnv:
    """Index values of the kernel: constants (folded) and registers."""

    b: PtxBuilder
    args: KernelArgs
    consts: dict[SSAValue, int] = field(default_factory=dict)
    regs: dict[SSAValue, SSAValue] = field(default_factory=dict)
    ops: list[Operation] = field(default_factory=list)  # what `replay` runs again
    block_x: SSAValue | None = None  # stands for gpu.block_id x (a persistent kernel's tile)
    uses_block_id: bool = False

    def reg(self, value: SSAValue, at: Operation) -> SSAValue:
        """The i32 register of an index value (constants are materialised here)."""
        if value in self.regs:
            return self.regs[value]
        if value in self.consts:
            return self.b.imm(self.consts[value], "s32")
        error_at(at, "this index is not computed from constants, gpu.block_id and arith in the kernel")

    def add(self, op: Operation) -> None:
        """Lowers one op of the kernel's index arithmetic and keeps it for `replay`."""
        self.ops.append(op)
        self.lower(op)

    def replay(self, tile: SSAValue) -> None:
        """The arithmetic again, with gpu.block_id x = `tile` (a persistent kernel's)."""
        self.block_x = tile
        for op in self.ops:
            self.lower(op)

    def lower(self, op: Operation) -> None:
        b = self.b
        if isinstance(op, arith.ConstantOp):
            value = op.value
            if not isinstance(value, IntegerAttr):
                error_at(op, "only integer and index constants are lowered in a kernel's index arithmetic (an f32 known "
                             "at launch is read by memref.load)")
            problem = index_problem(value.value.data, "this index constant")
            if problem is not None:
                error_at(op, problem)
            self.consts[op.result] = value.value.data
            return
        if isinstance(op, memref.DimOp):
            if op.index not in self.consts or op.source not in self.args.address:
                error_at(op, "memref.dim of a kernel argument, at a constant index")
            names = dim_names(self.args.geometry[op.source])
            if self.consts[op.index] >= len(names):
                error_at(op, f"memref.dim {self.consts[op.index]} of a {len(names)}-d argument")
            size = self.args.size(op.source, names[self.consts[op.index]])
            if isinstance(size, int):
                self.consts[op.result] = size
            else:
                self.regs[op.result] = size
            return
        if isinstance(op, gpu.BlockIdOp):
            dim = op.dimension.data.value if hasattr(op.dimension.data, "value") else str(op.dimension.data)
            if dim == "x" and self.block_x is not None:
                self.regs[op.result] = self.block_x
            else:
                self.regs[op.result] = b.val(ptx.SregOp, sreg=f"ctaid.{dim}")
            self.uses_block_id = True
            return
        for cls, (pcls, ty, fold) in INDEX_OPS.items():
            if isinstance(op, cls):
                lhs, rhs = op.lhs, op.rhs  # type: ignore[attr-defined]
                if rhs in self.consts and self.consts[rhs] == 0 and cls in (arith.DivUIOp, arith.RemUIOp):
                    error_at(op, f"'{op.name}' by zero")
                if lhs in self.consts and rhs in self.consts:
                    self.consts[op.results[0]] = fold(self.consts[lhs], self.consts[rhs])
                elif rhs in self.consts:
                    self.regs[op.results[0]] = b.val(pcls, [self.reg(lhs, op)], type=ty, imm=self.consts[rhs])
                else:
                    self.regs[op.results[0]] = b.val(pcls, [self.reg(lhs, op), self.reg(rhs, op)], type=ty)
                return
        error_at(op, f"'{op.name}' cannot be lowered in a kernel's index arithmetic")
