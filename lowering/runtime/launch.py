"""The runner's launch: copy the arguments to fresh device buffers (each between two
poisoned guard regions), launch through the one launch path a compiled kernel's call takes
(lowering/runtime/launcher.py, by way of `Kernel.prepare`: the module, the tensor maps, the
parameters, the grid), wait with a time limit, copy back and check the guards.

Everything the launch needs comes from the kernel's contract (`KernelInfo`) with its sizes
resolved (lowering/runtime/sizes.py). Every driver call is checked (session.Cuda).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.lowering.runtime.arrays import ArrayView
from lower_tc.lowering.runtime.callable import Kernel
from lower_tc.lowering.runtime.errors import KernelError, KernelHung, LaunchError, RunError
from lower_tc.lowering.runtime.launcher import LaunchPlan, enqueue, resolved
from lower_tc.lowering.runtime.session import Cuda, mark_lost, session

#: Poisoned bytes allocated before and after every buffer: a write past a buffer's end
#: (or before its start: a negative offset, a batch index gone wrong) lands here. A
#: multiple of 16, so the buffer itself stays aligned for TMA.
GUARD_BYTES = 256
GUARD_FILL = 0xA5

#: Kernels whose launch never finished: their modules stay loaded (unloading would wait
#: for the kernel forever), as the process launches nothing more.
_HUNG: list[Kernel] = []


@dataclass
class Loaded:
    """A kernel ready to launch on the runner's buffers: the callable kernel (its module
    stays loaded while this lives), the device buffers' addresses (each buffer between two
    poisoned guards) and the launch built for them."""

    cuda: Cuda
    kernel: Kernel
    allocations: list[Any]
    pointers: list[int]
    plan: LaunchPlan


def load(cuda: Cuda, cubin: bytes | None, info: KernelInfo, host_args: list[np.ndarray], allocations: list[Any]) -> Loaded:
    """Copies the arguments (each between two guards) to the device and builds the launch
    through the kernel's own path (`Kernel.prepare`). Allocations are appended to
    `allocations` as they are made, so the caller can free them whatever fails. `info`
    must have its sizes resolved."""
    if not resolved(info):
        raise RunError(f"kernel {info.name} has sizes known only at launch: resolve_sizes first")
    if cubin is None:
        raise RunError(f"kernel {info.name} has no cubin: compile it with assemble=True")
    kernel = Kernel(cubin, info)
    pointers = []
    guard = np.full(GUARD_BYTES, GUARD_FILL, dtype=np.uint8)
    if len(host_args) != len(info.args):  # each buffer is the address of one argument's matrix
        raise RunError(f"kernel {info.name} takes {len(info.args)} arguments, {len(host_args)} buffers given")
    for array in host_args:
        base = cuda.call("cuMemAlloc", array.nbytes + 2 * GUARD_BYTES)
        allocations.append(("mem", base))
        dptr = int(base) + GUARD_BYTES
        cuda.call("cuMemcpyHtoD", int(base), guard.ctypes.data, GUARD_BYTES)
        cuda.call("cuMemcpyHtoD", dptr, array.ctypes.data, array.nbytes)
        cuda.call("cuMemcpyHtoD", dptr + array.nbytes, guard.ctypes.data, GUARD_BYTES)
        pointers.append(dptr)
    device = int(cuda.call("cuCtxGetDevice"))
    views = [
        ArrayView(int(p), tuple(a.shape), tuple(a.strides), a.dtype, device)  # type: ignore[arg-type]  # resolved()
        for p, a in zip(pointers, info.args)
    ]
    try:
        plan = kernel.prepare(views)
    except LaunchError as err:  # the runner's buffers are made to fit: a contract it cannot launch
        raise RunError(f"kernel {info.name}: {err}") from err
    return Loaded(cuda, kernel, allocations, pointers, plan)


def launch(
    cubin: bytes | None,
    info: KernelInfo,
    host_args: list[np.ndarray],
    timeout: float = 10.0,
) -> tuple[list[np.ndarray], str, list[int]]:
    """Runs one kernel on the first GPU. Returns the arguments as copied back, the
    device, and per argument how many bytes of the poisoned guard regions before and
    after its buffer the kernel changed (a write outside the buffer)."""
    if not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"the time limit must be a positive number of seconds, not {timeout}")
    cuda, _, device_name = session(info.target)
    allocations: list[Any] = []
    stream = None
    k = None
    try:
        k = load(cuda, cubin, info, host_args, allocations)
        stream = cuda.call("cuStreamCreate", 0)
        enqueue(cuda, k.plan, stream)
        wait_for(cuda, stream, info.name, timeout)
        results, overruns = [], []
        for array, dptr in zip(host_args, k.pointers):
            back = np.empty_like(array)
            cuda.call("cuMemcpyDtoH", back.ctypes.data, dptr, array.nbytes)
            results.append(back)
            head, tail = np.empty(GUARD_BYTES, dtype=np.uint8), np.empty(GUARD_BYTES, dtype=np.uint8)
            cuda.call("cuMemcpyDtoH", head.ctypes.data, dptr - GUARD_BYTES, GUARD_BYTES)
            cuda.call("cuMemcpyDtoH", tail.ctypes.data, dptr + array.nbytes, GUARD_BYTES)
            overruns.append(int((head != GUARD_FILL).sum() + (tail != GUARD_FILL).sum()))
    except KernelHung:
        if k is not None:
            _HUNG.append(k.kernel)
        raise  # freeing under a running kernel would wait for it forever
    except BaseException:
        release(cuda, stream, allocations, check=False)
        raise
    release(cuda, stream, allocations, check=True)
    return results, device_name, overruns


def wait_for(cuda: Cuda, stream: Any, name: str, timeout: float) -> None:
    """Polls the stream until the work on it is done; a kernel past `timeout` seconds is
    reported (and this process launches nothing more), a fault as its CUDA error."""
    cu = cuda.cu
    deadline = time.monotonic() + timeout
    while True:
        status = cu.cuStreamQuery(stream)
        status = status[0] if isinstance(status, tuple) else status
        if status == cu.CUresult.CUDA_ERROR_NOT_READY:
            if time.monotonic() > deadline:
                reason = f"kernel {name} did not finish within {timeout:g} s"
                mark_lost(reason)
                raise KernelHung(
                    f"{reason}; it still runs, so its memory is left allocated and this "
                    "process launches nothing more (the driver ends the kernel when the "
                    "process exits)"
                )
            time.sleep(0.001)
            continue
        if int(status) != 0:
            try:
                cuda.call("cuStreamSynchronize", stream)  # raises with the error's name
            except RunError as err:
                mark_lost(f"kernel {name} faulted ({err})")  # a sticky error
                raise KernelError(f"kernel {name} failed: {err}") from None
        return


def release(cuda: Cuda, stream: Any, allocations: list[Any], *, check: bool) -> None:
    """Frees what a launch took (the module goes with its Kernel). Checked after a clean
    run; after a failure each call is still made, but its status cannot replace the error
    that is already on its way."""
    calls = [("cuStreamDestroy", stream)] if stream is not None else []
    calls += [("cuMemFree", h) for kind, h in allocations if kind == "mem"]
    for name, handle in calls:
        if check:
            cuda.call(name, handle)
        else:
            try:
                cuda.call(name, handle)
            except RunError:
                pass


__all__ = ["GUARD_BYTES", "GUARD_FILL", "Loaded", "launch", "load", "release", "wait_for"]
