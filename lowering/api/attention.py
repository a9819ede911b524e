"""`lower_tc.attention(q, k, v, out=None, *, causal=False, scale=None, lse=False)`: every
head's softmax(Q K^T scale) V on the caller's GPU arrays (torch, CuPy, any DLPack or
`__cuda_array_interface__` array), in one call (docs/attention.md, "From Python").

The arrays' shapes and types choose the program, a `tc.attention` op level
(dialects/tc_attention.py) compiled once per signature (kept in memory, and on disk by
lowering/runtime/cache.py) and launched like any Kernel. Q, K, V and O are (batch, heads,
sequence, head dim) or (heads, sequence, head dim) with the head dim contiguous, in any
stride order: BHSD (dense), or BSHD (a (batch, sequence, heads, head dim) tensor's
`.transpose(1, 2)`, what torch's scaled_dot_product_attention takes and FlashAttention
stores). Where the batch and the heads fold into one dimension (BHSD, or a batch of one)
the kernel's arguments are 3-d views; else 4-d, the batch on the grid's z. Nothing is
copied. Each refusal is an ArgumentError naming the argument (or a DeviceError), before
anything is compiled or launched.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Any

from lower_tc.layout.attention import FP8_OUT_TYPES, FP8_TYPES, HEAD_DIMS
from lower_tc.dialects.tc_attention import grid_problem, sequence_problem
from lower_tc.layout.limits import stride_bound_problem
from lower_tc.layout.strided import dense_strides, distinct_elements
from lower_tc.lowering.api.compiling import one_kernel
from lower_tc.lowering.api.matmul import _device_target, allocate
from lower_tc.lowering.api.matmul_program import MLIR_ELEMENT
from lower_tc.lowering.runtime import launcher, session
from lower_tc.lowering.runtime.arrays import ArrayView, Reinterpreted, view_of
from lower_tc.lowering.runtime.callable import Kernel, LruCache
from lower_tc.lowering.runtime.errors import ArgumentError, DeviceError
from lower_tc.lowering.runtime.streams import stream_handle

#: Q's, K's and V's element types; O is q's type, or one of FP8_OUT_TYPES for 8-bit ones
#: (out=None allocates the first).
TYPES = ("bf16", "f16", *FP8_TYPES)
#: Kernels per program.
_kernels: LruCache[Hashable, Kernel] = LruCache(64)


def attention(q: Any, k: Any, v: Any, out: Any = None, *, causal: bool = False, scale: float | None = None,
              lse: bool = False, q_descale: Any = None, k_descale: Any = None, v_descale: Any = None,
              stream: Any = None) -> Any:
    """O = softmax(q k^T scale) v for every head, into `out` (allocated like `q` when None)
    and returned; with `lse=True`, (O, the log-sum-exp): an f32 array of q's shape less the
    head dim, each row's natural-log log-sum-exp of the scaled scores (-inf where a row sees
    no key). q is (batch, heads, S_q, D) or (heads, S_q, D), BHSD or BSHD (the module's
    docstring; out=None gives O q's layout); k and v (batch, heads_kv, S_k, D) with
    heads_kv dividing heads (query head h reads K/V head h / (heads / heads_kv));
    bf16 or f16, or 8-bit (float8_e4m3fn, float8_e5m2: O bf16 unless `out` is f16; v as
    k, its head dim contiguous, the kernel transposing its tiles in shared memory, or with
    its keys contiguous, `vt.transpose(-1, -2)` of a (..., D, S_k) vt, read as it is); D 64, 128 or
    256; any S_q, S_k. `causal`: query i sees keys j <= i + S_k -
    S_q (FlashAttention's alignment; torch's is_causal=True where S_q = S_k). `scale`
    defaults to 1 / sqrt(D). `q_descale`, `k_descale`, `v_descale` (8-bit q, k, v;
    FlashAttention-3's): f32 arrays of (batch, heads of k) (of (heads of k,) or (1, heads
    of k) where q is 3-d) read at launch, the scores times q_descale x k_descale and O
    times v_descale for each batch and head of k; any of them, the rest 1 (a negative
    q_descale x k_descale makes O NaN; a zero one, a uniform softmax over the keys each row
    sees). sm_90a (an H100 or H200)."""
    factors = {w: x for w, x in (("q_descale", q_descale), ("k_descale", k_descale), ("v_descale", v_descale)) if x is not None}
    arrays = [("q", q), ("k", k), ("v", v)] + ([("out", out)] if out is not None else []) + list(factors.items())
    handle = stream_handle(stream, [x for _, x in arrays])
    if not isinstance(causal, bool):
        raise ArgumentError(f"causal is True or False, not {causal!r}", "causal")
    if not isinstance(lse, bool):
        raise ArgumentError(f"lse is True or False, not {lse!r}", "lse")
    views = {name: view_of(x, name, stream=handle) for name, x in arrays}
    devices = {x.device_id for x in views.values()}
    if len(devices) != 1:
        raise DeviceError(f"the arrays are on devices {sorted(devices)}: lower_tc.attention runs on one")
    target = _device_target(views["q"].device_id)
    if target != "sm_90a":
        raise DeviceError(f"lower_tc.attention is built for sm_90a (an H100 or H200), not {target}")
    qv, kv, vv = views["q"], views["k"], views["v"]
    for name, x in (("q", qv), ("k", kv), ("v", vv)):
        if x.dtype not in TYPES:
            raise ArgumentError(f"{name} is bf16, f16, e4m3 or e5m2, not {x.dtype}", name)
    if len({qv.dtype, kv.dtype, vv.dtype}) != 1:
        raise ArgumentError(f"q, k and v have one type, not {qv.dtype}, {kv.dtype}, {vv.dtype}", "k" if kv.dtype != qv.dtype else "v")
    fp8 = qv.dtype in FP8_TYPES
    for name in factors:
        if not fp8:
            raise ArgumentError(f"{name} is for 8-bit q, k and v (descaling factors), not {qv.dtype}", name)
    for name, x in (("q", qv), ("k", kv), ("v", vv)):
        _check_layout(x, name, keys_contiguous=fp8 and name == "v")
    if len({len(qv.shape), len(kv.shape), len(vv.shape)}) != 1:
        raise ArgumentError("q, k and v are all 4-d (batch, heads, sequence, head dim) or all 3-d", "k")
    if vv.shape != kv.shape:
        raise ArgumentError(f"v's shape {vv.shape} is not k's {kv.shape}", "v")
    d = qv.shape[-1]
    if kv.shape[-1] != d:
        raise ArgumentError(f"k's head dim {kv.shape[-1]} is not q's {d}", "k")
    if d not in HEAD_DIMS:
        raise ArgumentError(f"the head dim is {', '.join(map(str, HEAD_DIMS))}, not {d}", "q")
    if len(qv.shape) == 4 and kv.shape[0] != qv.shape[0]:
        raise ArgumentError(f"k's batch {kv.shape[0]} is not q's {qv.shape[0]}", "k")
    heads, kv_heads = qv.shape[-3], kv.shape[-3]
    if heads % kv_heads:
        raise ArgumentError(f"k and v's {kv_heads} heads must divide q's {heads} (grouped-query attention)", "k")
    if 0 in qv.shape or 0 in kv.shape:
        raise ArgumentError("q, k and v have at least one query, key and head", "q" if 0 in qv.shape else "k")
    batch = qv.shape[0] if len(qv.shape) == 4 else 1
    # tc.attention's limits (dialects/tc_attention.py), said of the argument before compiling
    for name, why in (("q", sequence_problem("q", qv.shape[-2])), ("k", sequence_problem("k", kv.shape[-2])),
                      ("q", grid_problem("q", heads, batch))):
        if why:
            raise ArgumentError(why, name)
    if scale is None:
        scale = 1.0 / math.sqrt(d)
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not (math.isfinite(scale) and scale > 0):
        raise ArgumentError(f"scale is a finite number above 0, not {scale!r}", "scale")
    if out is None:
        out = allocate_like(q, qv, FP8_OUT_TYPES[0] if fp8 else qv.dtype)
        views["out"] = view_of(out, "out", stream=handle)
    ov = views["out"]
    _check_layout(ov, "out")
    out_types = FP8_OUT_TYPES if fp8 else (qv.dtype,)
    if ov.shape != qv.shape or ov.dtype not in out_types:
        raise ArgumentError(f"out is q's shape, {qv.shape}, and {' or '.join(out_types)}, not {ov.shape} {ov.dtype}", "out")
    if ov.readonly:
        raise ArgumentError("out cannot be written (a read-only array)", "out")
    if not distinct_elements(ov.shape, ov.strides):
        raise ArgumentError(f"out's strides {ov.strides} put two of its elements at one address", "out")
    descale = {name: _descale(views[name], name, qv.shape[0] if len(qv.shape) == 4 else None, kv_heads) for name in factors}
    folded = [_fold(x) for x in (qv, kv, vv, ov)]
    folded_descale = [_fold_descale(x) for x in descale.values()]
    # one that does not fold, or batch x heads past the grid's y (a CTA per folded head): all 4-d
    if any(f is None for f in folded + folded_descale) or grid_problem("q", batch * heads, 1):
        folded = [_four(x) for x in (qv, kv, vv, ov)]
        folded_descale = list(descale.values())
    lse_array = None
    if lse:
        lse_array = allocate(q, qv.shape[:-1], "f32")
        lv = view_of(lse_array, "lse", stream=handle)
        shape = folded[0].shape[:-1]  # (heads, S_q) or (batch, heads, S_q), dense
        folded.append(replace(lv, shape=shape, strides=dense_strides(shape)))
    named = {name.split("_")[0]: x for name, x in zip(descale, folded_descale)}
    source = op_source(*folded[:4], causal, float(scale), lse, named)  # type: ignore[arg-type]
    kernel = _kernel(source)
    launcher.enqueue(session.driver(), kernel.prepare(folded + folded_descale), handle)  # type: ignore[arg-type]
    return (out, lse_array) if lse else out


def _check_layout(x: ArrayView, name: str, keys_contiguous: bool = False) -> None:
    """A (batch, heads, sequence, head dim) or (heads, sequence, head dim) array whose
    head dim is contiguous and whose other strides TMA can step (16-byte multiples); with
    `keys_contiguous` (8-bit v), one whose sequence is contiguous does too: V^T in memory,
    a (..., D, S_k) array's .transpose(-1, -2), read as it is (else the kernel transposes
    V's tiles in shared memory)."""
    if len(x.shape) not in (3, 4):
        raise ArgumentError(f"{name} is (batch, heads, sequence, head dim) or (heads, sequence, head dim), not "
                            f"{len(x.shape)}-d {x.shape}", name)
    per = max(1, 128 // x.bits)  # elements in 16 bytes
    keys = keys_contiguous and x.strides[-1] != 1 and (x.shape[-2] == 1 or x.strides[-2] == 1)
    unit = -2 if keys else -1
    if x.shape[unit] > 1 and x.strides[unit] != 1:
        if keys_contiguous:
            raise ArgumentError(f"an 8-bit {name} has its head dim contiguous (stride 1) or its keys (V^T in memory: "
                                f"vt.transpose(-1, -2) of a contiguous (..., head dim, keys) vt), not strides {x.strides}: "
                                f"pass a contiguous copy", name)
        raise ArgumentError(f"{name}'s head dim must be contiguous (stride 1), not strides {x.strides}: pass a contiguous copy", name)
    for i, (n, stride) in enumerate(zip(x.shape, x.strides)):
        if i == len(x.shape) + unit:
            continue
        if n > 1 and (stride <= 0 or stride % per):
            raise ArgumentError(f"{name}'s strides {x.strides} (in elements) must be positive multiples of {per} "
                                f"(16 bytes: TMA's rule) outside the {'sequence' if keys else 'head dim'}: "
                                f"pass a contiguous copy", name)
        if n > 1 and (problem := stride_bound_problem(stride * x.bits // 8, f"{name}'s stride {stride} of strides {x.strides}",
                                                      tma=name != "out")):
            raise ArgumentError(problem, name)


def _descale(x: ArrayView, name: str, batch: int | None, kv_heads: int) -> ArrayView:
    """A descaling factor's array as the kernel's (batch, heads of k) f32 matrix (batch 1
    where q is 3-d (`batch` None): a (heads of k,) array is read as (1, heads of k))."""
    want = (batch, kv_heads) if batch is not None else (1, kv_heads)
    shapes = [want] + ([(kv_heads,)] if batch is None else [])
    if x.dtype != "f32" or tuple(x.shape) not in shapes:
        shown = " or ".join(str(s) for s in shapes)
        raise ArgumentError(f"{name} is an f32 array of (batch, heads of k) = {shown}, not {x.shape} {x.dtype}", name)
    strides = _matrix_strides(want, x.strides if len(x.shape) == 2 else (kv_heads * x.strides[0], x.strides[0]))
    if strides is None:
        raise ArgumentError(f"{name}'s strides {x.strides} are not a matrix's (one of them 1, the other at least its "
                            f"dimension's count): pass a contiguous copy (a broadcast of one value: .expand(...).contiguous())",
                            name)
    return replace(x, shape=want, strides=strides)


def _fold_descale(x: ArrayView) -> ArrayView | None:
    """A (batch, heads of k) factor as (1, batch x heads of k), for the folded 3-d
    kernel arguments (`_fold`: k's head kv of batch b is head b x heads + kv), or None
    where its elements are not evenly spaced in that order."""
    b, h = x.shape
    if b == 1:
        return x
    step = _folded_step(b, h, *x.strides)
    if step is None:
        return None
    shape = (1, b * h)
    strides = _matrix_strides(shape, (b * h * step, step))
    return replace(x, shape=shape, strides=strides) if strides is not None else None


def _matrix_strides(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, int] | None:
    """The strides of a kernel's 2-d argument that reads the elements `shape` and `strides`
    name, row-major (ld >= columns) or column-major (ld >= rows), a one-element
    dimension's stride chosen to make it so; None where none does."""
    (rows, cols), (s0, s1) = shape, strides
    if rows == 1 and cols == 1:
        return (1, 1)
    if rows == 1:
        return (cols, 1) if s1 == 1 else (1, s1)
    if cols == 1:
        return (1, rows) if s0 == 1 else (s0, 1)
    if (s1 == 1 and s0 >= cols) or (s0 == 1 and s1 >= rows):
        return (s0, s1)
    return None


def _fold(x: ArrayView) -> ArrayView | None:
    """The array as (batch x heads, sequence, head dim), the kernel's 3-d argument, where
    the batch and the heads fold into one dimension; else None."""
    if len(x.shape) == 3:
        return replace(x, strides=_tidy(x.shape, x.strides))
    b, h, s, d = x.shape
    sb, sh, ss, sd = x.strides
    step = _folded_step(b, h, sb, sh)
    if step is None:
        return None
    return replace(x, shape=(b * h, s, d), strides=_tidy((b * h, s, d), (step, ss, sd)))


def _folded_step(b: int, h: int, sb: int, sh: int) -> int | None:
    """The stride of a (batch, heads) pair of dimensions folded into one of batch x heads
    (head h of batch i is entry i x heads + h), or None where the batch's stride is not
    heads x the heads' (the entries are not evenly spaced in that order). q, k, v, out
    and the descaling factors fold by this one rule, so that they index alike."""
    if b > 1 and h > 1 and sb != h * sh:
        return None
    return sh if h > 1 else sb


def _four(x: ArrayView) -> ArrayView:
    """The 4-d array as the kernel's (batch, heads, sequence, head dim) argument (q, k, v
    and out have one rank, and only a 4-d one can fail to fold)."""
    return replace(x, strides=_tidy(x.shape, x.strides))


def _tidy(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """Strides with those of one-element dimensions (which step nowhere, and which
    frameworks set freely) made dense: one program for arrays that read the same."""
    return tuple(d if n == 1 else st for n, st, d in zip(shape, strides, dense_strides(shape)))


def allocate_like(q: Any, qv: ArrayView, dtype: str | None = None) -> Any:
    """An empty array of q's shape and stride order (O in q's layout: BSHD for a BSHD q),
    of q's type or `dtype`, from q's library and on its device."""
    order = sorted(range(len(qv.shape)), key=lambda i: -qv.strides[i])  # outermost first
    dense = allocate(q, tuple(qv.shape[i] for i in order), dtype or qv.dtype)
    inverse = tuple(order.index(i) for i in range(len(order)))
    if inverse == tuple(range(len(order))):
        return dense
    if isinstance(dense, Reinterpreted):  # CuPy's bf16 bits
        return Reinterpreted(dense.array.transpose(inverse), dense.dtype)
    return dense.permute(*inverse) if hasattr(dense, "permute") else dense.transpose(inverse)


def op_source(q: ArrayView, k: ArrayView, v: ArrayView, o: ArrayView, causal: bool, scale: float, lse: bool,
              descale: Mapping[str, ArrayView] | None = None) -> str:
    """The tc.attention program for q, k, v and o as the kernel takes them (3-d (heads,
    S, D) or 4-d (batch, heads, S, D), each with its strides), and the descaling factors
    given ("q", "k", "v" -> a (batch, heads of k) matrix), in that order."""
    q_t, k_t, v_t, o_t = (_memref(x) for x in (q, k, v, o))
    lse_t = f"memref<{'x'.join(map(str, q.shape[:-1]))}xf32>"
    attrs = ", ".join((["causal"] if causal else []) + [f"scale = {scale!r}"])
    lse_arg, lse_op, lse_type = (f", %LSE: {lse_t}", " lse %LSE", f", {lse_t}") if lse else ("", "", "")
    for w, x in (descale or {}).items():
        t = _memref(x)
        lse_arg += f", %{w.upper()}D: {t}"
        lse_op += f" {w}_descale %{w.upper()}D"
        lse_type += f", {t}"
    return (f'func.func @attention(%Q: {q_t}, %K: {k_t}, %V: {v_t}, %O: {o_t}{lse_arg}) attributes {{tc.target = "sm_90a"}} {{\n'
            f"  tc.attention %Q, %K, %V to %O{lse_op} {{{attrs}}} : {q_t}, {k_t}, {v_t}, {o_t}{lse_type}\n"
            "  func.return\n}\n")


def _memref(x: ArrayView) -> str:
    """x's memref type: the default layout where dense, else its strides."""
    dims = "x".join(map(str, x.shape))
    element = MLIR_ELEMENT[x.dtype]
    if tuple(x.strides) == dense_strides(x.shape):
        return f"memref<{dims}x{element}>"
    return f"memref<{dims}x{element}, strided<[{', '.join(map(str, x.strides))}]>>"


def _kernel(source: str) -> Kernel:
    return one_kernel(source, "<lower_tc.attention>", _kernels, source)


__all__ = ["attention", "op_source"]
