"""What a schedule leaves for the rest of the kernel once it has lowered the K loop: how
to store D after the loop (unless it stored every tile inside), who waits for what at the
exit, and the launch facts only the schedule knows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lower_tc.dialects.tc_gemm import WindowStoreOp
from lower_tc.layout.kernel_info import WorkspaceInfo
from lower_tc.passes.to_ptx.gemm.epilogue_tma import TmaStore
from lower_tc.passes.to_ptx.gemm.kloop import KLoop


@dataclass(frozen=True)
class Lowered:
    """A lowered K loop (or tile loop) and what the kernel does after it."""

    loop: KLoop
    threads: int
    store: Callable[[WindowStoreOp], None] | None  # None: the tiles are stored in the loop
    tma_store: TmaStore | None = None  # its stores are waited for before the exit
    exit_label: str | None = None  # where threads with no part in the epilogue go
    cluster: int = 1  # CTAs per cluster: they leave together
    at_exit: Callable[[], None] | None = None  # after the cluster barrier
    max_registers: int | None = None  # a register cap at entry (setmaxnreg needs one)
    persistent_tiles: int | None = None  # one CTA per SM walks this many tiles
    workspace: WorkspaceInfo | None = None  # scratch memory the launcher passes (global split-K)
    stream_k_steps: int = 0  # stream-K: the K steps its CTAs share (at most one CTA each; 0: not stream-K)
