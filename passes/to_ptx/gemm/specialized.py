"""The warp-specialised wgmma schedule (`#tc.gemm_schedule<warp_specialized>` on sm_90a),
optionally persistent, optionally in clusters of 2 sharing B.

Warpgroup 0 is the producer: it gives registers back (`setmaxnreg.dec` to 40) and its
thread 0 only issues TMA loads (tma_loads.producer_loop), as far ahead as the ring allows.
Warpgroups 1 .. BM/64 are the consumers: they take registers (`setmaxnreg.inc`), own 64
rows each, and run the MMA loop alone: wait for "full[s]", the K-slices' wgmma, commit,
`wgmma.wait_group depth`, and release iteration i-depth's stage on its "empty" barrier.
The epilogue is the consumers'.

Persistent: both roles walk the tiles ctaid.x, ctaid.x + nctaid.x, ... of a 1-d grid;
the ring's stage and phase run on across tiles, so the producer loads the next tile's
stages while the consumers finish the last one's MMAs and its epilogue.

ptxas honours setmaxnreg only under a register cap at entry (`.maxnreg`) with each role
one branch of an if/else; the kernel is capped at 65536 / threads registers.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.layout.fp8_accumulation import promoted_overlap_fits
import lower_tc.passes.to_ptx.gemm.wgmma as wgmma
from lower_tc.passes.to_ptx.gemm.cluster import Multicast
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.epilogue_registers import store_fragments
from lower_tc.passes.to_ptx.gemm.epilogue_tma import FIRST_NAMED_BARRIER, choose_epilogue, store_pieces
from lower_tc.passes.to_ptx.gemm.kloop import find_store, read_k_loop
from lower_tc.passes.to_ptx.gemm.grid import check_clusters, persistent_tiles
from lower_tc.passes.to_ptx.gemm.lowered import Lowered
from lower_tc.passes.to_ptx.gemm.ring import Ring
from lower_tc.passes.to_ptx.gemm.split_k import SplitK
from lower_tc.passes.to_ptx.gemm.split_k_global import GlobalSplitK
from lower_tc.passes.to_ptx.gemm.stream_k import StreamK
from lower_tc.passes.to_ptx.gemm.tma_loads import TmaLoads, producer_loop, read_windows

#: Registers per thread of the producer after setmaxnreg.dec.
PRODUCER_REGISTERS = 40


def entry_registers(warpgroups: int) -> int:
    """The cap at entry: the register cap of the producer's and the consumers' threads
    (`wgmma.register_cap`)."""
    return wgmma.register_cap(128 * (warpgroups + 1))


def consumer_registers(warpgroups: int, producer: int = PRODUCER_REGISTERS) -> int:
    """What each consumer thread may grow to: setmaxnreg.inc waits for registers that
    setmaxnreg.dec released (to `producer` a thread), so the consumers share what the
    producer gives back (seen on the H100: four consumers asking for more than that hung).
    Two consumers: 168 + 64 = 232."""
    cap = entry_registers(warpgroups)
    released = 128 * (cap - producer)
    return min(256, cap + released // (128 * warpgroups) // 8 * 8)


def lower(k: GemmKernel) -> Lowered:
    """The warp-specialised wgmma GEMM (module docstring)."""
    b, regs, options = k.b, k.regs, k.options
    loop = read_k_loop(b, k.loop_op, k.index, k.before, wgmma.MMA, wgmma.check_mma, split_k=options.split_k > 1)
    # a cluster of 2 shares B's boxes (multicast): an even number of them, a K-major tile's cut along its rows
    windows = read_windows(loop, k.args, k.index, k.tensor_maps, options.l2_promotion, b_parts=options.cluster)
    warpgroups = wgmma.warpgroups(loop)
    if not 1 <= warpgroups <= 4:
        error_at(loop.mma, f"a warp-specialised GEMM has 1 to 4 consumer warpgroups, not {warpgroups}")
    # the consumers are warpgroups 1..: a consumer's row block is wg - 1
    consumer_wg = b.val(ptx.AddOp, [regs.wg], type="u32", imm=-1 & 0xFFFFFFFF)
    depth, cluster = options.mma_depth, options.cluster
    if not depth < loop.stages:
        error_at(k.kernel, f"mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = {loop.stages - 1}, not {depth}")
    multicast = Multicast.setup(b, regs.tid, cluster) if cluster > 1 else None
    # with a cluster, lane 0 of each consumer warp releases a stage on both CTAs
    empty_arrivals = cluster * 4 * warpgroups if multicast else 128 * warpgroups
    split = SplitK.prepare(k, loop)  # its partial tile's shared memory comes before the barriers
    split_global = GlobalSplitK.prepare(k, loop)
    ring = Ring.allocate(b, regs.smem, k.memory, loop.stages)
    tma_store = choose_epilogue(k, loop, warpgroups, wgmma=True) if split is None else None
    ring.init_barriers(regs.is_thread0, empty_arrivals, [], cluster=multicast is not None)
    loads = TmaLoads(b, regs.smem, windows, loop.lb, loop.step, ring.full_off, multicast=multicast)
    loads.bind_tensor_maps()
    if tma_store is not None:
        tma_store.bind_tensor_map(k)

    tiles = persistent_tiles(k.kernel, k.grid) if options.persistent else None
    if split is not None:
        cluster = split.size  # a split-K cluster: its CTAs sum their partial tiles
    if tiles is None:
        check_clusters(k.kernel, k.grid, cluster)
    first_tile = ctas = None
    stream = StreamK.prepare(k, loop, tiles) if tiles is not None else None
    if tiles is not None and stream is None:
        first_tile = b.val(ptx.SregOp, sreg="ctaid.x")
        ctas = b.val(ptx.SregOp, sreg="nctaid.x")
    after_tile = ", unit after unit (stream-K)" if stream is not None else ", tile after tile" if tiles is not None else ""
    is_producer = b.val(ptx.SetpOp, [regs.wg], i1, cmp="eq", type="u32", imm=0)
    exit_label = b.label("exit")
    consumer = b.if_(is_producer, "consumer")
    # -- producer warpgroup
    b.emit(ptx.SetMaxNRegOp, action="dec", count=PRODUCER_REGISTERS, comment=f"producer warpgroup: TMA only{after_tile}")
    producer_done = b.label("producer_done") if split is not None else exit_label
    b.emit(ptx.BraOp, [regs.is_thread0], label=producer_done, negate=1)
    if tiles is None:
        producer_loop(ring, loads, loop.trips)
        if split is not None:  # the producers meet the cluster's first barrier too
            b.emit(ptx.LabelOp, label=producer_done)
            split.meet(b)
    elif stream is not None:
        def produce_unit(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
            unit = stream.unit(b, j)
            k.index.replay(unit.tile)
            loads.follow_tile(k.index)
            loads.lb = b.val(ptx.MulLoOp, [unit.k_lo], type="u32", imm=loop.step)  # the unit's first K coordinate
            b.yield_(*producer_loop(ring, loads, unit.steps, carried=(s, p)).results)

        b.counted_loop(stream.units, produce_unit)
    else:
        def produce_tile(t: SSAValue, s: SSAValue, p: SSAValue) -> None:
            k.index.replay(t)
            loads.follow_tile(k.index)
            b.yield_(*producer_loop(ring, loads, loop.trips, carried=(s, p)).results)

        b.counted_loop(tiles, produce_tile, start=first_tile, step=ctas)  # type: ignore[arg-type]
    b.emit(ptx.BraOp, label=exit_label)
    # -- consumer warpgroups
    b.emit(ptx.LabelOp, label=consumer)
    if consumer_registers(warpgroups) > entry_registers(warpgroups):
        b.emit(ptx.SetMaxNRegOp, action="inc", count=consumer_registers(warpgroups), comment=f"consumer warpgroups: the MMAs and the epilogue{after_tile}")
    acc = wgmma.declare_accumulator(b, loop.acc_type)
    total = wgmma.declare_total(b, loop, options.promoted)
    # fp8's promoted accumulation adds a K step's sums while the next step's MMAs run where
    # one consumer warpgroup has no other's MMAs to hide its adds behind and a third run
    # fits (not stream-K's units, whose steps start and end anywhere); with two, serial
    # promotion ran 0.996 of the fast mode and overlapped 0.97 (e4m3 1024 x 1024 x 32768,
    # 128 x 128 split 2: docs/performance.md)
    trips = loop.trips
    overlapped = total is not None and stream is None and warpgroups == 1 and promoted_overlap_fits(loop.acc_type.n)
    spare = wgmma.declare_accumulator(b, loop.acc_type, "overlapped promotion: the odd K steps' sums") if overlapped else None
    descriptors = StageDescriptors.setup(b, loop.mma, loop, warpgroups, consumer_wg, regs.smem, regs.smem16,
                                         clustered=multicast is not None or split is not None)
    mma = wgmma.Wgmma.make(loop, acc, descriptors, depth, total=total, spare=spare)
    wgmma.check_registers(loop, mma.parts, entry_registers(warpgroups), "warp-specialised: ptxas compiles it under the cap at entry")
    acc = mma.result  # what the epilogue stores (and a persistent CTA zeroes per tile)

    def store_whole(op: WindowStoreOp) -> None:
        """D's store of a whole tile (or a reduced one) from `acc`."""
        if tma_store is not None:
            store_pieces(k, op, tma_store, acc, loop.acc_type, consumer_wg)
        else:
            store_fragments(k, op, acc, loop.acc_type, consumer_wg)

    def store(op: WindowStoreOp) -> None:
        if split is not None:
            split.store(k, op, acc, consumer_wg, first_thread=128, threads=128 * warpgroups, meet_consumers=True)
        elif split_global is not None:
            split_global.reduce_and_store(k, op, acc, consumer_wg, first_thread=128, threads=128 * warpgroups, meet_consumers=True,
                                          store_whole=lambda: store_whole(op))
        elif tma_store is not None:
            store_pieces(k, op, tma_store, acc, loop.acc_type, consumer_wg)
        else:
            store_fragments(k, op, acc, loop.acc_type, consumer_wg)

    # fp8's promoted accumulation waits for each step's MMAs (wait_group 0), so it releases
    # the step's own stage at once: the producer keeps one more stage in flight (overlapped,
    # `Wgmma.steps` releases each stage, the last one of a group its own)
    released = 0 if options.promoted else depth

    def consume(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        st = ring.consumer_step(i, s, p, released)
        mma.consume(ring, st, multicast)
        ring.advance(s, p, st.p_flip)

    def k_steps(carried: tuple[SSAValue, SSAValue] | None = None) -> tuple[SSAValue, SSAValue]:
        """The K loop: overlapped promotion's groups, or a step a trip; the stage and
        phase after it."""
        if overlapped:
            return mma.steps(ring, trips, multicast, carried)
        s_end, p_end = b.counted_loop(trips, consume, carried=carried).results
        return s_end, p_end

    facts = dict(threads=128 * warpgroups + 128, exit_label=exit_label, cluster=cluster, tma_store=tma_store,
                 max_registers=entry_registers(warpgroups),
                 workspace=split_global.info if split_global else stream.info if stream else None)
    if tiles is None:
        k_steps()
        mma.drain(b)
        return Lowered(loop, store=store, **facts)  # type: ignore[arg-type]

    window_store = find_store(k.kernel)
    if window_store is None or window_store.acc is not loop.result:
        error_at(window_store or loop.op, "tc.window_store stores the K loop's result")
    if not isinstance(trips, int):  # each tile's last stages are released unrolled
        error_at(loop.op, "a persistent wgmma GEMM needs its K loop's count known at compile time (static bounds and step)")

    def consume_tile(t: SSAValue, s: SSAValue, p: SSAValue) -> None:
        k.index.replay(t)
        loads.follow_tile(k.index)
        mma.start_tile(b)
        s_end, p_end = k_steps((s, p))
        mma.drain(b)
        # the tile's last `depth` stages: released once their MMAs are done (the loop
        # releases the others)
        for back in range(1, min(released, trips) + 1):
            last = ring.back(s_end, back) if released > 1 else ring.previous(s_end, p_end)[0]
            ring.release(ring.barrier(last), multicast=multicast)
        store(window_store)
        b.yield_(s_end, p_end)

    def consume_unit(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
        assert stream is not None and released <= 1  # stream_k goes with mma_depth = 1 only (a unit may be one K step)
        unit = stream.unit(b, j)
        k.index.replay(unit.tile)
        loads.follow_tile(k.index)
        mma.start_tile(b)
        s_end, p_end = b.counted_loop(unit.steps, consume, carried=(s, p)).results
        mma.drain(b)
        if released:  # the unit's last stage, once its MMAs are done (every unit has a step)
            ring.release(ring.barrier(ring.previous(s_end, p_end)[0]))
        done = stream.reduce(k, unit, acc, consumer_wg, first_thread=128, threads=128 * warpgroups,
                             barrier=FIRST_NAMED_BARRIER + warpgroups)
        store_whole(window_store)
        b.emit(ptx.LabelOp, label=done)
        b.yield_(s_end, p_end)

    if stream is not None:
        b.counted_loop(stream.units, consume_unit)
    else:
        b.counted_loop(tiles, consume_tile, start=first_tile, step=ctas)  # type: ignore[arg-type]
    return Lowered(loop, store=None, persistent_tiles=tiles, stream_k_steps=stream.tiles * stream.kt if stream else 0,
                   **facts)  # type: ignore[arg-type]
