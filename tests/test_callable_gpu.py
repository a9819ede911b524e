"""On an sm_90a GPU: `lower_tc.compile` and the Kernel it gives, called on PyTorch, CuPy and
JAX arrays. Every operand type and transpose tc.matmul takes on sm_90a (docs/gemm.md),
ragged and dynamic sizes, a non-default stream, CUDA-graph capture and replay, and each
bad input refused before anything is launched. Results are compared with float64 (torch
.matmul on the CPU) under the runner's tolerances (lowering/runtime/checks.py, plus the
rounding of a bf16/f16 D), on outputs filled with NaN (or a poison integer) before each
launch, so a tile the kernel never wrote fails. Each test skips, with the reason, without
an sm_90a GPU or the framework it uses.

Run on the GPU machine: python -m pytest -m gpu tests/test_callable_gpu.py -v
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache

import pytest

import lower_tc
from conftest import ROOT
from lower_tc.lowering.runtime.checks import tolerance
from lower_tc.lowering.runtime.gemm_check import OUTPUT_ROUNDING

pytestmark = pytest.mark.gpu

#: MLIR element type of each lower-tc type.
ELEMENT = {"f16": "f16", "bf16": "bf16", "tf32": "tf32", "e4m3": "f8E4M3FN", "e5m2": "f8E5M2",
           "s8": "si8", "u8": "ui8", "f32": "f32", "s32": "i32"}
#: Ragged sizes: no multiple of the 128 x 128/256 tiles, each row a multiple of 16 bytes.
M, N, K = 200, 136, 112
POISON_S32 = 0x5A5A5A5A


@pytest.fixture(autouse=True)
def gpu(require_gpu) -> None:
    require_gpu("sm_90a")


def matmul_source(a: str, b: str, acc: str, d: str, a_row: bool, b_row: bool, *, dynamic: bool = False,
                  with_c: bool = False, m: int = M, n: int = N, k: int = K, name: str = "gemm") -> str:
    """A tc.matmul kernel: D (m x n, row-major) = A (m x k) x B (k x n) (+ C), each of A
    and B row- or column-major, with static sizes or sizes known at launch."""
    def mat(rows: int, cols: int, dtype: str, row: bool) -> str:
        e = ELEMENT[dtype]
        if dynamic:
            return f"memref<?x?x{e}, strided<[?, 1]>>" if row else f"memref<?x?x{e}, strided<[1, ?]>>"
        return f"memref<{rows}x{cols}x{e}>" if row else f"memref<{rows}x{cols}x{e}, strided<[1, {rows}]>>"

    ta, tb, td = mat(m, k, a, a_row), mat(k, n, b, b_row), mat(m, n, d, True)
    args = f"%A: {ta}, %B: {tb}, %D: {td}" + (f", %C: {td}" if with_c else "")
    types = f"{ta}, {tb}, {td}" + (f", {td}" if with_c else "")
    plus = " plus %C" if with_c else ""
    return (
        f'func.func @{name}({args}) attributes {{tc.target = "sm_90a"}} {{\n'
        f"  tc.matmul %A, %B to %D{plus} acc {acc} : {types}\n  func.return\n}}\n"
    )


@cache
def kernel(a: str, b: str, acc: str, d: str, a_row: bool, b_row: bool, dynamic: bool = False, with_c: bool = False) -> lower_tc.Kernel:
    return lower_tc.compile(matmul_source(a, b, acc, d, a_row, b_row, dynamic=dynamic, with_c=with_c))


# -- torch arrays -------------------------------------------------------------------------------


def torch_dtype(torch, dtype: str):
    return {"bf16": torch.bfloat16, "f16": torch.float16, "tf32": torch.float32, "f32": torch.float32,
            "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "s8": torch.int8, "u8": torch.uint8,
            "s32": torch.int32}[dtype]


def operand(torch, rows: int, cols: int, dtype: str, row: bool, seed: int, pad: int = 0, *,
            batch: int | None = None, gap: int = 0):
    """A rows x cols matrix of fresh values on the GPU, row- or column-major (a column-major
    one is the transpose of a contiguous cols x rows tensor); `pad` extra elements per row
    (column) give a leading dimension beyond the contiguous extent. With `batch`, a batch
    of such matrices (batch first), `gap` extra rows (columns) between them."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    outer, inner = (rows, cols) if row else (cols, rows)
    shape = (*(() if batch is None else (batch,)), outer + gap, inner + pad)
    if dtype in ("s8", "u8"):
        low, high = (-128, 128) if dtype == "s8" else (0, 256)
        x = torch.randint(low, high, shape, generator=g, device="cuda", dtype=torch.int32)
    else:
        x = torch.rand(shape, generator=g, device="cuda") * 2 - 1
        if dtype in ("e4m3", "e5m2"):
            x = x * 4
        if dtype == "tf32":  # exactly representable: 10 mantissa bits, as the runner draws them
            x = (x.view(torch.int32) & ~0x1FFF).view(torch.float32)
    x = x.to(torch_dtype(torch, dtype))[..., :outer, :inner]
    return x if row else x.transpose(-1, -2)


