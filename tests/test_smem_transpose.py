"""layout/smem_transpose.py: a warpgroup's transposition of an 8-bit tile in shared memory
(MN-major, as TMA loads V, to K-major, what fp8 wgmma reads), run on bytes: every element
lands where the K-major layout puts it, whatever the tiles' shapes and swizzles; the byte
permutes are PTX's prmt; the FP8 attention blocks' plans are free of bank conflicts where
the swizzle allows (128-byte rows); what no plan can do is refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lower_tc.layout import LayoutError
from lower_tc.layout.smem_transpose import (ACCUMULATOR_KEYS, THREADS, permute_block, prmt, simulate, stored_key, transpose_plan,
                                            transpose_problem)
from lower_tc.layout.tile import TileLayout

SWIZZLES = ("128b", "64b", "32b", "none")


def _tiles(mn: int, k: int, src_swizzle: str, dst_swizzle: str, order: str = "mn_first", dtype: str = "e4m3"):
    return (TileLayout.make(dtype, mn, k, "mn", src_swizzle, order=order), TileLayout.make(dtype, mn, k, "k", dst_swizzle))


def _moved_right(src: TileLayout, dst: TileLayout, seed: int = 0, order: bool = False) -> bool:
    """Every K position of the K-major tile holds the MN-major tile's element of the key
    `stored_key` says (the position itself, or its key in accumulator order)."""
    plan = transpose_plan(src, dst, order)
    memory = np.random.default_rng(seed).integers(0, 256, src.footprint, dtype=np.uint8)
    out = simulate(plan, src, dst, memory)
    mn, k = np.meshgrid(np.arange(src.mn), np.arange(src.k), indexing="ij")
    return bool(np.array_equal(out[dst.addresses(mn, k)], memory[src.addresses(mn, stored_key(k, order))]))


def _fits(extent_bytes: int, swizzle: str) -> bool:
    row = {"128b": 128, "64b": 64, "32b": 32, "none": 16}[swizzle]
    return extent_bytes % row == 0


@settings(max_examples=40, deadline=None)
@given(mn=st.sampled_from([16, 32, 64, 128, 256]), k=st.sampled_from([16, 32, 64, 128, 256]),
       src_swizzle=st.sampled_from(SWIZZLES), dst_swizzle=st.sampled_from(SWIZZLES),
       order=st.sampled_from(["mn_first", "k_first"]), seed=st.integers(0, 2**16), keys=st.booleans())
def test_every_element_lands_where_the_k_major_layout_puts_it(mn, k, src_swizzle, dst_swizzle, order, seed, keys) -> None:
    """Any MN x K (16 times a power of two, one block a thread at least) and swizzles that
    fit: simulating the plan (each thread's offsets from its bits and the iteration's XOR,
    its 4 loads, PRMT_STEPS, its 4 stores) writes the K-major tile of the MN-major one,
    its keys in natural order or in the accumulator's."""
    if mn * k < 16 * THREADS or not _fits(mn, src_swizzle) or not _fits(k, dst_swizzle):
        return
    src, dst = _tiles(mn, k, src_swizzle, dst_swizzle, order)
    assert _moved_right(src, dst, seed, keys)


def test_the_accumulator_order_is_a_permutation_of_each_16_keys() -> None:
    """ACCUMULATOR_KEYS: positions 4q .. 4q + 3 of each 16 hold keys 2q, 2q + 1, 2q + 8,
    2q + 9 (what thread q of a quad holds of two n8 blocks), every key once."""
    assert sorted(k for keys in ACCUMULATOR_KEYS for k in keys) == list(range(16))
    assert [int(stored_key(p, True)) for p in range(16, 24)] == [16, 17, 24, 25, 18, 19, 26, 27]
    assert [stored_key(p, False) for p in range(20)] == list(range(20))


