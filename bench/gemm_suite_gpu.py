"""The GEMM suite on the GPU (bench/gemm_suite.py): the operands, the contenders, their
timing and the checks. Needs torch and a GPU; JAX and lower-tc's runtime are optional (a
contender that cannot run is a skipped column with its reason, never a crash).

The contenders, on the same torch tensors in one process:
- lower-tc: `lower_tc.matmul(a, b, out=d)`, the default kernel (no configuration), sizes
  compiled in; b is the transposed view W.T of nn.Linear's weight, or B row-major.
- cuBLAS (torch): bf16 `torch.matmul(a, b, out=d)` (for the weight, b = W.t():
  torch.nn.functional.linear(a, W) is exactly at::matmul(a, W.t()) for a 2-d input without
  bias); fp8 `torch._scaled_mm(a, W.t(), scale_a=1, scale_b=1, out_dtype=bf16,
  use_fast_accum=False)` (`cublas`, cuBLAS's default: the tensor core's partial sums promoted)
  and `use_fast_accum=True` (`cublas-fast`, the mode lower-tc's fp8 kernel corresponds to).
- Mosaic GPU: JAX's `hopper_matmul_mgpu.matmul` in issue 22's configuration (MOSAIC_CONFIG),
  jitted, on the same memory: the torch tensors imported by DLPack (zero copy: the pointer
  is checked) on bf16 with B row-major where its tiles divide the sizes.

Timing, the same for all three: CUDA events on one torch stream around back-to-back
launches, with the host kept ahead of the GPU.
- A sample is `n` launches between two events, divided by n. n is chosen per case so that a
  sample lasts at least `sample_ms` (the same n for every contender), so the events' and the
  launches' fixed costs are a small share.
- A case whose arrays are small (below 128 MiB of least traffic) has identical copies of
  them, and the launches rotate through the copies (each sample starting at the first):
  without that, a decoding GEMM's 30 MB weight would stay in the 50 MB L2 from one launch to
  the next and its "HBM bandwidth" would be L2's (Case.copies, gemm_suite_shapes.py).
- Before each sample's start event the stream runs a spin kernel (`torch.cuda._sleep`) long
  enough for the host to enqueue all n launches behind it (1.5 x the host time the last
  sample took, adapted as it goes). So the events time the GPU running n queued kernels,
  not the host launching them: `lower_tc.matmul` costs ~20 us of host time per call, JAX's
  dispatch more, and a decoding GEMM runs for ~10 us. A sample whose start event had
  already passed when the host finished launching is "late" (the GPU may have waited for
  the host): it is dropped and retried with twice the head start; the count is recorded.
- Mosaic GPU runs on JAX's own stream, so its samples are bracketed through DLPack's stream
  protocol: after the start event, the first launch's operands are imported again
  (`jax.dlpack.from_dlpack`: torch makes JAX's stream wait for the torch stream, so
  Mosaic's kernels, which JAX's stream runs in order, start after the start event), and
  after the launches the last output is exported to torch (`torch.from_dlpack`: XLA makes
  the torch stream wait for it, WaitUntilBufferReadyOnStream) before the end event. Those
  two cross-stream waits add a few microseconds to each of Mosaic's samples (well under 1%
  of a sample); `--cupti` measures every contender's kernels alone as a cross-check. Should
  a JAX version block the host in that export instead, every Mosaic sample comes out late
  (counted, and slower by the host's wake-up): then trust --cupti's figure for it.
- Why not JAX's profiler alone: CUPTI gives the kernels' durations without the gaps between
  them, while events time the stream; the two differ most for short kernels. Using events
  for all three keeps one definition; `--cupti` records the CUPTI figure of all three beside
  it (through the same `_mosaic_gpu_ext` CUPTI hooks JAX's profiler.measure uses).
- Warm-up: each contender runs twice (compiling, loading), then one short sample sets n, then
  `warmup_rounds` rounds of samples are discarded. Then `samples` rounds, each contender
  once per round, the order rotating by one each round (so none always follows the same
  one); the median of each contender's samples is its time.

Checks, assert-free: each output (D poisoned with NaN before lower-tc's first launch) against
cuBLAS's default, as max |d - d_cublas| / max |d_cublas|, and NaN or Inf flagged.
"""

from __future__ import annotations

import inspect
import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gemm_suite_shapes import Case

