"""lower-tc's passes, registered by name (each imported only when used).

=======================  ===================================================
convert-linalg-to-tc     linalg contractions on memrefs -> tc.matmul (options: target, strict)
tc-expand-matmul         tc.matmul -> a loop-level GEMM kernel (option: remarks)
tc-expand-attention      tc.attention -> a loop-level attention kernel (option: remarks)
tc-choose-swizzle        fill `auto` swizzles (options: max, remarks)
tc-assign-smem           place tiles in dynamic shared memory
tc-compute-descriptors   attach each MMA's descriptors as attributes
tc-lower-to-ptx          rewrite tc kernels into the ptx dialect
ptx-lower-loops          structured loops in ptx kernels -> labels and branches
=======================  ===================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_pipeline

#: The default pipeline, in order; `lower-tc input.mlir` runs it. convert-linalg-to-tc does
#: nothing to a module without linalg ops; in this pipeline a linalg op it leaves is an error.
DEFAULT_PIPELINE = (
    "convert-linalg-to-tc{strict=true},tc-expand-matmul,tc-expand-attention,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,"
    "tc-lower-to-ptx,ptx-lower-loops"
)


def _linalg() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.convert_linalg import ConvertLinalgPass

    return ConvertLinalgPass


def _choose() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.choose_swizzle import ChooseSwizzlePass

    return ChooseSwizzlePass


def _assign() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.assign_smem import AssignSmemPass

    return AssignSmemPass


def _descriptors() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.compute_descriptors import ComputeDescriptorsPass

    return ComputeDescriptorsPass


def _lower() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.lower_to_ptx import LowerToPtxPass

    return LowerToPtxPass


def _expand() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.expand_matmul import ExpandMatmulPass

    return ExpandMatmulPass


def _expand_attention() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.expand_attention import ExpandAttentionPass

    return ExpandAttentionPass


def _loops() -> type[ModulePass]:
    # a lazy registry: the pass's module is imported when the pass is used
    from lower_tc.passes.ptx_lower_loops import LowerLoopsPass

    return LowerLoopsPass


#: Pass name -> a function that imports and returns the pass class.
PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "convert-linalg-to-tc": _linalg,
    "tc-expand-matmul": _expand,
    "tc-expand-attention": _expand_attention,
    "tc-choose-swizzle": _choose,
    "tc-assign-smem": _assign,
    "tc-compute-descriptors": _descriptors,
    "tc-lower-to-ptx": _lower,
    "ptx-lower-loops": _loops,
}


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory returning the pass class (for xDSLOptMain.register_pass)."""
    return dict(PASSES)


def default_pipeline(**options: dict[str, Any]) -> list[ModulePass]:
    """The default pipeline as pass instances; `options` maps pass names to keyword
    options, which replace the pipeline's own (convert-linalg-to-tc's strict=true)."""
    passes = []
    for spec in parse_pipeline(DEFAULT_PIPELINE):
        own = PASSES[spec.name]().from_pass_spec(spec)
        passes.append(replace(own, **options.get(spec.name, {})))
    return passes
