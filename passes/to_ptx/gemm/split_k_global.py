"""Split-K through the global workspace (`tc.window_store ... reduce global` with
`split_k = S, reduce = global` in the kernel's #tc.gemm_schedule, sm_90a; layout/split_k.py):
the S consecutive CTAs along x of a tile each hold a partial tile over their slice of K
(k_slices.py checks the slices). No CTA waits without bound for another, so the grid needs
no cluster and may be larger than what runs at once. The tile's last CTA sums it:

    every consumer thread stores its fragment's registers into its CTA's slot of the
        workspace (16-byte stores; a warp's are 512 contiguous bytes), then
        fence.acq_rel.gpu
    the consumers meet; the first adds 1 to the tile's counter (atom.acq_rel.gpu) and so
        learns whether its CTA is the tile's last
    the consumers meet again, the flag or-reduced (bar.red.or.pred): all but the tile's
        last CTA skip the store
    the last: fence.acq_rel.gpu, the counter reset to 0 (the next launch finds it so),
        the S slots summed into the accumulator's registers, rank 0's first and then a
        loop adding ranks 1 to S-1 in order (its own slot is read back like the others':
        the same sum whichever CTA comes last), then D stored as an unsplit kernel
        stores it (epilogue_registers.py or, where D allows, epilogue_tma.py)

With `cluster = 2` as well (B's boxes shared by a pair, specialized.py) the pair is CTAs
2i and 2i + 1 of one rank in tiles 2j and 2j + 1 (walk.py): CTA x has rank (x / 2) mod S
and tile (x / 2S) 2 + x mod 2, and its tile's slots are every other one from
x - 2 rank.

With `unsplit = F` in the schedule (a 1-d grid) CTA x < F has the tile to itself: it skips
all of the above and stores D; CTA x >= F is split CTA x - F (its slot, its rank
(x - F) mod S, its tile's counter (x - F) / S).

Where one H100/H200 runs the whole grid at once (`spreads`), the sum is spread over the
tile's CTAs instead (`spread_reduce`: each sums a slice of the columns, waiting at most
SPREAD_WAIT_NS for the tile's last partial). A sum of few registers (at most
UNROLLED_LOADS 16-byte loads: a slice, or a whole 64 x 64 tile of two ranks) is
straight-line code, its loads all in flight.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, i1, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.kernel_info import WORKSPACE_PARAM, WorkspaceInfo
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.layout.split_k import GLOBAL_F16, SPREAD_MAX_CTAS, SPREAD_WAIT_NS, fragment_offset, workspace_partial_bytes
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.epilogue_registers import store_fragments
from lower_tc.passes.to_ptx.gemm.grid import times_problem
from lower_tc.passes.to_ptx.gemm.k_slices import check_k_slices
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, find_store

f32 = Float32Type()
#: The most 16-byte loads (64 registers) of a sum over slots unrolled (`sum_slots`).
UNROLLED_LOADS = 16
#: The largest S a spread sum takes: a given-up bit for each rank in the low half of the
#: tile's 64-bit word (`spread_reduce`).
SPREAD_MAX_SPLIT = 32


@dataclass(frozen=True)
class GlobalSplitK:
    """A kernel's split over K through the global workspace."""

    size: int  # S: CTAs per tile
    acc_t: tc.AccType
    workspace: SSAValue  # the workspace's global address
    unsplit: int = 0  # F: the grid's first CTAs along x, one to a tile (module docstring)
    pair: bool = False  # a cluster of 2 sharing B: one rank's CTAs of two tiles next to each other
    spread: bool = False  # the tile's CTAs sum a share of its columns each (`spread_reduce`)

    @property
    def kind(self) -> str:
        """The partials' PTX type: s32 for an integer accumulator, else f32."""
        return "s32" if self.acc_t.dtype == "s32" else "f32"

    @property
    def partial(self) -> int:
        """Bytes of one CTA's slot."""
        return workspace_partial_bytes(self.acc_t.m, self.acc_t.n)

    @property
    def info(self) -> WorkspaceInfo:
        """What the launcher allocates (the launch contract's `workspace`)."""
        return WorkspaceInfo(workspace_partial_bytes(self.acc_t.m, self.acc_t.n), self.size, self.unsplit)

    @classmethod
    def prepare(cls, k: GemmKernel, loop: KLoop) -> "GlobalSplitK | None":
        """The kernel's global split-K, checked (located errors); None without one."""
        store, options = find_store(k.kernel), k.options
        if store is None or not options.global_split:
            return None
        acc_t = loop.acc_type
        if acc_t.dtype == "f16":
            error_at(store, GLOBAL_F16)
        x = k.grid[0]
        pair = options.cluster == 2
        if isinstance(x, int) and x % options.split_k and not options.unsplit:
            error_at(k.kernel, f"split_k = {options.split_k}: the {options.split_k} consecutive CTAs along x of a tile "
                               f"share its K, so the grid's x ({x}) must be a multiple of {options.split_k} (tc.grid)")
        if pair and (not isinstance(x, int) or x % (2 * options.split_k) or k.grid[1:] != (1, 1)):
            error_at(k.kernel, f"split_k = {options.split_k} with cluster = 2: the pairs of tiles' {2 * options.split_k} CTAs "
                               f"follow each other on a 1-d grid, so its x must be a multiple of {2 * options.split_k} known at "
                               f"compile time, not {list(k.grid)} (tc.grid)")
        times_problem(k.kernel, k.grid, options.split_k)
        unsplit = options.unsplit
        if unsplit:
            split = x - unsplit if isinstance(x, int) else 0
            if not (isinstance(x, int) and k.grid[1:] == (1, 1) and split > 0 and split % options.split_k == 0):
                error_at(k.kernel, f"unsplit = {unsplit}: the first {unsplit} CTAs along x take a tile each and the others "
                                   f"{options.split_k} to a tile, so the grid is [{unsplit} + {options.split_k} j, 1, 1] "
                                   f"for j >= 1 split tiles, known at compile time, not {list(k.grid)} (tc.grid)")
        check_k_slices(loop.op, loop.step, options.split_k, k.index, k.args, k.grid, unsplit, pair=pair)
        b = k.b
        raw = b.val(ptx.LdParamOp, result=i64, type="u64", param=WORKSPACE_PARAM,
                    comment=f"split-K over {options.split_k} CTAs: their partial tiles go through the workspace")
        spread = spreads(k.grid, options.split_k, unsplit, acc_t.n)
        return cls(options.split_k, acc_t, b.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64"), unsplit, pair, spread)

    def reduce_and_store(self, k: GemmKernel, op: WindowStoreOp, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int,
                         meet_consumers: bool, store_whole: Callable[[], None]) -> None:
        """The consumers' split-K sum and D's store: by the tile's last CTA (`reduce`, then
        `store_whole`), or spread over the tile's CTAs (`spread_reduce`)."""
        if self.spread:
            self.spread_reduce(k, op, acc, wg, first_thread, threads, meet_consumers)
            return
        done = self.reduce(k, acc, wg, first_thread, threads, meet_consumers)
        store_whole()
        k.b.emit(ptx.LabelOp, label=done)

    def reduce(self, k: GemmKernel, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int, meet_consumers: bool) -> str:
        """The consumers' part (module docstring) up to the store; returns the label the
        store must end with, where the tile's other CTAs go."""
        b, size = k.b, self.size
        groups = self.acc_t.n // 8  # 16-byte groups of an m64nN fragment's N / 2 registers
        whole = b.label("unsplit_store") if self.unsplit else None
        at = self._arrive(k, acc, wg, first_thread, threads, meet_consumers, whole)
        came_last = b.val(ptx.SetpOp, [at.before], i1, cmp="eq", type="u32", imm=size - 1)
        last = meet(b, came_last, threads, meet_consumers)
        skip = b.label("split_k_done")
        b.emit(ptx.BraOp, [last], label=skip, negate=1, comment="split-K: the tile's last CTA sums and stores; the others are done")
        reset_counter(b, at.first, at.counter, "split-K")
        slots, slot_step = self._slots(b, at)
        sum_slots(b, slots, acc, self.kind, groups, slot_step, self.size)
        if whole is not None:
            b.emit(ptx.LabelOp, label=whole)
        return skip

    def _place(self, k: GemmKernel, whole: str | None) -> tuple[SSAValue, SSAValue, SSAValue]:
        """This CTA's number among the split ones, its rank and the split CTAs' count (a CTA
        of the first `unsplit` branches to `whole`)."""
        b, size, partial = k.b, self.size, self.partial
        if self.unsplit:
            assert whole is not None  # a 1-d grid: CTA x >= F is split CTA x - F
            cx = b.val(ptx.SregOp, sreg="ctaid.x", comment=f"split-K: CTAs x < {self.unsplit} have a tile each; CTA x - {self.unsplit} "
                                                            f"of the others has slot {partial} bytes there; tile's counter after the slots")
            alone = b.val(ptx.SetpOp, [cx], i1, cmp="lt", type="u32", imm=self.unsplit)
            b.emit(ptx.BraOp, [alone], label=whole, comment="split-K: an unsplit tile is stored as it is")
            linear = b.val(ptx.SubOp, [cx], type="u32", imm=self.unsplit)
            ctas = b.val(ptx.SubOp, [b.val(ptx.SregOp, sreg="nctaid.x")], type="u32", imm=self.unsplit)
            rank = b.val(ptx.RemOp, [linear], type="u32", imm=size)
        else:
            cx = b.val(ptx.SregOp, sreg="ctaid.x", comment=f"split-K: CTA x + X (y + Y z) has slot {partial} bytes there; tile's counter after the slots")
            cy, cz = b.val(ptx.SregOp, sreg="ctaid.y"), b.val(ptx.SregOp, sreg="ctaid.z")
            nx, ny, nz = (b.val(ptx.SregOp, sreg=f"nctaid.{d}") for d in "xyz")
            yz = b.val(ptx.AddOp, [cy, b.val(ptx.MulLoOp, [ny, cz], type="u32")], type="u32")
            linear = b.val(ptx.AddOp, [cx, b.val(ptx.MulLoOp, [nx, yz], type="u32")], type="u32")
            ctas = b.val(ptx.MulLoOp, [b.val(ptx.MulLoOp, [nx, ny], type="u32"), nz], type="u32")
            if self.pair:  # rank (x / 2) mod S (a 1-d grid: linear is x)
                rank = b.val(ptx.RemOp, [b.val(ptx.ShrOp, [cx], type="u32", imm=1)], type="u32", imm=size,
                             comment="split-K in pairs sharing B: rank (x / 2) mod S, tile (x / 2S) 2 + x mod 2")
            else:
                rank = b.val(ptx.RemOp, [cx], type="u32", imm=size)
        return linear, rank, ctas

    def _arrive(self, k: GemmKernel, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int, meet_consumers: bool,
                whole: str | None, wide: bool = False) -> "_Arrival":
        """This CTA's place (`_place`: a CTA of the first `unsplit` branches to `whole`), its
        partial into its slot, the consumers met, and thread `first_thread` counted in its
        tile's counter; where the tile's slots and counter are."""
        b, size, acc_t, partial = k.b, self.size, self.acc_t, self.partial
        linear, rank, ctas = self._place(k, whole)
        base = thread_base(k, self.workspace, wg, acc_t)
        mine = b.val(ptx.AddOp, [base, b.val(ptx.MulWideOp, [linear], i64, type="u32", imm=partial)], i64, type="s64")
        store_partial(b, mine, acc, self.kind, acc_t.n // 8, "split-K: this CTA's partial tile into its slot")
        if meet_consumers:
            b.emit(ptx.BarSyncOp, [b.imm(1)], count=threads, comment="split-K: every partial of this CTA is stored")
        else:
            b.emit(ptx.BarSyncOp, comment="split-K: every partial of this CTA is stored")
        first = b.val(ptx.SetpOp, [k.regs.tid], i1, cmp="eq", type="u32", imm=first_thread)
        counters = b.val(ptx.AddOp, [self.workspace, b.val(ptx.MulWideOp, [ctas], i64, type="u32", imm=partial)], i64, type="s64")
        if self.pair:
            pairs = b.val(ptx.DivOp, [linear], type="u32", imm=2 * size)
            member = b.val(ptx.AndOp, [linear], type="b32", imm=1)
            tile = b.val(ptx.AddOp, [b.val(ptx.ShlOp, [pairs], type="b32", imm=1), member], type="u32")
        else:
            tile = b.val(ptx.DivOp, [linear], type="u32", imm=size)
        if wide:  # the spread sum's 64-bit word a tile (`spread_reduce`): the count in its high half
            counter = b.val(ptx.AddOp, [counters, b.val(ptx.MulWideOp, [tile], i64, type="u32", imm=8)], i64, type="s64")
            word = b.val(ptx.MovImmOp, result=i64, type="u64", value=0)
            counted = b.label("counted")
            b.emit(ptx.BraOp, [first], label=counted, negate=1)
            old = b.val(ptx.AtomAddOp, [counter], i64, imm=1 << 32, width="u64",
                        comment="spread split-K: count this CTA in its tile's word (the high half)")
            b.emit(ptx.AssignOp, [word, old], type="b64")
            b.emit(ptx.LabelOp, label=counted)
            before = b.val(ptx.CvtOp, [b.val(ptx.ShrOp, [word], i64, type="b64", imm=32)], i32, type="u32.u64")
            return _Arrival(first, counter, before, base, linear, counters, tile, rank, ctas, word)
        counter = b.val(ptx.AddOp, [counters, b.val(ptx.MulWideOp, [tile], i64, type="u32", imm=4)], i64, type="s64")
        before = count(b, first, counter, 1, f"split-K: count this CTA in its tile's; the {size}th is last")
        return _Arrival(first, counter, before, base, linear, counters, tile, rank, ctas)

    def _slots(self, b: PtxBuilder, at: "_Arrival") -> tuple[SSAValue, int]:
        """This thread's place in the tile's rank-0 slot, and the bytes from one rank's slot
        to the next: rank 0's and the next S - 1 (every other one where paired)."""
        step = 2 if self.pair else 1
        back = b.val(ptx.ShlOp, [at.rank], type="b32", imm=1) if self.pair else at.rank
        tile_first = b.val(ptx.SubOp, [at.linear, back], type="u32")
        slots = b.val(ptx.AddOp, [at.base, b.val(ptx.MulWideOp, [tile_first], i64, type="u32", imm=self.partial)], i64, type="s64")
        return slots, step * self.partial

    def spread_reduce(self, k: GemmKernel, op: WindowStoreOp, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int,
                      meet_consumers: bool) -> None:
        """The tile's S CTAs sum and store a slice of its columns each (`spread_slice`), once
        every partial is stored; the sums are the same bits whichever CTA does them, and no CTA
        waits without bound on one that may not be running.

        The tile's word (64 bits, where its u32 counter and claims were: `_arrive`) holds
        this launch's count in its high half, which no launch resets (a launch adds S), and in
        its low half the ranks that gave their slice up, bit r for rank r:

            every CTA: its partial into its slot; thread `first` adds 1 to the count (atom.add
                of 2^32), learning the word before and this launch's end: the next multiple of
                S, E
            the last (its add made E): sums and stores its own slice and the slices whose bits
                were set in the word before its add, then clears the bits (st.relaxed: no CTA
                of the tile writes the word after the last's add)
            the others: wait until the count reaches E, at most SPREAD_WAIT_NS by %globaltimer,
                then sum and store their slice; out of time, set their bit with atom.cas
                against the word they read, so only while the last has not counted (a failed
                cas reads the word again: the last may just have counted)

        So the last learns the slices given up from its own add and waits on no one. On a GPU
        that runs every CTA at once (the grids that spread: `spreads`) none gives up. A slice
        is summed over ranks 0 to S - 1 in order (`sum_slots`) and stored from registers
        (`store_fragments`)."""
        b, size, acc_t = k.b, self.size, self.acc_t
        at = self._arrive(k, acc, wg, first_thread, threads, meet_consumers, None, wide=True)
        rank = at.rank
        assert at.word is not None
        before = at.before
        end = b.val(ptx.MulLoOp, [b.val(ptx.AddOp, [b.val(ptx.DivOp, [before], type="u32", imm=size)], type="u32", imm=1)],
                    type="u32", imm=size, comment="spread split-K: this launch's counts end at the next multiple of S")
        came_last = b.val(ptx.SetpOp, [b.val(ptx.AddOp, [before], type="u32", imm=1), end], i1, cmp="eq", type="u32")
        given = b.val(ptx.CvtOp, [at.word], i32, type="u32.u64", comment="spread split-K: the ranks that gave up before the last counted")
        mine = b.imm(0)
        decided = b.label("spread_decided")
        b.emit(ptx.BraOp, [at.first], label=decided, negate=1)
        helper = b.if_(came_last, "spread_helper")
        b.emit(ptx.AssignOp, [mine, b.imm(1)], type="u32", comment="spread split-K: the last sums its own slice")
        b.emit(ptx.BraOp, label=decided)
        b.emit(ptx.LabelOp, label=helper)
        b.emit(ptx.AssignOp, [given, b.imm(0)], type="u32")
        start = b.val(ptx.GlobalTimerOp, result=i64, comment=f"spread split-K: wait for the tile's last partial, at most {SPREAD_WAIT_NS} ns")
        bit = b.val(ptx.ShlOp, [b.imm(1, "b64"), rank], i64, type="b64")
        spin, seen = b.label("spread_wait"), b.label("spread_seen")
        b.emit(ptx.LabelOp, label=spin)
        word = b.val(ptx.LdAcquireOp, [at.counter], i64, width="u64")
        counted = b.val(ptx.SubOp, [b.val(ptx.CvtOp, [b.val(ptx.ShrOp, [word], i64, type="b64", imm=32)], i32, type="u32.u64"), end], type="s32")
        b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [counted], i1, cmp="ge", type="s32", imm=0)], label=seen)
        waited = b.val(ptx.SubOp, [b.val(ptx.GlobalTimerOp, result=i64), start], i64, type="s64")
        b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [waited], i1, cmp="gt", type="s64", imm=SPREAD_WAIT_NS)], label=spin, negate=1)
        marked = b.val(ptx.OrOp, [word, bit], i64, type="b64")
        was = b.val(ptx.AtomCasOp, [at.counter, word, marked], i64,
                    comment="spread split-K: out of time; give the slice up unless the word moved (the last may have counted)")
        b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [was, word], i1, cmp="ne", type="b64")], label=spin)
        b.emit(ptx.BraOp, label=decided)
        b.emit(ptx.LabelOp, label=seen)
        b.emit(ptx.AssignOp, [mine, b.imm(1)], type="u32", comment="spread split-K: every partial is stored; this CTA sums its slice")
        b.emit(ptx.LabelOp, label=decided)
        has_own = meet(b, b.val(ptx.SetpOp, [mine], i1, cmp="ne", type="u32", imm=0), threads, meet_consumers)
        last = meet(b, came_last, threads, meet_consumers)
        slots, slot_step = self._slots(b, at)

        def sum_and_store(q: int) -> None:
            share = spread_slice(q, size, acc_t.n)
            sum_slots(b, slots, acc, self.kind, len(share), slot_step, size, first_group=share.start)
            store_fragments(k, op, acc, acc_t, wg, groups=share)

        done = b.label("spread_done")
        own_done = b.if_(has_own, "spread_own")
        b.emit(ptx.FenceGpuOp)
        for q in range(size):
            other = b.if_(b.val(ptx.SetpOp, [rank], i1, cmp="eq", type="u32", imm=q), f"spread_not_{q}")
            sum_and_store(q)
            b.emit(ptx.BraOp, label=own_done)
            b.emit(ptx.LabelOp, label=other)
        b.emit(ptx.LabelOp, label=own_done)
        b.emit(ptx.BraOp, [last], label=done, negate=1, comment="spread split-K: only the last sums slices given up")
        cleared = b.label("spread_cleared")
        b.emit(ptx.BraOp, [at.first], label=cleared, negate=1)
        count_only = b.val(ptx.AndOp, [b.val(ptx.AddOp, [at.word], i64, type="u64", imm=1 << 32)], i64, type="b64", imm=-(1 << 32))
        b.emit(ptx.StRelaxedOp, [at.counter, count_only], width="u64", comment="spread split-K: the bits cleared for the next launch")
        b.emit(ptx.LabelOp, label=cleared)
        for q in range(size):
            set_q = b.val(ptx.SetpOp, [b.val(ptx.AndOp, [given], type="b32", imm=1 << q)], i1, cmp="ne", type="u32", imm=0)
            taken = meet(b, set_q, threads, meet_consumers)
            skip = b.if_(taken, f"spread_left_{q}")
            b.emit(ptx.FenceGpuOp)
            sum_and_store(q)
            b.emit(ptx.LabelOp, label=skip)
        b.emit(ptx.LabelOp, label=done)