#: issue 22's configuration of Mosaic GPU's Hopper matmul: a 128 x 128 tile per warpgroup,
#: the two consumer warpgroups along N (a 128 x 256 CTA tile), the grid's minor dimension
#: M with tile width 16, 4 stages of K = 64.
MOSAIC_CONFIG = {"tile_m": 128, "tile_n": 128, "tile_k": 64, "max_concurrent_steps": 4, "epi_tile_m": 64,
                 "epi_tile_n": 64, "grid_minor_dim": "M", "grid_tile_width": 16, "wg_dimension": "N"}
#: Most launches in one sample (CUDA's queue of pending launches is about a thousand deep).
MAX_LAUNCHES = 500
#: Retries of a late sample before it is kept (and counted); after that the contender's
#: later samples are kept as they come (each late one counted).
LATE_RETRIES = 4
#: The longest head start the spin kernel gives, ms.
MAX_HEAD_MS = 100.0


def _noop() -> None:
    return None


@dataclass
class Contender:
    """One GEMM implementation on one case's arrays. `launch` enqueues one GEMM;
    `begin`/`end` run before and after a sample's launches (Mosaic: the cross-stream
    ordering); `output` is D after the launches. `skipped` is the reason it does not run."""

    name: str
    launch: Callable[[], Any] = _noop
    output: Callable[[], Any] = _noop
    begin: Callable[[], None] = _noop
    end: Callable[[], None] = _noop
    skipped: str | None = None
    samples: list[float] = field(default_factory=list)
    late: int = 0
    head_ms: float = 0.5  # the spin kernel's length before each sample, adapted
    retry_late: bool = True  # False once a sample stayed late through every retry
    info: dict[str, Any] = field(default_factory=dict)


def reason(err: BaseException) -> str:
    """An exception as one short line for a skipped column."""
    text = str(err).strip().splitlines()
    line = text[0] if text else ""
    return f"{type(err).__name__}: {line}"[:300]


