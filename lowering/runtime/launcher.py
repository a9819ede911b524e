"""The one launch path, shared by a compiled kernel called on the caller's arrays
(`Kernel`, lowering/runtime/callable.py) and the runner (`lower-tc run`, the sweeps, the
timing: lowering/runtime/launch.py):

1. the module, loaded once per device with cuda.core (`ObjectCode.from_cubin`,
   `get_kernel`), after checking that the device runs the kernel's target; its function
   in the device's primary context, opted into dynamic shared memory above 48 KiB;
2. the TMA tensor maps, encoded with the driver's `cuTensorMapEncodeTiled`
   (cuda.bindings) from the kernel's resolved contract and the arguments' addresses;
3. the grid: the contract's counts, a persistent kernel's one CTA per SM (at most one
   per tile) in whole clusters;
4. the parameter block in the PTX entry's order: a u64 address per argument, the
   workspace's where the contract has one (the caller's: `Kernel` owns it), the .u32
   size parameters, each 128-byte tensor map by value;
5. `cuLaunchKernel` on the caller's stream; for a kernel whose first instruction is
   `griddepcontrol.wait` (KernelInfo.dependent_launch: every whole GEMM and attention
   loop), `cuLaunchKernelEx` with programmatic stream serialization allowed, so that its
   launch overlaps the end of the kernel before it in the stream (programmatic dependent
   launch; docs/performance.md measured 1-2 us a launch). LOWER_TC_DEPENDENT_LAUNCH=0
   launches every kernel plainly.

Why the launch is the driver's `cuLaunchKernel` and not cuda.core's `launch`: cuda.core
packs its own parameter block from Python values and takes a 128-byte tensor map only as
its own `TensorMapDescriptor`, which it encodes itself from a `StridedMemoryView`; the
block packed here holds the maps cuTensorMapEncodeTiled made, as the runner has always
launched them. The cluster size is compiled into the kernel (`.reqnctapercluster`), so
the grid is given in CTAs and the launch needs no cluster attribute. Nothing here
allocates device memory or synchronises; the module load (first call on a device) is the
only step a CUDA graph capture cannot contain.
"""

from __future__ import annotations

import functools
import os

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lower_tc.layout.kernel_info import KernelInfo, PersistentGrid, TensorMap
from lower_tc.lowering.runtime.errors import DeviceError, RunError
from lower_tc.lowering.runtime.session import TARGET_CAPABILITY, Cuda

#: CUtensorMapDataType per element type (8-bit types move as bytes; tf32 as f32).
TMA_DTYPES = {"f16": 6, "bf16": 9, "tf32": 7, "f32": 7, "e4m3": 0, "e5m2": 0, "s8": 0, "u8": 0}

#: Dynamic shared memory above this must be opted into per function.
DEFAULT_SMEM_LIMIT = 48 * 1024


@dataclass(frozen=True, eq=False)
class DeviceKernel:
    """A kernel loaded on one device: cuda.core's module and kernel (the module is
    unloaded when they are freed), the function in the device's primary context, that
    context, and the device's SM count (for the persistent grid)."""

    device_id: int
    code: Any
    kernel: Any
    function: Any
    context: Any
    sms: int


@dataclass(frozen=True, eq=False)
class LaunchPlan:
    """Everything one launch needs: the function, grid, block, dynamic shared memory and
    the packed parameter block (`holders` keep the values it points at alive)."""

    function: Any
    grid: tuple[int, int, int]
    threads: int
    smem: int
    params: np.ndarray
    holders: tuple[Any, ...]
    dependent: bool = False  # the kernel waits first: launched with programmatic stream serialization allowed
    #: cuLaunchKernelEx's configuration per stream, built at a dependent launch's first call on
    #: that stream (building one costs ~4 us of host time; a call's host time is what users measure)
    configs: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @functools.cached_property
    def params_address(self) -> int:
        """The parameter block's address, read once (numpy's `ctypes.data` costs
        microseconds on every read, and a call's host time is what users measure)."""
        return int(self.params.ctypes.data)


def target_problem(info: KernelInfo, capability: tuple[int, int], device: str) -> str | None:
    """Why `device` (of compute capability `capability`) cannot run the kernel, or None."""
    need = TARGET_CAPABILITY.get(info.target)
    if need is None:
        return f"kernel {info.name} is for {info.target}, a target lower-tc does not launch"
    if tuple(capability) != need:
        return (
            f"kernel {info.name} is for {info.target} (compute capability {need[0]}.{need[1]}); {device} is "
            f"{capability[0]}.{capability[1]} ('a' targets run on no other generation: compile for its target)"
        )
    return None


