"""lower_tc.matmul and lower_tc.load on the CPU: fake arrays over the fake driver's GPU
memory (tests/test_callable.py's), a real compile, and the fake CUDA recording the launch.
matmul compiles the program its plan writes once (memory, then the disk cache), launches
it on the arrays, and refuses bad arguments by name before compiling; load gives the
kernel `lower-tc -t cubin -o FILE` wrote, callable as compile's is."""

from __future__ import annotations

import json
import types
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from fake_cuda import install
from test_callable import ITEMSIZE, gpu_array
import lower_tc
from lower_tc.lowering.runtime.artifact import ArtifactError
from lower_tc.lowering.runtime.errors import ArgumentError, DeviceError


@pytest.fixture
def fake(monkeypatch, tmp_path):
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LOWER_TC_ASSEMBLER", "ptxas")
    return install(monkeypatch)


def test_matmul_compiles_once_and_launches_on_the_arrays(fake, tmp_path) -> None:
    a = gpu_array(fake, 200, 64, "f16")
    b = gpu_array(fake, 64, 136, "f16", order="F")
    d = gpu_array(fake, 200, 136, "f32")
    assert lower_tc.matmul(a, b, d, stream=5) is d
    (launch,) = fake.called("cuLaunchKernel")
    assert launch[8] == 5
    entries = list((tmp_path / "cache").rglob("*.cubin"))
    assert len(entries) == 1  # stored on disk
    lower_tc.matmul(a, b, d, stream=5)
    assert len(fake.called("cuLaunchKernel")) == 2
    assert len(fake.called("ObjectCode.from_cubin")) == 1  # one kernel, loaded once
    # another shape: another program
    a2, d2 = gpu_array(fake, 72, 64, "f16"), gpu_array(fake, 72, 136, "f32")
    lower_tc.matmul(a2, b, d2)
    assert len(list((tmp_path / "cache").rglob("*.cubin"))) == 2


def test_a_dynamic_matmul_is_one_kernel_for_every_shape(fake, tmp_path) -> None:
    for m in (100, 300):
        lower_tc.matmul(gpu_array(fake, m, 64, "bf16"), gpu_array(fake, 64, 128, "bf16"), gpu_array(fake, m, 128, "bf16"), dynamic=True)
    assert len(list((tmp_path / "cache").rglob("*.cubin"))) == 1
    assert len(fake.called("cuLaunchKernel")) == 2


def test_matmul_refuses_by_name_before_compiling(fake, tmp_path) -> None:
    a, d = gpu_array(fake, 128, 100, "f16"), gpu_array(fake, 128, 128, "f32")
    with pytest.raises(ArgumentError) as err:
        lower_tc.matmul(a, gpu_array(fake, 100, 128, "f16"), d)
    assert err.value.argument == "a" and "16 bytes" in str(err.value)
    with pytest.raises(ArgumentError) as err:
        lower_tc.matmul(gpu_array(fake, 128, 64, "f16"), gpu_array(fake, 64, 128, "f16"), d, sched="pipelined")
    assert err.value.argument == "options"
    with pytest.raises(DeviceError):
        lower_tc.matmul(gpu_array(fake, 128, 64, "f16"), gpu_array(fake, 64, 128, "f16", device=1), d)
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").rglob("*.cubin"))
    assert not fake.called("cuLaunchKernel")


def test_matmul_allocates_d_only_like_torch_or_cupy(fake) -> None:
    with pytest.raises(ArgumentError) as err:
        lower_tc.matmul(gpu_array(fake, 128, 64, "f16"), gpu_array(fake, 64, 128, "f16"))
    assert err.value.argument == "out"
    assert not fake.called("cuLaunchKernel")


def test_matmul_takes_the_target_from_the_device(fake, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys.modules["lower_tc.lowering.api.matmul"], "_targets", {})  # asked once per device
    fake.capability = (8, 0)
    with pytest.raises(DeviceError, match="compute capability 8.0"):
        lower_tc.matmul(gpu_array(fake, 128, 64, "f16"), gpu_array(fake, 64, 128, "f16"), gpu_array(fake, 128, 128, "f32"))
    fake.capability = (10, 0)
    lower_tc.matmul(gpu_array(fake, 128, 64, "f16"), gpu_array(fake, 64, 128, "f16"), gpu_array(fake, 128, 128, "f32"))
    (meta,) = (tmp_path / "cache").rglob("*.json")
    assert json.loads(meta.read_text())["target"] == "sm_100a"


def test_load_gives_the_kernel_the_command_wrote(fake, tmp_path) -> None:
    out = tmp_path / "g.cubin"
    subprocess.run([sys.executable, "-m", "lower_tc.lowering.cli", str(ROOT / "examples" / "gemm_bf16_dynamic.mlir"),
                    "-t", "cubin", "-o", str(out)], check=True, env={"LOWER_TC_ASSEMBLER": "ptxas", "PATH": "/usr/bin:/bin"} | dict(__import__("os").environ))
    kernel = lower_tc.load(out)
    assert kernel.name == "gemm_bf16_dynamic" and kernel.cubin == out.read_bytes()
    kernel(gpu_array(fake, 300, 200, "bf16"), gpu_array(fake, 200, 96, "bf16"), gpu_array(fake, 300, 96, "bf16"), stream=3)
    assert len(fake.called("cuLaunchKernel")) == 1
    with pytest.raises(ValueError, match="no kernel 'other'"):
        lower_tc.load(out, kernel="other")
    (tmp_path / "g.cubin.json").unlink()
    with pytest.raises(ArtifactError, match="g.cubin.json"):
        lower_tc.load(out)


