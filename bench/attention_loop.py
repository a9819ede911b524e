"""The loop-level attention kernel (docs/attention.md, "The loop level"): writes it for a
problem and block sizes, checks it on the GPU against float64, and times it against torch
SDPA's cuDNN and flash backends in one process on the same tensors.

    python bench/attention_loop.py --check [--seeds 2]          # every CHECKS configuration
    python bench/attention_loop.py --bench --out results.json   # BENCH shapes, interleaved
    python bench/attention_loop.py --tune --out tune.json       # TUNE: block shapes at S = 8192
    python bench/attention_loop.py --mosaic --out mosaic.json   # MOSAIC: against cuDNN and Mosaic GPU, f16 BSHD
    python bench/attention_loop.py --fp8 --out fp8.json         # FP8_BENCH: e4m3 against cuDNN bf16 on the same values
    python bench/attention_loop.py --fp8-tune --out t.json      # FP8_TUNE: e4m3 block shapes at S = 8192
    python bench/attention_loop.py --fp8-v --out v.json         # FP8_V_BENCH: V as given (transposed in shared memory) and V^T
    python bench/attention_loop.py --fp8-descale               # FP8_DESCALE_BENCH: descaling factors against the kernel without

`loop_source` writes the kernel's IR: Q, K, V and O as (heads, sequence, head dim) batches
(BHSD with the batch and heads as one dimension), one CTA per block of BM queries and a
head (grid [S_q / BM, heads, 1]), the key loop over blocks of BN keys, K read through a
tc.transpose view (K-major B), V as an MN-major B. `keys` masks keys at or past the count
(a ragged last block, K and V zero-filled by TMA past their end); `causal` masks keys past
query + causal (FlashAttention's alignment: causal = S_k - S_q) and ends each CTA's loop at
its last visible key. torch is this benchmark's dependency only, never lower-tc's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, replace

from lower_tc.layout.attention import FP8_TYPES
from lower_tc.lowering.api.matmul_program import MLIR_ELEMENT

#: Launches per timed sample, for both: the host's launch latency stays out of the time.
BATCH = 10


@dataclass(frozen=True)
class AttentionCase:
    """One loop-level attention problem and its blocks."""

    heads: int = 1
    sq: int = 1024
    sk: int | None = None  # None: S_q
    d: int = 64
    bm: int = 128
    bn: int = 64
    stages: int = 2
    dtype: str = "bf16"
    causal: bool = False
    kv_heads: int | None = None  # None: one K/V head per query head
    schedule: str = "warp_specialized"  # or "pipelined" (docs/attention.md)
    lse: bool = False  # also the log-sum-exp, into a (heads, S_q) f32 argument ((batch, heads, S_q) when 4-d)
    batch: int = 1
    layout: str = "bhsd"  # or "bshd": (batch, seq, heads, head dim) in memory; 4-d memrefs either way where batch > 1
    # V's tile: its 64-column atoms down the keys first (one TMA box per 64 columns), or
    # across the head dim first ("mn_first": boxes of 8 keys where D > 64)
    v_order: str = "k_first"
    pingpong: bool = False  # tc.pingpong: the consumer warpgroups take turns at the tensor cores
    # fp8: V as the caller has it (head dim contiguous), its tiles transposed in shared
    # memory by the producer warpgroup (tc.tile_transpose), rather than given as V^T
    v_given: bool = False
    # fp8: descaling factors known at launch, (batch, K heads) f32 each for Q, K and V: the
    # scores times q_descale x k_descale, O times v_descale (FlashAttention-3's)
    descale: bool = False
    # sm_100a: the loop on tcgen05 (tc.tcgen05_mma, S, P and O in tensor memory; one
    # warpgroup, 128 queries a block), assembled only: no Blackwell GPU is lent
    target: str = "sm_90a"

    @property
    def nested(self) -> bool:
        """4-d memrefs (batch, heads, sequence, head dim): a batch, or heads between the
        sequence and the head dim in memory."""
        return self.batch > 1 or self.layout == "bshd"

    @property
    def keys(self) -> int:
        return self.sk if self.sk is not None else self.sq

    @property
    def name(self) -> str:
        kv = f"_kv{self.kv_heads}" if self.kv_heads else ""
        c = "_causal" if self.causal else ""
        sched = ("_pipelined" if self.schedule == "pipelined" else "") + ("_lse" if self.lse else "")
        lead = (f"b{self.batch}_" if self.batch > 1 else "") + ("bshd_" if self.layout == "bshd" else "")
        sched += "_vmn" if self.v_order != "k_first" else ""
        sched += "_pingpong" if self.pingpong else ""
        sched += "_vgiven" if self.v_given else ""
        sched += "_descale" if self.descale else ""
        sched += f"_{self.target}" if self.target != "sm_90a" else ""
        return f"attn_{lead}h{self.heads}{kv}_q{self.sq}_k{self.keys}_d{self.d}_{self.bm}x{self.bn}x{self.stages}_{self.dtype}{c}{sched}"

    def source(self) -> str:
        return loop_source(self)

    def op_source(self) -> str:
        """The same problem at the op level: one tc.attention (its blocks are the default's)."""
        t, h, kvh, d = MLIR_ELEMENT[self.dtype], self.heads, self.kv_heads or self.heads, self.d
        if self.nested:
            q, kv = (_memref4(self.batch, n, s, d, t, self.layout) for n, s in ((h, self.sq), (kvh, self.keys)))
            lse_t = f"memref<{self.batch}x{h}x{self.sq}xf32>"
        else:
            q, kv = f"memref<{h}x{self.sq}x{d}x{t}>", f"memref<{kvh}x{self.keys}x{d}x{t}>"
            lse_t = f"memref<{h}x{self.sq}xf32>"
        v, o = kv, q
        if self.dtype in FP8_TYPES:  # V^T in memory (keys contiguous) unless V is given, O in bf16
            if not self.v_given:
                if self.nested:
                    raise ValueError("fp8 attention cases with V^T are 3-d (heads, sequence, head dim)")
                v = _keys_contiguous(kvh, self.keys, d, t)
            o = q.replace(t, "bf16")
        lse_arg, lse_op, lse_type = (f", %LSE: {lse_t}", " lse %LSE", f", {lse_t}") if self.lse else ("", "", "")
        if self.descale:
            dt = _descale_type(self)
            lse_arg += f", %QD: {dt}, %KD: {dt}, %VD: {dt}"
            lse_op += " q_descale %QD k_descale %KD v_descale %VD"
            lse_type += f", {dt}, {dt}, {dt}"
        attrs = " {causal}" if self.causal else ""
        flags = ", tc.pingpong" if self.pingpong else ""
        return (f'func.func @{self.name}(%Q: {q}, %K: {kv}, %V: {v}, %O: {o}{lse_arg}) attributes {{tc.target = "{self.target}"{flags}}} {{\n'
                f"  tc.attention %Q, %K, %V to %O{lse_op}{attrs} : {q}, {kv}, {v}, {o}{lse_type}\n"
                "  func.return\n}\n")


def _descale_type(c: "AttentionCase") -> str:
    """A descaling factor's memref: (batch, K heads) f32."""
    return f"memref<{c.batch}x{c.kv_heads or c.heads}xf32>"


def _keys_contiguous(heads: int, keys: int, d: int, t: str) -> str:
    """fp8's V as a (heads, keys, head dim) memref of V^T's memory: keys contiguous."""
    return f"memref<{heads}x{keys}x{d}x{t}, strided<[{keys * d}, 1, {keys}]>>"


def loop_source(c: AttentionCase) -> str:
    """The kernel's IR (module docstring)."""
    h, sq, sk, d, bm, bn = c.heads, c.sq, c.keys, c.d, c.bm, c.bn
    t = MLIR_ELEMENT[c.dtype]
    fp8 = c.dtype in FP8_TYPES
    ot = "bf16" if fp8 else t  # fp8 attention's O
    kvh = c.kv_heads or h
    scale = 1.0 / d**0.5
    bt = c.batch
    if c.nested:
        if fp8 and not c.v_given:
            raise ValueError("fp8 attention cases with V^T are 3-d (heads, sequence, head dim)")
        qt, kt, ktt = (_memref4(bt, n, s, d, t, c.layout, transposed=tr) for n, s, tr in ((h, sq, False), (kvh, sk, False), (kvh, sk, True)))
    else:
        qt = f"memref<{h}x{sq}x{d}x{t}>"
        kt = f"memref<{kvh}x{sk}x{d}x{t}>"
        ktt = f"memref<{kvh}x{d}x{sk}x{t}, strided<[{sk * d}, 1, {d}]>>"
    ot_mem = qt.replace(t, ot) if fp8 else qt
    qtile = f"!tc.tile<{bm}x{d}x{t}, #tc.layout<k, swizzle = auto>>"
    ktile = f"!tc.tile<{bn}x{d}x{t}, #tc.layout<k, swizzle = auto>>"
    vtile = f"!tc.tile<{d}x{bn}x{t}, #tc.layout<mn, swizzle = auto, order = {c.v_order}>>"
    # V: fp8 wgmma reads B K-major only, so fp8 V is given transposed (heads, head dim,
    # keys) and read through a tc.transpose view with a K-major tile
    v_arg, v_src, v_view, vt_view = kt, "%V", "", kt
    staged = ""  # fp8 V as given: its MN-major tile as TMA loads it, and the transposition
    v_dst, v_tile = "%v", None
    if fp8 and c.v_given:
        v_tile = f"!tc.tile<{d}x{bn}x{t}, #tc.layout<mn, swizzle = auto, order = k_first>>"
        vtile = f"!tc.tile<{d}x{bn}x{t}, #tc.layout<k, swizzle = auto>>"
        staged = f"  %vs = tc.smem_tile {{stages = {c.stages}}} : {v_tile}\n"
        v_dst = "%vs"
    elif fp8:
        v_arg = f"memref<{kvh}x{d}x{sk}x{t}>"
        v_src = "%vv"
        vt_view = _keys_contiguous(kvh, sk, d, t)
        v_view = f"  %vv = tc.transpose %V : {v_arg} to {vt_view}\n"
        vtile = f"!tc.tile<{d}x{bn}x{t}, #tc.layout<k, swizzle = auto>>"
    order = " {accumulator_order}" if fp8 and c.v_given else ""  # V's keys as P's accumulator holds them
    acc_s, acc_o, rows = f"!tc.acc<{bm}x{bn}xf32>", f"!tc.acc<{bm}x{d}xf32>", f"!tc.rows<{bm}xf32>"
    mma = "tc.tcgen05_mma" if c.target == "sm_100a" else "tc.wgmma"
    schedule = ", tc.schedule = #tc.gemm_schedule<pipelined>" if c.schedule == "pipelined" else ""
    schedule += ", tc.pingpong" if c.pingpong else ""
    # causal: the CTAs that see the most keys start first (the last query blocks), so the
    # short ones fill in at the end of the grid rather than the long ones
    nq = -(-sq // bm)
    first = (f"  %clast = arith.constant {nq - 1} : index\n  %qb = arith.subi %clast, %bx : index\n" if c.causal
             else "  %qb = arith.addi %bx, %c0 : index\n")
    ragged = sk % bn != 0
    offset = sk - sq
    masked = ragged or c.causal
    attrs = []
    if ragged:
        attrs.append(f"keys = {sk}")
    if c.causal:
        attrs.append(f"causal = {offset}")
    mask = f"    %sm = tc.acc_mask %s0 at (%q0, %j) {{{', '.join(attrs)}}} : {acc_s}\n" if masked else ""
    s = "%sm" if masked else "%s0"
    # a batch of one matrix is read at index 0 (a constant), one head per CTA along y otherwise
    head = "%hh" if h > 1 else "%c0"
    # a 4-d problem's batch: one along z (index 0 for a batch of 1)
    bz = ("%bz, " if bt > 1 else "%c0, ") if c.nested else ""
    block_z = '  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index\n' if bt > 1 else ""
    lse_t = f"memref<{bt}x{h}x{sq}xf32>" if c.nested else f"memref<{h}x{sq}xf32>"
    lse_arg = f", %LSE: {lse_t}" if c.lse else ""
    lse_ops = (f"  %lse = tc.rows_lse %r#1, %r#2 : {rows}\n  tc.rows_store %lse to %LSE[{bz}{head}, %q0] : {rows}, {lse_t}\n"
               if c.lse else "")
    kv_index = "%c0" if kvh == 1 else head if kvh == h else "%kvh"
    descale_args, descale_ops, qk_times, v_times = "", "", "", ""
    if c.descale:  # fp8's descaling factors, read at the CTA's batch and K head
        dt = _descale_type(c)
        descale_args = f", %QD: {dt}, %KD: {dt}, %VD: {dt}"
        at = f"[{bz or '%c0, '}{kv_index}]"
        descale_ops = (f"  %qd = memref.load %QD{at} : {dt}\n  %kd = memref.load %KD{at} : {dt}\n"
                       f"  %vd = memref.load %VD{at} : {dt}\n  %qkd = arith.mulf %qd, %kd : f32\n")
        qk_times, v_times = " times %qkd", " times %vd"
    v_window = (f"    tc.window_load {v_src}[{bz}{kv_index}, %j, %c0] to {v_dst} as b : "
                f"{vt_view if fp8 and not c.v_given else kt}, {v_tile or vtile}\n")
    if v_tile is not None:
        v_window += f"    tc.tile_transpose %vs to %v{order} : {v_tile}, {vtile}\n"
    group = f"  %cg = arith.constant {h // kvh} : index\n  %kvh = arith.divui %hh, %cg : index\n" if kv_index == "%kvh" else ""
    # causal: this CTA's last visible key is q0 + BM - 1 + offset; the loop ends at the block holding it
    if c.causal and bm + offset + bn - 1 >= 0:
        ub = (f"  %cend = arith.constant {bm + offset + bn - 1} : index\n  %cbn2 = arith.constant {bn} : index\n"
              f"  %e0 = arith.addi %q0, %cend : index\n  %e1 = arith.divui %e0, %cbn2 : index\n  %e2 = arith.muli %e1, %cbn2 : index\n"
              f"  %ckeys = arith.constant {-(-sk // bn) * bn} : index\n  %ub = arith.minui %e2, %ckeys : index\n")
    else:
        ub = f"  %ub = arith.constant {-(-sk // bn) * bn} : index\n"
    return f"""// {c.name}: O = softmax(Q K^T / sqrt({d})) V, written by bench/attention_loop.py
func.func @{c.name}(%Q: {qt}, %K: {kt}, %V: {v_arg}, %O: {ot_mem}{lse_arg}{descale_args}) attributes {{tc.target = "{c.target}", tc.grid = [{-(-sq // bm)}, {h}, {bt}]{schedule}}} {{
  %q = tc.smem_tile : {qtile}
  %k = tc.smem_tile {{stages = {c.stages}}} : {ktile}
{staged}  %v = tc.smem_tile {{stages = {c.stages}}} : {vtile}
  %kt = tc.transpose %K : {kt} to {ktt}
{v_view}  %bx = "gpu.block_id"() <{{dimension = #gpu<dim x>}}> : () -> index
  %hh = "gpu.block_id"() <{{dimension = #gpu<dim y>}}> : () -> index
{block_z}  %c0 = arith.constant 0 : index
  %cbn = arith.constant {bn} : index
  %cbm = arith.constant {bm} : index
{group}{first}  %q0 = arith.muli %qb, %cbm : index
{ub}  tc.window_load %Q[{bz}{head}, %q0, %c0] to %q as a : {qt}, {qtile}
{descale_ops}  %o0 = tc.acc_zero : {acc_o}
  %m0 = tc.rows_fill -inf : {rows}
  %l0 = tc.rows_fill 0.0 : {rows}
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> ({acc_o}, {rows}, {rows}) {{
    tc.window_load %kt[{bz}{kv_index}, %c0, %j] to %k as b : {ktt}, {ktile}
{v_window}    %z = tc.acc_zero : {acc_s}
    %s0 = {mma} %q, %k, %z : {qtile}, {ktile}, {acc_s}
{mask}    %m1 = tc.acc_row_max {s}, %m scale {scale!r}{qk_times} : {acc_s}, {rows}
    %p = tc.acc_exp {s}, %m1 scale {scale!r}{qk_times} : {acc_s}, {rows}
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : {acc_s}, {rows}
    %c = tc.acc_rescale %o, %m, %m1 : {acc_o}, {rows}
    %a = tc.acc_to_a %p{order} : {acc_s} to !tc.afrag<{bm}x{bn}x{t}>
    %o1 = {mma} %a, %v, %c : !tc.afrag<{bm}x{bn}x{t}>, {vtile}, {acc_o}
    scf.yield %o1, %m1, %l1 : {acc_o}, {rows}, {rows}
  }}
  %out = tc.acc_row_div %r#0, %r#2{v_times} : {acc_o}, {rows}
  tc.window_store %out to %O[{bz}{head}, %q0, %c0] : {acc_o}, {ot_mem}
{lse_ops}  func.return
}}
"""


def _memref4(b: int, h: int, s: int, d: int, t: str, layout: str, transposed: bool = False) -> str:
    """A (batch, heads, sequence, head dim) memref laid out BHSD or BSHD in memory (or
    its tc.transpose: the last two dimensions swapped)."""
    strides = [h * s * d, s * d, d, 1] if layout == "bhsd" else [s * h * d, d, h * d, 1]
    shape = [b, h, s, d]
    if transposed:
        shape[2], shape[3], strides[2], strides[3] = shape[3], shape[2], strides[3], strides[2]
    dims = "x".join(map(str, shape))
    if layout == "bhsd" and not transposed:
        return f"memref<{dims}x{t}>"
    return f"memref<{dims}x{t}, strided<[{', '.join(map(str, strides))}]>>"


#: What --check runs: head dims, block shapes, ragged and causal lengths, GQA.
CHECKS = [
    AttentionCase(1, 1024, d=64, bm=128, bn=64),
    AttentionCase(1, 256, d=64, bm=64, bn=64),
    AttentionCase(2, 512, d=128, bm=128, bn=128),
    AttentionCase(2, 512, d=128, bm=128, bn=64, stages=3),
    AttentionCase(2, 256, d=256, bm=128, bn=64),
    AttentionCase(2, 384, d=64, bm=128, bn=128, dtype="f16"),
    AttentionCase(4, 512, d=64, bm=128, bn=64, kv_heads=1),
    AttentionCase(4, 512, d=128, bm=128, bn=128, kv_heads=2),
    AttentionCase(1, 1000, d=64, bm=128, bn=64),
    AttentionCase(2, 63, d=64, bm=64, bn=64),
    AttentionCase(2, 65, d=128, bm=128, bn=128),
    AttentionCase(1, 127, sk=1000, d=64, bm=64, bn=64),
    AttentionCase(1, 1, sk=4097, d=128, bm=64, bn=128),
    AttentionCase(2, 1024, d=64, bm=128, bn=64, causal=True),
    AttentionCase(2, 1000, d=128, bm=128, bn=128, causal=True),
    AttentionCase(1, 300, sk=1000, d=64, bm=64, bn=64, causal=True),
    AttentionCase(1, 1000, sk=300, d=64, bm=128, bn=64, causal=True, lse=True),
    AttentionCase(2, 3 * 64 * 3, d=64, bm=192, bn=64),
    AttentionCase(2, 1000, d=128, bm=128, bn=128, causal=True, schedule="pipelined"),
    AttentionCase(1, 1024, d=64, bm=128, bn=64, schedule="pipelined"),
    AttentionCase(4, 512, d=128, bm=128, bn=128, kv_heads=2, schedule="pipelined"),
    AttentionCase(4, 1000, d=64, bm=192, bn=64, stages=4, kv_heads=2, causal=True, lse=True),
    AttentionCase(2, 4097, d=128, bm=128, bn=128, stages=3, lse=True),
    # 4-d: BSHD with a batch on z, BSHD of one batch, BHSD with a batch (MQA)
    AttentionCase(4, 300, d=64, bm=128, bn=64, batch=2, layout="bshd", kv_heads=2, causal=True, lse=True),
    AttentionCase(2, 1000, d=128, bm=128, bn=128, stages=3, layout="bshd"),
    AttentionCase(4, 65, sk=1000, d=256, bm=128, bn=64, batch=2, kv_heads=1),
    # the consumers taking turns (tc.pingpong): three warpgroups, and two on a causal BSHD batch
    AttentionCase(4, 1000, d=64, bm=192, bn=64, stages=4, kv_heads=2, causal=True, lse=True, pingpong=True),
    AttentionCase(4, 1000, d=128, bm=128, bn=128, stages=3, batch=2, layout="bshd", causal=True, pingpong=True),
] + [  # fp8 (3-d, V given transposed: keys a multiple of 16 bytes): causal, MQA with ragged keys,
    # S_q < S_k causal, head dim 128 GQA, e5m2, the pipelined schedule, ping-pong
    AttentionCase(2, 1024, d=64, bm=128, bn=64, causal=True, dtype="e4m3"),
    AttentionCase(2, 1008, d=128, bm=128, bn=128, kv_heads=1, dtype="e4m3"),
    AttentionCase(1, 1000, sk=1008, d=64, bm=128, bn=64, causal=True, dtype="e4m3"),
    AttentionCase(4, 2048, d=128, bm=128, bn=128, stages=3, kv_heads=2, causal=True, lse=True, dtype="e4m3"),
    AttentionCase(2, 512, d=64, bm=128, bn=64, dtype="e5m2"),
    AttentionCase(2, 512, d=64, bm=64, bn=64, schedule="pipelined", dtype="e4m3"),
    AttentionCase(4, 1024, d=128, bm=128, bn=128, stages=3, causal=True, pingpong=True, dtype="e4m3"),
] + [  # fp8 with V as given (head dim contiguous, transposed in shared memory): the op level's
    # blocks at each head dim, ragged keys of any length, MQA, 4-d BSHD, e5m2, ping-pong
    AttentionCase(2, 1024, d=64, bm=192, bn=128, stages=4, causal=True, dtype="e4m3", v_given=True),
    AttentionCase(2, 1008, d=128, bm=128, bn=128, stages=4, kv_heads=1, dtype="e4m3", v_given=True),
    AttentionCase(1, 1000, sk=1009, d=256, bm=128, bn=64, stages=3, causal=True, lse=True, dtype="e4m3", v_given=True),
    AttentionCase(2, 1, sk=65, d=128, bm=128, bn=128, stages=4, dtype="e4m3", v_given=True),
    AttentionCase(4, 300, d=64, bm=128, bn=64, batch=2, layout="bshd", kv_heads=2, causal=True, dtype="e5m2", v_given=True),
    AttentionCase(4, 1024, d=128, bm=128, bn=128, stages=3, causal=True, pingpong=True, dtype="e4m3", v_given=True),
    AttentionCase(2, 4097, d=128, bm=128, bn=128, stages=4, dtype="e4m3", v_given=True),
] + [  # fp8 with descaling factors ((batch, K heads) f32 each): 4-d BSHD GQA causal, V^T with MQA,
    # the log-sum-exp at head dim 256, ping-pong, the pipelined schedule
    AttentionCase(4, 300, d=64, bm=128, bn=64, batch=2, layout="bshd", kv_heads=2, causal=True, dtype="e4m3", v_given=True,
                  descale=True),
    AttentionCase(2, 1008, d=128, bm=128, bn=128, stages=4, kv_heads=1, dtype="e4m3", descale=True),
    AttentionCase(1, 1000, sk=1009, d=256, bm=128, bn=64, stages=3, causal=True, lse=True, dtype="e4m3", v_given=True,
                  descale=True),
    AttentionCase(4, 1024, d=128, bm=128, bn=128, stages=3, causal=True, pingpong=True, dtype="e4m3", v_given=True, descale=True),
    AttentionCase(2, 512, d=64, bm=64, bn=64, schedule="pipelined", dtype="e4m3", descale=True),
]

#: What --bench times (FA3's shapes: 16k tokens, heads = 2048 / d), and the blocks.
BENCH = [
    AttentionCase(16384 // s * (2048 // d), s, d=d, bm=bm, bn=bn, stages=stages, causal=causal)
    for d, bm, bn, stages in ((128, 128, 128, 3), (64, 192, 64, 4))
    for s in (4096, 8192, 16384)
    for causal in (False, True)
] + [  # the ablation: the consumers taking turns at the tensor cores (tc.pingpong)
    AttentionCase(16384 // 8192 * (2048 // d), 8192, d=d, bm=bm, bn=bn, stages=stages, causal=causal, pingpong=True)
    for d, bm, bn, stages in ((128, 128, 128, 3), (64, 192, 64, 4))
    for causal in (False, True)
] + [  # V's atoms across the head dim first (boxes of 8 keys)
    AttentionCase(16384 // 8192 * (2048 // 128), 8192, d=128, bm=128, bn=128, stages=3, causal=causal, v_order="mn_first")
    for causal in (False, True)
] + [  # the one-loop schedule, and the ring's depth
    AttentionCase(16384 // s * (2048 // d), s, d=d, bm=128, bn=128, stages=stages, causal=causal, schedule=schedule)
    for d in (128, 64) for s in (8192,) for causal in (False, True)
    for stages, schedule in ((2, "pipelined"), (2, "warp_specialized"), (4, "warp_specialized"))
    if 16 * d * (128 + 2 * 128 * stages) // 8 <= 227 * 1024  # Q and the ring in shared memory
]


#: What --fp8 times (FA3's shapes, e4m3, V given transposed) against cuDNN's bf16 attention on
#: the same values (the inputs are e4m3 numbers; torch exposes no fp8 SDPA), and the blocks:
#: 8-bit tiles take twice the keys of a 16-bit one in the same bytes.
FP8_BENCH = [
    AttentionCase(16384 // s * (2048 // d), s, d=d, bm=bm, bn=bn, stages=stages, causal=causal, dtype="e4m3")
    for d, bm, bn, stages in ((128, 128, 128, 3), (128, 128, 128, 4), (64, 192, 128, 4))
    for s in (4096, 8192, 16384)
    for causal in (False, True)
]
#: What --fp8-v times: V as given (transposed in shared memory) beside V^T, the op level's blocks.
FP8_V_BENCH = [
    AttentionCase(16384 // s * (2048 // d), s, d=d, bm=bm, bn=bn, stages=stages, causal=causal, dtype="e4m3", v_given=given)
    for d, bm, bn, stages in ((128, 128, 128, 4), (64, 192, 128, 4), (256, 128, 64, 3))
    for s in (4096, 8192, 16384)
    for causal in (False, True)
    for given in (False, True)
]


#: What --fp8-descale times: descaling factors (of 1) against the same kernel without them,
#: interleaved in one process, the op level's blocks, V as given and V^T, at S = 8192.
FP8_DESCALE_BENCH = [
    AttentionCase(16384 // 8192 * (2048 // d), 8192, d=d, bm=bm, bn=bn, stages=stages, causal=causal, dtype="e4m3",
                  v_given=given, descale=True)
    for d, bm, bn, stages in ((128, 128, 128, 4), (64, 192, 128, 4), (256, 128, 64, 3))
    for causal in (False, True)
    for given in (True, False)
]


#: What --mosaic times: FA3's shapes as (batch, S, heads, D) f16 tensors, the layout JAX's
#: Mosaic GPU attention takes; lower-tc reads the same tensors as 4-d BSHD memrefs.
MOSAIC = [
    AttentionCase(2048 // d, s, d=d, bm=bm, bn=bn, stages=stages, causal=causal, batch=16384 // s, layout="bshd", dtype="f16")
    for d, bm, bn, stages in ((128, 128, 128, 3), (64, 192, 64, 4))
    for s in (4096, 8192, 16384)
    for causal in (False, True)
]

#: What --tune times: block shapes and ring depths at S = 8192 (the block-size study).
#: What --fp8-tune times: e4m3 block shapes at S = 8192 (those that assemble without spills or
#: serialised wgmma), the op level's FP8_BLOCKS among them (layout/attention.py).
FP8_TUNE = [
    AttentionCase(16384 // 8192 * (2048 // d), 8192, d=d, bm=bm, bn=bn, stages=stages, causal=causal, dtype="e4m3")
    for d, shapes in (
        (128, ((128, 128, 2), (128, 128, 3), (128, 128, 4), (128, 64, 4), (192, 64, 4))),
        (64, ((192, 128, 4), (192, 128, 3), (128, 128, 4), (128, 128, 6), (192, 64, 4), (128, 256, 3))),
        (256, ((128, 64, 3), (128, 64, 2))),
    )
    for bm, bn, stages in shapes
    for causal in (False, True)
]

TUNE = [
    AttentionCase(16384 // 8192 * (2048 // d), 8192, d=d, bm=bm, bn=bn, stages=stages, causal=causal)
    for d, shapes in ((64, ((128, 128, 3), (128, 64, 4), (192, 64, 4))), (128, ((128, 128, 3), (128, 64, 4), (192, 64, 3))))
    for bm, bn, stages in shapes
    for causal in (False, True)
]


def check(cases: list[AttentionCase], seeds: int) -> list[dict]:
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.run import run_kernel

    rows = []
    for case in cases:
        kernel = compile_source(case.source(), case.name, assemble=True)[0]
        for seed in range(seeds):
            r = run_kernel(kernel, seed=seed)
            rows.append({"case": case.name, "seed": seed, "passed": r.passed, "max_error": r.max_error,
                         "outside": r.mismatches, "checked": r.checked, "nan": r.nan_count, "stray": r.stray,
                         **({"notes": r.notes} if r.notes else {})})
            print(r.summary(), flush=True)
    return rows


def event_sample(op) -> float:
    """Milliseconds a launch of `op`: BATCH launches between CUDA events on torch's stream."""
    import torch

    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(BATCH):
        op()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / BATCH


def interleaved_samples(ops: dict, runs: int, warmup: int, sample=event_sample) -> dict[str, list[float]]:
    """Milliseconds a launch of each op, `runs` samples each (`sample`: by default BATCH
    launches between CUDA events, `event_sample`), the ops interleaved (each sample of
    each, in turn, the order rotating by one each round so that none always follows the
    same one), after `warmup` launches of each."""
    for op in ops.values():
        for _ in range(warmup):
            op()
    samples: dict[str, list[float]] = {name: [] for name in ops}
    names = list(ops)
    for r in range(runs):
        for name in names[r % len(names):] + names[: r % len(names)]:
            samples[name].append(sample(ops[name]))
    return samples


def bench(cases: list[AttentionCase], runs: int, warmup: int) -> list[dict]:
    """lower-tc against SDPA's cuDNN and flash backends on the same tensors, interleaved."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    import lower_tc
    from lower_tc.lowering.runtime.timing import attention_flops

    rows = []
    for case in cases:
        kernel = lower_tc.compile(case.source())
        h, sq, sk, d = case.heads, case.sq, case.keys, case.d
        fp8 = case.dtype in FP8_TYPES
        dt = torch.float16 if case.dtype == "f16" else torch.bfloat16
        q = torch.randn(1, h, sq, d, device="cuda", dtype=dt)
        k = torch.randn(1, h, sk, d, device="cuda", dtype=dt)
        v = torch.randn(1, h, sk, d, device="cuda", dtype=dt)
        o = torch.empty_like(q)
        if fp8:  # lower-tc reads e4m3 Q, K and V (or V^T); cuDNN the same numbers in bf16
            f8 = torch.float8_e4m3fn if case.dtype == "e4m3" else torch.float8_e5m2
            q8, k8, v8 = q.to(f8), k.to(f8), v.to(f8)
            vt8 = v8.transpose(-1, -2).contiguous()
            q, k, v = q8.to(dt), k8.to(dt), v8.to(dt)
            v_arg = v8 if case.v_given else vt8
            ops = {"lower_tc": lambda: kernel(q8[0], k8[0], v_arg[0], o[0])}
            if case.descale:  # factors of 1 (the same O), and the kernel without them beside it
                ones = torch.ones(1, h, device="cuda", dtype=torch.float32)
                plain = lower_tc.compile(replace(case, descale=False).source())
                o_plain = torch.empty_like(o)
                ops = {"lower_tc": lambda: kernel(q8[0], k8[0], v_arg[0], o[0], ones, ones, ones),
                       "lower_tc_plain": lambda: plain(q8[0], k8[0], v_arg[0], o_plain[0])}
        else:
            ops = {"lower_tc": lambda: kernel(q[0], k[0], v[0], o[0])}
        for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)):
            def run(backend=backend):
                with sdpa_kernel(backend):
                    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=case.causal)
            ops[name] = run
        ops["lower_tc"]()
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=case.causal)
        diff = float((o.float() - want.float()).abs().max())
        samples = interleaved_samples(ops, runs, warmup)
        flops = attention_flops(kernel.info)
        row = {"case": case.name, "heads": h, "seq": sq, "d": d, "causal": case.causal,
               "blocks": f"{case.bm}x{case.bn}, {case.stages} stages", "max_diff_vs_cudnn": diff}
        for name, times in samples.items():
            row[f"{name}_tflops"] = round(flops / (statistics.median(times) * 1e-3) / 1e12, 1)
        row["vs_cudnn"] = round(row["lower_tc_tflops"] / row["cudnn_tflops"], 3)
        if "lower_tc_plain_tflops" in row:
            row["vs_plain"] = round(row["lower_tc_tflops"] / row["lower_tc_plain_tflops"], 3)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def bench_mosaic(cases: list[AttentionCase], runs: int, warmup: int) -> list[dict]:
    """lower-tc, SDPA's cuDNN backend and JAX's Mosaic GPU attention (attention_mgpu, its
    best of block_kv 256 and 128 with block_q 64 and 2 stages, as its own benchmark
    tunes it) in one process on the same f16 (batch, S, heads, D) tensors (JAX reads them
    through DLPack), interleaved. Timed by the wall clock between device synchronisations
    (JAX runs on its own stream, where torch's events cannot see), BATCH launches a
    sample, the median of `runs`. Mosaic's kernel applies no softmax scale: its output is
    checked against SDPA with scale 1, the others with 1 / sqrt(D)."""
    import functools
    import time

    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax
    import torch
    from jax.experimental.pallas.ops.gpu import attention_mgpu
    from torch.nn.attention import SDPBackend, sdpa_kernel

    import lower_tc
    from lower_tc.lowering.runtime.timing import attention_flops

    def wall(op) -> float:
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(BATCH):
            op()
        torch.cuda.synchronize()  # every stream of the device, JAX's too
        return (time.perf_counter() - start) / BATCH * 1e3

    rows = []
    for case in cases:
        kernel = lower_tc.compile(case.source())
        b, h, s, d = case.batch, case.heads, case.sq, case.d
        q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        qt, kt, vt, ot = (x.transpose(1, 2) for x in (q, k, v, o))  # (b, h, s, d) views, BSHD strides
        jq, jk, jv = (jax.dlpack.from_dlpack(x) for x in (q, k, v))

        def sdpa(scale=None):
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, is_causal=case.causal, scale=scale)

        ops = {"lower_tc": lambda: kernel(qt, kt, vt, ot), "cudnn": sdpa}
        best = None
        for block_kv in (256, 128):
            try:
                cfg = attention_mgpu.TuningConfig(block_q=64, block_kv=block_kv, max_concurrent_steps=2, causal=case.causal)
                f = jax.jit(functools.partial(attention_mgpu.attention, config=cfg))
                f(jq, jk, jv).block_until_ready()
            except Exception as err:  # noqa: BLE001 - a block Mosaic cannot take at this size
                print(f"mosaic block_kv={block_kv}: {type(err).__name__}: {str(err)[:160]}", flush=True)
                continue
            t = statistics.median(wall(lambda: f(jq, jk, jv)) for _ in range(3))
            if best is None or t < best[0]:
                best = (t, block_kv, f)
        if best is not None:
            ops["mosaic"] = lambda f=best[2]: f(jq, jk, jv)
        ops["lower_tc"]()
        want = sdpa()
        diffs = {"lower_tc": float((ot.float() - want.float()).abs().max())}
        if best is not None:
            got = torch.from_dlpack(ops["mosaic"]()).transpose(1, 2)
            diffs["mosaic"] = float((got.float() - sdpa(1.0).float()).abs().max())
        samples = interleaved_samples(ops, runs, warmup, sample=wall)  # wall clock: JAX's stream is not torch's
        flops = attention_flops(kernel.info)
        row = {"case": case.name, "batch": b, "heads": h, "seq": s, "d": d, "causal": case.causal, "dtype": "f16",
               "layout": "bshd", "blocks": f"{case.bm}x{case.bn}, {case.stages} stages",
               "mosaic_block_kv": best[1] if best else None, "max_diff": diffs}
        for name, times in samples.items():
            row[f"{name}_tflops"] = round(flops / (statistics.median(times) * 1e-3) / 1e12, 1)
        row["vs_cudnn"] = round(row["lower_tc_tflops"] / row["cudnn_tflops"], 3)
        if "mosaic_tflops" in row:
            row["vs_mosaic"] = round(row["lower_tc_tflops"] / row["mosaic_tflops"], 3)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="check every CHECKS case on the GPU")
    p.add_argument("--bench", action="store_true", help="time the BENCH cases against SDPA")
    p.add_argument("--tune", action="store_true", help="time the TUNE cases (block shapes) against SDPA")
    p.add_argument("--mosaic", action="store_true", help="time the MOSAIC cases against cuDNN and JAX's Mosaic GPU attention")
    p.add_argument("--fp8", action="store_true", help="time the FP8_BENCH cases (e4m3) against cuDNN's bf16 attention on the same values")
    p.add_argument("--fp8-tune", action="store_true", help="time the FP8_TUNE cases (e4m3 block shapes at S = 8192) against cuDNN's bf16 attention")
    p.add_argument("--fp8-v", action="store_true", help="time the FP8_V_BENCH cases: e4m3 with V as given (transposed in "
                                                        "shared memory) beside V^T, against cuDNN's bf16 attention")
    p.add_argument("--fp8-descale", action="store_true", help="time the FP8_DESCALE_BENCH cases: descaling factors "
                                                              "against the same kernel without them")
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--match", default="", help="only the cases whose name contains this")
    p.add_argument("--out", help="write the results as JSON")
    p.add_argument("--print", dest="show", metavar="NAME", help="print the IR of the case named NAME (of CHECKS and BENCH)")
    args = p.parse_args(argv)
    if args.show:
        case = next(c for c in CHECKS + BENCH + TUNE + MOSAIC + FP8_BENCH + FP8_V_BENCH + FP8_DESCALE_BENCH + FP8_TUNE
                    if c.name == args.show)
        print(case.source(), end="")
        return 0
    out: dict = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 "commit": os.environ.get("LOWER_TC_COMMIT") or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
                 "command": "python bench/attention_loop.py " + " ".join(argv)}
    ok = True
    if args.check:
        out["checks"] = check([c for c in CHECKS if args.match in c.name], args.seeds)
        ok = all(r["passed"] for r in out["checks"])
    # the timed modes, in the order they run: (flag and JSON key, cases, how they are timed)
    for key, cases, timed in (("bench", BENCH, bench), ("fp8", FP8_BENCH, bench), ("fp8_v", FP8_V_BENCH, bench),
                              ("fp8_descale", FP8_DESCALE_BENCH, bench), ("fp8_tune", FP8_TUNE, bench),
                              ("tune", TUNE, bench), ("mosaic", MOSAIC, bench_mosaic)):
        if getattr(args, key):
            import torch

            out["device"] = torch.cuda.get_device_name()
            out[key] = timed([c for c in cases if args.match in c.name], args.runs, args.warmup)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
