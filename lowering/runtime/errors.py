"""Why a kernel could not be run or launched: the runtime's errors.

Two families share this module. `RunError` and its subclasses are the runner's (`lower-tc
run`, the sweeps, the timing): the kernel could not be run here, or failed on the GPU.
`LaunchError` and its subclasses are what a call of a compiled kernel on the caller's
arrays (`lower_tc.Kernel`) raises before anything is launched: each names the argument
and what was expected, so a Python user catches one base class. A failed CUDA call and a
machine without CUDA belong to both families (`CudaError`, `CudaUnavailable`), since the
runner and a Kernel call share the launch path (lowering/runtime/launcher.py).
"""

from __future__ import annotations


class RunError(Exception):
    """The kernel could not be run here (no GPU, wrong GPU, CUDA error, time-out)."""


class ShapeError(RunError):
    """The sizes given for a kernel's arguments do not fit it (a --shape mistake).
    `argument` names the kernel argument where one is to blame."""

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


class KernelError(RunError):
    """The kernel itself failed on the GPU: it faulted or did not finish in time."""


class KernelHung(KernelError):
    """The kernel did not finish in time: it still holds the GPU."""


class LaunchError(Exception):
    """A call of a compiled kernel (or lower_tc.matmul) refused before anything ran
    (except `CudaError`, a CUDA call that failed)."""


class ArgumentError(LaunchError, ValueError):
    """An argument does not fit the kernel: a CPU array, a wrong element type, shape or
    strides, a base address TMA cannot take, an output that overlaps another argument or
    cannot be written. `argument` is the kernel argument's name (``"A"``), or ``"stream"``."""

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


class ArgumentCountError(LaunchError, TypeError):
    """The kernel was called with more or fewer arrays than it takes."""


class DeviceError(LaunchError):
    """The GPU does not fit: a kernel for another GPU (sm_100a on an H100), or arrays on
    two devices."""


class CudaUnavailable(RunError, DeviceError):
    """No CUDA here: the Python bindings (cuda-bindings, cuda-core) or the driver are
    missing, or there is no GPU."""


class CudaError(RunError, LaunchError):
    """A CUDA driver call failed (its error's name and description in the message)."""


__all__ = [
    "ArgumentCountError", "ArgumentError", "CudaError", "CudaUnavailable", "DeviceError",
    "KernelError", "KernelHung", "LaunchError", "RunError", "ShapeError",
]
