"""Launching a compiled kernel: load its cubin, copy the arguments (each followed by a
poisoned guard region), encode the TMA tensor maps, size the grid (the persistent form to
the GPU, in whole clusters), enqueue on a stream, and wait with a time limit.

Everything the launch needs comes from the kernel's contract (`KernelInfo`) with its sizes
resolved (lowering/runtime/sizes.py). Every driver call is checked (session.Cuda).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from lower_tc.layout.kernel_info import KernelInfo, PersistentGrid
from lower_tc.lowering.runtime.errors import KernelError, KernelHung, RunError
from lower_tc.lowering.runtime.session import Cuda, mark_lost, session

#: Poisoned bytes allocated after every buffer: a write past a buffer's end lands here.
GUARD_BYTES = 256
GUARD_FILL = 0xA5

#: CUtensorMapDataType per element type (8-bit types move as bytes).
TMA_DTYPES = {"f16": 6, "bf16": 9, "tf32": 7, "f32": 7, "e4m3": 0, "e5m2": 0, "s8": 0, "u8": 0}


@dataclass
class Loaded:
    """A kernel ready to launch: its module and function, the device buffers (each
    followed by a poisoned guard) and the packed parameter array."""

    cuda: Cuda
    module: Any
    function: Any
    allocations: list[Any]
    pointers: list[Any]
    params: np.ndarray
    holders: list[Any]  # keeps the parameter values alive while params points at them
    smem: int
    grid: tuple[int, int, int]
    threads: int


def load(cuda: Cuda, cubin: bytes | None, info: KernelInfo, host_args: list[np.ndarray], allocations: list[Any]) -> Loaded:
    """Loads the module, copies the arguments (and a guard after each) to the device and
    builds the TMA tensor maps. Allocations are appended to `allocations` as they are made,
    so the caller can free them whatever fails. `info` must have its sizes resolved."""
    if not resolved(info):
        raise RunError(f"kernel {info.name} has sizes known only at launch: resolve_sizes first")
    cu = cuda.cu
    module = cuda.call("cuModuleLoadData", cubin)
    allocations.append(("module", module))
    function = cuda.call("cuModuleGetFunction", module, info.name.encode())
    smem = int(info.smem_bytes)
    if smem > 48 * 1024:  # dynamic shared memory beyond 48 KiB must be opted into
        cuda.call(
            "cuFuncSetAttribute", function,
            cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem,
        )
    pointers = []
    guard = np.full(GUARD_BYTES, GUARD_FILL, dtype=np.uint8)
    for array in host_args:
        dptr = cuda.call("cuMemAlloc", array.nbytes + GUARD_BYTES)
        allocations.append(("mem", dptr))
        cuda.call("cuMemcpyHtoD", dptr, array.ctypes.data, array.nbytes)
        cuda.call("cuMemcpyHtoD", int(dptr) + array.nbytes, guard.ctypes.data, GUARD_BYTES)
        pointers.append(dptr)
    holders: list[Any] = [np.array([int(p)], dtype=np.uint64) for p in pointers]
    holders += [np.array([int(p.value)], dtype=np.uint32) for p in info.size_params or ()]  # type: ignore[arg-type]
    addresses = [h.ctypes.data for h in holders]
    for tm in info.tensor_maps:
        assert tm.global_dims is not None and tm.global_strides is not None  # resolved()
        tmap = cuda.call(
            "cuTensorMapEncodeTiled",
            cu.CUtensorMapDataType(TMA_DTYPES[tm.dtype]),
            2,
            pointers[tm.arg],
            [cu.cuuint64_t(int(d)) for d in tm.global_dims],
            [cu.cuuint64_t(int(s)) for s in tm.global_strides],
            [cu.cuuint32_t(int(b)) for b in tm.box],
            [cu.cuuint32_t(1), cu.cuuint32_t(1)],
            cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
            cu.CUtensorMapSwizzle(tm.tma_swizzle_code),
            cu.CUtensorMapL2promotion(int(tm.l2_promotion or 0)),
            cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
        holders.append(tmap)
        addresses.append(tmap.getPtr())
    return Loaded(
        cuda, module, function, allocations, pointers, np.array(addresses, dtype=np.uint64),
        holders, smem, launch_grid(cuda, info), int(info.threads),
    )


def launch_grid(cuda: Cuda, info: KernelInfo) -> tuple[int, int, int]:
    """The grid in CTAs: a persistent kernel gets one CTA per SM, at most one per tile,
    in whole clusters (the tile count is a multiple of the cluster)."""
    x, y, z = info.launch_grid
    if isinstance(x, PersistentGrid):
        dev = cuda.call("cuCtxGetDevice")
        sms = cuda.call("cuDeviceGetAttribute", cuda.cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)
        x = min(int(x.tiles), int(sms))
        x -= x % info.cluster_size
    return int(x), int(y), int(z)  # type: ignore[arg-type]  # resolved(): counts only


def resolved(info: KernelInfo) -> bool:
    """Every size the launch needs is known: argument shapes and strides, size parameter
    values, tensor map dimensions, grid counts (a persistent entry is sized here)."""
    return (
        info.static
        and all(p.value is not None for p in info.size_params or ())
        and all(t.global_dims is not None and t.global_strides is not None for t in info.tensor_maps)
        and all(isinstance(g, int | PersistentGrid) for g in info.launch_grid)
    )


def enqueue(k: Loaded, stream: Any) -> None:
    """One launch of the loaded kernel on `stream` (asynchronous)."""
    gx, gy, gz = k.grid
    k.cuda.call(
        "cuLaunchKernel", k.function, gx, gy, gz, k.threads, 1, 1, k.smem, stream,
        k.params.ctypes.data, 0,
    )


def launch(
    cubin: bytes | None,
    info: KernelInfo,
    host_args: list[np.ndarray],
    timeout: float = 10.0,
) -> tuple[list[np.ndarray], str, list[int]]:
    """Runs one kernel on the first GPU. Returns the arguments as copied back, the
    device, and per argument how many bytes of the poisoned guard region after its
    buffer the kernel changed (a write past the buffer's end)."""
    if not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"the time limit must be a positive number of seconds, not {timeout}")
    cuda, _, device_name = session(info.target)
    allocations: list[Any] = []
    stream = None
    try:
        k = load(cuda, cubin, info, host_args, allocations)
        stream = cuda.call("cuStreamCreate", 0)
        enqueue(k, stream)
        wait_for(cuda, stream, info.name, timeout)
        results, overruns = [], []
        for array, dptr in zip(host_args, k.pointers):
            back = np.empty_like(array)
            cuda.call("cuMemcpyDtoH", back.ctypes.data, dptr, array.nbytes)
            results.append(back)
            tail = np.empty(GUARD_BYTES, dtype=np.uint8)
            cuda.call("cuMemcpyDtoH", tail.ctypes.data, int(dptr) + array.nbytes, GUARD_BYTES)
            overruns.append(int((tail != GUARD_FILL).sum()))
    except KernelHung:
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
    """Frees what a launch took. Checked after a clean run; after a failure each call is
    still made, but its status cannot replace the error that is already on its way."""
    calls = [("cuStreamDestroy", stream)] if stream is not None else []
    calls += [("cuMemFree", h) for kind, h in allocations if kind == "mem"]
    calls += [("cuModuleUnload", h) for kind, h in allocations if kind == "module"]
    for name, handle in calls:
        if check:
            cuda.call(name, handle)
        else:
            try:
                cuda.call(name, handle)
            except RunError:
                pass


__all__ = ["GUARD_BYTES", "GUARD_FILL", "Loaded", "enqueue", "launch", "launch_grid", "load", "release", "resolved", "wait_for"]
