"""Descriptor encode/decode: every field, every encoding, every refusal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lower_tc.layout import (
    Arch,
    LayoutError,
    MatrixDescriptor,
    Swizzle,
    TileLayout,
    decode_descriptor,
    descriptor_for_layout,
)

ADDR = st.integers(0, (1 << 14) - 1).map(lambda x: x << 4)


def test_three_swizzle_encodings_converted_in_one_place() -> None:
    assert {m: m.sm90_code for m in Swizzle if m is not Swizzle.B128_BASE32B} == {
        Swizzle.NONE: 0, Swizzle.B128: 1, Swizzle.B64: 2, Swizzle.B32: 3,
    }
    assert {m: m.sm100_code for m in Swizzle} == {
        Swizzle.NONE: 0, Swizzle.B128_BASE32B: 1, Swizzle.B128: 2, Swizzle.B64: 4, Swizzle.B32: 6,
    }
    assert {m: m.tma_code for m in Swizzle} == {
        Swizzle.NONE: 0, Swizzle.B32: 1, Swizzle.B64: 2, Swizzle.B128: 3, Swizzle.B128_BASE32B: 4,
    }
    with pytest.raises(LayoutError, match="only on tcgen05 targets"):
        _ = Swizzle.B128_BASE32B.sm90_code


@settings(max_examples=300)
@given(
    arch=st.sampled_from(list(Arch)),
    start=ADDR, lbo=ADDR, sbo=ADDR,
    swizzle=st.sampled_from(list(Swizzle)),
    base_offset=st.integers(0, 7),
)
def test_encode_decode_round_trip(arch, start, lbo, sbo, swizzle, base_offset) -> None:
    if arch is Arch.SM90A and swizzle is Swizzle.B128_BASE32B:
        return
    desc = MatrixDescriptor(arch, start, lbo, sbo, swizzle, base_offset)
    value = desc.encode()
    decoded = decode_descriptor(value, arch)
    assert decoded.valid, decoded.problems
    assert decoded.descriptor == desc


@settings(max_examples=300)
@given(value=st.integers(0, (1 << 64) - 1), arch=st.sampled_from(list(Arch)))
def test_decode_encode_round_trip_of_valid_values(value, arch) -> None:
    decoded = decode_descriptor(value, arch)
    if decoded.valid:
        assert decoded.descriptor.encode() == value
    else:
        assert decoded.problems


def test_field_positions_sm90() -> None:
    value = MatrixDescriptor(Arch.SM90A, 0x10, 0x20, 0x30, Swizzle.B32, 5).encode()
    assert value == 1 | 2 << 16 | 3 << 32 | 5 << 49 | 3 << 62


def test_field_positions_sm100() -> None:
    value = MatrixDescriptor(Arch.SM100A, 0x10, 0x20, 0x30, Swizzle.B32, 5).encode()
    assert value == 1 | 2 << 16 | 3 << 32 | 1 << 46 | 5 << 49 | 6 << 61
    abs_mode = MatrixDescriptor(Arch.SM103A, 0x400, 0x800, 0x400, Swizzle.B128, 0, lbo_mode=1)
    assert abs_mode.encode() == 0x40 | 0x80 << 16 | 0x40 << 32 | 1 << 46 | 1 << 52 | 2 << 61


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"lbo": 1 << 18}, "does not fit the 14-bit field"),
        ({"sbo": 0x3FFF0 + 16}, "does not fit the 14-bit field"),
        ({"start_address": 0x408}, "not 16-byte aligned"),
        ({"start_address": 0x40000}, "below 256 KiB"),
        ({"base_offset": 8}, "does not fit 3 bits"),
        ({"lbo_mode": 1}, "supported on sm_103a only"),
    ],
)
def test_encode_refuses_what_does_not_fit(kwargs, message) -> None:
    fields = dict(arch=Arch.SM90A, start_address=0, lbo=16, sbo=1024, swizzle=Swizzle.B128)
    fields.update(kwargs)
    with pytest.raises(LayoutError, match=message):
        MatrixDescriptor(**fields).encode()


def test_absolute_lbo_mode_restrictions() -> None:
    """PTX ISA: sm_103a only; 128B swizzle with 16-byte atomicity; base offset 0; K-major."""
    for swizzle, bo, message in (
        (Swizzle.B64, 0, "needs 128b swizzle"),
        (Swizzle.B128_BASE32B, 0, "needs 128b swizzle"),
        (Swizzle.B128, 1, "needs base offset 0"),
    ):
        with pytest.raises(LayoutError, match=message):
            MatrixDescriptor(Arch.SM103A, 0, 0x80, 1024, swizzle, bo, lbo_mode=1).encode()
    for arch in (Arch.SM90A, Arch.SM100A):
        with pytest.raises(LayoutError, match="supported on sm_103a only"):
            MatrixDescriptor(arch, 0, 0x80, 1024, Swizzle.B128, 0, lbo_mode=1).encode()
    k_major = TileLayout.make("e4m3", 128, 128, "k", "128b", address=0x800)
    desc = descriptor_for_layout(k_major, Arch.SM103A, lbo_absolute=0x4000)
    assert (desc.lbo, desc.lbo_mode) == (0x4000, 1) and desc.encode() >> 16 & 0x3FFF == 0x400
    mn_major = TileLayout.make("e4m3", 128, 128, "mn", "128b")
    with pytest.raises(LayoutError, match="K-major only"):
        descriptor_for_layout(mn_major, Arch.SM103A, lbo_absolute=0x4000)
    with pytest.raises(LayoutError, match="supported on sm_103a only"):
        descriptor_for_layout(k_major, Arch.SM100A, lbo_absolute=0x4000)
    # decoding flags the mode on a target that has no such mode, and keeps it on sm_103a
    value = desc.encode()
    assert decode_descriptor(value, Arch.SM103A).valid
    assert any("sm_103a only" in p for p in decode_descriptor(value, Arch.SM100A).problems)


@pytest.mark.parametrize("code", [3, 5, 7])
def test_sm100_reserved_swizzle_codes_flagged(code) -> None:
    decoded = decode_descriptor(1 << 46 | code << 61, Arch.SM100A)
    assert not decoded.valid and decoded.descriptor is None
    assert any("reserved" in p for p in decoded.problems)


def test_sm100_missing_version_flagged_and_sm90_reserved_bits() -> None:
    assert "version bits 46-48" in decode_descriptor(2 << 61, Arch.SM100A).problems[0]
    sm90 = decode_descriptor(1 << 46 | 1 << 62, Arch.SM90A)
    assert sm90.problems == ["reserved bits 46-48 are set"]


def test_descriptor_refuses_base32b_on_sm90() -> None:
    layout = TileLayout.make("tf32", 64, 16, "mn", "128b_base32b")
    with pytest.raises(LayoutError, match="only on tcgen05 targets"):
        descriptor_for_layout(layout, Arch.SM90A)
    assert descriptor_for_layout(layout, Arch.SM100A).encode() >> 61 == 1
