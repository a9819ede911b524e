"""The float64 reference of attention and the check of a kernel's output against it.

O = softmax(Q K^T x scale, masked) V, for every batch and query head, with:

- layouts "bshd" (batch, sequence, heads, head dim: what torch's flash-attention functions
  and FlashAttention take) and "bhsd" (batch, heads, sequence, head dim: torch's
  scaled_dot_product_attention); Q, K, V and O in the same one;
- grouped-query attention: Q has H heads, K and V have H_kv heads dividing H, and query
  head h reads K/V head h // (H / H_kv) (multi-query attention is H_kv = 1);
- `causal`: query i sees keys j <= i + (S_k - S_q), the last query aligned with the last
  key (FlashAttention's convention since 2.1, the one a KV cache needs; torch's
  scaled_dot_product_attention(is_causal=True) aligns the first ones instead, the same
  where S_q = S_k);
- a query row that sees no key (causal with S_q > S_k) is defined: its O row is 0 and its
  log-sum-exp -inf (nothing to average; FlashAttention returns the same).

The log-sum-exp (natural log, of the scaled scores: what a backward pass needs) comes with
O. Large problems are checked on sampled query rows (every head and batch of them, and
always the first and last rows): beyond FULL_CHECK_LIMIT score elements per head, at least
SAMPLE_ROWS rows. A row passes when every element is within
`tolerance x (sum_j p_ij |v_jd|) + output rounding x |o_id|`, where `tolerance` covers P's
rounding to the type the second MMA reads (FlashAttention feeds P to it in bf16 or f16;
fp8 attention in e4m3, whose subnormals add up to half their step for each key:
`+ 2 x step/2 x sum_j |v_jd| / l_i`, l_i the row's sum in units of its largest weight),
and `output rounding` O's store; NaN never passes, and a row that sees no key must be
exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Beyond this many scores (S_q x S_k) per head, query rows are sampled.
FULL_CHECK_LIMIT = 1024 * 1024
#: Sampled query rows, at least, besides the first and the last.
SAMPLE_ROWS = 64
#: Relative rounding of a value stored in each type (half its last place).
ROUNDING = {"bf16": 2.0**-8, "f16": 2.0**-11, "f32": 2.0**-24, "e4m3": 2.0**-4, "e5m2": 2.0**-3}
#: Absolute rounding of a subnormal value (half the subnormals' step), for the types whose
#: subnormals P reaches: an 8-bit P below 2^-6 (e4m3) rounds by up to this much whatever
#: its size (a 16-bit P's subnormals are below 2^-126 of the row's largest: none matter).
SUBNORMAL_ROUNDING = {"e4m3": 2.0**-10, "e5m2": 2.0**-17}
#: Relative precision of the scores' accumulation, where it is coarser than f32's: Hopper's
#: fp8 wgmma keeps about 14 bits of its sums (DeepSeek-V3's report, section 3.3.2), so an
#: 8-bit score S_ij is off by up to about 2^-13 of sum_d |q_id k_jd|, and the log-sum-exp
#: by that much of its softmax average.
SCORE_ACCUMULATION = {"e4m3": 2.0**-13, "e5m2": 2.0**-13}
#: The layouts, and where the sequence and head dimensions are in each.
LAYOUTS = {"bshd": (1, 2), "bhsd": (2, 1)}


def _bhsd(x: np.ndarray, layout: str, name: str) -> np.ndarray:
    """`x` as (batch, heads, sequence, head dim), float64."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout is {' or '.join(LAYOUTS)}, not {layout!r}")
    if x.ndim != 4:
        raise ValueError(f"{name} has 4 dimensions ({layout.upper()}), not {x.ndim}: shape {x.shape}")
    x = np.asarray(x, dtype=np.float64)
    return x.transpose(0, 2, 1, 3) if layout == "bshd" else x


