"""convert-linalg-to-tc: linalg contractions on memrefs become `tc.matmul` kernels
(docs/linalg.md).

    func.func @f(%x: memref<MxKxbf16>, %w: memref<NxKxbf16>, %y: memref<MxNxf32>) {
      linalg.fill ins(%zero : f32) outs(%y : ...)
      linalg.generic {(m, k), (n, k) -> (m, n)} ins(%x, %w) outs(%y) { extf, extf, mulf, addf }
    }
 ->
    func.func @f(...) attributes {tc.target = "sm_90a"} {
      %wt = tc.transpose %w : memref<NxKxbf16> to memref<KxNxbf16, strided<[1, K]>>
      tc.matmul %x, %wt to %y : ...
    }

What is a contraction, and which input is A, is dialects/linalg_contraction.py's. Here:
the function around it (a func.func whose body holds the contraction alone, besides a
`linalg.fill` of zero into its output right before it and constants: a tc.matmul kernel
is one GEMM), its target, and the rewrite. Without such a fill the contraction
accumulates: ``tc.matmul %A, %B to %D plus %D``. An input read transposed becomes a
`tc.transpose` view of its argument; an i8 input widened by `arith.extui` holds u8, and
its argument's type says so (ui8: the same bytes).

The tc.matmul is built and verified first: a contraction that tc.matmul would refuse
(f32 operands, types it does not multiply, sizes or strides TMA cannot load) stays as it
is. Every linalg op left gets a located remark saying why; with ``strict=true`` (lower-tc's
default pipeline) it is a located error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, MemRefType, ModuleOp, Signedness, StringAttr
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import tc
from lower_tc.dialects.diagnostics import error_at, location, remark_at
from lower_tc.dialects.linalg_contraction import Contraction, read_contraction
from lower_tc.dialects.tc_kernel import TARGET_ATTR, parse_kernel_target
from lower_tc.layout import Arch


#: Why a linalg.fill stays: it goes only with the contraction it zeroes the output of.
FILL_ALONE = "a linalg.fill is converted only with a contraction into the same buffer right after it"


class NotConverted(Exception):
    """Why a linalg op stays as it is (the remark's text)."""


@dataclass(frozen=True)
class Plan:
    """A contraction that becomes tc.matmul: the function, the fill it replaces (None:
    it accumulates), its target, and the arguments whose i8 is read unsigned."""

    contraction: Contraction
    function: func.FuncOp
    fill: FillOp | None
    target: Arch
    unsigned: frozenset[int]


@dataclass(frozen=True)
class ConvertLinalgPass(ModulePass):
    """Converts linalg contractions on memrefs to tc.matmul (the module's docstring).

    Options: ``target=sm_90a|sm_100a``, the kernel's target where its function has no
    ``tc.target`` (the function gets it); ``strict=true`` makes a linalg op left a located
    error instead of a remark."""

    name = "convert-linalg-to-tc"
    target: str = ""
    strict: bool = False

    def __post_init__(self) -> None:
        """A bad target is the command line's error, found before any input is read."""
        if self.target:
            try:
                parse_kernel_target(self.target)
            except VerifyException as err:
                raise ValueError(f"convert-linalg-to-tc: target={self.target}: {err}") from None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reasons: dict[Operation, str] = {}
        for linalg_op in [o for o in op.walk() if _is_linalg(o) and not isinstance(o, FillOp)]:
            try:
                _rewrite(self._plan(linalg_op))
            except NotConverted as why:
                reasons[linalg_op] = str(why)
        left = [o for o in op.walk() if _is_linalg(o)]
        # in the order of the source, fills last: a contraction's reason is the one to give first
        for o in sorted(left, key=lambda o: isinstance(o, FillOp)):
            self._refuse(o, reasons.get(o, FILL_ALONE))

    def _refuse(self, op: Operation, why: str) -> None:
        message = f"'{op.name}' is not converted to tc.matmul: {why}"
        if self.strict:
            error_at(op, message)
        remark_at(op, message)

    def _plan(self, op: Operation) -> Plan:
        found = read_contraction(op)
        if isinstance(found, str):
            raise NotConverted(found)
        function = op.parent_op()
        if not isinstance(function, func.FuncOp) or len(function.body.blocks) != 1:
            raise NotConverted("it is not in the body of a func.func of one block (a tc kernel is such a function)")
        for what, value in zip(("input", "input", "output"), (*op.operands,)):
            if not (value.owner is function.body.block and value in function.args):
                raise NotConverted(f"an {what} is not an argument of the function: a kernel reads and writes its arguments")
        if found.d in (found.a.value, found.b.value):
            raise NotConverted("its output is also an input")
        fill = _fill_before(op, found.d)
        _check_alone(function, op, fill)
        target = self._target(function)
        unsigned = _unsigned_args(found)
        _verify(found, function, target, unsigned, accumulate=fill is None)
        return Plan(found, function, fill, target, unsigned)

    def _target(self, function: func.FuncOp) -> Arch:
        """The option's target or the function's tc.target; their conflict is an error."""
        given = function.attributes.get(TARGET_ATTR)
        if given is None:
            if not self.target:
                raise NotConverted(
                    f"no target: give the function {TARGET_ATTR} = \"sm_90a\" (or \"sm_100a\"), or run "
                    "convert-linalg-to-tc{target=sm_90a}")
            return parse_kernel_target(self.target)
        if not isinstance(given, StringAttr):
            error_at(function, f"{TARGET_ATTR} is a string such as \"sm_90a\", not {given}")
        try:
            arch = parse_kernel_target(given.data)
        except VerifyException as err:
            error_at(function, str(err))
        if self.target and parse_kernel_target(self.target) is not arch:
            error_at(function, f"the function's {TARGET_ATTR} is {arch} but convert-linalg-to-tc's target is "
                               f"{self.target}: give one, or the same")
        return arch


def _is_linalg(op: Operation) -> bool:
    """A linalg op of its own (not linalg.yield and the like inside a linalg body)."""
    parent = op.parent_op()
    return op.dialect_name() == "linalg" and not (parent is not None and parent.dialect_name() == "linalg")


def _fill_before(op: Operation, d: SSAValue) -> FillOp | None:
    """The linalg.fill of zero into D that comes before `op` with only constants between,
    or None (the contraction accumulates into D)."""
    prev = op.prev_op
    while isinstance(prev, arith.ConstantOp):
        prev = prev.prev_op
    if not isinstance(prev, FillOp) or list(prev.outputs) != [d]:
        return None
    value = prev.inputs[0].owner
    constant = value.value if isinstance(value, arith.ConstantOp) else None
    if not isinstance(constant, FloatAttr | IntegerAttr) or constant.value.data != 0:
        shown = f" ({constant.value.data})" if isinstance(constant, FloatAttr | IntegerAttr) else ""
        raise NotConverted(f"its output is filled with a value other than a constant zero{shown} before it: "
                           "tc.matmul computes D = A x B or D = A x B + D")
    return prev


def _check_alone(function: func.FuncOp, op: Operation, fill: FillOp | None) -> None:
    """A tc.matmul kernel holds the GEMM alone: besides the contraction, its fill and
    constants, only a func.return without values."""
    for other in function.body.block.ops:
        if other is op or other is fill or isinstance(other, arith.ConstantOp):
            continue
        if isinstance(other, func.ReturnOp) and not other.operands:
            continue
        where = location(other)
        raise NotConverted(
            f"its function holds '{other.name}'{f' (at {where})' if where else ''} too: a tc.matmul kernel is one "
            "GEMM alone (a function of its own, with a linalg.fill of zero into its output at most)")


def _unsigned_args(c: Contraction) -> frozenset[int]:
    """Indices of the i8 arguments that the body widens unsigned (they hold u8)."""
    out = set()
    for operand in (c.a, c.b):
        t = operand.value.type
        assert isinstance(t, MemRefType)
        if operand.unsigned and isinstance(t.element_type, IntegerType) and t.element_type.signedness.data == Signedness.SIGNLESS:
            out.add(operand.value.index)  # type: ignore[attr-defined]
    if c.a.value is c.b.value and c.a.unsigned != c.b.unsigned:
        raise NotConverted("it reads the same argument signed (arith.extsi) and unsigned (arith.extui)")
    return frozenset(out)


def _arg_type(t: MemRefType, unsigned: bool) -> MemRefType:
    if not unsigned:
        return t
    elt = t.element_type
    assert isinstance(elt, IntegerType)
    return MemRefType(IntegerType(elt.width.data, Signedness.UNSIGNED), t.get_shape(), t.layout, t.memory_space)


def _matmul_ops(c: Contraction, args: Sequence[SSAValue], accumulate: bool) -> list[Operation]:
    """The views and the tc.matmul of the contraction, over `args` (the function's
    arguments, in order)."""
    ops: list[Operation] = []
    operands = []
    for operand in (c.a, c.b):
        value = args[operand.value.index]  # type: ignore[attr-defined]
        if operand.transposed:
            view = tc.TransposeOp(value)
            view.result.name_hint = f"{value.name_hint or 'arg'}_t"
            ops.append(view)
            value = view.result
        operands.append(value)
    d = args[c.d.index]  # type: ignore[attr-defined]
    ops.append(tc.MatmulOp(operands[0], operands[1], d, d if accumulate else None))
    return ops


def _verify(c: Contraction, function: func.FuncOp, target: Arch, unsigned: frozenset[int], accumulate: bool) -> None:
    """What tc.matmul would say of it: the ops built in a scratch kernel of the target and
    verified there (the function is not touched)."""
    types = [_arg_type(a.type, a.index in unsigned) for a in function.args]  # type: ignore[arg-type]
    block = Block(arg_types=types)
    scratch = func.FuncOp("scratch", (types, []), Region(block))
    scratch.attributes[TARGET_ATTR] = StringAttr(target.value)
    try:
        ops = _matmul_ops(c, block.args, accumulate)
        block.add_ops([*ops, func.ReturnOp()])
        for op in ops:
            op.verify()
    except VerifyException as err:
        raise NotConverted(f"tc.matmul refuses it: {' '.join(str(err).split())}") from None


def _rewrite(plan: Plan) -> None:
    """The contraction (and its fill) replaced by the views and the tc.matmul; the
    function becomes a kernel of the target."""
    c, function = plan.contraction, plan.function
    for index in sorted(plan.unsigned):
        arg = function.args[index]
        Rewriter.replace_value_with_new_type(arg, _arg_type(arg.type, True))  # type: ignore[arg-type]
    ops = _matmul_ops(c, function.args, accumulate=plan.fill is None)
    block = function.body.block
    for new in ops:
        new.location = c.op.location
        block.insert_op_before(new, c.op)
    doomed = [c.op] + ([plan.fill] if plan.fill is not None else [])
    for old in doomed:
        old.detach()
        old.erase()
    for const in [o for o in block.ops if isinstance(o, arith.ConstantOp)]:
        if not const.result.uses:
            const.detach()
            const.erase()
    function.update_function_type()
    function.attributes.setdefault(TARGET_ATTR, StringAttr(plan.target.value))