@dataclass(frozen=True)
class _Arrival:
    """What a split CTA knows once its partial is stored and it is counted."""

    first: SSAValue  # the thread that counted (a predicate)
    counter: SSAValue  # the tile's u32 counter's address
    before: SSAValue  # the count before this CTA's add (in `first`; 0 in the others)
    base: SSAValue  # this thread's place in any slot (`thread_base`)
    linear: SSAValue  # this CTA's number among the split ones
    counters: SSAValue  # the workspace's counters (after the slots)
    tile: SSAValue
    rank: SSAValue
    ctas: SSAValue
    word: SSAValue | None = None  # the spread sum's: the tile's 64-bit word before this CTA's add (in `first`)


def meet(b: PtxBuilder, pred: SSAValue, threads: int, meet_consumers: bool) -> SSAValue:
    """The consumers meet (named barrier 1 of `threads`, or every thread at 0) and each gets
    the or of their `pred`."""
    if meet_consumers:
        return b.val(ptx.BarRedOrOp, [pred], i1, barrier=1, count=threads)
    return b.val(ptx.BarRedOrOp, [pred], i1, barrier=0)


def count(b: PtxBuilder, first: SSAValue, counter: SSAValue, add: int | SSAValue, what: str) -> SSAValue:
    """Thread `first` adds `add` to the u32 counter at `counter` (atom.acq_rel.gpu); returns
    the value before the add in that thread (0 in the others)."""
    before = b.val(ptx.MovImmOp, result=i32, type="u32", value=0)
    counted = b.label("counted")
    b.emit(ptx.BraOp, [first], label=counted, negate=1)
    if isinstance(add, int):
        old = b.val(ptx.AtomAddOp, [counter], i32, imm=add, comment=what)
    else:
        old = b.val(ptx.AtomAddOp, [counter, add], i32, comment=what)
    b.emit(ptx.AssignOp, [before, old], type="u32")
    b.emit(ptx.LabelOp, label=counted)
    return before