def poisoned(torch, shape: tuple[int, ...], dtype: str):
    """A tensor of `shape` filled with NaN, or with a poison integer for s32: an element
    the kernel never writes shows."""
    if dtype == "s32":
        return torch.full(shape, POISON_S32, dtype=torch.int32, device="cuda")
    return torch.full(shape, float("nan"), dtype=torch_dtype(torch, dtype), device="cuda")


def check(torch, d, a, b, operand_dtype: str, acc: str, d_dtype: str, c=None) -> None:
    """D against float64 torch.matmul: the error relative to |A|.|B| (+|C|) within the
    runner's tolerance for these types, and every element written."""
    torch.cuda.synchronize()
    a64, b64 = a.cpu().to(torch.float64), b.cpu().to(torch.float64)
    want = a64 @ b64
    scale = a64.abs() @ b64.abs()
    if c is not None:
        want, scale = want + c.cpu().to(torch.float64), scale + c.cpu().to(torch.float64).abs()
    got = d.cpu()
    if d_dtype == "s32":
        assert not (got == POISON_S32).any(), "an element of D was never written"
    got = got.to(torch.float64)
    assert torch.isfinite(got).all(), f"{int((~torch.isfinite(got)).sum())} elements of D are NaN (never written?)"
    err = ((got - want).abs() / scale.clamp_min(1e-30)).max().item()
    tol = tolerance(operand_dtype, acc) + OUTPUT_ROUNDING[d_dtype]
    assert err <= tol, f"max error {err:.3g} over the tolerance {tol:.3g}"


#: (A, B, accumulator, D, A row-major, B row-major): every type wgmma takes and every
#: transpose it reads (16-bit types all four; the others A row-major, B column-major).
CASES = [
    *[("bf16", "bf16", "f32", "bf16", ar, br) for ar in (True, False) for br in (True, False)],
    *[("f16", "f16", "f32", "f32", ar, br) for ar in (True, False) for br in (True, False)],
    ("bf16", "bf16", "f32", "f32", True, False),
    ("f16", "f16", "f16", "f16", False, True),
    ("f16", "f16", "f32", "bf16", True, True),
    ("e4m3", "e4m3", "f32", "bf16", True, False),
    ("e5m2", "e4m3", "f32", "f32", True, False),
    ("e4m3", "e5m2", "f16", "f16", True, False),
    ("tf32", "tf32", "f32", "f32", True, False),
    ("tf32", "tf32", "f32", "bf16", True, False),
    ("s8", "s8", "s32", "s32", True, False),
    ("u8", "s8", "s32", "s32", True, False),
    ("u8", "u8", "s32", "s32", True, False),
]


