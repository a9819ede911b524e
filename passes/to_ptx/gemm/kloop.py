"""Reads a loop-level GEMM kernel: the ring tiles and the accumulator before the K loop,
then the loop itself, checked (one tc.window_load of A and of B moving along K with the
induction variable, one MMA into the carried accumulator, tiles with the same number of
stages, BK the loop's step). What it finds is a `KLoop`, which every schedule reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp
from lower_tc.layout import TileLayout
from lower_tc.layout.limits import index_problem
from lower_tc.layout.gemm import ring_stride
from lower_tc.passes.to_ptx.emit import placed_layout
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.index import IndexEnv


@dataclass(frozen=True)
class TileRing:
    """A tile with `stages` buffers, `stride` bytes apart."""

    layout: TileLayout
    stages: int
    stride: int


@dataclass
class BeforeLoop:
    """What the ops before the K loop declare: the ring tiles, where shared memory is
    free after them, and the accumulator the loop starts from."""

    rings: dict[SSAValue, TileRing] = field(default_factory=dict)
    smem_end: int = 0
    acc_zero: SSAValue | None = None

    def add(self, op: Operation, index: IndexEnv) -> None:
        """One op before the loop: a ring tile, tc.acc_zero, a view of an argument (the
        prologue read it: operands.py, read_views), or index arithmetic."""
        if isinstance(op, tc.TransposeOp):
            return
        if isinstance(op, tc.SmemTileOp):
            layout = placed_layout(op)
            ring = TileRing(layout, op.ring_stages, ring_stride(layout.footprint))
            self.rings[op.tile] = ring
            self.smem_end = max(self.smem_end, layout.address + ring.stages * ring.stride)
            return
        if isinstance(op, tc.AccZeroOp):
            self.acc_zero = op.acc
            return
        index.add(op)


@dataclass(frozen=True)
class KLoop:
    """The K loop, checked: its MMA, its two windows (A's, then B's) and their rings, the
    trip count (a number, or a register when K is known at launch), the accumulator."""

    op: scf.ForOp
    mma: Operation
    loads: tuple[WindowLoadOp, WindowLoadOp]
    rings: tuple[TileRing, TileRing]
    stages: int
    trips: int | SSAValue
    lb: int | SSAValue  # a register where the bounds are the CTA's own (split-K)
    step: int
    acc_type: tc.AccType
    result: SSAValue

    @property
    def k_slices(self) -> int:
        """MMA instructions per stage: BK over one instruction's K."""
        layout = self.rings[0].layout
        return layout.k // layout.dtype.k_per_instruction


