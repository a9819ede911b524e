"""Where the elements of wgmma's register fragments sit: which thread of the warpgroup, and
which register of it, holds row r and column c of a 64-row matrix (PTX ISA 9.7.15.5.1.1:
the m64nNk* fragments; each warp w of the four holds rows 16w .. 16w + 15, laid out as
mma.m16n8k* lays out its 16 rows).

Thread t of the warpgroup is lane l of warp w = t // 32; its group g = l // 4 and its place
in the quad q = l % 4.

- The accumulator D of an m64nN wgmma (f32 or s32, one element per register): register i
  holds row 16w + g + 8 ((i % 4) // 2), column 8 (i // 4) + 2q + i % 2; every n8 block of
  columns is four registers.
- A in registers (four 32-bit registers per K-slice): register r holds row 16w + g + 8 (r % 2)
  and the 32 bits that start at column 8 (r // 2) + 2q (16-bit: two elements, K-slice 16),
  16 (r // 2) + 4q (8-bit: four elements, K-slice 32) or 4 (r // 2) + q (tf32: one, K-slice 8).

Why this module: attention computes S = Q K^T into the accumulator and feeds P = softmax(S)
to the next wgmma as its A operand in registers. `a_from_accumulator` says, for every A
register element of a K-slice, which thread's accumulator register holds it: for 16-bit P
it is the thread's own registers 8s .. 8s + 7 in order (two n8 blocks are one k16 slice, as
FlashAttention-3 reinterprets them); for 8-bit P each A register takes its four bytes from
two threads of its own quad (a shuffle within four lanes), because 8-bit A holds four
adjacent columns where the accumulator holds two. The A layout here is the one the
register-A wgmma lowering loads (passes/to_ptx/wgmma.py), which the single-tile sweep's
register-A rows check on the GPU.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Threads of a warpgroup.
THREADS = 128
#: A's registers per thread and K-slice.
A_REGISTERS = 4
#: K columns of one wgmma K-slice, by the operand's element bits.
K_PER_SLICE = {16: 16, 8: 32, 32: 8}


def thread_parts(thread: np.ndarray | int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(warp, group, place in the quad) of thread(s) of the warpgroup."""
    t = np.asarray(thread)
    lane = t % 32
    return t // 32, lane // 4, lane % 4


