"""A single-tile kernel's reference program: its tc ops as plain data, made at compile time.

The runtime's numpy reference (lowering/runtime/reference.py) evaluates this program, so
the runtime never reads IR: each op of the kernel body that moves or computes values becomes
one step over numbered values (numbered in the order the steps first name them), naming
arguments by index. Other ops (tiles, the terminator) compute nothing
the reference needs.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import tc
from lower_tc.lowering.runtime.reference import (
    Exp, Load, Lse, Mask, Mma, ReferenceProgram, Rescale, Round, RowDiv, RowMax, RowsFill, RowSum, Softmax, Step, Store, Zero,
)


def reference_program(kernel: Operation) -> ReferenceProgram:
    """The steps of `kernel` (a func.func or gpu.func of tc ops)."""
    body = tc.kernel_body(kernel)
    args = list(body.args)
    numbers: dict[SSAValue, int] = {}

    def num(value: SSAValue) -> int:
        return numbers.setdefault(value, len(numbers))

    def arg(value: SSAValue) -> int:
        return args.index(value)  # type: ignore[arg-type]

    def dtypes(*values: SSAValue) -> frozenset[str]:
        return frozenset(v.type.dtype for v in values)  # type: ignore[attr-defined]

    steps: list[Step] = []
    for op in body.ops:
        if isinstance(op, tc.CopyOp):
            steps.append(Load(num(op.dst), arg(op.src), transpose=op.operand.data is not tc.Operand.A))
        elif isinstance(op, tc.AccZeroOp):
            t = op.acc.type
            assert isinstance(t, tc.AccType)
            steps.append(Zero(num(op.acc), (t.m, t.n)))
        elif isinstance(op, tc.AccLoadOp):
            steps.append(Load(num(op.acc), arg(op.src)))
        elif isinstance(op, tc.WgmmaOp | tc.Tcgen05MmaOp):
            steps.append(Mma(num(op.result), num(op.a), num(op.b), num(op.acc), True, dtypes(op.a, op.b)))
        elif isinstance(op, tc.AccSoftmaxOp):
            steps.append(Softmax(num(op.result), num(op.acc), op.scale.value.data))
        elif isinstance(op, tc.RowsFillOp):
            steps.append(RowsFill(num(op.result), op.value.value.data, op.result.type.m))  # type: ignore[attr-defined]
        elif isinstance(op, tc.AccRowMaxOp):
            steps.append(RowMax(num(op.result), num(op.acc), num(op.rows), op.scale.value.data))
        elif isinstance(op, tc.AccExpOp):
            steps.append(Exp(num(op.result), num(op.acc), num(op.rows), op.scale.value.data))
        elif isinstance(op, tc.AccRowSumOp):
            steps.append(RowSum(num(op.result), num(op.acc), num(op.sum), num(op.old_max), num(op.new_max)))
        elif isinstance(op, tc.AccRescaleOp):
            steps.append(Rescale(num(op.result), num(op.acc), num(op.old_max), num(op.new_max)))
        elif isinstance(op, tc.AccRowDivOp):
            steps.append(RowDiv(num(op.result), num(op.acc), num(op.rows)))
        elif isinstance(op, tc.RowsLseOp):
            steps.append(Lse(num(op.result), num(op.max), num(op.sum)))
        elif isinstance(op, tc.RowsStoreOp):
            steps.append(Store(num(op.rows), arg(op.dst)))
        elif isinstance(op, tc.AccMaskOp):
            steps.append(Mask(num(op.result), num(op.acc), *op.mask))
        elif isinstance(op, tc.AccToAOp):
            steps.append(Round(num(op.result), num(op.acc), op.result.type.dtype))  # type: ignore[attr-defined]
        elif isinstance(op, tc.AccStoreOp):
            steps.append(Store(num(op.acc), arg(op.dst)))
        elif isinstance(op, tc.WmmaZeroOp):
            m, n, _ = tc.WMMA_SHAPES[op.frag.type.shape.data]  # type: ignore[union-attr]
            steps.append(Zero(num(op.frag), (m, n)))
        elif isinstance(op, tc.WmmaLoadOp):
            ft = op.frag.type
            assert isinstance(ft, tc.WmmaFragType)
            layout = ft.layout.data or "row"
            offset = _offsets(op)
            steps.append(Load(num(op.frag), arg(op.src), layout == "col", offset, tc.wmma_stored_extent(ft, layout)))
        elif isinstance(op, tc.WmmaMmaOp):
            steps.append(Mma(num(op.d), num(op.a), num(op.b), num(op.c), False, dtypes(op.a, op.b)))
        elif isinstance(op, tc.WmmaStoreOp):
            ft = op.frag.type
            assert isinstance(ft, tc.WmmaFragType)
            layout = op.layout.data.value
            offset = _offsets(op)
            steps.append(Store(num(op.frag), arg(op.dst), layout == "col", offset, tc.wmma_stored_extent(ft, layout)))
    return ReferenceProgram(tuple(steps))


def _offsets(op: tc.WmmaLoadOp | tc.WmmaStoreOp) -> tuple[int, int]:
    r0, c0 = (o.data for o in op.offsets.data)
    return r0, c0


__all__ = ["reference_program"]
