"""Transposing an 8-bit tile in shared memory, MN-major to K-major (pure math, no xDSL):
where each thread of a warpgroup reads and writes, and the byte permutes between.

fp8 wgmma reads B only K-major. Attention's V is given with its head dim contiguous (the
MN-major B of P V), so a producer warpgroup copies each V tile TMA loaded into a K-major
one (FlashAttention-3's in-kernel transpose; docs/attention.md). The unit of work is a
block of 4 keys x 4 head-dim columns: a thread loads 4 words (one key's 4 columns each:
contiguous in the MN-major tile), permutes their bytes (`PRMT_STEPS`: 8 prmt) into 4 words
(one column's 4 keys each: contiguous in the K-major tile) and stores them.

Which blocks a thread takes is chosen so that (a) every warp access is free of bank
conflicts where a conflict-free assignment exists in the family searched, and (b) every
address is the thread's own constant XOR an iteration's constant. A block is (c, a, e, a'):
head-dim columns 16 c + 4 a .. + 3, keys 16 e + 4 a' .. + 3; c and e (the 16-byte chunks)
are GF(2)-linear in the lane's bits, the warp's and the iteration's. Two families:

* wide (where a thread has 4 blocks or more): a = the iteration mod 4, a' =
  the lane mod 4, so iterations 4m .. 4m + 3 read whole 16-byte chunks (one ld.shared.v4
  a key: a quarter of the load instructions, which cost beside wgmma's operand reads);
* narrow: a = the lane mod 4, a' = the lane div 4 mod 4, one 4-byte load a key.

With swizzle fields at powers of two, a byte offset is then GF(2)-affine in the thread
index: the lowering builds a thread's 8 offsets (4 loads, 4 stores) from 7 bit masks once,
and each iteration XORs in a constant (`TransposePlan`). `simulate` runs a plan on bytes,
for tests.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from lower_tc.layout.errors import LayoutError
from lower_tc.layout.fragments import ACCUMULATOR_ORDER
from lower_tc.layout.tile import Major, TileLayout

#: The threads that transpose: one warpgroup.
THREADS = 128
#: Slots of a thread's offsets: loads 0..3 (keys k0 + j), stores 4..7 (columns d0 + i).
SLOTS = 8
#: The byte transposition of a 4 x 4 block: (result, a, b, selector) for prmt.b32 result, a,
#: b, selector (result byte i is byte nibble_i of {b, a}: 0-3 a's bytes, 4-7 b's). w0..w3 are
#: the loaded words (key j: columns d0..d0+3), o0..o3 the stored ones (column i: keys 0..3).
PRMT_STEPS: tuple[tuple[str, str, str, int], ...] = (
    ("t0", "w0", "w1", 0x5140),  # w0.b0 w1.b0 w0.b1 w1.b1
    ("t1", "w2", "w3", 0x5140),  # w2.b0 w3.b0 w2.b1 w3.b1
    ("t2", "w0", "w1", 0x7362),  # w0.b2 w1.b2 w0.b3 w1.b3
    ("t3", "w2", "w3", 0x7362),  # w2.b2 w3.b2 w2.b3 w3.b3
    ("o0", "t0", "t1", 0x5410),  # column 0: keys 0..3
    ("o1", "t0", "t1", 0x7632),  # column 1
    ("o2", "t2", "t3", 0x5410),  # column 2
    ("o3", "t2", "t3", 0x7632),  # column 3
)


#: Where the K-major tile keeps its keys in `accumulator_order` (layout/fragments.py
#: ACCUMULATOR_ORDER, by quad lane): within each 16, positions 4q .. 4q + 3 hold keys 2q,
#: 2q + 1, 2q + 8, 2q + 9, the columns thread q of a quad holds in wgmma's accumulator
#: fragment. An 8-bit P in that order is each thread's own bytes (`own_words`): no exchange.
ACCUMULATOR_KEYS = tuple(ACCUMULATOR_ORDER[4 * q:4 * q + 4] for q in range(4))
_ORDER = np.array(ACCUMULATOR_ORDER)


def stored_key(position: int | np.ndarray, accumulator_order: bool) -> int | np.ndarray:
    """The key at a K position of the K-major tile (the position itself in natural order)."""
    if not accumulator_order:
        return position
    return position - position % 16 + _ORDER[position % 16]


def _key_rows(a2: np.ndarray | int, j: int, accumulator_order: bool) -> np.ndarray | int:
    """The key (within its 16) of load slot j of a block whose stores go to K positions
    4 a2 .. 4 a2 + 3."""
    return stored_key(4 * np.asarray(a2) + j, accumulator_order)


def prmt(a: int, b: int, selector: int) -> int:
    """PTX prmt.b32 (default mode): result byte i = byte (selector >> 4 i) & 7 of {b, a}."""
    both = (b << 32) | a
    return sum(((both >> (8 * ((selector >> (4 * i)) & 7))) & 0xFF) << (8 * i) for i in range(4))


def permute_block(words: list[int]) -> list[int]:
    """The 4 stored words from the 4 loaded ones, by `PRMT_STEPS`."""
    regs = {f"w{j}": w for j, w in enumerate(words)}
    for out, a, b, sel in PRMT_STEPS:
        regs[out] = prmt(regs[a], regs[b], sel)
    return [regs[f"o{i}"] for i in range(4)]


@dataclass(frozen=True)
class TransposePlan:
    """A warpgroup's transposition of one tile: thread t's byte offsets (from each tile's
    start) in iteration n are base[s] ^ (XOR of thread_xor[b][s] over the set bits b of t) ^
    step_xor[n][s], slots 0..3 loads (one key's 4 columns), 4..7 stores (one column's 4
    keys). Where step_xor[n][s] has no bit in common with slot s's offset of any thread
    (`step_adds`), the XOR is an addition: an immediate offset of the access. A `wide` plan's
    iterations 4m + a (a = 0..3) take the 4 words of one 16-byte chunk of each key: the
    lowering loads them with one ld.shared.v4 at iteration 4m's offsets. `wavefronts`
    counts the shared-memory wavefronts of all warps' accesses (bank conflicts included);
    `accesses` the warp accesses as emitted (each at least one wavefront, four for a
    16-byte load)."""

    iterations: int
    base: tuple[int, ...]
    thread_xor: tuple[tuple[int, ...], ...]  # per bit of the thread index (7)
    step_xor: tuple[tuple[int, ...], ...]  # per iteration
    step_adds: tuple[tuple[bool, ...], ...]  # per iteration: whose XOR adds
    wavefronts: int
    accesses: int
    wide: bool = False  # iterations 4m .. 4m + 3 load one 16-byte chunk a key (ld.shared.v4)
    accumulator_order: bool = False  # the K-major tile's keys as ACCUMULATOR_KEYS orders them

    def offsets(self, thread: int, n: int) -> list[int]:
        """Thread `thread`'s 8 offsets in iteration n."""
        out = list(self.base)
        for bit, xs in enumerate(self.thread_xor):
            if thread >> bit & 1:
                out = [o ^ x for o, x in zip(out, xs)]
        return [o ^ x for o, x in zip(out, self.step_xor[n])]


