"""Exhaustive check: the emulator reads, for every K-slice descriptor, exactly
the addresses the layout gives, over element types x majors x swizzles x atom
orders x shapes x start addresses x swizzle origins x both architectures."""

from __future__ import annotations

import itertools
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
from lower_tc.layout.targets import OPERAND_TYPES

MN_EXTENTS = (8, 16, 24, 64, 128, 256)
K_SLICE_COUNTS = (1, 2, 3, 4, 8)
SWIZZLED_STARTS = (0, 0x80, 0x580, 0x8380)
PLAIN_STARTS = SWIZZLED_STARTS + (0x10, 0x1230)


def sweep_configs() -> Iterator[tuple[Arch, TileLayout]]:
    """Every (arch, layout) the sweep checks; shapes that are not whole atoms are skipped."""
    for arch, dtype_name, major, swizzle, order in itertools.product(
        Arch, sorted(OPERAND_TYPES[Arch.SM100A]), Major, Swizzle, AtomOrder
    ):
        if dtype_name not in OPERAND_TYPES[arch]:
            continue
        if swizzle is Swizzle.B128_BASE32B and (arch is Arch.SM90A or major is Major.K):
            continue
        dtype = ELEMENT_TYPES[dtype_name]
        starts = PLAIN_STARTS if swizzle is Swizzle.NONE else SWIZZLED_STARTS
        origins: tuple[str, ...] = ("absolute",) if swizzle is Swizzle.NONE else ("absolute", "tile")
        for mn, n_slices, start, origin in itertools.product(
            MN_EXTENTS, K_SLICE_COUNTS, starts, origins
        ):
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
            sl.descriptor.encode(), arch, layout.dtype.bits, layout.major is Major.MN, layout.mn
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
    assert len(configs) > 30000 and slices > 3 * len(configs)


def test_sweep_covers_every_axis() -> None:
    configs = list(sweep_configs())
    assert {a for a, _ in configs} == set(Arch)
    assert {l.dtype.name for _, l in configs} == set(OPERAND_TYPES[Arch.SM100A])
    assert {l.swizzle for _, l in configs} == set(Swizzle)
    assert {l.order for _, l in configs} == set(AtomOrder)
    assert {l.major for _, l in configs} == set(Major)
    assert {l.address for _, l in configs} == set(PLAIN_STARTS)
    assert any(l.swizzle_origin is not None and l.phase for _, l in configs)


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
        read = emulate_reads(value, arch, layout.dtype.bits, layout.major is Major.MN, layout.mn)
        if not np.array_equal(read, layout.addresses(rows, ks)):
            return True
    return False


def fields_read(layout: TileLayout) -> tuple[bool, bool]:
    """Whether one instruction's reads depend on (LBO, SBO) for this layout."""
    n_mn = layout.atoms[0]
    groups_of_8_k_rows = layout.dtype.k_per_instruction // 8
    if layout.major is Major.K:
        return layout.swizzle is Swizzle.NONE, n_mn > 1
    if layout.swizzle is Swizzle.NONE:
        return groups_of_8_k_rows > 1, n_mn > 1
    return n_mn > 1, groups_of_8_k_rows > 1


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
