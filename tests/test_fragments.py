"""wgmma's register fragments (layout/fragments.py): each layout covers its matrix once, the
accumulator's slot is the inverse of its position, and the accumulator -> A operand map that
attention's P needs (16-bit: the thread's own registers in order; 8-bit: within its quad)."""

from __future__ import annotations

import numpy as np
import pytest

from lower_tc.layout.fragments import (
    A_REGISTERS, K_PER_SLICE, THREADS, Source, a_element_position, a_from_accumulator, a_register_start,
    accumulator_position, accumulator_slot, from_own_registers,
)


@pytest.mark.parametrize("n", [8, 64, 136, 256])
def test_the_accumulator_covers_its_64_x_n_tile_once_and_slot_inverts_position(n: int) -> None:
    t, i = np.meshgrid(np.arange(THREADS), np.arange(n // 2), indexing="ij")
    row, col = accumulator_position(t, i)
    assert row.min() == 0 and row.max() == 63 and col.min() == 0 and col.max() == n - 1
    assert len(set(zip(row.ravel().tolist(), col.ravel().tolist()))) == 64 * n
    back_t, back_i = accumulator_slot(row, col)
    assert (back_t == t).all() and (back_i == i).all()


def test_the_accumulator_holds_what_the_register_epilogue_stores() -> None:
    """The epilogue's rule (passes/to_ptx/gemm/epilogue_registers.py): lane 4g + q of warp w
    holds rows 16w + g and 16w + g + 8, columns 8j + 2q and 8j + 2q + 1 of each n8 block j."""
    for t in (0, 5, 37, 127):
        w, g, q = t // 32, (t % 32) // 4, t % 4
        for j in range(4):
            got = {tuple(int(v) for v in accumulator_position(t, 4 * j + e)) for e in range(4)}
            assert got == {(16 * w + g + 8 * h, 8 * j + 2 * q + c) for h in (0, 1) for c in (0, 1)}


@pytest.mark.parametrize("bits", [8, 16, 32])
def test_a_in_registers_covers_its_64_x_k_slice_once(bits: int) -> None:
    per = 32 // bits
    t, r, e = np.meshgrid(np.arange(THREADS), np.arange(A_REGISTERS), np.arange(per), indexing="ij")
    row, col = a_element_position(bits, t, r, e)
    cells = set(zip(row.ravel().tolist(), col.ravel().tolist()))
    assert len(cells) == 64 * K_PER_SLICE[bits] == THREADS * A_REGISTERS * per
    assert max(c for _, c in cells) == K_PER_SLICE[bits] - 1


def test_an_element_width_without_a_register_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="8-, 16- or 32-bit elements, not 4-bit"):
        a_register_start(4, 0, 0)


@pytest.mark.parametrize("k_slice", [0, 1, 3])
def test_16_bit_p_is_the_threads_own_accumulator_in_order(k_slice: int) -> None:
    """Two n8 blocks of the accumulator are one k16 A slice: A register r of K-slice s is
    accumulator registers 8s + 2r and 8s + 2r + 1 of the same thread (low element first),
    which is why a conversion and a pack are all P needs in 16-bit."""
    sources = a_from_accumulator(16, k_slice)
    for t in range(THREADS):
        for r in range(A_REGISTERS):
            assert sources[t][r] == [Source(t, 8 * k_slice + 2 * r), Source(t, 8 * k_slice + 2 * r + 1)]
    assert from_own_registers(16, k_slice)


@pytest.mark.parametrize("k_slice", [0, 2])
def test_8_bit_p_moves_only_within_a_quad_and_uses_each_accumulator_register_once(k_slice: int) -> None:
    """8-bit A holds four adjacent columns where the accumulator holds two: each A register
    takes bytes from two threads of its own quad (lanes 4g .. 4g + 3), never further."""
    sources = a_from_accumulator(8, k_slice)
    used = []
    for t in range(THREADS):
        for r in range(A_REGISTERS):
            threads = {s.thread for s in sources[t][r]}
            assert len(threads) == 2 and all(s // 4 == t // 4 for s in threads)
            used.extend((s.thread, s.register) for s in sources[t][r])
    assert len(used) == len(set(used)) == THREADS * 16
    assert {reg for _, reg in used} == set(range(16 * k_slice, 16 * k_slice + 16))
    assert not from_own_registers(8, k_slice)


def test_32_bit_a_from_the_accumulator_needs_other_threads_too() -> None:
    assert not from_own_registers(32, 0)


@pytest.mark.parametrize("k_slice", range(4))
def test_the_8_bit_quad_exchange_builds_every_a_register_byte_from_its_source(k_slice: int) -> None:
    """The exchange tc.acc_to_a lowers to (pack two pairs of bytes per word, read the words
    of quad lanes 2 (q % 2) and 2 (q % 2) + 1, keep half q // 2 of each), simulated on
    labelled registers, puts in every byte the accumulator element `a_from_accumulator`
    names; with the two lanes' bytes the other way round it would not."""
    from lower_tc.layout.fragments import SELECTORS, simulate_quad_exchange

    acc = np.array([[1000 * t + r for r in range(4 * 4 * (k_slice + 1) + 16)] for t in range(THREADS)])
    want = np.array([[[1000 * s.thread + s.register for s in elems] for elems in regs]
                     for regs in a_from_accumulator(8, k_slice)])
    got = simulate_quad_exchange(acc, k_slice)
    assert (got == want).all()
    assert not (got[:, :, [2, 3, 0, 1]] == want).all()  # the two lanes' bytes swapped
    assert SELECTORS == (0x5410, 0x7632)  # prmt: bytes 0-1 of each word, or 2-3


@pytest.mark.parametrize("k_slice", [0, 1, 3])
def test_8_bit_p_in_accumulator_order_is_each_threads_own_packed_words(k_slice: int) -> None:
    """With V's keys stored in the accumulator's order (tc.tile_transpose {accumulator_order}),
    A register r of every thread is the word it would have sent in the quad exchange: its
    own pairs of n8 blocks 4s + 2 (r // 2) and + 1, row half r % 2 (`own_words`); natural
    order would need other lanes' bytes."""
    from lower_tc.layout.fragments import ACCUMULATOR_ORDER, own_words, packed_pairs

    assert sorted(ACCUMULATOR_ORDER) == list(range(16))
    want = a_from_accumulator(8, k_slice, ACCUMULATOR_ORDER)
    for t in range(THREADS):
        for r, (word, half) in enumerate(own_words(k_slice)):
            (a0, a1), (b0, b1) = packed_pairs(k_slice, word, half)
            assert [(s.thread, s.register) for s in want[t][r]] == [(t, a0), (t, a1), (t, b0), (t, b1)]
    natural = a_from_accumulator(8, k_slice)
    assert any(s.thread != t for t, regs in enumerate(natural) for elems in regs for s in elems)