class Gpu:
    """The torch side: the stream every torch and lower-tc launch goes on, and the spin
    kernel's cycles per millisecond (measured once)."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.device = torch.device("cuda", torch.cuda.current_device())
        self.stream = torch.cuda.Stream(self.device)  # not the legacy default: DLPack needs a real handle
        self.cycles_per_ms = self._calibrate()

    def _calibrate(self) -> float:
        torch = self.torch
        if not hasattr(torch.cuda, "_sleep"):
            return 0.0
        with torch.cuda.stream(self.stream):
            torch.cuda._sleep(1000)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            torch.cuda._sleep(20_000_000)
            end.record()
        end.synchronize()
        return 20_000_000 / max(start.elapsed_time(end), 1e-3)

    def spin(self, ms: float) -> None:
        if self.cycles_per_ms:
            self.torch.cuda._sleep(max(1, int(ms * self.cycles_per_ms)))


def sample(gpu: Gpu, c: Contender, n: int) -> tuple[float, bool, float]:
    """One sample of `c`: (ms per launch, late, host ms to enqueue it)."""
    torch = gpu.torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(gpu.stream):
        gpu.spin(c.head_ms)
        t0 = time.perf_counter()
        start.record()
        c.begin()
        for _ in range(n):
            c.launch()
        c.end()
        end.record()
        host_ms = (time.perf_counter() - t0) * 1e3
        late = bool(gpu.cycles_per_ms) and start.query()
    end.synchronize()
    return start.elapsed_time(end) / n, late, host_ms


def timed_sample(gpu: Gpu, c: Contender, n: int) -> float:
    """A sample that was not late (retried with a longer head start, up to MAX_HEAD_MS),
    or the last try, counted in `c.late`."""
    for _ in range(LATE_RETRIES + 1 if c.retry_late else 1):
        ms, late, host_ms = sample(gpu, c, n)
        c.head_ms = min(MAX_HEAD_MS, max(c.head_ms, 1.5 * host_ms + 0.05))
        if not late:
            return ms
        c.head_ms = min(MAX_HEAD_MS, 2 * c.head_ms)
    c.late += 1
    c.retry_late = False
    return ms


def measure(gpu: Gpu, contenders: list[Contender], samples: int, warmup_rounds: int, sample_ms: float) -> int:
    """Times every contender that runs (warm-up, then interleaved rounds); a contender that
    raises is marked skipped. Returns the launches per sample."""
    torch = gpu.torch
    live = [c for c in contenders if not c.skipped]
    estimate: dict[str, float] = {}
    for c in live:
        try:
            with torch.cuda.stream(gpu.stream):
                c.begin()
                c.launch()
                c.launch()
                c.end()
            torch.cuda.synchronize()
            c.head_ms = 2.0
            estimate[c.name] = timed_sample(gpu, c, 2)
            c.late, c.retry_late = 0, True
        except Exception as err:  # noqa: BLE001 - the column says why
            c.skipped = reason(err)
            _settle(torch)
    live = [c for c in live if not c.skipped]
    if not live:
        return 0
    fastest = min(estimate[c.name] for c in live)
    n = max(1, min(MAX_LAUNCHES, math.ceil(sample_ms / max(fastest, 1e-4))))
    for r in range(warmup_rounds + samples):
        order = live[r % len(live):] + live[:r % len(live)]
        for c in order:
            if c.skipped:
                continue
            try:
                ms = timed_sample(gpu, c, n)
            except Exception as err:  # noqa: BLE001
                c.skipped = reason(err)
                _settle(torch)
                continue
            if r >= warmup_rounds:
                c.samples.append(ms)
    return n


def _settle(torch: Any) -> None:
    """Waits for the GPU after a contender failed; a CUDA error that stays with the context
    (an illegal address) is raised again by the next case (the JSON so far is written)."""
    try:
        torch.cuda.synchronize()
    except Exception:  # noqa: BLE001
        pass


def cupti_ms(gpu: Gpu, contenders: list[Contender], launches: int = 10) -> dict[str, Any]:
    """Each running contender's kernels timed by CUPTI (the hooks JAX's Mosaic GPU profiler
    uses): the sum of the kernels' durations per launch, median over `launches`; or why not."""
    try:
        from jax._src.lib import mosaic_gpu as mosaic_gpu_lib

        ext = mosaic_gpu_lib._mosaic_gpu_ext
    except Exception as err:  # noqa: BLE001
        return {"skipped": f"no CUPTI hooks: {reason(err)}"}
    torch = gpu.torch
    out: dict[str, Any] = {}
    for c in contenders:
        if c.skipped:
            continue
        torch.cuda.synchronize()
        try:
            ext._cupti_init()
            try:
                with torch.cuda.stream(gpu.stream):
                    c.begin()
                    for _ in range(launches):
                        c.launch()
                    c.end()
                torch.cuda.synchronize()
            finally:
                timings = ext._cupti_get_timings(True)
        except Exception as err:  # noqa: BLE001
            out[c.name] = {"skipped": reason(err)}
            continue
        per = len(timings) // launches if launches else 0
        if not per or len(timings) % launches:
            out[c.name] = {"skipped": f"{len(timings)} kernels for {launches} launches"}
            continue
        sums = [sum(ms for _, ms in timings[i * per:(i + 1) * per]) for i in range(launches)]
        out[c.name] = {"ms": statistics.median(sums), "kernels": sorted({str(name) for name, _ in timings})}
    return out


# --- operands -----------------------------------------------------------------------------

def operand(torch: Any, shape: tuple[int, int], strides: tuple[int, int], rows: int, dtype: Any, gen: Any,
            copies: int = 1) -> list[Any]:
    """`copies` arrays with these shape and strides, each a view of its own padded storage
    of `rows` rows, all holding the same standard normal values (full-entropy data: issue 22
    saw uniform bf16 data run ~5% faster)."""
    ld = max(strides)
    cols = shape[1] if strides[1] == 1 else shape[0]
    base = torch.randn(rows, ld, device="cuda", dtype=torch.bfloat16, generator=gen)
    if dtype != torch.bfloat16:
        base = base.to(dtype)
    bases = [base] + [base.clone() for _ in range(copies - 1)]
    return [b[:, :cols] if strides[1] == 1 else b[:, :cols].t() for b in bases]


@dataclass
class Arrays:
    """One case's tensors, in `copies` identical sets that the launches rotate through (so
    that a small GEMM's operands are not still in L2 from its last launch, as a model's
    next layer's would not be): A, B (as lower-tc reads it, K x N; for the `linear`
    layout the view W.t() of nn.Linear's N x K weight), D for lower-tc (NaN before its
    first launch) and for cuBLAS. The checks read set 0."""

    a: list[Any]
    b: list[Any]
    d: list[Any]
    d_cublas: list[Any]

    @property
    def copies(self) -> int:
        return len(self.a)


