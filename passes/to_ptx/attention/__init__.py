"""The lowering of a loop-level attention kernel (a grid of CTAs, each a block of
queries; an `scf.for` over blocks of keys carrying O and the online softmax's running
rows) to the ptx dialect (docs/attention.md, "The loop level").

    kernel.py       the kernel read and checked: Q's window, the key loop, O's store
    block.py        the parts: windows, ring, a consumer warpgroup's block of keys, metadata
    specialized.py  schedule (the default): a producer warpgroup loading K and V ahead,
                    consumer warpgroups running the loop each on its own rows
    pipelined.py    schedule (`tc.schedule = #tc.gemm_schedule<pipelined>`): one loop
                    for every thread, thread 0 loading between the blocks
    tcgen05.py      sm_100a's: one warpgroup, S, P and O in tensor memory, one loop

The softmax's ops in the loop are lowered by their single-tile lowerings
(passes/to_ptx/online_softmax.py); the windows, the ring and O's store are the GEMM
lowering's parts (passes/to_ptx/gemm/).
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.attention import pipelined, specialized, tcgen05
from lower_tc.passes.to_ptx.attention.kernel import is_attention_kernel


def lower_attention_kernel(kernel: Operation) -> ptx.KernelOp:
    """The kernel's schedule: on sm_100a the tcgen05 loop; else warp-specialised unless
    its tc.schedule says pipelined."""
    if kernel.attributes[tc.TARGET_ATTR].data == "sm_100a":  # type: ignore[attr-defined]
        return tcgen05.lower(kernel)
    if tc.SCHEDULE_ATTR not in kernel.attributes:
        return specialized.lower(kernel)
    try:
        options = tc.kernel_schedule(kernel)
    except VerifyException as err:
        error_at(kernel, str(err))
    named = tc.GemmSchedule(schedule=options.schedule)
    for option in tc.GEMM_OPTIONS:
        if option.on_kernel and getattr(options, option.name) != getattr(named, option.name):
            error_at(kernel, f"an attention kernel's {tc.SCHEDULE_ATTR} names its schedule only "
                             f"(#tc.gemm_schedule<warp_specialized> or <pipelined>): {option.name} is a GEMM option")
    if options.schedule == "pipelined":
        if tc.PINGPONG_ATTR in kernel.attributes:
            error_at(kernel, f"{tc.PINGPONG_ATTR} takes turns between the consumer warpgroups of the warp-specialised "
                             "schedule; the pipelined one has none")
        return pipelined.lower(kernel)
    return specialized.lower(kernel)


__all__ = ["is_attention_kernel", "lower_attention_kernel"]
