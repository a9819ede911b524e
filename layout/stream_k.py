"""Stream-K on sm_90a: a persistent grid of C CTAs (one per SM, however few the tiles)
shares the GEMM's K steps evenly, across tile boundaries, so no wave is left mostly idle
(docs/gemm.md, "Stream-K"). Plain arithmetic, for tc-expand-matmul, the GEMM lowering (its
PTX computes the same numbers per CTA), the launcher and the chooser; `units` is the
reference the tests hold the lowering's arithmetic to.

- Of the T tiles (each Kt K steps of BK), the first F = d C are data-parallel, with
  d = max(T div C - 1, 0): CTA c takes tiles c, c + C, ..., c + (d - 1) C, each over all of
  K. The other R = T - F tiles (one to two waves' worth, or all of them where T < 2 C) are
  "stream-K tiles": their I = R Kt K steps, numbered tile by tile, are cut into C ranges,
  CTA c taking steps [c I div C, (c + 1) I div C), in order. A CTA's range covers the end
  of one tile, any number of whole tiles and the start of another.
- A unit is one CTA's part of one tile: (tile, first K step, K steps). A unit over all Kt
  steps is stored as a data-parallel tile is. The units of a tile shared by several CTAs
  (its "contributors", CTAs c_first .. c_last, consecutive) each write their partial tile
  to a slot of the workspace (slot c + t for stream-K tile t: each CTA boundary and each
  tile boundary opens a new slot, so the slots of one tile are consecutive and no two units
  share one) and add their K steps to the tile's counter (an atomic add); the unit whose
  add completes Kt sums the contributors' slots in K order (the same sum whichever unit
  comes last: deterministic), stores D and sets the counter back to 0. Nothing waits for
  another CTA.
- The workspace: C + R slots of the partial tile's bytes, then R u32 counters, zero before
  the first launch and left zero by each.
- C is at most T Kt (the launcher's rule: `PersistentGrid.steps`), so every CTA's range
  holds at least one K step (I >= C) and every CTA from c_first to c_last writes its slot.

Groups (`stream_k = G`, G dividing T): the tiles fall into G classes, tile l G + g of the
walk being tile l of group g, and the CTAs into G groups of P = C div G, CTA c being CTA
p = c div G of group g = c mod G (the last C mod G CTAs have nothing to do). Each group
runs the above on its T / G tiles with its P CTAs, so CTA p of every group takes the same
K steps of the same l at the same time: where the walk puts a column's G tile rows one
after another (G tile rows, at most the grouped order's raster), the G CTAs that read one
of B's column blocks read it together, once from HBM (one group: a CTA's neighbours in
the walk run other K steps, and B is read once per tile row). Group g's slots start at
g (P + R_g), its counters at g R_g after all the slots. With G = 1 this is the above.
"""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.limits import MAX_INDEX

#: Why an f16 accumulator does not go with stream-K.
STREAM_K_F16 = ("stream_k sums f32 or s32 partial tiles from the accumulator's registers through global memory; "
                "an f16 accumulator does not go with it")


