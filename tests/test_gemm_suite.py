"""Issue 22's GEMM suite (bench/gemm_suite.py) on the CPU: the shapes cover what the issue
asks for, the report's arithmetic on made-up timings, the timing loop's bookkeeping on a
fake GPU, and the command line's --list, --from-json and (with ptxas) --dry-run."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from contextlib import nullcontext
from pathlib import Path
from types import SimpleNamespace

import pytest

from lower_tc.lowering.backend.ptxas import find_tool

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import gemm_suite  # noqa: E402
import gemm_suite_gpu as gpu  # noqa: E402
import gemm_suite_report as report  # noqa: E402
from gemm_suite_shapes import (  # noqa: E402
    CATEGORIES, MAX_COPIES, ROTATE_BYTES, SUITE, Case, Shape, cases, padded_ld, select,
)

WIDTHS = (2048, 4096, 5120, 7168, 8192, 11008, 14336, 28672)


def _pow2(x: int) -> bool:
    return x & (x - 1) == 0


# --- the suite ----------------------------------------------------------------------------

def test_suite_has_40_unique_shapes_in_every_category() -> None:
    assert len(SUITE) >= 40
    assert len({s.name for s in SUITE}) == len(SUITE)
    assert len({(s.m, s.n, s.k) for s in SUITE}) == len(SUITE)
    assert {s.category for s in SUITE} == set(CATEGORIES)


def test_llm_shapes_span_m_and_the_model_widths() -> None:
    llm = [s for s in SUITE if s.category in ("decode", "batch", "prefill")]
    assert min(s.m for s in llm) == 1 and max(s.m for s in llm) == 16384
    sizes = {s.n for s in llm} | {s.k for s in llm}
    assert set(WIDTHS) <= sizes, set(WIDTHS) - sizes
    assert all(s.m <= 64 for s in llm if s.category == "decode") and any(s.memory_bound for s in llm)


def test_squares_long_k_and_ragged() -> None:
    squares = [s.m for s in SUITE if s.category == "square"]
    assert all(s.m == s.n == s.k for s in SUITE if s.category == "square")
    assert min(squares) == 512 and max(squares) == 16384
    assert any(not _pow2(x) for x in squares) and any(_pow2(x) for x in squares)
    long_k = [s for s in SUITE if s.category == "long-k"]
    assert long_k and all(s.k >= 8 * max(s.m, s.n) for s in long_k)
    ragged = [s for s in SUITE if s.category == "ragged"]
    assert any(s.m % 64 for s in ragged) and any(s.n % 64 for s in ragged)
    assert any(x % 8 for s in ragged for x in (s.n, s.k))  # some need padded leading dimensions


def test_cases_leave_out_fp8_with_b_row_major() -> None:
    every = cases(list(SUITE))
    assert len(every) == 3 * len(SUITE)
    assert not [c for c in every if c.dtype == "e4m3" and c.layout == "rowmajor"]
    assert [c.dtype for c in every][0] == "bf16" and [c.dtype for c in every][-1] == "e4m3"
    with pytest.raises(ValueError, match="unknown dtype fp8"):
        cases(list(SUITE), ["fp8"])


def test_select_by_substring_exact_name_and_category() -> None:
    assert [s.name for s in select(SUITE, ["=square 8192^3"])] == ["square 8192^3"]
    assert len(select(SUITE, ["M=1"])) > 1  # M=1, M=16, M=128, ...
    assert {s.category for s in select(SUITE, None, ["square,long-k"])} == {"square", "long-k"}
    with pytest.raises(ValueError, match="unknown category"):
        select(SUITE, None, ["huge"])


def test_operands_pad_leading_dimensions_to_16_bytes() -> None:
    s = Shape("t", "ragged", 5, 2049, 2049)
    lin, row, fp8 = Case(s, "bf16", "linear"), Case(s, "bf16", "rowmajor"), Case(s, "e4m3", "linear")
    assert padded_ld(2049, 2) == 2056 and padded_ld(2049, 1) == 2064 and padded_ld(4096, 2) == 4096
    assert lin.operands() == {"a": ((5, 2049), (2056, 1), 5), "b": ((2049, 2049), (1, 2056), 2049),
                              "out": ((5, 2049), (2049, 1), 5)}
    assert row.operands()["b"] == ((2049, 2049), (2056, 1), 2049)
    assert fp8.operands()["a"] == ((5, 2049), (2064, 1), 5)
    assert lin.padded and not Case(Shape("u", "square", 512, 512, 512), "bf16", "linear").padded
    assert fp8.min_bytes == 5 * 2049 + 2049 * 2049 + 5 * 2049 * 2


def test_small_cases_rotate_through_copies_beyond_l2() -> None:
    small, big = Case(Shape("s", "square", 512, 512, 512), "bf16", "rowmajor"), Case(SUITE[-1], "bf16", "linear")
    assert small.copies == MAX_COPIES and big.copies == 1
    mid = Case(Shape("m", "decode", 16, 4096, 4096), "e4m3", "linear")  # 16.9 MB: 8 copies make >= 128 MiB
    assert mid.copies == math.ceil(ROTATE_BYTES / mid.min_bytes) == 8
    turns = gpu.Turns(3)
    assert [turns.take() for _ in range(5)] == [0, 1, 2, 0, 1]
    turns.reset()
    assert turns.take() == 0


def test_mosaic_takes_bf16_row_major_multiples_of_its_tiles() -> None:
    def case(m: int, n: int, k: int, dtype: str = "bf16", layout: str = "rowmajor") -> Case:
        return Case(Shape("t", "square", m, n, k), dtype, layout)

    assert case(8192, 8192, 8192).mosaic_skip is None
    assert "tiles" in case(8000, 8000, 8000).mosaic_skip
    assert "tiles" in case(128, 1536 + 128, 7168).mosaic_skip
    assert "bf16" in case(8192, 8192, 8192, "e4m3", "linear").mosaic_skip
    assert "row-major" in case(8192, 8192, 8192, "bf16", "linear").mosaic_skip


# --- the report's arithmetic ----------------------------------------------------------------

def record(shape: str, m: int, n: int, k: int, ms: dict[str, float | None], dtype: str = "bf16",
           layout: str = "rowmajor", **extra: dict) -> dict:
    results = {c: ({"ms": t} if t is not None else {"skipped": "why"}) for c, t in ms.items()}
    for c, more in extra.items():
        results.setdefault(c.replace("_", "-"), {}).update(more)
    return {"shape": shape, "category": "x", "m": m, "n": n, "k": k, "dtype": dtype, "layout": layout,
            "min_bytes": Case(Shape(shape, "x", m, n, k), dtype, layout).min_bytes, "results": results}


def test_rates_ratios_and_geomean() -> None:
    assert report.tflops(2 * 4096**3, 1.0) == pytest.approx(137.438953472)
    assert report.gbps(3.35e9, 1.0) == pytest.approx(3350.0)
    assert report.hbm_fraction(3.35e9, 1.0) == pytest.approx(1.0)
    assert report.hbm_fraction(1e9, None) is None
    assert report.geomean([1.0, 4.0]) == pytest.approx(2.0)
    assert report.geomean([0.5, 2.0, None]) == pytest.approx(1.0)
    assert report.geomean([]) is None
    r = record("s", 4096, 4096, 4096, {"lower-tc": 1.0, "cublas": 1.1})
    assert report.speed_ratio(r) == pytest.approx(1.1)  # cuBLAS took 10% longer: lower-tc at 110%
    assert report.speed_ratio(record("s", 1, 1, 1, {"lower-tc": None, "cublas": 1.0})) is None


def test_derive_fills_tflops_bandwidth_and_ratios() -> None:
    m, n, k = 16, 8192, 8192
    r = report.derive(record("dec", m, n, k, {"lower-tc": 0.05, "cublas": 0.04, "mosaic": None}))
    nbytes = m * k * 2 + k * n * 2 + m * n * 2
    lt = r["results"]["lower-tc"]
    assert lt["tflops"] == pytest.approx(round(2 * m * n * k / 0.05e-3 / 1e12, 1))
    assert lt["gbps"] == pytest.approx(round(nbytes / 0.05e-3 / 1e9, 1))
    assert lt["hbm_fraction"] == pytest.approx(round(nbytes / 0.05e-3 / 3.35e12, 4))
    assert r["ratios"] == {"lower-tc/cublas": 0.8, "lower-tc/mosaic": None}
    big = report.derive(record("big", 128, 128, 128, {"lower-tc": 1.0, "cublas": 1.0}))
    assert "gbps" not in big["results"]["lower-tc"]  # M > 64: not memory-bound


def test_summary_geomean_below_95_and_hbm() -> None:
    recs = [
        record("a", 4096, 4096, 4096, {"lower-tc": 1.0, "cublas": 1.2}),    # 120%
        record("b", 2048, 2048, 2048, {"lower-tc": 1.0, "cublas": 0.9}),    # 90%: below 95%
        record("c", 16, 8192, 8192, {"lower-tc": 0.1, "cublas": 0.1}),      # 100%, memory-bound
        record("d", 512, 512, 512, {"lower-tc": None, "cublas": 0.01}),     # not run
        record("square 8192^3", 8192, 8192, 8192, {"lower-tc": 1.0, "cublas": 1.0, "mosaic": 0.95},
               lower_tc={"nan": True}),
    ]
    s = report.summarize(recs)
    assert s["cublas"]["compared"] == 4
    assert s["cublas"]["geomean"] == pytest.approx(round((1.2 * 0.9 * 1.0 * 1.0) ** 0.25, 4))
    assert s["cublas"]["below_95"] == ["b"] and s["cublas"]["min_shape"] == "b"
    mb = s["memory_bound"]
    fraction = (16 * 8192 * 2 + 8192 * 8192 * 2 + 16 * 8192 * 2) / 0.1e-3 / 3.35e12
    assert mb["compared"] == 1 and mb["min_hbm_fraction"] == pytest.approx(round(fraction, 4))
    assert mb["below_85"] == (["c"] if fraction < 0.85 else [])
    assert s["mosaic"]["geomean"] == pytest.approx(0.95) and s["mosaic_targets"] == {"square 8192^3": 0.95}
    assert s["not_run"] == {"lower-tc: why": ["d"]}
    assert s["nan"] == ["square 8192^3 / lower-tc"]
    lines = "\n".join(report.summary_lines(s))
    assert "1 below 95%" in lines and ": b" in lines and "not run, 1 shape: lower-tc: why: d" in lines and "NaN" in lines


def test_markdown_has_a_table_per_dtype_and_layout() -> None:
    recs = [report.derive(record("a", 4096, 4096, 4096, {"lower-tc": 1.0, "cublas": 1.1}, "bf16", "linear")),
            report.derive(record("b", 16, 4096, 4096, {"lower-tc": 0.02, "cublas": 0.025, "cublas-fast": 0.02},
                                 "e4m3", "linear", lower_tc={"max_rel_err": 0.003}))]
    fp8 = {"shape": "2048x3072x4096 e4m3", "rows": 256, "d_types": ["bf16"],
           "kernels": [{"kernel": "lower-tc", "d": "bf16", "max": 7.4e-4, "mean": 1e-5},
                       {"kernel": "cublas", "d": "bf16", "skipped": "no"}]}
    text = report.markdown({"device": "H100", "date": "d", "commit": "c", "command": "x", "results": recs,
                            "fp8_error": [fp8]})
    assert "## bf16, B as nn.Linear weight (N x K)" in text and "## e4m3, B as nn.Linear weight (N x K)" in text
    assert "| a | 4096 | 4096 | 4096 |" in text and "110%" in text
    assert "cuBLAS fast-accum TFLOP/s" in text and "125%" in text and "100%" in text  # e4m3: of default, of fast
    assert "lower-tc 3.0e-03" in text and "7.4e-04" in text and "not run: no" in text
    # the memory-bound row's bandwidth
    nbytes = 16 * 4096 + 4096 * 4096 + 16 * 4096 * 2
    assert f"{nbytes / 0.02e-3 / 1e9:.0f} ({100 * nbytes / 0.02e-3 / 3.35e12:.0f}%)" in text


# --- the timing loop, on a fake GPU ---------------------------------------------------------

def fake_gpu() -> SimpleNamespace:
    cuda = SimpleNamespace(stream=lambda s: nullcontext(), synchronize=lambda: None)
    return SimpleNamespace(torch=SimpleNamespace(cuda=cuda), stream=None, cycles_per_ms=1.0)


def test_measure_interleaves_rotates_and_skips_a_failing_contender(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    per_launch = {"lower-tc": 0.010, "cublas": 0.008, "mosaic": 0.012}

    def fake_sample(g, c, n):
        calls.append((c.name, n))
        return per_launch[c.name], False, 0.1

    def boom() -> None:
        raise RuntimeError("no kernel for you\nsecond line")

    monkeypatch.setattr(gpu, "sample", fake_sample)
    cs = [gpu.Contender("lower-tc"), gpu.Contender("cublas"), gpu.Contender("mosaic"),
          gpu.Contender("broken", launch=boom), gpu.Contender("absent", skipped="not installed")]
    n = gpu.measure(fake_gpu(), cs, samples=4, warmup_rounds=1, sample_ms=2.0)
    assert n == math.ceil(2.0 / 0.008)  # the fastest contender's samples last >= 2 ms
    assert cs[3].skipped == "RuntimeError: no kernel for you" and cs[4].skipped == "not installed"
    assert [len(c.samples) for c in cs[:3]] == [4, 4, 4] and cs[0].samples == [0.010] * 4
    timed = [name for name, k in calls if k == n]
    rounds = [timed[i:i + 3] for i in range(0, len(timed), 3)]
    assert rounds[:3] == [["lower-tc", "cublas", "mosaic"], ["cublas", "mosaic", "lower-tc"],
                          ["mosaic", "lower-tc", "cublas"]]  # each round once each, the order rotating
    assert cs[0].head_ms >= 1.5 * 0.1


def test_a_late_sample_is_retried_with_a_longer_head_start(monkeypatch: pytest.MonkeyPatch) -> None:
    late = iter([True, True, False])
    monkeypatch.setattr(gpu, "sample", lambda g, c, n: (1.0, next(late), 0.2))
    c = gpu.Contender("x", head_ms=0.5)
    assert gpu.timed_sample(fake_gpu(), c, 1) == 1.0
    assert c.late == 0 and c.head_ms >= 1.2  # doubled twice from 1.5 x 0.2 + 0.05
    monkeypatch.setattr(gpu, "sample", lambda g, c, n: (2.0, True, 0.2))
    assert gpu.timed_sample(fake_gpu(), c, 1) == 2.0
    assert c.late == 1 and not c.retry_late and c.head_ms <= gpu.MAX_HEAD_MS


# --- the command line -----------------------------------------------------------------------

def test_list_runs_without_torch_jax_or_xdsl() -> None:
    code = ("import sys; sys.path.insert(0, 'bench'); import gemm_suite; rc = gemm_suite.main(['--list']); "
            "assert rc == 0; assert not {'torch', 'jax', 'xdsl'} & set(sys.modules), sorted(sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"{len(SUITE)} shapes of {len(SUITE)}, {3 * len(SUITE)} cases" in out.stdout
    assert "llama-3-70b qkv, M=16" in out.stdout and "not run: e4m3 with B rowmajor" in out.stdout


def test_list_script_and_filters(capsys: pytest.CaptureFixture[str]) -> None:
    out = subprocess.run([sys.executable, "bench/gemm_suite.py", "--list", "--category", "square", "--dtype", "e4m3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "13 shapes of 54, 13 cases" in out.stdout
    assert gemm_suite.main(["--list", "--layout", "sideways"]) == 2
    assert "unknown layout sideways" in capsys.readouterr().err


def test_from_json_merges_runs(tmp_path: Path) -> None:
    a = {"device": "H100", "date": "d1", "commit": "c1", "command": "one",
         "results": [record("square 512^3", 512, 512, 512, {"lower-tc": 0.01, "cublas": 0.011})]}
    b = {"device": "H100", "date": "d2", "commit": "c1", "command": "two",
         "results": [record("square 1024^3", 1024, 1024, 1024, {"lower-tc": 0.02, "cublas": 0.02}, "e4m3", "linear")]}
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(b))
    out, md = tmp_path / "all.json", tmp_path / "all.md"
    assert gemm_suite.main(["--from-json", str(tmp_path / "b.json"), str(tmp_path / "a.json"),
                            "--out", str(out), "--table", str(md)]) == 0
    merged = json.loads(out.read_text())
    assert [r["shape"] for r in merged["results"]] == ["square 512^3", "square 1024^3"]  # the suite's order
    assert [r["command"] for r in merged["runs"]] == ["two", "one"]
    assert merged["results"][0]["ratios"]["lower-tc/cublas"] == pytest.approx(1.1)
    text = md.read_text()
    assert "`two`" in text and "## bf16, B row-major (K x N)" in text and "## e4m3" in text


def test_run_without_a_gpu_says_so() -> None:
    try:
        import torch

        if torch.cuda.is_available():
            pytest.skip("a GPU is here")
    except ImportError:
        pass
    assert gemm_suite.main(["--shapes", "=square 512^3", "--quick"]) == 2


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[test]')")
def test_dry_run_compiles_a_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path))
    assert gemm_suite.main(["--dry-run", "--shapes", "=ragged 2049x2049x2049", "--dtype", "e4m3"]) == 0
    out = capsys.readouterr().out
    from lower_tc.layout.gemm_choice import choose

    c = choose(2049, 2049, 2049, "e4m3", "e4m3", "f32").config  # the default chooser's kernel
    assert f"e4m3 linear ragged 2049x2049x2049: {c.bm}x{c.bn}x{c.bk}, {c.stages} stages" in out and "0 failed" in out


# --- the whole run, on a fake torch (numpy) -------------------------------------------------

class FakeTensor:
    """Just what the suite calls on a torch tensor, over a numpy array (float32 stands in
    for every dtype): the bookkeeping of a run, not the GPU."""

    def __init__(self, x) -> None:
        self.x = x

    shape = property(lambda self: self.x.shape)

    def stride(self):
        return tuple(s // self.x.itemsize for s in self.x.strides)

    def __getitem__(self, key):
        return FakeTensor(self.x[key])

    def t(self):
        return FakeTensor(self.x.T)

    def clone(self):
        return FakeTensor(self.x.copy())

    def to(self, dtype):
        return self

    def float(self):
        return FakeTensor(self.x.astype("float32"))

    def abs(self):
        return FakeTensor(abs(self.x))

    def max(self):
        return FakeTensor(self.x.max())

    def all(self):
        return FakeTensor(self.x.all())

    def item(self):
        return self.x.item()

    def data_ptr(self):
        return self.x.ctypes.data

    def __sub__(self, other):
        return FakeTensor(self.x - other.x)


def fake_torch(launch_ms: float = 0.01):
    import numpy as np

    clock = [0.0]

    class Event:
        def __init__(self, enable_timing=False):
            self.t = 0.0

        def record(self, stream=None):
            self.t = clock[0]

        def query(self):
            return False

        def synchronize(self):
            pass

        def elapsed_time(self, end):
            return end.t - self.t

    products: dict = {}

    def product(a, b):  # computed once per pair of operands: launches only tick the clock
        key = (a.data_ptr(), b.data_ptr(), a.shape, b.shape)
        if key not in products:
            products[key] = a.x @ b.x
        return products[key]

    def matmul(a, b, out=None):
        clock[0] += launch_ms
        out.x[...] = product(a, b)
        return out

    def scaled_mm(a, b, scale_a, scale_b, out_dtype, use_fast_accum):
        clock[0] += launch_ms * (0.9 if use_fast_accum else 1.0)
        return FakeTensor(product(a, b))

    class Generator:
        def __init__(self, device=None):
            self.rng = np.random.default_rng(0)

        def manual_seed(self, seed):
            self.rng = np.random.default_rng(seed)

    cuda = SimpleNamespace(
        is_available=lambda: True, current_device=lambda: 0, Stream=lambda device: "stream",
        stream=lambda s: nullcontext(), _sleep=lambda cycles: None, Event=Event, synchronize=lambda: None,
        get_device_name=lambda: "Fake H100", empty_cache=lambda: None)
    return SimpleNamespace(
        __version__="0.fake", version=SimpleNamespace(cuda="13.0"), cuda=cuda, device=lambda kind, i: (kind, i),
        bfloat16="bf16", float8_e4m3fn="e4m3", float32="f32", Generator=Generator,
        randn=lambda r, c, device, dtype, generator: FakeTensor(generator.rng.standard_normal((r, c)).astype("float32")),
        full=lambda shape, v, device, dtype: FakeTensor(np.full(shape, v, dtype="float32")),
        empty=lambda shape, device, dtype: FakeTensor(np.empty(shape, dtype="float32")),
        ones=lambda shape, device, dtype: FakeTensor(np.ones(shape, dtype="float32")),
        isfinite=lambda t: FakeTensor(np.isfinite(t.x)), matmul=matmul, _scaled_mm=scaled_mm, clock=clock,
        product=product)


def test_a_run_writes_json_and_tables_on_a_fake_gpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    torch = fake_torch()
    monkeypatch.setitem(sys.modules, "torch", torch)

    def fake_lower_tc(x, promoted=False):  # 20% (promoted: 25%) slower than the fake cuBLAS, and right
        turns = gpu.Turns(x.copies)
        d = [t.clone() for t in x.d] if promoted else x.d

        def launch():
            j = turns.take()
            torch.clock[0] += 0.0125 if promoted else 0.012
            d[j].x[...] = torch.product(x.a[j], x.b[j])
            used.add(j)
        return gpu.Contender("lower-tc-promoted" if promoted else "lower-tc", launch=launch, output=lambda: d[0], begin=turns.reset)

    used: set[int] = set()

    monkeypatch.setattr(gpu, "lower_tc_contender", fake_lower_tc)
    monkeypatch.setattr(gemm_suite, "lower_tc_config", lambda case: ("64x128x64, 4 stages", "k"))
    out, md = tmp_path / "r.json", tmp_path / "r.md"
    argv = ["--shapes", "=llama-3-8b o_proj, M=16", "--shapes", "=ragged 2049x2049x2049", "--layout", "linear",
            "--no-mosaic", "--no-fp8-error", "--quick", "--sample-ms", "0.2", "--commit", "abc", "--out", str(out), "--table", str(md)]
    assert gemm_suite.main(argv) == 0
    data = json.loads(out.read_text())
    assert data["device"] == "Fake H100" and data["commit"] == "abc" and data["command"].startswith("python bench/gemm_suite.py")
    assert [(r["shape"], r["dtype"]) for r in data["results"]] == [
        ("llama-3-8b o_proj, M=16", "bf16"), ("ragged 2049x2049x2049", "bf16"),
        ("llama-3-8b o_proj, M=16", "e4m3"), ("ragged 2049x2049x2049", "e4m3")]
    first = data["results"][0]
    assert first["launches_per_sample"] in (20, 21) and first["lower_tc_config"] == "64x128x64, 4 stages"
    lt, cb = first["results"]["lower-tc"], first["results"]["cublas"]
    assert len(lt["samples_ms"]) == 5 and lt["ms"] == pytest.approx(0.012) and cb["ms"] == pytest.approx(0.01)
    assert lt["max_rel_err"] == pytest.approx(0.0, abs=1e-6) and lt["nan"] is False and "gbps" in lt
    assert first["ratios"]["lower-tc/cublas"] == pytest.approx(0.01 / 0.012, rel=1e-3)
    fp8 = data["results"][2]["results"]
    assert set(fp8) == {"lower-tc", "lower-tc-promoted", "cublas", "cublas-fast"} and fp8["cublas-fast"]["ms"] == pytest.approx(0.009)
    assert fp8["lower-tc-promoted"]["max_rel_err"] == pytest.approx(0.0, abs=1e-6)  # its own D, checked
    assert data["results"][2]["ratios"]["lower-tc-promoted/cublas"] == pytest.approx(0.01 / 0.0125, rel=1e-3)
    assert "lower-tc/lower-tc-promoted" not in data["results"][2]["ratios"]  # ours are not each other's peers
    assert data["results"][1]["padded"]
    assert first["copies"] == Case(SUITE[5], "bf16", "linear").copies > 1 and set(range(first["copies"])) <= used
    text = md.read_text()
    assert "## bf16, B as nn.Linear weight" in text and "## e4m3" in text and "83%" in text
    assert "2 below 95%" in text
    assert "- lower-tc promoted / cuBLAS: geometric mean 80% over 2 shapes" in text and "| promoted of cuBLAS |" in text
    printed = capsys.readouterr().out
    assert "[1/4] bf16 linear llama-3-8b o_proj, M=16" in printed and "lower-tc of cuBLAS 83%" in printed
    # --resume keeps what is there and runs nothing new
    assert gemm_suite.main(argv + ["--resume"]) == 0
    again = json.loads(out.read_text())
    assert len(again["results"]) == 4 and again["resumed_from"][0]["commit"] == "abc"
    assert "resuming: 4 cases" in capsys.readouterr().out
    # a spent budget starts no case and says which were left
    late = tmp_path / "late.json"
    assert gemm_suite.main(argv[:-4] + ["--budget-s", "0", "--out", str(late)]) == 0
    left = json.loads(late.read_text())
    assert left["results"] == [] and left["not_run_budget"][0] == "bf16 linear llama-3-8b o_proj, M=16"


def test_hbm_share_is_of_the_device_the_record_ran_on() -> None:
    assert report.hbm_peak("NVIDIA H200") == 4.8e12
    assert report.hbm_peak("NVIDIA H100 80GB HBM3") == 3.35e12
    assert report.hbm_peak(None) == report.HBM_PEAK  # the older records: all ran on the H100
    m, n, k = 16, 8192, 8192
    nbytes = m * k * 2 + k * n * 2 + m * n * 2
    h200 = dict(record("dec", m, n, k, {"lower-tc": 0.05, "cublas": 0.04}), hbm_peak=report.hbm_peak("NVIDIA H200"))
    assert report.derive(h200)["results"]["lower-tc"]["hbm_fraction"] == pytest.approx(round(nbytes / 0.05e-3 / 4.8e12, 4))
    s = report.summarize([h200])
    assert s["memory_bound"]["hbm_peak"] == 4.8e12
    assert "of 4.80 TB/s" in "\n".join(report.summary_lines(s))
    assert f"({round(100 * nbytes / 0.05e-3 / 4.8e12)}%)" in "\n".join(report.table([h200]))


def test_the_tuning_table_flags_a_wrong_candidate_by_its_inputs_tolerance() -> None:
    """bench/gemm_tune_suite.py's `wrong` column: NaN, or a difference from cuBLAS beyond
    what a right kernel shows for the inputs' type (fp8's fast accumulation differs from
    cuBLAS's promoting default by ~2e-2 at K = 28672; 16-bit inputs by far less)."""
    import gemm_tune_suite as tune

    def record(dtype: str, err: float, nan: bool = False) -> dict:
        return {"dtype": dtype, "layout": "linear", "shape": "s", "default": "d",
                "results": {"cublas": {"ms": 1.0}, "d": {"ms": 1.0, "max_rel_err": err, "nan": nan}}}

    def wrong(r: dict) -> str:
        return tune.table([r]).splitlines()[-1].split("|")[-2].strip()

    assert wrong(record("e4m3", 0.021)) == "" and wrong(record("e4m3", 0.06)) == "d"
    assert wrong(record("bf16", 0.021)) == "d" and wrong(record("bf16", 0.001)) == ""
    assert wrong(record("bf16", 0.0, nan=True)) == "d"


