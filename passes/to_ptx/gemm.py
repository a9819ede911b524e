"""Lowers a loop-level GEMM kernel (a grid of CTAs, an `scf.for` over K) to the ptx
dialect: a software-pipelined K loop over a ring of shared-memory stages.

Per CTA, BM/64 warpgroups each own 64 rows of the BM x BN tile of D. Thread 0 issues
the TMA loads; every stage s has a "full" mbarrier (TMA's transaction bytes complete
it) and an "empty" one (every thread arrives once the MMA that read s is done).

    prologue: load iterations 0 .. S-2 into stages 0 .. S-2
    iteration i (stage s = i mod S, phase p = (i div S) & 1):
        wait full[s] (parity p); wgmma over s's K-slices; commit
        wgmma.wait_group 1: iteration i-1's MMAs are done -> arrive on empty[s-1]
        thread 0: wait empty[s-1] (the parity of iteration i-1), then load
                  iteration i+S-1 into stage s-1: the loads stay S-1 ahead
    wgmma.wait_group 0; the epilogue stores the accumulator (bounds-checked)

The loop stays an `scf.for` over i32 registers here; ptx-lower-loops makes it labels
and branches. Descriptors are the ones tc-compute-descriptors attached (checked here
to step by the stage and warpgroup strides), plus the shared-memory base at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import (
    IntAttr,
    ArrayAttr,
    Float32Type,
    IntegerAttr,
    MemRefType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import Matrix, WindowLoadOp, WindowStoreOp, matrix, ring_stages
from lower_tc.layout import Major, TileLayout
from lower_tc.layout.epilogue import PIECE_ALIGN, staging_bytes
from lower_tc.layout.gemm import SMEM_CAPACITY, ring_stride
from lower_tc.layout.kernel_info import ArgInfo, GridEntry, GridFromArg, KernelInfo, PersistentGrid, SizeParam, TensorMap
from lower_tc.layout.tma import TmaPlan, tma_plan
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.copies import tensor_map
from lower_tc.passes.to_ptx.emit import Emitter, param_name, placed_layout

f32 = Float32Type()
#: Index arithmetic a GEMM kernel may do (on sizes and block indices, all non-negative):
#: the PTX op, its type, and the fold for constants.
INDEX_OPS = {
    arith.MuliOp: (ptx.MulLoOp, "s32", lambda a, b: a * b),
    arith.AddiOp: (ptx.AddOp, "s32", lambda a, b: a + b),
    arith.SubiOp: (ptx.SubOp, "s32", lambda a, b: a - b),
    arith.DivUIOp: (ptx.DivOp, "u32", lambda a, b: a // b),
    arith.RemUIOp: (ptx.RemOp, "u32", lambda a, b: a % b),
    arith.MinUIOp: (ptx.MinOp, "u32", min),
}

#: The kernel attribute asking TMA to promote its loads to L2 in sectors of this many bytes.
L2_PROMOTION_ATTR = "tc.l2_promotion"

#: The attribute giving a kernel its grid.
GRID_ATTR = "tc.grid"


def is_gemm_kernel(kernel: Operation) -> bool:
    """A loop-level kernel: one whose body holds an scf.for."""
    return any(isinstance(op, scf.ForOp) for op in tc.kernel_body(kernel).ops)


@dataclass
class Ring:
    """A tile with `stages` buffers, `stride` bytes apart."""

    layout: TileLayout
    stages: int
    stride: int


@dataclass
class Window:
    """One tc.window_load of the K loop: its ring, TMA plan and tensor-map parameter."""

    op: WindowLoadOp
    ring: Ring
    plan: TmaPlan
    param: str
    outer_coord: SSAValue  # the register of the coordinate that does not move with K
    tmap: SSAValue | None = None


@dataclass
class Step:
    """One K step's registers: iteration i, its stage s and phase p, iteration i-1's stage
    and parity, p flipped; whether i is 0, and the previous stage's "empty" barrier."""

    i: SSAValue
    s: SSAValue
    p: SSAValue
    prev: SSAValue
    prev_p: SSAValue
    p_flip: SSAValue
    first: SSAValue | None = None
    prev_empty: SSAValue | None = None