def load_on_device(cuda: Cuda, core: Any, cubin: bytes, info: KernelInfo, device_id: int) -> DeviceKernel:
    """Loads the kernel on `device_id` (made current), after checking that the device runs
    its target (DeviceError)."""
    dev = core.Device(device_id)
    capability = tuple(dev.compute_capability)
    problem = target_problem(info, (capability[0], capability[1]), f"GPU {device_id} ({dev.name})")
    if problem is not None:
        raise DeviceError(problem)
    dev.set_current()
    code = core.ObjectCode.from_cubin(cubin, name=info.name)
    kernel = code.get_kernel(info.name)
    function = cuda.call("cuKernelGetFunction", kernel.handle)
    smem = int(info.smem_bytes)
    if smem > DEFAULT_SMEM_LIMIT:
        cuda.call(
            "cuFuncSetAttribute", function,
            cuda.cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem,
        )
    context = cuda.call("cuCtxGetCurrent")
    return DeviceKernel(device_id, code, kernel, function, context, int(dev.properties.multiprocessor_count))


def make_current(cuda: Cuda, loaded: DeviceKernel) -> None:
    """Makes the kernel's context current on this thread where another (or none) is."""
    if int(cuda.call("cuCtxGetCurrent")) != int(loaded.context):
        cuda.call("cuCtxSetCurrent", loaded.context)


def resolved(info: KernelInfo) -> bool:
    """Every size the launch needs is known: argument shapes and strides, size parameter
    values, tensor map dimensions, grid counts (a persistent entry is sized here)."""
    return (
        info.static
        and all(p.value is not None for p in info.size_params or ())
        and all(t.global_dims is not None and t.global_strides is not None for t in info.tensor_maps)
        and all(isinstance(g, int | PersistentGrid) for g in info.launch_grid)
    )


def launch_grid(info: KernelInfo, sms: int) -> tuple[int, int, int]:
    """The grid in CTAs: a persistent kernel gets one CTA per SM (`sms`), at most one per
    tile (a stream-K one, at most one per K step however few the tiles), in whole clusters
    (the tile count is a multiple of the cluster)."""
    x, y, z = info.launch_grid
    if isinstance(x, PersistentGrid):
        x = min(int(x.most), int(sms))
        x -= x % info.cluster_size
        groups = info.workspace.stream_k_groups if info.workspace is not None and info.workspace.stream_k_tiles else 1
        if x < groups:  # every group of a stream-K kernel needs a CTA, else its tiles are never computed
            raise RunError(f"kernel {info.name} runs stream-K in {groups} groups of CTAs, but this GPU takes {x} CTAs at once")
    return int(x), int(y), int(z)  # type: ignore[arg-type]  # resolved(): counts only


def encode_tensor_map(cuda: Cuda, tm: TensorMap, address: int) -> Any:
    """The 128-byte CUtensorMap of a resolved tensor map over the memory at `address`:
    rank 2 over a matrix, rank 3 over a batch of them (the batch the outermost dimension)."""
    cu = cuda.cu
    assert tm.global_dims is not None and tm.global_strides is not None  # resolved()
    rank = len(tm.global_dims)
    return cuda.call(
        "cuTensorMapEncodeTiled",
        cu.CUtensorMapDataType(TMA_DTYPES[tm.dtype]),
        rank,
        address,
        [cu.cuuint64_t(int(d)) for d in tm.global_dims],
        [cu.cuuint64_t(int(s)) for s in tm.global_strides],
        [cu.cuuint32_t(int(b)) for b in tm.box],
        [cu.cuuint32_t(1)] * rank,
        cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
        cu.CUtensorMapSwizzle(tm.tma_swizzle_code),
        cu.CUtensorMapL2promotion(int(tm.l2_promotion or 0)),
        cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
    )


def encode_tensor_maps(cuda: Cuda, info: KernelInfo, pointers: tuple[int, ...]) -> tuple[Any, ...]:
    """Every tensor map of a resolved kernel, over its argument's memory."""
    return tuple(encode_tensor_map(cuda, tm, pointers[tm.arg]) for tm in info.tensor_maps)


