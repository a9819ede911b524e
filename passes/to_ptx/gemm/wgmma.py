"""The wgmma family's part of a GEMM (sm_90a): each consumer warpgroup owns 64 rows of
the BM x BN tile and its m64nN accumulator lives in registers; a K step is a fence, one
`wgmma.mma_async` per K-slice, a commit, and `wgmma.wait_group depth`, after which the
stage of iteration i - depth is released."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, i1, i32
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.fp8_accumulation import promoted_problem
from lower_tc.layout.gemm import wgmma_parts
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.cluster import Multicast
from lower_tc.passes.to_ptx.gemm.descriptors import StageDescriptors
from lower_tc.passes.to_ptx.gemm.kloop import KLoop
from lower_tc.passes.to_ptx.gemm.ring import Ring, Step
from lower_tc.passes.to_ptx.wgmma import wgmma_props

f32 = Float32Type()
MMA = tc.WgmmaOp
#: The K steps of a straight-line group of overlapped promotion (`Wgmma.overlapped_group`):
#: one add in OVERLAP_GROUP is not hidden behind MMAs.
OVERLAP_GROUP = 4


def check_mma(mma: Operation) -> None:
    """What the pipelined GEMM refuses of a tc.wgmma."""
    if mma.a_in_registers is not None:  # type: ignore[attr-defined]
        error_at(mma, "the pipelined GEMM reads A from shared memory (a_in_registers is for single tiles)")


def warpgroups(loop: KLoop) -> int:
    """One consumer warpgroup per 64 rows of the tile."""
    acc_t = loop.acc_type
    if acc_t.m != loop.rings[0].layout.mn or acc_t.m % 64:
        error_at(loop.mma, f"the accumulator has {acc_t.m} rows: BM must be a multiple of 64 (one warpgroup each)")
    return acc_t.m // 64


def regs_type(t: tc.AccType) -> ptx.RegsType:
    """One warpgroup's m64nN fragment: N/2 f32 or s32 registers per thread, N/4 for f16."""
    if t.dtype == "f16":
        return ptx.RegsType(t.n // 4, i32)
    return ptx.RegsType(t.n // 2, f32 if t.dtype == "f32" else i32)


def declare_accumulator(b: PtxBuilder, acc_t: tc.AccType, what: str | None = None) -> SSAValue:
    """The accumulator's registers (or another run of its shape: `what` it is), zeroed."""
    what = what or f"accumulator {acc_t.m}x{acc_t.n}x{acc_t.dtype}: 64 rows per warpgroup"
    acc = b.val(ptx.DeclRegsOp, result=regs_type(acc_t), comment=what)
    zero(b, acc, acc_t)
    return acc


def declare_total(b: PtxBuilder, loop: KLoop, promoted: bool) -> SSAValue | None:
    """fp8's promoted accumulation: the f32 registers each K step's sums are added into,
    zeroed (None where the accumulation is the tensor core's own). A located error at the
    MMA where its operands, accumulator or tile do not take it (a loop level written by
    hand: tc-expand-matmul checked the op)."""
    if not promoted:
        return None
    acc_t = loop.acc_type
    a_t, b_t = loop.mma.a.type, loop.mma.b.type  # type: ignore[attr-defined]
    assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
    why = promoted_problem(a_t.dtype, b_t.dtype, acc_t.dtype, acc_t.m, acc_t.n, loop.step)
    if why:
        error_at(loop.mma, why)
    return declare_accumulator(b, acc_t, f"promoted accumulation: the {acc_t.m}x{acc_t.n} tile's f32 sum")


def zero(b: PtxBuilder, acc: SSAValue, acc_t: tc.AccType) -> None:
    """Every register of the accumulator set to 0."""
    f = acc_t.dtype == "f32"
    b.emit(ptx.FillOp, [acc], type="f32" if f else "b32", value="0f00000000" if f else "0")


@dataclass(frozen=True)
class WgmmaPart:
    """One of the wgmmas a warpgroup issues per K-slice (`wgmma_parts`): its modifiers
    (m64nN), its run of the accumulator's registers, and how far B's descriptor start moves
    (16-byte units: whole swizzle atoms, so the pattern and the strides stay)."""

    props: dict[str, object]
    d_first: int
    d_count: int
    b16: int


def wgmma_split(loop: KLoop, props: dict[str, object]) -> tuple[WgmmaPart, ...]:
    """The wgmmas of a K-slice: one where the accumulator is at most N = 256 wide, else
    `wgmma_parts`'s, each starting at a whole atom of B's tile (a located error where the
    tile's atoms do not allow that)."""
    acc_t = loop.acc_type
    total = regs_type(acc_t).count.data
    layout = loop.rings[1].layout
    try:
        parts = wgmma_parts(acc_t.n, layout.atom_shape[0])
    except ValueError as err:
        error_at(loop.mma, f"{err} (B's tile: {layout.major.value}-major, {layout.swizzle} swizzle)")
    if len(parts) == 1:
        return (WgmmaPart(props, 0, total, 0),)
    kpi = str(props["shape"]).rsplit("k", 1)[1]
    out, first = [], 0
    for n in parts:
        offset = int(layout.linear_addresses(first, 0) - layout.linear_addresses(0, 0))
        regs = total * n // acc_t.n
        out.append(WgmmaPart({**props, "shape": f"m64n{n}k{kpi}"}, total * first // acc_t.n, regs, offset >> 4))
        first += n
    return tuple(out)


#: The largest `.maxnreg` ptxas takes (255), rounded down to setmaxnreg's multiples of 8: a
#: cap of 256 is ignored with a warning, and setmaxnreg then runs under no cap at entry.
MAX_ENTRY_REGISTERS = 248


def register_cap(threads: int) -> int:
    """The registers each of a CTA's `threads` may hold: the SM's 65536 over them, in
    multiples of 8, at most MAX_ENTRY_REGISTERS (the warp-specialised kernel's cap at
    entry; the pipelined kernel's, which ptxas derives from its threads)."""
    return min(MAX_ENTRY_REGISTERS, 65536 // threads // 8 * 8)


#: Registers a wgmma needs besides its accumulator's: to compile an m64nN wgmma with an
#: f32 or s32 accumulator (N/2 registers a thread), ptxas 13.0 asks for a register target of
#: N/2 + 26 ("Insufficient registers", C7602: bf16, e4m3 and s8, every N of 144 to 256,
#: under caps of 96 and 128 a thread).
WGMMA_EXTRA_REGISTERS = 26


def check_registers(loop: KLoop, parts: tuple[WgmmaPart, ...], cap: int, schedule: str) -> None:
    """A located error where the K loop's wgmma cannot be compiled under the kernel's
    register cap (`cap` a thread, what `schedule` leaves each consumer thread): the tile's
    rows set how many warpgroups share the SM's registers, its columns how many
    accumulator registers the instruction holds."""
    acc_t = loop.acc_type
    count = max(p.d_count for p in parts)
    need = count + WGMMA_EXTRA_REGISTERS
    if need <= cap:
        return
    per_column = regs_type(acc_t).count.data / acc_t.n
    widest = int((cap - WGMMA_EXTRA_REGISTERS) / per_column) // 16 * 16
    error_at(loop.mma, f"BM = {acc_t.m} and BN = {acc_t.n} ({schedule}): {acc_t.m // 64} consumer warpgroups leave each "
                       f"thread {cap} registers, and a wgmma of {count} accumulator registers needs about {need} (ptxas); "
                       f"take BN at most {widest}, or fewer rows")


@dataclass(frozen=True)
class Wgmma:
    """A consumer warpgroup's MMAs: its accumulator, the descriptors and the modifiers.

    With `total` (fp8's promoted accumulation) the MMAs of each K step start afresh in
    `acc` (scale-d 0 on the step's first K-slice), the step waits for them, and adds `acc`
    into `total`, an f32 run of the same shape: the tensor core's limited-precision sums
    span one K step (BK = 128 for fp8), the rest is f32 arithmetic. `total` is then the
    accumulator the epilogue stores (`result`).

    With a `spare` run as well (overlapped promotion, `steps`) the steps of a group of four
    alternate between `acc` and `spare`: a step issues its MMAs, waits for the step
    before's (`wait_group 1`), releases that step's stage and adds its sums into `total`
    while its own MMAs run, so the tensor core does not idle through the adds (one
    consumer warpgroup has no other warpgroup's MMAs to fill that gap). Neither run needs
    zeroing: each step's first K-slice starts afresh."""

    acc: SSAValue
    acc_type: tc.AccType
    descriptors: StageDescriptors
    props: dict[str, object]
    depth: int  # groups left in flight by wait_group
    total: SSAValue | None = None
    spare: SSAValue | None = None  # overlapped promotion: the odd steps' run
    parts: tuple[WgmmaPart, ...] = ()  # the wgmmas of a K-slice (`wgmma_split`; empty: one, `props`)

    @property
    def result(self) -> SSAValue:
        """The registers that hold the tile's sum once the loop is done."""
        return self.total if self.total is not None else self.acc

    @classmethod
    def make(cls, loop: KLoop, acc: SSAValue, descriptors: StageDescriptors, depth: int,
             total: SSAValue | None = None, spare: SSAValue | None = None) -> "Wgmma":
        """The K loop's wgmma: its shape, types and transposes from the tiles."""
        acc_t = loop.acc_type
        a_t, b_t = loop.mma.a.type, loop.mma.b.type  # type: ignore[attr-defined]
        assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
        props = wgmma_props(a_t, b_t, acc_t.dtype, a_in_registers=False)
        return cls(acc, acc_t, descriptors, props, depth, total, spare, wgmma_split(loop, props))

    def issue(self, ring: Ring, s: SSAValue, p: SSAValue, run: SSAValue) -> None:
        """Wait for stage s (its round of parity p) and issue its K-slices' MMAs into `run`,
        one group."""
        b = ring.b
        ring.wait_full(s, p)
        a64, b64 = self.descriptors.bases(b, s)
        parts = self.parts or (WgmmaPart(self.props, 0, 0, 0),)
        shapes = " + ".join(str(p.props["shape"]) for p in parts)
        b.emit(ptx.WgmmaFenceOp, comment=f"wgmma {shapes}, {self.descriptors.slices} K-slices")
        for kk in range(self.descriptors.slices):
            da, db = self.descriptors.slice(b, kk, a64, b64)
            fresh = self.total is not None and kk == 0  # promoted: the step's sums start from zero
            for part in parts:
                run_regs = {"d_first": part.d_first, "d_count": part.d_count} if len(parts) > 1 else {}
                db_part = b.add_imm(db, part.b16, "s64") if part.b16 else db
                b.emit(ptx.WgmmaMmaAsyncOp, [run, da, db_part], **{**part.props, **run_regs, **({"scale_d": 0} if fresh else {})})
        b.emit(ptx.WgmmaCommitGroupOp)

    def consume(self, ring: Ring, st: Step, multicast: Multicast | None) -> None:
        """Wait for stage s, run its K-slices, and release the stage `st` names (iteration
        i - depth's; with `total`, where the schedule asks for it, stage s itself)."""
        b = ring.b
        self.issue(ring, st.s, st.p, self.acc)
        if self.total is not None:
            done = "promoted: this step's MMAs are done" + (": release its stage" if st.releases_own else "")
            b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment=done)
            self.promote(b)
        else:
            b.emit(ptx.WgmmaWaitGroupOp, pending=self.depth, comment=f"iteration i-{self.depth}'s MMAs are done: release its stage")
        ring.release(st.prev_empty, st.first, multicast)

    def promote(self, b: PtxBuilder, run: SSAValue | None = None) -> None:
        """total += run (`acc` by default), register by register, in f32."""
        assert self.total is not None
        run = run if run is not None else self.acc
        for r in range(regs_type(self.acc_type).count.data):
            t = b.val(ptx.RegOfOp, [self.total], f32, regs=r)
            a = b.val(ptx.RegOfOp, [run], f32, regs=r)
            b.emit(ptx.AssignOp, [t, b.val(ptx.AddOp, [t, a], f32, type="f32", comment="promoted: total += this K step's sums" if r == 0 else None)], type="f32")

    def drain(self, b: PtxBuilder) -> None:
        """Every MMA done: the accumulator is complete."""
        b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="the last MMAs")

    def start_tile(self, b: PtxBuilder) -> None:
        """A tile's accumulation starts from zero (`result`)."""
        zero(b, self.result, self.acc_type)

    def steps(self, ring: Ring, trips: int | SSAValue, multicast: Multicast | None,
              carried: tuple[SSAValue, SSAValue] | None = None) -> tuple[SSAValue, SSAValue]:
        """With `spare` (overlapped promotion): the K loop's `trips` steps in groups of
        OVERLAP_GROUP, straight-line in a loop, the last trips mod OVERLAP_GROUP after it
        (`overlapped_group`); a count known at run time (a split-K rank's, a K known at
        launch) picks that last group's length by branches. Returns the stage and phase
        after them."""
        assert self.spare is not None
        b = ring.b

        def group(_: SSAValue, s: SSAValue, p: SSAValue) -> None:
            b.yield_(*self.overlapped_group(ring, OVERLAP_GROUP, s, p, multicast))

        if isinstance(trips, int):
            whole = trips - trips % OVERLAP_GROUP
            if whole:
                s, p = b.counted_loop(whole, group, step=OVERLAP_GROUP, carried=carried).results
            else:  # no whole group: no loop to emit
                s, p = carried if carried is not None else (b.imm(0, "s32"), b.imm(0, "s32"))
            if trips % OVERLAP_GROUP:
                s, p = self.overlapped_group(ring, trips % OVERLAP_GROUP, s, p, multicast)
            return s, p
        whole_steps = b.val(ptx.AndOp, [trips], type="b32", imm=-OVERLAP_GROUP & 0xFFFFFFFF)
        s, p = b.counted_loop(whole_steps, group, step=OVERLAP_GROUP, carried=carried).results
        left = b.val(ptx.AndOp, [trips], type="b32", imm=OVERLAP_GROUP - 1)
        s_out, p_out = b.val(ptx.AddOp, [s], type="u32", imm=0), b.val(ptx.AddOp, [p], type="u32", imm=0)
        done = b.label("steps_done")
        for count in range(1, OVERLAP_GROUP):
            other = b.if_(b.val(ptx.SetpOp, [left], i1, cmp="eq", type="u32", imm=count), f"not_{count}_left")
            s_end, p_end = self.overlapped_group(ring, count, s, p, multicast)
            b.emit(ptx.AssignOp, [s_out, s_end], type="b32")
            b.emit(ptx.AssignOp, [p_out, p_end], type="b32")
            b.emit(ptx.BraOp, label=done)
            b.emit(ptx.LabelOp, label=other)
        b.emit(ptx.LabelOp, label=done)
        return s_out, p_out

    def overlapped_group(self, ring: Ring, count: int, s: SSAValue, p: SSAValue,
                         multicast: Multicast | None) -> tuple[SSAValue, SSAValue]:
        """`count` steps from stage s (parity p), straight-line: step k's MMAs into `acc`
        (k even) or `spare` (k odd); from k = 1 on, once the step before's are done
        (`wait_group 1`), that step's stage is released and its sums added into `total`
        while step k's MMAs run; the last step's are waited for (`wait_group 0`), released
        and added at the group's end, so no group is in flight where the loop turns back.
        With one in flight there, ptxas 13.0 serialized the MMAs (C7514) though each read
        followed the wait that retired its run; a group of OVERLAP_GROUP steps hides all
        but one add of every OVERLAP_GROUP. Returns the stage and phase after the group."""
        assert self.spare is not None
        b = ring.b
        runs = (self.acc, self.spare)
        before: SSAValue | None = None  # the "empty" barrier of the step before's stage
        for kk in range(count):
            own = ring.barrier(s)
            self.issue(ring, s, p, runs[kk % 2])
            if before is not None:
                b.emit(ptx.WgmmaWaitGroupOp, pending=1, comment="overlapped promotion: the step before's MMAs are done: "
                       "release its stage, add its sums while this step's run")
                ring.release(before, None, multicast)
                self.promote(b, runs[(kk - 1) % 2])
            before = own
            s, p = ring.next_stage(s, p)
        b.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="overlapped promotion: the group's last MMAs are done")
        assert before is not None
        ring.release(before, None, multicast)
        self.promote(b, runs[(count - 1) % 2])
        return s, p