def test_load_needs_no_xdsl(tmp_path) -> None:
    code = "import sys, lower_tc; lower_tc.load; assert 'xdsl' not in sys.modules, sorted(m for m in sys.modules if 'xdsl' in m)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_matmul_on_torch_tensors_seen_before_builds_no_view(fake, tmp_path, monkeypatch) -> None:
    from test_callable import _torch_like

    matmul_module = sys.modules["lower_tc.lowering.api.matmul"]
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(_C=types.SimpleNamespace(_cuda_getCurrentRawStream=lambda i: 9)))
    a = _torch_like("torch.float16", 16, ptr=fake.gpu_memory(128 * 64 * 2), shape=(128, 64), stride=(64, 1))
    b = _torch_like("torch.float16", 16, ptr=fake.gpu_memory(64 * 128 * 2), shape=(64, 128), stride=(1, 64))
    d = _torch_like("torch.float32", 32, ptr=fake.gpu_memory(128 * 128 * 4), shape=(128, 128), stride=(128, 1))
    c = _torch_like("torch.float32", 32, ptr=fake.gpu_memory(128 * 128 * 4), shape=(128, 128), stride=(128, 1))
    seen = []
    real = matmul_module.view_of
    monkeypatch.setattr(matmul_module, "view_of", lambda x, *args, **kw: seen.append(x) or real(x, *args, **kw))
    lower_tc.matmul(a, b, d)
    lower_tc.matmul(a, b, d)
    assert len(seen) == 3 and len(fake.called("cuLaunchKernel")) == 2
    lower_tc.matmul(a, b, d, c)  # C given: another signature, another program
    assert len(seen) == 7 and len(list((tmp_path / "cache").rglob("*.cubin"))) == 2
    assert all(call[8] == 9 for call in fake.called("cuLaunchKernel"))  # torch's current stream


def test_a_batch_of_one_matrix_is_one_gemm_on_the_3d_arrays(fake, tmp_path) -> None:
    """(1, M, K) x (1, K, N) into (1, M, N): the plain GEMM's program, launched on the 3-d
    arrays themselves (a 2-d kernel argument takes a batch of one matrix)."""
    from test_batched_runtime import batch_array

    a, b = batch_array(fake, 1, 208, 64, dtype="f16"), batch_array(fake, 1, 64, 136, order="F", dtype="f16", stride=5)
    d = batch_array(fake, 1, 208, 136, dtype="f32")
    assert lower_tc.matmul(a, b, d) is d
    (meta,) = (tmp_path / "cache").rglob("*.json")
    (kernel,) = json.loads(meta.read_text())["kernels"]
    assert [arg["shape"] for arg in kernel["args"]] == [[208, 64], [64, 136], [208, 136]]
    assert len(fake.called("cuLaunchKernel")) == 1
    with pytest.raises(ArgumentError, match=r"out is 208x136: D = a x b is 1x208x136") as err:
        lower_tc.matmul(a, b, gpu_array(fake, 208, 136, "f32"))
    assert err.value.argument == "out"


def test_a_batched_matmul_compiles_a_3d_program_and_launches_on_the_arrays(fake, tmp_path) -> None:
    """(3, M, K) x (K, N) into (3, M, N): B one matrix for every batch, 2-d in the program;
    the same kernel takes B as an expanded view."""
    from test_batched_runtime import batch_array
    from test_callable import cai

    a, d = batch_array(fake, 3, 200, 64, dtype="f16"), batch_array(fake, 3, 200, 136, dtype="f32")
    b = gpu_array(fake, 64, 136, "f16", order="F")
    assert lower_tc.matmul(a, b, d) is d
    (meta,) = (tmp_path / "cache").rglob("*.json")
    (kernel,) = json.loads(meta.read_text())["kernels"]
    assert [arg["shape"] for arg in kernel["args"]] == [[3, 200, 64], [64, 136], [3, 200, 136]]
    assert kernel["gemm"]["batch"] == 3
    expanded = cai(b.__cuda_array_interface__["data"][0], (3, 64, 136), "f16", (0, 1, 64))
    lower_tc.matmul(a, expanded, d)
    assert len(fake.called("cuLaunchKernel")) == 2 and len(list((tmp_path / "cache").rglob("*.cubin"))) == 1
    assert [tuple(m.args[3]) for m in fake.tensor_maps[:2]] == [(64, 200, 3), (64, 136)]


