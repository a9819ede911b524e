"""The K loop's loads: each window (A's, B's) is a TMA tensor map, and loading K step j
into stage s is one `expect_tx` of the stage's bytes on "full[s]" and the windows' boxes,
by one thread. The cluster forms are flags: with `Multicast` this CTA loads its share of
B's boxes for every CTA of the cluster; with `CtaPair` the loads are `cta_group::2`, the
leader alone expects both CTAs' bytes and both CTAs' boxes complete the leader's barrier.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.dialects.builtin import MemRefType, i64
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import Matrix, WindowLoadOp
from lower_tc.layout import Major
from lower_tc.layout.kernel_info import TensorMap
from lower_tc.layout.tma import TmaPlan, tma_plan
from lower_tc.passes.to_ptx.copies import tensor_map
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.cluster import CtaPair, Multicast
from lower_tc.passes.to_ptx.gemm.index import IndexEnv
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, TileRing
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs
from lower_tc.passes.to_ptx.gemm.ring import Ring, stage_barrier

#: TMA's L2 promotion codes by sector bytes (CUtensorMapL2promotion), for the
#: schedule's l2_promotion.
L2_PROMOTION_CODES = {0: 0, 64: 1, 128: 2, 256: 3}


@dataclass
class Window:
    """One tc.window_load of the K loop: its ring, TMA plan and tensor-map parameter, and
    the registers of its coordinates that do not move with K (per tile when persistent):
    the row or column, and the matrix of a batch (None for a matrix, and for a batch of 1,
    which is read as one matrix), and of a 4-d memref's outer batch likewise."""

    op: WindowLoadOp
    ring: TileRing
    plan: TmaPlan
    param: str
    outer_coord: SSAValue
    batch_coord: SSAValue | None = None
    tmap: SSAValue | None = None
    outer_batch_coord: SSAValue | None = None

    @property
    def is_b(self) -> bool:
        return self.op.operand.data is tc.Operand.B

    def follow(self, index: IndexEnv) -> None:
        """The fixed coordinates' registers, from the index arithmetic (of a new tile)."""
        w = self.op
        self.outer_coord = index.reg(w.row if w.operand.data is tc.Operand.A else w.col, w)
        if self.batch_coord is not None:
            assert w.batch is not None
            self.batch_coord = index.reg(w.batch, w)
        if self.outer_batch_coord is not None:
            assert w.outer is not None
            self.outer_batch_coord = index.reg(w.outer, w)

    def coords(self, c0: SSAValue, c1: SSAValue) -> list[SSAValue]:
        """A box's TMA coordinates: the two of the matrix, then the batch's, then the
        outer batch's."""
        return [c0, c1] + [c for c in (self.batch_coord, self.outer_batch_coord) if c is not None]

    @property
    def dims(self) -> dict[str, int]:
        """The load's `dims` modifier where it is not the default 2-d."""
        n = 2 + (self.batch_coord is not None) + (self.outer_batch_coord is not None)
        return {} if n == 2 else {"dims": n}


def window_batch(w: WindowLoadOp, g: Matrix, index: IndexEnv) -> SSAValue | None:
    """The register of the window's matrix in a batch, or None: a matrix, or a batch of 1
    (whose only matrix the window must name: index 0)."""
    return _batch_index(w, w.batch, g.batch, index, "the window's source is a batch of 1 matrix: its batch index is 0")


def window_outer_batch(w: WindowLoadOp, g: Matrix, index: IndexEnv) -> SSAValue | None:
    """The register of the window's batch in a 4-d memref's outer batch, or None (likewise)."""
    return _batch_index(w, w.outer, g.outer, index, "the window's source has an outer batch of 1: its outer batch index is 0")


def _batch_index(w: WindowLoadOp, value: SSAValue | None, size: int | None, index: IndexEnv, one: str) -> SSAValue | None:
    if value is None:
        return None
    if size == 1:
        if index.consts.get(value) != 0:
            error_at(w, one)
        return None
    return index.reg(value, w)


