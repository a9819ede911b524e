"""The warp-specialised tcgen05 schedule (`#tc.gemm_schedule<warp_specialized>` on
sm_100a), optionally persistent, optionally a CTA pair (cluster = 2: one M = 256
`tcgen05.mma.cta_group::2` over two CTAs). 256 threads, one job per warp:

    warp 0, thread 0     producer: for load j (stage s, round r) wait "empty[s]" with
                         parity (r & 1) ^ 1, expect_tx on "full[s]", TMA loads
    warp 1, elect.sync   MMA: per tile, wait "acc_empty[b]" (parity q ^ 1), then per K
                         step wait "full[s]" (parity r & 1), the K-slices' tcgen05.mma into
                         buffer b, `tcgen05.commit` onto "empty[s]"; after the tile's last
                         step `tcgen05.commit` onto "acc_full[b]"
    warps 2, 3           leave at once
    warps 4..7           epilogue (a warpgroup: warp 4 + i reads TMEM lanes 32i..32i+31):
                         wait "acc_full[b]" (parity q), tcgen05.ld + wait::ld + stores,
                         tcgen05.fence::before_thread_sync, arrive on "acc_empty[b]"

The accumulator has `buffers` BN-column buffers in tensor memory: two in a persistent
kernel (local tile k uses buffer b = k mod 2 in its round u = k div 2, q = u & 1), so tile
k+1's MMAs run while tile k is stored; one otherwise. The ring's stage and phase run on
across tiles. Warp 4 allocates tensor memory before the roles split and frees it after
the epilogue warps meet at named barrier 1.

The CTA pair (`CtaPair`): CTA rank r holds, at the same shared-memory offsets, A's rows
128 r .. 128 r + 127 of the 256 x BN tile and B's columns r BN/2 .. r BN/2 + BN/2 - 1; its
tensor memory holds its 128 rows of D. The leader (rank 0) alone expects both CTAs' bytes
on its "full[s]", which both CTAs' loads complete; its elected thread issues every MMA and
commits multicast onto "empty" and "acc_full" of both CTAs; both epilogues arrive on the
leader's "acc_empty" (2 x 128 arrivals). Each producer waits for the ring's last releases
before it leaves, so no commit lands after the exit's cluster barrier; only then does warp
4 of each CTA free the allocation (`tcgen05.alloc/dealloc.cta_group::2` in both CTAs, a
cluster barrier after the allocation).

Nothing here has run: no Blackwell GPU is lent (docs/tcgen05.md); ptxas assembles it for
sm_100a and the tests check its SASS.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import i1
from xdsl.ir import Region, SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
import lower_tc.passes.to_ptx.gemm.tcgen05 as tcgen05
from lower_tc.passes.to_ptx.gemm.cluster import PAIR, CtaPair
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.epilogue_tma import choose_epilogue
from lower_tc.passes.to_ptx.gemm.epilogue_tmem import store_rows
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, find_store, read_k_loop
from lower_tc.passes.to_ptx.gemm.grid import check_clusters, persistent_tiles
from lower_tc.passes.to_ptx.gemm.lowered import Lowered
from lower_tc.passes.to_ptx.gemm.ring import Ring
from lower_tc.passes.to_ptx.gemm.tma_loads import TmaLoads, producer_loop, read_windows

#: Threads of the CTA: the producer warp, the MMA warp, two idle warps, the epilogue warpgroup.
THREADS = 256
PRODUCER_WARP, MMA_WARP, EPILOGUE_WARP = 0, 1, 4
#: Epilogue threads: each arrives on "acc_empty[b]" once its tcgen05.ld of b are done.
EPILOGUE_THREADS = 128
#: The named barrier where the epilogue warps meet before warp 4 frees tensor memory.
EPILOGUE_BARRIER = 1


@dataclass(frozen=True)
class Roles:
    """The parts the three roles share, set up by every thread before they split."""

    k: GemmKernel
    loop: KLoop
    ring: Ring
    loads: TmaLoads
    mma: tcgen05.Tcgen05
    tmem: tcgen05.TensorMemory
    buffers: int  # accumulator buffers in tensor memory
    buffer_columns: int  # columns from one buffer to the next
    acc_full: int  # offset of acc_full[0]; acc_empty[0] follows the acc_full barriers
    store: WindowStoreOp
    exit_label: str
    pair: CtaPair | None
    tiles: int | None  # a persistent kernel's tile count
    first_tile: SSAValue | None
    ctas: SSAValue | None

    @property
    def acc_empty(self) -> int:
        return self.acc_full + 8 * self.buffers

    def tile_loop(self, body: Callable[..., list[SSAValue]], init: list[SSAValue], coordinates: bool = True) -> list[SSAValue]:
        """Without persistence, the block's one tile: `body(*init)`. Persistent: a loop
        over the tiles ctaid.x, ctaid.x + nctaid.x, ... carrying `init` (the ring's stage
        and phase, the accumulator's buffer and phase), the index arithmetic run again
        for each tile (unless the role needs no coordinates). Returns what the last
        tile's body returned."""
        if self.tiles is None:
            return body(*init)
        b = self.k.b

        def build(args: list[SSAValue]) -> None:
            if coordinates:
                self.k.index.replay(args[0])
                self.loads.follow_tile(self.k.index)
            b.yield_(*body(*args[1:]))

        block = b.block(1 + len(init), build)  # type: ignore[arg-type]
        count = b.imm(self.tiles, "s32")
        tile_for = scf.ForOp(self.first_tile, count, self.ctas, init, Region(block))  # type: ignore[arg-type]
        b.ops.append(tile_for)
        return list(tile_for.results)

    def buffer(self, i: SSAValue) -> SSAValue:
        """The tensor-memory address of buffer i: its first column."""
        if self.buffers == 1:
            return self.tmem.address
        b = self.k.b
        column = b.val(ptx.MulLoOp, [i], type="u32", imm=self.buffer_columns)
        return b.val(ptx.AddOp, [self.tmem.address, column], type="u32")

    def next_buffer(self, i: SSAValue, q: SSAValue) -> list[SSAValue]:
        """The next tile's buffer and phase: i + 1, wrapping to 0 (and flipping q)."""
        b = self.k.b
        i_next = b.val(ptx.AddOp, [i], type="u32", imm=1)
        wrap = b.val(ptx.SetpOp, [i_next], i1, cmp="eq", type="u32", imm=self.buffers)
        q_flip = b.val(ptx.XorOp, [q], type="b32", imm=1)
        return [b.val(ptx.SelpOp, [b.imm(0), i_next, wrap], type="b32"),
                b.val(ptx.SelpOp, [q_flip, q, wrap], type="b32")]

    # -- warp 0 ---------------------------------------------------------------------

    def producer(self) -> None:
        """Thread 0 loads tile after tile; a pair's producer then waits for every stage's
        last release, so that no multicast commit arrives on this CTA's barriers after
        the cluster barrier at the exit."""
        b, ring = self.k.b, self.ring
        b.emit(ptx.BraOp, [self.k.regs.is_thread0], label=self.exit_label, negate=1, comment="producer warp: thread 0 loads, tile after tile")

        def produce_tile(s: SSAValue, p: SSAValue) -> list[SSAValue]:
            return list(producer_loop(ring, self.loads, self.loop.trips, carried=(s, p)).results)

        s_end, p_end = self.tile_loop(produce_tile, [b.imm(0, "s32")] * 2)
        if self.pair is not None:

            def drain(_: SSAValue, s: SSAValue, p: SSAValue) -> None:
                flipped = b.val(ptx.XorOp, [p], type="b32", imm=1)
                ring.wait_empty(s, flipped)
                ring.advance(s, p, flipped)

            b.counted_loop(ring.stages, drain, carried=(s_end, p_end))
        b.emit(ptx.BraOp, label=self.exit_label)

    # -- warp 1 ---------------------------------------------------------------------

    def mma_issuer(self) -> None:
        """One elected thread of warp 1 (of the leader, in a pair) issues every MMA."""
        b = self.k.b
        is_mma_warp = b.val(ptx.SetpOp, [self.tmem.warp], i1, cmp="eq", type="u32", imm=MMA_WARP)
        b.emit(ptx.BraOp, [is_mma_warp], label=self.exit_label, negate=1)
        elected = b.val(ptx.ElectSyncOp, result=i1, comment="MMA warp: one elected thread issues every tcgen05.mma")
        b.emit(ptx.BraOp, [elected], label=self.exit_label, negate=1)
        if self.pair is not None:
            b.emit(ptx.BraOp, [self.pair.is_leader], label=self.exit_label, negate=1, comment="the leader's MMAs serve both CTAs")
        self.tile_loop(self.mma_tile, [b.imm(0, "s32")] * 4, coordinates=False)
        b.emit(ptx.BraOp, label=self.exit_label)

    def mma_tile(self, s: SSAValue, p: SSAValue, i: SSAValue, q: SSAValue) -> list[SSAValue]:
        """One tile's MMAs into buffer i, once the epilogue has emptied it."""
        b, ring, mma = self.k.b, self.ring, self.mma
        q_flip = b.val(ptx.XorOp, [q], type="b32", imm=1)
        b.wait(ring.barrier(i), q_flip, self.acc_empty)
        b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync", comment="buffer b is empty: MMAs may write it")
        d = self.buffer(i)

        def consume(j: SSAValue, s2: SSAValue, p2: SSAValue) -> None:
            ring.wait_full(s2, p2)
            mma.k_step(b, d, j, s2)
            mma.commit(b, ring.barrier(s2), ring.empty_off, "stage s is free once these MMAs have read it")
            ring.advance(s2, p2)

        inner = b.counted_loop(self.loop.trips, consume, carried=(s, p))
        mma.commit(b, ring.barrier(i), self.acc_full, "the tile's MMAs done: buffer b is full")
        return [*inner.results, *self.next_buffer(i, q)]

    # -- warps 4..7 -----------------------------------------------------------------

    def epilogue(self) -> Callable[[], None] | None:
        """The epilogue warpgroup stores tile after tile; returns what frees tensor
        memory at the kernel's exit (a pair's), if it is not freed here."""
        b = self.k.b
        warp = b.val(ptx.AndOp, [self.tmem.warp], type="b32", imm=3, comment="epilogue warpgroup: warp 4 + i reads lanes 32i..32i+31")
        self.tile_loop(lambda i, q: self.epilogue_tile(warp, i, q), [b.imm(0, "s32")] * 2)
        if self.pair is None:  # warp 4 frees tensor memory once every epilogue warp has read it
            b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory once every epilogue warp has read it")
            b.emit(ptx.BarSyncOp, [b.imm(EPILOGUE_BARRIER)], count=EPILOGUE_THREADS)
            self.tmem.free(b)
            return None
        # freed after the exit's cluster barrier: by then no MMA of the pair is in flight
        b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="tensor memory read: freed after the cluster barrier")
        return lambda: self.tmem.free(b, self.pair)

    def epilogue_tile(self, warp: SSAValue, i: SSAValue, q: SSAValue) -> list[SSAValue]:
        """Wait for buffer i, store it, and hand it back to the MMA thread."""
        b, ring = self.k.b, self.ring
        b.wait(ring.barrier(i), q, self.acc_full)
        b.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        store_rows(self.k, self.store, self.loop.acc_type, self.buffer(i), warp)
        b.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="buffer b read (tcgen05.wait::ld): hand it back")
        mbar = ring.barrier(i)
        if self.pair is None:
            b.emit(ptx.MbarrierArriveOp, [mbar], offset=self.acc_empty)
        else:
            b.emit(ptx.MbarrierArriveClusterOp, [self.pair.on_leader(b, self.acc_empty, mbar)], offset=0)
        return self.next_buffer(i, q)


