"""Times a compiled kernel on the GPU with CUDA events (driver API, no torch).

Inputs are fresh random values, outputs start poisoned; the first launch is waited on
with the runner's time limit (a hang or fault is reported, not timed). Then `warmup`
launches, then `runs` samples: each is `batch` launches back to back between two events
on one stream, divided by `batch` (so the host's launch latency, which one launch alone
would add to a short kernel, stays out). The median sample is the figure to quote; the
spread (min, max) says how steady it was.
"""

from __future__ import annotations

import math

import statistics
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from lower_tc.lowering.runtime.inputs import device_bytes, host_buffers
from lower_tc.lowering.runtime.launch import load, release, wait_for
from lower_tc.lowering.runtime.launcher import enqueue
from lower_tc.lowering.runtime.memory import check_host_memory
from lower_tc.lowering.runtime.run import Runnable
from lower_tc.lowering.runtime.session import session
from lower_tc.lowering.runtime.sizes import Shape, resolve_sizes


@dataclass
class Timing:
    kernel: str
    device: str
    runs: int
    median_ms: float
    min_ms: float
    max_ms: float
    flops: float  # 2 M N K (times the batch) for a GEMM, else 0

    @property
    def tflops(self) -> float:
        return self.flops / (self.median_ms * 1e-3) / 1e12 if self.flops else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tflops": self.tflops}

    def summary(self) -> str:
        rate = f", {self.tflops:.1f} TFLOP/s" if self.flops else ""
        return (
            f"{self.kernel}: median {self.median_ms * 1e3:.1f} us over {self.runs} samples "
            f"(min {self.min_ms * 1e3:.1f}, max {self.max_ms * 1e3:.1f}){rate}"
        )


def time_kernel(
    compiled: Runnable, seed: int = 0, warmup: int = 5, runs: int = 20, timeout: float = 10.0,
    shapes: dict[str, Shape] | None = None, batch: int = 10,
) -> Timing:
    if runs < 1 or warmup < 0 or batch < 1:
        raise ValueError("timing needs at least one run and a non-negative warm-up")
    info = resolve_sizes(compiled.info, shapes)
    check_host_memory(info, checked=False)
    cuda, _, device = session(info.target)
    rng = np.random.default_rng(seed)
    host = host_buffers(rng, info.args, {i for i, a in enumerate(info.args) if not a.output})
    on_device = [device_bytes(h, a.dtype) for h, a in zip(host, info.args)]
    allocations: list[Any] = []
    stream = None
    events: list[Any] = []
    try:
        k = load(cuda, compiled.cubin, info, on_device, allocations)
        stream = cuda.call("cuStreamCreate", 0)
        enqueue(cuda, k.plan, stream)
        wait_for(cuda, stream, info.name, timeout)
        for _ in range(warmup):
            enqueue(cuda, k.plan, stream)
        pairs = []
        for _ in range(runs):
            start, end = cuda.call("cuEventCreate", 0), cuda.call("cuEventCreate", 0)
            events += [start, end]
            cuda.call("cuEventRecord", start, stream)
            for _ in range(batch):
                enqueue(cuda, k.plan, stream)
            cuda.call("cuEventRecord", end, stream)
            pairs.append((start, end))
        wait_for(cuda, stream, info.name, timeout + (runs * batch + warmup) * 0.1)
        times = [cuda.call("cuEventElapsedTime", s, e) / batch for s, e in pairs]
    except BaseException:
        for e in events:
            cuda.cu.cuEventDestroy(e)
        release(cuda, stream, allocations, check=False)
        raise
    for e in events:
        cuda.call("cuEventDestroy", e)
    release(cuda, stream, allocations, check=True)
    gemm = info.gemm
    flops = 2.0 * (gemm.batch or 1) * gemm.m * gemm.n * gemm.k if gemm is not None else 0.0  # type: ignore[operator]
    if info.attention is not None:
        flops = attention_flops(info)
    return Timing(info.name, device, runs, statistics.median(times), min(times), max(times), flops)


def attention_flops(info: KernelInfo) -> float:
    """4 x heads x S_q x S_k x head dim (the two MMAs; FlashAttention's count), half of
    it for a causal mask aligned at the diagonal of a square (what FA3's benchmark counts)."""
    att = info.attention
    assert att is not None
    q, k = info.args[att.q].shape, info.args[att.k].shape
    heads = math.prod(q[:-2])  # (heads,) or (batch, heads)
    sq, d = q[-2], q[-1]
    sk = att.keys if att.keys is not None else k[-2]
    flops = 4.0 * heads * sq * sk * d  # type: ignore[operator]
    return flops / 2 if att.causal is not None else flops


__all__ = ["Timing", "attention_flops", "time_kernel"]
