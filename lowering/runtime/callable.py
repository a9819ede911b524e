"""A compiled kernel as a Python callable on the caller's GPU arrays: `Kernel`.

``k(A, B, D)`` takes the arrays in the kernel's argument order (PyTorch, CuPy or JAX
arrays, anything with DLPack or ``__cuda_array_interface__``), checks each against the
kernel's contract before anything is launched (lowering/runtime/arguments.py: a
`LaunchError` naming the argument), takes the sizes known only at launch from the arrays
(`resolve_sizes`, which checks the kernel's limits), and launches on the stream given or
the framework's current one (lowering/runtime/streams.py). It returns at once: the launch
is asynchronous, like any kernel of the caller's framework.

What a call costs is kept small and free of allocation and synchronisation, so that calls
can be captured in a CUDA graph (after a first call outside the capture, which loads the
module). The module is loaded once per device. Two small least-recently-used caches keep
the rest: the resolved contract (sizes, grid) per (device, sizes known at launch), and the
launch itself per (addresses, shapes, strides, types, devices) of the arguments: its
tensor maps, encoded once for those addresses and sizes, and its parameter block, which
holds nothing else (the driver copies it at each launch). A call on arrays seen before
only reads them, finds its launch and enqueues it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.lowering.runtime import launcher, session
from lower_tc.lowering.runtime.arguments import arg_name, check_arguments, check_count, layout_name
from lower_tc.lowering.runtime.arrays import ArrayView, view_of
from lower_tc.lowering.runtime.errors import ArgumentError, ShapeError
from lower_tc.lowering.runtime.sizes import Shape, resolve_sizes
from lower_tc.lowering.runtime.streams import stream_handle
from lower_tc.lowering.runtime.workspace import Workspaces

#: Entries each of a kernel's caches keeps (sizes, tensor maps).
CACHE_SIZE = 64

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """A small least-recently-used map; counts its hits and misses."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[K, V] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        value = self.entries.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self.entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self.entries[key] = value
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return value


@dataclass(frozen=True)
class Argument:
    """One argument as a caller sees it: name, element type, shape and strides in
    elements (None: known at launch; three of each for a batch of matrices), and whether
    the kernel writes it."""

    name: str
    dtype: str
    shape: tuple[int | None, ...]  # [batch,] rows, cols
    strides: tuple[int | None, ...]
    output: bool

    def __str__(self) -> str:
        dims = "x".join("?" if n is None else str(n) for n in self.shape)
        return f"{self.name}: {self.dtype}[{dims}]"


@dataclass(frozen=True)
class Sized:
    """The contract resolved for one set of sizes on one device, and its grid."""

    info: KernelInfo
    grid: tuple[int, int, int]


