"""The one-loop attention schedule: every thread runs the loop over blocks of keys; thread
0 keeps the K and V loads S blocks ahead of the MMAs (a stage is refilled once every
thread has read it). BM/64 warpgroups each hold 64 query rows of S, P and O in registers
(docs/attention.md, "The loop level"; the parts are block.py's).

    prologue: Q's window (its own barrier); blocks 0 .. S-1 of K and V into stages 0 .. S-1
    block j (stage s = j mod S, phase p = (j div S) & 1):
        wait full[s]
        S = Q K_j^T (scale-d 0: a fresh accumulator), wait for it
        the online softmax's ops, in the order written; P to an A fragment
        O += P V_j, wait for it; every thread arrives on empty[s]
        thread 0: wait empty[s], load block j + S into stage s
        the carried values (O, the running rows) take the yielded ones
    after the loop: the ops on its results (O / l, the log-sum-exp) and O's store

Thread 0 waits for every warp to finish block j before refilling its stage, so the
warpgroups meet once a block: the warp-specialised schedule (specialized.py) does not.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.attention.block import Parts, kernel_op_of
from lower_tc.passes.to_ptx.attention.kernel import AttentionKernel


def lower(kernel: Operation) -> ptx.KernelOp:
    """One ptx.kernel from one loop-level attention kernel (module docstring)."""
    k = AttentionKernel.read(kernel)
    b, regs, loop = k.b, k.regs, k.loop
    if loop.transpose is not None:
        error_at(loop.transpose, "tc.tile_transpose runs in the producer warpgroup of the warp-specialised schedule; "
                                 "the pipelined one has none (drop its tc.schedule)")
    threads = 128 * k.warpgroups
    parts = Parts.prepare(k, threads)
    consumer = parts.consumer(regs.wg, b.val(ptx.ShrOp, [regs.tid], type="u32", imm=5))
    skip = b.if_(regs.is_thread0, "producer_prologue")
    parts.load_prologue()
    b.emit(ptx.LabelOp, label=skip)
    consumer.wait_q()
    trips, ring = parts.trips, parts.ring

    def body(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
        consumer.block(i, s, p)
        nxt = b.val(ptx.AddOp, [i], type="u32", imm=loop.stages)
        beyond = (b.val(ptx.SetpOp, [nxt], i1, cmp="ge", type="u32", imm=trips) if isinstance(trips, int)
                  else b.val(ptx.SetpOp, [nxt, trips], i1, cmp="ge", type="u32"))
        no_load = b.label("no_load")
        b.emit(ptx.BraOp, [beyond], label=no_load)
        b.emit(ptx.BraOp, [regs.is_thread0], label=no_load, negate=1)
        ring.wait_empty(s, p)
        parts.windows.load_block(nxt, s, ring.full_off)
        b.emit(ptx.LabelOp, label=no_load)
        ring.advance(s, p)

    b.located(loop.op, lambda _: b.counted_loop(trips, body))
    consumer.finish()
    b.emit(ptx.RetOp)
    return kernel_op_of(parts, threads)
