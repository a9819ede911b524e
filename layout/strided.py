"""Strided arrays as frameworks hand them over (PyTorch, CuPy, DLPack): whether two
elements of one can share an address. Pure arithmetic on shapes and element strides."""

from __future__ import annotations

import math
from collections.abc import Sequence


def distinct_elements(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Every element of the array at its own address, shown by the sufficient rule that
    NumPy's and PyTorch's overlap checks use: with the dimensions of more than one element
    sorted by stride, each stride passes the furthest offset the dimensions before it
    reach. It holds for dense arrays in any order (BHSD, BSHD) and for padded and
    interleaved ones (heads side by side in one row of B x S x H x D); it fails for
    broadcast (stride 0) and for rows that run into each other. An array of no element
    has none to share."""
    if any(n == 0 for n in shape):
        return True
    reach = 0  # the furthest offset of the dimensions taken so far
    for n, s in sorted(((n, abs(s)) for n, s in zip(shape, strides) if n > 1), key=lambda d: d[1]):
        if s <= reach:
            return False
        reach += (n - 1) * s
    return True


def dense_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """A dense row-major array's element strides (the last dimension contiguous)."""
    return tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))


__all__ = ["dense_strides", "distinct_elements"]
