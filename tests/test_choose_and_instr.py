"""The swizzle chooser and the tcgen05 instruction descriptor."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from lower_tc.layout import Arch, InstrDescriptor, LayoutError, Major, Swizzle, choose_swizzle
from lower_tc.layout.instr_desc import KIND_ACCUMULATORS, KIND_FORMATS


@pytest.mark.parametrize(
    "dtype,major,extent,expected,reason",
    [
        ("bf16", Major.K, 64, Swizzle.B128, "128b: the K extent is 128 bytes (64 x bf16)"),
        ("bf16", Major.K, 32, Swizzle.B64, "64b: the K extent is 64 bytes (32 x bf16)"),
        ("bf16", Major.K, 16, Swizzle.B32, "32b: the K extent is 32 bytes (16 x bf16)"),
        ("bf16", Major.K, 8, Swizzle.NONE, "none: the K extent is 16 bytes (8 x bf16), not a multiple of 32 bytes"),
        ("bf16", Major.K, 96, Swizzle.B64, "64b: the K extent is 192 bytes (96 x bf16), a multiple of the 64-byte row"),
        ("e4m3", Major.MN, 256, Swizzle.B128, "128b: the MN extent is 256 bytes (256 x e4m3), a multiple of the 128-byte row"),
        ("tf32", Major.K, 8, Swizzle.B32, "32b: the K extent is 32 bytes (8 x tf32)"),
    ],
)
def test_widest_legal_mode_with_reason(dtype, major, extent, expected, reason) -> None:
    choice = choose_swizzle(dtype, major, extent, Arch.SM90A)
    assert choice.swizzle is expected
    assert choice.reason == reason


@given(st.sampled_from(["bf16", "tf32", "e4m3", "e2m3", "e2m1"]), st.integers(1, 64), st.sampled_from(list(Major)))
def test_choice_is_widest_dividing_row(dtype, chunks, major) -> None:
    assume(not (dtype == "tf32" and major is Major.MN))  # tcgen05: only 128b_base32b, below
    slot_bits = {"bf16": 16, "tf32": 32, "e4m3": 8, "e2m3": 8, "e2m1": 8}[dtype]  # 4/6-bit: byte slots
    extent = chunks * 128 // slot_bits
    got = choose_swizzle(dtype, major, extent, Arch.SM100A).swizzle
    nbytes = chunks * 16
    assert nbytes % got.row_bytes == 0
    wider = [m for m in (Swizzle.B32, Swizzle.B64, Swizzle.B128) if m.row_bytes > got.row_bytes]
    assert all(nbytes % m.row_bytes for m in wider)


def test_maximum_and_pinned() -> None:
    capped = choose_swizzle("bf16", Major.K, 64, Arch.SM90A, maximum=Swizzle.B64)
    assert capped.swizzle is Swizzle.B64 and "capped by the maximum 64b" in capped.reason
    pinned = choose_swizzle("bf16", Major.K, 64, Arch.SM90A, pinned=Swizzle.B32)
    assert pinned.swizzle is Swizzle.B32 and "pinned" in pinned.reason
    with pytest.raises(LayoutError, match="pinned swizzle 128b is illegal"):
        choose_swizzle("bf16", Major.K, 32, Arch.SM90A, pinned=Swizzle.B128)
    with pytest.raises(LayoutError, match="only on tcgen05 targets"):
        choose_swizzle("bf16", Major.MN, 64, Arch.SM90A, pinned=Swizzle.B128_BASE32B)
    with pytest.raises(LayoutError, match="not a whole number of 16-byte chunks"):
        choose_swizzle("bf16", Major.K, 4, Arch.SM90A)


def test_instr_desc_fields() -> None:
    desc = InstrDescriptor("bf16", "bf16", "f32", 128, 256, a_mn_major=True)
    value = desc.encode()
    assert value == 1 << 4 | 1 << 7 | 1 << 10 | 1 << 15 | (256 >> 3) << 17 | (128 >> 4) << 24
    assert InstrDescriptor.decode(value, "f16") == desc
    i8 = InstrDescriptor("s8", "u8", "s32", 64, 8, saturate=True).encode()
    assert i8 == 1 << 3 | 2 << 4 | 1 << 7 | 0 << 10 | 1 << 17 | 4 << 24


@given(
    kind=st.sampled_from(sorted(KIND_FORMATS)),
    data=st.data(),
    m=st.sampled_from([64, 128]),
    n=st.integers(1, 32).map(lambda x: 8 * x),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
)
def test_instr_desc_round_trip(kind, data, m, n, flags) -> None:
    if kind == "i8" and n > 32 and n % 16:
        n += 8
    types = list(KIND_FORMATS[kind])
    a = data.draw(st.sampled_from(types))
    b = a if kind == "f16" else data.draw(st.sampled_from(types))
    d = data.draw(st.sampled_from(KIND_ACCUMULATORS[kind] if a != "bf16" else ("f32",)))
    mn_ok = not {a, b} & {"e2m3", "e3m2", "e2m1"}  # packed types have no MN-major form
    neg = kind != "i8"
    b_mn_ok = mn_ok and not (kind in ("f8f6f4", "i8") and n % 16)  # 8-bit transpose B: N % 16
    desc = InstrDescriptor(
        a, b, d, m, n, flags[0] and mn_ok, flags[1] and b_mn_ok, flags[2] and neg, flags[3] and neg
    )
    assert InstrDescriptor.decode(desc.encode(), kind) == desc


def test_bf16_accumulates_in_f32_only() -> None:
    assert InstrDescriptor("f16", "f16", "f16", 128, 64).encode()
    assert InstrDescriptor("bf16", "bf16", "f32", 128, 64).encode()
    with pytest.raises(LayoutError, match="kind::f16 accumulates bf16 in f32 only, not f16"):
        InstrDescriptor("bf16", "bf16", "f16", 128, 64).encode()


@pytest.mark.parametrize("b", ["e4m3", "e5m2", "s8", "u8"])
def test_mn_major_8bit_b_needs_n_multiple_of_16(b: str) -> None:
    a = "u8" if b in ("s8", "u8") else "e4m3"
    d = "s32" if b in ("s8", "u8") else "f32"
    assert InstrDescriptor(a, b, d, 128, 32, b_mn_major=True).encode()
    assert InstrDescriptor(a, b, d, 128, 24, b_mn_major=False).encode()
    with pytest.raises(LayoutError, match="MN-major 8-bit B needs N a multiple of 16, not 24"):
        InstrDescriptor(a, b, d, 128, 24, b_mn_major=True).encode()


def test_tcgen05_tf32_mn_major_chooses_base32b() -> None:
    choice = choose_swizzle("tf32", Major.MN, 64, Arch.SM100A)
    assert choice.swizzle is Swizzle.B128_BASE32B
    assert choose_swizzle("tf32", Major.K, 64, Arch.SM100A).swizzle is Swizzle.B128
    with pytest.raises(LayoutError, match="tcgen05 reads MN-major tf32 only with 128b_base32b"):
        choose_swizzle("tf32", Major.MN, 64, Arch.SM100A, pinned=Swizzle.B128)
    with pytest.raises(LayoutError, match="no swizzle fits"):
        choose_swizzle("tf32", Major.MN, 16, Arch.SM100A)  # 64 bytes: not a 128-byte row


@pytest.mark.parametrize(
    "args,message",
    [
        (("bf16", "f16", "f32", 64, 64), "same type"),
        (("bf16", "bf16", "s32", 64, 64), "accumulates in f16, f32"),
        (("bf16", "bf16", "f32", 96, 64), "M = 64 or 128"),
        (("s8", "s8", "s32", 128, 40), "then multiples of 16"),
        (("bf16", "bf16", "f32", 64, 264), "multiple of 8 from 8 to 256"),
        (("e4m3", "s8", "f32", 64, 64), "same tcgen05 kind"),
        (("f32", "f32", "f32", 64, 64), "no kind for f32"),
    ],
)
def test_instr_desc_refusals(args, message) -> None:
    with pytest.raises(LayoutError, match=message):
        InstrDescriptor(*args).encode()


def test_instr_desc_mn_major_e2m1_refused() -> None:
    with pytest.raises(LayoutError, match="cannot read A"):
        InstrDescriptor("e2m1", "e4m3", "f32", 128, 64, a_mn_major=True).encode()


def test_placed_choice_steps_down_to_what_fits_the_placement() -> None:
    from lower_tc.layout import TileLayout, choose_placed_swizzle

    def at(address: int):
        return lambda mode: TileLayout.make("bf16", 64, 64, Major.K, mode, address=address)

    aligned = choose_placed_swizzle("bf16", Major.K, 64, Arch.SM90A, at(0x480))
    assert aligned == choose_swizzle("bf16", Major.K, 64, Arch.SM90A)  # nothing in the way
    odd = choose_placed_swizzle("bf16", Major.K, 64, Arch.SM90A, at(0x10))
    assert odd.swizzle is Swizzle.NONE
    assert odd.reason.startswith("none: the widest mode its placement allows (128b, 64b, 32b: tile start 0x10")
    capped = choose_placed_swizzle("bf16", Major.K, 64, Arch.SM90A, at(0x10), maximum=Swizzle.B32)
    assert capped.swizzle is Swizzle.NONE and "128b" not in capped.reason

    def never(mode):
        raise LayoutError("no room")

    with pytest.raises(LayoutError, match=r"no swizzle fits the tile's placement \(128b, 64b, 32b, none: no room\)"):
        choose_placed_swizzle("bf16", Major.K, 64, Arch.SM90A, never)
