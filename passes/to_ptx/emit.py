"""What every kernel lowering uses to write ptx ops: the single-tile KernelLowering and the
pipelined GEMM lowerings append ops in order, number labels and name parameters the same
way."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.layout import LayoutError, TileLayout
from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.dialects.diagnostics import error_at


def param_name(arg: SSAValue) -> str:
    """The PTX parameter of a kernel argument: ``p_`` and its SSA name (or its index)."""
    hint = re.sub(r"[^A-Za-z0-9_]", "_", arg.name_hint or "")
    return f"p_{hint}" if hint else f"p_arg{arg.index}"  # type: ignore[attr-defined]


class Emitter:
    """Appends ptx ops to `self.ops` and numbers labels with `self.labels` (both are the
    lowering's own fields)."""

    ops: list
    labels: int

    param_name = staticmethod(param_name)

    def emit(self, cls: type[ptx.PtxOp], args=(), results=(), **props) -> ptx.PtxOp:
        op = ptx.build(cls, list(args), list(results), **props)
        self.ops.append(op)
        return op

    def val(self, cls: type[ptx.PtxOp], args=(), result: Attribute = i32, **props) -> SSAValue:
        return self.emit(cls, args, [result], **props).res[0]

    def label(self, stem: str) -> str:
        self.labels += 1
        return f"$L_{stem}_{self.labels}"

    def kernel_op(
        self, kernel: Operation, params: list[str], threads: int, smem_bytes: int, info: KernelInfo
    ) -> ptx.KernelOp:
        """The ptx.kernel of the ops emitted so far, at the tc kernel's location, with its
        parameters, block size, dynamic shared memory and launch metadata for the host
        (the contract's JSON: the `info` property is the boundary)."""
        op = ptx.KernelOp.build(
            properties={
                "sym_name": StringAttr(tc.kernel_name(kernel)),
                "params": ArrayAttr([StringAttr(p) for p in params]),
                "threads": IntAttr(threads),
                "smem_bytes": IntAttr(smem_bytes),
                "info": StringAttr(info.to_json()),
            },
            regions=[Region(Block(self.ops))],
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