def size_values(info: KernelInfo) -> tuple[int, ...]:
    """The .u32 size parameters' values of a resolved kernel, in the entry's order."""
    return tuple(int(p.value) for p in info.size_params or ())  # type: ignore[arg-type]  # resolved()


def pack_params(pointers: tuple[int, ...], sizes: tuple[int, ...], tensor_maps: tuple[Any, ...]) -> tuple[np.ndarray, tuple[Any, ...]]:
    """The parameter block (an array of addresses, one per parameter, in the PTX entry's
    order: pointers, .u32 sizes, tensor maps) and what it points at."""
    values = np.empty(len(pointers) + len(sizes), dtype=np.uint64)
    values[: len(pointers)] = pointers
    values[len(pointers):] = sizes  # a .u32 read from the low half of its 8-byte slot (little-endian)
    base = values.ctypes.data
    addresses = [base + 8 * i for i in range(len(values))] + [m.getPtr() for m in tensor_maps]
    return np.array(addresses, dtype=np.uint64), (values, *tensor_maps)


def plan(function: Any, info: KernelInfo, grid: tuple[int, int, int], pointers: tuple[int, ...], tensor_maps: tuple[Any, ...],
         keep: tuple[Any, ...] = ()) -> LaunchPlan:
    """A launch of a resolved kernel on the arguments at `pointers` (then its workspace's
    address, where it has one); `keep`: what the launch must keep alive (the workspace)."""
    if not resolved(info):
        raise RunError(f"kernel {info.name} has sizes known only at launch: resolve_sizes first")
    expected = len(info.args) + (info.workspace is not None)
    if len(pointers) != expected:
        raise RunError(f"kernel {info.name} takes {expected} addresses (its arguments"
                       f"{' and its workspace' if info.workspace is not None else ''}), not {len(pointers)}")
    params, holders = pack_params(pointers, size_values(info), tensor_maps)
    return LaunchPlan(function, grid, int(info.threads), int(info.smem_bytes), params, holders + keep, info.dependent_launch)


#: Set to 0, kernels are launched without programmatic dependent launch (module docstring);
#: read at every launch.
DEPENDENT_LAUNCH_ENV = "LOWER_TC_DEPENDENT_LAUNCH"


def enqueue(cuda: Cuda, p: LaunchPlan, stream: Any) -> None:
    """One launch on `stream` (a handle: an int or the driver's CUstream), asynchronous."""
    gx, gy, gz = p.grid
    if not p.dependent or os.environ.get(DEPENDENT_LAUNCH_ENV) == "0":
        cuda.call("cuLaunchKernel", p.function, gx, gy, gz, p.threads, 1, 1, p.smem, stream, p.params_address, 0)
        return
    key = _stream_key(stream)
    config = p.configs.get(key) if key is not None else None
    if config is None:
        config = dependent_config(cuda.cu, p, stream)
        if key is not None:  # one per stream: two threads launching one plan on two streams do not share one
            p.configs[key] = config
    cuda.call("cuLaunchKernelEx", config, p.function, p.params_address, 0)


def _stream_key(stream: Any) -> int | None:
    """The stream's handle as a number (a CUstream's too), or None where it has none."""
    try:
        return int(stream)
    except (TypeError, ValueError):
        return None


def dependent_config(cu: Any, p: LaunchPlan, stream: Any) -> Any:
    """cuLaunchKernelEx's configuration of `p` on `stream`, with programmatic stream
    serialization allowed (the kernel's griddepcontrol.wait holds it until the kernel
    before it in the stream has finished)."""
    config = cu.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = p.grid
    config.blockDimX, config.blockDimY, config.blockDimZ = p.threads, 1, 1
    config.sharedMemBytes = p.smem
    config.hStream = cu.CUstream(stream) if isinstance(stream, int) else stream
    attribute = cu.CUlaunchAttribute()
    attribute.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    attribute.value.programmaticStreamSerializationAllowed = 1
    config.attrs = [attribute]
    config.numAttrs = 1
    return config


__all__ = [
    "DEFAULT_SMEM_LIMIT", "DEPENDENT_LAUNCH_ENV", "TMA_DTYPES", "DeviceKernel", "LaunchPlan", "encode_tensor_map", "encode_tensor_maps",
    "dependent_config", "enqueue", "launch_grid", "load_on_device", "make_current", "pack_params", "plan", "resolved", "size_values",
    "target_problem",
]
