"""Split-K through the global workspace (`tc.window_store ... reduce global` with
`split_k = S, reduce = global` in the kernel's #tc.gemm_schedule, sm_90a; layout/split_k.py):
the S consecutive CTAs along x of a tile each hold a partial tile over their slice of K
(k_slices.py checks the slices). No CTA waits for another, so the grid needs no cluster
and may be larger than what runs at once:

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
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, i1, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.kernel_info import WORKSPACE_PARAM, WorkspaceInfo
from lower_tc.layout.split_k import GLOBAL_F16, fragment_offset, workspace_partial_bytes
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.grid import times_problem
from lower_tc.passes.to_ptx.gemm.k_slices import check_k_slices
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, find_store

f32 = Float32Type()


@dataclass(frozen=True)
class GlobalSplitK:
    """A kernel's split over K through the global workspace."""

    size: int  # S: CTAs per tile
    acc_t: tc.AccType
    workspace: SSAValue  # the workspace's global address
    unsplit: int = 0  # F: the grid's first CTAs along x, one to a tile (module docstring)
    pair: bool = False  # a cluster of 2 sharing B: one rank's CTAs of two tiles next to each other

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
        return cls(options.split_k, acc_t, b.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64"), unsplit, pair)

    def reduce(self, k: GemmKernel, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int, meet_consumers: bool) -> str:
        """The consumers' part (module docstring) up to the store; returns the label the
        store must end with, where the tile's other CTAs go."""
        b, size, acc_t = k.b, self.size, self.acc_t
        kind = "s32" if acc_t.dtype == "s32" else "f32"
        groups = acc_t.n // 8  # 16-byte groups of an m64nN fragment's N / 2 registers
        partial = workspace_partial_bytes(acc_t.m, acc_t.n)
        # where this CTA's slot and its thread's part of it are
        whole = b.label("unsplit_store") if self.unsplit else None
        if self.unsplit:  # a 1-d grid: CTA x >= F is split CTA x - F
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
        base = thread_base(k, self.workspace, wg, acc_t)
        mine = b.val(ptx.AddOp, [base, b.val(ptx.MulWideOp, [linear], i64, type="u32", imm=partial)], i64, type="s64")
        store_partial(b, mine, acc, kind, groups, "split-K: this CTA's partial tile into its slot")
        barrier = dict(count=threads) if meet_consumers else {}
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
        counter = b.val(ptx.AddOp, [counters, b.val(ptx.MulWideOp, [tile], i64, type="u32", imm=4)], i64, type="s64")
        before = count(b, first, counter, 1, f"split-K: count this CTA in its tile's; the {size}th is last")
        came_last = b.val(ptx.SetpOp, [before], i1, cmp="eq", type="u32", imm=size - 1)
        last = b.val(ptx.BarRedOrOp, [came_last], i1, barrier=1 if meet_consumers else 0, **barrier)
        skip = b.label("split_k_done")
        b.emit(ptx.BraOp, [last], label=skip, negate=1, comment="split-K: the tile's last CTA sums and stores; the others are done")
        reset_counter(b, first, counter, "split-K")
        # the tile's slots: rank 0's and the next S - 1 (every other one where paired)
        step = 2 if self.pair else 1
        back = b.val(ptx.ShlOp, [rank], type="b32", imm=1) if self.pair else rank
        tile_first = b.val(ptx.SubOp, [linear, back], type="u32")
        slots = b.val(ptx.AddOp, [base, b.val(ptx.MulWideOp, [tile_first], i64, type="u32", imm=partial)], i64, type="s64")
        sum_slots(b, slots, acc, kind, groups, step * partial, self.size)
        if whole is not None:
            b.emit(ptx.LabelOp, label=whole)
        return skip


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


def sum_slots(b: PtxBuilder, slots: SSAValue, acc: SSAValue, kind: str, groups: int, partial: int, count: int | SSAValue) -> None:
    """acc = slot 0 + slot 1 + ... + slot count-1 (slots `partial` bytes apart from
    `slots`), register by register, in that order: slot 0 into the registers, then a loop
    over the others adding theirs (a loop, not unrolled copies: ptxas would hoist every
    slot's loads and spill registers)."""
    reg_type = f32 if kind == "f32" else i32
    mov = "b32" if kind == "s32" else "f32"

    def add_slot(at: SSAValue, first: bool, what: str) -> None:
        for j in range(groups):
            parts = b.emit(ptx.LdOp, [at], [reg_type] * 4, space="global", type=kind, vec=4, offset=j * 128 * 16,
                           comment=what if j == 0 else None).res
            for e in range(4):
                r = b.val(ptx.RegOfOp, [acc], reg_type, regs=4 * j + e)
                total = parts[e] if first else b.val(ptx.AddOp, [r, parts[e]], reg_type, type=kind)
                b.emit(ptx.AssignOp, [r, total], type=mov)

    add_slot(slots, True, "split-K: rank 0's partial into the registers")

    def next_rank(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        at = b.val(ptx.AddOp, [slots, b.val(ptx.MulWideOp, [i], i64, type="s32", imm=partial)], i64, type="s64")
        add_slot(at, False, "split-K: rank i's partial added, ranks in order")
        b.yield_(s, p)

    b.counted_loop(count, next_rank, start=1)


__all__ = ["GlobalSplitK", "count", "reset_counter", "store_partial", "sum_slots", "thread_base"]
