"""The `tc` dialect: shared-memory tiles with layouts, and the tensor-core ops on them.

A tile program is a kernel (a ``func.func`` or ``gpu.func`` carrying
``tc.target = "sm_90a"`` or ``"sm_100a"``) whose arguments are global-memory memrefs (A is M x K, B is K x N,
C and D are M x N; copy sources row- or column-major, see `matrix_strides`). Inside it:

* ``tc.smem_tile`` makes a shared-memory tile of type
  ``!tc.tile<MNxKxT, #tc.layout<major, swizzle = ..., order = ..., offset = ...>>``
  (MN is M for an A tile, N for a B tile);
* ``tc.copy`` fills a tile from a global operand, by the threads or by TMA;
* ``tc.wgmma`` (sm_90a) and ``tc.tcgen05_mma`` (sm_100a) multiply tiles into an
  accumulator ``!tc.acc<MxNxT>``, made by ``tc.acc_zero`` or ``tc.acc_load``
  and written back by ``tc.acc_store``;
* ``tc.wmma_load`` / ``tc.wmma_mma`` / ``tc.wmma_store`` are the legacy warp-level
  path on ``!tc.wmma_frag`` values, straight from global memory;
* ``tc.transpose`` views a kernel argument's matrices transposed (an operand of
  ``tc.matmul`` stored the other way round);
* ``tc.matmul`` is a whole GEMM; its options (`tc_schedule.GEMM_OPTIONS`) become the
  loop level's ``tc.schedule = #tc.gemm_schedule<...>`` (read by `kernel_schedule`).

A kernel's own tc attributes are ``tc.target``, ``tc.grid`` and ``tc.schedule``;
`tc_kernels`, through which every pass finds its kernels, refuses any other.

Every verifier calls the pure layout core (`lower_tc.layout`) for the rules the
hardware imposes and reports them at the op.
"""

from __future__ import annotations

from xdsl.ir import Dialect

# Every public name of the tc modules is re-exported: `tc.WgmmaOp`, `tc.matrix_strides` keep working.
from lower_tc.dialects.tc_kernel import (
    GRID_ATTR,
    KERNEL_ATTRS,
    PINGPONG_ATTR,
    SCHEDULE_ATTR,
    TARGET_ATTR,
    check_kernel,
    check_kernel_attributes,
    enclosing_kernel,
    in_attention_loop,
    in_gemm_kernel,
    is_attention_loop,
    kernel_body,
    kernel_name,
    kernel_schedule,
    kernel_target,
    lost_gemm_loop,
    parse_kernel_target,
    tc_kernels,
)
from lower_tc.dialects.tc_schedule import (
    GEMM_OPTIONS,
    GemmOption,
    GemmSchedule,
    GemmScheduleAttr,
    MatmulOptions,
)
from lower_tc.dialects.tc_attrs import (
    CopyVia,
    CopyViaAttr,
    DescAttr,
    IdescAttr,
    LayoutAttr,
    Operand,
    OperandAttr,
    WmmaLayout,
    WmmaLayoutAttr,
)
from lower_tc.dialects.tc_types import (
    AFragType,
    AccType,
    RowsType,
    TileType,
    WMMA_REGS,
    WMMA_SHAPES,
    WMMA_TYPES,
    WmmaFragType,
    _memref_shape,
    dtype_name,
    element_bits,
    matrix_strides,
)
from lower_tc.dialects.tc_tile_ops import (
    CopyOp,
    TileTransposeOp,
    SmemTileOp,
    TILE_OPS,
)
from lower_tc.dialects.tc_acc_ops import (
    ACC_OPS,
    AccLoadOp,
    AccStoreOp,
    AccZeroOp,
    WGMMA_ACCUMULATORS,
    wgmma_valid_n,
)
from lower_tc.dialects.tc_mma_ops import (
    MMA_OPS,
    AccSoftmaxOp,
    AccToAOp,
    Tcgen05MmaOp,
    WgmmaOp,
)
from lower_tc.dialects.tc_rows_ops import (
    ROWS_OPS,
    AccExpOp,
    AccMaskOp,
    AccRescaleOp,
    AccRowDivOp,
    AccRowMaxOp,
    AccRowSumOp,
    RowsFillOp,
    RowsLseOp,
    RowsStoreOp,
)
from lower_tc.dialects.tc_wmma_ops import (
    WMMA_OPS,
    WmmaLoadOp,
    WmmaMmaOp,
    WmmaStoreOp,
    WmmaZeroOp,
    wmma_stored_extent,
)
from lower_tc.dialects.tc_gemm import WINDOW_OPS, WindowLoadOp, WindowStoreOp
from lower_tc.dialects.tc_matmul import MATMUL_ATTRS, MATMUL_OPS, GemmConfigAttr, MatmulOp
from lower_tc.dialects.tc_attention import ATTENTION_OPS, AttentionOp
from lower_tc.dialects.tc_transpose import TRANSPOSE_OPS, TransposeOp, transposed_type
from lower_tc.layout import Arch, Major
from lower_tc.layout.limits import SMEM_CAPACITY


#: The tc ops, family by family (another module's ops: one more `*THEIR_OPS` entry).
OPS = [*TILE_OPS, *ACC_OPS, *MMA_OPS, *ROWS_OPS, *WMMA_OPS, *MATMUL_OPS, *WINDOW_OPS, *TRANSPOSE_OPS, *ATTENTION_OPS]
#: The tc attributes and types.
ATTRIBUTES = [
    *MATMUL_ATTRS,
    GemmScheduleAttr,
    LayoutAttr,
    TileType,
    AccType,
    AFragType,
    RowsType,
    WmmaFragType,
    DescAttr,
    IdescAttr,
    OperandAttr,
    CopyViaAttr,
    WmmaLayoutAttr,
]

TC = Dialect("tc", OPS, ATTRIBUTES)