def _id(case) -> str:
    a, b, acc, d, ar, br = case
    return f"{a}x{b}-{acc}-{d}-{'r' if ar else 'c'}{'r' if br else 'c'}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_type_and_transpose_on_torch_tensors(torch, case) -> None:
    a_t, b_t, acc, d_t, a_row, b_row = case
    k = kernel(*case)
    a, b = operand(torch, M, K, a_t, a_row, 1), operand(torch, K, N, b_t, b_row, 2)
    d = poisoned(torch, (M, N), d_t)
    k(a, b, d)
    check(torch, d, a, b, a_t, acc, d_t)


@pytest.mark.parametrize("case", [CASES[0], CASES[3], ("e4m3", "e4m3", "f32", "bf16", True, False)], ids=_id)
def test_sizes_known_at_launch_are_taken_from_the_tensors(torch, case) -> None:
    """One dynamic kernel, called at several ragged sizes, with a padded leading dimension."""
    a_t, b_t, acc, d_t, a_row, b_row = case
    k = kernel(*case, dynamic=True)
    for (m, n, kk), pad in (((M, N, K), 0), ((1000, 904, 1008), 16), ((64, 16, 32), 0), ((M, N, K), 0)):
        a, b = operand(torch, m, kk, a_t, a_row, m, pad=pad), operand(torch, kk, n, b_t, b_row, n)
        d = poisoned(torch, (m, n), d_t)
        k(a, b, d)
        check(torch, d, a, b, a_t, acc, d_t)
    assert k.cache_info()["sizes"][1] == 3  # (M, N, K) resolved once, then found


def test_c_is_added(torch) -> None:
    k = kernel("bf16", "bf16", "f32", "f32", True, True, with_c=True)
    a, b = operand(torch, M, K, "bf16", True, 1), operand(torch, K, N, "bf16", True, 2)
    c = torch.randn(M, N, device="cuda")
    d = poisoned(torch, (M, N), "f32")
    k(a, b, d, c)
    check(torch, d, a, b, "bf16", "f32", "f32", c=c)


def _slow(torch, stream) -> None:
    """Holds `stream` busy for tens of milliseconds."""
    with torch.cuda.stream(stream):
        torch.cuda._sleep(200_000_000)


def test_a_non_default_stream_given_or_current(torch) -> None:
    """The kernel runs on the stream given (or the current one): queued behind a long
    sleep there, D is still unwritten when the default stream looks, and right after."""
    k = kernel(*CASES[0])
    a, b = operand(torch, M, K, "bf16", True, 1), operand(torch, K, N, "bf16", True, 2)
    # load the check's own kernels and the kernel's module first: CUDA loads a kernel
    # lazily at its first launch, and that load synchronises the context (it would wait
    # for the sleep below; measured on the H200, 2026-11-29: the first call blocked 102 ms)
    assert torch.isnan(poisoned(torch, (M, N), "bf16").float()).all().item()
    k(a, b, poisoned(torch, (M, N), "bf16"))
    torch.cuda.synchronize()
    for how in ("given", "current"):
        s = torch.cuda.Stream()
        d = poisoned(torch, (M, N), "bf16")
        torch.cuda.synchronize()
        _slow(torch, s)
        if how == "given":
            k(a, b, d, stream=s)
        else:
            with torch.cuda.stream(s):
                k(a, b, d)
        assert torch.isnan(d.float()).all().item(), f"the kernel did not wait behind the {how} stream's work"
        s.synchronize()
        check(torch, d, a, b, "bf16", "f32", "bf16")
    s = torch.cuda.Stream()
    d = poisoned(torch, (M, N), "bf16")
    torch.cuda.synchronize()
    _slow(torch, s)
    k(a, b, d, stream=s.cuda_stream)  # a raw handle
    assert torch.isnan(d.float()).all().item()
    s.synchronize()
    check(torch, d, a, b, "bf16", "f32", "bf16")


def test_a_call_is_captured_in_a_cuda_graph_and_replayed(torch) -> None:
    k = kernel(*CASES[0])
    a, b = operand(torch, M, K, "bf16", True, 1), operand(torch, K, N, "bf16", True, 2)
    d = poisoned(torch, (M, N), "bf16")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture: loads the module
        k(a, b, d)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        k(a, b, d)
    for seed in (5, 6):
        a.copy_(operand(torch, M, K, "bf16", True, seed))
        d.fill_(float("nan"))
        graph.replay()
        check(torch, d, a, b, "bf16", "f32", "bf16")


