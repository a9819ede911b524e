"""Split-K's store (`tc.window_store ... reduce cluster` with `split_k = S` in the kernel's
#tc.gemm_schedule, sm_90a): the S CTAs of a cluster hold partial tiles of the same BM x BN
window of D, each over its own slice of K (k_slices.py checks the slices), and sum them
through distributed shared memory, the same way every run:

    the consumers meet (every wgmma has read its stage, every TMA load has landed: the
        ring is free) and each writes its fragment, as f32 (s32), into the partial tile
        where the ring was (layout/split_k.py: row-major, padded rows)
    barrier.cluster (release / acquire): every partial of the cluster is written
    CTA r reduces passes r, r + S, r + 2S, ... of the tile (a pass: R whole rows, one
        16-byte chunk per thread): ld.shared::cluster.v4 from ranks 0, 1, ..., S-1 (mapa),
        summed in that order, C added once, converted, stored inside D (coalesced rows)
    barrier.cluster before the exit (the kernel's): no CTA leaves while a peer may still
        read its shared memory

The producer warpgroup of the warp-specialised schedule meets the first cluster barrier
too (`meet`): a cluster barrier counts every thread of the cluster.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, i1, i16, i32
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.dialects.tc_schedule import GemmSchedule
from lower_tc.layout.limits import SMEM_CAPACITY
from lower_tc.layout.split_k import CHUNK, partial_pitch
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.global_store import MAX_OFFSET, Bounds, matrix_base, output_types, row_base, steps
from lower_tc.passes.to_ptx.gemm.k_slices import check_k_slices
from lower_tc.passes.to_ptx.gemm.kloop import KLoop, find_store

f32 = Float32Type()


def check_reduces(kernel: Operation, options: GemmSchedule) -> None:
    """A located error where the kernel's store and its schedule disagree on split-K."""
    store = find_store(kernel)
    if store is None:
        return
    split_k = options.split_k
    if split_k == 1 and store.reduces:
        assert store.reduce is not None
        how = "a split-K cluster" if store.reduce.data == "cluster" else "split-K's CTAs through the global workspace"
        error_at(store, f"`reduce {store.reduce.data}` sums the partial tiles of {how}: the kernel's "
                        f"#tc.gemm_schedule needs split_k = S" + (" (2 to 8)" if store.reduce.data == "cluster" else ", reduce = global"))
    if split_k > 1 and not store.reduces:
        who = "each CTA of a cluster" if options.reduce == "cluster" else f"each of a tile's {split_k} CTAs"
        error_at(store, f"split_k = {split_k}: {who} holds a partial tile of D, which the store sums: "
                        f"tc.window_store ... reduce {options.reduce}")
    if split_k > 1 and store.reduce is not None and store.reduce.data != options.reduce:
        error_at(store, f"`reduce {store.reduce.data}` but the kernel's #tc.gemm_schedule has reduce = {options.reduce}: "
                        "the store sums the partial tiles the way the schedule splits K")