@pytest.mark.parametrize(("mn", "k", "src_swizzle", "dst_swizzle", "ratio"), [
    (128, 128, "128b", "128b", 1.0),  # D = 128, 128 keys: FP8_BLOCKS at D 128
    (64, 128, "64b", "128b", 1.5),  # D = 64, 128 keys: the 64-byte rows share a bank window
    (256, 64, "128b", "64b", 1.5),  # D = 256, 64 keys
])
def test_the_attention_blocks_plans_and_their_bank_conflicts(mn, k, src_swizzle, dst_swizzle, ratio) -> None:
    """The op level's fp8 V tiles (layout/attention.py FP8_BLOCKS, the swizzles the chooser
    gives them): right, and their wavefronts: none beyond one an access with 128-byte rows
    on both sides, 1.5 an access where a side has 64-byte rows."""
    src, dst = _tiles(mn, k, src_swizzle, dst_swizzle, "k_first")
    for order in (False, True):
        plan = transpose_plan(src, dst, order)
        assert plan.iterations == mn * k // 16 // THREADS and plan.wide
        assert plan.wavefronts == ratio * plan.accesses
        assert _moved_right(src, dst, order=order)


@pytest.mark.parametrize(("mn", "k", "wide"), [(128, 128, True), (64, 128, True), (64, 64, False)])
def test_a_wide_plan_loads_whole_16_byte_chunks(mn, k, wide) -> None:
    """Where a thread has 4 blocks or more, iterations 4m .. 4m + 3 read the 4 words of one
    16-byte chunk of each key (the lowering's ld.shared.v4 at iteration 4m's offset); with
    fewer (64 x 64: 2 a thread) the plan moves 4 x 4 blocks a lane."""
    src, dst = _tiles(mn, k, "64b" if mn == 64 else "128b", "64b" if k == 64 else "128b")
    plan = transpose_plan(src, dst)
    assert plan.wide is wide
    if wide:
        for t in range(THREADS):
            for n in range(0, plan.iterations, 4):
                start = plan.offsets(t, n)[:4]
                assert all(x % 16 == 0 for x in start)
                for a in range(1, 4):
                    assert plan.offsets(t, n + a)[:4] == [x + 4 * a for x in start]


def test_offsets_are_the_base_xor_the_threads_bits_xor_the_iterations() -> None:
    """What the lowering emits: thread t's offsets in iteration n are base ^ (its bits'
    XORs) ^ step_xor[n]; where step_adds says so, the XOR is an addition (no bit in common
    with any thread's offset), which the lowering folds into the access's immediate."""
    src, dst = _tiles(128, 128, "128b", "128b", "k_first")
    plan = transpose_plan(src, dst)
    for t in range(THREADS):
        first = plan.offsets(t, 0)
        for n in range(plan.iterations):
            got = plan.offsets(t, n)
            for slot, (x, adds) in enumerate(zip(plan.step_xor[n], plan.step_adds[n])):
                assert got[slot] == first[slot] ^ x
                if adds:
                    assert got[slot] == first[slot] + x


def test_prmt_is_ptx_prmt_and_the_steps_transpose_a_block() -> None:
    """prmt.b32 d, a, b, c (default mode): byte i of d is byte c's nibble i of {b, a}; the
    8 steps turn 4 words of 4 columns (one key each) into 4 words of 4 keys (one column)."""
    a, b = 0x33221100, 0x77665544
    assert prmt(a, b, 0x3210) == a and prmt(a, b, 0x7654) == b and prmt(a, b, 0x5140) == 0x55114400
    words = [int.from_bytes(bytes(16 * j + i for i in range(4)), "little") for j in range(4)]  # key j, column i: 16j + i
    out = permute_block(words)
    assert out == [int.from_bytes(bytes(16 * j + i for j in range(4)), "little") for i in range(4)]


@pytest.mark.parametrize(("bits", "mn", "k", "why"), [
    (16, 128, 128, "moves 8-bit elements"),
    (8, 128, 192, "K extent is 16 times a power of two, not 192"),
    (8, 48, 128, "MN extent is 16 times a power of two, not 48"),
    (8, 16, 64, "less than one 4x4 block for each thread of a warpgroup"),
])
def test_what_no_plan_can_do_is_refused(bits, mn, k, why) -> None:
    assert why in (transpose_problem(bits, mn, k) or "")


def test_tiles_a_plan_cannot_join_are_refused() -> None:
    src, dst = _tiles(128, 128, "128b", "128b")
    with pytest.raises(LayoutError, match="from an MN-major tile to a K-major one"):
        transpose_plan(dst, src)
    with pytest.raises(LayoutError, match="differ in shape"):
        transpose_plan(src, TileLayout.make("e4m3", 128, 64, "k", "64b"))
    with pytest.raises(LayoutError, match="tiles of one type"):
        transpose_plan(src, TileLayout.make("e5m2", 128, 128, "k", "128b"))
