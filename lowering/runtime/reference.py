"""A float64 numpy reference for tile programs: evaluates a kernel's reference program.

The program is plain data made at compile time from the kernel's tc ops
(lowering/reference_program.py): a list of steps over numbered values, so that the
reference follows the program (which operand is copied where, which WMMA fragment sits at
which offset), not a guess of what the kernel should do, and the runtime needs no xDSL.
Tiles are logical matrices; layouts do not matter here, which is the point: the GPU result
must equal the mathematics whatever the layout.

Every value is a pair (values, |values|): the second is the magnitude rounding errors scale
with, |A|.|B| (+|C|) after an MMA.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Union

import numpy as np

from lower_tc.lowering.runtime.inputs import STORAGE


@dataclass(frozen=True)
class Load:
    """value = a block of argument `arg`: `extent` rows x cols at `offset` (None: the whole
    argument), transposed when `transpose`. A tc.copy of A (M x K) or of B (transposed:
    wgmma and tcgen05 tiles hold B as N x K), a tc.acc_load of C, a tc.wmma_load (a
    column-major fragment transposed)."""

    value: int
    arg: int
    transpose: bool = False
    offset: tuple[int, int] = (0, 0)
    extent: tuple[int, int] | None = None


@dataclass(frozen=True)
class Zero:
    """value = zeros of `shape` (tc.acc_zero, tc.wmma_zero)."""

    value: int
    shape: tuple[int, int]


@dataclass(frozen=True)
class Mma:
    """result = acc + a . b; B is N x K (`b_is_nk`, wgmma and tcgen05 tiles) or K x N
    (WMMA fragments). `operand_types`: A's and B's element types, for the tolerance."""

    result: int
    a: int
    b: int
    acc: int
    b_is_nk: bool
    operand_types: frozenset[str]


@dataclass(frozen=True)
class Store:
    """Argument `arg`'s block at `offset` = value (transposed when `transpose`), the whole
    argument when `extent` is None (tc.acc_store), else `extent` rows x cols (tc.wmma_store)."""

    value: int
    arg: int
    transpose: bool = False
    offset: tuple[int, int] = (0, 0)
    extent: tuple[int, int] | None = None


@dataclass(frozen=True)
class Round:
    """value = `source` rounded to `dtype` ("bf16", "f16", "e4m3" or "e5m2", round to nearest
    even), as tc.acc_to_a rounds an accumulator into an A operand in registers. Its error
    scale is ROUND_SCALES[dtype] x |value|: where the kernel's f32 accumulator and the float64 one sit on
    either side of a rounding boundary the two roundings differ by one place (2^-8 of the
    value in bf16), which that scale admits under the 16-bit operands' tolerance."""

    value: int
    source: int
    dtype: str


@dataclass(frozen=True)
class Softmax:
    """value = the softmax of each row of `scale` x `source` (tc.acc_softmax). Its error
    scale is |p| (1 + 2 x scale x the row's largest error scale of the source): an error e
    in the scores moves p_i by at most 2 p_i scale max|e|."""

    value: int
    source: int
    scale: float


def softmax_rows(values: np.ndarray, scale: float) -> np.ndarray:
    """The softmax of each row of scale x `values`, float64."""
    x = scale * values
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


#: The error scale of a rounded value, in multiples of its magnitude: one place of the
#: rounded type over the tolerance of its operands (lowering/runtime/checks.py), rounded
#: up: bf16 2^-8 / 1e-4 (f16's place is smaller); e4m3 2^-3 / 2e-3, e5m2 2^-2 / 2e-3.
ROUND_SCALES = {"bf16": 40.0, "f16": 40.0, "e4m3": 63.0, "e5m2": 125.0}
ROUND_SCALE = ROUND_SCALES["bf16"]
#: The largest finite value of each 8-bit float: cvt.rn.satfinite clamps to it.
SATFINITE = {"e4m3": 448.0, "e5m2": 57344.0}


def round_to(values: np.ndarray, dtype: str) -> np.ndarray:
    """float64 `values` rounded to `dtype`'s storage type and back (round to nearest even;
    8-bit floats clamped to their largest finite value first, as cvt.rn.satfinite does)."""
    if dtype in SATFINITE:
        values = np.clip(values, -SATFINITE[dtype], SATFINITE[dtype])
    return values.astype(STORAGE[dtype]).astype(np.float64)


LN2 = math.log(2.0)
LOG2E = math.log2(math.e)


# -- the online softmax (dialects/tc_rows_ops.py): per-row values are 1-d arrays ----------


@dataclass(frozen=True)
class RowsFill:
    """value = `fill` for each of `rows` rows (tc.rows_fill)."""

    value: int
    fill: float
    rows: int