@dataclass(frozen=True)
class SplitK:
    """A split-K kernel's cluster and partial tile."""

    size: int  # S: CTAs of the cluster
    offset: int  # the partial tile's place in shared memory: where the ring starts
    pitch: int  # its row pitch in bytes
    acc_t: tc.AccType

    @classmethod
    def prepare(cls, k: GemmKernel, loop: KLoop) -> "SplitK | None":
        """The kernel's split-K, checked (located errors), with shared memory for its
        partial tile taken before the ring's barriers; None without split_k."""
        store, size = find_store(k.kernel), k.options.cluster_split
        if store is None or size == 1:
            return None
        acc_t = loop.acc_type
        offset = min(r.layout.address for r in loop.rings)
        pitch = partial_pitch(acc_t.n)
        ring_end = k.memory.end
        k.memory.end = max(ring_end, offset + acc_t.m * pitch)
        need = -(-k.memory.end // 8) * 8 + 16 * loop.stages  # the ring's barriers follow
        if need > SMEM_CAPACITY:
            kind = "s32" if acc_t.dtype == "s32" else "f32"
            error_at(store, f"split_k = {size}: the {acc_t.m}x{acc_t.n} {kind} partial tile needs {acc_t.m * pitch} bytes "
                            f"({acc_t.m} rows of {pitch}); over the ring's {ring_end} and with its barriers the kernel "
                            f"needs {need}, more than the {SMEM_CAPACITY} (227 KiB) a block may use")
        check_k_slices(loop.op, loop.step, size, k.index, k.args, k.grid)
        return cls(size, offset, pitch, acc_t)

    @staticmethod
    def meet(b: PtxBuilder) -> None:
        """The first cluster barrier: every partial tile of the cluster is written."""
        b.emit(ptx.ClusterBarrierOp, comment="split-K: every partial tile of the cluster is written")

    def store(self, k: GemmKernel, op: WindowStoreOp, acc: SSAValue, wg: SSAValue, first_thread: int, threads: int,
              meet_consumers: bool) -> None:
        """The consumers' part (module docstring): warpgroup `wg` of them writes its
        fragment; thread tid - `first_thread` of the `threads` reduces its chunks.
        `meet_consumers`: a named barrier of the consumers (else bar.sync 0, every thread)."""
        b = k.b
        if meet_consumers:
            b.emit(ptx.BarSyncOp, [b.imm(1)], count=threads, comment="split-K: every wgmma has read its stage, every load landed")
        else:
            b.emit(ptx.BarSyncOp, comment="split-K: every wgmma has read its stage, every load landed")
        b.emit(ptx.FenceProxyAsyncOp)
        self._write_partial(b, k.regs.smem, k.regs.tid, acc, wg)
        self.meet(b)
        thread = b.add_imm(k.regs.tid, -first_thread) if first_thread else k.regs.tid
        self._reduce(k, op, thread, threads)

    def _write_partial(self, b: PtxBuilder, smem: SSAValue, tid: SSAValue, acc: SSAValue, wg: SSAValue) -> None:
        """Warpgroup wg's m64nN fragment (rows 16 warp + g and + 8, columns 8i + 2q, + 1;
        epilogue_registers.py) into the partial tile, one st.shared.v2 per pair."""
        acc_t, pitch = self.acc_t, self.pitch
        in_wg = b.val(ptx.AndOp, [tid], type="b32", imm=127, comment=f"split-K: the {acc_t.m}x{acc_t.n} partial tile, rows of {pitch} bytes")
        warp = b.val(ptx.ShrOp, [in_wg], type="u32", imm=5)
        lane = b.val(ptx.AndOp, [tid], type="b32", imm=31)
        grp = b.val(ptx.ShrOp, [lane], type="u32", imm=2)
        quad = b.val(ptx.AndOp, [tid], type="b32", imm=3)
        row = b.val(ptx.AddOp, [b.val(ptx.ShlOp, [wg], type="b32", imm=6), b.val(ptx.ShlOp, [warp], type="b32", imm=4)], type="u32")
        row = b.val(ptx.AddOp, [row, grp], type="u32")
        addr = b.val(ptx.MulLoOp, [row], type="u32", imm=pitch)
        addr = b.val(ptx.AddOp, [addr, b.val(ptx.ShlOp, [quad], type="b32", imm=3)], type="u32")
        addr = b.val(ptx.AddOp, [smem, addr], type="u32")
        kind = "s32" if acc_t.dtype == "s32" else "f32"
        for i in range(acc_t.n // 8):
            for h in range(2):
                off = self.offset + h * 8 * pitch + 32 * i
                if acc_t.dtype == "f16":  # two halves of one register, widened
                    packed = b.val(ptx.RegOfOp, [acc], i32, regs=2 * i + h)
                    lo, hi = b.emit(ptx.UnpackOp, [packed], [i16, i16]).res
                    pair = [b.val(ptx.CvtOp, [x], f32, type="f32.f16") for x in (lo, hi)]
                    b.emit(ptx.StOp, [addr, *pair], space="shared", type="f32", vec=2, offset=off)
                else:
                    b.emit(ptx.StOp, [addr, acc], space="shared", type=kind, vec=2, regs=4 * i + 2 * h, offset=off)

    def _reduce(self, k: GemmKernel, op: WindowStoreOp, thread: SSAValue, threads: int) -> None:
        """This CTA's passes of the tile: each thread one 16-byte chunk of a row per pass."""
        b, size, pitch, acc_t = k.b, self.size, self.pitch, self.acc_t
        per_row = acc_t.n // CHUNK  # threads per row
        rows = threads // per_row  # rows per pass
        passes = -(-acc_t.m // rows)
        done = b.label("reduced")
        if rows * per_row < threads:  # a row's threads do not divide the CTA's: the rest wait
            b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [thread], i1, cmp="ge", type="u32", imm=rows * per_row)], label=done)
        rank = b.val(ptx.SregOp, sreg="cluster_ctarank", comment=f"split-K: this CTA reduces passes rank, rank + {size}, ... of {passes} ({rows} rows each)")
        if per_row & (per_row - 1) == 0:
            row_t = b.val(ptx.ShrOp, [thread], type="u32", imm=per_row.bit_length() - 1)
            col_t = b.val(ptx.AndOp, [thread], type="b32", imm=per_row - 1)
        else:
            row_t = b.val(ptx.DivOp, [thread], type="u32", imm=per_row)
            col_t = b.val(ptx.RemOp, [thread], type="u32", imm=per_row)
        col_t = b.val(ptx.ShlOp, [col_t], type="b32", imm=2)  # elements
        row = b.val(ptx.AddOp, [b.val(ptx.MulLoOp, [rank], type="u32", imm=rows), row_t], type="u32")
        local = b.val(ptx.MulLoOp, [row], type="u32", imm=pitch)
        local = b.val(ptx.AddOp, [local, b.val(ptx.ShlOp, [col_t], type="b32", imm=2)], type="u32")
        local = b.val(ptx.AddOp, [k.regs.smem, b.add_imm(local, self.offset, "u32")], type="u32")
        remote = [b.val(ptx.MapaOp, [local, b.imm(s)], type="u32") for s in range(size)]
        out = _Output.setup(k, op, row, col_t)
        kind = "s32" if acc_t.dtype == "s32" else "f32"

        def load(j: int) -> list[tuple[SSAValue, ...]]:
            """Pass j's chunk of every rank's partial, rank 0 first."""
            return [tuple(b.emit(ptx.LdOp, [r], [f32 if kind == "f32" else i32] * CHUNK, space="shared::cluster", type=kind,
                                 vec=CHUNK, offset=size * rows * j * pitch, comment=f"rank {s}'s partial" if j == 0 else None).res)
                    for s, r in enumerate(remote)]

        def add_and_store(j: int, parts: list[tuple[SSAValue, ...]]) -> None:
            total = list(parts[0])
            for part in parts[1:]:  # rank order: the same sum every run
                total = [b.val(ptx.AddOp, [t, p], t.type, type=kind) for t, p in zip(total, part)]
            out.store(size * rows * j, total)

        # passes whose rows are inside the tile for every rank load together (up to 64
        # registers of partials in flight); one that may end past the tile is guarded
        slots = list(range(-(-passes // size)))
        inside = [j for j in slots if size * rows * (j + 1) <= acc_t.m]
        batch = max(1, 64 // (CHUNK * size))
        for first in range(0, len(inside), batch):
            group = inside[first : first + batch]
            loaded = [load(j) for j in group]
            for j, parts in zip(group, loaded):
                add_and_store(j, parts)
        for j in slots[len(inside):]:
            ok = b.val(ptx.SetpOp, [row], i1, cmp="lt", type="u32", imm=acc_t.m - size * rows * j)
            skip = b.if_(ok, "no_pass")
            add_and_store(j, load(j))
            b.emit(ptx.LabelOp, label=skip)
        b.emit(ptx.LabelOp, label=done)


@dataclass
class _Output:
    """Where a thread's chunks go: D (and C) at rows m0 + row + step, columns n0 + col .. + 3,
    by one vector access where D's columns and pitch keep a chunk aligned and inside, else
    element by element; guarded at D's edge unless every window lies inside."""

    k: GemmKernel
    op: WindowStoreOp
    row: SSAValue  # m0 + the thread's first row
    col: SSAValue  # n0 + the thread's column
    d: tuple[SSAValue, int]  # D's address at (row, col), element bytes
    c: tuple[SSAValue, int] | None
    bounds: Bounds
    vector: bool
    col_ok: SSAValue | None  # col < N (a vector chunk is inside or outside as a whole)

    @classmethod
    def setup(cls, k: GemmKernel, op: WindowStoreOp, row_t: SSAValue, col_t: SSAValue) -> "_Output":
        b, args = k.b, k.args
        row = b.val(ptx.AddOp, [k.index.reg(op.row, op), row_t], type="s32")
        col = b.val(ptx.AddOp, [k.index.reg(op.col, op), col_t], type="s32")
        bounds = Bounds.of(b, args, op, k.store_inside)
        mems = [op.dst] + ([op.c] if op.c is not None else [])
        n = args.size(op.dst, "cols")
        vector = isinstance(n, int) and n % CHUNK == 0 and all(args.geometry[x].row_major for x in mems) and all(
            isinstance(args.size(x, "ld"), int) and args.size(x, "ld") % CHUNK == 0  # type: ignore[operator]
            and (op.batch is None or (isinstance(args.size(x, "batch_stride"), int) and args.size(x, "batch_stride") % CHUNK == 0))  # type: ignore[operator]
            for x in mems)
        d = row_base(b, args, op.dst, row, col, matrix_base(b, args, k.index, op.dst, op))
        c = row_base(b, args, op.c, row, col, matrix_base(b, args, k.index, op.c, op)) if op.c is not None else None
        col_ok = None
        if bounds.guarded and vector:
            col_ok = b.val(ptx.SetpOp, [col], i1, cmp="lt", type="s32", imm=n)  # type: ignore[arg-type]
        return cls(k, op, row, col, d, c, bounds, vector, col_ok)

    def _address(self, at: tuple[SSAValue, int], mem: SSAValue, step: int) -> tuple[SSAValue, int]:
        """The 64-bit address of row + step (the pass's) and the immediate offset to add."""
        base, eb = at
        row_step = steps(self.k.args, mem)[0]
        if row_step is not None and step * row_step <= MAX_OFFSET:
            return base, step * row_step
        b = self.k.b
        row = b.add_imm(self.row, step)
        return row_base(b, self.k.args, mem, row, self.col, matrix_base(b, self.k.args, self.k.index, mem, self.op))[0], 0

    def store(self, step: int, total: list[SSAValue]) -> None:
        """One chunk of the reduced tile (f32 or s32) into D, C added."""
        b = self.k.b
        row_ok = self.bounds.row_ok(b.add_imm(self.row, step)) if self.bounds.guarded else None
        d, d_off = self._address(self.d, self.op.dst, step)
        c, c_off = self._address(self.c, self.op.c, step) if self.c is not None and self.op.c is not None else (None, 0)
        d_dtype, c_dtype = output_types(self.op)
        integer = total[0].type == i32
        if self.vector:
            skip = None
            if row_ok is not None:
                assert self.col_ok is not None
                skip = b.if_(b.val(ptx.AndOp, [row_ok, self.col_ok], i1, type="pred"), "outside_d")
            if c is not None:
                total = [b.val(ptx.AddOp, [t, x], t.type, type="s32" if integer else "f32") for t, x in zip(total, _load_c(b, c, c_off, c_dtype))]
            _store_d(b, d, d_off, d_dtype, total)
            if skip:
                b.emit(ptx.LabelOp, label=skip)
            return
        d_step = steps(self.k.args, self.op.dst)[1]  # a column-major D's columns are its ld apart
        c_step = steps(self.k.args, self.op.c)[1] if self.op.c is not None else 0
        for e, v in enumerate(total):
            skip = self.bounds.guard(row_ok, self.col, e) if row_ok is not None else None
            if c is not None:
                assert c_dtype is not None
                v = b.val(ptx.AddOp, [v, _load_c_scalar(b, c, c_off + e * c_step, c_dtype)], v.type, type="s32" if integer else "f32")
            _store_d_scalar(b, d, d_off + e * d_step, d_dtype, v)
            if skip:
                b.emit(ptx.LabelOp, label=skip)


def _load_c(b: PtxBuilder, c: SSAValue, off: int, dtype: str | None) -> list[SSAValue]:
    """Four elements of C as f32 (s32)."""
    if dtype in ("f32", "s32"):
        return list(b.emit(ptx.LdOp, [c], [f32 if dtype == "f32" else i32] * CHUNK, space="global", type=dtype, vec=CHUNK, offset=off).res)
    pairs = b.emit(ptx.LdOp, [c], [i32, i32], space="global", type="b32", vec=2, offset=off).res
    halves = [h for p in pairs for h in b.emit(ptx.UnpackOp, [p], [i16, i16]).res]
    return [b.val(ptx.CvtOp, [h], f32, type=f"f32.{dtype}") for h in halves]


def _load_c_scalar(b: PtxBuilder, c: SSAValue, off: int, dtype: str) -> SSAValue:
    if dtype in ("f32", "s32"):
        return b.val(ptx.LdOp, [c], f32 if dtype == "f32" else i32, space="global", type=dtype, vec=1, offset=off)
    half = b.val(ptx.LdOp, [c], i16, space="global", type="b16", vec=1, offset=off)
    return b.val(ptx.CvtOp, [half], f32, type=f"f32.{dtype}")


def _store_d(b: PtxBuilder, d: SSAValue, off: int, dtype: str, total: list[SSAValue]) -> None:
    """Four elements into D, converted: one 16-byte (f32, s32) or 8-byte (16-bit) store."""
    if dtype in ("f32", "s32"):
        b.emit(ptx.StOp, [d, *total], space="global", type=dtype, vec=CHUNK, offset=off)
        return
    packed = [b.val(ptx.CvtOp, [total[i + 1], total[i]], i32, type=f"rn.{dtype}x2.f32") for i in (0, 2)]
    b.emit(ptx.StOp, [d, *packed], space="global", type="b32", vec=2, offset=off)


def _store_d_scalar(b: PtxBuilder, d: SSAValue, off: int, dtype: str, v: SSAValue) -> None:
    if dtype in ("bf16", "f16"):
        half = b.val(ptx.CvtOp, [v], i16, type=f"rn.{dtype}.f32")
        b.emit(ptx.StOp, [d, half], space="global", type="b16", vec=1, offset=off)
    else:
        b.emit(ptx.StOp, [d, v], space="global", type=dtype, vec=1, offset=off)


__all__ = ["SplitK", "check_reduces"]
