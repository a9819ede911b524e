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


class LaunchError(Exception):
    """A call of a compiled kernel (or lower_tc.matmul) refused before anything ran."""


class ArgumentError(LaunchError, ValueError):
    """An argument the kernel cannot take; `argument` names it."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument


__all__ = ["ArgumentError", "KernelError", "KernelHung", "LaunchError", "RunError", "ShapeError"]