def test_each_bad_input_is_refused_before_launching(torch) -> None:
    k = kernel(*CASES[0])  # bf16 A (row) x B (row) -> bf16 D
    a, b = operand(torch, M, K, "bf16", True, 1), operand(torch, K, N, "bf16", True, 2)
    d = poisoned(torch, (M, N), "bf16")
    unaligned = torch.empty(M * K + 8, dtype=torch.bfloat16, device="cuda")[1 : 1 + M * K].view(M, K)
    shared = operand(torch, M, K + N, "bf16", True, 3)  # A and D side by side in one matrix
    bad = {
        "cpu": ((a.cpu(), b, d), lower_tc.ArgumentError, "A", "CPU memory"),
        "dtype": ((a.half(), b, d), lower_tc.ArgumentError, "A", "takes bf16 elements, not f16"),
        "shape": ((a[:, :64], b, d), lower_tc.ArgumentError, "A", f"takes {M}x{K}, not {M}x64"),
        "strides": ((a, b.t().contiguous().t(), d), lower_tc.ArgumentError, "B", "row-major"),
        "alignment": ((unaligned, b, d), lower_tc.ArgumentError, "A", "not a multiple of 16 bytes"),
        "count": ((a, b), lower_tc.ArgumentCountError, None, "takes 3 arrays"),
    }
    for what, (arrays, error, argument, text) in bad.items():
        with pytest.raises(error, match=text) as err:
            k(*arrays)
        assert getattr(err.value, "argument", None) == argument, what
    dynamic = kernel(*CASES[0], dynamic=True)
    with pytest.raises(lower_tc.ArgumentError, match="argument D is an output, and its memory .* overlaps argument A's") as err:
        dynamic(shared[:, :K], b, shared[:, K:])
    with pytest.raises(lower_tc.ArgumentError, match="overlaps"):
        dynamic(a, b, a[:, :N])
    torch.cuda.synchronize()
    assert torch.isnan(d.float()).all().item()  # nothing launched
    if torch.cuda.device_count() > 1:
        with pytest.raises(lower_tc.DeviceError, match="on two devices"):
            k(a, b.to("cuda:1"), d)


def test_a_kernel_for_another_gpu_is_refused(torch) -> None:
    k = lower_tc.compile(ROOT / "examples" / "gemm_tcgen05_bf16.mlir")
    assert k.target == "sm_100a"
    arrays = []
    for arg in k.args:
        rows, cols = arg.shape
        t = torch.zeros(rows, cols, dtype=torch_dtype(torch, arg.dtype), device="cuda")
        arrays.append(t if arg.strides[1] == 1 else torch.zeros(cols, rows, dtype=t.dtype, device="cuda").t())
    with pytest.raises(lower_tc.DeviceError, match=r"is for sm_100a \(compute capability 10.0\); GPU 0 .* is 9.0"):
        k(*arrays)


# -- CuPy ----------------------------------------------------------------------------------------


