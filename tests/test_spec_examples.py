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
    ("tf32", "k", "none", 16, 16, "Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64))"),
    ("bf16", "mn", "none", 16, 16, "Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128))"),
    ("bf16", "mn", "32b", 32, 16, "Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))"),
    ("bf16", "mn", "64b", 64, 16, "Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))"),
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
