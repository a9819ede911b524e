"""layout/strided.py: whether a strided array's elements each have their own address, the
rule the batched outputs (GEMM D, attention O) and lower_tc.attention's arrays are held to.
Checked against brute force: every element's offset listed."""

from __future__ import annotations

import itertools

import pytest

from lower_tc.layout.strided import dense_strides, distinct_elements


def _brute(shape, strides) -> bool:
    offsets = [sum(i * s for i, s in zip(index, strides)) for index in itertools.product(*(range(n) for n in shape))]
    return len(offsets) == len(set(offsets))


@pytest.mark.parametrize(("shape", "strides", "distinct"), [
    ((2, 4, 6, 8), (192, 48, 8, 1), True),  # BHSD
    ((2, 4, 6, 8), (192, 8, 32, 1), True),  # BSHD: heads side by side in each row
    ((4, 6, 8), (8, 40, 1), True),  # heads in rows padded to 40
    ((4, 6, 8), (4, 32, 1), False),  # heads overlapping by half
    ((3, 5), (0, 1), False),  # broadcast
    ((3, 5), (4, 1), False),  # rows running into each other
    ((1, 5), (0, 1), True),  # a single row: its stride steps nowhere
    ((0, 5), (0, 1), True),  # no element
])
def test_distinct_elements_agrees_with_brute_force(shape, strides, distinct) -> None:
    assert distinct_elements(shape, strides) is distinct
    assert _brute(shape, strides) is distinct


def test_the_rule_never_passes_an_overlap_brute_force_finds() -> None:
    """Sufficient, never wrong: over small shapes and strides, whatever it passes is distinct."""
    for shape in itertools.product((1, 2, 3), repeat=3):
        for strides in itertools.product((0, 1, 2, 3, 5, 7), repeat=3):
            if distinct_elements(shape, strides):
                assert _brute(shape, strides), (shape, strides)


def test_dense_strides_are_row_major() -> None:
    assert dense_strides((2, 4, 300, 64)) == (76800, 19200, 64, 1)
    assert dense_strides((5,)) == (1,) and dense_strides(()) == ()
