"""Why a kernel could not be run or did not pass its launch: the runtime's errors."""

from __future__ import annotations


class RunError(Exception):
    """The kernel could not be run here (no GPU, wrong GPU, CUDA error, time-out)."""


class ShapeError(RunError):
    """The sizes given for a kernel's arguments do not fit it (a --shape mistake)."""


class KernelError(RunError):
    """The kernel itself failed on the GPU: it faulted or did not finish in time."""


class KernelHung(KernelError):
    """The kernel did not finish in time: it still holds the GPU."""


__all__ = ["KernelError", "KernelHung", "RunError", "ShapeError"]
