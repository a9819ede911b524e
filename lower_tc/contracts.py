"""lower_tc.contracts: the launch contract, the stable types of what a compiled kernel
promises whoever launches it (its `KernelInfo`), re-exported from
`lower_tc.layout.kernel_info` (plain data: no xDSL, no CUDA).

A `KernelInfo` crosses every boundary as JSON (`to_json`, `from_json`): in the PTX (the
``// lower-tc kernel NAME: {...}`` line above each kernel), in ``k.cubin.json`` beside a
cubin, and from `lower_tc.kernels(module)`. Its top-level ``"version"`` is raised by a
change of the contract's meaning, and `from_json` refuses a version not in
`READ_VERSIONS` (docs/gemm.md, "Launching", describes every field). A kernel that needs a
`WorkspaceInfo` (split-K through global memory) is written as `SPLIT_K_CLAIMS_VERSION` (4:
its workspace holds slice claims after the counters; `KERNEL_INFO_VERSION`, 2, before),
a stream-K kernel (its workspace sized by another rule) as `STREAM_K_VERSION` (3), every
other as `BASE_VERSION` (1).

``None`` in a shape, a stride, a tensor map's dimensions or the GEMM's M, N, K means
"known only at launch"; a grid entry is a count, a `GridFromArg` (ceil of an argument's
size over a tile) or a `PersistentGrid` (one CTA per SM).
"""

from __future__ import annotations

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import (
    BASE_VERSION,
    KERNEL_INFO_VERSION,
    READ_VERSIONS,
    SPLIT_K_CLAIMS_VERSION,
    STREAM_K_VERSION,
    WORKSPACE_PARAM,
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
    WorkspaceInfo,
)

__all__ = [
    "BASE_VERSION", "KERNEL_INFO_VERSION", "READ_VERSIONS", "SPLIT_K_CLAIMS_VERSION", "STREAM_K_VERSION", "WORKSPACE_PARAM", "ArgInfo", "GemmConfig", "GemmInfo",
    "GridEntry", "GridFromArg", "KernelInfo", "KernelInfoError", "PersistentGrid", "Size", "SizeParam", "TensorMap",
    "WorkspaceInfo",
]
