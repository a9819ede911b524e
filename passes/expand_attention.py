"""tc-expand-attention: each kernel's `tc.attention` becomes the loop level
(docs/attention.md, "The loop level"): a CTA per block of BM queries, head and batch (a
4-d problem's, on the grid's z), a loop over
blocks of BN keys carrying O and the online softmax's running rows, K and V through a ring
of S stages, the mask where lengths are ragged or the attention causal, the log-sum-exp
where asked; an 8-bit V with its head dim contiguous through an MN-major ring and a
tc.tile_transpose into the K-major one the P V wgmma reads. The blocks are layout/attention.py's `default_blocks`.

The ops are those `bench/attention_loop.py` writes for the same problem, in the same
order, so the kernel is the one its GPU check ran (tests/test_expand_attention.py compares
the PTX of both)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import ArrayAttr, Float32Type, IndexType, IntegerAttr, ModuleOp, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import tc
from lower_tc.dialects.diagnostics import error_at, remark_at
from lower_tc.dialects.tc_attention import AttentionOp, v_keys_contiguous
from lower_tc.dialects.tc_gemm import WindowLoadOp, WindowStoreOp
from lower_tc.dialects.tc_kernel import GRID_ATTR
from lower_tc.layout import Arch
from lower_tc.layout.attention import FP8_TYPES, AttentionBlocks, default_blocks

INDEX = IndexType()


def _const(v: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(v, INDEX))


@dataclass
class _Ops:
    """The ops of the expansion, in order."""

    ops: list[Operation]

    def add(self, op: Operation, hint: str | None = None) -> SSAValue:
        self.ops.append(op)
        if hint is not None and op.results:
            op.results[0].name_hint = hint
        return op.results[0] if op.results else None  # type: ignore[return-value]


def expand(att: AttentionOp, blocks: AttentionBlocks, mma: type[tc.WgmmaOp | tc.Tcgen05MmaOp] = tc.WgmmaOp
           ) -> tuple[list[Operation], ArrayAttr]:
    """The loop level's ops for `att` and the kernel's grid; its two MMAs are `mma`s
    (tc.tcgen05_mma on sm_100a: S, P and O in tensor memory)."""
    p = att.problem
    bm, bn, stages = blocks.bm, blocks.bn, blocks.stages
    elt = att.q.type.element_type  # type: ignore[attr-defined]
    sq, sk, d, h, kvh = p.sq, p.sk, p.d, p.heads, p.kv_heads
    out = _Ops([])
    q_type = tc.TileType([bm, d], elt, tc.LayoutAttr("k"))
    k_type = tc.TileType([bn, d], elt, tc.LayoutAttr("k"))
    staged = None  # fp8 V with its head dim contiguous: its tiles TMA loaded MN-major, transposed in shared memory
    if p.dtype in FP8_TYPES:  # fp8 wgmma reads B K-major: keys contiguous in V's tile
        v_type = tc.TileType([d, bn], elt, tc.LayoutAttr("k"))
        if not v_keys_contiguous(att.v.type):  # type: ignore[arg-type]
            staged = tc.TileType([d, bn], elt, tc.LayoutAttr("mn", order="k_first"))  # one TMA box per 128 columns
    else:
        v_type = tc.TileType([d, bn], elt, tc.LayoutAttr("mn", order="k_first"))  # one TMA box per 64 columns
    acc_s, acc_o = tc.AccType([bm, bn], Float32Type()), tc.AccType([bm, d], Float32Type())
    rows = tc.RowsType(bm)
    q = out.add(tc.SmemTileOp(q_type), "q")
    k = out.add(tc.SmemTileOp(k_type, stages), "k")
    vs = out.add(tc.SmemTileOp(staged, stages), "vs") if staged is not None else None
    v = out.add(tc.SmemTileOp(v_type, stages), "v")
    kt = out.add(tc.TransposeOp(att.k), "kt")
    bx = out.add(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)), "bx")
    hh = out.add(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.Y)), "head")
    c0 = out.add(_const(0), "c0")
    cbn = out.add(_const(bn), "cbn")
    cbm = out.add(_const(bm), "cbm")
    head = hh if h > 1 else c0  # a batch of one matrix is read at index 0
    nested = len(att.q.type.get_shape()) == 4  # type: ignore[attr-defined]
    batch = None  # a 4-d problem's batch: gpu.block_id z (0 for a batch of 1)
    if nested:
        batch = out.add(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.Z)), "batch") if p.batch > 1 else c0
    kv = c0 if kvh == 1 else head
    if kvh not in (1, h):
        cg = out.add(_const(h // kvh), "group")
        kv = out.add(arith.DivUIOp(hh, cg), "kv_head")
    nq = -(-sq // bm)
    if p.causal:  # the CTAs that see the most keys (the last queries) go first
        clast = out.add(_const(nq - 1), "last_block")
        qb = out.add(arith.SubiOp(clast, bx), "q_block")
    else:
        qb = out.add(arith.AddiOp(bx, c0), "q_block")
    q0 = out.add(arith.MuliOp(qb, cbm), "q0")
    offset = sk - sq
    keys_end = -(-sk // bn) * bn
    if p.causal and bm + offset + bn - 1 >= 0:  # the loop ends at the block holding the CTA's last visible key
        cend = out.add(_const(bm + offset + bn - 1))
        cbn2 = out.add(_const(bn))
        e0 = out.add(arith.AddiOp(q0, cend))
        e1 = out.add(arith.DivUIOp(e0, cbn2))
        e2 = out.add(arith.MuliOp(e1, cbn2))
        ckeys = out.add(_const(keys_end))
        ub = out.add(arith.MinUIOp(e2, ckeys), "keys_end")
    else:
        ub = out.add(_const(keys_end), "keys_end")
    out.add(WindowLoadOp(att.q, q0, c0, q, tc.Operand.A, head, batch))
    factors = {w: out.add(memref.LoadOp.get(x, [batch if batch is not None else c0, kv]), f"{w}d")
               for w, x in att.descale.items()}  # read at the CTA's batch and K head
    qk_factor = factors.get("q")
    if "k" in factors:
        qk_factor = factors["k"] if qk_factor is None else out.add(arith.MulfOp(qk_factor, factors["k"]), "qkd")
    o0 = out.add(tc.AccZeroOp(acc_o), "o0")
    m0 = out.add(tc.RowsFillOp(-math.inf, rows), "m0")
    l0 = out.add(tc.RowsFillOp(0.0, rows), "l0")

    body = Block(arg_types=[INDEX, acc_o, rows, rows])
    j, o, m, l = body.args
    inner = _Ops([])
    inner.add(WindowLoadOp(kt, c0, j, k, tc.Operand.B, kv, batch))
    if vs is not None:
        inner.add(WindowLoadOp(att.v, j, c0, vs, tc.Operand.B, kv, batch))
        inner.add(tc.TileTransposeOp(vs, v, accumulator_order=True))
    else:
        inner.add(WindowLoadOp(att.v, j, c0, v, tc.Operand.B, kv, batch))
    z = inner.add(tc.AccZeroOp(acc_s), "zero")
    s = inner.add(mma(q, k, z), "s")
    ragged = sk % bn != 0
    if ragged or p.causal:
        mask = tc.AccMaskOp(s, None, None, keys=sk if ragged else None, causal=offset if p.causal else None, positions=(q0, j))
        s = inner.add(mask, "masked")
    m1 = inner.add(tc.AccRowMaxOp(s, m, p.scale, qk_factor), "m1")
    pe = inner.add(tc.AccExpOp(s, m1, p.scale, qk_factor), "p")
    l1 = inner.add(tc.AccRowSumOp(pe, l, m, m1), "l1")
    c = inner.add(tc.AccRescaleOp(o, m, m1), "carried")
    a = inner.add(tc.AccToAOp(pe, tc.AFragType([bm, bn], elt), accumulator_order=vs is not None), "pa")
    o1 = inner.add(mma(a, v, c), "o1")
    inner.add(scf.YieldOp(o1, m1, l1))
    body.add_ops(inner.ops)
    loop = scf.ForOp(c0, ub, cbn, [o0, m0, l0], Region(body))
    out.add(loop)
    result = out.add(tc.AccRowDivOp(loop.results[0], loop.results[2], factors.get("v")), "out")
    out.add(WindowStoreOp(result, att.dst, q0, c0, batch=head, outer=batch))
    if att.lse is not None:
        lse = out.add(tc.RowsLseOp(loop.results[1], loop.results[2]), "lse")
        out.add(tc.RowsStoreOp.build(operands=[lse, att.lse, [head, q0] if batch is None else [batch, head, q0]]))
    grid = ArrayAttr([IntegerAttr(nq, i64), IntegerAttr(h, i64), IntegerAttr(p.batch, i64)])
    return out.ops, grid


@dataclass(frozen=True)
class ExpandAttentionPass(ModulePass):
    """Expands each kernel's tc.attention into the loop level (module docstring).
    ``remarks=true`` prints each chosen block shape as a located remark."""

    name = "tc-expand-attention"
    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in tc.tc_kernels(op):
            body = tc.kernel_body(kernel)
            found = [o for o in body.ops if isinstance(o, AttentionOp)]
            if not found:
                continue
            att = found[0]
            for other in body.ops:
                if other is not att and not other.has_trait(IsTerminator):
                    error_at(other, f"'{other.name}' beside tc.attention: an attention kernel holds the op alone")
            tcgen05 = tc.kernel_target(att) is Arch.SM100A
            blocks = default_blocks(att.problem, tcgen05)
            p = att.problem
            if self.remarks:
                threads = ("one warpgroup, S, P and O in tensor memory" if tcgen05
                           else f"{blocks.bm // 64} consumer warpgroups and a producer")
                remark_at(att, f"{blocks.bm} queries x {blocks.bn} keys a block, {blocks.stages} stages, "
                               f"{threads}, for {p.heads} heads of {p.sq} x {p.sk} x {p.d}")
            ops, grid = expand(att, blocks, tc.Tcgen05MmaOp if tcgen05 else tc.WgmmaOp)
            for o in ops:
                o.location = att.location
                body.insert_op_before(o, att)
                for inner in o.walk():
                    inner.location = att.location
            att.detach()
            att.erase()
            kernel.attributes[GRID_ATTR] = grid
            try:
                for o in ops:
                    o.verify()
            except VerifyException as err:
                error_at(ops[0], f"the expanded kernel does not verify: {err}")


__all__ = ["ExpandAttentionPass", "expand"]