def lower(k: GemmKernel, pair: bool) -> Lowered:
    """The warp-specialised tcgen05 GEMM (module docstring); `pair`: cluster = 2 in the schedule."""
    b, regs, options = k.b, k.regs, k.options
    loop = read_k_loop(b, k.loop_op, k.index, k.before, tcgen05.MMA, lambda op: tcgen05.check_mma(op, pair))
    windows = read_windows(loop, k.args, k.index, k.tensor_maps, options.l2_promotion)
    tcgen05.check_tile(loop)
    buffers = 2 if options.persistent else 1
    cta_pair = None
    if pair:
        cta_pair = CtaPair.setup(b)
    ring = Ring.allocate(b, regs.smem, k.memory, loop.stages)
    choose_epilogue(k, loop, 1, wgmma=False)  # a located error where the TMA store is asked for
    # acc_full[b] (one arrival: tcgen05.commit), acc_empty[b] (every epilogue thread, of
    # both CTAs in a pair), then the slot tcgen05.alloc writes the address to
    acc_full = k.memory.take(16 * buffers + 8, 8)
    acc_empty, slot = acc_full + 8 * buffers, acc_full + 16 * buffers
    acc_empty_arrivals = (PAIR if pair else 1) * EPILOGUE_THREADS
    extra = [barrier for i in range(buffers) for barrier in ((acc_full + 8 * i, 1), (acc_empty + 8 * i, acc_empty_arrivals))]
    ring.init_barriers(regs.is_thread0, 1, extra, cluster=pair)  # empty: one commit (the leader's multicast in a pair)
    loads = TmaLoads(b, regs.smem, windows, loop.lb, loop.step, ring.full_off, pair=cta_pair)
    loads.bind_tensor_maps()

    # every thread, before the roles split: warp 4 allocates the buffers
    acc_t = loop.acc_type
    buffer_columns = -(-acc_t.n // 32) * 32  # each buffer starts on a 32-column boundary
    columns = max(32, 1 << (buffers * buffer_columns - 1).bit_length())
    tmem = tcgen05.TensorMemory.allocate(
        b, regs.tid, regs.smem, slot, columns, EPILOGUE_WARP,
        f"accumulator: {buffers} buffer(s) of {acc_t.m}x{acc_t.n}x{acc_t.dtype}, {buffer_columns} columns apart: {columns} columns",
        cta_pair,
    )
    descriptors = StageDescriptors.setup(b, loop.mma, loop, 1, regs.wg, regs.smem, regs.smem16, clustered=pair)
    mma = tcgen05.Tcgen05.make(b, loop.mma, descriptors, cta_pair)
    if pair:
        b.emit(ptx.ClusterBarrierOp, comment="both CTAs' tensor memory is allocated before the leader's MMAs write it")
    store = find_store(k.kernel)
    if store is None or store.acc is not loop.result:
        error_at(store or loop.op, "tc.window_store stores the K loop's result")
    tiles = persistent_tiles(k.kernel, k.grid) if options.persistent else None
    if tiles is None:
        check_clusters(k.kernel, k.grid, PAIR if pair else 1)
    first_tile = ctas = None
    if tiles is not None:
        first_tile = b.val(ptx.SregOp, sreg="ctaid.x")
        ctas = b.val(ptx.SregOp, sreg="nctaid.x")
    roles = Roles(k, loop, ring, loads, mma, tmem, buffers, buffer_columns, acc_full, store,
                  b.label("exit"), cta_pair, tiles, first_tile, ctas)

    is_epilogue = b.val(ptx.SetpOp, [tmem.warp], i1, cmp="ge", type="u32", imm=EPILOGUE_WARP)
    epilogue = b.if_(is_epilogue, "epilogue", negate=False)
    is_producer = b.val(ptx.SetpOp, [tmem.warp], i1, cmp="eq", type="u32", imm=PRODUCER_WARP)
    mma_warp = b.if_(is_producer, "mma_warp")
    roles.producer()
    b.emit(ptx.LabelOp, label=mma_warp)
    roles.mma_issuer()  # warps 2 and 3 leave with the MMA warp's other threads
    b.emit(ptx.LabelOp, label=epilogue)
    at_exit = roles.epilogue()
    return Lowered(loop, THREADS, None, exit_label=roles.exit_label, cluster=PAIR if pair else 1,
                   at_exit=at_exit, persistent_tiles=tiles)
