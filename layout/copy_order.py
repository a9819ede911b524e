"""The order in which a thread copy stores a tile's 16-byte chunks, and the banks
each store phase touches.

lower-tc's thread copy (`tc.copy ... via threads`, lowered by tc-lower-to-ptx)
takes the first element of every 16-byte chunk of the tile, sorts the chunks by
their offset in the global matrix, and lets thread t of a 128-thread CTA store
entry ``r * 128 + t`` in round r, one 16-byte ``st.shared.v4`` each. A warp's
16-byte stores go to shared memory in four phases of 8 consecutive threads; a
phase is conflict-free when its 8 x 4 words fall in 32 different banks.

Kept here, free of xDSL, so that the lowering (`copy_by_threads` in
passes/to_ptx/copies.py) and the layout pictures share one definition;
tests/test_pictures.py checks the PTX tables against it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lower_tc.layout.tile import Major, TileLayout

#: Threads of the CTA that copies a tile (one warpgroup).
COPY_THREADS = 128
#: Threads whose 16-byte stores share memory in one phase of a warp's request.
PHASE_THREADS = 8
#: Shared-memory banks, each 4 bytes wide.
BANKS = 32
BANK_BYTES = 4


@dataclass(frozen=True)
class CopyChunks:
    """A thread copy's 16-byte chunks in store order: chunk i is stored by thread
    ``i % 128`` in round ``i // 128``. `mn`, `k` name each chunk's first element,
    `smem` its shared-memory byte address, `gmem` its global offset in elements."""

    mn: np.ndarray
    k: np.ndarray
    smem: np.ndarray
    gmem: np.ndarray

    def __len__(self) -> int:
        return len(self.smem)


def thread_copy_chunks(layout: TileLayout, s_mn: int, s_k: int) -> CopyChunks:
    """The chunks of `layout` in the order the thread copy stores them, for a global
    matrix whose element (mn, k) is at ``mn * s_mn + k * s_k``.

    Sorting is stable, by element offset; the lowering scales offsets of 4- and
    6-bit types to bytes first, which keeps the order (their chunk offsets are
    multiples of 2 and 4 elements: the copy's verifier requires whole-byte rows)."""
    per = layout.dtype.per_chunk
    if layout.major is Major.K:
        mn, k = np.meshgrid(np.arange(layout.mn), np.arange(0, layout.k, per), indexing="ij")
    else:
        mn, k = np.meshgrid(np.arange(0, layout.mn, per), np.arange(layout.k), indexing="ij")
    mn, k = mn.ravel(), k.ravel()
    smem = layout.addresses(mn, k)
    gmem = mn * s_mn + k * s_k
    order = np.argsort(gmem, kind="stable")
    return CopyChunks(mn[order], k[order], smem[order], gmem[order])


def contiguous_strides(layout: TileLayout, global_major: Major | None = None) -> tuple[int, int]:
    """(s_mn, s_k) of a dense global matrix contiguous along `global_major` (default:
    the tile's own major-ness, the copy that needs no transpose)."""
    major = layout.major if global_major is None else global_major
    return (layout.k, 1) if major is Major.K else (1, layout.mn)


@dataclass(frozen=True)
class StorePhase:
    """One 8-thread phase of 16-byte stores.

    `threads` are CTA thread indices, `chunks` indices into the CopyChunks,
    `addresses` the shared-memory byte address each thread stores at. `ways` is
    the worst bank's number of distinct 4-byte words (1: conflict-free)."""

    round: int
    first_thread: int
    threads: tuple[int, ...]
    chunks: tuple[int, ...]
    addresses: tuple[int, ...]
    ways: int

    @property
    def index(self) -> int:
        """Phase number within the whole copy (round-major)."""
        return self.round * (COPY_THREADS // PHASE_THREADS) + self.first_thread // PHASE_THREADS

    def banks(self) -> list[list[int]]:
        """For each bank, the threads (positions in `threads`) whose store touches it."""
        out: list[list[int]] = [[] for _ in range(BANKS)]
        for pos, addr in enumerate(self.addresses):
            for word in range(16 // BANK_BYTES):
                out[bank_of(addr + word * BANK_BYTES)].append(pos)
        return out


def bank_of(address: int) -> int:
    """The bank of a shared-memory byte address (the dynamic base is 1024-byte aligned)."""
    return (address // BANK_BYTES) % BANKS


def store_phases(chunks: CopyChunks) -> list[StorePhase]:
    """Every store phase of the copy, in order: round by round, 8 threads at a time."""
    phases = []
    n = len(chunks)
    for first in range(0, n, PHASE_THREADS):
        idx = tuple(range(first, min(first + PHASE_THREADS, n)))
        addrs = tuple(int(chunks.smem[i]) for i in idx)
        words: dict[int, set[int]] = {}
        for a in addrs:
            for w in range(16 // BANK_BYTES):
                word = (a + w * BANK_BYTES) // BANK_BYTES
                words.setdefault(word % BANKS, set()).add(word)
        ways = max(len(s) for s in words.values())
        rnd, t0 = divmod(first, COPY_THREADS)
        phases.append(StorePhase(rnd, t0, tuple(t0 + j for j in range(len(idx))), idx, addrs, ways))
    return phases
