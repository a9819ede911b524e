"""lower_tc.contracts: the launch contract, the stable types of what a compiled kernel
promises whoever launches it (its `KernelInfo`), re-exported from
`lower_tc.layout.kernel_info` (plain data: no xDSL, no CUDA).

A `KernelInfo` crosses every boundary as JSON (`to_json`, `from_json`): in the PTX (the
``// lower-tc kernel NAME: {...}`` line above each kernel), in ``k.cubin.json`` beside a
cubin, and from `lower_tc.kernels(module)`. Its top-level ``"version"`` is
`KERNEL_INFO_VERSION`; a change of the contract's meaning raises it, and `from_json`
refuses another version (docs/gemm.md, "Launching", describes every field).

``None`` in a shape, a stride, a tensor map's dimensions or the GEMM's M, N, K means
"known only at launch"; a grid entry is a count, a `GridFromArg` (ceil of an argument's
size over a tile) or a `PersistentGrid` (one CTA per SM).
"""

from __future__ import annotations

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import (
    KERNEL_INFO_VERSION,
    ArgInfo,
    GemmInfo,
    GridEntry,
    GridFromArg,
    KernelInfo,
    KernelInfoError,
    PersistentGrid,
    Size,
    SizeParam,
    TensorMap,
)

__all__ = [
    "KERNEL_INFO_VERSION", "ArgInfo", "GemmConfig", "GemmInfo", "GridEntry", "GridFromArg", "KernelInfo",
    "KernelInfoError", "PersistentGrid", "Size", "SizeParam", "TensorMap",
]
