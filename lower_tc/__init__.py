"""lower-tc: shared-memory tile layouts and tensor-core descriptors, exact and checked.

Subpackages, in layer order (each imports only the ones before it): ``lower_tc.layout``
(pure math and plain data, no xDSL, no CUDA), ``lower_tc.dialects`` (the `tc` and `ptx`
dialects), ``lower_tc.passes`` and ``lower_tc.lowering`` (parse, compile, backend, runtime,
pictures, CLI). This root package only re-exports; nothing in lower-tc imports it.

Embedding in another xDSL-based compiler::

    from xdsl.context import Context
    import lower_tc

    ctx = Context()
    lower_tc.register_dialects(ctx)          # tc and ptx, loaded lazily
    passes = lower_tc.available_passes()     # name -> pass-class factory
    pipeline = lower_tc.default_pipeline()   # list of pass instances
    for p in pipeline:
        p.apply(ctx, module)
    ptx_text = lower_tc.print_ptx(module)

Calling kernels on PyTorch, CuPy or JAX arrays (docs/api.md)::

    k = lower_tc.compile(source)     # a Kernel; lower_tc.CompileError where refused
    k(A, B, D)                       # on the arrays' current stream; lower_tc.LaunchError
    k(A, B, D, stream=s)             #   (ArgumentError, DeviceError) before launching
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The re-exports are resolved on first access (PEP 562), not here: every
# `import lower_tc.<subpackage>` runs this file first, and `import lower_tc.layout` must not
# import xDSL (nor `lower-tc desc`, which starts without it).
_EXPORTS = {
    "register_dialects": "lower_tc.dialects",
    "available_passes": "lower_tc.passes",
    "default_pipeline": "lower_tc.passes",
    "print_ptx": "lower_tc.lowering.compile",
    "compile": "lower_tc.lowering.api",
    "matmul": "lower_tc.lowering.api",
    "load": "lower_tc.lowering.runtime.loading",
    "ArtifactError": "lower_tc.lowering.runtime.artifact",
    "CompileError": "lower_tc.lowering.api",
    "Kernel": "lower_tc.lowering.runtime.callable",
    "reinterpret": "lower_tc.lowering.runtime.arrays",
    "LaunchError": "lower_tc.lowering.runtime.errors",
    "ArgumentError": "lower_tc.lowering.runtime.errors",
    "ArgumentCountError": "lower_tc.lowering.runtime.errors",
    "DeviceError": "lower_tc.lowering.runtime.errors",
    "CudaError": "lower_tc.lowering.runtime.errors",
}

if TYPE_CHECKING:  # pragma: no cover
    from lower_tc.dialects import register_dialects
    from lower_tc.lowering.api import CompileError, compile, matmul
    from lower_tc.lowering.runtime.artifact import ArtifactError
    from lower_tc.lowering.runtime.loading import load
    from lower_tc.lowering.compile import print_ptx
    from lower_tc.lowering.runtime.arrays import reinterpret
    from lower_tc.lowering.runtime.callable import Kernel
    from lower_tc.lowering.runtime.errors import (
        ArgumentCountError, ArgumentError, CudaError, DeviceError, LaunchError,
    )
    from lower_tc.passes import available_passes, default_pipeline


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lower_tc' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "ArgumentCountError", "ArgumentError", "ArtifactError", "CompileError", "CudaError", "DeviceError", "Kernel", "LaunchError",
    "__version__", "available_passes", "compile", "default_pipeline", "load", "matmul", "print_ptx", "register_dialects", "reinterpret",
]