def dp_waves(tiles: int, ctas: int) -> int:
    """d: the whole waves of data-parallel tiles before the stream-K ones."""
    return max(tiles // ctas - 1, 0)


def stream_tiles(tiles: int, ctas: int) -> int:
    """R: the tiles whose K steps the CTAs share."""
    return tiles - dp_waves(tiles, ctas) * ctas


def cta_range(cta: int, ctas: int, steps: int) -> tuple[int, int]:
    """The stream-K steps [a, e) of CTA `cta` of `ctas`, of `steps` in all."""
    return cta * steps // ctas, (cta + 1) * steps // ctas


def cta_of(step: int, ctas: int, steps: int) -> int:
    """The CTA whose range holds stream-K step `step`: the largest c with c steps div
    ctas <= step, that is ((step + 1) ctas - 1) div steps."""
    return ((step + 1) * ctas - 1) // steps


@dataclass(frozen=True)
class Unit:
    """One CTA's part of one tile: K steps [k_lo, k_lo + steps) of tile `tile` (the walk's
    number); `stream` is its index among the stream-K tiles (None: data-parallel)."""

    tile: int
    k_lo: int
    steps: int
    stream: int | None = None


def units(cta: int, ctas: int, tiles: int, kt: int, groups: int = 1) -> list[Unit]:
    """CTA `cta`'s units, in the order it runs them (the module docstring); `stream` is
    the tile's index among its group's stream-K tiles."""
    g, p, per = cta % groups, cta // groups, ctas // groups
    if p >= per:
        return []
    local = tiles // groups
    d = dp_waves(local, per)
    out = [Unit((p + j * per) * groups + g, 0, kt) for j in range(d)]
    first_stream = d * per
    steps = (local - first_stream) * kt
    a, e = cta_range(p, per, steps)
    if e <= a:
        return out
    for t in range(a // kt, (e - 1) // kt + 1):
        lo, hi = max(a, t * kt), min(e, (t + 1) * kt)
        out.append(Unit((first_stream + t) * groups + g, lo - t * kt, hi - lo, t))
    return out


def contributors(stream_tile: int, ctas: int, tiles: int, kt: int, groups: int = 1) -> tuple[int, int]:
    """(p_first, count): the CTAs of a group (numbered within it) that share its stream-K
    tile `stream_tile`."""
    per = ctas // groups
    steps = stream_tiles(tiles // groups, per) * kt
    first = cta_of(stream_tile * kt, per, steps)
    last = cta_of(stream_tile * kt + kt - 1, per, steps)
    return first, last - first + 1


def slot(cta: int, stream_tile: int, ctas: int = 1, tiles: int = 1, groups: int = 1) -> int:
    """The workspace slot of CTA `cta`'s partial of its group's stream-K tile `stream_tile`."""
    g, p, per = cta % groups, cta // groups, ctas // groups
    return g * (per + stream_tiles(tiles // groups, per)) + p + stream_tile


def counter(cta: int, stream_tile: int, ctas: int, tiles: int, groups: int = 1) -> int:
    """The index of the u32 counter (after every slot) of CTA `cta`'s group's stream-K tile."""
    return cta % groups * stream_tiles(tiles // groups, ctas // groups) + stream_tile


def workspace_bytes(ctas: int, tiles: int, partial: int, groups: int = 1) -> int:
    """The workspace of a grid of `ctas` CTAs over `tiles` tiles in `groups` groups with
    partial tiles of `partial` bytes: G (P + R_g) slots, then G R_g u32 counters, rounded up
    to 16 bytes."""
    per = ctas // groups
    r = stream_tiles(tiles // groups, per)
    return -(-(groups * ((per + r) * partial + 4 * r)) // 16) * 16


#: The most groups of CTAs (every group needs a CTA: every Hopper GPU has more SMs).
MAX_GROUPS = 16


def stream_k_problem(tiles: int, kt: int, groups: int = 1) -> str | None:
    """Why a GEMM of `tiles` tiles of `kt` K steps cannot be run by stream-K in `groups`
    groups, or None: G divides the tiles, and the K steps are numbered in 32-bit registers."""
    if not 1 <= groups <= MAX_GROUPS:
        return f"stream_k = G is the groups of CTAs that share tiles' K steps, 1 to {MAX_GROUPS}, not {groups}"
    if tiles % groups:
        return (f"stream_k = {groups}: group g takes tiles g, g + {groups}, g + {2 * groups}, ..., so {groups} must divide "
                f"the {tiles} tiles")
    if tiles * kt > MAX_INDEX:
        return (f"stream_k numbers the GEMM's K steps in 32-bit registers: {tiles} tiles of {kt} K steps are "
                f"{tiles * kt}, more than {MAX_INDEX}")
    return None


__all__ = ["MAX_GROUPS", "STREAM_K_F16", "Unit", "contributors", "counter", "cta_of", "cta_range", "dp_waves", "slot",
           "stream_k_problem", "stream_tiles", "units", "workspace_bytes"]
