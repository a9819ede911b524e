"""ptx-lower-loops: structured loops inside a ptx.kernel become PTX labels and branches.

The kernel lowering keeps a GEMM's K loop as an ``scf.for`` whose bounds, induction
variable and loop-carried values are PTX registers (i32 or i64) and whose body is
ptx ops. This late step turns each such loop, innermost first, into

    iv = lb; carried = init
  head:
    @(iv >= ub) bra end
    body
    carried = yielded; iv = iv + step
    bra head
  end:

with the block arguments replaced by those registers (PTX registers are mutable, and
``ptx.assign`` writes one). It is the same two-step route as xDSL's x86 backend
(``convert_scf_to_x86_scf`` then a late pass to labels), here in one step because
the ptx dialect already has labels and branches.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import Float32Type, IntegerType, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at


def mov_type(t: Attribute) -> str:
    """The PTX type of a plain register move for a value of type `t`."""
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, IntegerType):
        return {1: "pred", 16: "b16", 32: "b32", 64: "b64"}[t.width.data]
    raise KeyError(f"no PTX register move for {t}")


def _innermost_loop(kernel: ptx.KernelOp) -> scf.ForOp | None:
    for op in kernel.walk():
        if isinstance(op, scf.ForOp) and not any(isinstance(o, scf.ForOp) for o in op.body.walk()):
            return op
    return None


def lower_loop(loop: scf.ForOp, label: str) -> None:
    """Replaces one innermost scf.for by labels, branches and register moves."""
    parent = loop.parent_block()
    assert parent is not None
    iv_type = loop.lb.type
    if not isinstance(iv_type, IntegerType) or iv_type.width.data not in (32, 64):
        error_at(loop, f"a loop inside ptx.kernel counts in i32 or i64 registers, not {iv_type}")
    width = iv_type.width.data
    new: list[Operation] = []

    def emit(cls: type[ptx.PtxOp], args: list[SSAValue], results: list[Attribute], **props: object) -> ptx.PtxOp:
        op = ptx.build(cls, args, results, **props)
        op.location = loop.location
        new.append(op)
        return op

    iv = emit(ptx.MovOp, [loop.lb], [iv_type], type=f"b{width}").res[0]
    carried = [emit(ptx.MovOp, [v], [v.type], type=mov_type(v.type)).res[0] for v in loop.iter_args]
    head, end = f"{label}_head", f"{label}_end"
    emit(ptx.LabelOp, [], [], label=head)
    done = emit(ptx.SetpOp, [iv, loop.ub], [IntegerType(1)], cmp="ge", type=f"s{width}").res[0]
    emit(ptx.BraOp, [done], [], label=end)
    for op in new:
        parent.insert_op_before(op, loop)
    new.clear()

    block = loop.body.block
    block.args[0].replace_all_uses_with(iv)
    for arg, reg in zip(block.args[1:], carried):
        arg.replace_all_uses_with(reg)
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    for op in list(block.ops):
        if op is yield_op:
            break
        op.detach()
        parent.insert_op_before(op, loop)

    # the yielded values, read before any carried register is overwritten
    values = list(yield_op.operands)
    staged = [
        emit(ptx.MovOp, [v], [v.type], type=mov_type(v.type)).res[0] if v in carried else v
        for v in values
    ]
    for reg, v in zip(carried, staged):
        if reg is not v:
            emit(ptx.AssignOp, [reg, v], [], type=mov_type(reg.type))
    step = emit(ptx.AddOp, [iv, loop.step], [iv_type], type=f"s{width}").res[0]
    emit(ptx.AssignOp, [iv, step], [], type=f"b{width}")
    emit(ptx.BraOp, [], [], label=head)
    emit(ptx.LabelOp, [], [], label=end)
    for op in new:
        parent.insert_op_before(op, loop)
    for result, reg in zip(loop.results, carried):
        result.replace_all_uses_with(reg)
    yield_op.detach()
    yield_op.erase()
    loop.detach()
    loop.erase()


@dataclass(frozen=True)
class LowerLoopsPass(ModulePass):
    """Turns every scf.for inside a ptx.kernel into PTX labels and branches."""

    name = "ptx-lower-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in [k for k in op.walk() if isinstance(k, ptx.KernelOp)]:
            count = 0
            while (loop := _innermost_loop(kernel)) is not None:
                lower_loop(loop, f"$L_for_{count}")
                count += 1