@dataclass(frozen=True)
class RowMax:
    """value = max(`rows`, each row's largest `source` x scale x log2 e) (tc.acc_row_max).
    Its error scale: the source's, times scale x log2 e."""

    value: int
    source: int
    rows: int
    scale: float


@dataclass(frozen=True)
class Exp:
    """value = exp2(`source` x scale x log2 e - m) per row, m read as 0 where it is -inf
    (tc.acc_exp). Its error scale: p ln 2 (the score's error x scale x log2 e + m's)."""

    value: int
    source: int
    rows: int
    scale: float


@dataclass(frozen=True)
class RowSum:
    """value = `total` x exp2(old - new) + each row's sum of `source` (tc.acc_row_sum)."""

    value: int
    source: int
    total: int
    old_max: int
    new_max: int


@dataclass(frozen=True)
class Rescale:
    """value = each row of `source` x exp2(old - new) (tc.acc_rescale)."""

    value: int
    source: int
    old_max: int
    new_max: int


@dataclass(frozen=True)
class RowDiv:
    """value = each row of `source` / its `rows` value, 0 where that is 0 (tc.acc_row_div)."""

    value: int
    source: int
    rows: int


@dataclass(frozen=True)
class Mask:
    """value = `source` with -inf where query first_query + r does not see key first_key + c:
    c at or past `keys`, or (with `causal` = d) key > query + d (tc.acc_mask). A hidden
    element's error scale is 0."""

    value: int
    source: int
    first_query: int
    first_key: int
    keys: int | None
    causal: int | None


def hidden(shape: tuple[int, int], first_query: int, first_key: int, keys: int | None, causal: int | None) -> np.ndarray:
    """Where tc.acc_mask puts -inf in a tile of `shape` (rows: queries, columns: keys)."""
    query = first_query + np.arange(shape[0])[:, None]
    key = first_key + np.arange(shape[1])[None, :]
    out = np.zeros(shape, dtype=bool)
    if keys is not None:
        out |= key >= keys
    if causal is not None:
        out |= key > query + causal
    return out


@dataclass(frozen=True)
class Lse:
    """value = (m + log2 l) ln 2 per row, -inf where l is 0 (tc.rows_lse). Its error scale:
    ln 2 (m's + l's / (l ln 2)); the errors of m and of l cancel in exact arithmetic, so
    this is generous."""

    value: int
    maximum: int
    total: int


def _finite(m: np.ndarray) -> np.ndarray:
    return np.where(np.isneginf(m), 0.0, m)


