"""The warp-specialised wgmma GEMM (`tc.schedule = #tc.gemm_schedule<warp_specialized>` on the kernel).

Warpgroup 0 is the producer: it gives registers back (`setmaxnreg.dec` to 40) and its
thread 0 only issues TMA loads. For load j (stage s = j mod S, round r = j div S) it
waits for "empty[s]" to complete round r - 1, with parity (r & 1) ^ 1: for r = 0 that is
the phase before the barrier's first, which counts as complete, so the first S loads do
not wait. Warpgroups 1 .. BM/64 are the consumers: they take registers (`setmaxnreg.inc`
to 232), own 64 rows each, and run the MMA loop alone: wait for "full[s]", issue the
K-slices' wgmma, commit, `wgmma.wait_group 1`, and release iteration i-1's stage on its
"empty" barrier. The loads run as far ahead as the ring allows, without waiting for any
MMA to be issued; the epilogue is the consumers'.

ptxas honours setmaxnreg only under a register cap at entry (`.maxnreg`) with each role
one branch of an if/else; the kernel is capped at 65536 / threads registers.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, i1, i16
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.dialects.tc_kernel import kernel_schedule
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.gemm import GRID_ATTR, GemmLowering, Ring

#: Registers per thread of the producer after setmaxnreg.dec.
PRODUCER_REGISTERS = 40


def entry_registers(warpgroups: int) -> int:
    """The cap at entry: the SM's 65536 registers over every thread (multiples of 8)."""
    return min(256, 65536 // (128 * (warpgroups + 1)) // 8 * 8)


def consumer_registers(warpgroups: int) -> int:
    """What each consumer thread may grow to: setmaxnreg.inc waits for registers that
    setmaxnreg.dec released, so the consumers share what the producer gives back (seen on
    the H100: four consumers asking for more than that hung). Two consumers: 168 + 64 = 232."""
    cap = entry_registers(warpgroups)
    released = 128 * (cap - PRODUCER_REGISTERS)
    return min(256, cap + released // (128 * warpgroups) // 8 * 8)


class SpecializedGemmLowering(GemmLowering):
    """wgmma with a producer warpgroup and BM/64 consumer warpgroups."""

    def _threads(self, mma: Operation, ring_a: Ring) -> int:
        threads = super()._threads(mma, ring_a)
        if not 1 <= self.warpgroups <= 4:
            error_at(mma, f"a warp-specialised GEMM has 1 to 4 consumer warpgroups, not {self.warpgroups}")
        # rows: the consumers are warpgroups 1.., so a consumer's row block is wg - 1
        self.producer_wg = self.wg
        self.wg = self.val(ptx.AddOp, [self.wg], type="u32", imm=-1 & 0xFFFFFFFF)
        self.max_registers = entry_registers(self.warpgroups)
        self._read_depth(mma)
        self._read_cluster()
        return threads + 128

    def _read_cluster(self) -> None:
        """With a cluster, lane 0 of each consumer warp releases a stage on this CTA's
        "empty" barrier and on the peer's (the peer's producer writes B's boxes into both),
        so each "empty" barrier counts cluster x 4 x warpgroups arrivals. One thread per
        warpgroup is not enough: `wgmma.wait_group` waits for the executing warp's share of
        the MMAs, and the other warps may still be reading the stage (seen on the H100:
        wrong results and NaN with one arrival per warpgroup)."""
        size = kernel_schedule(self.kernel).cluster
        if size == 1:
            return
        self.cluster = size
        self.empty_arrivals = size * 4 * self.warpgroups
        self.cluster_rank = self.val(ptx.SregOp, sreg="cluster_ctarank", comment="a cluster of 2: this CTA loads half of B's boxes for both")
        self.peer_rank = self.val(ptx.XorOp, [self.cluster_rank], type="b32", imm=1)
        self.cluster_mask = self.val(ptx.MovImmOp, result=i16, type="b16", value=(1 << size) - 1)
        lane = self.val(ptx.AndOp, [self.tid], type="b32", imm=31)
        self.warp_leader = self.val(ptx.SetpOp, [lane], i1, cmp="eq", type="u32", imm=0)

    def _release(self, empty: SSAValue, unless: SSAValue | None = None) -> None:
        if self.cluster == 1:
            super()._release(empty, unless)
            return
        skip = self.label("no_release")
        if unless is not None:
            self.emit(ptx.BraOp, [unless], label=skip)
        self.emit(ptx.BraOp, [self.warp_leader], label=skip, negate=1)
        self.emit(ptx.MbarrierArriveOp, [empty], offset=self.empty_off)
        local = self.val(ptx.AddOp, [empty], type="u32", imm=self.empty_off)
        remote = self.val(ptx.MapaOp, [local, self.peer_rank], type="u32")
        self.emit(ptx.MbarrierArriveClusterOp, [remote], offset=0)
        self.emit(ptx.LabelOp, label=skip)

    def _read_depth(self, mma: Operation) -> None:
        depth = kernel_schedule(self.kernel).mma_depth
        if depth == 1:
            return
        if not depth < self.stages:
            error_at(self.kernel, f"mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = {self.stages - 1}, not {depth}")
        self.depth = depth

    def _schedule(self, mma: Operation) -> None:
        if kernel_schedule(self.kernel).persistent:
            self._persistent(mma)
            return
        is_producer = self.val(ptx.SetpOp, [self.producer_wg], i1, cmp="eq", type="u32", imm=0)
        self.exit_label = self.label("exit")
        consumer = self.if_(is_producer, "consumer")
        # -- producer warpgroup
        self.emit(ptx.SetMaxNRegOp, action="dec", count=PRODUCER_REGISTERS, comment="producer warpgroup: TMA only")
        self.emit(ptx.BraOp, [self.is_thread0], label=self.exit_label, negate=1)

        def produce(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
            flipped = self.val(ptx.XorOp, [p], type="b32", imm=1)
            self.wait(self.barrier(s, self.empty_off), flipped, self.empty_off)
            self._issue(j, s)
            self.advance(s, p, flipped)

        self.counted_loop(self.trips, produce)
        self.emit(ptx.BraOp, label=self.exit_label)
        # -- consumer warpgroups
        self.emit(ptx.LabelOp, label=consumer)
        if consumer_registers(self.warpgroups) > entry_registers(self.warpgroups):
            self.emit(ptx.SetMaxNRegOp, action="inc", count=consumer_registers(self.warpgroups), comment="consumer warpgroups: the MMAs and the epilogue")
        self._setup(mma)

        def consume(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
            step = self.consumer_step(i, s, p)
            self._consume(step)
            self.advance(s, p, step.p_flip)

        self.counted_loop(self.trips, consume)
        self._drain()

    # -- persistent: one CTA per SM walks the tiles ----------------------------------------

    def _tiles(self) -> int:
        """The tile count of a persistent kernel: its 1-d grid's, fixed at compile time."""
        grid = self.kernel.attributes.get(GRID_ATTR)
        entries = grid.data if isinstance(grid, ArrayAttr) else ()
        if len(entries) != 3 or not all(isinstance(e, IntegerAttr) for e in entries) or [e.value.data for e in entries[1:]] != [1, 1]:
            error_at(self.kernel, "a persistent GEMM walks a 1-d grid of tiles known at compile time: tc.grid = [tiles, 1, 1]")
        return entries[0].value.data

    def _per_tile(self, tile: SSAValue) -> None:
        """The kernel's index arithmetic again, with gpu.block_id x = this tile, and the
        windows' coordinates that follow from it."""
        self.block_x = tile
        for op in self.index_ops:
            self._index_op(op)
        for w in self.windows:
            role = w.op.operand.data
            w.outer_coord = self.reg(w.op.row if role is tc.Operand.A else w.op.col, w.op)

    def _persistent(self, mma: Operation) -> None:
        """Both roles loop over the tiles ctaid.x, ctaid.x + nctaid.x, ...; the ring's stage
        and phase run on across tiles, so the producer loads the next tile's stages while
        the consumers finish the last one's MMAs and its epilogue."""
        tiles = self._tiles()
        self.persistent_tiles = tiles
        first_tile = self.val(ptx.SregOp, sreg="ctaid.x")
        ctas = self.val(ptx.SregOp, sreg="nctaid.x")
        is_producer = self.val(ptx.SetpOp, [self.producer_wg], i1, cmp="eq", type="u32", imm=0)
        self.exit_label = self.label("exit")
        consumer = self.if_(is_producer, "consumer")
        self.emit(ptx.SetMaxNRegOp, action="dec", count=PRODUCER_REGISTERS, comment="producer warpgroup: TMA only, tile after tile")
        self.emit(ptx.BraOp, [self.is_thread0], label=self.exit_label, negate=1)

        def produce_tile(t: SSAValue, s: SSAValue, p: SSAValue) -> None:
            self._per_tile(t)

            def produce(j: SSAValue, s2: SSAValue, p2: SSAValue) -> None:
                flipped = self.val(ptx.XorOp, [p2], type="b32", imm=1)
                self.wait(self.barrier(s2, self.empty_off), flipped, self.empty_off)
                self._issue(j, s2)
                self.advance(s2, p2, flipped)

            inner = self.counted_loop(self.trips, produce, carried=(s, p))
            self.ops.append(scf.YieldOp(*inner.results))

        self.counted_loop(tiles, produce_tile, start=first_tile, step=ctas)
        self.emit(ptx.BraOp, label=self.exit_label)

        self.emit(ptx.LabelOp, label=consumer)
        if consumer_registers(self.warpgroups) > entry_registers(self.warpgroups):
            self.emit(ptx.SetMaxNRegOp, action="inc", count=consumer_registers(self.warpgroups), comment="consumer warpgroups: the MMAs and the epilogue, tile after tile")
        self._setup(mma)
        store = next(op for op in tc.kernel_body(self.kernel).ops if isinstance(op, WindowStoreOp))
        if store.acc is not self.loop_result:
            error_at(store, "tc.window_store stores the K loop's result")

        def consume_tile(t: SSAValue, s: SSAValue, p: SSAValue) -> None:
            self._per_tile(t)
            acc_t = self.acc_type
            self.emit(ptx.FillOp, [self.acc], type="f32" if acc_t.dtype == "f32" else "b32", value="0f00000000" if acc_t.dtype == "f32" else "0")

            def consume(i: SSAValue, s2: SSAValue, p2: SSAValue) -> None:
                step = self.consumer_step(i, s2, p2)
                self._consume(step)
                self.advance(s2, p2, step.p_flip)

            inner = self.counted_loop(self.trips, consume, carried=(s, p))
            s_end, p_end = inner.results
            self._drain()
            # the tile's last `depth` stages: released once their MMAs are done (the loop
            # releases the others; K is known at compile time in a persistent kernel)
            for k in range(1, min(self.depth, self.trips) + 1):  # type: ignore[call-overload]
                last = self.stage_back(s_end, k) if self.depth > 1 else self.previous_stage(s_end, p_end)[0]
                self._release(self.barrier(last, self.empty_off))
            self._store(store)
            self.ops.append(scf.YieldOp(s_end, p_end))

        self.counted_loop(tiles, consume_tile, start=first_tile, step=ctas)
        self.stored = True