def test_cupy_arrays_bf16_by_reinterpret_and_cupys_current_stream() -> None:
    cp = pytest.importorskip("cupy")
    torch = pytest.importorskip("torch")
    import ml_dtypes
    import numpy as np

    rng = np.random.default_rng(0)
    a16 = rng.uniform(-1, 1, (M, K)).astype(ml_dtypes.bfloat16)
    b16 = rng.uniform(-1, 1, (N, K)).astype(ml_dtypes.bfloat16)  # B column-major: N x K, transposed
    a = cp.asarray(a16.view(np.uint16))
    b = cp.asarray(b16.view(np.uint16)).T
    d = cp.full((M, N), cp.nan, dtype=cp.float32)
    cp.cuda.Device().synchronize()  # the arrays were made on the null stream; the kernel runs on another
    k = kernel("bf16", "bf16", "f32", "f32", True, False)
    with pytest.raises(lower_tc.ArgumentError, match="reinterpret"):
        k(a, b, d)  # uint16 is never taken as bf16 unasked
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        k(lower_tc.reinterpret(a, "bf16"), lower_tc.reinterpret(b, "bf16"), d)
    stream.synchronize()
    got = torch.from_numpy(cp.asnumpy(d))
    check(torch, got, torch.from_numpy(a16.astype(np.float32)), torch.from_numpy(b16.astype(np.float32)).t(), "bf16", "f32", "f32")
    # f16 and s8 as CuPy has them, on a stream given
    a = cp.asarray(rng.uniform(-1, 1, (M, K)), dtype=cp.float16)
    b = cp.asarray(rng.uniform(-1, 1, (K, N)), dtype=cp.float16)
    d = cp.full((M, N), cp.nan, dtype=cp.float32)
    cp.cuda.Device().synchronize()
    kernel("f16", "f16", "f32", "f32", True, True)(a, b, d, stream=stream)
    stream.synchronize()
    check(torch, torch.from_numpy(cp.asnumpy(d)), torch.from_numpy(cp.asnumpy(a)), torch.from_numpy(cp.asnumpy(b)), "f16", "f32", "f32")
    a8 = cp.asarray(rng.integers(-128, 128, (M, K)), dtype=cp.int8)
    b8 = cp.asarray(rng.integers(-128, 128, (N, K)), dtype=cp.int8).T
    d32 = cp.full((M, N), POISON_S32, dtype=cp.int32)
    kernel("s8", "s8", "s32", "s32", True, False)(a8, b8, d32)
    cp.cuda.Device().synchronize()
    check(torch, torch.from_numpy(cp.asnumpy(d32)), torch.from_numpy(cp.asnumpy(a8)), torch.from_numpy(cp.asnumpy(b8)), "s8", "s32", "s32")


# -- JAX -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def jax():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave the GPU's memory to torch
    jax = pytest.importorskip("jax")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX sees no GPU")
    return jax


def test_jax_arrays_as_inputs_with_a_torch_output(jax, torch) -> None:
    import jax.numpy as jnp

    ka, kb = jax.random.split(jax.random.PRNGKey(0))
    a = jax.random.uniform(ka, (M, K), jnp.float32, -1, 1).astype(jnp.bfloat16)
    b = jax.random.uniform(kb, (K, N), jnp.float32, -1, 1).astype(jnp.bfloat16)
    d = poisoned(torch, (M, N), "f32")
    k = kernel("bf16", "bf16", "f32", "f32", True, True)
    k(a, b, d)
    check(torch, d, torch.from_dlpack(a), torch.from_dlpack(b), "bf16", "f32", "f32")
    out = jax.dlpack.from_dlpack(d)  # D as a JAX array, without a copy (do not write d again)
    assert out.shape == (M, N) and bool(jnp.isfinite(out).all())
    with pytest.raises(lower_tc.ArgumentError, match="argument D is an output, and the array is read-only"):
        k(a, b, jnp.zeros((M, N), jnp.float32))

    @jax.jit
    def inside(x, y):
        k(x, y, d)
        return x

    with pytest.raises(lower_tc.ArgumentError, match="JAX tracer"):
        inside(a, b)


# -- the examples --------------------------------------------------------------------------------


