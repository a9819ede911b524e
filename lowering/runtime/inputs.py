"""What the runtime puts in a kernel's buffers: fresh random inputs, poisoned outputs, and
the bytes the device holds for them; and how a flat buffer reads back as a matrix.

Inputs are drawn fresh every run in the storage type (ml_dtypes for bf16 and the 8-, 6-
and 4-bit floats; integers for s8/u8), never all zeros. Outputs start full of a value no
correct kernel writes (NaN for floats, 0x5A5A5A5A for integers).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from lower_tc.layout.kernel_info import ArgInfo

#: Storage dtype per element type name.
STORAGE: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "tf32": np.float32,
    "f32": np.float32,
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
    "e2m1": ml_dtypes.float4_e2m1fn,  # one value per byte here; packed for the device
    "e2m3": ml_dtypes.float6_e2m3fn,  # likewise
    "e3m2": ml_dtypes.float6_e3m2fn,
    "s8": np.int8,
    "u8": np.uint8,
    "s32": np.int32,
}


def random_input(rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Fresh random values in the storage type (never all zeros)."""
    if dtype in ("s8",):
        return rng.integers(-128, 128, size=shape).astype(np.int8)
    if dtype == "u8":
        return rng.integers(0, 256, size=shape).astype(np.uint8)
    if dtype == "s32":
        return rng.integers(-1000, 1000, size=shape).astype(np.int32)
    values = rng.uniform(-1.0, 1.0, size=shape)
    if dtype == "tf32":  # exactly representable in tf32: 10 mantissa bits
        bits = values.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
        return bits.view(np.float32)
    if dtype in ("e4m3", "e5m2"):
        values = values * 4.0
    if dtype == "e2m1":  # e2m1 holds 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives
        values = values * 6.0
    if dtype == "e2m3":  # steps of 1/8 up to 7.5
        values = values * 7.5
    if dtype == "e3m2":  # 0.0625 .. 28
        values = values * 16.0
    return values.astype(STORAGE[dtype])


def poison(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """An output buffer full of a value no correct kernel writes: NaN, or 0x5A5A5A5A."""
    nbytes = int(np.prod(shape)) * np.dtype(STORAGE[dtype]).itemsize
    fill = 0xFF if dtype in ("f32", "f16", "bf16", "tf32") else 0x5A
    return np.full(nbytes, fill, dtype=np.uint8).view(STORAGE[dtype]).reshape(shape)


def device_bytes(values: np.ndarray, dtype: str) -> np.ndarray:
    """What the device holds for an input buffer: the values as they are, except 4- and
    6-bit ones, packed into a contiguous little-endian bit stream: element i at bits
    [b i, b i + b) (for 4-bit, element 2i in the low nibble: the packed FP4 order of
    CUTLASS and PyTorch's float4_e2m1fn_x2). lower-tc's copies move these bytes unchanged."""
    bits = {"e2m1": 4, "e2m3": 6, "e3m2": 6}.get(dtype)
    if bits is None:
        return values
    codes = (values.view(np.uint8) & ((1 << bits) - 1)).astype(np.uint64)
    per_group = 8 // np.gcd(bits, 8)  # elements per whole number of bytes: 2 (4-bit), 4 (6-bit)
    pad = -codes.size % per_group
    codes = np.append(codes, np.zeros(pad, np.uint64)).reshape(-1, per_group)
    words = (codes << (np.arange(per_group, dtype=np.uint64) * bits)).sum(axis=1)
    group_bytes = per_group * bits // 8
    out = (words[:, None] >> (np.arange(group_bytes, dtype=np.uint64) * 8)) & 0xFF
    return out.astype(np.uint8).ravel()


def buffer_elements(shape: tuple[int, ...], strides: tuple[int, ...]) -> int:
    """Elements a matrix (or a batch of them) of `shape` with element `strides` spans in
    memory: padding after each row and between the matrices included."""
    return sum((n - 1) * s for n, s in zip(shape, strides)) + 1


def flat_indices(arg: ArgInfo) -> np.ndarray:
    """Each element's index in the argument's flat buffer by its strides: rows x cols, or
    batch x rows x cols for a batched argument."""
    assert None not in arg.shape and None not in arg.strides
    grids = np.ix_(*(np.arange(n) for n in arg.shape))  # type: ignore[arg-type]
    return sum(g * s for g, s in zip(grids, arg.strides))  # type: ignore[return-value]


def matrix_view(buffer: np.ndarray, arg: ArgInfo) -> np.ndarray:
    """The logical matrix (a copy) an argument's flat `buffer` holds, rows x cols by its
    strides (batch x rows x cols for a batched argument).

    Plain index arithmetic rather than numpy's as_strided, which cannot rebuild
    ml_dtypes' float8 types from their array interface."""
    return buffer[flat_indices(arg)]


def host_buffers(rng: np.random.Generator, args: tuple[ArgInfo, ...], fresh: set[int]) -> list[np.ndarray]:
    """One flat buffer per argument, laid out by its strides (padding included): random
    values for the arguments in `fresh`, poison for the others."""
    host = []
    for i, a in enumerate(args):
        size = buffer_elements(a.shape, a.strides)  # type: ignore[arg-type]
        host.append(random_input(rng, a.dtype, (size,)) if i in fresh else poison(a.dtype, (size,)))
    return host


__all__ = [
    "STORAGE", "buffer_elements", "device_bytes", "flat_indices", "host_buffers", "matrix_view",
    "poison", "random_input",
]
