"""What the device's HBM gives a kernel that only streams bytes, at the sizes of the GEMM
suite's memory-bound cases (M <= 64): reference rates beside issue 22's "85% of the HBM
peak" target, which is a share of the datasheet's figure.

    python bench/hbm_ceiling.py --out hbm.json --table hbm.md [--dtype bf16 --shapes ...]

For each case, on buffers of its least traffic (A + B + D, each once: Case.min_bytes),
rotated through as many copies as the suite's launches are (Case.copies, so no launch
reads what the last left in L2), timed as the suite times (bench/gemm_suite_gpu.py
`measure`: CUDA events, a spin kernel ahead of each sample, interleaved, medians):
- `copy`: torch's copy of the bytes into a second buffer (a device-to-device memcpy: read
  once, written once), counted as twice the bytes;
- `read`: torch's sum of the bytes (viewed as bf16, f32 accumulation): one read of each
  byte, nothing written. Measured on the H200 it ran below the copy and below the GEMMs
  themselves (a reduction kernel, not a streaming one), so it is shown, not used;
- `stream`: the fastest launch of two read kernels of this script's own, each over a few
  grids: `STREAM_READ` (16-byte loads marked evict-first, four in flight a thread, a
  grid-stride loop; `STREAM_GRIDS`) and `BULK_READ` (cp.async.bulk into a ring of
  shared-memory slots, as a TMA-fed GEMM reads its operands; `BULK_GRIDS`). Each XORs
  every word, checked against numpy's at every grid, so nothing is dropped. A reference
  rate, not a bound: their launches do not overlap the launch before, and lower-tc's
  dependent launches do (docs/performance.md).
- lower-tc's default and cuBLAS (unless `--no-gemms`), on arrays of their own in the same
  rounds; their outputs are checked (no NaN, within `gemm_tune_suite.wrong_above` of
  cuBLAS), and their GB/s are the case's least traffic over their time.
The table gives each one's GB/s and its share of the device's HBM peak
(gemm_suite_report.hbm_peak), the GEMMs' as a share of the fastest read's (where an
earlier run timed no GEMMs, the `--suite` runs' figures). `--from-json` renders an earlier
run's table (no GPU).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_suite as suite  # noqa: E402
from gemm_suite_report import hbm_peak  # noqa: E402
from gemm_suite_shapes import Case  # noqa: E402


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", metavar="FILE")
    p.add_argument("--table", metavar="FILE")
    p.add_argument("--shapes", action="append", metavar="SUBSTRING")
    p.add_argument("--category", action="append", metavar="CAT")
    p.add_argument("--dtype", action="append", metavar="T", help="bf16, e4m3 (default: both)")
    p.add_argument("--layout", action="append", metavar="L")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--warmup-rounds", type=int, default=2)
    p.add_argument("--sample-ms", type=float, default=2.0)
    p.add_argument("--from-json", metavar="FILE", help="render this earlier run's --table (no GPU)")
    p.add_argument("--no-gemms", action="store_true",
                   help="time the ceilings alone (by default lower-tc's default and cuBLAS on the case's arrays run interleaved with them)")
    p.add_argument("--suite", nargs="*", default=[], metavar="FILE",
                   help="bench/gemm_suite.py runs whose lower-tc and cuBLAS GB/s to set beside the ceilings")
    args = p.parse_args(argv)
    args.dtype = args.dtype or ["bf16", "e4m3"]
    args.layout = args.layout or ["linear"]
    return args


def memory_bound_cases(args: argparse.Namespace) -> list[Case]:
    """The suite's M <= 64 cases that the filters select."""
    return [c for c in suite.chosen_cases(args) if c.shape.memory_bound]


#: The reads' common end (CUDA C): the block's threads' XORs into one, which goes to
#: `sink` by one atomic.
XOR_INTO = r"""
__device__ __forceinline__ void xor_into(unsigned int* sink, unsigned int acc) {
    __shared__ unsigned int warps[32];
    for (int o = 16; o > 0; o >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < (blockDim.x >> 5); ++w) acc ^= warps[w];
        atomicXor(sink, acc);
    }
}
"""

