"""Every worked example of ../shared/spec pinned: LBO/SBO, their encodings and
the exact layouts, plus the examples of DESIGN.md and the issue."""

from __future__ import annotations

import numpy as np
import pytest

from lower_tc.layout import Arch, TileLayout, descriptor_for_layout, k_slices

# (dtype, major, swizzle, mn, k, LBO bytes, SBO bytes, LBO enc, SBO enc), from the
# tables "the strides and related details" of wgmma-smem-layout-and-descriptor.md
# and tcgen05-majorness-strides-and-lbo-modes.md (identical numbers in both).
SPEC_TABLES = [
    # K-major, no-swizzling, tf32: LBO 64*4, SBO 32*4, enc 16 / 8 (m = 2, 2k = 4)
    ("tf32", "k", "none", 16, 16, 256, 128, 16, 8),
    # K-major, 32B swizzling, tf32: LBO "1 (assumed)", SBO 64*4, enc 16
    ("tf32", "k", "32b", 16, 16, 16, 256, 1, 16),
    # MN-major, no-swizzling, bf16: LBO 128*2, SBO 64*2, enc 16 / 8
    ("bf16", "mn", "none", 16, 16, 256, 128, 16, 8),
    # MN-major, 32B swizzling, bf16: LBO 128*2, SBO 256*2, enc 16 / 32
    ("bf16", "mn", "32b", 32, 16, 256, 512, 16, 32),
    # MN-major, 64B swizzling, bf16: LBO 256*2, SBO 512*2, enc 32 / 64
    ("bf16", "mn", "64b", 64, 16, 512, 1024, 32, 64),
]


@pytest.mark.parametrize("arch", list(Arch))
@pytest.mark.parametrize("dtype,major,swizzle,mn,k,lbo,sbo,lbo_enc,sbo_enc", SPEC_TABLES)
def test_spec_table(arch, dtype, major, swizzle, mn, k, lbo, sbo, lbo_enc, sbo_enc) -> None:
    layout = TileLayout.make(dtype, mn, k, major, swizzle)
    desc = descriptor_for_layout(layout, arch)
    assert (desc.lbo, desc.sbo) == (lbo, sbo)
    value = desc.encode()
    assert ((value >> 16) & 0x3FFF, (value >> 32) & 0x3FFF) == (lbo_enc, sbo_enc)


# "Exact layout" strings of the spec, in elements. The K-major 32B example is
# left out: its printed K mode (4,4):(1,4) runs 16 elements contiguously, past
# the 8-element (32-byte) swizzle row its own SBO of 64 elements implies.
SPEC_EXACT = [
    ("tf32", "k", "none", 16, 16, "Sw<0,4,3> o smem_ptr[32b](unset) o ((8,2),(4,4)):((4,32),(1,64))"),
    ("bf16", "mn", "none", 16, 16, "Sw<0,4,3> o smem_ptr[16b](unset) o ((8,1,2),(8,2)):((1,8,64),(8,128))"),
    ("bf16", "mn", "32b", 32, 16, "Sw<1,4,3> o smem_ptr[16b](unset) o ((8,2,2),(8,2)):((1,8,128),(16,256))"),
    ("bf16", "mn", "64b", 64, 16, "Sw<2,4,3> o smem_ptr[16b](unset) o ((8,4,2),(8,2)):((1,8,256),(32,512))"),
]


@pytest.mark.parametrize("dtype,major,swizzle,mn,k,text", SPEC_EXACT)
def test_spec_exact_layout(dtype, major, swizzle, mn, k, text) -> None:
    assert TileLayout.make(dtype, mn, k, major, swizzle).canonical() == text


def _cute_offsets(shape, stride):
    """Element offsets of a CuTe layout (nested tuples), colexicographic order."""
    def flat(x):
        return [y for e in x for y in flat(e)] if isinstance(x, tuple) else [x]
    dims, steps = flat(shape), flat(stride)
    grids = np.meshgrid(*[np.arange(d) for d in dims], indexing="ij")
    return sum(g * s for g, s in zip(grids, steps))


