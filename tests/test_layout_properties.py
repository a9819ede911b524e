"""Property tests over random legal layouts, and the layout's refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lower_tc.layout import (
    ELEMENT_TYPES,
    Arch,
    AtomOrder,
    LayoutError,
    Major,
    Swizzle,
    TileLayout,
    base_offset_for,
    emulate_reads,
    k_slices,
)
from lower_tc.layout.targets import MN_MAJOR_TYPES, OPERAND_TYPES, swizzle_rule


@st.composite
def layouts(draw, swizzled_from_origin: bool = False) -> tuple[Arch, TileLayout]:
    """A random legal layout; with `swizzled_from_origin`, only swizzled ones with a swizzle
    origin (drawn directly, not filtered: filtering them out of all layouts tripped
    Hypothesis's filter_too_much health check in CI)."""
    arch = draw(st.sampled_from(list(Arch)))
    dtype = ELEMENT_TYPES[draw(st.sampled_from(sorted(OPERAND_TYPES[arch])))]
    major = draw(st.sampled_from([m for m in Major if m is Major.K or dtype.name in MN_MAJOR_TYPES[arch]]))
    modes = [m for m in Swizzle if not swizzle_rule(arch, dtype.name, major is Major.MN, m)]
    if swizzled_from_origin:
        modes = [m for m in modes if m is not Swizzle.NONE]
        assume(modes)
    swizzle = draw(st.sampled_from(modes))
    probe = TileLayout(dtype, *_one_atom(dtype, major, swizzle), major, swizzle)
    a_mn, a_k = probe.atom_shape
    n_mn = draw(st.integers(1, 6))
    kpi = dtype.k_per_instruction
    k = kpi * draw(st.integers(1, 6))
    assume(k % a_k == 0)
    n_k = k // a_k
    if swizzle is Swizzle.NONE:
        align = pad = 16
    else:  # tcgen05 tiles stay on their pattern (off-boundary is proven on Hopper only),
        # and atom strides are whole patterns on both (only those were measured)
        align = swizzle.period if arch.is_tcgen05 else 128
        pad = swizzle.period
    atom = probe.atom_bytes
    if draw(st.booleans()):
        # explicit strides: padded rows of atoms, either order
        pad_mn, pad_k = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        if draw(st.booleans()):
            strides = (atom + pad_mn * pad, n_mn * (atom + pad_mn * pad) + pad_k * pad)
        else:
            strides = (n_k * (atom + pad_k * pad) + pad_mn * pad, atom + pad_k * pad)
        order = AtomOrder.MN_FIRST
    else:
        strides, order = None, draw(st.sampled_from(list(AtomOrder)))
    address = align * draw(st.integers(0, 64))
    origin = None
    if swizzle is not Swizzle.NONE and (swizzled_from_origin or draw(st.booleans())):
        origin = (align if arch.is_tcgen05 else 128) * draw(st.integers(0, 64))
    try:
        layout = TileLayout(dtype, n_mn * a_mn, k, major, swizzle, order, strides, address, origin)
    except LayoutError:
        assume(False)
    return arch, layout


def _one_atom(dtype, major, swizzle) -> tuple[int, int]:
    row = swizzle.row_bytes * 8 // dtype.slot_bits
    return (8, row) if major is Major.K else (row, 8)


@settings(max_examples=400, deadline=None)
@given(layouts())
def test_random_layouts_emulator_matches(case) -> None:
    arch, layout = case
    rows = np.arange(layout.mn)[:, None]
    for sl in k_slices(layout, arch):
        ks = sl.k + np.arange(layout.dtype.k_per_instruction)[None, :]
        read = emulate_reads(
            sl.descriptor.encode(), arch, layout.dtype.bits, layout.major is Major.MN, layout.mn,
            layout.dtype.slot_bits,
        )
        assert np.array_equal(read, layout.addresses(rows, ks))


@settings(max_examples=200, deadline=None)
@given(layouts())
def test_every_element_has_its_own_address_inside_the_footprint(case) -> None:
    _, layout = case
    addrs = layout.address_map()
    per_byte = -(-8 // layout.dtype.bits)  # packed 4/6-bit: two elements may start in one byte
    _, counts = np.unique(addrs, return_counts=True)
    assert counts.max() == per_byte
    assert addrs.min() >= layout.address
    assert addrs.max() < layout.address + layout.footprint
    # a swizzle permutes 16-byte chunks inside the tile: same set of chunks
    plain = layout.linear_addresses(*np.indices((layout.mn, layout.k)))
    assert np.array_equal(np.unique(plain >> 4), np.unique(addrs >> 4))


@settings(max_examples=200, deadline=None)
@given(layouts(swizzled_from_origin=True))
def test_base_offset_must_match_the_swizzle_origin(case) -> None:
    """With data swizzled relative to an origin, only base offsets congruent
    to the origin's row phase read the tile right (H100 rule, DESIGN.md)."""
    arch, layout = case
    assume(layout.swizzle is not Swizzle.NONE and layout.swizzle_origin is not None)
    right = base_offset_for(layout)
    assert right == (layout.swizzle_origin >> 7) & (layout.swizzle.phases - 1)
    assume(layout.mn > 8 or layout.major is Major.MN)
    sl = k_slices(layout, arch)[0]
    rows = np.arange(layout.mn)[:, None]
    ks = np.arange(layout.dtype.k_per_instruction)[None, :]
    expected = layout.addresses(rows, ks)
    for bo in range(8):
        value = sl.descriptor.encode() & ~(7 << 49) | bo << 49
        read = emulate_reads(
            value, arch, layout.dtype.bits, layout.major is Major.MN, layout.mn, layout.dtype.slot_bits
        )
        same_phase = (bo - right) % layout.swizzle.phases == 0
        assert np.array_equal(read, expected) == same_phase


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(mn=60), "MN extent 60 is not a whole number"),
        (dict(k=40), "K extent 40 is not a whole number"),
        (dict(address=0x440), "not 128-byte aligned"),
        (dict(swizzle="none", address=0x408), "not 16-byte aligned"),
        (dict(atom_strides=(1024 + 16, 8192)), "multiple of 128 bytes"),
        (dict(atom_strides=(512, 8192)), "overlap"),
        (dict(address=0x3F000), "beyond the 256 KiB"),
        (dict(swizzle_origin=0x440), "swizzle origin 0x440 is not 128-byte aligned"),
        (dict(swizzle="128b_base32b"), "only for MN-major"),
        (dict(mn=0), "must be positive"),
    ],
)
def test_layout_refusals(kwargs, message) -> None:
    fields = dict(dtype="bf16", mn=64, k=64, major="k", swizzle="128b")
    fields.update(kwargs)
    with pytest.raises(LayoutError, match=message):
        TileLayout.make(**fields)


def test_k_extent_must_be_whole_instruction_slices() -> None:
    layout = TileLayout.make("bf16", 64, 8, "k", "none")
    with pytest.raises(LayoutError, match="32-byte instruction K-slices"):
        k_slices(layout, Arch.SM90A)


def test_k_slices_move_only_the_start_address() -> None:
    layout = TileLayout.make("bf16", 64, 128, "k", "64b", order="k-first", address=0x800)
    slices = k_slices(layout, Arch.SM90A)
    assert [s.start_address - 0x800 for s in slices] == [0, 32, 512, 544, 1024, 1056, 1536, 1568]
    assert len({(s.descriptor.lbo, s.descriptor.sbo) for s in slices}) == 1


def test_atom_orders() -> None:
    mn_first = TileLayout.make("bf16", 64, 128, "k", "128b")
    k_first = TileLayout.make("bf16", 64, 128, "k", "128b", order="k-first")
    assert mn_first.strides == (1024, 8192)
    assert k_first.strides == (2048, 1024)
    assert mn_first.footprint == k_first.footprint == 64 * 128 * 2