def arrays(torch: Any, case: Case, seed: int, copies: int = 1) -> Arrays:
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    dtype = torch.bfloat16 if case.dtype == "bf16" else torch.float8_e4m3fn
    ops = case.operands()
    a = operand(torch, *ops["a"], dtype, gen, copies)
    b = operand(torch, *ops["b"], dtype, gen, copies)
    for name, t in (("a", a[-1]), ("b", b[-1])):
        assert tuple(t.shape) == ops[name][0] and tuple(t.stride()) == ops[name][1], (name, t.shape, t.stride(), ops[name])
    m, n = ops["out"][0]
    d = [torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16) for _ in range(copies)]
    d_cublas = [torch.empty((m, n), device="cuda", dtype=torch.bfloat16) for _ in range(copies)]
    return Arrays(a, b, d, d_cublas)


class Turns:
    """Which set of arrays the next launch takes: 0 at the start of each sample, then each
    in turn."""

    def __init__(self, copies: int) -> None:
        self.copies = copies
        self.next = 0

    def reset(self) -> None:
        self.next = 0

    def take(self) -> int:
        j = self.next % self.copies
        self.next += 1
        return j


# --- contenders ---------------------------------------------------------------------------

def median_us(contenders: list[Contender]) -> dict[str, float]:
    """Each timed contender's median time of one launch, in us (2 decimals)."""
    return {c.name: round(statistics.median(c.samples) * 1e3, 2) for c in contenders if c.samples}


def write_study(path: str, torch: Any, script: str, argv: list[str], rows: list[dict[str, Any]]) -> None:
    """A study's rows as JSON, with the device and the command that made them."""
    import json

    with open(path, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "command": f"python {script} " + " ".join(argv), "rows": rows},
                  f, indent=1, default=str)


def kernel_contender(name: str, kernel: Any, x: Arrays) -> Contender:
    """A compiled lower-tc `Kernel` (a PTX variant, bench/dependent_launch_study.py and
    bench/split_k_*_probe.py) launched on the case's arrays, rotating through their copies,
    into D arrays of its own, NaN before the first launch."""
    d = [t.clone().fill_(float("nan")) for t in x.d]
    turns = Turns(x.copies)

    def launch() -> None:
        j = turns.take()
        kernel(x.a[j], x.b[j], d[j])

    return Contender(name, launch=launch, output=lambda: d[0], begin=turns.reset)


def time_kernels(gpu: Gpu, torch: Any, case: Any, kernels: dict[str, tuple[str, Any]], samples: int,
                 ) -> tuple[dict[str, float], dict[str, dict[str, Any]], dict[str, Contender]]:
    """The PTX-variant studies' one measurement (bench/dependent_launch_study.py,
    bench/split_k_*_probe.py, bench/split_k_spread_fence_ab.py): cuBLAS and each kernel of
    `kernels` (name -> its PTX and KernelInfo) on fresh arrays of the case, timed as the
    suite times them (`measure`, `samples` interleaved rounds), and checked (`check`).
    Returns the medians in us, the checks, and the contenders by name (their outputs)."""
    from lower_tc.lowering.backend.assembler import assemble
    from lower_tc.lowering.runtime.callable import Kernel

    x = arrays(torch, case, 1, case.copies)
    contenders = [*cublas_contenders(torch, case, x)]
    for name, (ptx, info) in kernels.items():
        contenders.append(kernel_contender(name, Kernel(assemble(ptx, "sm_90a"), info), x))
    measure(gpu, contenders, samples, 1, 2.0)
    return median_us(contenders), check(torch, contenders), {c.name: c for c in contenders}


def lower_tc_contender(x: Arrays, promoted: bool = False) -> Contender:
    """lower-tc's default kernel on the case's arrays; `promoted`: fp8 with the promoted
    accumulation (`accumulation="promoted"`), into D arrays of its own."""
    name = "lower-tc-promoted" if promoted else "lower-tc"
    try:
        import lower_tc
    except Exception as err:  # noqa: BLE001
        return Contender(name, skipped=f"lower_tc not importable: {reason(err)}")
    turns = Turns(x.copies)
    d = [t.clone().fill_(float("nan")) for t in x.d] if promoted else x.d
    options = {"accumulation": "promoted"} if promoted else {}

    def launch() -> None:
        j = turns.take()
        lower_tc.matmul(x.a[j], x.b[j], out=d[j], **options)

    return Contender(name, launch=launch, output=lambda: d[0], begin=turns.reset)


