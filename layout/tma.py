"""How TMA fills a tile: the box shape and one box per run of atoms.

A 2-d TMA box is at most 256 elements in each dimension, and with a swizzle its
inner (contiguous) dimension is at most one swizzle row. So a tile is copied as
columns of atoms: the inner extent of one atom, and as many atoms along the outer
dimension as sit back to back in shared memory. The single-tile copy and the
pipelined GEMM's stage loads both use this plan; the lowering adds the window's
run-time origin to the coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.limits import TMA_MAX_BOX
from lower_tc.layout.tile import Major, TileLayout

#: TMA's limit on a box dimension, in elements.
MAX_BOX = TMA_MAX_BOX


@dataclass(frozen=True)
class TmaBox:
    """One box: where it lands (bytes from the tile's start) and its first element,
    (inner, outer) in elements from the tile's origin along TMA's dimensions 0 and 1."""

    smem_offset: int
    inner: int
    outer: int


@dataclass(frozen=True)
class TmaPlan:
    """The box shape (inner, outer elements) and the boxes that fill one tile."""

    box: tuple[int, int]
    boxes: tuple[TmaBox, ...]
    element_bits: int

    @property
    def bytes(self) -> int:
        """What the boxes deliver: the mbarrier's expected transaction bytes. TMA counts
        the whole box, the zero-filled part past the tensor's edge included."""
        return len(self.boxes) * self.box[0] * self.box[1] * self.element_bits // 8


def tma_plan(layout: TileLayout, parts: int = 1) -> TmaPlan:
    """The boxes that fill `layout` when TMA's dimension 0 is the tile's contiguous one;
    with `parts`, a number of boxes `parts` divides, where the outer runs allow (a cluster
    of `parts` CTAs each loading its share of the boxes: a K-major tile, one box of every
    atom row, is cut along its rows)."""
    a_mn, a_k = layout.atom_shape
    s_mn, s_k = layout.strides
    n_mn, n_k = layout.atoms
    if layout.major is Major.K:
        inner, outer_atoms, inner_atoms = a_k, n_mn, n_k
        s_outer, s_inner = s_mn, s_k
        atom_rows = a_mn
    else:
        inner, outer_atoms, inner_atoms = a_mn, n_k, n_mn
        s_outer, s_inner = s_k, s_mn
        atom_rows = a_k
    run = outer_atoms if s_outer == layout.atom_bytes else 1
    run = max(r for r in range(1, min(run, MAX_BOX // atom_rows) + 1) if outer_atoms % r == 0)
    if parts > 1 and inner_atoms * (outer_atoms // run) % parts:  # shorter runs, so that `parts` divides the boxes
        shares = [r for r in range(1, run + 1) if outer_atoms % r == 0 and inner_atoms * (outer_atoms // r) % parts == 0]
        run = max(shares, default=run)
    boxes = [
        TmaBox(i * s_inner + o * s_outer, i * inner, atom_rows * o)
        for i in range(inner_atoms)
        for o in range(0, outer_atoms, run)
    ]
    return TmaPlan((inner, atom_rows * run), tuple(boxes), layout.dtype.bits)


__all__ = ["MAX_BOX", "TmaBox", "TmaPlan", "tma_plan"]