def transpose_problem(bits: int, mn: int, k: int) -> str | None:
    """Why a warpgroup cannot transpose an MN x K tile of `bits`-bit elements, or None."""
    if bits != 8:
        return f"the transposition moves 8-bit elements (fp8 wgmma's K-major B), not {bits}-bit ones"
    for n, what in ((mn, "MN"), (k, "K")):
        if n % 16 or (n // 16) & (n // 16 - 1):
            return f"the transposition takes a tile whose {what} extent is 16 times a power of two, not {n}"
    if mn * k < 16 * 128:
        return f"a {mn}x{k} tile is less than one 4x4 block for each thread of a warpgroup"
    return None


def _check(src: TileLayout, dst: TileLayout) -> tuple[int, int]:
    """(chunks along the head dim, chunks along the keys), or a LayoutError."""
    if src.dtype != dst.dtype or src.dtype.padded:
        raise LayoutError(f"the transposition moves elements between tiles of one type, not {src.dtype} to {dst.dtype}")
    if src.major is not Major.MN or dst.major is not Major.K:
        raise LayoutError(f"the transposition goes from an MN-major tile to a K-major one, not {src.major} to {dst.major}")
    if (src.mn, src.k) != (dst.mn, dst.k):
        raise LayoutError(f"the transposed tiles differ in shape: {src.mn}x{src.k} and {dst.mn}x{dst.k}")
    why = transpose_problem(src.dtype.bits, src.mn, src.k)
    if why:
        raise LayoutError(why)
    return src.mn // 16, src.k // 16


def _linear(columns: tuple[int, ...], bits: int) -> int:
    """The XOR of the columns whose bit is set in `bits`."""
    out = 0
    for i, col in enumerate(columns):
        if bits >> i & 1:
            out ^= col
    return out


def _offsets(layout: TileLayout, mn: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Byte offsets from the tile's start (swizzled as placed: TMA's absolute bits)."""
    return layout.addresses(mn, k) - layout.address


def _degree(offsets: np.ndarray) -> int:
    """Shared-memory wavefronts of one warp access of 32 words (32 banks of 4 bytes): the
    most distinct words in one bank."""
    words = offsets >> 2
    banks = words & 31
    return max(len(set(words[banks == b].tolist())) for b in set(banks.tolist()))


def _degree16(offsets: np.ndarray) -> int:
    """Shared-memory wavefronts of one warp access of 16 bytes a lane: four phases of 8
    lanes, each as many as the most distinct chunks on one of the 8 16-byte bank groups."""
    chunks = offsets >> 4
    total = 0
    for p in range(4):
        phase = chunks[8 * p:8 * p + 8]
        total += max(len(set(phase[(phase & 7) == b].tolist())) for b in set((phase & 7).tolist()))
    return total


def _lanes_per_bank(offsets: np.ndarray) -> int:
    """The most lanes on one bank: the wavefronts where every lane's word is its own (as
    in a plan, whose lanes take distinct blocks)."""
    return int(np.bincount((offsets >> 2) & 31).max())


@dataclass(frozen=True)
class _BlockMap:
    """Which block (c, a, e, a') thread t takes in iteration n: c and e (the 16-byte chunks
    along the head dim and the keys) are GF(2)-linear maps `f`, `g` of the lane's 5 bits,
    XORed with the warp's (`warp`) and the step's (`step`, over n, or n div 4 in a wide
    plan). Narrow: a = lane mod 4, a' = lane div 4 mod 4. Wide: a = n mod 4 (iterations
    4m .. 4m + 3 take the 4 words of one chunk), a' = lane mod 4."""

    f: tuple[int, ...]
    g: tuple[int, ...]
    warp: tuple[tuple[int, int], ...]
    step: tuple[tuple[int, int], ...]
    wide: bool

    def blocks(self, thread: int, n: int) -> tuple[int, int, int, int]:
        """(c, a, e, a') of thread `thread`'s block in iteration n."""
        lane, w = thread % 32, thread // 32
        c, e = _linear(self.f, lane), _linear(self.g, lane)
        for i, (dc, de) in enumerate(self.warp):
            if w >> i & 1:
                c, e = c ^ dc, e ^ de
        for i, (dc, de) in enumerate(self.step):
            if (n >> 2 if self.wide else n) >> i & 1:
                c, e = c ^ dc, e ^ de
        return (c, n & 3, e, lane & 3) if self.wide else (c, lane & 3, e, (lane >> 2) & 3)


