"""A float64 numpy reference for tile programs: interprets the tc ops of a kernel.

It reads the same IR the compiler lowers, so the reference follows the
program (which operand is copied where, which WMMA fragment sits at which
offset), not a guess of what the kernel should do. Tiles are logical MN x K
matrices; layouts do not matter here, which is the point: the GPU result must
equal the mathematics whatever the layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import tc


@dataclass
class ReferenceResult:
    """Per output argument index: the expected values, their error scale and the written mask."""

    values: dict[int, np.ndarray]
    scale: dict[int, np.ndarray]  # |A|.|B| (+|C|): the magnitude rounding errors scale with
    written: dict[int, np.ndarray]
    #: Per output argument index: the A and B types of the MMAs whose results it holds
    #: (a kernel may store an s32 result beside an f32 one; each gets its own tolerance).
    types: dict[int, set[str]] = field(default_factory=dict)


def read_arguments(kernel: Operation) -> set[int]:
    """Indices of the kernel arguments the program reads (copies, C loads, WMMA loads);
    an argument both read and written (C updated in place) is an input to the runner."""
    args = list(tc.kernel_body(kernel).args)
    readers = tc.CopyOp | tc.AccLoadOp | tc.WmmaLoadOp
    return {i for i, a in enumerate(args) if any(isinstance(use.operation, readers) for use in a.uses)}


def reference(kernel: Operation, inputs: dict[int, np.ndarray]) -> ReferenceResult:
    """Evaluate the kernel (a func.func or gpu.func) on float64 `inputs` (by argument index)."""
    body = tc.kernel_body(kernel)
    args = list(body.args)
    env: dict[SSAValue, tuple[np.ndarray, np.ndarray]] = {}  # value -> (values, |values| scale)
    feeds: dict[SSAValue, frozenset[str]] = {}  # value -> operand types of the MMAs behind it
    out = ReferenceResult({}, {}, {})

    def arg(value: SSAValue) -> int:
        return args.index(value)  # type: ignore[arg-type]

    def mma(result: SSAValue, a_val: SSAValue, b_val: SSAValue, acc: SSAValue, b_is_nk: bool) -> None:
        """result = acc + A.B, and the operand types behind it (for its tolerance);
        wgmma/tcgen05 tiles hold B as N x K, WMMA fragments as K x N."""
        mma_types = frozenset(v.type.dtype for v in (a_val, b_val))  # type: ignore[attr-defined]
        feeds[result] = feeds.get(acc, frozenset()) | mma_types
        a, a_abs = env[a_val]
        b, b_abs = env[b_val]
        c, c_abs = env[acc]
        if b_is_nk:
            b, b_abs = b.T, b_abs.T
        env[result] = (c + a @ b, c_abs + a_abs @ b_abs)

    def output(index: int, stored: SSAValue) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The output argument's arrays, noting which MMA types `stored` came from."""
        if index not in out.values:
            shape = inputs[index].shape
            out.values[index] = np.zeros(shape)
            out.scale[index] = np.zeros(shape)
            out.written[index] = np.zeros(shape, dtype=bool)
            out.types[index] = set()
        out.types[index] |= feeds.get(stored, frozenset())
        return out.values[index], out.scale[index], out.written[index]

    for op in body.ops:
        if isinstance(op, tc.CopyOp):
            src = inputs[arg(op.src)]
            mat = src if op.operand.data is tc.Operand.A else src.T
            env[op.dst] = (mat, np.abs(mat))
        elif isinstance(op, tc.AccZeroOp):
            t = op.acc.type
            assert isinstance(t, tc.AccType)
            env[op.acc] = (np.zeros((t.m, t.n)), np.zeros((t.m, t.n)))
        elif isinstance(op, tc.AccLoadOp):
            c = inputs[arg(op.src)]
            env[op.acc] = (c.copy(), np.abs(c))
        elif isinstance(op, tc.WgmmaOp | tc.Tcgen05MmaOp):
            mma(op.result, op.a, op.b, op.acc, b_is_nk=True)
        elif isinstance(op, tc.AccStoreOp):
            values, scale, written = output(arg(op.dst), op.acc)
            v, s = env[op.acc]
            values[...], scale[...], written[...] = v, s, True
        elif isinstance(op, tc.WmmaZeroOp):
            m, n, _ = tc.WMMA_SHAPES[op.frag.type.shape.data]  # type: ignore[union-attr]
            env[op.frag] = (np.zeros((m, n)), np.zeros((m, n)))
        elif isinstance(op, tc.WmmaLoadOp):
            ft = op.frag.type
            assert isinstance(ft, tc.WmmaFragType)
            layout = ft.layout.data or "row"
            rows, cols = tc.wmma_stored_extent(ft, layout)
            r0, c0 = (o.data for o in op.offsets.data)
            block = inputs[arg(op.src)][r0 : r0 + rows, c0 : c0 + cols]
            mat = block if layout == "row" else block.T
            env[op.frag] = (mat, np.abs(mat))
        elif isinstance(op, tc.WmmaMmaOp):
            mma(op.d, op.a, op.b, op.c, b_is_nk=False)
        elif isinstance(op, tc.WmmaStoreOp):
            ft = op.frag.type
            assert isinstance(ft, tc.WmmaFragType)
            layout = op.layout.data.value
            rows, cols = tc.wmma_stored_extent(ft, layout)
            r0, c0 = (o.data for o in op.offsets.data)
            v, s = env[op.frag]
            if layout == "col":
                v, s = v.T, s.T
            values, scale, written = output(arg(op.dst), op.frag)
            values[r0 : r0 + rows, c0 : c0 + cols] = v
            scale[r0 : r0 + rows, c0 : c0 + cols] = s
            written[r0 : r0 + rows, c0 : c0 + cols] = True
    return out