def reset_counter(b: PtxBuilder, first: SSAValue, counter: SSAValue, who: str) -> None:
    """The summing CTA: fence.acq_rel.gpu (the others' partials are visible), and thread
    `first` sets the counter back to 0 for the next launch."""
    b.emit(ptx.FenceGpuOp)
    reset = b.label("reset")
    b.emit(ptx.BraOp, [first], label=reset, negate=1)
    b.emit(ptx.StOp, [counter, b.imm(0)], space="global", type="u32", vec=1, offset=0, comment=f"{who}: the counter is 0 again for the next launch")
    b.emit(ptx.LabelOp, label=reset)


def thread_base(k: GemmKernel, workspace: SSAValue, wg: SSAValue, acc_t: tc.AccType) -> SSAValue:
    """The workspace's address plus this consumer thread's offset in any slot: its
    warpgroup's 64 x BN block, then its 16-byte column of each group (`fragment_offset`)."""
    b = k.b
    thread = b.val(ptx.AndOp, [k.regs.tid], type="b32", imm=127)
    within = b.val(ptx.AddOp, [b.val(ptx.MulLoOp, [wg], type="u32", imm=fragment_offset(1, 0, 0, acc_t.n)),
                               b.val(ptx.ShlOp, [thread], type="b32", imm=4)], type="u32")
    within64 = b.val(ptx.CvtOp, [within], i64, type="u64.u32")
    return b.val(ptx.AddOp, [workspace, within64], i64, type="s64")


