"""What every kernel lowering uses to write ptx ops: the single-tile lowering and the GEMM
lowering append ops in order, number labels, name parameters and build the ptx.kernel the
same way (a `PtxBuilder` each, by composition).

The PTX printer names registers in the order ops use them, so the order of calls on a
builder is the order of the PTX: a part that emits something earlier or later changes the
kernel text."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr, i1, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.layout import LayoutError, TileLayout
from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.dialects.diagnostics import error_at


def param_name(arg: SSAValue) -> str:
    """The PTX parameter of a kernel argument: ``p_`` and its SSA name (or its index)."""
    hint = re.sub(r"[^A-Za-z0-9_]", "_", arg.name_hint or "")
    return f"p_{hint}" if hint else f"p_arg{arg.index}"  # type: ignore[attr-defined]


T = TypeVar("T")

#: What a counted loop's body builder receives: the counter, the stage and the phase.
LoopBody = Callable[[SSAValue, SSAValue, SSAValue], None]


@dataclass
class PtxBuilder:
    """Appends ptx ops (and the scf loops that ptx-lower-loops turns into branches)."""

    ops: list[Operation] = field(default_factory=list)
    labels: int = 0

    def emit(self, cls: type[ptx.PtxOp], args: Sequence[SSAValue] = (), results: Sequence[Attribute] = (), **props: object) -> ptx.PtxOp:
        op = ptx.build(cls, list(args), list(results), **props)
        self.ops.append(op)
        return op

    def val(self, cls: type[ptx.PtxOp], args: Sequence[SSAValue] = (), result: Attribute = i32, **props: object) -> SSAValue:
        """The one result of a new op."""
        return self.emit(cls, args, [result], **props).res[0]

    def imm(self, value: int | str, t: str = "u32") -> SSAValue:
        """A register holding an immediate (64-bit for the 64-bit types)."""
        return self.val(ptx.MovImmOp, result=i64 if t in ("u64", "b64", "s64") else i32, type=t, value=value)

    def add_imm(self, x: SSAValue, value: int, t: str = "s32") -> SSAValue:
        """x + value, or x itself when value is 0."""
        if not value:
            return x
        return self.val(ptx.AddOp, [x], x.type, type=t, imm=value)

    def label(self, stem: str) -> str:
        self.labels += 1
        return f"$L_{stem}_{self.labels}"

    def if_(self, pred: SSAValue, stem: str, negate: bool = True) -> str:
        """Skips to the returned label unless `pred` holds (with negate), or if it holds."""
        skip = self.label(stem)
        self.emit(ptx.BraOp, [pred], label=skip, negate=1 if negate else None)
        return skip

    def wait(self, mbar: SSAValue, parity: SSAValue, offset: int = 0) -> None:
        """Spin until the mbarrier at mbar + offset has completed the phase of `parity`."""
        again = self.label("wait")
        self.emit(ptx.LabelOp, label=again)
        ready = self.val(ptx.MbarrierTryWaitParityOp, [mbar, parity], i1, offset=offset)
        self.emit(ptx.BraOp, [ready], label=again, negate=1)

    def block(self, arg_count: int, build: Callable[[Sequence[SSAValue]], None]) -> Block:
        """A block of `arg_count` i32 arguments whose ops `build(args)` emits (here, in order)."""
        outer = self.ops
        self.ops = []
        body = Block(arg_types=[i32] * arg_count)
        build(body.args)
        body.add_ops(self.ops)
        self.ops = outer
        return body

    def counted_loop(
        self, count: int | SSAValue, build: LoopBody, start: int | SSAValue = 0, step: int | SSAValue = 1,
        carried: tuple[SSAValue, SSAValue] | None = None,
    ) -> scf.ForOp:
        """An scf.for over i32 registers, i from `start` to `count` by `step`, carrying a
        stage s and a phase p (from `carried`, else 0); `build(i, s, p)` emits the body,
        ending in its yield. The loop's results are the last s and p."""
        body = self.block(3, lambda args: build(*args))

        def reg(x: int | SSAValue) -> SSAValue:
            return self.imm(x, "s32") if isinstance(x, int) else x

        zero = self.imm(0, "s32")
        init = list(carried) if carried is not None else [zero, zero]
        loop = scf.ForOp(reg(start), reg(count), reg(step), init, Region(body))
        self.ops.append(loop)
        return loop

    def yield_(self, *values: SSAValue) -> None:
        """Ends a loop body, passing `values` to the next iteration."""
        self.ops.append(scf.YieldOp(*values))

    def located(self, op: Operation, lower: Callable[[Operation], T]) -> T:
        """Runs `lower(op)` and returns what it returns; every op it emits without a file
        location gets op's, so the printer cites it and ptxas errors map back to it."""
        first = len(self.ops)
        result = lower(op)
        for new in self.ops[first:]:
            if new.location is None or not hasattr(new.location, "line"):
                new.location = op.location
        return result


def kernel_op(kernel: Operation, body: list[Operation], params: list[str], threads: int, smem_bytes: int, info: KernelInfo) -> ptx.KernelOp:
    """The ptx.kernel of `body`, at the tc kernel's location, with its parameters, block
    size, dynamic shared memory and launch metadata for the host (the contract's JSON: the
    `info` property is the boundary)."""
    op = ptx.KernelOp.build(
        properties={
            "sym_name": StringAttr(tc.kernel_name(kernel)),
            "params": ArrayAttr([StringAttr(p) for p in params]),
            "threads": IntAttr(threads),
            "smem_bytes": IntAttr(smem_bytes),
            "info": StringAttr(info.to_json()),
        },
        regions=[Region(Block(body))],
    )
    op.location = kernel.location
    return op


#: What the lowering says of a tile that tc-choose-swizzle and tc-assign-smem have not placed.
UNPLACED = "run tc-choose-swizzle and tc-assign-smem before tc-lower-to-ptx"


def placed_layout(op: Operation, unplaced: str = UNPLACED) -> TileLayout:
    """The layout of a tc.smem_tile whose swizzle and offset are chosen; a located error
    (`unplaced`, or the layout core's complaint) otherwise."""
    t = op.tile.type  # type: ignore[attr-defined]
    assert isinstance(t, tc.TileType)
    if t.layout.is_auto or not t.layout.has_offset:
        error_at(op, unplaced)
    try:
        return t.tile_layout()
    except LayoutError as err:
        error_at(op, str(err))
