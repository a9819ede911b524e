"""The tc -> ptx lowering of one tile kernel, one function per op, grouped by family.

kernel.py         the per-kernel state: emission helpers, prologue, epilogue, metadata
copies.py         tc.smem_tile, tc.copy (by the threads, by TMA)
accumulators.py   tc.acc_zero, tc.acc_load, tc.acc_store; the wgmma register fragments
wgmma.py          tc.wgmma (sm_90a)
tcgen05.py        tc.tcgen05_mma (sm_100a): tensor memory, the MMAs, tcgen05.ld/st
wmma.py           tc.wmma_load, tc.wmma_zero, tc.wmma_mma, tc.wmma_store
softmax.py, online_softmax.py   attention's softmax on accumulators: a whole row, and
                  block by block with running per-row statistics (!tc.rows)

`LOWERINGS` maps each op class to its lowering; it lives here, above the family modules,
because they import kernel.py. passes/lower_to_ptx.py is the pass that calls `lower_kernel`.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects import arith, memref
from xdsl.ir import Operation

from lower_tc.dialects import ptx, tc
from lower_tc.passes.to_ptx.accumulators import lower_acc_load, lower_acc_store, lower_acc_zero
from lower_tc.passes.to_ptx.copies import lower_copy, lower_smem_tile
from lower_tc.passes.to_ptx.kernel import KernelLowering, Lowering
from lower_tc.passes.to_ptx.online_softmax import (
    lower_acc_exp, lower_acc_mask, lower_acc_rescale, lower_acc_row_div, lower_acc_row_max, lower_acc_row_sum, lower_rows_fill,
    lower_rows_lse, lower_rows_store,
)
from lower_tc.passes.to_ptx.scalars import lower_memref_load, lower_mulf
from lower_tc.passes.to_ptx.softmax import lower_acc_softmax
from lower_tc.passes.to_ptx.tcgen05 import lower_tcgen05_mma
from lower_tc.passes.to_ptx.wgmma import lower_acc_to_a, lower_wgmma
from lower_tc.passes.to_ptx.wmma import lower_wmma_load, lower_wmma_mma, lower_wmma_store, lower_wmma_zero

#: tc op class -> the function that lowers it (terminators need none; anything else is an error).
LOWERINGS: Mapping[type[Operation], Lowering] = {
    tc.SmemTileOp: lower_smem_tile,
    tc.CopyOp: lower_copy,
    tc.AccZeroOp: lower_acc_zero,
    tc.AccLoadOp: lower_acc_load,
    tc.WgmmaOp: lower_wgmma,
    tc.AccToAOp: lower_acc_to_a,
    tc.AccSoftmaxOp: lower_acc_softmax,
    tc.RowsFillOp: lower_rows_fill,
    tc.AccRowMaxOp: lower_acc_row_max,
    tc.AccExpOp: lower_acc_exp,
    tc.AccRowSumOp: lower_acc_row_sum,
    tc.AccRescaleOp: lower_acc_rescale,
    tc.AccRowDivOp: lower_acc_row_div,
    tc.AccMaskOp: lower_acc_mask,
    tc.RowsLseOp: lower_rows_lse,
    tc.RowsStoreOp: lower_rows_store,
    tc.Tcgen05MmaOp: lower_tcgen05_mma,
    tc.AccStoreOp: lower_acc_store,
    tc.WmmaLoadOp: lower_wmma_load,
    tc.WmmaZeroOp: lower_wmma_zero,
    tc.WmmaMmaOp: lower_wmma_mma,
    tc.WmmaStoreOp: lower_wmma_store,
    memref.LoadOp: lower_memref_load,
    arith.MulfOp: lower_mulf,
}  # type: ignore[dict-item]  # each function takes its own op class


def lower_kernel(kernel: Operation, module_tables: list[ptx.TableOp], table_prefix: str) -> ptx.KernelOp:
    """One tc kernel as a ptx.kernel; its tables go to `module_tables`, named `table_prefix`_i."""
    return KernelLowering(kernel, module_tables, table_prefix, LOWERINGS).run()