def accumulator_position(thread: np.ndarray | int, register: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of accumulator register `register` of `thread` (one 32-bit element each)."""
    w, g, q = thread_parts(thread)
    i = np.asarray(register)
    return 16 * w + g + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * q + i % 2


def accumulator_slot(row: np.ndarray | int, column: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    """(thread, register) that holds accumulator element (row, column): the inverse of
    `accumulator_position`."""
    r, c = np.asarray(row), np.asarray(column)
    w, g, half = r // 16, r % 8, (r % 16) // 8
    q = (c % 8) // 2
    return 32 * w + 4 * g + q, 4 * (c // 8) + 2 * half + c % 2


def a_register_start(bits: int, thread: np.ndarray | int, register: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    """(row, first column within the K-slice) of A register `register` (0 to 3) of `thread`:
    the register holds 32 // bits consecutive columns of that row from there."""
    if bits not in K_PER_SLICE:
        raise ValueError(f"A in registers has 8-, 16- or 32-bit elements, not {bits}-bit")
    w, g, q = thread_parts(thread)
    r = np.asarray(register)
    row = 16 * w + g + 8 * (r % 2)
    col = {16: 8 * (r // 2) + 2 * q, 8: 16 * (r // 2) + 4 * q, 32: 4 * (r // 2) + q}[bits]
    return row, col


def a_element_position(bits: int, thread: np.ndarray | int, register: np.ndarray | int,
                       element: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    """(row, column within the K-slice) of element `element` (from the low bits) of A
    register `register` of `thread`."""
    row, col = a_register_start(bits, thread, register)
    return row, col + np.asarray(element)


@dataclass(frozen=True)
class Source:
    """Where one element of an A register comes from: accumulator register `register` of
    thread `thread`."""

    thread: int
    register: int


def a_from_accumulator(bits: int, k_slice: int, order: tuple[int, ...] | None = None) -> list[list[list[Source]]]:
    """For K-slice `k_slice` of an A operand whose K columns are the accumulator's columns
    (A = the accumulator, converted to `bits`-bit elements), the source of every element:
    [thread][register][element], elements from the low bits. With `order` (16 entries, as
    ACCUMULATOR_ORDER), K position p holds column 16 (p // 16) + order[p % 16]."""
    per = 32 // bits
    k = K_PER_SLICE[bits]
    out: list[list[list[Source]]] = []
    for t in range(THREADS):
        regs = []
        for r in range(A_REGISTERS):
            row, col = a_register_start(bits, t, r)
            elems = []
            for e in range(per):
                p = k * k_slice + col + e
                thread, register = accumulator_slot(row, p if order is None else p - p % 16 + order[p % 16])
                elems.append(Source(int(thread), int(register)))
            regs.append(elems)
        out.append(regs)
    return out


def from_own_registers(bits: int, k_slice: int) -> bool:
    """Whether every A element of the K-slice is in its own thread's accumulator (no data
    moves between threads: a conversion and a pack suffice)."""
    return all(src.thread == t for t, regs in enumerate(a_from_accumulator(bits, k_slice)) for elems in regs for src in elems)


@dataclass(frozen=True)
class QuadExchange:
    """How 8-bit A register `register` of K-slice `k_slice` is made from the accumulator
    (`quad_exchange`): every thread first packs `packed`, the two 32-bit words of 8-bit
    values it sends (word j: accumulator registers (lo, hi) of two n8 blocks, each pair
    rounded to two bytes, block 4s + 2j in the low 16 bits, block 4s + 2j + 1 in the high);
    then thread q of a quad reads word `word` from quad lanes 2 (q % 2) and 2 (q % 2) + 1
    (shfl.sync.idx) and keeps half q // 2 of each: the first lane's two bytes low, the
    second's high (prmt with SELECTORS[q // 2])."""

    k_slice: int
    register: int
    word: int  # which of the sender's packed words (j = register // 2)
    half: int  # accumulator row half h = register % 2: which pairs the word holds


#: prmt.b32 selectors that take the low (0x5410) or high (0x7632) 16 bits of each of two
#: words, the first word's bytes low.
SELECTORS = (0x5410, 0x7632)


def packed_pairs(k_slice: int, word: int, half: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The accumulator registers a thread rounds into `word` (0 or 1) of row half `half`:
    ((lo, hi) of n8 block 4s + 2 word, (lo, hi) of block 4s + 2 word + 1), each pair two
    adjacent columns (register 4i + 2h + e holds column 8i + 2q + e)."""
    blocks = (4 * k_slice + 2 * word, 4 * k_slice + 2 * word + 1)
    return tuple((4 * i + 2 * half, 4 * i + 2 * half + 1) for i in blocks)  # type: ignore[return-value]


def quad_exchange(k_slice: int) -> list[QuadExchange]:
    """The four 8-bit A registers of K-slice `k_slice` as exchanges within each quad (the
    8-bit A register r of thread q holds four columns from 16 (r // 2) + 4q: two from each
    of quad lanes 2 (q % 2) and 2 (q % 2) + 1, of n8 block 4s + 2 (r // 2) + q // 2).
    tests/test_fragments.py checks it against `a_from_accumulator` element by element."""
    return [QuadExchange(k_slice, r, r // 2, r % 2) for r in range(A_REGISTERS)]


#: Within each 16 K positions of an 8-bit A fragment in `accumulator order`, the column
#: (key) at positions 4q .. 4q + 3: 2q, 2q + 1, 2q + 8, 2q + 9, what thread q of a quad holds
#: of n8 blocks 2g and 2g + 1 (layout/smem_transpose.py ACCUMULATOR_KEYS stores V's keys so;
#: `a_from_accumulator(8, s, ACCUMULATOR_ORDER)` is such an A's sources).
ACCUMULATOR_ORDER = tuple(k for q in range(4) for k in (2 * q, 2 * q + 1, 2 * q + 8, 2 * q + 9))


def own_words(k_slice: int) -> list[tuple[int, int]]:
    """An 8-bit A fragment in accumulator order: register r of the K-slice is the word the
    quad exchange's sender packs, `packed_pairs(k_slice, r // 2, r % 2)`, of the thread's
    own registers: (word, half) for each register. No data moves between threads."""
    return [(r // 2, r % 2) for r in range(A_REGISTERS)]


def simulate_quad_exchange(acc: np.ndarray, k_slice: int) -> np.ndarray:
    """What the exchange leaves in each thread's A registers of the K-slice, for an
    accumulator `acc[thread, register]` of labels: [thread, register, byte] (the byte from
    the low bits). The lowering's data movement in numpy, to test it."""
    out = np.zeros((THREADS, A_REGISTERS, 4), dtype=acc.dtype)
    for x in quad_exchange(k_slice):
        # every sender's word: block 4s + 2j's pair in bytes 0-1, the next block's in 2-3
        (a0, a1), (b0, b1) = packed_pairs(k_slice, x.word, x.half)
        word = np.stack([acc[:, a0], acc[:, a1], acc[:, b0], acc[:, b1]], axis=1)  # [sender, byte]
        for t in range(THREADS):
            q = t % 4
            first = t - q + 2 * (q % 2)
            lo, hi = word[first], word[first + 1]
            sel = [0, 1] if q // 2 == 0 else [2, 3]
            out[t, x.register] = [lo[sel[0]], lo[sel[1]], hi[sel[0]], hi[sel[1]]]
    return out


__all__ = [
    "ACCUMULATOR_ORDER", "own_words",
    "A_REGISTERS", "K_PER_SLICE", "SELECTORS", "THREADS", "QuadExchange", "Source", "a_element_position",
    "a_from_accumulator", "a_register_start", "accumulator_position", "accumulator_slot", "from_own_registers",
    "packed_pairs", "quad_exchange", "simulate_quad_exchange", "thread_parts",
]
