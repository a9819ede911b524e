"""Checks a whole-GEMM kernel's D = A x B (+ C) against float64 numpy.

Up to about 1024^3 multiply-adds every output is compared. Beyond, a sample: at least
4096 random outputs, plus whole rows and columns (the first, the last, the first of the
last row and column of CTA tiles where the shape is ragged, and a few random ones),
each computed exactly in float64. A batched GEMM (D batch x M x N; A or B one matrix
for every batch where it has no batch dimension or a batch of 1) counts the
multiply-adds of the whole batch; beyond the limit its first and last matrices and
SAMPLE_BATCHES random ones get the sample above (all of a matrix where one is within
the limit), and 4096 random outputs are drawn from every matrix. Whatever is sampled,
every element of D must have been written (none may still hold the poison, none may be
NaN), and everything else (A, B, C, D's padding between rows and between matrices, the
guards around every buffer) must come back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lower_tc.layout.kernel_info import GemmInfo

#: Beyond this many multiply-adds, outputs are sampled.
FULL_CHECK_LIMIT = 1024**3 + 1
#: Random outputs checked when sampling, at least.
SAMPLE_POINTS = 4096
#: Random whole rows and columns checked when sampling.
SAMPLE_LINES = 8
#: Random matrices of a batch sampled like one GEMM, besides the first and the last.
SAMPLE_BATCHES = 2
#: Relative rounding of the stored D (2^-8 for bf16's 8 significant bits, 2^-11 for f16).
OUTPUT_ROUNDING = {"bf16": 2.0**-8, "f16": 2.0**-11, "f32": 0.0, "s32": 0.0}


@dataclass
class GemmSample:
    """Where D is compared: rows, columns and points (row, column arrays)."""

    rows: np.ndarray
    cols: np.ndarray
    points: tuple[np.ndarray, np.ndarray]
    full: bool


def sample(rng: np.random.Generator, m: int, n: int, k: int, bm: int, bn: int) -> GemmSample:
    if m * n * k <= FULL_CHECK_LIMIT:
        return GemmSample(np.arange(m), np.arange(n), (np.zeros(0, int), np.zeros(0, int)), True)

    def lines(extent: int, tile: int) -> np.ndarray:
        edge = {0, extent - 1, (extent - 1) // tile * tile}
        return np.array(sorted(edge | set(rng.integers(0, extent, SAMPLE_LINES).tolist())))

    points = (rng.integers(0, m, SAMPLE_POINTS), rng.integers(0, n, SAMPLE_POINTS))
    return GemmSample(lines(m, bm), lines(n, bn), points, False)


def _products(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, where: GemmSample) -> list[tuple[tuple[np.ndarray, np.ndarray], np.ndarray, np.ndarray]]:
    """(index arrays into D, expected, scale) for each part of the sample, in float64."""
    out = []
    abs_a, abs_b = np.abs(a), np.abs(b)

    def add_c(idx, value, scale):
        if c is not None:
            value = value + c[idx]
            scale = scale + np.abs(c[idx])
        return idx, value, scale

    if where.full:
        r, col = np.meshgrid(where.rows, where.cols, indexing="ij")
        out.append(add_c((r, col), a @ b, abs_a @ abs_b))
        return out
    r, col = np.meshgrid(where.rows, np.arange(b.shape[1]), indexing="ij")
    out.append(add_c((r, col), a[where.rows] @ b, abs_a[where.rows] @ abs_b))
    r, col = np.meshgrid(np.arange(a.shape[0]), where.cols, indexing="ij")
    out.append(add_c((r, col), a @ b[:, where.cols], abs_a @ abs_b[:, where.cols]))
    pr, pc = where.points
    for lo in range(0, len(pr), 512):
        rr, cc = pr[lo : lo + 512], pc[lo : lo + 512]
        value = np.einsum("ik,ki->i", a[rr], b[:, cc])
        scale = np.einsum("ik,ki->i", abs_a[rr], abs_b[:, cc])
        out.append(add_c((rr, cc), value, scale))
    return out


def _batched_products(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, batch: int, rng: np.random.Generator,
                      m: int, n: int, k: int, bm: int, bn: int) -> list[tuple[tuple[np.ndarray | slice, ...], np.ndarray, np.ndarray]]:
    """(index arrays into a batch x M x N D, expected, scale) for a batched GEMM. `a`, `b`
    and `c` are 3-d, with a batch of 1 where the matrix is the same for every batch."""

    def pick(x: np.ndarray, i: int) -> np.ndarray:
        return x[i if x.shape[0] > 1 else 0]

    if batch * m * n * k <= FULL_CHECK_LIMIT:
        value, scale = np.matmul(a, b), np.matmul(np.abs(a), np.abs(b))
        if c is not None:
            value, scale = value + c, scale + np.abs(c)
        every = (slice(None),) * 3
        return [(every, np.broadcast_to(value, (batch, m, n)), np.broadcast_to(scale, (batch, m, n)))]
    out = []
    chosen = sorted({0, batch - 1} | set(rng.integers(0, batch, SAMPLE_BATCHES).tolist()))
    for i in chosen:
        where = sample(rng, m, n, k, bm, bn)
        for (rows, cols), value, scale in _products(pick(a, i), pick(b, i), pick(c, i) if c is not None else None, where):
            out.append(((np.full(np.shape(rows), i), rows, cols), value, scale))
    pb, pr, pc = rng.integers(0, batch, SAMPLE_POINTS), rng.integers(0, m, SAMPLE_POINTS), rng.integers(0, n, SAMPLE_POINTS)
    for lo in range(0, SAMPLE_POINTS, 512):
        bb, rr, cc = pb[lo : lo + 512], pr[lo : lo + 512], pc[lo : lo + 512]
        ia, ib = (bb if a.shape[0] > 1 else 0 * bb), (bb if b.shape[0] > 1 else 0 * bb)
        rows, cols = a[ia, rr], b[ib, :, cc]  # P x K each
        value, scale = (rows * cols).sum(axis=1), (np.abs(rows) * np.abs(cols)).sum(axis=1)
        if c is not None:
            value, scale = value + c[bb, rr, cc], scale + np.abs(c[bb, rr, cc])
        out.append(((bb, rr, cc), value, scale))
    return out


def check_gemm(
    gemm: GemmInfo, operands: dict[str, np.ndarray], d_out: np.ndarray, d_dtype: str,
    operand_dtype: str, tolerance: float, rng: np.random.Generator,
) -> tuple[float, int, int, int, float]:
    """(max error relative to |A||B| + |C|, mismatches, checked, NaN or unwritten, tolerance).

    `operands` holds A, B (and C) as float64 matrices (a batched GEMM's as batches, A or
    B possibly one matrix for every batch); `d_out` is D as read back (float64, M x N or
    batch x M x N, NaN where the poison was never overwritten); `gemm` has its sizes
    resolved."""
    m, n, k = gemm.m, gemm.n, gemm.k
    assert m is not None and n is not None and k is not None, "resolve_sizes first"
    tol = tolerance + OUTPUT_ROUNDING[d_dtype]
    a, b, c = operands["a"], operands["b"], operands.get("c")
    if d_out.ndim == 3:
        def batch_of(x: np.ndarray) -> np.ndarray:
            return x if x.ndim == 3 else x[None]

        parts = _batched_products(batch_of(a), batch_of(b), batch_of(c) if c is not None else None, d_out.shape[0],
                                  rng, m, n, k, gemm.config.bm, gemm.config.bn)
    else:
        parts = _products(a, b, c, sample(rng, m, n, k, gemm.config.bm, gemm.config.bn))
    worst, bad, checked = 0.0, 0, 0
    for idx, want, scale in parts:
        got = d_out[idx]
        err = np.where(np.isfinite(got), np.abs(got - want) / np.maximum(scale, 1e-30), np.inf)
        worst = max(worst, float(err.max()) if err.size else 0.0)
        bad += int((err > tol).sum())
        checked += err.size
    missing = int((~np.isfinite(d_out)).sum())
    return worst, bad, checked, missing, tol


__all__ = ["FULL_CHECK_LIMIT", "SAMPLE_BATCHES", "SAMPLE_POINTS", "check_gemm", "sample"]
