"""Which CUDA stream a call launches on, as a raw handle (an int).

`stream=` may be:
- an object with ``__cuda_stream__()`` (the CUDA stream protocol: cuda.core's `Stream`,
  and the streams of the libraries that implement it), which returns (version, handle);
- a `torch.cuda.Stream` (its ``cuda_stream``) or a `cupy.cuda.Stream` (its ``ptr``);
- an int: the handle itself (0 is the legacy default stream);
- None: the current stream of the arrays' framework, as a kernel of that framework would
  use: PyTorch's ``torch.cuda.current_stream(device)`` where an argument is a torch
  tensor (so calls inside ``torch.cuda.graph`` are captured), else CuPy's
  ``cupy.cuda.get_current_stream()`` where one is a CuPy array, else the legacy default
  stream (0). JAX has no current stream a caller can see: its arrays are made ready on
  the launch stream through DLPack (lowering/runtime/arrays.py).
Nothing is created, recorded or synchronised here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from lower_tc.lowering.runtime.arrays import Reinterpreted
from lower_tc.lowering.runtime.errors import ArgumentError

#: The legacy default stream's handle.
DEFAULT_STREAM = 0


def stream_handle(stream: Any, arrays: Sequence[Any]) -> int:
    """The handle of the stream a call launches on (see the module's docstring)."""
    if stream is None:
        return current_stream(arrays)
    if isinstance(stream, bool):
        raise ArgumentError(f"stream={stream!r}: a stream is an object with __cuda_stream__ or a handle (int)", "stream")
    if isinstance(stream, int):
        if stream < 0:
            raise ArgumentError(f"stream={stream}: a stream handle is not negative", "stream")
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        _, handle = protocol() if callable(protocol) else protocol
        return int(handle)
    module = type(stream).__module__.split(".")[0]
    if module == "torch" and hasattr(stream, "cuda_stream"):
        return int(stream.cuda_stream)
    if module in ("cupy", "cupy_backends") and hasattr(stream, "ptr"):
        return int(stream.ptr)
    raise ArgumentError(
        f"stream={type(stream).__name__}: a stream is an object with __cuda_stream__ (cuda.core.Stream), "
        "a torch.cuda.Stream, a cupy.cuda.Stream, or a handle (int)", "stream",
    )


def current_stream(arrays: Sequence[Any]) -> int:
    """The current stream of the first torch tensor's device, else CuPy's current stream
    where an array is CuPy's, else the legacy default stream."""
    owners = [a.array if isinstance(a, Reinterpreted) else a for a in arrays]
    for owner in owners:
        if _framework(owner) == "torch" and getattr(owner, "is_cuda", False):
            torch = sys.modules["torch"]  # the tensor's own library, already imported
            raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # what Triton calls: no Stream object built
            if raw is not None:
                return int(raw(owner.get_device()))
            return int(torch.cuda.current_stream(owner.device).cuda_stream)
    for owner in owners:
        if _framework(owner) == "cupy":
            cupy = sys.modules["cupy"]
            return int(cupy.cuda.get_current_stream().ptr)
    return DEFAULT_STREAM


def _framework(obj: Any) -> str:
    module = type(obj).__module__.split(".")[0]
    return "cupy" if module == "cupy_backends" else module


__all__ = ["DEFAULT_STREAM", "current_stream", "stream_handle"]