@pytest.mark.parametrize("example, framework", [("torch_gemm.py", "torch"), ("cupy_gemm.py", "cupy")])
def test_the_examples_run(example: str, framework: str) -> None:
    pytest.importorskip(framework)
    done = subprocess.run([sys.executable, str(ROOT / "examples" / example)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "max error" in done.stdout


# -- lower_tc.matmul ------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_matmul_every_type_and_transpose(torch, case, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path))
    a_t, b_t, acc, d_t, a_row, b_row = case
    a, b = operand(torch, M, K, a_t, a_row, 3), operand(torch, K, N, b_t, b_row, 4)
    d = poisoned(torch, (M, N), d_t)
    assert lower_tc.matmul(a, b, d, acc=acc) is d
    check(torch, d, a, b, a_t, acc, d_t)


def test_matmul_allocates_d_adds_c_and_runs_dynamic_sizes(torch, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path))
    a, b = operand(torch, 1000, 520, "bf16", True, 5), operand(torch, 520, 264, "bf16", False, 6)
    d = lower_tc.matmul(a, b)
    assert d.dtype == torch.bfloat16 and d.shape == (1000, 264) and d.device == a.device
    check(torch, d, a, b, "bf16", "f32", "bf16")
    c = operand(torch, 1000, 264, "f32", True, 7)
    d = lower_tc.matmul(a, b, poisoned(torch, (1000, 264), "f32"), c)
    check(torch, d, a, b, "bf16", "f32", "f32", c=c)
    for m in (64, 300, 1000):  # one kernel for every shape
        am = a[:m]
        d = lower_tc.matmul(am, b, poisoned(torch, (m, 264), "bf16"), dynamic=True)
        check(torch, d, am, b, "bf16", "f32", "bf16")


def test_matmul_refuses_bad_tensors_by_name(torch) -> None:
    a, b = operand(torch, 128, 64, "f16", True, 8), operand(torch, 64, 128, "f16", True, 9)
    with pytest.raises(lower_tc.ArgumentError) as err:
        lower_tc.matmul(a.cpu(), b)
    assert err.value.argument == "a"
    with pytest.raises(lower_tc.ArgumentError) as err:
        lower_tc.matmul(a, operand(torch, 64, 128, "bf16", True, 9))
    assert err.value.argument == "b"
    with pytest.raises(lower_tc.ArgumentError) as err:  # neither row- nor column-major
        lower_tc.matmul(a, b, torch.empty(128, 256, device="cuda", dtype=torch.float32)[:, ::2])
    assert err.value.argument == "out"
    with pytest.raises(lower_tc.ArgumentError, match="dynamic=False") as err:  # column-major: static sizes only
        lower_tc.matmul(a, b, torch.empty(128, 128, device="cuda", dtype=torch.float32).t(), dynamic=True)
    assert err.value.argument == "out"


def test_matmul_on_cupy_arrays(tmp_path, monkeypatch) -> None:
    cupy = pytest.importorskip("cupy")
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path))
    rng = cupy.random.default_rng(11)
    a = (rng.random((200, 112), dtype=cupy.float32) * 2 - 1).astype(cupy.float16)
    b = (rng.random((112, 136), dtype=cupy.float32) * 2 - 1).astype(cupy.float16)
    d = lower_tc.matmul(a, b)
    assert isinstance(d, cupy.ndarray) and d.dtype == cupy.float16
    check(torch, torch.as_tensor(d, device="cuda"), torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda"), "f16", "f32", "f16")


@pytest.mark.parametrize("options", [{}, {"split_k": 2, "reduce": "global"}, {"split_k": 2, "reduce": "cluster"}],
                         ids=["default", "split_global", "split_cluster"])
def test_dependent_launches_read_the_kernel_before(torch, options) -> None:
    """Every whole GEMM is launched to overlap the end of the one before it in the stream
    (programmatic dependent launch) and waits (griddepcontrol.wait) before it touches
    memory: a chain of 12 GEMMs, each reading the last one's D as its A (and the split
    ones reusing one workspace), with no synchronisation between them, gives the product
    computed one step at a time."""
    gen = torch.Generator(device="cuda").manual_seed(31)
    m, k = 256, 512
    b = (torch.randn(k, k, device="cuda", generator=gen) / k**0.5).to(torch.bfloat16)
    x = torch.randn(m, k, device="cuda", generator=gen).to(torch.bfloat16)
    steps = [x]
    for _ in range(12):
        steps.append(lower_tc.matmul(steps[-1], b, **options))
    torch.cuda.synchronize()
    for before, after in zip(steps, steps[1:]):  # each step against its own input, as read after the chain
        want = before.double().cpu() @ b.double().cpu()
        assert float((after.double().cpu() - want).abs().max()) <= 0.05 * float(want.abs().max())
