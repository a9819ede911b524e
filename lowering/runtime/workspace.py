"""The scratch memory a kernel's contract may ask for (`KernelInfo.workspace`: split-K
through global memory, layout/split_k.py), owned by the compiled `Kernel` that launches it.

A workspace must be zero before its first launch, and each launch leaves it ready for the
next launch of the same kernel (layout/kernel_info.py WorkspaceInfo), so one
serves every launch that runs after the one before: launches on one stream. `Kernel` keeps
one per (device, stream) and makes a new, larger one when a grid needs more; a workspace is
freed once no launch built on it is cached. Making one allocates and zeroes it
(`cuMemAlloc`, `cuMemsetD8`, then a synchronisation so that no stream can launch on it
before it is zero): the first call of a kernel with a workspace on a stream is the one that
a CUDA graph capture cannot contain, like the module's load.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lower_tc.lowering.runtime.session import Cuda


@dataclass(eq=False)
class Workspace:
    """Zeroed device memory of `nbytes` at `ptr`, freed with the object."""

    cuda: Cuda
    ptr: int
    nbytes: int

    @classmethod
    def allocate(cls, cuda: Cuda, nbytes: int) -> "Workspace":
        ptr = int(cuda.call("cuMemAlloc", nbytes))
        try:
            cuda.call("cuMemsetD8", ptr, 0, nbytes)
            cuda.call("cuCtxSynchronize")
        except BaseException:
            cuda.call("cuMemFree", ptr)
            raise
        return cls(cuda, ptr, nbytes)

    def __del__(self) -> None:
        try:  # at interpreter exit the driver may already be gone: nothing left to free
            self.cuda.call("cuMemFree", self.ptr)
        except Exception:  # noqa: BLE001
            pass


class Workspaces:
    """A kernel's workspaces, one per (device, stream), each grown when a grid needs more."""

    def __init__(self) -> None:
        self._by_key: dict[Any, Workspace] = {}

    def get(self, cuda: Cuda, device: int, stream: Any, nbytes: int) -> Workspace:
        key = (device, stream)
        found = self._by_key.get(key)
        if found is None or found.nbytes < nbytes:  # a launch built on the old one keeps it alive
            found = self._by_key[key] = Workspace.allocate(cuda, nbytes)
        return found


__all__ = ["Workspace", "Workspaces"]