def read_window(w: WindowLoadOp, ring: TileRing, param: str, args: KernelArgs, index: IndexEnv,
                l2_promotion: int | None, fixed: SSAValue, parts: int = 1) -> tuple[Window, TensorMap]:
    """One window and its tensor map (parameter `param`); `fixed` is its coordinate that
    does not move with the loop (a GEMM's: A's row, B's column); `parts`: the CTAs that
    share its boxes (their number divides the boxes: layout/tma.py)."""
    plan = tma_plan(ring.layout, parts)
    assert isinstance(w.src.type, MemRefType)
    g = args.geometry[w.src]
    batch = window_batch(w, g, index)
    outer = window_outer_batch(w, g, index)
    if g.static:
        bits = ring.layout.dtype.bits
        global_dims = [g.cols, g.rows] if g.row_major else [g.rows, g.cols]
        global_strides: list[int] | None = [g.ld * bits // 8]  # type: ignore[operator]
        if batch is not None:  # the batch is TMA's next dimension
            global_dims.append(g.batch)  # type: ignore[arg-type]
            global_strides.append(g.batch_stride * bits // 8)  # type: ignore[operator, union-attr]
        if outer is not None:  # and a 4-d memref's outer batch the outermost
            global_dims.append(g.outer)  # type: ignore[arg-type]
            global_strides.append(g.outer_stride * bits // 8)  # type: ignore[operator, union-attr]
    else:  # the launcher fills them in from the argument's sizes
        global_dims, global_strides = None, None  # type: ignore[assignment]
    entry = tensor_map(param, args.index(w.src), ring.layout, plan, global_dims, global_strides)
    extra = (batch is not None) + (outer is not None)
    if extra:  # one matrix of the batch per box
        entry = replace(entry, box=(*entry.box, *(1,) * extra))
    if l2_promotion is not None:  # TMA fetches whole 64/128/256-byte L2 sectors ahead
        entry = replace(entry, l2_promotion=L2_PROMOTION_CODES[l2_promotion])
    return Window(w, ring, plan, param, index.reg(fixed, w), batch, outer_batch_coord=outer), entry


def read_windows(loop: KLoop, args: KernelArgs, index: IndexEnv, tensor_maps: list[TensorMap], l2_promotion: int | None,
                 b_parts: int = 1) -> list[Window]:
    """A's and B's windows, in that order, each with its tensor map in `tensor_maps`;
    `b_parts`: the CTAs of a cluster that share B's boxes (multicast)."""
    windows = []
    for i, (w, ring) in enumerate(zip(loop.loads, loop.rings)):
        is_a = w.operand.data is tc.Operand.A
        fixed = w.row if is_a else w.col
        window, entry = read_window(w, ring, f"tmap_{i}", args, index, l2_promotion, fixed, 1 if is_a else b_parts)
        tensor_maps.append(entry)
        windows.append(window)
    return windows


def load_boxes(b: PtxBuilder, w: Window, k: SSAValue, mn: SSAValue, dst: SSAValue, dst_off: int, mbar: SSAValue,
               mbar_off: int, props: dict[str, object] | None = None) -> None:
    """The TMA loads of window `w`'s boxes whose matrix coordinates start at K = `k` and
    M or N = `mn`, into the tile at dst + dst_off, completing the mbarrier at mbar + mbar_off."""
    k_major = w.ring.layout.major is Major.K
    for box in w.plan.boxes:
        # TMA's dimension 0 is the contiguous one: K for a K-major tile, else MN
        c_k = b.add_imm(k, box.inner if k_major else box.outer)
        c_mn = b.add_imm(mn, box.outer if k_major else box.inner)
        c0, c1 = (c_k, c_mn) if k_major else (c_mn, c_k)
        b.emit(ptx.CpAsyncBulkTensorOp, [dst, w.tmap, mbar, *w.coords(c0, c1)], offset=dst_off + box.smem_offset,
               mbar_offset=mbar_off, **(props or {}), **w.dims)


def stage_tile(b: PtxBuilder, smem: SSAValue, stage: SSAValue | int, ring: TileRing) -> tuple[SSAValue, int]:
    """Where `ring`'s tile of `stage` lies in shared memory: a register and an immediate."""
    if isinstance(stage, int):
        return smem, ring.layout.address + stage * ring.stride
    so = b.val(ptx.MulLoOp, [stage], type="u32", imm=ring.stride)
    return b.val(ptx.AddOp, [smem, so], type="u32"), ring.layout.address


@dataclass
class TmaLoads:
    """Issues one K step's loads into a stage (the thread that calls it is the producer)."""

    b: PtxBuilder
    smem: SSAValue
    windows: list[Window]
    lb: int | SSAValue  # the K loop's lower bound: a register for a split-K rank's range
    step: int
    full_off: int
    multicast: Multicast | None = None
    pair: CtaPair | None = None

    @property
    def tx_bytes(self) -> int:
        """One stage's bytes, as one CTA's boxes deliver them."""
        return sum(w.plan.bytes for w in self.windows)

    def bind_tensor_maps(self) -> None:
        """The tensor maps' generic addresses (they are kernel parameters)."""
        for w in self.windows:
            w.tmap = self.b.val(ptx.ParamAddrOp, result=i64, param=w.param, comment=f"{w.op.operand.data} window by TMA: {len(w.plan.boxes)} box(es) of {w.plan.box[0]}x{w.plan.box[1]}, {w.ring.stages} stages")

    def follow_tile(self, index: IndexEnv) -> None:
        """The windows' fixed coordinates again, after the index arithmetic of a new tile."""
        for w in self.windows:
            w.follow(index)

    def issue(self, j: SSAValue | int, stage: SSAValue | int) -> None:
        """Expect the stage's bytes on full[stage] and load K step j's windows into it."""
        b = self.b
        mbar, mbar_off = stage_barrier(b, self.smem, stage, self.full_off)
        self._expect(mbar, mbar_off)
        if self.pair is not None:  # both CTAs' boxes complete the leader's "full[s]"
            mbar, mbar_off = self.pair.on_leader(b, mbar_off, mbar), 0
        if isinstance(self.lb, SSAValue):
            if isinstance(j, int):
                k = b.add_imm(self.lb, j * self.step)
            else:
                k = b.val(ptx.AddOp, [b.val(ptx.MulLoOp, [j], type="s32", imm=self.step), self.lb], type="s32")
        elif isinstance(j, int):
            k = b.imm(self.lb + j * self.step, "s32")
        else:
            k = b.add_imm(b.val(ptx.MulLoOp, [j], type="s32", imm=self.step), self.lb)
        props = CtaPair.props if self.pair is not None else {}
        for w in self.windows:
            dst, dst_off = stage_tile(b, self.smem, stage, w.ring)
            if self.multicast is not None and w.is_b:
                self._issue_shared(w, k, dst, dst_off, mbar, mbar_off)
                continue
            load_boxes(b, w, k, w.outer_coord, dst, dst_off, mbar, mbar_off, props)

    def _expect(self, mbar: SSAValue, mbar_off: int) -> None:
        b = self.b
        if self.pair is None:
            b.emit(ptx.MbarrierArriveExpectTxOp, [mbar], offset=mbar_off, bytes=self.tx_bytes)
            return
        skip = b.if_(self.pair.is_leader, "no_expect")  # only the leader's "full[s]" counts
        b.emit(ptx.MbarrierArriveExpectTxOp, [mbar], offset=mbar_off, bytes=2 * self.tx_bytes,
               comment="the leader's full[s] waits for both CTAs' boxes")
        b.emit(ptx.LabelOp, label=skip)

    def _issue_shared(self, w: Window, k: SSAValue, dst: SSAValue, dst_off: int, mbar: SSAValue, mbar_off: int) -> None:
        """B's window, shared by the cluster's CTAs (same columns of D): this CTA loads
        boxes rank, rank + cluster, ... and multicasts each to every CTA of the cluster."""
        assert self.multicast is not None
        b = self.b
        boxes = w.plan.boxes
        n = self.multicast.size
        k_major = w.ring.layout.major is Major.K
        first, step = boxes[0], boxes[1] if len(boxes) > 1 else None
        delta = None if step is None else (step.smem_offset - first.smem_offset, step.inner - first.inner, step.outer - first.outer)
        even = step is not None and len(boxes) % n == 0 and all(
            (bx.smem_offset - first.smem_offset, bx.inner - first.inner, bx.outer - first.outer) == tuple(i * d for d in delta)  # type: ignore[union-attr]
            for i, bx in enumerate(boxes)
        )
        if not even:
            error_at(w.op, f"a cluster of {n} shares B's boxes: the tile needs a multiple of {n} evenly spaced TMA boxes, not {len(boxes)}")
        assert delta is not None
        d_off, d_inner, d_outer = delta
        rank = self.multicast.rank
        off = b.val(ptx.MulLoOp, [rank], type="u32", imm=d_off)
        dst = b.val(ptx.AddOp, [dst, off], type="u32")
        c_k0 = b.val(ptx.MulLoOp, [rank], type="s32", imm=d_inner if k_major else d_outer)
        c_mn0 = b.val(ptx.MulLoOp, [rank], type="s32", imm=d_outer if k_major else d_inner)
        c_k0 = b.val(ptx.AddOp, [k, c_k0], type="s32")
        c_mn0 = b.val(ptx.AddOp, [w.outer_coord, c_mn0], type="s32")
        for box in boxes[::n]:
            c_k = b.add_imm(c_k0, box.inner if k_major else box.outer)
            c_mn = b.add_imm(c_mn0, box.outer if k_major else box.inner)
            c0, c1 = (c_k, c_mn) if k_major else (c_mn, c_k)
            b.emit(ptx.CpAsyncBulkTensorOp, [dst, w.tmap, mbar, *w.coords(c0, c1), self.multicast.mask], offset=dst_off + box.smem_offset, mbar_offset=mbar_off, **w.dims)


def producer_loop(ring: Ring, loads: TmaLoads, trips: int | SSAValue, carried: tuple[SSAValue, SSAValue] | None = None):
    """The producer's K loop: for load j into stage s (round r), wait until "empty[s]"
    has completed round r - 1 (parity (r & 1) ^ 1), then load. Returns the scf.for (its
    results: the ring's stage and phase after the last load)."""
    b = ring.b

    def produce(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
        flipped = b.val(ptx.XorOp, [p], type="b32", imm=1)
        ring.wait_empty(s, flipped)
        loads.issue(j, s)
        ring.advance(s, p, flipped)

    return b.counted_loop(trips, produce, carried=carried)