#: The stream-read kernel (CUDA C, compiled by CuPy's NVRTC): each thread XORs the 16-byte
#: words i, i + stride, i + 2 stride, i + 3 stride of a grid-stride loop (ld.global.cs:
#: cached evict-first, as data read once), the block's XOR goes to `sink` by one atomic.
STREAM_READ = r"""
extern "C" __global__ void stream_read(const uint4* __restrict__ p, unsigned long long n, unsigned int* sink) {
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int acc = 0;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 a = __ldcs(p + i), b = __ldcs(p + i + stride), c = __ldcs(p + i + 2 * stride), d = __ldcs(p + i + 3 * stride);
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
    for (; i < n; i += stride) {
        uint4 a = __ldcs(p + i);
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    xor_into(sink, acc);
}
"""

#: The stream read's launches (CTAs per SM, threads per CTA); the fastest is the ceiling.
STREAM_GRIDS = ((2, 512), (4, 512), (8, 256), (16, 256))

#: The bulk-read kernel: what a TMA-fed GEMM does with its operands, less the MMAs. Each
#: CTA takes chunks blockIdx.x, blockIdx.x + gridDim.x, ... of `chunk` bytes through a
#: ring of SLOTS shared-memory slots: thread 0 issues each chunk's cp.async.bulk (one bulk
#: copy into shared memory, completing on the slot's mbarrier), every thread waits for the
#: slot, XORs its 16-byte words (the check that every byte arrived) and the slot is
#: refilled with the chunk SLOTS further on.
BULK_READ = r"""
__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void issue(unsigned char* slot, unsigned long long* bar, const unsigned char* src, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_u32(bar)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem_u32(slot)), "l"(src), "r"(bytes), "r"(smem_u32(bar)) : "memory");
}

__device__ __forceinline__ void wait(unsigned long long* bar, unsigned phase) {
    asm volatile("{\n .reg .pred done;\n wait_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 " @!done bra wait_%=;\n}" :: "r"(smem_u32(bar)), "r"(phase) : "memory");
}

extern "C" __global__ void bulk_read(const unsigned char* p, unsigned long long bytes, unsigned chunk, unsigned int* sink) {
    extern __shared__ __align__(128) unsigned char slots[];
    __shared__ __align__(8) unsigned long long bars[SLOTS];
    unsigned long long chunks = (bytes + chunk - 1) / chunk;
    unsigned long long mine = blockIdx.x < chunks ? (chunks - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    if (threadIdx.x == 0) {
        for (int s = 0; s < SLOTS; ++s)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_u32(&bars[s])) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (unsigned long long j = 0; j < mine && j < SLOTS; ++j) {
            unsigned long long at = (blockIdx.x + j * gridDim.x) * (unsigned long long)chunk;
            issue(slots + j * chunk, &bars[j], p + at, (unsigned)min((unsigned long long)chunk, bytes - at));
        }
    }
    __syncthreads();
    unsigned acc = 0;
    for (unsigned long long j = 0; j < mine; ++j) {
        unsigned s = j % SLOTS;
        unsigned long long at = (blockIdx.x + j * gridDim.x) * (unsigned long long)chunk;
        unsigned size = (unsigned)min((unsigned long long)chunk, bytes - at);
        wait(&bars[s], (unsigned)(j / SLOTS) & 1);
        const uint4* words = (const uint4*)(slots + s * chunk);
        for (unsigned w = threadIdx.x; w < size / 16; w += blockDim.x) {
            uint4 v = words[w];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // these reads before the bulk copy's next write
        __syncthreads();
        if (threadIdx.x == 0 && j + SLOTS < mine) {
            unsigned long long next = (blockIdx.x + (j + SLOTS) * gridDim.x) * (unsigned long long)chunk;
            issue(slots + s * chunk, &bars[s], p + next, (unsigned)min((unsigned long long)chunk, bytes - next));
        }
    }
    xor_into(sink, acc);
}
"""