def read_k_loop(
    b: PtxBuilder, loop: scf.ForOp, index: IndexEnv, before: BeforeLoop,
    mma_class: type[Operation], check_mma: Callable[[Operation], None], split_k: bool = False,
) -> KLoop:
    """The K loop's facts; a located error for anything the pipelined lowering cannot run
    (`check_mma` adds the MMA family's own refusals). Emits the trip count's arithmetic
    when K is known at launch, or, in a split-K kernel (`split_k`), where the loop runs
    over its CTA's own range of K (bounds from the index arithmetic)."""
    if loop.step not in index.consts:
        error_at(loop, "the K loop's step must be a constant")
    step = index.consts[loop.step]
    if step <= 0:
        error_at(loop, f"the K loop's step must be positive, not {step}")
    trips: int | SSAValue
    lb: int | SSAValue
    if loop.lb not in index.consts:  # a K range of its own (a split-K rank's): counted at run time
        if not split_k:
            error_at(loop, "the K loop's lower bound must be a constant")
        lb = index.reg(loop.lb, loop)
        span = b.val(ptx.SubOp, [index.reg(loop.ub, loop), lb], type="s32", comment="the K range's steps, from its bounds")
        trips = b.val(ptx.DivOp, [b.add_imm(span, step - 1)], type="s32", imm=step)
    elif loop.ub in index.consts:
        lb = index.consts[loop.lb]
        trips = -(-(index.consts[loop.ub] - lb) // step)
        if trips <= 0:
            error_at(loop, "the K loop runs no iteration: K must be positive")
        problem = index_problem(lb + trips * step - 1, "the K loop's last K coordinate (its last step's end)")
        if problem is not None:
            error_at(loop, problem)
    else:  # K known at launch: ceil((ub - lb) / step) iterations, counted at run time
        lb = index.consts[loop.lb]
        span = b.add_imm(index.reg(loop.ub, loop), step - 1 - lb)
        trips = b.val(ptx.DivOp, [span], type="s32", imm=step, comment="K steps, from the size known at launch")
    if len(loop.iter_args) != 1 or not isinstance(loop.iter_args[0].type, tc.AccType):
        error_at(loop, "the K loop carries exactly one value, the accumulator")
    iv, carried = loop.body.block.args[0], loop.body.block.args[1]
    inner = [op for op in loop.body.block.ops if not op.has_trait(IsTerminator)]
    windows = [op for op in inner if isinstance(op, WindowLoadOp)]
    mma_name = mma_class.name
    mmas = [op for op in inner if isinstance(op, mma_class)]
    for op in inner:
        if not isinstance(op, WindowLoadOp | mma_class):
            error_at(op, f"'{op.name}' cannot be in the K loop: it holds tc.window_load and {mma_name}")
    if len(mmas) != 1:
        error_at(loop, f"the K loop holds one {mma_name}")
    mma = mmas[0]
    yielded = loop.body.block.last_op
    assert isinstance(yielded, scf.YieldOp)
    if mma.acc is not carried or list(yielded.operands) != [mma.result]:  # type: ignore[attr-defined]
        error_at(mma, f"the {mma_name} accumulates into the loop's carried accumulator and yields its result")
    if loop.iter_args[0] is not before.acc_zero:
        error_at(loop, "the K loop's accumulator starts from tc.acc_zero")
    check_mma(mma)
    by_tile: dict[SSAValue, WindowLoadOp] = {}
    for w in windows:
        role = w.operand.data
        moving = w.col if role is tc.Operand.A else w.row
        if moving is not iv:
            error_at(w, f"operand {role}'s window moves along K with the loop: its K coordinate must be the induction variable")
        if w.dst in by_tile:
            error_at(w, "each ring tile is loaded by one window")
        by_tile[w.dst] = w
    tiles = (mma.a, mma.b)  # type: ignore[attr-defined]
    for tile, role in zip(tiles, "AB"):
        if tile not in by_tile:
            error_at(mma, f"the {mma_name}'s {role} tile must be loaded by a tc.window_load in the loop")
    ring_a, ring_b = before.rings.get(tiles[0]), before.rings.get(tiles[1])
    if ring_a is None or ring_b is None:
        error_at(mma, f"the {mma_name}'s tiles must come from tc.smem_tile in this kernel")
    stages = ring_a.stages
    if ring_b.stages != stages or stages < 2:
        error_at(mma, f"A and B need the same number of stages, at least 2 (A has {ring_a.stages}, B {ring_b.stages})")
    if step != ring_a.layout.k:
        error_at(loop, f"the loop steps K by {step}, but the tiles hold BK = {ring_a.layout.k}")
    acc_t = mma.acc.type  # type: ignore[attr-defined]
    assert isinstance(acc_t, tc.AccType)
    return KLoop(loop, mma, (by_tile[tiles[0]], by_tile[tiles[1]]), (ring_a, ring_b), stages, trips, lb, step, acc_t, loop.results[0])


def find_store(kernel: Operation) -> WindowStoreOp | None:
    """The kernel's tc.window_store (the checks after the loop say it is the one)."""
    return next((op for op in tc.kernel_body(kernel).ops if isinstance(op, WindowStoreOp)), None)