def _shapes(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[int, int, int, int, int, int]:
    """(batch, heads, K/V heads, S_q, S_k, head dim) of (batch, heads, seq, dim) arrays."""
    b, h, sq, d = q.shape
    bk, hk, sk, dk = k.shape
    if v.shape != k.shape:
        raise ValueError(f"V's shape {v.shape} is not K's {k.shape}")
    if bk != b or dk != d:
        raise ValueError(f"K has batch {bk} and head dim {dk}; Q has {b} and {d}")
    if hk < 1 or h % hk:
        raise ValueError(f"K/V's {hk} heads must divide Q's {h} (grouped-query attention)")
    return b, h, hk, sq, sk, d


def visible_keys(sq: int, sk: int, causal: bool) -> np.ndarray:
    """How many keys (a prefix) each query row sees: S_k, or causally i + 1 + S_k - S_q
    clipped to 0..S_k."""
    if not causal:
        return np.full(sq, sk)
    return np.clip(np.arange(sq) + 1 + sk - sq, 0, sk)


def reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, causal: bool, scale: float,
              layout: str = "bshd", rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(O, log-sum-exp) in float64: O as (batch, heads, rows, head dim) and the log-sum-exp
    as (batch, heads, rows), for the query `rows` (all where None), whatever `layout`."""
    (out,), lse = _attend(q, k, (v,), causal=causal, scale=scale, layout=layout, rows=rows)
    return out, lse


def _attend(q: np.ndarray, k: np.ndarray, values: tuple[np.ndarray, ...], *, causal: bool, scale: float,
            layout: str, rows: np.ndarray | None, per_key: np.ndarray | None = None,
            abs_scores: bool = False) -> tuple[list[np.ndarray], np.ndarray]:
    """P V for each V of `values` (each of K's shape), P computed once per head, and the
    log-sum-exp: O for `reference`, and O with sum_j p_ij |v_jd| (the scale of the error
    P's rounding can make) for `check_attention` from one softmax. With `per_key` (K's
    shape), also sum_j per_key_jd / l_i over the visible keys, after the values (the scale
    of a subnormal P's rounding); with `abs_scores`, last, sum_j p_ij |q_i| . |k_j| x scale
    (batch, heads, rows: the scale of the scores' accumulation error in the log-sum-exp)."""
    qh, kh = _bhsd(q, layout, "Q"), _bhsd(k, layout, "K")
    vhs = [_bhsd(v, layout, "V") for v in values]
    b, h, hk, sq, sk, d = _shapes(qh, kh, vhs[0])
    rows = np.arange(sq) if rows is None else np.asarray(rows)
    seen = visible_keys(sq, sk, causal)[rows]
    mask = np.arange(sk)[None, :] < seen[:, None]  # rows x S_k
    group = h // hk
    extra = _bhsd(per_key, layout, "V") if per_key is not None else None
    outs = [np.zeros((b, h, len(rows), d)) for _ in range(len(vhs) + (extra is not None))]
    spread = np.zeros((b, h, len(rows))) if abs_scores else None
    lse = np.full((b, h, len(rows)), -np.inf)
    for head in range(h):
        kv = head // group
        s = np.einsum("brd,bkd->brk", qh[:, head, rows], kh[:, kv]) * scale
        s = np.where(mask[None], s, -np.inf)
        m = s.max(axis=-1, keepdims=True)
        some = np.isfinite(m)
        p = np.where(some, np.exp(s - np.where(some, m, 0.0)), 0.0)
        total = p.sum(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            if extra is not None:
                outs[-1][:, head] = np.einsum("brk,bkd->brd", np.where(total > 0, mask[None] / total, 0.0), extra[:, kv])
            p = np.where(total > 0, p / total, 0.0)
            if spread is not None:
                spread[:, head] = (p * np.einsum("brd,bkd->brk", np.abs(qh[:, head, rows]), np.abs(kh[:, kv]))).sum(-1) * abs(scale)
            lse[:, head] = np.where(some[..., 0], (m + np.log(total))[..., 0], -np.inf)
        for out, vh in zip(outs, vhs):
            out[:, head] = np.einsum("brk,bkd->brd", p, vh[:, kv])
    return outs + ([spread] if spread is not None else []), lse


def sample_rows(rng: np.random.Generator, sq: int, sk: int) -> np.ndarray:
    """Every query row where S_q x S_k is within FULL_CHECK_LIMIT, else the first, the last
    and SAMPLE_ROWS random ones, sorted."""
    if sq * sk <= FULL_CHECK_LIMIT:
        return np.arange(sq)
    return np.array(sorted({0, sq - 1} | set(rng.integers(0, sq, SAMPLE_ROWS).tolist())))


@dataclass
class AttentionCheck:
    """The outcome of `check_attention`: `ok`, and what failed (`problems`, readable lines)."""

    rows: np.ndarray
    max_error: float
    bad: int
    nan: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, o: np.ndarray, *, causal: bool, scale: float,
                    layout: str = "bshd", p_dtype: str = "bf16", out_dtype: str = "bf16", lse: np.ndarray | None = None,
                    rng: np.random.Generator | None = None) -> AttentionCheck:
    """Checks O (and the log-sum-exp, (batch, heads, S_q), where given) of a kernel against
    `reference` on `sample_rows` (module docstring). `p_dtype`: the type P is rounded to
    for the second MMA; `out_dtype`: O's."""
    rng = rng if rng is not None else np.random.default_rng(0)
    qh = _bhsd(q, layout, "Q")
    b, h, _, sq, sk, d = _shapes(qh, _bhsd(k, layout, "K"), _bhsd(v, layout, "V"))
    got = _bhsd(o, layout, "O")
    if got.shape != qh.shape:
        raise ValueError(f"O's shape {np.shape(o)} is not Q's {np.shape(q)}")
    rows = sample_rows(rng, sq, sk)
    abs_v = np.abs(np.asarray(v, dtype=np.float64))
    subnormal = SUBNORMAL_ROUNDING.get(p_dtype)
    accumulation = SCORE_ACCUMULATION.get(p_dtype)
    outs, want_lse = _attend(q, k, (v, abs_v), causal=causal, scale=scale, layout=layout, rows=rows,
                             per_key=abs_v if subnormal else None, abs_scores=bool(accumulation) and lse is not None)
    want, weighted_abs_v = outs[0], outs[1]
    abs_v_over_l = outs[2] if subnormal else None  # sum_j |v_jd| / l_i
    spread = outs[-1] if accumulation and lse is not None else None  # sum_j p_ij |q_i|.|k_j| scale
    bound = 2 * ROUNDING[p_dtype] * weighted_abs_v + ROUNDING[out_dtype] * np.abs(want)
    if abs_v_over_l is not None:
        bound = bound + 2 * subnormal * abs_v_over_l
    here = got[:, :, rows]
    nan = int(np.isnan(here).sum())
    err = np.abs(here - want)
    bad = int(np.count_nonzero(~(err <= bound)))  # NaN compares False: never within
    problems = []
    if nan:
        problems.append(f"{nan} NaN in O")
    if bad - nan > 0:
        i = np.unravel_index(int(np.nanargmax(np.where(err <= bound, 0.0, err - bound))), err.shape)
        problems.append(f"{bad - nan} elements of O outside the tolerance; the worst at batch {i[0]}, head {i[1]}, "
                        f"row {rows[i[2]]}, column {i[3]}: {here[i]!r}, expected {want[i]!r} (within {bound[i]:.3g})")
    blind = visible_keys(sq, sk, causal)[rows] == 0
    if blind.any() and np.any(here[:, :, blind] != 0):
        problems.append(f"rows that see no key must be 0 (rows {rows[blind][:4].tolist()}...)")
    if lse is not None:
        got_lse = np.asarray(lse, dtype=np.float64)
        if got_lse.shape != (b, h, sq):
            raise ValueError(f"the log-sum-exp has shape {got_lse.shape}, not (batch, heads, S_q) = {(b, h, sq)}")
        g = got_lse[:, :, rows]
        finite = np.isfinite(want_lse)
        with np.errstate(invalid="ignore"):  # -inf - -inf where a row sees no key: counted below
            within = 1e-4 * np.maximum(1.0, np.abs(want_lse))  # f32, ex2/lg2.approx
            if spread is not None:
                within = within + 2 * accumulation * spread
            close = np.abs(g - want_lse) <= within
        lse_bad = int(np.count_nonzero(finite & ~close))
        lse_bad += int(np.count_nonzero(~finite & ~(g == -np.inf)))
        if lse_bad:
            with np.errstate(invalid="ignore"):
                off = np.where(finite, np.abs(g - want_lse), 0.0)
            problems.append(f"{lse_bad} log-sum-exp values wrong (a row that sees no key has -inf); the largest difference "
                            f"{float(np.nanmax(off)):.3g}")
    max_error = float(np.nanmax(np.where(np.isnan(err), 0.0, err))) if err.size else 0.0
    return AttentionCheck(rows, max_error, bad, nan, problems)


__all__ = ["FULL_CHECK_LIMIT", "LAYOUTS", "ROUNDING", "SAMPLE_ROWS", "AttentionCheck", "check_attention", "reference",
           "sample_rows", "visible_keys"]
