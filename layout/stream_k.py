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


def units(cta: int, ctas: int, tiles: int, kt: int) -> list[Unit]:
    """CTA `cta`'s units, in the order it runs them (the module docstring)."""
    d = dp_waves(tiles, ctas)
    out = [Unit(cta + j * ctas, 0, kt) for j in range(d)]
    first_stream = d * ctas
    steps = (tiles - first_stream) * kt
    a, e = cta_range(cta, ctas, steps)
    if e <= a:
        return out
    for t in range(a // kt, (e - 1) // kt + 1):
        lo, hi = max(a, t * kt), min(e, (t + 1) * kt)
        out.append(Unit(first_stream + t, lo - t * kt, hi - lo, t))
    return out


def contributors(stream_tile: int, ctas: int, tiles: int, kt: int) -> tuple[int, int]:
    """(c_first, count): the CTAs that share stream-K tile `stream_tile`."""
    steps = stream_tiles(tiles, ctas) * kt
    first = cta_of(stream_tile * kt, ctas, steps)
    last = cta_of(stream_tile * kt + kt - 1, ctas, steps)
    return first, last - first + 1


def slot(cta: int, stream_tile: int) -> int:
    """The workspace slot of CTA `cta`'s partial of stream-K tile `stream_tile`."""
    return cta + stream_tile


def workspace_bytes(ctas: int, tiles: int, partial: int) -> int:
    """The workspace of a grid of `ctas` CTAs over `tiles` tiles with partial tiles of
    `partial` bytes: C + R slots, then R u32 counters, rounded up to 16 bytes."""
    r = stream_tiles(tiles, ctas)
    return -(-((ctas + r) * partial + 4 * r) // 16) * 16


def stream_k_problem(tiles: int, kt: int) -> str | None:
    """Why a GEMM of `tiles` tiles of `kt` K steps cannot be run by stream-K, or None: its
    K steps are numbered in 32-bit registers."""
    if tiles * kt > MAX_INDEX:
        return (f"stream_k numbers the GEMM's K steps in 32-bit registers: {tiles} tiles of {kt} K steps are "
                f"{tiles * kt}, more than {MAX_INDEX}")
    return None


__all__ = ["STREAM_K_F16", "Unit", "contributors", "cta_of", "cta_range", "dp_waves", "slot", "stream_k_problem",
           "stream_tiles", "units", "workspace_bytes"]