def store_partial(b: PtxBuilder, mine: SSAValue, acc: SSAValue, kind: str, groups: int, what: str) -> None:
    """This thread's accumulator registers into its part of the slot at `mine` (16-byte
    stores; a warp's are 512 contiguous bytes), then fence.acq_rel.gpu."""
    for j in range(groups):
        b.emit(ptx.StOp, [mine, acc], space="global", type=kind, vec=4, regs=4 * j, offset=j * 128 * 16,
               comment=what if j == 0 else None)
    b.emit(ptx.FenceGpuOp)


def sum_slots(b: PtxBuilder, slots: SSAValue, acc: SSAValue, kind: str, groups: int, partial: int, count: int | SSAValue,
              first_group: int = 0) -> None:
    """acc = slot 0 + slot 1 + ... + slot count-1 (slots `partial` bytes apart from
    `slots`), register by register, in that order: slot 0 into the registers, then a loop
    over the others adding theirs (a loop, not unrolled copies: ptxas would hoist every
    slot's loads and spill registers). Only groups `first_group` to `first_group + groups
    - 1` of the registers (4 each) where a share of the tile is summed; a share of at most
    UNROLLED_LOADS 16-byte loads is summed in straight-line code (its loads all in flight)."""
    reg_type = f32 if kind == "f32" else i32
    mov = "b32" if kind == "s32" else "f32"

    def add_slot(at: SSAValue, first: bool, what: str) -> None:
        for j in range(first_group, first_group + groups):
            parts = b.emit(ptx.LdOp, [at], [reg_type] * 4, space="global", type=kind, vec=4, offset=j * 128 * 16,
                           comment=what if j == first_group else None).res
            for e in range(4):
                r = b.val(ptx.RegOfOp, [acc], reg_type, regs=4 * j + e)
                total = parts[e] if first else b.val(ptx.AddOp, [r, parts[e]], reg_type, type=kind)
                b.emit(ptx.AssignOp, [r, total], type=mov)

    add_slot(slots, True, "split-K: rank 0's partial into the registers")
    if isinstance(count, int) and groups * count <= UNROLLED_LOADS:  # a few groups: every load in flight at once
        for i in range(1, count):
            add_slot(b.add_imm(slots, i * partial, "s64"), False, f"split-K: rank {i}'s partial added, ranks in order")
        return

    def next_rank(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        at = b.val(ptx.AddOp, [slots, b.val(ptx.MulWideOp, [i], i64, type="s32", imm=partial)], i64, type="s64")
        add_slot(at, False, "split-K: rank i's partial added, ranks in order")
        b.yield_(s, p)

    b.counted_loop(count, next_rank, start=1)


def spreads(grid: tuple[int | SSAValue, ...] | Sequence[object], split_k: int, unsplit: int, bn: int) -> bool:
    """Whether a global split's tiles are summed spread over their CTAs (`spread_reduce`):
    a grid known at compile time that one H100/H200 runs at once (SPREAD_MAX_CTAS), no
    unsplit tiles, a power of two S (its count wraps at 2^32 on a multiple of S) of at most
    32 (a bit for each rank in the low half of the tile's word) and at least one 8-column
    group of the tile for each CTA."""
    if unsplit or not all(isinstance(d, int) for d in grid) or split_k & (split_k - 1) or split_k > SPREAD_MAX_SPLIT:
        return False
    ctas = 1
    for d in grid:
        ctas *= int(d)  # type: ignore[arg-type]
    return ctas <= SPREAD_MAX_CTAS and split_k <= bn // 8


def spread_slice(q: int, split_k: int, bn: int) -> range:
    """The 8-column groups of the tile that slice q of `split_k` covers."""
    groups = bn // 8
    return range(q * groups // split_k, (q + 1) * groups // split_k)


__all__ = ["GlobalSplitK", "count", "reset_counter", "spread_slice", "spreads", "store_partial", "sum_slots", "thread_base"]
