"""What the ops of a single-tile kernel leave for the ones after them, as plain records:
an accumulator (in registers or in tensor memory) and the kernel's one tensor-memory
allocation. The op lowerings (accumulators.py, tcgen05.py, ...) and the kernel's state
(kernel.py) all read them; they import nothing else of the lowering."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type
from xdsl.ir import SSAValue

from lower_tc.dialects import tc

f32 = Float32Type()
#: Threads of the kernel: one warpgroup (32 when it holds only WMMA ops).
THREADS = 128


@dataclass
class TmemAlloc:
    """The kernel's one tensor-memory allocation. A CTA may not tcgen05.alloc again after
    relinquish_alloc_permit (PTX ISA), so every accumulator and A get columns of it."""

    address: SSAValue  # lane 0, column 0
    columns: int
    mbar_offset: int  # the mbarrier every tcgen05.commit arrives on
    a_column: int  # where A from tensor memory goes
    phase: int = 0  # of that mbarrier
    synced: bool = True  # no thread has ld/st tensor memory since the last thread sync
    # the threads waited on that mbarrier since the last thread sync: the next commit may
    # not come before every thread has seen this one complete (an mbarrier keeps one phase
    # bit: a waiter two phases behind would wait for ever)
    waited: bool = False


@dataclass
class Tmem:
    """One tcgen05 accumulator: its columns of the allocation, rows laid out for M = `rows`
    (64: layout F, 128: layout D)."""

    alloc: TmemAlloc
    address: SSAValue  # lane 0 of its first column
    rows: int
    written: bool = False


@dataclass
class Acc:
    """An accumulator being lowered: where it lives and how it starts."""

    type: tc.AccType
    init: str  # "zero" or "load"
    source: SSAValue | None = None  # the C memref for "load"
    regs: SSAValue | None = None  # wgmma register run
    tmem: Tmem | None = None  # tcgen05 tensor-memory accumulator
    origin: SSAValue | None = None  # the tc.acc_zero / tc.acc_load result that made it
