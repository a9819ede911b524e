"""The lowering of a loop-level GEMM kernel (a grid of CTAs, an `scf.for` over K) to the
ptx dialect: a software-pipelined K loop over a ring of shared-memory stages.

It is composed of parts with one job each (the ptx ops go to a PtxBuilder, passes/to_ptx/
emit.py); a schedule is a recipe that composes them:

    operands.py           prologue registers, operand addresses, sizes known at launch
    index.py              the kernel's index arithmetic (replayed per tile when persistent)
    kloop.py              the K loop read and checked: windows, rings, trips, the MMA
    ring.py               the pipeline ring: full/empty barriers, stage and phase, release
    tma_loads.py          the windows' TMA loads (multicast and CTA-pair forms), producer loop
    cluster.py            the cluster flags: B multicast (sm_90a), the CTA pair (sm_100a)
    descriptors.py        per-stage descriptor arithmetic, checked against the attached ones
    wgmma.py, tcgen05.py  the MMA families: accumulator, K step, commit, tensor memory
    pipelined.py          schedule: one loop for every thread (both families)
    specialized.py        schedule: producer + consumer warpgroups, persistent (wgmma)
    tcgen05_specialized.py  schedule: TMA, MMA and epilogue warps, persistent, CTA pair
    epilogue_registers.py, epilogue_tma.py, epilogue_tmem.py   storing D
    split_k.py, k_slices.py  split-K: the cluster's reduction of its partial tiles, and
                          the check that its CTAs' K ranges take every K step once
    split_k_global.py     split-K through a workspace in global memory (no cluster)
    launch.py             parameters, grid, shared memory and metadata of the kernel

A new schedule is a new recipe module (and a line in `SCHEDULES` below); a new MMA family
is a module like wgmma.py that the recipes take. docs/architecture.md says more.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import scf
from xdsl.ir import Operation
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp
from lower_tc.passes.to_ptx.gemm import pipelined, specialized, tcgen05_specialized
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.epilogue_tma import wait_for_stores
from lower_tc.passes.to_ptx.gemm.launch import kernel_op
from lower_tc.passes.to_ptx.gemm.lowered import Lowered
from lower_tc.passes.to_ptx.gemm.split_k import check_reduces

#: (target, schedule) -> the recipe that lowers the K loop.
SCHEDULES: dict[tuple[str, str], Callable[[GemmKernel], Lowered]] = {
    ("sm_90a", "pipelined"): pipelined.lower_wgmma,
    ("sm_90a", "warp_specialized"): specialized.lower,
    ("sm_100a", "pipelined"): pipelined.lower_tcgen05,
    ("sm_100a", "warp_specialized"): lambda k: tcgen05_specialized.lower(k, pair=k.options.cluster == 2),
}


def is_gemm_kernel(kernel: Operation) -> bool:
    """A loop-level kernel: one whose body holds an scf.for."""
    return any(isinstance(op, scf.ForOp) for op in tc.kernel_body(kernel).ops)


def lower_gemm_kernel(kernel: Operation) -> ptx.KernelOp:
    """One ptx.kernel from one loop-level GEMM kernel."""
    target = tc.parse_kernel_target(kernel.attributes[tc.TARGET_ATTR].data).value  # type: ignore[attr-defined]
    try:
        options = tc.kernel_schedule(kernel)
    except VerifyException as err:
        error_at(kernel, str(err))
    recipe = SCHEDULES[(target, options.schedule)]
    check_reduces(kernel, options)
    for op in kernel.walk():
        if isinstance(op, WindowLoadOp | WindowStoreOp) and op.outer is not None:
            error_at(op, "a GEMM kernel's windows are into matrices or batches of matrices (2-d or 3-d): "
                         "a batch of batches (4-d) is an attention kernel's")
    k = GemmKernel.read(kernel, options)
    done = k.b.located(k.loop_op, lambda _: recipe(k))
    store = None
    for op in k.after_loop:
        k.b.located(op, lambda o: _after_loop(o, done))
        if isinstance(op, WindowStoreOp):
            store = op
    if store is None:
        error_at(k.loop_op, "a GEMM kernel ends with tc.window_store of the K loop's result")
    b = k.b
    if done.tma_store is not None:
        wait_for_stores(k)
    if done.exit_label:  # where threads with no part in the epilogue go
        b.emit(ptx.LabelOp, label=done.exit_label)
    if done.cluster > 1:  # no CTA leaves while its peer may still arrive on its barriers
        b.emit(ptx.ClusterBarrierOp, comment="the cluster's CTAs leave together")
    if done.at_exit is not None:
        done.at_exit()
    b.emit(ptx.RetOp)
    return kernel_op(k, done, store)


def _after_loop(op: Operation, done: Lowered) -> None:
    """An op after the K loop: the store of its result, or the terminator."""
    if isinstance(op, WindowStoreOp):
        if op.acc is not done.loop.result:
            error_at(op, "tc.window_store stores the K loop's result")
        if done.store is not None:  # a schedule that stores each tile in its loop has none
            done.store(op)
        return
    if op.has_trait(IsTerminator, value_if_unregistered=False):
        return
    error_at(op, f"'{op.name}' cannot follow the K loop: a GEMM kernel ends with tc.window_store")


__all__ = ["SCHEDULES", "is_gemm_kernel", "lower_gemm_kernel"]
