"""Which pass a pipeline lacks: lower-tc's passes in the order they run, what each leaves
done in a kernel, and the located error that names the one missing.

A pass finds IR it cannot work on when an earlier pass was left out of the pipeline (or
put after it): a `tc.matmul` at tc-lower-to-ptx, a swizzle still `auto` at tc-assign-smem.
Each pass checks, before it changes anything, that the passes it needs have done their
work in every kernel (`require`), so the error names the pass to add rather than the op
it cannot handle; the PTX printer checks the last step, ptx-lower-loops, the same way
(`run_first`). Passes do not import one another, so the names and the facts live here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn

from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Operation

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_kernel import tc_kernels
from lower_tc.dialects.tc_matmul import MatmulOp
from lower_tc.dialects.tc_mma_ops import Tcgen05MmaOp, WgmmaOp
from lower_tc.dialects.tc_tile_ops import SmemTileOp
from lower_tc.dialects.tc_types import TileType

CONVERT_LINALG = "convert-linalg-to-tc"
EXPAND_MATMUL = "tc-expand-matmul"
EXPAND_ATTENTION = "tc-expand-attention"
CHOOSE_SWIZZLE = "tc-choose-swizzle"
ASSIGN_SMEM = "tc-assign-smem"
COMPUTE_DESCRIPTORS = "tc-compute-descriptors"
LOWER_TO_PTX = "tc-lower-to-ptx"
LOWER_LOOPS = "ptx-lower-loops"

#: lower-tc's passes in the order a pipeline runs them.
ORDER = (CONVERT_LINALG, EXPAND_MATMUL, EXPAND_ATTENTION, CHOOSE_SWIZZLE, ASSIGN_SMEM, COMPUTE_DESCRIPTORS, LOWER_TO_PTX, LOWER_LOOPS)

#: What each pass needs done before it runs, in pipeline order. tc-choose-swizzle, tc-assign-smem
#: and tc-compute-descriptors leave a `tc.matmul` alone (tc-expand-matmul may come later);
#: only tc-lower-to-ptx needs every kernel at the loop level or below.
NEEDS: dict[str, tuple[str, ...]] = {
    EXPAND_MATMUL: (CONVERT_LINALG,),
    CHOOSE_SWIZZLE: (CONVERT_LINALG,),
    ASSIGN_SMEM: (CONVERT_LINALG, CHOOSE_SWIZZLE),
    COMPUTE_DESCRIPTORS: (CONVERT_LINALG, CHOOSE_SWIZZLE, ASSIGN_SMEM),
    LOWER_TO_PTX: (CONVERT_LINALG, EXPAND_MATMUL, EXPAND_ATTENTION, CHOOSE_SWIZZLE, ASSIGN_SMEM, COMPUTE_DESCRIPTORS),
}


#: What the error adds about a missing pass, where its name alone may mislead.
HINTS = {
    CONVERT_LINALG: "it converts linalg contractions to tc.matmul, and says in a remark why it leaves one",
}


def run_first(op: Operation | None, what: str, missing: str, at: str) -> NoReturn:
    """The located error for `what` (the op's undone state) found at pass `at` (or the PTX
    printer): the pipeline lacks `missing`, which must run before `at`."""
    hint = HINTS.get(missing)
    error_at(op, f"{what} at {at}: run {missing} first" + (f" ({hint})" if hint else ""))


def _linalg_left(op: Operation) -> str | None:
    if op.dialect_name() == "linalg":
        return f"'{op.name}' in a kernel"
    return None


def _matmul_left(op: Operation) -> str | None:
    return "'tc.matmul' is not expanded to the loop level" if isinstance(op, MatmulOp) else None


def _attention_left(op: Operation) -> str | None:
    return "'tc.attention' is not expanded to the loop level" if op.name == "tc.attention" else None


def _tile_type(op: Operation) -> TileType | None:
    if isinstance(op, SmemTileOp) and isinstance(op.tile.type, TileType):
        return op.tile.type
    return None


def _swizzle_left(op: Operation) -> str | None:
    tile = _tile_type(op)
    return "the tile's swizzle is still auto" if tile is not None and tile.layout.is_auto else None


def _offset_left(op: Operation) -> str | None:
    tile = _tile_type(op)
    return "the tile has no shared-memory offset" if tile is not None and not tile.layout.has_offset else None


def _descriptors_left(op: Operation) -> str | None:
    if not isinstance(op, WgmmaOp | Tcgen05MmaOp):
        return None
    if not isinstance(op.attributes.get("tc.b_descs"), ArrayAttr) or (
        isinstance(op, Tcgen05MmaOp) and "tc.idesc" not in op.attributes
    ):
        return f"'{op.name}' has no descriptors"
    return None


#: For each pass that leaves a mark on a kernel's ops: what an op looks like before it ran.
UNDONE: dict[str, Callable[[Operation], str | None]] = {
    CONVERT_LINALG: _linalg_left,
    EXPAND_MATMUL: _matmul_left,
    EXPAND_ATTENTION: _attention_left,
    CHOOSE_SWIZZLE: _swizzle_left,
    ASSIGN_SMEM: _offset_left,
    COMPUTE_DESCRIPTORS: _descriptors_left,
}


def require(root: Operation, at: str, kernels: Sequence[Operation] | None = None) -> None:
    """A located error when a pass `at` needs (NEEDS) has not done its work in a kernel
    under `root` (`kernels`, where the caller found them already): at the op whose missing
    pass comes first in the pipeline, so that the passes are added in order. One walk."""
    needs = NEEDS.get(at, ())
    if not needs:
        return
    checks = [(ORDER.index(p), p, UNDONE[p]) for p in needs]
    found: tuple[int, Operation, str, str] | None = None
    for kernel in tc_kernels(root) if kernels is None else kernels:
        for op in kernel.walk():
            for rank, name, undone in checks:
                if found is not None and rank >= found[0]:
                    break
                what = undone(op)
                if what is not None:
                    found = (rank, op, what, name)
                    break
    if found is not None:
        _, op, what, missing = found
        run_first(op, what, missing, at)


__all__ = [
    "ASSIGN_SMEM", "CHOOSE_SWIZZLE", "COMPUTE_DESCRIPTORS", "CONVERT_LINALG", "EXPAND_ATTENTION", "EXPAND_MATMUL", "LOWER_LOOPS",
    "LOWER_TO_PTX", "HINTS", "NEEDS", "ORDER", "UNDONE", "require", "run_first",
]
