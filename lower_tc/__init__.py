"""lower-tc: shared-memory tile layouts and tensor-core descriptors, exact and checked.

Subpackages, in layer order (each imports only the ones before it): ``lower_tc.layout``
(pure math and plain data, no xDSL, no CUDA), ``lower_tc.dialects`` (the `tc` and `ptx`
dialects), ``lower_tc.passes`` and ``lower_tc.lowering`` (parse, compile, backend, runtime,
pictures, CLI). This root package only re-exports; nothing in lower-tc imports it.

Embedding in another xDSL-based compiler (docs/embedding.md: what is stable, and how
errors and remarks reach the embedder)::

    import lower_tc

    module = lower_tc.parse(text, "k.mlir")         # file:line:col on every op
    lower_tc.run_passes(module, [MyPass(), *lower_tc.default_pipeline()])
    for k in lower_tc.kernels(module):              # each kernel of the lowered module
        k.name, k.ptx, k.info, k.cubin              # info: lower_tc.contracts.KernelInfo
        k.kernel()                                  # a lower_tc.Kernel, callable on GPU arrays
    # any fault in the program: lower_tc.CompileError, message "k.mlir:3:5: error: ..."
    # and .file, .line, .column; lower_tc.remarks() collects the remarks; a pass of
    # one's own reports at an op with `raise lower_tc.LocatedError(op, message)`

The pieces for a compiler with its own context and pipeline: `register_dialects(ctx)`,
`available_passes()` (name -> pass class factory), `default_pipeline()`, `verify`,
`print_ptx`, `context()`.

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
    "context": "lower_tc.lowering.api.embedding",
    "parse": "lower_tc.lowering.api.embedding",
    "verify": "lower_tc.lowering.api.embedding",
    "run_passes": "lower_tc.lowering.api.embedding",
    "kernels": "lower_tc.lowering.api.embedding",
    "print_ptx": "lower_tc.lowering.api.embedding",
    "remarks": "lower_tc.lowering.api.embedding",
    "CompiledKernel": "lower_tc.lowering.compile",
    "CompileError": "lower_tc.lowering.compile",
    "Diagnostic": "lower_tc.dialects.diagnostics",
    "LocatedError": "lower_tc.dialects.diagnostics",
    "compile": "lower_tc.lowering.api",
    "matmul": "lower_tc.lowering.api",
    "attention": "lower_tc.lowering.api",
    "load": "lower_tc.lowering.runtime.loading",
    "ArtifactError": "lower_tc.lowering.runtime.artifact",
    "Kernel": "lower_tc.lowering.runtime.callable",
    "reinterpret": "lower_tc.lowering.runtime.arrays",
    "LaunchError": "lower_tc.lowering.runtime.errors",
    "ArgumentError": "lower_tc.lowering.runtime.errors",
    "ArgumentCountError": "lower_tc.lowering.runtime.errors",
    "DeviceError": "lower_tc.lowering.runtime.errors",
    "CudaError": "lower_tc.lowering.runtime.errors",
}
#: Submodules that are part of the API: `lower_tc.contracts` (plain data, no xDSL).
_SUBMODULES = ("contracts",)

if TYPE_CHECKING:  # pragma: no cover
    from lower_tc import contracts
    from lower_tc.dialects import register_dialects
    from lower_tc.dialects.diagnostics import Diagnostic, LocatedError
    from lower_tc.lowering.api import attention, compile, matmul
    from lower_tc.lowering.api.embedding import context, kernels, parse, print_ptx, remarks, run_passes, verify
    from lower_tc.lowering.compile import CompiledKernel, CompileError
    from lower_tc.lowering.runtime.artifact import ArtifactError
    from lower_tc.lowering.runtime.loading import load
    from lower_tc.lowering.runtime.arrays import reinterpret
    from lower_tc.lowering.runtime.callable import Kernel
    from lower_tc.lowering.runtime.errors import (
        ArgumentCountError, ArgumentError, CudaError, DeviceError, LaunchError,
    )
    from lower_tc.passes import available_passes, default_pipeline


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"lower_tc.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lower_tc' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


#: The stable API (docs/embedding.md, "What is stable"): these names, lower_tc.contracts,
#: the pass names and options, the tc dialect's syntax and the KernelInfo JSON's version.
__all__ = [
    "ArgumentCountError", "ArgumentError", "ArtifactError", "CompileError", "CompiledKernel", "CudaError",
    "DeviceError", "Diagnostic", "Kernel", "LaunchError", "LocatedError",
    "__version__", "attention", "available_passes", "compile", "context", "contracts", "default_pipeline", "kernels", "load",
    "matmul", "parse", "print_ptx", "register_dialects", "reinterpret", "remarks", "run_passes", "verify",
]
