"""Exhaustive check: the emulator reads, for every K-slice descriptor, exactly
the addresses the layout gives, over element types x majors x swizzles x atom
orders x shapes x start addresses x swizzle origins x both architectures."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import replace
from collections.abc import Iterator

import numpy as np
import pytest

from lower_tc.layout import (
    ELEMENT_TYPES,
    Arch,
    AtomOrder,
    LayoutError,
    Major,
    Swizzle,
    TileLayout,
    emulate_reads,
    k_slices,
)
from lower_tc.layout.targets import MN_MAJOR_TYPES, OPERAND_TYPES, swizzle_rule

MN_EXTENTS = (8, 16, 24, 64, 128, 256)
K_SLICE_COUNTS = (1, 2, 3, 4, 8)
SWIZZLED_STARTS = (0, 0x80, 0x580, 0x8380)
PLAIN_STARTS = SWIZZLED_STARTS + (0x10, 0x1230)
#: tcgen05 tiles sit on their swizzle pattern (off-boundary placement is proven on Hopper only)
SM100_SWIZZLED_STARTS = (0, 0x400, 0x8000)


def sweep_configs() -> Iterator[tuple[Arch, TileLayout]]:
    """Every (arch, layout) the sweep checks; shapes that are not whole atoms are skipped."""
    for arch, dtype_name, major, swizzle, order in itertools.product(
        Arch, sorted(OPERAND_TYPES[Arch.SM100A]), Major, Swizzle, AtomOrder
    ):
        if dtype_name not in OPERAND_TYPES[arch]:
            continue
        if major is Major.MN and dtype_name not in MN_MAJOR_TYPES[arch]:
            continue  # test_operand_types_are_enforced checks these are refused
        if swizzle_rule(arch, dtype_name, major is Major.MN, swizzle):
            continue  # test_swizzle_rules_are_enforced checks these are refused
        dtype = ELEMENT_TYPES[dtype_name]
        if swizzle is Swizzle.NONE:
            starts, origins = PLAIN_STARTS, ("absolute",)
        elif arch.is_tcgen05:
            starts, origins = SM100_SWIZZLED_STARTS, ("absolute", "tile")
        else:
            starts, origins = SWIZZLED_STARTS, ("absolute", "tile")
        for mn, n_slices, start, origin in itertools.product(
            MN_EXTENTS, K_SLICE_COUNTS, starts, origins
        ):
            if origin == "tile" and start % swizzle.period == 0:
                continue  # the same placement and descriptor as "absolute"
            k = n_slices * dtype.k_per_instruction
            try:
                layout = TileLayout(
                    dtype, mn, k, major, swizzle, order, address=start,
                    swizzle_origin=start if origin == "tile" else None,
                )
            except LayoutError as err:
                assert "whole number" in str(err)
                continue
            yield arch, layout


def check_layout(arch: Arch, layout: TileLayout) -> int:
    """Assert emulator == layout for every K-slice; returns the slices checked."""
    rows = np.arange(layout.mn)[:, None]
    slices = k_slices(layout, arch)
    for sl in slices:
        ks = sl.k + np.arange(layout.dtype.k_per_instruction)[None, :]
        read = emulate_reads(
            sl.descriptor.encode(), arch, layout.dtype.bits, layout.major is Major.MN, layout.mn,
            layout.dtype.slot_bits,
        )
        expected = layout.addresses(rows, ks)
        if not np.array_equal(read, expected):
            bad = np.argwhere(read != expected)[0]
            pytest.fail(
                f"{arch} {layout} k-slice {sl.k}: element {tuple(bad)} read at "
                f"{read[tuple(bad)]:#x}, layout puts it at {expected[tuple(bad)]:#x}"
            )
    return len(slices)


def test_sweep_emulator_reads_every_layout_address() -> None:
    configs = list(sweep_configs())
    slices = sum(check_layout(arch, layout) for arch, layout in configs)
    assert len(configs) > 20000 and slices > 3 * len(configs)
    assert len({(arch, repr(layout)) for arch, layout in configs}) == len(configs)  # no repeats


def test_operand_types_are_enforced() -> None:
    """The descriptor code refuses what an arch cannot read at all, not only the CLI and
    the verifiers: MN-major types it cannot transpose, types it does not read."""
    refused = 0
    for arch, dtype_name in itertools.product(Arch, sorted(OPERAND_TYPES[Arch.SM100A])):
        for major in Major:
            if swizzle_rule(arch, dtype_name, major is Major.MN, Swizzle.NONE):
                continue  # tcgen05 MN-major tf32: the swizzle rule speaks first
            layout = TileLayout.make(dtype_name, 128, 128, major, Swizzle.NONE)
            readable = dtype_name in OPERAND_TYPES[arch] and (
                major is Major.K or dtype_name in MN_MAJOR_TYPES[arch])
            if readable:
                assert k_slices(layout, arch)
                continue
            with pytest.raises(LayoutError, match="does not read|cannot transpose"):
                k_slices(layout, arch)
            refused += 1
    assert refused >= 5 + 1 + 1  # sm_90a: 5 MN-major types, e2m1; sm_100a/103a: e2m1 MN-major


def test_sweep_covers_every_axis() -> None:
    configs = list(sweep_configs())
    assert {a for a, _ in configs} == set(Arch)
    assert {l.dtype.name for _, l in configs} == set(OPERAND_TYPES[Arch.SM100A])
    assert {l.swizzle for _, l in configs} == set(Swizzle)
    assert {l.order for _, l in configs} == set(AtomOrder)
    assert {l.major for _, l in configs} == set(Major)
    assert {l.address for _, l in configs} == set(PLAIN_STARTS) | set(SM100_SWIZZLED_STARTS)
    assert any(l.swizzle_origin is not None and l.phase for _, l in configs)


def test_swizzle_rules_are_enforced() -> None:
    """Every (arch, dtype, major, swizzle) the sweep skips as illegal is refused by the
    descriptor code with the rule's reason: 128b_base32b only for MN-major tf32 on sm_100a,
    and tcgen05 MN-major tf32 only with it."""
    refused = 0
    for arch, dtype_name, major, swizzle in itertools.product(
        Arch, sorted(OPERAND_TYPES[Arch.SM100A]), Major, Swizzle
    ):
        why = swizzle_rule(arch, dtype_name, major is Major.MN, swizzle)
        if why is None or dtype_name not in OPERAND_TYPES[arch]:
            continue
        try:
            layout = TileLayout.make(dtype_name, 64, 64, major, swizzle)
        except LayoutError as err:  # 128b_base32b K-major: refused by the layout itself
            assert "MN-major" in str(err)
            refused += 1
            continue
        with pytest.raises(LayoutError, match=re.escape(why)):
            k_slices(layout, arch)
        refused += 1
    assert refused >= 2 * 8 + 4  # base32b for everything but sm_100a tf32 MN; tf32 MN otherwise


@pytest.mark.parametrize("swizzle", [s for s in Swizzle if s is not Swizzle.NONE])
def test_tcgen05_refuses_tiles_off_their_pattern(swizzle: Swizzle) -> None:
    """sm_100a: a start, origin or atom stride off the pattern period is refused (what the
    tensor core does there is measured on Hopper only); on the period it is accepted."""
    major = Major.MN if swizzle is Swizzle.B128_BASE32B else Major.K
    period = swizzle.period
    dtype = "tf32" if swizzle is Swizzle.B128_BASE32B else "bf16"
    ok = TileLayout.make(dtype, 64, 64, major, swizzle, address=3 * period)
    assert k_slices(ok, Arch.SM100A)
    for bad in (
        TileLayout.make(dtype, 64, 64, major, swizzle, address=3 * period + 128),
        TileLayout.make(dtype, 64, 64, major, swizzle, address=period, swizzle_origin=128),
    ):
        with pytest.raises(LayoutError, match="proven on Hopper only"):
            k_slices(bad, Arch.SM100A)
        assert k_slices(bad, Arch.SM90A) if swizzle is not Swizzle.B128_BASE32B else True
    a_mn, a_k = ok.atom_shape
    atom = ok.atom_bytes
    k = math.lcm(a_k, ok.dtype.k_per_instruction)  # whole atoms and whole instructions
    padded = TileLayout.make(dtype, 2 * a_mn, k, major, swizzle, atom_strides=(atom + 128, 4 * atom))
    with pytest.raises(LayoutError, match="atom stride along MN"):
        k_slices(padded, Arch.SM100A)
    if swizzle is not Swizzle.B128_BASE32B:  # Hopper measured whole-pattern strides only
        with pytest.raises(LayoutError, match="atom stride along MN .* only strides of whole patterns were measured"):
            k_slices(padded, Arch.SM90A)
        whole = TileLayout.make(dtype, 2 * a_mn, k, major, swizzle, atom_strides=(atom + period, 4 * atom + 2 * period))
        assert k_slices(whole, Arch.SM90A) and k_slices(whole, Arch.SM100A)


MUTATIONS = {
    "LBO and SBO swapped": lambda d: replace(d, lbo=d.sbo, sbo=d.lbo),
    "start one chunk late": lambda d: replace(d, start_address=d.start_address + 16),
    "SBO doubled": lambda d: replace(d, sbo=2 * d.sbo),
    "next wider swizzle": lambda d: replace(d, swizzle=_WIDER[d.swizzle]),
    "base offset + 1": lambda d: replace(d, base_offset=(d.base_offset + 1) % 8),
}
_WIDER = {
    Swizzle.NONE: Swizzle.B32,
    Swizzle.B32: Swizzle.B64,
    Swizzle.B64: Swizzle.B128,
    Swizzle.B128: Swizzle.B64,
    Swizzle.B128_BASE32B: Swizzle.B128,
}


def _differs(arch: Arch, layout: TileLayout, mutate) -> bool:
    rows = np.arange(layout.mn)[:, None]
    for sl in k_slices(layout, arch):
        try:
            value = mutate(sl.descriptor).encode()
        except LayoutError:
            return True  # the encoder refused it: also caught
        ks = sl.k + np.arange(layout.dtype.k_per_instruction)[None, :]
        read = emulate_reads(
            value, arch, layout.dtype.bits, layout.major is Major.MN, layout.mn, layout.dtype.slot_bits
        )
        if not np.array_equal(read, layout.addresses(rows, ks)):
            return True
    return False


def fields_read(layout: TileLayout) -> tuple[bool, bool]:
    """Whether one instruction's reads depend on (LBO, SBO) for this layout."""
    n_mn = layout.atoms[0]
    k_rows = 4 if layout.swizzle is Swizzle.B128_BASE32B else 8  # K rows per LBO/SBO step
    k_groups = layout.dtype.k_per_instruction // k_rows
    if layout.major is Major.K:
        return layout.swizzle is Swizzle.NONE, n_mn > 1
    if layout.swizzle is Swizzle.NONE:
        return k_groups > 1, n_mn > 1
    return n_mn > 1, k_groups > 1


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_sweep_catches_wrong_descriptors(name: str) -> None:
    """Each classic descriptor bug makes the emulator disagree with the layout,
    wherever the mutated field is read at all (a sample of the sweep)."""
    mutate = MUTATIONS[name]
    checked = 0
    for arch, layout in list(sweep_configs())[::4]:
        lbo_read, sbo_read = fields_read(layout)
        s_mn, s_k = layout.strides
        if name == "LBO and SBO swapped":
            desc = k_slices(layout, arch)[0].descriptor
            if desc.lbo == desc.sbo or not (lbo_read or sbo_read):
                continue
        if name == "SBO doubled" and not sbo_read:
            continue
        if name == "base offset + 1" and layout.swizzle is Swizzle.NONE:
            continue
        assert _differs(arch, layout, mutate), f"{name} not caught for {arch} {layout}"
        checked += 1
    assert checked > 1000