_LANE = np.arange(32)
_LANE_BITS = (_LANE[:, None] >> np.arange(5)) & 1


def _lane_map(cols: tuple[int, ...]) -> np.ndarray:
    """Each lane's chunk index under the linear map of its 5 bits with these columns."""
    return np.bitwise_xor.reduce(_LANE_BITS * np.array(cols), axis=1)


def _narrow_c(f: tuple[int, ...]) -> tuple[int, ...]:
    """A narrow plan's c map (of a' = lane bits 2, 3 and h = bit 4) over the lane's 5 bits."""
    return (0, 0, *f)


def _narrow_e(g: tuple[int, ...]) -> tuple[int, ...]:
    """A narrow plan's e map (of a = lane bits 0, 1 and h = bit 4) over the lane's 5 bits."""
    return (g[0], g[1], 0, 0, g[2])


def _source_degree(src: TileLayout, f: tuple[int, int, int], order: bool) -> int:
    """Wavefronts of one warp's 4 loads with c = f(a', h), each lane's word its own (e = 0:
    a load's bank does not depend on the key chunk)."""
    c, a, a2 = _lane_map(_narrow_c(f)), _LANE & 3, (_LANE >> 2) & 3
    return sum(_lanes_per_bank(_offsets(src, 16 * c + 4 * a, _key_rows(a2, j, order))) for j in range(4))


