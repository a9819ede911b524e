"""`lower_tc.attention(q, k, v, out=None, *, causal=False, scale=None, lse=False)`: every
head's softmax(Q K^T scale) V on the caller's GPU arrays (torch, CuPy, any DLPack or
`__cuda_array_interface__` array), in one call (docs/attention.md, "From Python").

The arrays' shapes and types choose the program, a `tc.attention` op level
(dialects/tc_attention.py) compiled once per signature (kept in memory, and on disk by
lowering/runtime/cache.py) and launched like any Kernel. Q, K, V and O are BHSD, (batch,
heads, sequence, head dim) or (heads, sequence, head dim), dense: the batch and the heads
are one dimension of the kernel's (their views are folded, nothing is copied). Each refusal
is an ArgumentError naming the argument (or a DeviceError), before anything is compiled or
launched.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from lower_tc.layout.attention import HEAD_DIMS
from lower_tc.lowering.api.compiling import one_kernel
from lower_tc.lowering.api.matmul import _device_target, allocate
from lower_tc.lowering.runtime import launcher, session
from lower_tc.lowering.runtime.arrays import ArrayView, view_of
from lower_tc.lowering.runtime.callable import Kernel, LruCache
from lower_tc.lowering.runtime.errors import ArgumentError, DeviceError
from lower_tc.lowering.runtime.streams import stream_handle

#: Q's, K's and V's element types.
TYPES = ("bf16", "f16")
#: Kernels per program.
_kernels: LruCache[Hashable, Kernel] = LruCache(64)


def attention(q: Any, k: Any, v: Any, out: Any = None, *, causal: bool = False, scale: float | None = None,
              lse: bool = False, stream: Any = None) -> Any:
    """O = softmax(q k^T scale) v for every head, into `out` (allocated like `q` when None)
    and returned; with `lse=True`, (O, the log-sum-exp): an f32 array of q's shape less the
    head dim, each row's natural-log log-sum-exp of the scaled scores (-inf where a row sees
    no key). q is (batch, heads, S_q, D) or (heads, S_q, D); k and v (batch, heads_kv, S_k,
    D) with heads_kv dividing heads (query head h reads K/V head h / (heads / heads_kv));
    bf16 or f16; D 64, 128 or 256; any S_q, S_k. `causal`: query i sees keys j <= i + S_k -
    S_q (FlashAttention's alignment; torch's is_causal=True where S_q = S_k). `scale`
    defaults to 1 / sqrt(D). sm_90a (an H100 or H200)."""
    arrays = [("q", q), ("k", k), ("v", v)] + ([("out", out)] if out is not None else [])
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
        _check_bhsd(x, name)
        if x.dtype not in TYPES:
            raise ArgumentError(f"{name} is bf16 or f16, not {x.dtype}", name)
    if len({qv.dtype, kv.dtype, vv.dtype}) != 1:
        raise ArgumentError(f"q, k and v have one type, not {qv.dtype}, {kv.dtype}, {vv.dtype}", "k" if kv.dtype != qv.dtype else "v")
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
    if scale is None:
        scale = 1.0 / math.sqrt(d)
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not (math.isfinite(scale) and scale > 0):
        raise ArgumentError(f"scale is a finite number above 0, not {scale!r}", "scale")
    if out is None:
        out = allocate(q, qv.shape, qv.dtype)
        views["out"] = view_of(out, "out", stream=handle)
    ov = views["out"]
    _check_bhsd(ov, "out")
    if ov.shape != qv.shape or ov.dtype != qv.dtype:
        raise ArgumentError(f"out is q's shape and type, {qv.shape} {qv.dtype}, not {ov.shape} {ov.dtype}", "out")
    if ov.readonly:
        raise ArgumentError("out cannot be written (a read-only array)", "out")
    folded = [_fold(x) for x in (qv, kv, vv, ov)]
    lse_array = None
    if lse:
        lse_array = allocate(q, qv.shape[:-1], "f32")
        lv = view_of(lse_array, "lse", stream=handle)
        folded.append(replace(lv, shape=(folded[0].shape[0], folded[0].shape[1]), strides=(folded[0].shape[1], 1)))
    source = op_source(folded[0].shape, folded[1].shape, qv.dtype, causal, float(scale), lse)
    kernel = _kernel(source)
    launcher.enqueue(session.driver(), kernel.prepare(folded), handle)
    return (out, lse_array) if lse else out


def _check_bhsd(x: ArrayView, name: str) -> None:
    """A dense (batch, heads, sequence, head dim) or (heads, sequence, head dim) array."""
    if len(x.shape) not in (3, 4):
        raise ArgumentError(f"{name} is (batch, heads, sequence, head dim) or (heads, sequence, head dim), not "
                            f"{len(x.shape)}-d {x.shape}", name)
    dense = []
    step = 1
    for n in reversed(x.shape):
        dense.insert(0, step)
        step *= n
    if any(s != w for s, w, n in zip(x.strides, dense, x.shape) if n > 1):
        raise ArgumentError(f"{name} must be dense BHSD (strides {tuple(dense)} in elements, not {x.strides}); a BSHD "
                            f"array (batch, sequence, heads, head dim) is not built yet: pass its .transpose(1, 2) "
                            f"made contiguous", name)


def _fold(x: ArrayView) -> ArrayView:
    """The array as (batch x heads, sequence, head dim): the kernel's 3-d argument."""
    *lead, s, d = x.shape
    heads = math.prod(lead)
    return replace(x, shape=(heads, s, d), strides=(s * d, d, 1))


def op_source(q_shape: tuple[int, ...], kv_shape: tuple[int, ...], dtype: str, causal: bool, scale: float, lse: bool) -> str:
    """The tc.attention program for (heads, S_q, D) q and (heads_kv, S_k, D) k and v."""
    q = f"memref<{q_shape[0]}x{q_shape[1]}x{q_shape[2]}x{dtype}>"
    kv = f"memref<{kv_shape[0]}x{kv_shape[1]}x{kv_shape[2]}x{dtype}>"
    lse_t = f"memref<{q_shape[0]}x{q_shape[1]}xf32>"
    attrs = ", ".join((["causal"] if causal else []) + [f"scale = {scale!r}"])
    lse_arg, lse_op, lse_type = (f", %LSE: {lse_t}", " lse %LSE", f", {lse_t}") if lse else ("", "", "")
    return (f'func.func @attention(%Q: {q}, %K: {kv}, %V: {kv}, %O: {q}{lse_arg}) attributes {{tc.target = "sm_90a"}} {{\n'
            f"  tc.attention %Q, %K, %V to %O{lse_op} {{{attrs}}} : {q}, {kv}, {kv}, {q}{lse_type}\n"
            "  func.return\n}\n")


def _kernel(source: str) -> Kernel:
    return one_kernel(source, "<lower_tc.attention>", _kernels, source)


__all__ = ["attention", "op_source"]