@dataclass
class GemmLowering(Emitter):
    """Builds one ptx.kernel from one loop-level GEMM kernel."""

    kernel: Operation
    ops: list[ptx.PtxOp | Operation] = field(default_factory=list)
    labels: int = 0
    rings: dict[SSAValue, Ring] = field(default_factory=dict)
    consts: dict[SSAValue, int] = field(default_factory=dict)
    regs: dict[SSAValue, SSAValue] = field(default_factory=dict)
    globals_: dict[SSAValue, SSAValue] = field(default_factory=dict)
    tensor_maps: list[TensorMap] = field(default_factory=list)
    scratch: int = 0
    uses_block_id: bool = False
    geometry: dict[SSAValue, Matrix] = field(default_factory=dict)
    dynamic: dict[tuple[SSAValue, str], SSAValue] = field(default_factory=dict)
    size_params: list[SizeParam] = field(default_factory=list)
    exit_label: str | None = None
    index_ops: list[Operation] = field(default_factory=list)  # the kernel's index arithmetic
    block_x: SSAValue | None = None  # stands for gpu.block_id x (a persistent kernel's tile)
    stored: bool = False  # the epilogue is already emitted (in a persistent kernel's tile loop)
    persistent_tiles: int | None = None
    max_registers: int | None = None  # a register cap at entry (setmaxnreg needs one)
    staging: int | None = None  # where the TMA-store epilogue's pieces start (None: registers)
    depth: int = 1  # wgmma groups left in flight in the K loop (tc.mma_depth, warp-specialised)
    cluster: int = 1  # CTAs per cluster (tc.cluster, warp-specialised): 2 multicasts B's loads

    # -- emission helpers -------------------------------------------------------------

    def imm(self, value: int | str, t: str = "u32") -> SSAValue:
        return self.val(ptx.MovImmOp, result=i64 if t in ("u64", "b64", "s64") else i32, type=t, value=value)

    def add_imm(self, x: SSAValue, value: int, t: str = "s32") -> SSAValue:
        if not value:
            return x
        return self.val(ptx.AddOp, [x], x.type, type=t, imm=value)

    def wait(self, mbar: SSAValue, parity: SSAValue, offset: int = 0) -> None:
        again = self.label("wait")
        self.emit(ptx.LabelOp, label=again)
        ready = self.val(ptx.MbarrierTryWaitParityOp, [mbar, parity], i1, offset=offset)
        self.emit(ptx.BraOp, [ready], label=again, negate=1)

    def if_(self, pred: SSAValue, stem: str, negate: bool = True) -> str:
        """Skips to the returned label unless `pred` (when negate) holds."""
        skip = self.label(stem)
        self.emit(ptx.BraOp, [pred], label=skip, negate=1 if negate else None)
        return skip

    # -- values -----------------------------------------------------------------------

    def reg(self, value: SSAValue, at: Operation) -> SSAValue:
        """The i32 register of an index value (constants are materialised here)."""
        if value in self.regs:
            return self.regs[value]
        if value in self.consts:
            return self.imm(self.consts[value], "s32")
        error_at(at, "this index is not computed from constants, gpu.block_id and arith in the kernel")

    def size(self, arg: SSAValue, what: str) -> int | SSAValue:
        """An argument's rows, cols or ld: a number, or the register of its parameter."""
        value = getattr(self.geometry[arg], what)
        return value if value is not None else self.dynamic[(arg, what)]

    def _index_op(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp):
            value = op.value
            if not isinstance(value, IntegerAttr):
                error_at(op, "only integer and index constants are lowered in a GEMM kernel")
            self.consts[op.result] = value.value.data
            return
        if isinstance(op, memref.DimOp):
            if op.index not in self.consts or op.source not in self.globals_:
                error_at(op, "memref.dim of a kernel argument, at a constant index")
            size = self.size(op.source, ("rows", "cols")[self.consts[op.index]])
            if isinstance(size, int):
                self.consts[op.result] = size
            else:
                self.regs[op.result] = size
            return
        if isinstance(op, gpu.BlockIdOp):
            dim = op.dimension.data.value if hasattr(op.dimension.data, "value") else str(op.dimension.data)
            if dim == "x" and self.block_x is not None:
                self.regs[op.result] = self.block_x
            else:
                self.regs[op.result] = self.val(ptx.SregOp, sreg=f"ctaid.{dim}")
            self.uses_block_id = True
            return
        for cls, (pcls, ty, fold) in INDEX_OPS.items():
            if isinstance(op, cls):
                lhs, rhs = op.lhs, op.rhs
                if rhs in self.consts and self.consts[rhs] == 0 and cls in (arith.DivUIOp, arith.RemUIOp):
                    error_at(op, f"'{op.name}' by zero")
                if lhs in self.consts and rhs in self.consts:
                    self.consts[op.result] = fold(self.consts[lhs], self.consts[rhs])
                elif rhs in self.consts:
                    self.regs[op.result] = self.val(pcls, [self.reg(lhs, op)], type=ty, imm=self.consts[rhs])
                else:
                    self.regs[op.result] = self.val(pcls, [self.reg(lhs, op), self.reg(rhs, op)], type=ty)
                return
        error_at(op, f"'{op.name}' cannot be lowered in a GEMM kernel")

    # -- the kernel -------------------------------------------------------------------

    def run(self) -> ptx.KernelOp:
        k = self.kernel
        block = tc.kernel_body(k)
        body = list(block.ops)
        loops = [op for op in body if isinstance(op, scf.ForOp)]
        if len(loops) != 1:
            error_at(loops[1], "a GEMM kernel has one K loop")
        loop = loops[0]
        at = body.index(loop)
        self.loop = loop
        self._prologue(block)
        for op in body[:at]:
            self._located(op, self._pre_op)
        self._located(loop, self._k_loop)
        for op in body[at + 1 :]:
            self._located(op, self._post_op)
        if self.staging is not None:
            from lower_tc.passes.to_ptx.gemm_epilogue_tma import wait_for_stores

            wait_for_stores(self)
        if self.exit_label:  # where threads with no part in the epilogue go
            self.emit(ptx.LabelOp, label=self.exit_label)
        if self.cluster > 1:  # no CTA leaves while its peer may still arrive on its barriers
            self.emit(ptx.ClusterBarrierOp, comment="the cluster's CTAs leave together")
        self._at_exit()
        self.emit(ptx.RetOp)
        return self._kernel(block)

    def _located(self, op: Operation, lower) -> None:
        first = len(self.ops)
        lower(op)
        for new in self.ops[first:]:
            if new.location is None or not hasattr(new.location, "line"):
                new.location = op.location

    def _prologue(self, block: Block) -> None:
        self.tid = self.val(ptx.SregOp, sreg="tid.x", comment="prologue")
        self.smem = self.val(ptx.SymAddrOp, type="u32", symbol="smem")
        self.smem16 = self.val(ptx.ShrOp, [self.smem], type="u32", imm=4)
        for arg in block.args:
            raw = self.val(ptx.LdParamOp, result=i64, type="u64", param=param_name(arg))
            self.globals_[arg] = self.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64")
        for arg in block.args:  # sizes known at launch: one .u32 parameter each
            try:
                geometry = matrix(arg.type, f"kernel argument {param_name(arg)}")
            except VerifyException as err:
                error_at(self.kernel, str(err))
            self.geometry[arg] = geometry
            if not geometry.static:
                for what in SIZE_PARAMS:
                    name = f"{param_name(arg)}_{what}"
                    self.size_params.append(SizeParam(name, arg.index, what))  # type: ignore[attr-defined]
                    self.dynamic[(arg, what)] = self.val(ptx.LdParamOp, type="u32", param=name)
        self.is_thread0 = self.val(ptx.SetpOp, [self.tid], i1, cmp="eq", type="u32", imm=0)
        self.wg = self.val(ptx.ShrOp, [self.tid], type="u32", imm=7)

    def _pre_op(self, op: Operation) -> None:
        if isinstance(op, tc.SmemTileOp):
            layout = placed_layout(op)
            try:
                stages = ring_stages(op)
            except VerifyException as err:
                error_at(op, str(err))
            ring = Ring(layout, stages, ring_stride(layout.footprint))
            self.rings[op.tile] = ring
            self.scratch = max(self.scratch, layout.address + ring.stages * ring.stride)
            return
        if isinstance(op, tc.AccZeroOp):
            self.acc_zero = op.acc
            return
        self.index_ops.append(op)
        self._index_op(op)

    # -- the pipelined K loop ---------------------------------------------------------

    def _k_loop(self, loop: scf.ForOp) -> None:
        bounds = []
        for what, v in (("lower bound", loop.lb), ("step", loop.step)):
            if v not in self.consts:
                error_at(loop, f"the K loop's {what} must be a constant")
            bounds.append(self.consts[v])
        lb, step = bounds
        if step <= 0:
            error_at(loop, f"the K loop's step must be positive, not {step}")
        trips: int | SSAValue
        if loop.ub in self.consts:
            trips = -(-(self.consts[loop.ub] - lb) // step)
            if trips <= 0:
                error_at(loop, "the K loop runs no iteration: K must be positive")
        else:  # K known at launch: ceil((ub - lb) / step) iterations, counted at run time
            span = self.add_imm(self.reg(loop.ub, loop), step - 1 - lb)
            trips = self.val(ptx.DivOp, [span], type="s32", imm=step, comment="K steps, from the size known at launch")
        if len(loop.iter_args) != 1 or not isinstance(loop.iter_args[0].type, tc.AccType):
            error_at(loop, "the K loop carries exactly one value, the accumulator")
        iv = loop.body.block.args[0]
        carried = loop.body.block.args[1]
        inner = [op for op in loop.body.block.ops if not op.has_trait(IsTerminator)]
        windows = [op for op in inner if isinstance(op, WindowLoadOp)]
        mma_name = self.MMA.name
        mmas = [op for op in inner if isinstance(op, self.MMA)]
        for op in inner:
            if not isinstance(op, WindowLoadOp | self.MMA):
                error_at(op, f"'{op.name}' cannot be in the K loop: it holds tc.window_load and {mma_name}")
        if len(mmas) != 1:
            error_at(loop, f"the K loop holds one {mma_name}")
        mma = mmas[0]
        yielded = loop.body.block.last_op
        assert isinstance(yielded, scf.YieldOp)
        if mma.acc is not carried or list(yielded.operands) != [mma.result]:
            error_at(mma, f"the {mma_name} accumulates into the loop's carried accumulator and yields its result")
        if loop.iter_args[0] is not getattr(self, "acc_zero", None):
            error_at(loop, "the K loop's accumulator starts from tc.acc_zero")
        self._check_mma(mma)
        by_tile = {}
        for w in windows:
            role = w.operand.data
            moving, fixed = (w.col, w.row) if role is tc.Operand.A else (w.row, w.col)
            if moving is not iv:
                error_at(w, f"operand {role}'s window moves along K with the loop: its K coordinate must be the induction variable")
            if w.dst in by_tile:
                error_at(w, "each ring tile is loaded by one window")
            by_tile[w.dst] = w
        for tile, role in ((mma.a, "A"), (mma.b, "B")):
            if tile not in by_tile:
                error_at(mma, f"the {mma_name}'s {role} tile must be loaded by a tc.window_load in the loop")
        ring_a, ring_b = self.rings.get(mma.a), self.rings.get(mma.b)
        if ring_a is None or ring_b is None:
            error_at(mma, f"the {mma_name}'s tiles must come from tc.smem_tile in this kernel")
        stages = ring_a.stages
        if ring_b.stages != stages or stages < 2:
            error_at(mma, f"A and B need the same number of stages, at least 2 (A has {ring_a.stages}, B {ring_b.stages})")
        if step != ring_a.layout.k:
            error_at(loop, f"the loop steps K by {step}, but the tiles hold BK = {ring_a.layout.k}")
        self.stages, self.trips, self.lb, self.step = stages, trips, lb, step
        self.windows = [self._window(by_tile[t], self.rings[t], i) for i, t in enumerate((mma.a, mma.b))]
        self.tx_bytes = sum(w.plan.bytes for w in self.windows)
        acc_t = mma.acc.type
        assert isinstance(acc_t, tc.AccType)
        self.acc_type = acc_t
        self.loop_result = loop.results[0]
        self.threads = self._threads(mma, ring_a)

        # barriers: full[s] then empty[s], 8 bytes each, after the rings
        self.scratch = -(-self.scratch // 8) * 8
        self.full_off = self.scratch
        self.empty_off = self.scratch + 8 * stages
        self.scratch += 16 * stages
        self._choose_epilogue()
        skip = self.if_(self.is_thread0, "barriers_ready")
        for s in range(stages):
            self.emit(ptx.MbarrierInitOp, [self.smem], offset=self.full_off + 8 * s, count=1)
            self.emit(ptx.MbarrierInitOp, [self.smem], offset=self.empty_off + 8 * s, count=self.empty_arrivals)
        self._extra_barriers()
        self.emit(ptx.FenceMbarrierInitOp)
        self.emit(ptx.LabelOp, label=skip)
        if self.cluster > 1:  # the peer's loads and arrivals need our barriers initialised
            self.emit(ptx.ClusterBarrierOp, comment="the cluster's barriers are initialised")
        else:
            self.emit(ptx.BarSyncOp)
        for w in self.windows:
            w.tmap = self.val(ptx.ParamAddrOp, result=i64, param=w.param, comment=f"{w.op.operand.data} window by TMA: {len(w.plan.boxes)} box(es) of {w.plan.box[0]}x{w.plan.box[1]}, {w.ring.stages} stages")
        if self.staging is not None:
            self.d_tmap = self.val(ptx.ParamAddrOp, result=i64, param=self.d_tmap_param, comment="D by TMA stores of staged pieces")

        self._schedule(mma)

    def _choose_epilogue(self) -> None:
        """The TMA-store epilogue (gemm_epilogue_tma.py) wherever it applies, unless the
        kernel's tc.epilogue says "registers"; with "tma", a reason against is an error.
        Its staging pieces go after the barriers, on a 1024-byte boundary."""
        from lower_tc.passes.to_ptx.gemm_epilogue_tma import EPILOGUE_ATTR, EPILOGUES, epilogue_problem, tma_store_map

        attr = self.kernel.attributes.get(EPILOGUE_ATTR)
        asked = getattr(attr, "data", None) if attr is not None else None
        if attr is not None and asked not in EPILOGUES:
            error_at(self.kernel, f"tc.epilogue is one of {', '.join(EPILOGUES)}, not {attr}")
        if asked == "registers":
            return
        store = next((op for op in tc.kernel_body(self.kernel).ops if isinstance(op, WindowStoreOp)), None)
        if store is None:
            return
        if self.MMA is not tc.WgmmaOp:
            problem: str | None = "the tcgen05 GEMM stores D from tensor memory through registers"
        else:
            problem = epilogue_problem(self, store)
        start = -(-self.scratch // PIECE_ALIGN) * PIECE_ALIGN
        end = start + staging_bytes(self.warpgroups)
        if problem is None and end > SMEM_CAPACITY:
            problem = f"the stages leave {SMEM_CAPACITY - start} bytes of shared memory and the staging pieces need {end - start}"
        if problem is not None:
            if asked == "tma":
                error_at(store, f"the TMA-store epilogue cannot store this D: {problem}")
            return
        self.staging, self.scratch = start, end
        self.d_tmap_param = f"tmap_{len(self.windows)}"
        self.tensor_maps.append(tma_store_map(self, store, self.d_tmap_param))

    def counted_loop(
        self, count: int | SSAValue, build, start: int | SSAValue = 0, step: int | SSAValue = 1,
        carried: tuple[SSAValue, SSAValue] | None = None,
    ) -> scf.ForOp:
        """An scf.for over i32 registers, i from `start` to `count` by `step`, carrying a
        stage s and a phase p (from `carried`, else 0); `build(i, s, p)` emits the body,
        ending in its yield. The loop's results are the last s and p."""
        outer = self.ops
        self.ops = []
        body = Block(arg_types=[i32, i32, i32])
        build(*body.args)
        body.add_ops(self.ops)
        self.ops = outer

        def reg(x: int | SSAValue) -> SSAValue:
            return self.imm(x, "s32") if isinstance(x, int) else x

        zero = self.imm(0, "s32")
        init = list(carried) if carried is not None else [zero, zero]
        loop_op = scf.ForOp(reg(start), reg(count), reg(step), init, Region(body))
        self.ops.append(loop_op)
        return loop_op

    def advance(self, s: SSAValue, p: SSAValue, p_flip: SSAValue | None = None) -> None:
        """Yields the next stage and phase: s + 1, wrapping to 0 (and flipping p) at S."""
        s_next = self.val(ptx.AddOp, [s], type="u32", imm=1)
        wrap = self.val(ptx.SetpOp, [s_next], i1, cmp="eq", type="u32", imm=self.stages)
        s_new = self.val(ptx.SelpOp, [self.imm(0), s_next, wrap], type="b32")
        p_flip = p_flip if p_flip is not None else self.val(ptx.XorOp, [p], type="b32", imm=1)
        p_new = self.val(ptx.SelpOp, [p_flip, p, wrap], type="b32")
        self.ops.append(scf.YieldOp(s_new, p_new))

    def _schedule(self, mma: Operation) -> None:
        """One loop for every thread: thread 0 keeps the loads S-1 iterations ahead of the
        MMAs, between them (the module docstring)."""
        stages, trips = self.stages, self.trips
        # the accumulator and the descriptors' parts that do not change in the loop
        self._setup(mma)

        skip = self.if_(self.is_thread0, "prologue_loads")
        for j in range(min(stages - 1, trips) if isinstance(trips, int) else stages - 1):
            if not isinstance(trips, int) and j:  # K may end before the ring is full
                self.emit(ptx.BraOp, [self.val(ptx.SetpOp, [trips], i1, cmp="le", type="s32", imm=j)], label=skip)
            self._issue(j, j)
        self.emit(ptx.LabelOp, label=skip)

        guard = self._loop_guard()

        def body(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
            step = self.consumer_step(i, s, p)
            self._consume(step)
            self._refill_and_advance(step)

        self.counted_loop(trips, body)
        if guard:
            self._loop_tail()
            self.emit(ptx.LabelOp, label=guard)
        self._drain()

    # -- the MMA family's parts (wgmma here; gemm_tcgen05.py overrides them) -------------

    MMA: ClassVar[type[Operation]] = tc.WgmmaOp

    def _check_mma(self, mma: Operation) -> None:
        if mma.a_in_registers is not None:  # type: ignore[attr-defined]
            error_at(mma, "the pipelined GEMM reads A from shared memory (a_in_registers is for single tiles)")

    def _threads(self, mma: Operation, ring_a: Ring) -> int:
        """One warpgroup per 64 rows; every thread arrives on "empty" after its wait."""
        acc_t = self.acc_type
        if acc_t.m != ring_a.layout.mn or acc_t.m % 64:
            error_at(mma, f"the accumulator has {acc_t.m} rows: BM must be a multiple of 64 (one warpgroup each)")
        self.warpgroups = acc_t.m // 64
        self.empty_arrivals = 128 * self.warpgroups
        return 128 * self.warpgroups

    def _extra_barriers(self) -> None:
        """More mbarriers to initialise with the stages' (none for wgmma)."""

    def _at_exit(self) -> None:
        """What every thread does last, after the cluster barrier (nothing here)."""

    def _expect(self, mbar: SSAValue, mbar_off: int) -> None:
        """Thread 0 expects a stage's bytes on its "full" barrier before loading it."""
        self.emit(ptx.MbarrierArriveExpectTxOp, [mbar], offset=mbar_off, bytes=self.tx_bytes)

    def _completion_barrier(self, mbar: SSAValue, mbar_off: int) -> tuple[SSAValue, int]:
        """The barrier (address, offset) that a stage's TMA loads complete: its own here."""
        return mbar, mbar_off

    #: Modifiers of every TMA load (a CTA pair's loads add cta_group = 2).
    load_props: ClassVar[dict[str, object]] = {}
    #: In a cluster, the CTAs share B's boxes by multicast (sm_90a); a tcgen05 CTA pair's
    #: CTAs each load their own half of B instead.
    multicast_b: ClassVar[bool] = True

    def _setup(self, mma: Operation) -> None:
        acc_t = self.acc_type
        self.acc = self.val(ptx.DeclRegsOp, result=wgmma_regs_type(acc_t), comment=f"accumulator {acc_t.m}x{acc_t.n}x{acc_t.dtype}: 64 rows per warpgroup")
        self.emit(ptx.FillOp, [self.acc], type="f32" if acc_t.dtype == "f32" else "b32", value="0f00000000" if acc_t.dtype == "f32" else "0")
        self._mma_setup(mma)  # type: ignore[arg-type]

    def _loop_guard(self) -> str | None:
        """A label to skip the loop to, for threads that take no part in it (None: all do)."""
        return None

    def _loop_tail(self) -> None:
        """What the loop's threads do after it, before the others join (with a guard)."""

    def _drain(self) -> None:
        self.emit(ptx.WgmmaWaitGroupOp, pending=0, comment="the last MMAs")

    def _store(self, op: WindowStoreOp) -> None:
        from lower_tc.passes.to_ptx.gemm_epilogue import store_window
        from lower_tc.passes.to_ptx.gemm_epilogue_tma import store_window_tma

        if self.staging is not None:
            store_window_tma(self, op, self.staging, self.d_tmap)
        else:
            store_window(self, op)

    def _window(self, w: WindowLoadOp, ring: Ring, index: int) -> Window:
        plan = tma_plan(ring.layout)
        src = w.src.type
        assert isinstance(src, MemRefType)
        g = self.geometry[w.src]
        if g.static:
            global_dims = [g.cols, g.rows] if g.row_major else [g.rows, g.cols]
            global_strides: list[int] | None = [g.ld * ring.layout.dtype.bits // 8]  # type: ignore[operator]
        else:  # the launcher fills them in from the argument's sizes
            global_dims, global_strides = None, None  # type: ignore[assignment]
        param = f"tmap_{index}"
        arg = list(tc.kernel_body(self.kernel).args).index(w.src)  # type: ignore[arg-type]
        entry = tensor_map(param, arg, ring.layout, plan, global_dims, global_strides)
        promotion = self.kernel.attributes.get(L2_PROMOTION_ATTR)
        if promotion is not None:  # TMA fetches whole 64/128/256-byte L2 sectors ahead
            codes = {0: 0, 64: 1, 128: 2, 256: 3}
            value = promotion.value.data if isinstance(promotion, IntegerAttr) else None
            if value not in codes:
                error_at(self.kernel, f"tc.l2_promotion is 0, 64, 128 or 256 (bytes), not {promotion}")
            entry = replace(entry, l2_promotion=codes[value])
        self.tensor_maps.append(entry)
        role = w.operand.data
        fixed = w.row if role is tc.Operand.A else w.col
        return Window(w, ring, plan, param, self.reg(fixed, w))

    def _issue(self, j: SSAValue | int, stage: SSAValue | int) -> None:
        """Thread 0: expect the stage's bytes on full[stage] and load iteration j's windows."""
        if isinstance(stage, int):
            mbar, mbar_off = self.smem, self.full_off + 8 * stage
        else:
            s8 = self.val(ptx.ShlOp, [stage], type="b32", imm=3)
            mbar, mbar_off = self.val(ptx.AddOp, [self.smem, s8], type="u32"), self.full_off
        self._expect(mbar, mbar_off)
        mbar, mbar_off = self._completion_barrier(mbar, mbar_off)
        if isinstance(j, int):
            k = self.imm(self.lb + j * self.step, "s32")
        else:
            k = self.add_imm(self.val(ptx.MulLoOp, [j], type="s32", imm=self.step), self.lb)
        for w in self.windows:
            ring = w.ring
            if isinstance(stage, int):
                dst, dst_off = self.smem, ring.layout.address + stage * ring.stride
            else:
                so = self.val(ptx.MulLoOp, [stage], type="u32", imm=ring.stride)
                dst, dst_off = self.val(ptx.AddOp, [self.smem, so], type="u32"), ring.layout.address
            k_major = ring.layout.major is Major.K
            if self.cluster > 1 and self.multicast_b and w.op.operand.data is tc.Operand.B:
                self._issue_shared(w, k, dst, dst_off, mbar, mbar_off)
                continue
            for box in w.plan.boxes:
                # TMA's dimension 0 is the contiguous one: K for a K-major tile, else MN
                c_k = self.add_imm(k, box.inner if k_major else box.outer)
                c_mn = self.add_imm(w.outer_coord, box.outer if k_major else box.inner)
                c0, c1 = (c_k, c_mn) if k_major else (c_mn, c_k)
                self.emit(ptx.CpAsyncBulkTensorOp, [dst, w.tmap, mbar, c0, c1], offset=dst_off + box.smem_offset, mbar_offset=mbar_off, **self.load_props)

    def _issue_shared(self, w: Window, k: SSAValue, dst: SSAValue, dst_off: int, mbar: SSAValue, mbar_off: int) -> None:
        """B's window, shared by the cluster's CTAs (same columns of D): this CTA loads
        boxes rank, rank + cluster, ... and multicasts each to every CTA of the cluster."""
        boxes = w.plan.boxes
        n = self.cluster
        k_major = w.ring.layout.major is Major.K
        first, step = boxes[0], boxes[1] if len(boxes) > 1 else None
        delta = None if step is None else (step.smem_offset - first.smem_offset, step.inner - first.inner, step.outer - first.outer)
        even = step is not None and len(boxes) % n == 0 and all(
            (b.smem_offset - first.smem_offset, b.inner - first.inner, b.outer - first.outer) == tuple(i * d for d in delta)  # type: ignore[union-attr]
            for i, b in enumerate(boxes)
        )
        if not even:
            error_at(w.op, f"a cluster of {n} shares B's boxes: the tile needs a multiple of {n} evenly spaced TMA boxes, not {len(boxes)}")
        assert delta is not None
        d_off, d_inner, d_outer = delta
        rank = self.cluster_rank
        off = self.val(ptx.MulLoOp, [rank], type="u32", imm=d_off)
        dst = self.val(ptx.AddOp, [dst, off], type="u32")
        c_k0 = self.val(ptx.MulLoOp, [rank], type="s32", imm=d_inner if k_major else d_outer)
        c_mn0 = self.val(ptx.MulLoOp, [rank], type="s32", imm=d_outer if k_major else d_inner)
        c_k0 = self.val(ptx.AddOp, [k, c_k0], type="s32")
        c_mn0 = self.val(ptx.AddOp, [w.outer_coord, c_mn0], type="s32")
        for box in boxes[::n]:
            c_k = self.add_imm(c_k0, box.inner if k_major else box.outer)
            c_mn = self.add_imm(c_mn0, box.outer if k_major else box.inner)
            c0, c1 = (c_k, c_mn) if k_major else (c_mn, c_k)
            self.emit(ptx.CpAsyncBulkTensorOp, [dst, w.tmap, mbar, c0, c1, self.cluster_mask], offset=dst_off + box.smem_offset, mbar_offset=mbar_off)

    def _mma_setup(self, mma: tc.WgmmaOp) -> None:
        """The wgmma's fixed parts: each K-slice's descriptor immediates (stage 0, warpgroup
        0) and this warpgroup's row offset, checked against every attached descriptor."""
        a_ring, b_ring = self.rings[mma.a], self.rings[mma.b]
        a_descs, b_descs = mma.attributes.get("tc.a_descs"), mma.attributes.get("tc.b_descs")
        if not isinstance(a_descs, ArrayAttr) or not isinstance(b_descs, ArrayAttr):
            error_at(mma, "run tc-compute-descriptors before tc-lower-to-ptx")
        slices = a_ring.layout.k // a_ring.layout.dtype.k_per_instruction
        row_block = int(a_ring.layout.linear_addresses(64, 0) - a_ring.layout.linear_addresses(0, 0)) if self.warpgroups > 1 else 0
        for what, descs, ring, blocks, block_bytes in (
            ("A", a_descs, a_ring, self.warpgroups, row_block),
            ("B", b_descs, b_ring, 1, 0),
        ):
            if len(descs.data) != ring.stages * blocks * slices:
                error_at(mma, f"tc.{what.lower()}_descs has {len(descs.data)} descriptors, not stages x warpgroups x K-slices = {ring.stages * blocks * slices}: run tc-compute-descriptors again")
            for idx, d in enumerate(descs.data):
                s, rest = divmod(idx, blocks * slices)
                w, kk = divmod(rest, slices)
                base = descs.data[kk].value.data  # type: ignore[attr-defined]
                want = base + ((s * ring.stride + w * block_bytes) >> 4)
                if d.value.data != want:  # type: ignore[attr-defined]
                    error_at(mma, f"tc.{what.lower()}_descs[{idx}] is not stage {s}, warpgroup {w}, K-slice {kk} of the ring: run tc-compute-descriptors again")
        self.a_imms = [self.imm(f"{d.value.data:#018x}", "b64") for d in a_descs.data[:slices]]  # type: ignore[attr-defined]
        self.b_imms = [self.imm(f"{d.value.data:#018x}", "b64") for d in b_descs.data[:slices]]  # type: ignore[attr-defined]
        self.a_stage16, self.b_stage16 = a_ring.stride >> 4, b_ring.stride >> 4
        wg_off = self.val(ptx.MulLoOp, [self.wg], type="u32", imm=row_block >> 4) if row_block else None
        if self.cluster > 1:
            # in a cluster launch a CTA's shared addresses carry its rank (bit 24: rank 1's
            # shared memory starts at 0x1000400, seen on the H100); a descriptor holds
            # (address & 0x3FFFF) >> 4, so the rest must not carry into LBO
            masked = self.val(ptx.AndOp, [self.smem], type="b32", imm=0x3FFFF)
            self.smem16 = self.val(ptx.ShrOp, [masked], type="u32", imm=4, comment="the descriptors' base: the shared address within the CTA's 256 KiB")
        self.a_fixed16 = self.val(ptx.AddOp, [self.smem16, wg_off], type="u32") if wg_off is not None else self.smem16
        a_t, b_t = mma.a.type, mma.b.type
        assert isinstance(a_t, tc.TileType) and isinstance(b_t, tc.TileType)
        integer = a_t.dtype in ("s8", "u8")
        transposable = a_t.dtype in ("f16", "bf16")
        self.mma_props = dict(
            shape=f"m64n{b_t.mn}k{a_ring.layout.dtype.k_per_instruction}",
            dtype=self.acc_type.dtype, atype=a_t.dtype, btype=b_t.dtype,
            scale_d=1, scale=0 if integer else 1,
            trans_a=(1 if a_t.major is Major.MN else 0) if transposable else -1,
            trans_b=(1 if b_t.major is Major.MN else 0) if transposable else -1,
        )
        self.slices = slices

    def stage_bases(self, s: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The 64-bit amounts that stage s (and this warpgroup's rows) add to the A and B
        descriptors: (shared-memory base + offsets) >> 4."""
        a_base = self.val(ptx.MulLoOp, [s], type="u32", imm=self.a_stage16)
        a_base = self.val(ptx.AddOp, [a_base, self.a_fixed16], type="u32")
        b_base = self.val(ptx.MulLoOp, [s], type="u32", imm=self.b_stage16)
        b_base = self.val(ptx.AddOp, [b_base, self.smem16], type="u32")
        a64 = self.val(ptx.CvtOp, [a_base], i64, type="u64.u32")
        b64 = self.val(ptx.CvtOp, [b_base], i64, type="u64.u32")
        return a64, b64

    def barrier(self, stage: SSAValue, offset: int) -> SSAValue:
        """The address of the mbarrier of `stage` in the array at `offset` (without it)."""
        s8 = self.val(ptx.ShlOp, [stage], type="b32", imm=3)
        return self.val(ptx.AddOp, [self.smem, s8], type="u32")

    def _consume(self, st: "Step") -> None:
        """Wait for stage s, run its MMAs, and release iteration i-1's stage."""
        self.wait(self.barrier(st.s, self.full_off), st.p, self.full_off)
        a64, b64 = self.stage_bases(st.s)
        self.emit(ptx.WgmmaFenceOp, comment=f"wgmma {self.mma_props['shape']}, {self.slices} K-slices")
        for kk in range(self.slices):
            da = self.val(ptx.AddOp, [self.a_imms[kk], a64], i64, type="s64")
            db = self.val(ptx.AddOp, [self.b_imms[kk], b64], i64, type="s64")
            self.emit(ptx.WgmmaMmaAsyncOp, [self.acc, da, db], **self.mma_props)
        self.emit(ptx.WgmmaCommitGroupOp)
        self.emit(ptx.WgmmaWaitGroupOp, pending=self.depth, comment=f"iteration i-{self.depth}'s MMAs are done: release its stage")
        self._release(st.prev_empty, st.first)

    def _release(self, empty: SSAValue, unless: SSAValue | None = None) -> None:
        """Arrive on a stage's "empty" barrier (at `empty` + empty_off), unless `unless`."""
        skip = self.if_(unless, "no_release", negate=False) if unless is not None else None
        self.emit(ptx.MbarrierArriveOp, [empty], offset=self.empty_off)
        if skip:
            self.emit(ptx.LabelOp, label=skip)

    def consumer_step(self, i: SSAValue, s: SSAValue, p: SSAValue) -> Step:
        """Iteration i's registers for the consumers: the stage they release after
        `wgmma.wait_group depth` is iteration i - depth's, and none while i < depth."""
        step = Step(i, s, p, *self.previous_stage(s, p))
        if self.depth == 1:
            step.first = self.val(ptx.SetpOp, [i], i1, cmp="eq", type="u32", imm=0)
        else:
            step.first = self.val(ptx.SetpOp, [i], i1, cmp="lt", type="u32", imm=self.depth)
            step.prev = self.stage_back(s, self.depth)
        step.prev_empty = self.barrier(step.prev, self.empty_off)
        return step

    def stage_back(self, s: SSAValue, k: int) -> SSAValue:
        """(s - k) mod stages, for 1 <= k < stages."""
        back = self.val(ptx.AddOp, [s], type="u32", imm=self.stages - k)
        wraps = self.val(ptx.SetpOp, [back], i1, cmp="ge", type="u32", imm=self.stages)
        return self.val(ptx.SelpOp, [self.val(ptx.AddOp, [back], type="u32", imm=-self.stages & 0xFFFFFFFF), back, wraps], type="b32")

    def previous_stage(self, s: SSAValue, p: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
        """Iteration i-1's stage, the parity of its round, and p flipped."""
        at_start = self.val(ptx.SetpOp, [s], i1, cmp="eq", type="u32", imm=0)
        s_minus = self.val(ptx.AddOp, [s], type="u32", imm=-1 & 0xFFFFFFFF)
        prev = self.val(ptx.SelpOp, [self.imm(self.stages - 1), s_minus, at_start], type="b32")
        p_flip = self.val(ptx.XorOp, [p], type="b32", imm=1)
        return prev, self.val(ptx.SelpOp, [p_flip, p, at_start], type="b32"), p_flip

    def _refill_and_advance(self, st: "Step") -> None:
        """Thread 0 refills iteration i-1's stage with iteration i + S - 1 once it is
        released; then the next stage and phase are yielded."""
        S = self.stages
        i, s, p = st.i, st.s, st.p
        j = self.val(ptx.AddOp, [i], type="u32", imm=S - 1)
        if isinstance(self.trips, int):
            beyond = self.val(ptx.SetpOp, [j], i1, cmp="ge", type="u32", imm=self.trips)
        else:
            beyond = self.val(ptx.SetpOp, [j, self.trips], i1, cmp="ge", type="u32")
        no_load = self.label("no_load")
        self.emit(ptx.BraOp, [beyond], label=no_load)
        self.emit(ptx.BraOp, [self.is_thread0], label=no_load, negate=1)
        fresh = self.label("fresh_stage")
        self.emit(ptx.BraOp, [st.first], label=fresh)
        self.wait(st.prev_empty, st.prev_p, self.empty_off)
        self.emit(ptx.LabelOp, label=fresh)
        self._issue(j, st.prev)
        self.emit(ptx.LabelOp, label=no_load)
        self.advance(s, p, st.p_flip)

    # -- after the loop ---------------------------------------------------------------

    def _post_op(self, op: Operation) -> None:
        if isinstance(op, WindowStoreOp):
            if op.acc is not self.loop_result:
                error_at(op, "tc.window_store stores the K loop's result")
            if not self.stored:  # a persistent kernel stores each tile in its loop
                self._store(op)
            return
        if op.has_trait(IsTerminator, value_if_unregistered=False):
            return
        error_at(op, f"'{op.name}' cannot follow the K loop: a GEMM kernel ends with tc.window_store")

    def _kernel(self, block: Block) -> ptx.KernelOp:
        k = self.kernel
        threads = self.threads
        params = [f".param .u64 {param_name(a)}" for a in block.args]
        params += [f".param .u32 {p.param}" for p in self.size_params]
        params += [f".param .align 64 .b8 {w.param}[128]" for w in self.windows]
        if self.staging is not None:
            params.append(f".param .align 64 .b8 {self.d_tmap_param}[128]")
        smem_bytes = -(-self.scratch // 16) * 16
        if smem_bytes > SMEM_CAPACITY:
            error_at(k, f"the kernel needs {smem_bytes} bytes of shared memory, beyond 227 KiB")
        grid = self._grid()
        if self.persistent_tiles:  # one CTA per SM, at most one per tile: the launcher decides
            grid = (PersistentGrid(self.persistent_tiles), 1, 1)
        info = KernelInfo(
            name=tc.kernel_name(k),
            target=self.kernel.attributes[tc.TARGET_ATTR].data,  # type: ignore[attr-defined]
            threads=threads,
            grid=grid,
            smem_bytes=smem_bytes,
            args=tuple(arg_info(k, a, self.geometry[a]) for a in block.args),
            size_params=tuple(self.size_params),
            tensor_maps=tuple(self.tensor_maps),
            gemm=self.gemm_info,
            cluster=(self.cluster, 1, 1) if self.cluster > 1 else None,
        )
        kernel = self.kernel_op(k, params, threads, smem_bytes, info)
        if self.max_registers:
            kernel.properties["maxnreg"] = IntAttr(self.max_registers)
        if self.cluster > 1:
            kernel.properties["cluster"] = IntAttr(self.cluster)
        return kernel

    def _grid(self) -> tuple[GridEntry, GridEntry, GridEntry]:
        attr = self.kernel.attributes.get(GRID_ATTR)
        if attr is None:
            if self.uses_block_id:
                error_at(self.kernel, "a kernel that reads gpu.block_id names its grid: tc.grid = [x, y, z]")
            return (1, 1, 1)
        usage = "tc.grid is three entries, each a positive count or [arg, dim, tile] (ceil of that size / tile)"
        if not isinstance(attr, ArrayAttr) or len(attr.data) != 3:
            error_at(self.kernel, usage)
        args = list(tc.kernel_body(self.kernel).args)
        grid: list[GridEntry] = []
        for entry in attr.data:
            if isinstance(entry, IntegerAttr) and entry.value.data >= 1:
                grid.append(entry.value.data)
                continue
            parts = entry.data if isinstance(entry, ArrayAttr) else ()
            if len(parts) != 3 or not all(isinstance(p, IntegerAttr) for p in parts):
                error_at(self.kernel, usage)
            arg, dim, tile = (p.value.data for p in parts)  # type: ignore[union-attr]
            if not (0 <= arg < len(args) and dim in (0, 1) and tile >= 1):
                error_at(self.kernel, usage)
            size = self.size(args[arg], ("rows", "cols")[dim])
            grid.append(-(-size // tile) if isinstance(size, int) else GridFromArg(arg, dim, tile))
        return (grid[0], grid[1], grid[2])


def wgmma_regs_type(t: tc.AccType) -> ptx.RegsType:
    """One warpgroup's m64nN fragment: N/2 f32 or s32 registers per thread, N/4 for f16."""
    if t.dtype == "f16":
        return ptx.RegsType(t.n // 4, i32)
    return ptx.RegsType(t.n // 2, f32 if t.dtype == "f32" else i32)


def arg_info(kernel: Operation, arg: SSAValue, g: Matrix) -> ArgInfo:
    """An argument's entry in the metadata; sizes known only at launch are null."""
    t = arg.type
    assert isinstance(t, MemRefType)
    written = any(isinstance(use.operation, WindowStoreOp) and use.operation.dst is arg for use in arg.uses)
    strides = (g.ld, 1) if g.row_major else (1, g.ld)
    return ArgInfo(param_name(arg), (g.rows, g.cols), strides, tc.dtype_name(t.element_type), written)


#: The .u32 parameters of an argument whose sizes are known at launch.
SIZE_PARAMS = ("rows", "cols", "ld")