def _dest_degree(dst: TileLayout, g: tuple[int, int, int]) -> int:
    e, a, a2 = _lane_map(_narrow_e(g)), _LANE & 3, (_LANE >> 2) & 3
    return sum(_lanes_per_bank(_offsets(dst, 4 * a + i, 16 * e + 4 * a2)) for i in range(4))


def _best(columns: int, degree) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """The linear map (3 columns in 0..columns-1) of fewest wavefronts (4 is the least)."""
    best, best_cost = (0, 0, 0), None
    for cand in itertools.product(range(columns), repeat=3):
        cost = degree(cand)
        if best_cost is None or cost < best_cost:
            best, best_cost = cand, cost
            if cost == 4:
                break
    return best


def _narrow_map(src: TileLayout, dst: TileLayout, cn: int, en: int, order: bool) -> _BlockMap:
    """Blocks of 4 x 4 bytes a lane (module docstring)."""
    f = _best(cn, lambda cand: _source_degree(src, cand, order))
    g = _best(en, lambda cand: _dest_degree(dst, cand))
    cbits, ebits = cn.bit_length() - 1, en.bit_length() - 1
    # h toggles (f_h, g_h); the warps and iterations range over the rest of the (c, e) space
    fh, gh = f[2], g[2]
    if (fh, gh) == (0, 0):  # h must move the block: take it off c's top bit (e's, where c has one value)
        if cn > 1:
            f = (f[0], f[1], cn // 2)
        else:
            g = (g[0], g[1], en // 2)
        fh, gh = f[2], g[2]
    toggle = fh | gh << cbits
    low = (toggle & -toggle).bit_length() - 1
    basis = [1 << b for b in range(cbits + ebits) if b != low]
    vecs = [(v & (cn - 1), v >> cbits) for v in basis]
    return _BlockMap(_narrow_c(f), _narrow_e(g), tuple(vecs[:2]), tuple(vecs[2:]), wide=False)


def _wide_load_cost(src: TileLayout, f: tuple[int, ...], order: bool) -> int:
    """Wavefronts of one warp's four 16-byte loads (8 lanes a phase; each lane its own
    chunk: the most lanes on one 16-byte bank group of a phase)."""
    c = _lane_map(f)
    cost = 0
    for j in range(4):
        slots = (_offsets(src, 16 * c, _key_rows(_LANE & 3, j, order)) >> 4) & 7
        cost += sum(int(np.bincount(slots[8 * p:8 * p + 8]).max()) for p in range(4))
    return cost


def _wide_store_cost(dst: TileLayout, g: tuple[int, ...]) -> int:
    e = _lane_map(g)
    return sum(_lanes_per_bank(_offsets(dst, np.full(32, i), 16 * e + 4 * (_LANE & 3))) for i in range(4))


#: The most candidate maps a wide plan's search weighs for each side.
WIDE_SEARCH = 4000


def _wide_candidates(columns: int):  # type: ignore[no-untyped-def]
    """Linear maps of a lane's 5 bits (a' then h) to chunk indices in 0..columns-1, likely
    ones first: the h bits' columns distinct units (what spreads a phase's lanes), a''s
    from 0, the units and their pairs; then the rest, up to WIDE_SEARCH."""
    units = [1 << b for b in range(columns.bit_length() - 1)] or [0]
    small = [0, *units, *(x ^ y for x, y in itertools.combinations(units, 2))]
    firsts = list(itertools.permutations(units + [0] * 3, 3))
    seen: set[tuple[int, ...]] = set()
    count = 0
    for h_cols in itertools.chain(dict.fromkeys(firsts), itertools.product(range(columns), repeat=3)):
        for a_pair in itertools.product(small, repeat=2):
            cand = (*a_pair, *h_cols)
            if cand in seen:
                continue
            seen.add(cand)
            yield cand
            count += 1
            if count >= WIDE_SEARCH:
                return


def _rank(vectors: list[int]) -> int:
    """Rank over GF(2) of bit vectors."""
    rows, rank = list(vectors), 0
    for bit in range(32):
        pivot = next((r for r in rows if r >> bit & 1), None)
        if pivot is None:
            continue
        rows = [r ^ pivot if r >> bit & 1 and r is not pivot else r for r in rows if r is not pivot]
        rank += 1
    return rank


def _wide_map(src: TileLayout, dst: TileLayout, cn: int, en: int, order: bool) -> _BlockMap:
    """The lanes' maps of fewest wavefronts found (loads first, then stores among the maps
    that give each key offset's 8 lanes 8 distinct blocks), the warps' and the 16-byte
    groups' (c, e) spanning the rest."""
    cbits, ebits = cn.bit_length() - 1, en.bit_length() - 1
    best_f, cost_f = None, None
    for f in _wide_candidates(cn):
        cost = _wide_load_cost(src, f, order)
        if cost_f is None or cost < cost_f:
            best_f, cost_f = f, cost
            if cost == 16:
                break
    assert best_f is not None
    best_g, cost_g = None, None
    for g in _wide_candidates(en):
        if _rank([best_f[b] | g[b] << cbits for b in range(2, 5)]) != 3:
            continue
        cost = _wide_store_cost(dst, g)
        if cost_g is None or cost < cost_g:
            best_g, cost_g = g, cost
            if cost == 4:
                break
    if best_g is None:
        raise LayoutError("no 16-byte-load transposition for these tiles")
    lane_vecs = [best_f[b] | best_g[b] << cbits for b in range(2, 5)]  # the h bits' (c, e): 8 blocks a key offset
    rest: list[int] = []
    for b in range(cbits + ebits):
        if _rank(lane_vecs + rest + [1 << b]) > 3 + len(rest):
            rest.append(1 << b)
    vecs = [(v & (cn - 1), v >> cbits) for v in rest]
    return _BlockMap(best_f, best_g, tuple(vecs[:2]), tuple(vecs[2:]), wide=True)


def _build(src: TileLayout, dst: TileLayout, m: _BlockMap, iterations: int, order: bool) -> TransposePlan:
    """The plan of a block map: checked to cover the tile, its offsets affine in the
    thread's bits and the iteration's, each slot's 4 bytes contiguous and aligned."""
    cn, en, wide = src.mn // 16, src.k // 16, m.wide
    seen = set()
    for t in range(THREADS):
        for n in range(iterations):
            seen.add(m.blocks(t, n))
    if len(seen) != cn * en * 16:
        raise LayoutError("internal: the transposition's blocks do not cover the tile")  # pragma: no cover
    table = np.zeros((THREADS, iterations, SLOTS), dtype=np.int64)
    for t in range(THREADS):
        for n in range(iterations):
            c, a, e, a2 = m.blocks(t, n)
            d0, k0 = 16 * c + 4 * a, 16 * e + 4 * a2
            loads = _offsets(src, np.full(4, d0), 16 * e + np.array([_key_rows(a2, j, order) for j in range(4)]))
            stores = _offsets(dst, d0 + np.arange(4), np.full(4, k0))
            table[t, n] = np.concatenate([loads, stores])
    for layout, first, step in ((src, 0, lambda d, k, b: (d + b, k)), (dst, 4, lambda d, k, b: (d, k + b))):
        for t in range(THREADS):  # each slot's word is 4 contiguous, aligned bytes
            c, a, e, a2 = m.blocks(t, 0)
            for s in range(4):
                d, k = (16 * c + 4 * a, 16 * e + int(_key_rows(a2, s, order))) if first == 0 else (16 * c + 4 * a + s, 16 * e + 4 * a2)
                got = [int(_offsets(layout, *step(d, k, b))) for b in range(4)]
                if got != list(range(got[0], got[0] + 4)) or got[0] % 4:
                    raise LayoutError(f"the {layout.major}-major tile does not hold 4 aligned bytes together at ({d}, {k})")
    if wide:  # iterations 4m .. 4m + 3: one 16-byte chunk of each key
        starts = table[:, 0::4, :4]
        for a in range(4):
            if not np.array_equal(table[:, a::4, :4], starts + 4 * a) or np.any(starts % 16):
                raise LayoutError("internal: a wide plan's loads are not whole 16-byte chunks")  # pragma: no cover
    base = table[0, 0]
    thread_xor = tuple(tuple(int(x) for x in table[1 << b, 0] ^ base) for b in range(7))
    step_xor = tuple(tuple(int(x) for x in table[0, n] ^ base) for n in range(iterations))
    disjoint = tuple(tuple(bool(np.all(table[:, 0, sl] & x == 0)) for sl, x in enumerate(xs)) for xs in step_xor)
    plan = TransposePlan(iterations, tuple(int(x) for x in base), thread_xor, step_xor, disjoint, 0, 0, wide, order)
    for t in range(THREADS):
        for n in range(iterations):
            if plan.offsets(t, n) != [int(x) for x in table[t, n]]:
                raise LayoutError(f"the transposition's offsets are not affine in the thread's bits for {src} to {dst}: "
                                  "a swizzle field is not a power of two")
    wavefronts = accesses = 0
    for w in range(4):
        for n in range(iterations):
            for s in range(SLOTS):
                if wide and s < 4:
                    if n % 4:
                        continue
                    wavefronts += _degree16(table[w * 32:(w + 1) * 32, n, s])
                    accesses += 4
                else:
                    wavefronts += _degree(table[w * 32:(w + 1) * 32, n, s])
                    accesses += 1
    return replace(plan, wavefronts=wavefronts, accesses=accesses)


@lru_cache(maxsize=64)
def transpose_plan(src: TileLayout, dst: TileLayout, accumulator_order: bool = False) -> TransposePlan:
    """The plan moving MN-major `src` to K-major `dst` (8-bit, same MN x K), both as placed
    (their swizzle must not depend on where a stage starts: the lowering checks the ring).
    Where each thread has 4 blocks or more, a wide plan (16-byte loads: the same bytes in a
    quarter of the load instructions, which cost about half as much beside wgmma's reads,
    docs/attention.md); else blocks of 4 x 4 bytes a lane. With `accumulator_order`, the
    K-major tile's keys go where ACCUMULATOR_KEYS puts them (each block's 4 loads read keys
    2q, 2q + 1, 2q + 8, 2q + 9 of a 16, its stores fill positions 4q .. 4q + 3). Raises
    LayoutError for what it cannot do (module docstring)."""
    cn, en = _check(src, dst)
    iterations = cn * en * 16 // THREADS
    order = accumulator_order
    if iterations >= 4:
        try:
            return _build(src, dst, _wide_map(src, dst, cn, en, order), iterations, order)
        except LayoutError:
            pass
    return _build(src, dst, _narrow_map(src, dst, cn, en, order), iterations, order)


def simulate(plan: TransposePlan, src: TileLayout, dst: TileLayout, memory: np.ndarray) -> np.ndarray:
    """Runs the plan on `memory` (the source tile's bytes from its start) and returns the
    destination tile's bytes (its footprint, 0 where nothing was stored)."""
    out = np.zeros(dst.footprint, dtype=np.uint8)
    for t in range(THREADS):
        for n in range(plan.iterations):
            offs = plan.offsets(t, n)
            words = [int.from_bytes(memory[o:o + 4].tobytes(), "little") for o in offs[:4]]
            for o, w in zip(offs[4:], permute_block(words)):
                out[o:o + 4] = np.frombuffer(w.to_bytes(4, "little"), dtype=np.uint8)
    return out


__all__ = ["ACCUMULATOR_KEYS", "stored_key", "PRMT_STEPS", "SLOTS", "THREADS", "TransposePlan", "permute_block", "prmt", "simulate", "transpose_plan",
           "transpose_problem"]
