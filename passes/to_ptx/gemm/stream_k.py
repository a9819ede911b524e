"""Stream-K (`stream_k` in the kernel's #tc.gemm_schedule, persistent, sm_90a;
layout/stream_k.py): the persistent CTAs' walk over units instead of tiles, and the
partial tiles' sum through the workspace.

Every CTA works out, once, before the roles part (both roles walk the same units):

    C = nctaid.x   c = ctaid.x   d = max(T / C, 1) - 1   F = d C   R = T - F   I = R Kt
    a = c I / C    e = (c + 1) I / C        (64-bit products)
    units U = d + (e > a ? (e - 1) / Kt - a / Kt + 1 : 0)

and, for unit j (both roles, at the top of each unit):

    j < d:  tile c + j C, K steps [0, Kt)
    else:   stream tile t = a / Kt + j - d, tile F + t,
            K steps [max(a, t Kt) - t Kt, min(e, t Kt + Kt) - t Kt)

A unit over all Kt steps is stored as a data-parallel tile is. Any other (module docstring
of layout/stream_k.py): the consumers store their registers into slot c + t, fence, meet;
one thread adds the unit's steps to counter t (atom.acq_rel.gpu); the unit whose add
completes Kt sums the slots of the tile's CTAs c_first .. c_last in order (c_first =
((t Kt + 1) C - 1) / I, c_last = ((t Kt + Kt) C - 1) / I), resets the counter and stores
D; the other units of the tile go on to their next unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import i1, i32, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.kernel_info import WORKSPACE_PARAM, WorkspaceInfo
from lower_tc.layout.split_k import workspace_partial_bytes
from lower_tc.layout.stream_k import STREAM_K_F16, stream_k_problem
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.kloop import KLoop
from lower_tc.passes.to_ptx.gemm.split_k_global import count, reset_counter, store_partial, sum_slots, thread_base


@dataclass(frozen=True)
class Unit:
    """Unit j's registers: its tile (the walk's number), its first K step, its K steps,
    its stream-K tile t (meaningless for a data-parallel unit) and whether it covers all
    of K."""

    tile: SSAValue
    k_lo: SSAValue
    steps: SSAValue
    stream: SSAValue
    whole: SSAValue


@dataclass(frozen=True)
class StreamK:
    """A persistent kernel's stream-K walk: the per-CTA registers (module docstring)."""

    tiles: int  # T
    kt: int  # K steps per tile
    groups: int  # G
    acc_t: tc.AccType
    workspace: SSAValue  # the workspace's global address
    group: SSAValue | int  # g
    cta: SSAValue  # p, the CTA's number in its group
    per: SSAValue  # P, the group's CTAs
    dp: SSAValue  # d
    first_stream: SSAValue  # F
    stream_tiles: SSAValue  # R (per group)
    steps: SSAValue  # I (per group)
    a: SSAValue
    e: SSAValue
    units: SSAValue  # U

    @property
    def info(self) -> WorkspaceInfo:
        """What the launcher allocates (the launch contract's `workspace`)."""
        return WorkspaceInfo(workspace_partial_bytes(self.acc_t.m, self.acc_t.n), 1, stream_k_tiles=self.tiles,
                             stream_k_groups=self.groups)

    @classmethod
    def prepare(cls, k: GemmKernel, loop: KLoop, tiles: int) -> "StreamK | None":
        """The kernel's stream-K walk, checked (located errors); None without one."""
        options = k.options
        groups = options.stream_k
        if not groups:
            return None
        if loop.acc_type.dtype == "f16":
            error_at(loop.op, STREAM_K_F16)
        kt = loop.trips
        if not isinstance(kt, int) or not isinstance(loop.lb, int) or loop.lb != 0:
            error_at(loop.op, "a stream-K GEMM's K loop runs over all of K from 0, its count known at compile time")
        assert isinstance(kt, int)
        why = stream_k_problem(tiles, kt, groups)
        if why:
            error_at(k.kernel, why)
        b = k.b
        raw = b.val(ptx.LdParamOp, result=i64, type="u64", param=WORKSPACE_PARAM,
                    comment="stream-K: the partial tiles and the tiles' counters go through the workspace")
        workspace = b.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64")
        ctas = b.val(ptx.SregOp, sreg="nctaid.x", comment=f"stream-K: {tiles} tiles of {kt} K steps over the CTAs, in {groups} group(s)")
        cta = b.val(ptx.SregOp, sreg="ctaid.x")
        group: SSAValue | int = 0
        per, p = ctas, cta
        if groups > 1:  # CTA c is CTA c / G of group c mod G; a group has C / G CTAs
            group = b.val(ptx.RemOp, [cta], type="u32", imm=groups)
            p = b.val(ptx.DivOp, [cta], type="u32", imm=groups)
            per = b.val(ptx.DivOp, [ctas], type="u32", imm=groups)
        local = tiles // groups
        waves = b.val(ptx.DivOp, [b.imm(local), per], type="u32")
        dp = b.val(ptx.SubOp, [b.val(ptx.MaxOp, [waves], type="u32", imm=1)], type="u32", imm=1,
                   comment="stream-K: whole waves of data-parallel tiles first, all but the last one or two")
        first_stream = b.val(ptx.MulLoOp, [dp, per], type="u32")
        stream_tiles = b.val(ptx.SubOp, [b.imm(local), first_stream], type="u32")
        steps = b.val(ptx.MulLoOp, [stream_tiles], type="u32", imm=kt)
        per64 = b.val(ptx.CvtOp, [per], i64, type="u64.u32")

        def share(c: SSAValue) -> SSAValue:
            """c I / P in 64 bits, as u32."""
            wide = b.val(ptx.MulWideOp, [c, steps], i64, type="u32")
            return b.val(ptx.CvtOp, [b.val(ptx.DivOp, [wide, per64], i64, type="u64")], i32, type="u32.u64")

        a = share(p)
        e = share(b.val(ptx.AddOp, [p], type="u32", imm=1))
        first_t = b.val(ptx.DivOp, [a], type="u32", imm=kt)
        last_t = b.val(ptx.DivOp, [b.val(ptx.AddOp, [e], type="u32", imm=-1 & 0xFFFFFFFF)], type="u32", imm=kt)
        spans = b.val(ptx.AddOp, [b.val(ptx.SubOp, [last_t, first_t], type="u32")], type="u32", imm=1)
        some = b.val(ptx.SetpOp, [e, a], i1, cmp="gt", type="u32")
        stream_units = b.val(ptx.SelpOp, [spans, b.imm(0), some], type="b32")
        units = b.val(ptx.AddOp, [dp, stream_units], type="u32", comment="stream-K: this CTA's units")
        if groups > 1:  # the last C mod G CTAs have none
            in_group = b.val(ptx.SetpOp, [p, per], i1, cmp="lt", type="u32")
            units = b.val(ptx.SelpOp, [units, b.imm(0), in_group], type="b32")
        return cls(tiles, kt, groups, loop.acc_type, workspace, group, p, per, dp, first_stream, stream_tiles, steps, a, e, units)

    def unit(self, b: PtxBuilder, j: SSAValue) -> Unit:
        """Unit j's registers (module docstring)."""
        kt = self.kt
        is_dp = b.val(ptx.SetpOp, [j, self.dp], i1, cmp="lt", type="u32")
        dp_tile = b.val(ptx.AddOp, [self.cta, b.val(ptx.MulLoOp, [j, self.per], type="u32")], type="u32",
                        comment="stream-K: unit j's tile, first K step and K steps")
        t = b.val(ptx.SubOp, [b.val(ptx.AddOp, [b.val(ptx.DivOp, [self.a], type="u32", imm=kt), j], type="u32"), self.dp], type="u32")
        start = b.val(ptx.MulLoOp, [t], type="u32", imm=kt)
        lo = b.val(ptx.MaxOp, [self.a, start], type="u32")
        hi = b.val(ptx.MinOp, [self.e, b.val(ptx.AddOp, [start], type="u32", imm=kt)], type="u32")
        tile = b.val(ptx.SelpOp, [dp_tile, b.val(ptx.AddOp, [self.first_stream, t], type="u32"), is_dp], type="b32")
        if self.groups > 1:  # tile l of group g is tile l G + g of the walk
            assert isinstance(self.group, SSAValue)
            tile = b.val(ptx.AddOp, [b.val(ptx.MulLoOp, [tile], type="u32", imm=self.groups), self.group], type="u32")
        k_lo = b.val(ptx.SelpOp, [b.imm(0), b.val(ptx.SubOp, [lo, start], type="u32"), is_dp], type="b32")
        steps = b.val(ptx.SelpOp, [b.imm(kt), b.val(ptx.SubOp, [hi, lo], type="u32"), is_dp], type="b32")
        whole = b.val(ptx.SetpOp, [steps], i1, cmp="eq", type="u32", imm=kt)
        return Unit(tile, k_lo, steps, t, whole)

    def _group_slots(self, b: PtxBuilder) -> SSAValue:
        """g (P + R): the group's first slot."""
        span = b.val(ptx.AddOp, [self.per, self.stream_tiles], type="u32")
        if self.groups == 1:
            return b.imm(0)
        assert isinstance(self.group, SSAValue)
        return b.val(ptx.MulLoOp, [self.group, span], type="u32")

    def reduce(self, k: GemmKernel, unit: Unit, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int, barrier: int) -> str:
        """The consumers' part for a unit that does not cover all of K (module docstring), up
        to D's store, which a whole unit reaches at once; returns the label the store must
        end with (where the tile's other units go). The consumers meet at named barrier
        `barrier` (`threads` of them)."""
        b, acc_t = k.b, self.acc_t
        kind = "s32" if acc_t.dtype == "s32" else "f32"
        groups = acc_t.n // 8
        partial = workspace_partial_bytes(acc_t.m, acc_t.n)
        whole = b.label("whole_unit")
        b.emit(ptx.BraOp, [unit.whole], label=whole, comment="stream-K: a unit over all of K is stored as it is")
        base = thread_base(k, self.workspace, wg, acc_t)
        group_slots = self._group_slots(b)
        slot = b.val(ptx.AddOp, [b.val(ptx.AddOp, [group_slots, self.cta], type="u32"), unit.stream], type="u32")
        mine = b.val(ptx.AddOp, [base, b.val(ptx.MulWideOp, [slot], i64, type="u32", imm=partial)], i64, type="s64")
        store_partial(b, mine, acc, kind, groups, f"stream-K: this unit's partial tile into slot g (P + R) + p + t ({partial} bytes each)")
        bar = b.imm(barrier)
        b.emit(ptx.BarSyncOp, [bar], count=threads, comment="stream-K: every partial of this unit is stored")
        first = b.val(ptx.SetpOp, [k.regs.tid], i1, cmp="eq", type="u32", imm=first_thread)
        slots_end = b.val(ptx.MulLoOp, [b.val(ptx.AddOp, [self.per, self.stream_tiles], type="u32")], type="u32", imm=self.groups)
        counters = b.val(ptx.AddOp, [self.workspace, b.val(ptx.MulWideOp, [slots_end], i64, type="u32", imm=partial)], i64, type="s64")
        index = unit.stream
        if self.groups > 1:  # group g's counters start at g R
            assert isinstance(self.group, SSAValue)
            index = b.val(ptx.AddOp, [b.val(ptx.MulLoOp, [self.group, self.stream_tiles], type="u32"), unit.stream], type="u32")
        counter = b.val(ptx.AddOp, [counters, b.val(ptx.MulWideOp, [index], i64, type="u32", imm=4)], i64, type="s64")
        before = count(b, first, counter, unit.steps, f"stream-K: this unit's K steps into its tile's count; {self.kt} completes it")
        total = b.val(ptx.AddOp, [before, unit.steps], type="u32")
        came_last = b.val(ptx.SetpOp, [total], i1, cmp="eq", type="u32", imm=self.kt)
        last = b.val(ptx.BarRedOrOp, [came_last], i1, barrier=barrier, count=threads)
        done = b.label("stream_k_done")
        b.emit(ptx.BraOp, [last], label=done, negate=1, comment="stream-K: the tile's last unit sums and stores; the others go on")
        reset_counter(b, first, counter, "stream-K")
        steps64 = b.val(ptx.CvtOp, [self.steps], i64, type="u64.u32")
        start = b.val(ptx.MulLoOp, [unit.stream], type="u32", imm=self.kt)

        def cta_of(step: SSAValue) -> SSAValue:
            """((step + 1) P - 1) / I: the group's CTA whose range holds stream-K step `step`."""
            wide = b.val(ptx.MulWideOp, [b.val(ptx.AddOp, [step], type="u32", imm=1), self.per], i64, type="u32")
            wide = b.val(ptx.AddOp, [wide], i64, type="s64", imm=-1)
            return b.val(ptx.CvtOp, [b.val(ptx.DivOp, [wide, steps64], i64, type="u64")], i32, type="u32.u64")

        c_first = cta_of(start)
        c_last = cta_of(b.val(ptx.AddOp, [start], type="u32", imm=self.kt - 1))
        sharing = b.val(ptx.AddOp, [b.val(ptx.SubOp, [c_last, c_first], type="u32")], type="u32", imm=1,
                      comment="stream-K: the tile's CTAs, their slots consecutive from g (P + R) + p_first + t")
        first_slot = b.val(ptx.AddOp, [b.val(ptx.AddOp, [group_slots, c_first], type="u32"), unit.stream], type="u32")
        slots = b.val(ptx.AddOp, [base, b.val(ptx.MulWideOp, [first_slot], i64, type="u32", imm=partial)], i64, type="s64")
        sum_slots(b, slots, acc, kind, groups, partial, sharing)
        b.emit(ptx.LabelOp, label=whole)
        return done


__all__ = ["StreamK", "Unit"]