def cublas_contenders(torch: Any, case: Case, x: Arrays) -> list[Contender]:
    """bf16: torch.matmul (for the weight, b is W.t(): F.linear(a, W) without bias runs
    exactly this); fp8: torch._scaled_mm in cuBLAS's two modes."""
    if case.dtype == "bf16":
        turns = Turns(x.copies)

        def launch() -> None:
            j = turns.take()
            torch.matmul(x.a[j], x.b[j], out=x.d_cublas[j])

        return [Contender("cublas", launch=launch, output=lambda: x.d_cublas[0], begin=turns.reset)]
    one = torch.ones((), device="cuda", dtype=torch.float32)
    out: list[Contender] = []
    for name, fast in (("cublas", False), ("cublas-fast", True)):
        turns = Turns(x.copies)
        first: dict[str, Any] = {}  # the output of set 0, for the checks

        def launch(fast: bool = fast, turns: Turns = turns, first: dict[str, Any] = first) -> None:
            j = turns.take()
            d = torch._scaled_mm(x.a[j], x.b[j], scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=fast)
            if j == 0:
                first["d"] = d

        out.append(Contender(name, launch=launch, output=lambda first=first: first.get("d"), begin=turns.reset))
    return out


@dataclass
class Mosaic:
    """JAX and Mosaic GPU's Hopper matmul, loaded once; `why` says why not where it failed."""

    jax: Any = None
    matmul: Callable[[Any, Any], Any] | None = None
    why: str | None = None
    version: str | None = None


def load_mosaic() -> Mosaic:
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # or JAX takes most of the memory
    try:
        import jax
        from jax.experimental.pallas.ops.gpu import hopper_matmul_mgpu as hm
    except Exception as err:  # noqa: BLE001
        return Mosaic(why=f"JAX Mosaic GPU not importable: {reason(err)}")
    try:
        jax.devices("gpu")
        dims = hm.MatmulDimension
        conf = dict(MOSAIC_CONFIG, grid_minor_dim=getattr(dims, MOSAIC_CONFIG["grid_minor_dim"]),
                    wg_dimension=getattr(dims, MOSAIC_CONFIG["wg_dimension"]))
        config = hm.TuningConfig(**conf)
        takes_c = "c" in inspect.signature(hm.matmul).parameters  # JAX >= 0.10: matmul(a, b, c, config)
        if takes_c:
            fn = jax.jit(lambda a, b: hm.matmul(a, b, None, config=config))
        else:
            fn = jax.jit(lambda a, b: hm.matmul(a, b, config=config))
    except Exception as err:  # noqa: BLE001
        return Mosaic(why=f"JAX Mosaic GPU unusable: {reason(err)}")
    return Mosaic(jax, fn, None, getattr(jax, "__version__", None))


def mosaic_contender(torch: Any, mosaic: Mosaic, case: Case, x: Arrays) -> Contender:
    """Mosaic GPU on the case's own A and B (imported zero-copy; the pointers checked) where
    it takes the case. Set 0 is imported again at each sample's start, after the start
    event, so that JAX's stream (which runs its kernels in order) waits for that point of
    the torch stream; the other sets are imported once."""
    if mosaic.why:
        return Contender("mosaic", skipped=mosaic.why)
    if case.mosaic_skip:
        return Contender("mosaic", skipped=case.mosaic_skip)
    jax, fn = mosaic.jax, mosaic.matmul
    assert fn is not None
    try:
        imported = [(jax.dlpack.from_dlpack(a), jax.dlpack.from_dlpack(b)) for a, b in zip(x.a, x.b)]
        for (ja, jb), a, b in zip(imported, x.a, x.b):
            if ja.unsafe_buffer_pointer() != a.data_ptr() or jb.unsafe_buffer_pointer() != b.data_ptr():
                return Contender("mosaic", skipped="DLPack import copied the operands (not the same memory)")
    except Exception as err:  # noqa: BLE001
        return Contender("mosaic", skipped=f"DLPack import: {reason(err)}")
    turns = Turns(x.copies)
    state: dict[str, Any] = {}

    def begin() -> None:
        turns.reset()
        imported[0] = (jax.dlpack.from_dlpack(x.a[0]), jax.dlpack.from_dlpack(x.b[0]))

    def launch() -> None:
        j = turns.take()
        state["last"] = fn(*imported[j])
        if j == 0:
            state["first"] = state["last"]

    def end() -> None:
        torch.from_dlpack(state["last"])  # JAX makes the torch stream wait for the last output

    def output() -> Any:
        return torch.from_dlpack(state["first"]) if "first" in state else None

    return Contender("mosaic", launch=launch, output=output, begin=begin, end=end)


# --- checks -------------------------------------------------------------------------------