@st.composite
def _matmul_calls(draw) -> dict:
    """A call of lower_tc.matmul: coherent mostly (a type pair lower-tc multiplies, B in the
    layout its type needs, 16-byte leading dimensions, D of the right shape and type),
    with one thing odd at times: the types, a leading dimension, D's shape or type, a
    batch, an option or two (valid together or not), a configuration."""
    odd = draw(st.sampled_from(("", "", "", "", "types", "ld", "out", "batch", "options", "options", "config")))
    pair = draw(st.sampled_from((("bf16", "bf16"), ("f16", "f16"), ("e4m3", "e4m3"), ("s8", "s8"), ("f32", "f32"))))
    if odd == "types":
        pair = draw(st.sampled_from((("bf16", "f16"), ("f64", "f64"), ("e4m3", "s8"))))
    m, n, k = (draw(st.one_of(st.integers(1, 300), st.sampled_from((64, 128, 256, 1024)))) for _ in range(3))
    batch = draw(st.sampled_from((1, 2, 3))) if odd == "batch" else None
    eight_bit = pair[0] in ("e4m3", "s8")

    def operand(rows: int, cols: int, dtype: str, order: str) -> dict:
        extent = cols if order == "C" else rows
        per = 16 // ITEMSIZE.get(dtype if dtype != "e4m3" else "u8", 8)
        ld = -(-extent // per) * per + per * draw(st.sampled_from((0, 0, 1, 4)))
        if odd == "ld" and draw(st.booleans()):
            ld = extent + draw(st.sampled_from((1, 3)))
        return {"rows": rows, "cols": cols, "dtype": dtype, "order": order, "ld": ld}

    a = operand(m, k, pair[0], "C" if eight_bit else draw(st.sampled_from(("C", "F"))))
    b = operand(k, n, pair[1], "F" if eight_bit else draw(st.sampled_from(("C", "F"))))
    out_type = {"bf16": "bf16", "f16": "f16", "e4m3": "bf16", "s8": "s32", "f32": "f32"}.get(pair[0], "f32")
    out = operand(m, n, out_type, "C")
    if odd == "out":
        out = draw(st.sampled_from(({**out, "rows": m + 1}, {**out, "dtype": "f16" if out_type != "f16" else "bf16"}, None)))
    options: dict = {}
    if odd == "options":
        options = draw(st.dictionaries(
            st.sampled_from(("split_k", "reduce", "swap_ab", "persistent", "cluster", "accumulation", "epilogue",
                             "mma_depth", "l2_promotion", "schedule", "stream_k")),
            st.sampled_from((0, 1, 2, 3, 8, True, False, "global", "cluster", "promoted", "fast", "tma", "registers",
                             "pipelined", "warp_specialized", 64, 100)), min_size=1, max_size=2))
    config = None
    if odd == "config":
        config = draw(st.sampled_from(((128, 128, 64, 4), (64, 64, 64, 8), (128, 256, 64, 4), (96, 128, 64, 4),
                                       (128, 128, 128, 4), (0, 1, 2, 3))))
    return {"a": a, "b": b, "out": out, "batch": batch, "options": options, "config": config,
            "dynamic": draw(st.booleans())}


@given(call=_matmul_calls())
@settings(max_examples=30, deadline=None, derandomize=True, database=None)
def test_every_matmul_call_runs_or_is_refused_before_launching(call: dict, tmp_path_factory) -> None:
    """lower_tc.matmul on generated arguments (fake driver): it launches once, or it
    raises one of its documented exceptions (ArgumentError, DeviceError, or CompileError
    for a refusal only the compiler finds: docs/api.md) with nothing launched; never
    another exception."""
    from test_callable import cai

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LOWER_TC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "matmul-calls-cache"))
        mp.setenv("LOWER_TC_ASSEMBLER", "ptxas")
        fake = install(mp)

        def make(spec: dict | None) -> object:
            if spec is None:
                return None
            rows, cols, ld = spec["rows"], spec["cols"], spec["ld"]
            strides = (ld, 1) if spec["order"] == "C" else (1, ld)
            span = ld * (rows if spec["order"] == "C" else cols)
            shape: tuple[int, ...] = (rows, cols)
            if call["batch"] is not None:
                shape, strides, span = (call["batch"], *shape), (span, *strides), span * call["batch"]
            base = fake.gpu_memory(span * ITEMSIZE.get(spec["dtype"], 8) + 64)
            return cai(base, shape, spec["dtype"] if spec["dtype"] != "e4m3" else "u8", strides)

        a, b, out = make(call["a"]), make(call["b"]), make(call["out"])
        if call["a"]["dtype"] == "e4m3":  # fp8 as torch gives it: a uint8 array reinterpreted
            from lower_tc.lowering.runtime.arrays import reinterpret

            a, b = reinterpret(a, "e4m3"), reinterpret(b, "e4m3")
        try:
            result = lower_tc.matmul(a, b, out, config=call["config"], dynamic=call["dynamic"], **call["options"])
        except (ArgumentError, DeviceError, lower_tc.CompileError) as err:
            assert "\n" not in str(err).strip() or isinstance(err, lower_tc.CompileError)
            assert not fake.called("cuLaunchKernel")
            return
        assert len(fake.called("cuLaunchKernel")) == 1 and (out is None or result is out)