class Kernel:
    """A compiled kernel (its cubin and launch contract), callable on GPU arrays:
    ``kernel(*arrays, stream=None)``. See the module's docstring and docs/api.md."""

    def __init__(self, cubin: bytes, info: KernelInfo) -> None:
        if not isinstance(cubin, bytes | bytearray) or not cubin:
            raise ValueError(f"kernel {info.name}: a Kernel needs the cubin's bytes")
        self._cubin = bytes(cubin)
        self._info = info
        self._loaded: dict[int, launcher.DeviceKernel] = {}
        self._sized: LruCache[Hashable, Sized] = LruCache(CACHE_SIZE)
        self._plans: LruCache[Hashable, tuple[launcher.LaunchPlan, launcher.DeviceKernel]] = LruCache(CACHE_SIZE)
        # the same launches found from torch tensors' own attributes, before any view is built
        self._torch_plans: LruCache[Hashable, tuple[launcher.LaunchPlan, launcher.DeviceKernel]] = LruCache(CACHE_SIZE)
        self._workspaces = Workspaces()  # split-K's scratch memory, where the contract asks for it

    # -- what a user reads ------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._info.name

    @property
    def info(self) -> KernelInfo:
        """The launch contract (layout/kernel_info.py)."""
        return self._info

    @property
    def target(self) -> str:
        return self._info.target

    @property
    def cubin(self) -> bytes:
        return self._cubin

    @property
    def args(self) -> tuple[Argument, ...]:
        return tuple(Argument(arg_name(a), a.dtype, a.shape, a.strides, a.output) for a in self._info.args)

    def __repr__(self) -> str:
        ins = ", ".join(str(a) for a in self.args if not a.output)
        outs = ", ".join(str(a) for a in self.args if a.output)
        return f"<lower_tc.Kernel {self.name} ({self.target}): ({ins}) -> ({outs})>"

    def signature(self) -> str:
        """One line per argument: name, type, sizes, layout, and whether it is written."""
        return "\n".join(
            f"{a}  {layout_name(info)}{'  (output)' if a.output else ''}"
            for a, info in zip(self.args, self._info.args)
        )

    # -- calling ----------------------------------------------------------------------

    def __call__(self, *arrays: Any, stream: Any = None) -> None:
        """Launches the kernel on `arrays` (in its argument order) on `stream`: an object
        with ``__cuda_stream__``, a torch or CuPy stream, a handle (int), or None for the
        arrays' framework's current one. Raises a LaunchError before launching where
        the arrays or the GPU do not fit the kernel."""
        check_count(self._info, len(arrays))
        handle = stream_handle(stream, arrays)
        # a workspace serves one stream's launches: a launch on another stream is another one
        on_stream = int(handle) if self._info.workspace is not None else None
        fast = torch_key(arrays)
        if fast is not None and on_stream is not None:
            fast = (fast, on_stream)
        found = self._torch_plans.get(fast) if fast is not None else None
        if found is None:
            views = [view_of(x, arg_name(a), stream=handle) for x, a in zip(arrays, self._info.args)]
            found = self._prepare(views, on_stream)
            if fast is not None:
                self._torch_plans.put(fast, found)
        else:
            session.check_usable()
        plan, loaded = found
        cuda = session.driver()
        launcher.make_current(cuda, loaded)
        launcher.enqueue(cuda, plan, handle)

    def prepare(self, views: list[ArrayView]) -> launcher.LaunchPlan:
        """Checks the arguments, loads the module on their device (once) and builds the
        launch (the runner enqueues it as often as it likes). Arguments identical to
        earlier ones (addresses, shapes, strides, types, devices, read-only) passed the
        same checks: their launch is taken from the cache."""
        plan, loaded = self._prepare(views)
        launcher.make_current(session.driver(), loaded)
        return plan

    def _prepare(self, views: list[ArrayView], stream: int | None = None) -> tuple[launcher.LaunchPlan, launcher.DeviceKernel]:
        """The launch for these arguments (and, for a kernel with a workspace, `stream`'s
        workspace; the runner's launches, one after another, share the None stream's)."""
        cuda = session.driver()
        session.check_usable()
        key = (tuple((v.ptr, v.shape, v.strides, v.dtype, v.device_id, v.readonly) for v in views), stream)
        found = self._plans.get(key)
        if found is not None:
            return found
        shapes, device = check_arguments(self._info, views)
        loaded = self._on_device(cuda, 0 if device is None else device)
        launcher.make_current(cuda, loaded)
        sizes_key = (loaded.device_id, tuple(sorted(shapes.items())))
        sized = self._sized.get(sizes_key) or self._sized.put(sizes_key, self._resolve(shapes, loaded.sms))
        pointers = tuple(v.ptr for v in views)
        maps = launcher.encode_tensor_maps(cuda, sized.info, pointers)
        workspace = None
        if sized.info.workspace is not None:  # its address follows the arguments'
            gx, gy, gz = sized.grid
            workspace = self._workspaces.get(cuda, loaded.device_id, stream, sized.info.workspace.bytes(gx * gy * gz))
            pointers += (workspace.ptr,)
        plan = launcher.plan(loaded.function, sized.info, sized.grid, pointers, maps, keep=(workspace,) if workspace else ())
        return self._plans.put(key, (plan, loaded))

    def cache_info(self) -> dict[str, tuple[int, int]]:
        """(hits, misses) of the sizes cache and of the launches cache (tensor maps and
        parameter block per argument addresses and sizes)."""
        return {"sizes": (self._sized.hits, self._sized.misses), "launches": (self._plans.hits, self._plans.misses)}

    def _on_device(self, cuda: session.Cuda, device: int) -> launcher.DeviceKernel:
        loaded = self._loaded.get(device)
        if loaded is None:
            loaded = launcher.load_on_device(cuda, session.load_core(), self._cubin, self._info, device)
            self._loaded[device] = loaded
        return loaded

    def _resolve(self, shapes: dict[str, Shape], sms: int) -> Sized:
        try:
            info = resolve_sizes(self._info, shapes)
        except ShapeError as err:
            raise ArgumentError(str(err), err.argument) from None
        return Sized(info, launcher.launch_grid(info, sms))


def torch_key(arrays: tuple[Any, ...]) -> Hashable | None:
    """Where every array is a torch tensor: the facts a launch depends on (address,
    shape, strides, dtype, device), read from the tensors themselves, as the key of the
    launch found for them before; else None. A call on tensors seen before builds no view."""
    key = []
    for x in arrays:
        if type(x).__module__ != "torch" or not getattr(x, "is_cuda", False):
            return None
        key.append((x.data_ptr(), x.shape, x.stride(), x.dtype, x.get_device()))
    return tuple(key)


__all__ = ["CACHE_SIZE", "Argument", "Kernel", "LruCache", "torch_key"]