def check(torch: Any, contenders: list[Contender]) -> dict[str, dict[str, Any]]:
    """Each output's max |d - d_cublas| / max |d_cublas| and whether it holds NaN or Inf."""
    torch.cuda.synchronize()
    by = {c.name: c for c in contenders}
    ref_c = by.get("cublas")
    ref = ref_c.output() if ref_c is not None and not ref_c.skipped else None
    ref32 = ref.float() if ref is not None else None
    scale = ref32.abs().max().item() if ref32 is not None else None
    out: dict[str, dict[str, Any]] = {}
    for c in contenders:
        if c.skipped:
            continue
        d = c.output()
        if d is None:
            out[c.name] = {"nan": None}
            continue
        d32 = d.float()
        entry: dict[str, Any] = {"nan": not bool(torch.isfinite(d32).all().item())}
        if ref32 is not None and c is not ref_c and scale:
            entry["max_rel_err"] = (d32 - ref32).abs().max().item() / scale
        out[c.name] = entry
        del d32
    return out


def fp8_error(torch: Any, m: int = 2048, n: int = 3072, k: int = 4096, rows: int = 256, seed: int = 7) -> dict[str, Any]:
    """Each fp8 kernel's error (lower-tc's two accumulations, cuBLAS's two modes) relative
    to sum_k |a_ik| |b_kj| on `rows` sampled rows of an
    M x N x K e4m3 GEMM (issue 22 measured 7.4e-4 for lower-tc, 5.0e-4 for cuBLAS fast
    accumulation, 2.0e-5 for cuBLAS's default at 2048 x 3072 x 4096), against float64; with D
    in bf16 (the suite's) and in f32 (the accumulation alone), and the floor that rounding
    the exact result to D's type gives."""
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=gen).to(torch.float8_e4m3fn)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16, generator=gen).to(torch.float8_e4m3fn)
    idx = torch.randperm(m, device="cuda", generator=gen)[:rows].sort().values
    a64, w64 = a.double()[idx], w.double()  # convert first: fp8 tensors take no index
    ref = a64 @ w64.t()
    den = (a64.abs() @ w64.abs().t()).clamp_min(1e-300)
    one = torch.ones((), device="cuda", dtype=torch.float32)
    kernels: list[dict[str, Any]] = []
    for d_name, d_type in (("bf16", torch.bfloat16), ("f32", torch.float32)):
        def err(d: Any) -> tuple[float, float]:
            e = (d[idx].double() - ref).abs() / den
            return e.max().item(), e.mean().item()

        runs: list[tuple[str, Callable[[], Any]]] = [
            ("lower-tc", lambda d_type=d_type: _lower_tc_out(torch, a, w.t(), d_type)),
            ("lower-tc-promoted", lambda d_type=d_type: _lower_tc_out(torch, a, w.t(), d_type, accumulation="promoted")),
            ("cublas", lambda d_type=d_type: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=d_type, use_fast_accum=False)),
            ("cublas-fast", lambda d_type=d_type: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=d_type, use_fast_accum=True)),
        ]
        for name, run in runs:
            try:
                d = run()
                torch.cuda.synchronize()
                mx, mean = err(d)
                kernels.append({"kernel": name, "d": d_name, "max": mx, "mean": mean})
            except Exception as e:  # noqa: BLE001
                torch.cuda.synchronize()
                kernels.append({"kernel": name, "d": d_name, "skipped": reason(e)})
        floor = (ref.to(d_type).double() - ref).abs() / den
        kernels.append({"kernel": f"exact, rounded to {d_name}", "d": d_name, "max": floor.max().item(), "mean": floor.mean().item()})
    return {"shape": f"{m}x{n}x{k} e4m3, B as nn.Linear weight", "m": m, "n": n, "k": k, "rows": rows,
            "d_types": ["bf16", "f32"], "kernels": kernels}


def _lower_tc_out(torch: Any, a: Any, b: Any, d_type: Any, **options: Any) -> Any:
    import lower_tc

    d = torch.full((a.shape[0], b.shape[1]), float("nan"), device="cuda", dtype=d_type)
    lower_tc.matmul(a, b, out=d, **options)
    return d


__all__ = [
    "Arrays", "Contender", "Gpu", "Turns", "MOSAIC_CONFIG", "Mosaic", "arrays", "check", "cublas_contenders", "cupti_ms",
    "fp8_error", "load_mosaic", "lower_tc_contender", "measure", "mosaic_contender", "reason",
]
