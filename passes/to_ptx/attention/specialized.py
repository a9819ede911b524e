"""The warp-specialised attention schedule (the default): BM/64 consumer warpgroups and a
producer warpgroup after them (docs/attention.md, "The loop level"; the parts are
block.py's).

The producer gives registers back (`setmaxnreg.dec`), and its first thread loads Q, then
block j of K and V into stage j mod S once the consumers have released it (the ring's
empty barrier of the round before), as far ahead as the ring allows. The consumers take
registers (`setmaxnreg.inc`), wait for Q, and each runs the loop on its own 64 query rows,
overlapping each block's softmax with the previous block's P V (block.py,
`Consumer.overlapped_loop`; FlashAttention-3's intra-warpgroup overlap):

    block 0: wait full[0]; S_0 = Q K_0^T; its softmax; O carried; P_0 packed
    block j >= 1 (stage s, the block before's stage s'):
        wait full[s]; issue S_j = Q K_j^T; issue O += P_{j-1} V_{j-1}
        wgmma.wait_group 1: S_j is done; block j's softmax runs while P V does
        wgmma.wait_group 0; release stage s'; O carried to the new maximum; P_j packed
    after the loop: O += P_last V_last

No consumer waits for another, so one warpgroup's softmax also runs while the other's
MMAs do.

Where the loop transposes V (tc.tile_transpose: an 8-bit V with its head dim contiguous),
the whole producer warpgroup works (transpose.py): for block j (stage s) every producer
thread waits for full[s], moves its share of V's MN-major tile into the K-major one,
fences (generic to async proxy) and arrives on ready[s]; then its first thread refills
the stage of block j - 1 with block j - 1 + S once the consumers release it. The
consumers wait for full[s] before Q K_j^T and for ready[s] before P V_j, so the
transposition of block j runs beside Q K_j^T and block j - 1's softmax. A stage is released one block later than without the overlap, so the ring wants
three stages where shared memory has room.

With `tc.pingpong` on the kernel the consumers also take turns at the tensor cores: each
waits at its named barrier before issuing a block's two MMAs and arrives at the next
one's after (block.py, `Turns`; FlashAttention-3's inter-warpgroup ping-pong). On the
H100 it changed the time by -2% to +3% (docs/attention.md, the ablation), so it is an
option, not the default.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.attention.block import Parts, kernel_op_of
from lower_tc.passes.to_ptx.attention.kernel import AttentionKernel
from lower_tc.passes.to_ptx.attention.transpose import TRANSPOSER_REGISTERS, VTransposer
from lower_tc.passes.to_ptx.gemm.specialized import PRODUCER_REGISTERS, consumer_registers, entry_registers


def lower(kernel: Operation) -> ptx.KernelOp:
    """One ptx.kernel from one loop-level attention kernel (module docstring)."""
    k = AttentionKernel.read(kernel)
    b, regs, loop = k.b, k.regs, k.loop
    wgs = k.warpgroups
    if not 1 <= wgs <= 3:
        error_at(k.q_load, f"a warp-specialised attention kernel has 1 to 3 consumer warpgroups (64 queries each), not {wgs}")
    if tc.PINGPONG_ATTR in kernel.attributes and wgs < 2:
        error_at(kernel, f"{tc.PINGPONG_ATTR}: the consumer warpgroups take turns, and this kernel has one "
                         f"({k.q_ring.layout.mn} queries a block, 64 a warpgroup)")
    parts = Parts.prepare(k, 128 * wgs)
    is_producer = b.val(ptx.SetpOp, [regs.wg], i1, cmp="eq", type="u32", imm=wgs)
    exit_label = b.label("exit")
    consumer_label = b.if_(is_producer, "consumer")
    # -- the producer warpgroup (the last)
    transposing = loop.transpose is not None
    producer = TRANSPOSER_REGISTERS if transposing else PRODUCER_REGISTERS
    b.emit(ptx.SetMaxNRegOp, action="dec", count=producer,
           comment="producer warpgroup: TMA and V's transposition" if transposing else "producer warpgroup: TMA only")
    if transposing:
        transposing_producer(parts)
        b.emit(ptx.BraOp, label=exit_label)
    else:
        tma_producer(parts, exit_label)
    # -- the consumer warpgroups
    b.emit(ptx.LabelOp, label=consumer_label)
    if consumer_registers(wgs, producer) > entry_registers(wgs):
        b.emit(ptx.SetMaxNRegOp, action="inc", count=consumer_registers(wgs, producer),
               comment="consumer warpgroups: the MMAs and the softmax")
    consumer = parts.consumer(regs.wg, b.val(ptx.ShrOp, [regs.tid], type="u32", imm=5))
    consumer.wait_q()
    consumer.overlapped_loop(pingpong=tc.PINGPONG_ATTR in kernel.attributes)
    consumer.finish()
    b.emit(ptx.LabelOp, label=exit_label)
    b.emit(ptx.RetOp)
    return kernel_op_of(parts, 128 * wgs + 128, entry_registers(wgs))


def tma_producer(parts: Parts, exit_label: str) -> None:
    """The producer's first thread loads Q and blocks 0 .. S-1, then block j + S into stage
    s once the consumers release block j; the other threads leave."""
    k = parts.k
    b, regs, loop = k.b, k.regs, k.loop
    leader = b.val(ptx.SetpOp, [regs.tid], i1, cmp="eq", type="u32", imm=128 * k.warpgroups)
    b.emit(ptx.BraOp, [leader], label=exit_label, negate=1)
    parts.load_prologue()
    ring, trips = parts.ring, parts.trips

    def produce(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
        ring.wait_empty(s, p)  # round r - 1 of stage s released: blocks j - S
        parts.windows.load_block(b.val(ptx.AddOp, [j], type="u32", imm=loop.stages), s, ring.full_off)
        ring.advance(s, p)

    # blocks S .. trips - 1, into stage j mod S once the consumers release round r - 1
    rest = trips - loop.stages if isinstance(trips, int) else b.val(ptx.SubOp, [trips, b.imm(loop.stages, "s32")], type="s32")
    if not isinstance(rest, int) or rest > 0:
        b.counted_loop(rest, produce)
    b.emit(ptx.BraOp, label=exit_label)


def transposing_producer(parts: Parts) -> None:
    """The whole producer warpgroup transposes V block by block; its first thread also
    loads (module docstring)."""
    k = parts.k
    b, regs, loop = k.b, k.regs, k.loop
    assert loop.transpose is not None
    thread = b.val(ptx.SubOp, [regs.tid], type="u32", imm=128 * k.warpgroups)
    transposer = VTransposer.prepare(b, regs.smem, loop.transpose, loop.v_ring, loop.pv_ring, thread)
    leader = b.val(ptx.SetpOp, [thread], i1, cmp="eq", type="u32", imm=0)
    skip = b.if_(leader, "prologue_loaded")
    parts.load_prologue()
    b.emit(ptx.LabelOp, label=skip)
    ring, trips, stages = parts.ring, parts.trips, loop.stages
    assert parts.ready_off is not None
    # block j refills the stage of block j - 1 with block j - 1 + S: for 1 <= j <= trips - S
    last = trips - stages if isinstance(trips, int) else b.val(ptx.SubOp, [trips, b.imm(stages, "s32")], type="s32")

    def body(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
        ring.wait_full(s, p)
        transposer.stage(s)
        b.emit(ptx.FenceProxyAsyncOp, comment="V's K-major stores, before wgmma reads them (async proxy)")
        b.emit(ptx.MbarrierArriveOp, [ring.barrier(s)], offset=parts.ready_off, comment="this thread's share of V is K-major")
        no_load = b.label("no_load")
        b.emit(ptx.BraOp, [leader], label=no_load, negate=1)
        b.emit(ptx.BraOp, [b.val(ptx.SetpOp, [j], i1, cmp="lt", type="s32", imm=1)], label=no_load)
        beyond = (b.val(ptx.SetpOp, [j], i1, cmp="gt", type="s32", imm=last) if isinstance(last, int)
                  else b.val(ptx.SetpOp, [j, last], i1, cmp="gt", type="s32"))
        b.emit(ptx.BraOp, [beyond], label=no_load)
        prev, prev_p, _ = ring.previous(s, p)
        ring.wait_empty(prev, prev_p)  # block j - 1 released
        parts.windows.load_block(b.val(ptx.AddOp, [j], type="s32", imm=stages - 1), prev, ring.full_off)
        b.emit(ptx.LabelOp, label=no_load)
        ring.advance(s, p)

    b.located(loop.op, lambda _: b.counted_loop(trips, body))
