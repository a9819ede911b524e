"""The warp-specialised wgmma GEMM (`tc.schedule = "warp_specialized"` on the kernel).

Warpgroup 0 is the producer: it gives registers back (`setmaxnreg.dec` to 40) and its
thread 0 only issues TMA loads. For load j (stage s = j mod S, round r = j div S) it
waits for "empty[s]" to complete round r - 1, with parity (r & 1) ^ 1: for r = 0 that is
the phase before the barrier's first, which counts as complete, so the first S loads do
not wait. Warpgroups 1 .. BM/64 are the consumers: they take registers (`setmaxnreg.inc`
to 232), own 64 rows each, and run the MMA loop alone: wait for "full[s]", issue the
K-slices' wgmma, commit, `wgmma.wait_group 1`, and release iteration i-1's stage on its
"empty" barrier. The loads run as far ahead as the ring allows, without waiting for any
MMA to be issued; the epilogue is the consumers'.

ptxas honours setmaxnreg only under a register cap at entry (`.maxnreg`) with each role
one branch of an if/else; the kernel is capped at 65536 / threads registers.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx
from lower_tc.passes.diagnostics import error_at
from lower_tc.passes.to_ptx.gemm import GemmLowering, Ring

#: Registers per thread of the producer after setmaxnreg.dec.
PRODUCER_REGISTERS = 40


def entry_registers(warpgroups: int) -> int:
    """The cap at entry: the SM's 65536 registers over every thread (multiples of 8)."""
    return min(256, 65536 // (128 * (warpgroups + 1)) // 8 * 8)


def consumer_registers(warpgroups: int) -> int:
    """What each consumer thread may grow to: setmaxnreg.inc waits for registers that
    setmaxnreg.dec released, so the consumers share what the producer gives back (seen on
    the H100: four consumers asking for more than that hung). Two consumers: 168 + 64 = 232."""
    cap = entry_registers(warpgroups)
    released = 128 * (cap - PRODUCER_REGISTERS)
    return min(256, cap + released // (128 * warpgroups) // 8 * 8)


class SpecializedGemmLowering(GemmLowering):
    """wgmma with a producer warpgroup and BM/64 consumer warpgroups."""

    def _threads(self, mma: Operation, ring_a: Ring) -> int:
        threads = super()._threads(mma, ring_a)
        if not 1 <= self.warpgroups <= 4:
            error_at(mma, f"a warp-specialised GEMM has 1 to 4 consumer warpgroups, not {self.warpgroups}")
        # rows: the consumers are warpgroups 1.., so a consumer's row block is wg - 1
        self.producer_wg = self.wg
        self.wg = self.val(ptx.AddOp, [self.wg], type="u32", imm=-1 & 0xFFFFFFFF)
        self.max_registers = entry_registers(self.warpgroups)
        return threads + 128

    def _schedule(self, mma: Operation) -> None:
        is_producer = self.val(ptx.SetpOp, [self.producer_wg], i1, cmp="eq", type="u32", imm=0)
        self.exit_label = self.label("exit")
        consumer = self.if_(is_producer, "consumer")
        # -- producer warpgroup
        self.emit(ptx.SetMaxNRegOp, action="dec", count=PRODUCER_REGISTERS, comment="producer warpgroup: TMA only")
        self.emit(ptx.BraOp, [self.is_thread0], label=self.exit_label, negate=1)

        def produce(j: SSAValue, s: SSAValue, p: SSAValue) -> None:
            flipped = self.val(ptx.XorOp, [p], type="b32", imm=1)
            self.wait(self.barrier(s, self.empty_off), flipped, self.empty_off)
            self._issue(j, s)
            self.advance(s, p, flipped)

        self.counted_loop(self.trips, produce)
        self.emit(ptx.BraOp, label=self.exit_label)
        # -- consumer warpgroups
        self.emit(ptx.LabelOp, label=consumer)
        if consumer_registers(self.warpgroups) > entry_registers(self.warpgroups):
            self.emit(ptx.SetMaxNRegOp, action="inc", count=consumer_registers(self.warpgroups), comment="consumer warpgroups: the MMAs and the epilogue")
        self._setup(mma)

        def consume(i: SSAValue, s: SSAValue, p: SSAValue) -> None:
            from lower_tc.passes.to_ptx.gemm import Step

            step = Step(i, s, p, *self.previous_stage(s, p))
            step.first = self.val(ptx.SetpOp, [i], i1, cmp="eq", type="u32", imm=0)
            step.prev_empty = self.barrier(step.prev, self.empty_off)
            self._consume(step)
            self.advance(s, p, step.p_flip)

        self.counted_loop(self.trips, consume)
        self._drain()