#: The bulk read's launches (CTAs per SM, chunk bytes; 4 slots a CTA, 256 threads).
BULK_GRIDS = ((1, 32768), (1, 49152), (2, 16384), (2, 24576))
BULK_SLOTS = 4


def cupy_stream(gpu: Any) -> Any:
    """`gpu.stream` (torch's) as a CuPy stream, for the reads to launch on."""
    import cupy

    try:
        return cupy.cuda.Stream.from_external(gpu.stream)
    except (AttributeError, TypeError):  # an older CuPy or torch: the raw handle
        return cupy.cuda.ExternalStream(gpu.stream.cuda_stream)


def readers(torch: Any, gpu: Any) -> list[tuple[str, Any]]:
    """Each read kernel at each of its grids: (its label, a function (flat uint8 tensor,
    sink) -> None that launches it on the bytes on `gpu.stream`; their length must divide
    by 16). STREAM_READ at `STREAM_GRIDS` ("stream 8x256": CTAs per SM x threads),
    BULK_READ at `BULK_GRIDS` ("bulk 1x32K": CTAs per SM x chunk)."""
    import cupy

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    stream = cupy_stream(gpu)
    stream_read = cupy.RawKernel(XOR_INTO + STREAM_READ, "stream_read")
    bulk_read = cupy.RawKernel(f"#define SLOTS {BULK_SLOTS}\n" + XOR_INTO + BULK_READ, "bulk_read", options=("-arch=sm_90a",))
    bulk_read.max_dynamic_shared_size_bytes = BULK_SLOTS * max(chunk for _, chunk in BULK_GRIDS)

    def launcher(kernel: Any, ctas: int, threads: int, args_of: Any, shared: int = 0) -> Any:
        def launch(data: Any, sink: Any) -> None:
            with stream:
                kernel((ctas,), (threads,), args_of(data, sink), shared_mem=shared)

        return launch

    out = [(f"stream {per_sm}x{threads}",
            launcher(stream_read, sms * per_sm, threads, lambda d, s: (d.data_ptr(), cupy.uint64(d.numel() // 16), s.data_ptr())))
           for per_sm, threads in STREAM_GRIDS]
    out += [(f"bulk {per_sm}x{chunk // 1024}K",
             launcher(bulk_read, sms * per_sm, 256,
                      lambda d, s, chunk=chunk: (d.data_ptr(), cupy.uint64(d.numel()), cupy.uint32(chunk), s.data_ptr()),
                      BULK_SLOTS * chunk))
            for per_sm, chunk in BULK_GRIDS]
    return out


def xor_words(torch: Any, data: Any) -> int:
    """The XOR of the bytes' 32-bit words, by numpy (the stream read's check)."""
    import numpy as np

    return int(np.bitwise_xor.reduce(data.cpu().numpy().view(np.uint32)))


def run_case(torch: Any, gpu: Any, case: Case, args: argparse.Namespace) -> dict[str, Any]:
    import gemm_suite_gpu as g

    elements = -(-case.min_bytes // 2)  # bf16 elements that hold the case's bytes
    copies = case.copies
    src = [torch.rand(elements, device=gpu.device, dtype=torch.float32).to(torch.bfloat16) for _ in range(copies)]
    dst = [torch.empty_like(t) for t in src]
    turns_read, turns_copy = g.Turns(copies), g.Turns(copies)

    def read() -> None:
        j = turns_read.take()
        torch.sum(src[j], dtype=torch.float32)

    def copy() -> None:
        j = turns_copy.take()
        dst[j].copy_(src[j])

    contenders = [g.Contender("read", launch=read, begin=turns_read.reset),
                  g.Contender("copy", launch=copy, begin=turns_copy.reset)]
    reads = readers(torch, gpu)
    raw = [t.view(torch.uint8)[: t.numel() * 2 // 16 * 16] for t in src]
    sink = torch.zeros(1, device=gpu.device, dtype=torch.int32)
    for label, launch in reads:
        turns = g.Turns(copies)

        def timed(launch: Any = launch, turns: Any = turns) -> None:
            launch(raw[turns.take()], sink)

        contenders.append(g.Contender(label, launch=timed, begin=turns.reset))
    gemms: list[Any] = []
    if not args.no_gemms:  # the GEMMs on arrays of their own, in the same rounds
        x = g.arrays(torch, case, 1, copies)
        gemms = [g.lower_tc_contender(x), *g.cublas_contenders(torch, case, x)]
    n = g.measure(gpu, contenders + gemms, args.samples, args.warmup_rounds, args.sample_ms)
    checks = g.check(torch, gemms) if gemms else {}
    from gemm_tune_suite import wrong_above

    for who, c in checks.items():  # a GEMM that is wrong times nothing worth comparing
        if c.get("nan") or (c.get("max_rel_err") or 0) > wrong_above(case.dtype):
            raise RuntimeError(f"{case.shape.name}: {who}'s output is wrong: {c}")
    got = {c.name: statistics.median(c.samples) for c in contenders + gemms if c.samples and not c.skipped}
    # each read reads every word: once more on copy 0 alone, its XOR is numpy's
    want_xor = xor_words(torch, raw[0])
    for label, launch in reads:
        sink.zero_()
        launch(raw[0], sink)
        torch.cuda.synchronize()
        if int(sink.item()) & 0xFFFFFFFF != want_xor:
            raise RuntimeError(f"{case.shape.name}: the {label} read's XOR {int(sink.item()) & 0xFFFFFFFF:#x} is not numpy's {want_xor:#x}")
    streams = {label: got[label] for label, _ in reads if label in got}
    best = min(streams, key=streams.__getitem__) if streams else None
    # the read is right: the sum of the last copy's bytes as torch's float64 sum gives it
    want = float(src[0].double().sum())
    got_sum = float(torch.sum(src[0], dtype=torch.float32))
    if abs(got_sum - want) > 1e-3 * abs(want):
        raise RuntimeError(f"{case.shape.name}: the read's sum {got_sum} is not {want}")
    if not torch.equal(dst[0], src[0]):
        raise RuntimeError(f"{case.shape.name}: the copy differs from its source")
    record = {"shape": case.shape.name, "dtype": case.dtype, "m": case.shape.m, "n": case.shape.n, "k": case.shape.k,
              "bytes": 2 * elements, "copies": copies, "launches_per_sample": n,
              "read_ms": got.get("read"), "copy_ms": got.get("copy"),
              "stream_ms": got.get(best) if best else None, "stream_grid": best, "stream_bytes": raw[0].numel(),
              "streams_ms": streams, "gemm_bytes": case.min_bytes,
              "gemms_ms": {c.name: got.get(c.name) for c in gemms}, "checks": checks,
              "skipped": {c.name: c.skipped for c in contenders if c.skipped}}
    for buffers in (src, dst, raw, contenders, gemms):
        buffers.clear()
    x = None  # noqa: F841 - the GEMMs' arrays, released before empty_cache
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    return record


def suite_bandwidth(files: list[str]) -> dict[tuple[str, str], dict[str, float]]:
    """(shape, dtype) -> the GB/s of lower-tc and cuBLAS in the suite runs `files` (B as the
    weight), from their medians and the case's least traffic."""
    found: dict[tuple[str, str], dict[str, float]] = {}
    for f in files:
        for r in json.loads(Path(f).read_text())["results"]:
            if r.get("layout") != "linear" or not r.get("min_bytes"):
                continue
            for who in ("lower-tc", "cublas"):
                ms = (r.get("results", {}).get(who) or {}).get("ms")
                if ms:
                    found.setdefault((r["shape"], r["dtype"]), {})[who] = r["min_bytes"] / (ms * 1e-3) / 1e9
    return found


def table(meta: dict[str, Any], records: list[dict[str, Any]], beside: dict[tuple[str, str], dict[str, float]]) -> str:
    peak = meta["hbm_peak"]
    pct = lambda gbs: f"{gbs:.0f} ({gbs * 1e9 / peak:.0%})"  # noqa: E731
    lines = ["# HBM ceiling at the suite's memory-bound sizes (bench/hbm_ceiling.py)\n",
             f"- {meta['device']}, {meta['date']}, commit {meta['commit']}: `{meta['command']}`",
             f"- GB/s, and in brackets the share of the HBM peak ({peak / 1e12:.2f} TB/s). `copy`: torch's copy of the "
             "case's least traffic in bytes (2x the bytes); `stream`: the fastest launch of a kernel that only reads "
             "them (bench/hbm_ceiling.py `STREAM_READ` or `BULK_READ`, its grid beside it); `read`: torch's sum of them. lower-tc's "
             "default and cuBLAS's GB/s (the case's least traffic over their time; e4m3: cuBLAS's default mode), "
             "timed in the same rounds on arrays of their own (or the `--suite` runs' where it ran without them), "
             "as a share of the stream read's.\n",
             "| shape | dtype | MB | copy GB/s | stream GB/s | stream grid | read GB/s | lower-tc GB/s | lower-tc of stream "
             "| cuBLAS GB/s | cuBLAS of stream |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        rate = lambda ms, times=1: times * r["bytes"] / (ms * 1e-3) / 1e9 if ms else None  # noqa: E731
        read, copy = rate(r.get("read_ms")), rate(r.get("copy_ms"), 2)
        stream = r["stream_bytes"] / (r["stream_ms"] * 1e-3) / 1e9 if r.get("stream_ms") else None
        other = beside.get((r["shape"], r["dtype"]), {})
        if any(r.get("gemms_ms", {}).values()):  # timed in this run, interleaved with the reads
            other = {who: r["gemm_bytes"] / (ms * 1e-3) / 1e9 for who, ms in r["gemms_ms"].items() if ms}
        cells = [r["shape"], r["dtype"], f"{r['bytes'] / 1e6:.0f}", pct(copy) if copy else "", pct(stream) if stream else "",
                 (r.get("stream_grid") or "").removeprefix("stream "), pct(read) if read else ""]
        for who in ("lower-tc", "cublas"):
            gbs = other.get(who)
            cells += [f"{gbs:.0f}" if gbs else "", f"{gbs / stream:.0%}" if gbs and stream else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.from_json:
        run = json.loads(Path(args.from_json).read_text())
        Path(args.table).write_text(table(run, run["results"], suite_bandwidth(args.suite)))
        return 0
    import torch

    import gemm_suite_gpu as g

    gpu = g.Gpu(torch)
    cases = memory_bound_cases(args)
    meta = {"device": torch.cuda.get_device_name(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "commit": os.environ.get("LOWER_TC_COMMIT"), "command": "python bench/hbm_ceiling.py " + " ".join(argv),
            "hbm_peak": hbm_peak(torch.cuda.get_device_name())}
    records = []
    for case in cases:
        with torch.cuda.stream(gpu.stream):
            records.append(run_case(torch, gpu, case, args))
        r = records[-1]
        print(f"{case.dtype} {case.shape.name}: read {r['bytes'] / (r['read_ms'] or 1) / 1e6:.0f} GB/s, "
              f"copy {2 * r['bytes'] / (r['copy_ms'] or 1) / 1e6:.0f} GB/s, "
              f"stream {r['stream_bytes'] / (r['stream_ms'] or 1) / 1e6:.0f} GB/s ({r['stream_grid']})", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({**meta, "results": records}, indent=1))
    if args.table:
        Path(args.table).write_text(table(meta, records, suite_bandwidth(args.suite)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
