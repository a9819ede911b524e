"""`tc.transpose`: a kernel argument's matrices seen transposed, without moving a byte.

    %At = tc.transpose %A : memref<1024x4096xbf16> to memref<4096x1024xbf16, strided<[1, 4096]>>

The view swaps the last two dimensions (rows and columns; batch dimensions stay first)
and their strides: a row-major K x M argument is a column-major M x K matrix. It lets
`tc.matmul` read an operand stored the other way round (a framework's x @ W^T keeps W as
N x K), which `convert-linalg-to-tc` needs; TMA loads such a view as it loads the
argument, with the tile's major-ness following the view's contiguous dimension. xDSL 0.74
has no `memref.transpose`, hence a tc op. The GEMM lowering reads it as its argument's
address with the view's geometry (passes/to_ptx/gemm/operands.py), and the launch metadata
says that A or B is the transpose of its argument (GemmInfo, layout/kernel_info.py).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_types import check_global_memory

#: A stride or size known only at launch.
Dim = int | None


def memref_strides(t: MemRefType) -> tuple[tuple[Dim, ...], Dim]:
    """(strides, offset) in elements, None where dynamic: the default layout's contiguous
    strides (dynamic outside a dynamic size), or a strided layout's. Other layouts (affine
    maps) raise VerifyException."""
    layout = t.layout
    if isinstance(layout, NoneAttr):
        strides: list[Dim] = []
        running: Dim = 1
        for size in reversed(t.get_shape()):
            strides.append(running)
            running = None if running is None or size < 0 else running * size
        return tuple(reversed(strides)), 0
    if not isinstance(layout, StridedLayoutAttr):
        raise VerifyException(f"a memref of layout {layout} cannot be transposed: give it the default or a strided layout")
    offset = layout.offset.data if isinstance(layout.offset, IntAttr) else None
    return tuple(layout.get_strides()), offset


def transposed_type(t: MemRefType) -> MemRefType:
    """The type of `t` with its last two dimensions (and their strides) swapped, in a
    strided layout."""
    shape = list(t.get_shape())
    if len(shape) not in (2, 3, 4):
        raise VerifyException(f"tc.transpose views a matrix, a batch of matrices or a batch of batches (2 to 4 dimensions), not {len(shape)}")
    strides, offset = memref_strides(t)
    swapped = list(strides)
    shape[-2], shape[-1] = shape[-1], shape[-2]
    swapped[-2], swapped[-1] = swapped[-1], swapped[-2]
    return MemRefType(t.element_type, shape, StridedLayoutAttr(swapped, offset), t.memory_space)


def _geometry(t: MemRefType) -> tuple[tuple[int, ...], tuple[Dim, ...], Dim, Attribute, Attribute]:
    strides, offset = memref_strides(t)
    return tuple(t.get_shape()), strides, offset, t.element_type, t.memory_space


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """A view of `source` with its matrices transposed (the module's docstring)."""

    name = "tc.transpose"
    source = operand_def(MemRefType)
    result = result_def(MemRefType)
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue):
        assert isinstance(source.type, MemRefType)
        super().__init__(operands=[source], result_types=[transposed_type(source.type)])

    def verify_(self) -> None:
        src, res = self.source.type, self.result.type
        assert isinstance(src, MemRefType) and isinstance(res, MemRefType)
        check_global_memory(src, "tc.transpose's source")
        want = transposed_type(src)
        if _geometry(res) != _geometry(want):
            raise VerifyException(f"the transpose of {src} is {want}, not {res}")


TRANSPOSE_OPS = [TransposeOp]

__all__ = ["TRANSPOSE_OPS", "TransposeOp", "memref_strides", "transposed_type"]