def test_the_hbm_ceiling_table_sets_each_gemm_beside_the_fastest_read() -> None:
    """bench/hbm_ceiling.py: a record of one run gives each read's GB/s as a share of the
    device's peak, names the fastest read's grid, and sets the GEMMs timed in the same run
    (their own bytes over their time) beside it; an older record, without the reads of
    its own kernels, still renders from `--suite` figures."""
    import hbm_ceiling as hbm

    meta = {"device": "NVIDIA H200", "date": "d", "commit": "c", "command": "x", "hbm_peak": 4.8e12}
    mb = 48_000_000
    run = {"shape": "dec", "dtype": "bf16", "bytes": mb, "copy_ms": 0.025, "read_ms": 0.02,
           "stream_ms": 0.0125, "stream_grid": "bulk 1x32K", "stream_bytes": mb, "gemm_bytes": mb,
           "gemms_ms": {"lower-tc": 0.0125 / 0.9, "cublas": 0.025}}
    row = hbm.table(meta, [run], {}).splitlines()[-1].rstrip(" |").split(" | ")
    assert row[3:11] == ["3840 (80%)", "3840 (80%)", "bulk 1x32K", "2400 (50%)", "3456", "90%", "1920", "50%"]
    old = {k: run[k] for k in ("shape", "dtype", "bytes", "copy_ms", "read_ms")}
    row = hbm.table(meta, [old], {("dec", "bf16"): {"lower-tc": 1000.0}}).splitlines()[-1].split(" | ")
    assert row[4:9] == ["", "", "2400 (50%)", "1000", ""]
