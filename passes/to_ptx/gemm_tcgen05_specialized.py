"""The warp-specialised tcgen05 GEMM (`#tc.gemm_schedule<warp_specialized>` on sm_100a),
optionally persistent (`persistent`): gemm_specialized.py's structure with tcgen05's
tools. Nothing here has run: no Blackwell GPU is lent (docs/tcgen05.md); ptxas assembles
it for sm_100a and the tests check its SASS.

256 threads, one job per warp:

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
across tiles in both the producer and the MMA thread, as in gemm_specialized.py. Warp 4
allocates tensor memory before the roles split and frees it after the epilogue warps meet
at named barrier 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import i1, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.gemm import Ring
from lower_tc.dialects.tc_kernel import kernel_schedule
from lower_tc.passes.to_ptx.gemm_specialized import SpecializedGemmLowering
from lower_tc.passes.to_ptx.gemm_tcgen05 import Tcgen05GemmLowering, store_rows

#: Threads of the CTA: the producer warp, the MMA warp, two idle warps, the epilogue warpgroup.
THREADS = 256
PRODUCER_WARP, MMA_WARP, EPILOGUE_WARP = 0, 1, 4
#: Epilogue threads: each arrives on "acc_empty[b]" once its tcgen05.ld of b are done.
EPILOGUE_THREADS = 128
#: The named barrier where the epilogue warps meet before warp 4 frees tensor memory.
EPILOGUE_BARRIER = 1


class Tcgen05SpecializedGemmLowering(Tcgen05GemmLowering):
    """tcgen05 with a TMA warp, an MMA warp and an epilogue warpgroup (module docstring)."""

    #: Arrivals that empty an accumulator buffer: every epilogue thread's.
    acc_empty_arrivals = EPILOGUE_THREADS

    _tiles = SpecializedGemmLowering._tiles
    _per_tile = SpecializedGemmLowering._per_tile

    def _threads(self, mma: Operation, ring_a: Ring) -> int:
        super()._threads(mma, ring_a)  # M = 128, one commit arrival on "empty"
        self.persistent = kernel_schedule(self.kernel).persistent
        self.buffers = 2 if self.persistent else 1
        return THREADS

    def _extra_barriers(self) -> None:
        """acc_full[b] (one arrival: tcgen05.commit), acc_empty[b] (every epilogue thread)
        and the slot tcgen05.alloc writes the tensor-memory address to."""
        self.acc_full_off = self.scratch
        self.acc_empty_off = self.scratch + 8 * self.buffers
        self.tmem_slot = self.scratch + 16 * self.buffers
        self.scratch += 16 * self.buffers + 8
        for b in range(self.buffers):
            self.emit(ptx.MbarrierInitOp, [self.smem], offset=self.acc_full_off + 8 * b, count=1)
            self.emit(ptx.MbarrierInitOp, [self.smem], offset=self.acc_empty_off + 8 * b, count=self.acc_empty_arrivals)

    def _setup(self, mma: Operation) -> None:
        """Every thread, before the roles split: warp 4 allocates the buffers, then the
        fence / bar.sync / fence hand-off makes the address visible to all."""
        acc_t = self.acc_type
        self.buffer_columns = -(-acc_t.n // 32) * 32  # each buffer starts on a 32-column boundary
        self.columns = max(32, 1 << (self.buffers * self.buffer_columns - 1).bit_length())
        self.is_alloc_warp = self._allocate_tmem(
            EPILOGUE_WARP,
            f"accumulator: {self.buffers} buffer(s) of {acc_t.m}x{acc_t.n}x{acc_t.dtype}, {self.buffer_columns} columns apart: {self.columns} columns",
        )
        self._mma_setup(mma)  # type: ignore[arg-type]
        self._read_idesc(mma)

    # -- the roles ----------------------------------------------------------------------

    def _schedule(self, mma: Operation) -> None:
        self._setup(mma)
        store = next(op for op in tc.kernel_body(self.kernel).ops if isinstance(op, WindowStoreOp))
        if store.acc is not self.loop_result:
            error_at(store, "tc.window_store stores the K loop's result")
        if self.persistent:
            self.persistent_tiles = self._tiles()
            self.first_tile = self.val(ptx.SregOp, sreg="ctaid.x")
            self.ctas = self.val(ptx.SregOp, sreg="nctaid.x")
        self.exit_label = self.label("exit")
        is_epilogue = self.val(ptx.SetpOp, [self.warp], i1, cmp="ge", type="u32", imm=EPILOGUE_WARP)
        epilogue = self.if_(is_epilogue, "epilogue", negate=False)
        is_producer = self.val(ptx.SetpOp, [self.warp], i1, cmp="eq", type="u32", imm=PRODUCER_WARP)
        mma_warp = self.if_(is_producer, "mma_warp")
        # -- warp 0: thread 0 issues the TMA loads
        self.emit(ptx.BraOp, [self.is_thread0], label=self.exit_label, negate=1, comment="producer warp: thread 0 loads, tile after tile")
        self._producer_tail(*self._tile_loop(self._produce_tile, [self.imm(0, "s32")] * 2))
        self.emit(ptx.BraOp, label=self.exit_label)
        # -- warp 1: one elected thread issues the MMAs; warps 2 and 3 leave
        self.emit(ptx.LabelOp, label=mma_warp)
        is_mma_warp = self.val(ptx.SetpOp, [self.warp], i1, cmp="eq", type="u32", imm=MMA_WARP)
        self.emit(ptx.BraOp, [is_mma_warp], label=self.exit_label, negate=1)
        elected = self.val(ptx.ElectSyncOp, result=i1, comment="MMA warp: one elected thread issues every tcgen05.mma")
        self.emit(ptx.BraOp, [elected], label=self.exit_label, negate=1)
        self._mma_guard()
        self._tile_loop(self._mma_tile, [self.imm(0, "s32")] * 4, coordinates=False)
        self.emit(ptx.BraOp, label=self.exit_label)
        # -- warps 4..7: the epilogue warpgroup
        self.emit(ptx.LabelOp, label=epilogue)
        self.tmem_base = self.tmem
        self.warp = self.val(ptx.AndOp, [self.warp], type="b32", imm=3, comment="epilogue warpgroup: warp 4 + i reads lanes 32i..32i+31")
        self._tile_loop(lambda b, q: self._epilogue_tile(store, b, q), [self.imm(0, "s32")] * 2)
        self.stored = True
        self._free_tmem()

    # -- what a CTA pair's kernel (gemm_tcgen05_pair.py) does differently -----------------

    def _free_tmem(self) -> None:
        """The epilogue warps, after their last tile: warp 4 frees tensor memory once every
        epilogue warp has read it (named barrier 1)."""
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="free tensor memory once every epilogue warp has read it")
        self.emit(ptx.BarSyncOp, [self.imm(EPILOGUE_BARRIER)], count=EPILOGUE_THREADS)
        skip = self.if_(self.is_alloc_warp, "no_dealloc")
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        self.emit(ptx.Tcgen05DeallocOp, [self.tmem_base], columns=self.columns)
        self.emit(ptx.LabelOp, label=skip)

    def _producer_tail(self, s: SSAValue, p: SSAValue) -> None:
        """The producer after its last load, with the ring's next stage and phase (nothing)."""

    def _mma_guard(self) -> None:
        """The elected MMA thread, before its tiles: which CTA issues (every one here)."""

    def _commit(self, mbar: SSAValue, offset: int, comment: str) -> None:
        """`tcgen05.commit`: one arrival on the barrier at mbar + offset once this thread's
        MMAs so far are done."""
        self.emit(ptx.Tcgen05CommitOp, [mbar], offset=offset, comment=comment)

    def _release_acc(self, mbar: SSAValue) -> None:
        """An epilogue thread hands its buffer back: one arrival on "acc_empty" at mbar."""
        self.emit(ptx.MbarrierArriveOp, [mbar], offset=self.acc_empty_off)

    def _tile_loop(self, body: Callable[..., list[SSAValue]], init: list[SSAValue], coordinates: bool = True) -> list[SSAValue]:
        """A persistent kernel's loop over the tiles ctaid.x, ctaid.x + nctaid.x, ...
        carrying `init` (the ring's stage and phase, the accumulator's buffer and phase);
        `body(*carried)` emits one tile and returns the carried values for the next (after
        the tile's coordinates, which the MMA thread does not need). Without persistent,
        the block's one tile. Returns the carried values after the last tile."""
        if not self.persistent:
            return body(*init)
        outer = self.ops
        self.ops = []
        block = Block(arg_types=[i32] * (1 + len(init)))
        tile, carried = block.args[0], block.args[1:]
        if coordinates:
            self._per_tile(tile)
        self.ops.append(scf.YieldOp(*body(*carried)))
        block.add_ops(self.ops)
        self.ops = outer
        count = self.imm(self.persistent_tiles, "s32")  # type: ignore[arg-type]
        loop = scf.ForOp(self.first_tile, count, self.ctas, init, Region(block))
        self.ops.append(loop)
        return list(loop.results)

    def _produce_tile(self, s: SSAValue, p: SSAValue) -> list[SSAValue]:
        def produce(j: SSAValue, s2: SSAValue, p2: SSAValue) -> None:
            flipped = self.val(ptx.XorOp, [p2], type="b32", imm=1)
            self.wait(self.barrier(s2, self.empty_off), flipped, self.empty_off)
            self._issue(j, s2)
            self.advance(s2, p2, flipped)

        return list(self.counted_loop(self.trips, produce, carried=(s, p)).results)

    def _mma_tile(self, s: SSAValue, p: SSAValue, b: SSAValue, q: SSAValue) -> list[SSAValue]:
        """One tile's MMAs into buffer b, once the epilogue has emptied it."""
        q_flip = self.val(ptx.XorOp, [q], type="b32", imm=1)
        self.wait(self.barrier(b, self.acc_empty_off), q_flip, self.acc_empty_off)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync", comment="buffer b is empty: MMAs may write it")
        d = self._buffer(b)

        def consume(i: SSAValue, s2: SSAValue, p2: SSAValue) -> None:
            self.wait(self.barrier(s2, self.full_off), p2, self.full_off)
            self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
            a64, b64 = self.stage_bases(s2)
            accumulate = self.val(ptx.SetpOp, [i], i1, cmp="ne", type="u32", imm=0)
            for kk in range(self.slices):
                da = self.val(ptx.AddOp, [self.a_imms[kk], a64], i64, type="s64")
                db = self.val(ptx.AddOp, [self.b_imms[kk], b64], i64, type="s64")
                args = [d, da, db, self.idesc] + ([accumulate] if kk == 0 else [])
                self.emit(ptx.Tcgen05MmaOp, args, kind=self.kind, enable_input_d=1, a_tmem=0,
                          comment=f"tcgen05.mma kind::{self.kind}, {self.slices} K-slices" if kk == 0 else None,
                          **self.tcgen05_props)
            self._commit(self.barrier(s2, self.empty_off), self.empty_off, "stage s is free once these MMAs have read it")
            self.advance(s2, p2)

        inner = self.counted_loop(self.trips, consume, carried=(s, p))
        self._commit(self.barrier(b, self.acc_full_off), self.acc_full_off, "the tile's MMAs done: buffer b is full")
        return [*inner.results, *self._next_buffer(b, q)]

    def _epilogue_tile(self, store: WindowStoreOp, b: SSAValue, q: SSAValue) -> list[SSAValue]:
        """Wait for buffer b, store it, and hand it back to the MMA thread."""
        self.wait(self.barrier(b, self.acc_full_off), q, self.acc_full_off)
        self.emit(ptx.Tcgen05FenceOp, kind="after_thread_sync")
        self.tmem = self._buffer(b)
        store_rows(self, store)
        self.tmem = self.tmem_base
        self.emit(ptx.Tcgen05FenceOp, kind="before_thread_sync", comment="buffer b read (tcgen05.wait::ld): hand it back")
        self._release_acc(self.barrier(b, self.acc_empty_off))
        return self._next_buffer(b, q)

    def _buffer(self, b: SSAValue) -> SSAValue:
        """The tensor-memory address of buffer b: its first column."""
        if self.buffers == 1:
            return self.tmem
        column = self.val(ptx.MulLoOp, [b], type="u32", imm=self.buffer_columns)
        return self.val(ptx.AddOp, [self.tmem, column], type="u32")

    def _next_buffer(self, b: SSAValue, q: SSAValue) -> list[SSAValue]:
        """The next tile's buffer and phase: b + 1, wrapping to 0 (and flipping q)."""
        b_next = self.val(ptx.AddOp, [b], type="u32", imm=1)
        wrap = self.val(ptx.SetpOp, [b_next], i1, cmp="eq", type="u32", imm=self.buffers)
        q_flip = self.val(ptx.XorOp, [q], type="b32", imm=1)
        return [self.val(ptx.SelpOp, [self.imm(0), b_next, wrap], type="b32"),
                self.val(ptx.SelpOp, [q_flip, q, wrap], type="b32")]


__all__: Sequence[str] = ["Tcgen05SpecializedGemmLowering"]
