"""The one-loop schedule (`#tc.gemm_schedule<pipelined>`): thread 0 keeps the loads S-1
K steps ahead of the MMAs, between them, in the loop every thread runs.

    prologue: load iterations 0 .. S-2 into stages 0 .. S-2
    iteration i (stage s = i mod S, phase p = (i div S) & 1):
        wait full[s] (parity p); the MMAs of stage s
        release iteration i-1's stage (wgmma: every thread arrives on empty[s-1] after
            wgmma.wait_group 1; tcgen05: the MMA thread's commit arrives on empty[s])
        thread 0: wait empty[s-1] (the parity of iteration i-1), then load
                  iteration i+S-1 into stage s-1
    after the loop: the last MMAs; the epilogue stores the accumulator

wgmma: BM/64 warpgroups, each with 64 rows of the tile in registers. tcgen05: one
warpgroup; thread 0 alone runs the loop and issues the MMAs into tensor memory, and after
the last a commit onto a "done" barrier tells every thread the accumulator is complete.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.tc_gemm import WindowStoreOp
import lower_tc.passes.to_ptx.gemm.tcgen05 as tcgen05
import lower_tc.passes.to_ptx.gemm.wgmma as wgmma
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.epilogue_registers import store_fragments
from lower_tc.passes.to_ptx.gemm.epilogue_tma import choose_epilogue, store_pieces
from lower_tc.passes.to_ptx.gemm.epilogue_tmem import store_rows
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, read_k_loop
from lower_tc.passes.to_ptx.gemm.lowered import Lowered
from lower_tc.passes.to_ptx.gemm.grid import check_clusters
from lower_tc.passes.to_ptx.gemm.ring import Ring, Step
from lower_tc.passes.to_ptx.gemm.split_k import SplitK
from lower_tc.passes.to_ptx.gemm.split_k_global import GlobalSplitK
from lower_tc.passes.to_ptx.gemm.tma_loads import TmaLoads, read_windows


def prologue_loads(k: GemmKernel, loop: KLoop, loads: TmaLoads) -> None:
    """Thread 0 fills stages 0 .. S-2 (fewer where K has fewer steps)."""
    b, stages, trips = k.b, loop.stages, loop.trips
    skip = b.if_(k.regs.is_thread0, "prologue_loads")
    for j in range(min(stages - 1, trips) if isinstance(trips, int) else stages - 1):
        # K may end before the ring is full (a K range of the CTA's own may be empty)
        if not isinstance(trips, int) and (j or not isinstance(loop.lb, int)):
            b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [trips], i1, cmp="le", type="s32", imm=j)], label=skip)
        loads.issue(j, j)
    b.emit(ptx.LabelOp, label=skip)


def refill_and_advance(k: GemmKernel, loop: KLoop, ring: Ring, loads: TmaLoads, st: Step) -> None:
    """Thread 0 refills iteration i-1's stage with iteration i + S - 1 once it is
    released; then the next stage and phase are yielded."""
    b = k.b
    j = b.val(ptx.AddOp, [st.i], type="u32", imm=loop.stages - 1)
    if isinstance(loop.trips, int):
        beyond = b.val(ptx.SetpOp, [j], i1, cmp="ge", type="u32", imm=loop.trips)
    else:
        beyond = b.val(ptx.SetpOp, [j, loop.trips], i1, cmp="ge", type="u32")
    no_load = b.label("no_load")
    b.emit(ptx.BraOp, [beyond], label=no_load)
    b.emit(ptx.BraOp, [k.regs.is_thread0], label=no_load, negate=1)
    fresh = b.label("fresh_stage")
    assert st.first is not None  # this schedule's steps release iteration i - 1's stage
    b.emit(ptx.BraOp, [st.first], label=fresh)
    b.wait(st.prev_empty, st.prev_p, ring.empty_off)
    b.emit(ptx.LabelOp, label=fresh)
    loads.issue(j, st.prev)
    b.emit(ptx.LabelOp, label=no_load)
    ring.advance(st.s, st.p, st.p_flip)


def lower_wgmma(k: GemmKernel) -> Lowered:
    """The one-loop wgmma GEMM (module docstring)."""
    b, regs = k.b, k.regs
    loop = read_k_loop(b, k.loop_op, k.index, k.before, wgmma.MMA, wgmma.check_mma, split_k=k.options.split_k > 1)
    windows = read_windows(loop, k.args, k.index, k.tensor_maps, k.options.l2_promotion)
    warpgroups = wgmma.warpgroups(loop)
    split = SplitK.prepare(k, loop)  # its partial tile's shared memory comes before the barriers
    split_global = GlobalSplitK.prepare(k, loop)
    ring = Ring.allocate(b, regs.smem, k.memory, loop.stages)
    tma_store = choose_epilogue(k, loop, warpgroups, wgmma=True) if split is None else None
    if split is not None:
        check_clusters(k.kernel, k.grid, split.size)
    ring.init_barriers(regs.is_thread0, 128 * warpgroups, [], cluster=False)
    loads = TmaLoads(b, regs.smem, windows, loop.lb, loop.step, ring.full_off)
    loads.bind_tensor_maps()
    if tma_store is not None:
        tma_store.bind_tensor_map(k)

    acc = wgmma.declare_accumulator(b, loop.acc_type)
    total = wgmma.declare_total(b, loop, k.options.promoted)
    descriptors = StageDescriptors.setup(b, loop.mma, loop, warpgroups, regs.wg, regs.smem, regs.smem16, clustered=split is not None)
    mma = wgmma.Wgmma.make(loop, acc, descriptors, depth=1, total=total)
    wgmma.check_registers(loop, mma.parts, wgmma.register_cap(128 * warpgroups), "pipelined: the SM's registers over its threads")
    acc = mma.result  # what the epilogue stores
    prologue_loads(k, loop, loads)

    def body(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        st = ring.consumer_step(i, s, p)
        mma.consume(ring, st, None)
        refill_and_advance(k, loop, ring, loads, st)

    b.counted_loop(loop.trips, body)
    mma.drain(b)

    def store(op: WindowStoreOp) -> None:
        if split is not None:
            split.store(k, op, acc, regs.wg, first_thread=0, threads=128 * warpgroups, meet_consumers=False)
        elif split_global is not None:
            def store_whole() -> None:
                if tma_store is not None:
                    store_pieces(k, op, tma_store, acc, loop.acc_type, regs.wg)
                else:
                    store_fragments(k, op, acc, loop.acc_type, regs.wg)

            split_global.reduce_and_store(k, op, acc, regs.wg, first_thread=0, threads=128 * warpgroups, meet_consumers=False,
                                          store_whole=store_whole)
        elif tma_store is not None:
            store_pieces(k, op, tma_store, acc, loop.acc_type, regs.wg)
        else:
            store_fragments(k, op, acc, loop.acc_type, regs.wg)

    return Lowered(loop, 128 * warpgroups, store, tma_store, cluster=split.size if split is not None else 1,
                   workspace=split_global.info if split_global is not None else None)


def lower_tcgen05(k: GemmKernel) -> Lowered:
    """The one-loop tcgen05 GEMM (module docstring)."""
    b, regs = k.b, k.regs
    loop = read_k_loop(b, k.loop_op, k.index, k.before, tcgen05.MMA, lambda op: tcgen05.check_mma(op, pair=False))
    windows = read_windows(loop, k.args, k.index, k.tensor_maps, k.options.l2_promotion)
    tcgen05.check_tile(loop)
    ring = Ring.allocate(b, regs.smem, k.memory, loop.stages)
    choose_epilogue(k, loop, 1, wgmma=False)  # a located error where the TMA store is asked for
    done = k.memory.take(16, 8)  # the "done" barrier, then the slot tcgen05.alloc writes
    slot = done + 8
    ring.init_barriers(regs.is_thread0, 1, [(done, 1)], cluster=False)  # empty: the commit's one arrival
    loads = TmaLoads(b, regs.smem, windows, loop.lb, loop.step, ring.full_off)
    loads.bind_tensor_maps()

    acc_t = loop.acc_type
    columns = max(32, 1 << (acc_t.n - 1).bit_length())
    tmem = tcgen05.TensorMemory.allocate(
        b, regs.tid, regs.smem, slot, columns, 0,
        f"accumulator {acc_t.m}x{acc_t.n}x{acc_t.dtype} in tensor memory: {columns} columns",
    )
    descriptors = StageDescriptors.setup(b, loop.mma, loop, 1, regs.wg, regs.smem, regs.smem16, clustered=False)
    mma = tcgen05.Tcgen05.make(b, loop.mma, descriptors)
    prologue_loads(k, loop, loads)
    mma_thread_done = b.if_(regs.is_thread0, "mma_thread_done")

    def body(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        st = ring.consumer_step(i, s, p)
        ring.wait_full(s, p)
        mma.k_step(b, tmem.address, i, s)
        mma.commit(b, ring.barrier(s), ring.empty_off, "stage s is free once these MMAs have read it")
        refill_and_advance(k, loop, ring, loads, st)

    b.counted_loop(loop.trips, body)
    mma.commit(b, regs.smem, done, "every MMA done: the accumulator is complete")
    b.emit(ptx.LabelOp, label=mma_thread_done)
    b.wait(regs.smem, b.imm(0), done)
    b.emit(ptx.BarSyncOp)  # thread 0 rejoins its warp before the .aligned tcgen05.ld
    b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")

    def store(op: WindowStoreOp) -> None:
        store_rows(k, op, acc_t, tmem.address, tmem.warp)
        # free tensor memory once every warp has read it
        b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory")
        b.emit(ptx.BarSyncOp)
        tmem.free(b)

    return Lowered(loop, 128, store)