def test_spec_exact_layout_offsets_match_addresses() -> None:
    """The MN-major 64B bf16 example as offsets: the layout's unswizzled
    addresses, in elements, are exactly the CuTe layout's offsets."""
    layout = TileLayout.make("bf16", 64, 16, "mn", "64b")
    offsets = _cute_offsets(((8, 4, 2), (8, 2)), ((1, 8, 256), (32, 512)))
    mn = np.arange(64).reshape(2, 4, 8).transpose(2, 1, 0)  # (8,4,2) colex
    k = np.arange(16).reshape(2, 8).T  # (8,2) colex
    got = layout.linear_addresses(mn[:, :, :, None, None], k[None, None, None, :, :]) // 2
    assert np.array_equal(got, offsets)


def test_issue_example_decodes_to_the_tile_it_came_from() -> None:
    layout = TileLayout.make("bf16", 64, 64, "k", "128b", address=0x400)
    slices = k_slices(layout, Arch.SM90A)
    assert [hex(s.descriptor.encode()) for s in slices] == [
        "0x4000004000010040",
        "0x4000004000010042",
        "0x4000004000010044",
        "0x4000004000010046",
    ]


def test_design_sm100_version_bit_and_codes() -> None:
    layout = TileLayout.make("bf16", 64, 64, "k", "128b", address=0x400)
    value = descriptor_for_layout(layout, Arch.SM100A).encode()
    assert value >> 46 & 0b111 == 0b001
    assert value >> 61 == 2  # tcgen05: 128B is code 2


# The swizzle-atom tables (wgmma Table 38, tcgen05 Table 55): (MN x K) in 128-bit
# elements, "multiplied along the leading dimension by 128 / sizeof_bits(Element)".
ATOM_TABLE = {
    ("128b", "mn"): (8, 8), ("128b", "k"): (8, 8),
    ("64b", "mn"): (4, 8), ("64b", "k"): (8, 4),
    ("32b", "mn"): (2, 8), ("32b", "k"): (8, 2),
    ("none", "mn"): (1, 8), ("none", "k"): (8, 1),
    ("128b_base32b", "mn"): (8, 4),  # tcgen05 only: 128B swizzling with 32B atomicity
}


@pytest.mark.parametrize("swizzle,major", sorted(ATOM_TABLE))
@pytest.mark.parametrize("dtype", ["tf32", "bf16", "e4m3"])
def test_spec_swizzle_atom_tables(swizzle, major, dtype) -> None:
    layout = TileLayout.make(dtype, 256, 256, major, swizzle)
    per_unit = 128 // layout.dtype.bits  # elements per 128-bit element of the tables
    a_mn, a_k = layout.atom_shape
    units = (a_mn // per_unit, a_k) if major == "mn" else (a_mn, a_k // per_unit)
    assert units == ATOM_TABLE[(swizzle, major)]


def test_spec_tf32_mn_128b_atom_is_32x8() -> None:
    """"128B MN major swizzle atom would have a shape of (8*(128/32))x8 = 32x8 for tf32"."""
    assert TileLayout.make("tf32", 64, 64, "mn", "128b").atom_shape == (32, 8)


@pytest.mark.parametrize("swizzle,boundary", [("128b", 1024), ("64b", 512), ("32b", 256)])
def test_spec_repeating_pattern_boundaries_and_base_offset_formula(swizzle, boundary) -> None:
    """"The value of base offset is 0 when the repeating pattern ... starts" on these
    boundaries; otherwise "base offset = (pattern start addr >> 0x7) & 0x7". lower-tc
    writes (start >> 7) & (W - 1), which the H100 reads the same (only base offset mod W
    matters, docs/base-offset.md); the spec's own value reads the tile right too."""
    from lower_tc.layout import base_offset_for, emulate_reads

    assert TileLayout.make("bf16", 64, 64, "k", swizzle).swizzle.period == boundary
    phases = boundary // 128
    for pattern_start in range(0x2000, 0x2000 + 2 * boundary, 128):
        layout = TileLayout.make("bf16", 64, 64, "k", swizzle, address=pattern_start,
                                 swizzle_origin=pattern_start)
        spec_value = (pattern_start >> 0x7) & 0x7
        ours = base_offset_for(layout)
        assert ours == spec_value % phases and (pattern_start % boundary == 0) == (spec_value % phases == 0)
        desc = k_slices(layout, Arch.SM90A)[0].descriptor
        rows, ks = np.arange(64)[:, None], np.arange(16)[None, :]
        for bo in (ours, spec_value):
            value = desc.encode() & ~(7 << 49) | bo << 49
            read = emulate_reads(value, Arch.SM90A, 16, False, 64)
            assert np.array_equal(read, layout.addresses(rows, ks))
