"""Host memory a run takes, checked against what the machine has before anything is
allocated: sizes known only at launch can ask for far more than there is (a 2^31 x 16
matrix), and numpy would otherwise fail half-way (MemoryError) or the kernel's out-of-memory
killer would end the process without a word."""

from __future__ import annotations

import math
import os

import numpy as np

from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
from lower_tc.lowering.runtime.errors import RunError
from lower_tc.lowering.runtime.inputs import STORAGE, buffer_elements
from lower_tc.lowering.runtime.sizes import dims

GIB = 1 << 30


def _buffer_bytes(a: ArgInfo) -> int:
    return buffer_elements(a.shape, a.strides) * np.dtype(STORAGE[a.dtype]).itemsize  # type: ignore[arg-type]


def host_bytes(info: KernelInfo, checked: bool = True) -> int:
    """At least what a run of the resolved kernel `info` holds in host memory at once:
    every argument's buffer and its copy back from the device, the float64 draw of the
    largest input, and with `checked` (a run compared with numpy rather than timed) each
    argument as a float64 matrix for the reference and the comparison."""
    total = sum(2 * _buffer_bytes(a) for a in info.args)
    total += 8 * max((buffer_elements(a.shape, a.strides) for a in info.args), default=0)  # type: ignore[arg-type]
    if checked:
        total += sum(8 * math.prod(a.shape) for a in info.args)  # type: ignore[misc]
    return total


def available_bytes() -> int | None:
    """Host memory available to a new allocation (Linux: MemAvailable), or None where the
    system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_host_memory(info: KernelInfo, checked: bool = True, available: int | None = None) -> None:
    """Raises RunError, naming the largest argument, when the run (see host_bytes) needs
    more host memory than is available (`available`, default: available_bytes())."""
    free = available_bytes() if available is None else available
    if free is None or not info.args:
        return
    need = host_bytes(info, checked)
    if need <= free:
        return
    big = max(info.args, key=_buffer_bytes)
    raise RunError(
        f"kernel {info.name}: the run needs at least {need / GIB:.1f} GiB of host memory and "
        f"{free / GIB:.1f} GiB is available (its largest argument, {big.param[2:]}, is {dims(big)} "
        f"{big.dtype}: {_buffer_bytes(big) / GIB:.1f} GiB, held with its copy from the device and "
        "its float64 values)"
    )


__all__ = ["available_bytes", "check_host_memory", "host_bytes"]
