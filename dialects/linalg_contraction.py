"""What a linalg contraction is, read as `tc.matmul`'s A, B and D: the rules of
`convert-linalg-to-tc` (passes/convert_linalg.py), kept here so that the pass stays thin.

A contraction is `linalg.matmul` or a `linalg.generic` on memrefs with two inputs and one
output, iterators (parallel..., reduction), and indexing maps that are projected
permutations: the reduction dimension k in both inputs and not in the output, the output's
last two dimensions (its rows and columns) one in each input, and, where the output has
three, its first a batch dimension that each 3-d input has first too (a 2-d input is the
same matrix for every batch). The input whose other dimension is the output's rows is
tc.matmul's A (rows x K: transposed where it holds K first), the other B (K x columns:
transposed where it holds the columns first); so an output stored transposed
(D^T = B^T A^T) needs nothing of its own. Its body multiplies and adds (`arith.mulf` and
`arith.addf`, or `muli` and `addi`), each input optionally widened first (`arith.extf`,
`extsi`, `extui`: mixed precision).

`read_contraction` returns a `Contraction` or, for anything else, the reason it is not
one, which the pass gives as a located remark.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType, MemRefType, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp, YieldOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

#: The linalg ops convert-linalg-to-tc reads as contractions.
CONTRACTION_OPS = (MatmulOp, GenericOp)
#: How an input may be widened in the body, by its kind: (op, unsigned).
WIDENING = {arith.ExtFOp: False, arith.ExtSIOp: False, arith.ExtUIOp: True}


@dataclass(frozen=True)
class Operand:
    """One of tc.matmul's operands A and B: the linalg input it is, whether tc.matmul reads
    it transposed (a `tc.transpose` view), and whether the body widens it unsigned
    (`arith.extui`: an i8 input holds u8)."""

    value: SSAValue
    transposed: bool
    unsigned: bool


@dataclass(frozen=True)
class Contraction:
    """A linalg contraction as D = A x B: `a` is rows x K, `b` K x columns (each after its
    transpose), `d` the output; `batched` where the output has a batch dimension."""

    op: Operation
    a: Operand
    b: Operand
    d: SSAValue
    batched: bool


def read_contraction(op: Operation) -> Contraction | str:
    """`op` as a contraction, or why it is not one that tc.matmul computes."""
    if not isinstance(op, CONTRACTION_OPS):
        return (f"'{op.name}' is not a contraction: convert-linalg-to-tc converts linalg.matmul "
                "and linalg.generic contractions")
    assert isinstance(op, LinalgStructuredOperation)
    if len(op.inputs) != 2 or len(op.outputs) != 1:
        return f"a contraction has two inputs and one output, not {len(op.inputs)} and {len(op.outputs)}"
    values = (*op.inputs, *op.outputs)
    for what, value in zip(("the first input", "the second input", "the output"), values):
        if isinstance(value.type, TensorType) or op.results:
            return "it works on tensors: convert-linalg-to-tc converts contractions on memrefs (bufferize first)"
        if not isinstance(value.type, MemRefType):
            return f"{what} is {value.type}, not a memref"
    why = _check_iterators(op)
    if why:
        return why
    dims = _dims(op)
    if isinstance(dims, str):
        return dims
    for what, value, mine in zip(("the first input", "the second input", "the output"), values, dims):
        rank = len(value.type.get_shape())  # type: ignore[union-attr]
        if rank != len(mine):
            return f"{what} has {rank} dimensions but its indexing map {len(mine)}"
    kinds = [it.data for it in op.get_iterator_types()]
    roles = _roles(dims, len(kinds), kinds.index(IteratorType.REDUCTION))
    if isinstance(roles, str):
        return roles
    widened = _read_body(op.body.block)
    if isinstance(widened, str):
        return widened
    (first, first_t), (second, second_t) = roles
    a_index = 0 if first else 1  # the input whose other dimension is the output's rows is A
    inputs = list(op.inputs)
    a = Operand(inputs[a_index], (first_t, second_t)[a_index], widened[a_index])
    b = Operand(inputs[1 - a_index], (first_t, second_t)[1 - a_index], widened[1 - a_index])
    return Contraction(op, a, b, op.outputs[0], len(dims[2]) == 3)


def _check_iterators(op: LinalgStructuredOperation) -> str | None:
    kinds = [it.data for it in op.get_iterator_types()]
    reductions = kinds.count(IteratorType.REDUCTION)
    if reductions != 1 or len(kinds) - reductions != kinds.count(IteratorType.PARALLEL):
        shown = ", ".join(k.value for k in kinds)
        return f"its iterators are ({shown}): a contraction has parallel dimensions and one reduction"
    if len(kinds) not in (3, 4):
        return f"it has {len(kinds)} loops: a contraction has 3 (M, N, K) or 4 (batch, M, N, K)"
    return None


def _dims(op: LinalgStructuredOperation) -> tuple[tuple[int, ...], ...] | str:
    """Each operand's dimensions as loop indices, from indexing maps that are projected
    permutations."""
    out = []
    for name, attr in zip(("the first input's", "the second input's", "the output's"), op.get_indexing_maps()):
        amap = attr.data
        if amap.num_symbols or not all(isinstance(e, AffineDimExpr) for e in amap.results):
            return f"{name} indexing map {amap} is not a projected permutation (each result a loop dimension)"
        dims = tuple(e.position for e in amap.results)  # type: ignore[attr-defined]
        if len(set(dims)) != len(dims):
            return f"{name} indexing map {amap} names a loop dimension twice"
        out.append(dims)
    return tuple(out)


def _roles(dims: tuple[tuple[int, ...], ...], loops: int, reduction: int) -> tuple[tuple[bool, bool], tuple[bool, bool]] | str:
    """For each input: (its other dimension is the output's rows, it is read
    transposed), from the operands' dimensions (loop indices; `reduction` is K's); or why
    they are not a contraction tc.matmul computes."""
    first, second, out = dims
    if len(out) not in (2, 3):
        return f"the output has {len(out)} dimensions: tc.matmul's D is a matrix or a batch of matrices"
    if reduction in out or len(out) + 1 != loops:
        return "the output does not hold exactly the parallel dimensions"
    rows, cols = out[-2], out[-1]
    batch = out[0] if len(out) == 3 else None
    roles = []
    for name, mine in (("the first input", first), ("the second input", second)):
        if len(mine) == 3:
            if batch is None:
                return f"{name} has a batch dimension but the output has none"
            if mine[0] != batch:
                return f"{name}'s first dimension is not the output's batch: a batched operand holds the batch first"
        elif len(mine) != 2:
            return f"{name} has {len(mine)} dimensions: tc.matmul's operands are matrices or batches of matrices"
        matrix = mine[-2:]
        if reduction not in matrix:
            return f"{name} does not hold the reduction dimension"
        other = matrix[1] if matrix[0] == reduction else matrix[0]
        if other not in (rows, cols):
            return f"{name}'s other dimension is not one of the output's last two (its rows and columns)"
        k_first = matrix[0] == reduction
        holds_rows = other == rows
        # A is rows x K (transposed when it holds K first); B is K x columns (transposed
        # when it holds the columns first)
        roles.append((holds_rows, k_first if holds_rows else not k_first))
    if roles[0][0] == roles[1][0]:
        return "both inputs hold the same dimension of the output: one must hold its rows, the other its columns"
    return roles[0], roles[1]


def _read_body(block: Block) -> tuple[bool, bool] | str:
    """Whether each input is widened unsigned, from a body that computes acc + x * y (each
    of x and y an input, or an input widened by extf, extsi or extui), and nothing else."""
    x, y, acc = block.args
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.operands) != 1:
        return "its body does not yield one value"
    add = last.operands[0].owner
    if not isinstance(add, arith.AddfOp | arith.AddiOp):
        return "its body does not end in an addition (arith.addf or arith.addi) of the product to the output"
    if acc not in (add.lhs, add.rhs):
        return "its body's addition does not add to the output's element (it does not accumulate)"
    mul = (add.rhs if add.lhs is acc else add.lhs).owner
    if not isinstance(mul, arith.MulfOp | arith.MuliOp) or isinstance(mul, arith.MulfOp) != isinstance(add, arith.AddfOp):
        return "its body does not add a product (arith.mulf with arith.addf, or arith.muli with arith.addi) to the output"
    used: list[Operation] = [mul, add, last]
    unsigned = {}
    for factor in (mul.lhs, mul.rhs):
        source, widen = factor, None
        owner = factor.owner
        if isinstance(owner, tuple(WIDENING)):
            source, widen = owner.operands[0], owner
            used.append(owner)
        if source not in (x, y) or source in unsigned:
            return "its body multiplies something other than the two inputs' elements (each optionally widened by arith.extf, extsi or extui)"
        unsigned[source] = widen is not None and WIDENING[type(widen)]
    if len(used) != len(block.ops):
        extra = next(op for op in block.ops if op not in used)
        return f"its body does more than multiply and add ('{extra.name}')"
    for source in (x, y):
        if not isinstance(source.type, AnyFloat | IntegerType):
            return f"its inputs' elements are {source.type}, not numbers"
    return unsigned[x], unsigned[y]


__all__ = ["CONTRACTION_OPS", "Contraction", "Operand", "read_contraction"]