def _carry(old: tuple[np.ndarray, np.ndarray], new: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """exp2(old - new) (new read as 0 where -inf) and the error scale of its exponent."""
    (m0, s0), (m1, s1) = old, new
    return np.exp2(m0 - _finite(m1)), s0 + s1


def online_step(step: "Step", env: dict[int, tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The (values, error scale) of one online-softmax step."""
    if isinstance(step, Mask):
        s, ss = env[step.source]
        h = hidden(s.shape, step.first_query, step.first_key, step.keys, step.causal)
        return np.where(h, -np.inf, s), np.where(h, 0.0, ss)
    if isinstance(step, Lse):
        (m, ms), (l, ls) = env[step.maximum], env[step.total]
        with np.errstate(divide="ignore"):
            lse = (m + np.log2(l)) * LN2
            scale = np.where(l > 0, LN2 * ms + np.divide(ls, l, out=np.zeros_like(l), where=l > 0), 0.0)
        return lse, scale
    if isinstance(step, RowsFill):
        return np.full(step.rows, step.fill), np.zeros(step.rows)
    if isinstance(step, RowMax):
        (s, ss), (m0, m0s) = env[step.source], env[step.rows]
        c = step.scale * LOG2E
        return np.maximum(m0, (s * c).max(axis=1)), np.maximum(m0s, c * ss.max(axis=1))
    if isinstance(step, Exp):
        (s, ss), (m, ms) = env[step.source], env[step.rows]
        c = step.scale * LOG2E
        p = np.exp2(s * c - _finite(m)[:, None])
        return p, p * LN2 * (c * ss + ms[:, None])
    if isinstance(step, RowSum):
        (p, ps), (l0, l0s) = env[step.source], env[step.total]
        f, fs = _carry(env[step.old_max], env[step.new_max])
        return l0 * f + p.sum(axis=1), l0s * f + l0 * f * LN2 * fs + ps.sum(axis=1)
    if isinstance(step, Rescale):
        o, os_ = env[step.source]
        f, fs = _carry(env[step.old_max], env[step.new_max])
        return o * f[:, None], os_ * f[:, None] + np.abs(o) * (f * LN2 * fs)[:, None]
    assert isinstance(step, RowDiv)
    (o, os_), (l, ls) = env[step.source], env[step.rows]
    inv = np.divide(1.0, l, out=np.zeros_like(l), where=l != 0)
    return o * inv[:, None], os_ * inv[:, None] + np.abs(o) * (inv * inv * ls)[:, None]


ONLINE_STEPS = (RowsFill, RowMax, Exp, RowSum, Rescale, RowDiv, Mask, Lse)

Step = Union[Load, Zero, Mma, Store, Round, Softmax, RowsFill, RowMax, Exp, RowSum, Rescale, RowDiv, Mask, Lse]


@dataclass(frozen=True)
class ReferenceProgram:
    """What a single-tile kernel computes, step by step, in plain data."""

    steps: tuple[Step, ...]

    @property
    def reads(self) -> frozenset[int]:
        """Indices of the arguments the program reads (copies, C loads, WMMA loads); an
        argument both read and written (C updated in place) is an input to the runner."""
        return frozenset(s.arg for s in self.steps if isinstance(s, Load))


@dataclass
class ReferenceResult:
    """Per output argument index: the expected values, their error scale and the written mask."""

    values: dict[int, np.ndarray]
    scale: dict[int, np.ndarray]  # |A|.|B| (+|C|): the magnitude rounding errors scale with
    written: dict[int, np.ndarray]
    #: Per output argument index: the A and B types of the MMAs whose results it holds
    #: (a kernel may store an s32 result beside an f32 one; each gets its own tolerance).
    types: dict[int, set[str]] = field(default_factory=dict)


def _block(a: np.ndarray, offset: tuple[int, int], extent: tuple[int, int] | None) -> np.ndarray:
    if extent is None:
        return a
    (r0, c0), (rows, cols) = offset, extent
    return a[r0 : r0 + rows, c0 : c0 + cols]


def reference(program: ReferenceProgram, inputs: dict[int, np.ndarray]) -> ReferenceResult:
    """Evaluate `program` on float64 `inputs` (by argument index; outputs included, for
    their shapes)."""
    env: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # value -> (values, |values| scale)
    feeds: dict[int, frozenset[str]] = {}  # value -> operand types of the MMAs behind it
    out = ReferenceResult({}, {}, {})
    for step in program.steps:
        if isinstance(step, Load):
            mat = _block(inputs[step.arg], step.offset, step.extent)
            mat = mat.T if step.transpose else mat
            env[step.value] = (mat, np.abs(mat))  # a view: values are never changed in place
        elif isinstance(step, Zero):
            env[step.value] = (np.zeros(step.shape), np.zeros(step.shape))
        elif isinstance(step, Mma):
            feeds[step.result] = feeds.get(step.acc, frozenset()) | step.operand_types
            a, a_abs = env[step.a]
            b, b_abs = env[step.b]
            c, c_abs = env[step.acc]
            if step.b_is_nk:
                b, b_abs = b.T, b_abs.T
            env[step.result] = (c + a @ b, c_abs + a_abs @ b_abs)
        elif isinstance(step, Softmax):
            feeds[step.value] = feeds.get(step.source, frozenset())
            source, source_scale = env[step.source]
            p = softmax_rows(source, step.scale)
            env[step.value] = (p, p * (1 + 2 * step.scale * source_scale.max(axis=1, keepdims=True)))
        elif isinstance(step, ONLINE_STEPS):
            feeds[step.value] = feeds.get(getattr(step, "source", -1), frozenset())
            env[step.value] = online_step(step, env)
        elif isinstance(step, Round):
            feeds[step.value] = feeds.get(step.source, frozenset())
            rounded = round_to(env[step.source][0], step.dtype)
            env[step.value] = (rounded, ROUND_SCALES[step.dtype] * np.abs(rounded))
        elif isinstance(step, Store):
            if step.arg not in out.values:
                shape = inputs[step.arg].shape
                out.values[step.arg] = np.zeros(shape)
                out.scale[step.arg] = np.zeros(shape)
                out.written[step.arg] = np.zeros(shape, dtype=bool)
                out.types[step.arg] = set()
            out.types[step.arg] |= feeds.get(step.value, frozenset())
            v, s = env[step.value]
            if v.ndim == 1:  # a !tc.rows value: a column (tc.rows_store)
                v, s = v[:, None], s[:, None]
            if step.transpose:
                v, s = v.T, s.T
            _block(out.values[step.arg], step.offset, step.extent)[...] = v
            _block(out.scale[step.arg], step.offset, step.extent)[...] = s
            _block(out.written[step.arg], step.offset, step.extent)[...] = True
    return out


__all__ = ["Exp", "Load", "Lse", "Mask", "hidden", "Mma", "ReferenceProgram", "ReferenceResult", "Rescale", "RowDiv", "RowMax", "RowSum", "RowsFill", "Step",
           "Store", "Zero", "reference"]
