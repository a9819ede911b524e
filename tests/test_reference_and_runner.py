"""The numpy reference interprets tile programs exactly; the runner's inputs,
poison and tolerances; clear refusals where no suitable GPU exists."""

from __future__ import annotations

import numpy as np
import pytest

from xdsl.dialects import func

from fake_cuda import FakeDriver, install
from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
from lower_tc.lowering.parse import parse
from lower_tc.lowering.reference_program import reference_program
from lower_tc.lowering.runtime import inputs, launch as launching, run as running, session
from lower_tc.lowering.runtime.checks import tolerance
from lower_tc.lowering.runtime.errors import KernelError, RunError
from lower_tc.lowering.runtime.inputs import poison, random_input
from lower_tc.lowering.runtime.reference import Load, Mma, ReferenceProgram, Store, Zero, reference

WGMMA = """
func.func @k(%A: memref<64x32xbf16>, %B: memref<32x16xbf16>, %C: memref<64x16xf32>, %D: memref<64x16xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x32xbf16>, !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<32x16xbf16>, !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = auto>>
  %c = tc.acc_load %C : memref<64x16xf32> -> !tc.acc<64x16xf32>
  %d = tc.wgmma %a, %b, %c : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x16xf32>
  tc.acc_store %d to %D : !tc.acc<64x16xf32>, memref<64x16xf32>
  func.return
}
"""

WMMA = """
func.func @k(%A: memref<32x64xf16>, %B: memref<64x32xf16>, %D: memref<32x32xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %a = tc.wmma_load %A[16, 0] : memref<32x64xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b = tc.wmma_load %B[16, 16] : memref<64x32xf16> -> !tc.wmma_frag<b, m16n16k16, f16, col>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, col>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %d to %D[0, 16] col : !tc.wmma_frag<c, m16n16k16, f32>, memref<32x32xf32>
  func.return
}
"""


def kernel(text: str) -> ReferenceProgram:
    """The reference program of the first kernel of `text` (as compile_source makes it)."""
    _, module = parse(text)
    return reference_program(next(op for op in module.walk() if isinstance(op, func.FuncOp)))


def test_the_reference_program_is_plain_data_in_program_order() -> None:
    """The WMMA kernel's ops as steps: numbered values, arguments by index, offsets and
    layouts spelled out (what the runtime evaluates without reading IR)."""
    assert kernel(WMMA).steps == (
        Zero(0, (16, 16)),
        Load(1, 0, False, (16, 0), (16, 16)),
        Load(2, 1, True, (16, 16), (16, 16)),
        Mma(3, 1, 2, 0, False, frozenset({"f16"})),
        Store(3, 2, True, (0, 16), (16, 16)),
    )
    assert kernel(WMMA).reads == {0, 1}
    wgmma = kernel(WGMMA)
    assert wgmma.steps == (
        Load(0, 0), Load(1, 1, transpose=True), Load(2, 2),
        Mma(3, 0, 1, 2, True, frozenset({"bf16"})), Store(3, 3),
    )
    assert wgmma.reads == {0, 1, 2}


def test_reference_wgmma_with_c() -> None:
    rng = np.random.default_rng(0)
    a, b, c = rng.normal(size=(64, 32)), rng.normal(size=(32, 16)), rng.normal(size=(64, 16))
    ref = reference(kernel(WGMMA), {0: a, 1: b, 2: c, 3: np.zeros((64, 16))})
    assert set(ref.values) == {3}
    np.testing.assert_allclose(ref.values[3], a @ b + c)
    np.testing.assert_allclose(ref.scale[3], np.abs(a) @ np.abs(b) + np.abs(c))
    assert ref.written[3].all()


def test_reference_wmma_offsets_and_layouts() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(32, 64)), rng.normal(size=(64, 32))
    ref = reference(kernel(WMMA), {0: a, 1: b, 2: np.zeros((32, 32))})
    # A rows 16..31, K 0..15; B col layout: stored N x K, rows 16..31 (n), cols 16..31 (k)
    expected = a[16:32, 0:16] @ b[16:32, 16:32].T
    # stored col-major at [0, 16]: D^T occupies rows 0..15, cols 16..31
    np.testing.assert_allclose(ref.values[2][0:16, 16:32], expected.T)
    assert ref.written[2][0:16, 16:32].all() and not ref.written[2][16:, :].any()


@pytest.mark.parametrize("dtype", ["f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8", "s32"])
def test_random_inputs_are_fresh_and_representable(dtype) -> None:
    rng = np.random.default_rng(3)
    x, y = random_input(rng, dtype, (64, 64)), random_input(rng, dtype, (64, 64))
    assert np.count_nonzero(x.astype(np.float64)) > 64 * 64 // 2
    assert not np.array_equal(x, y)
    if dtype == "tf32":
        assert not (x.view(np.uint32) & 0x1FFF).any()


def test_poison_is_nan_for_floats_and_a_pattern_for_ints() -> None:
    assert np.isnan(poison("f32", (4, 4)).astype(np.float64)).all()
    assert np.isnan(poison("f16", (4, 4)).astype(np.float64)).all()
    assert (poison("s32", (4,)) == np.int32(0x5A5A5A5A)).all()


def test_tolerances_by_accumulator() -> None:
    assert tolerance("s8", "s32") == 0
    assert tolerance("bf16", "f32") < tolerance("e4m3", "f32") < tolerance("f16", "f16")


def test_no_cuda_bindings_is_a_clear_error(monkeypatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("cuda"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(RunError, match=r"pip install 'lower-tc\[gpu\]'"):
        session.load_driver()


def test_wrong_gpu_is_refused(monkeypatch) -> None:
    """A sm_100a kernel on a Hopper is refused before anything is launched."""

    fake = FakeDriver()
    monkeypatch.setattr(session, "load_driver", lambda: fake)
    with pytest.raises(RunError, match=r"sm_100a kernel needs a GPU of compute capability 10.0; this NVIDIA H100 80GB HBM3 is 9.0"):
        session.Cuda().device("sm_100a")
    fake.devices = 0
    with pytest.raises(RunError, match="no CUDA GPU is present"):
        session.Cuda().device("sm_90a")


def test_run_cli_without_gpu_says_why(tmp_path, capsys, monkeypatch) -> None:
    from lower_tc.lowering.cli.main import main

    monkeypatch.setattr(session, "load_driver", lambda: (_ for _ in ()).throw(RunError("no CUDA GPU is present")))
    monkeypatch.setattr(session, "_SESSION", {})
    monkeypatch.setattr(session, "_DRIVER", [])
    src = tmp_path / "k.mlir"
    src.write_text(WGMMA)
    code = main(["run", str(src), "--seed", "3"])
    err = capsys.readouterr().err
    assert code == 2 and "no CUDA GPU is present" in err and "Traceback" not in err


@pytest.mark.parametrize("dtype", sorted(inputs.STORAGE))
@pytest.mark.parametrize("strides", [(6, 1), (9, 1), (1, 4), (1, 7)], ids=["row", "row-ld9", "col", "col-ld7"])
def test_matrix_view_reads_every_storage_type_by_its_strides(dtype: str, strides: tuple[int, int]) -> None:
    """A strided global operand: the runner's flat buffer and the logical matrix the
    reference sees must agree element by element (ml_dtypes' float8 types included)."""
    shape = (4, 6)
    rng = np.random.default_rng(3)
    size = inputs.buffer_elements(shape, strides)
    assert size == 3 * strides[0] + 5 * strides[1] + 1
    buf = random_input(rng, dtype, (size,))
    view = inputs.matrix_view(buf, ArgInfo("p_X", shape, strides, dtype, False))
    assert view.shape == shape and view.dtype == buf.dtype
    for r in range(4):
        for c in range(6):
            assert view[r, c].tobytes() == buf[r * strides[0] + c * strides[1]].tobytes()


def test_e2m1_inputs_are_packed_two_to_a_byte_low_nibble_first() -> None:
    values = np.array([0.5, -6.0, 1.5, 0.0, 3.0], dtype=inputs.STORAGE["e2m1"])
    packed = inputs.device_bytes(values, "e2m1")
    codes = values.view(np.uint8) & 0xF
    assert packed.dtype == np.uint8 and len(packed) == 3
    assert [int(b) for b in packed] == [codes[0] | codes[1] << 4, codes[2] | codes[3] << 4, codes[4]]
    assert inputs.device_bytes(values.astype(np.float32), "f32") is not None
    rng = np.random.default_rng(5)
    drawn = random_input(rng, "e2m1", (1000,)).astype(np.float64)
    assert np.abs(drawn).max() <= 6 and len(np.unique(drawn)) > 8  # fresh values over the range


def test_a_kernel_that_never_finishes_is_reported_and_nothing_waits_on_it(monkeypatch) -> None:
    """After the time limit nothing may free or unload under the running kernel (the
    driver would wait for it), and the process refuses further launches."""
    fake = install(monkeypatch, FakeDriver(hang=True))
    info = KernelInfo(name="spin", target="sm_90a", threads=128, smem_bytes=0,
                      args=(ArgInfo("flag", (1, 4), (4, 1), "f32", True),))
    with pytest.raises(KernelError, match="kernel spin did not finish within 0.05 s"):
        launching.launch(b"cubin", info, [np.zeros(4, np.float32)], timeout=0.05)
    after = fake.names[fake.names.index("cuLaunchKernel") + 1:]
    assert set(after) == {"cuStreamQuery"}
    assert [k.name for k in launching._HUNG] == ["spin"]  # its module stays loaded
    with pytest.raises(RunError, match="unusable: kernel spin did not finish"):
        launching.launch(b"cubin", info, [np.zeros(4, np.float32)], timeout=0.05)


def test_buffers_that_do_not_match_the_arguments_are_refused_before_allocating(monkeypatch) -> None:
    fake = install(monkeypatch)
    info = KernelInfo(name="k", target="sm_90a", threads=32, smem_bytes=0, args=())
    with pytest.raises(RunError, match="kernel k takes 0 arguments, 1 buffers given"):
        launching.launch(b"cubin", info, [np.zeros(4, np.float32)])
    assert "cuMemAlloc" not in fake.names and "cuLaunchKernel" not in fake.names


def test_a_clean_launch_releases_everything_it_took(monkeypatch) -> None:
    fake = install(monkeypatch)
    info = KernelInfo(
        name="k", target="sm_90a", threads=128, smem_bytes=0,
        args=(ArgInfo("p_X", (1, 4), (4, 1), "f32", True), ArgInfo("p_Y", (1, 2), (2, 1), "s32", False)),
    )
    out, device, overruns = launching.launch(b"cubin", info, [np.zeros(4, np.float32), np.ones(2, np.int32)])
    assert device == "NVIDIA H100 80GB HBM3 (sm_90)" and len(out) == 2
    assert fake.names.count("cuMemFree") == 2 and fake.names.count("ObjectCode.from_cubin") == 1
    assert fake.names.count("cuStreamDestroy") == 1
    assert launching._HUNG == []  # the module goes with its Kernel


def test_no_driver_library_is_a_clear_error(monkeypatch) -> None:
    """cuda-bindings raises (rather than returning a status) where libcuda is missing."""

    class NoLibcuda:
        @staticmethod
        def cuInit(flags):
            raise RuntimeError("libcuda.so.1: cannot open shared object file")

    monkeypatch.setattr(session, "load_driver", lambda: NoLibcuda)
    with pytest.raises(RunError, match="no usable NVIDIA driver .libcuda. here: libcuda.so.1"):
        session.Cuda()


def fake_launch(change):
    """A `launch` that computes the right answer with the reference, then lets
    `change(index, flat_buffer)` spoil it."""

    def launch(cubin, info, host_args, timeout):
        ref = launch.ref
        out = []
        for i, (buf, a) in enumerate(zip(host_args, info.args)):
            buf = buf.copy()
            if i in ref.values:
                (rows, cols), (sr, sc) = a.shape, a.strides
                flat = np.arange(rows)[:, None] * sr + np.arange(cols)[None, :] * sc
                buf[flat[ref.written[i]]] = ref.values[i][ref.written[i]].astype(buf.dtype)
            change(i, buf)
            out.append(buf)
        launch.seen = host_args
        return out, "fake GPU", [launch.overrun if i == 0 else 0 for i in range(len(out))]

    launch.overrun = 0

    return launch


def run_with_fake_gpu(monkeypatch, text: str, change, overrun: int = 0) -> running.RunResult:
    """run_kernel on a fake GPU that returns the reference's answer, spoiled by `change`."""
    from lower_tc.lowering.compile import compile_source

    (k,) = compile_source(text)
    launch = fake_launch(change)
    launch.overrun = overrun

    def remember(program, values):
        launch.ref = reference(program, values)
        return launch.ref

    monkeypatch.setattr(running, "reference", remember)
    monkeypatch.setattr(running, "launch", launch)
    return running.run_kernel(k, seed=5)


@pytest.mark.parametrize("spoil, verdict", [
    (None, "pass"), ("nan", "nan"), ("stray", "stray"), ("wrong", "mismatch"),
])
def test_run_kernel_fails_wrong_results_nan_and_stray_writes(monkeypatch, spoil, verdict) -> None:
    """WMMA stores a 16 x 16 block of a 32 x 32 D: the rest must come back poisoned."""

    def change(i, buf):
        if i != 2 or spoil is None:
            return
        if spoil == "nan":
            buf[5 * 32 + 20] = np.nan  # inside the block (rows 0..15, columns 16..31)
        elif spoil == "stray":
            buf[20 * 32 + 3] = 1.0  # row 20, column 3: outside it
        else:
            buf[7 * 32 + 19] += 0.5

    r = run_with_fake_gpu(monkeypatch, WMMA, change)
    assert r.checked == 16 * 16
    assert r.passed == (verdict == "pass"), r.summary()
    assert (r.nan_count > 0) == (verdict == "nan")
    assert (r.stray > 0) == (verdict == "stray")
    assert (r.mismatches > 0) == (verdict in ("mismatch", "nan"))


def test_an_accumulator_updated_in_place_starts_from_random_values(monkeypatch) -> None:
    """C loaded from and stored to the same buffer is an input: it is drawn, not
    poisoned, and the reference adds it."""
    from lower_tc.lowering.compile import compile_source

    text = WGMMA.replace(", %D: memref<64x16xf32>", "").replace("tc.acc_store %d to %D", "tc.acc_store %d to %C")
    (k,) = compile_source(text)
    launch = fake_launch(lambda i, buf: None)

    def remember(program, values):
        launch.ref = reference(program, values)
        assert np.isfinite(values[2]).all() and np.count_nonzero(values[2]) > 500
        return launch.ref

    monkeypatch.setattr(running, "reference", remember)
    monkeypatch.setattr(running, "launch", launch)
    r = running.run_kernel(k, seed=3)
    assert r.passed and r.checked == 64 * 16, r.summary()


def test_tolerance_follows_the_mma_operands_not_the_argument_order() -> None:
    """A kernel whose first argument is C (f32) still gets the fp8 tolerance."""
    src = """
func.func @k(%C: memref<64x16xf32>, %A: memref<64x64xf8E4M3FN>, %B: memref<64x16xf8E4M3FN, strided<[1, 64]>>, %D: memref<64x16xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<16x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x16xf8E4M3FN, strided<[1, 64]>>, !tc.tile<16x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %c = tc.acc_load %C : memref<64x16xf32> -> !tc.acc<64x16xf32>
  %d = tc.wgmma %a, %b, %c : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<16x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<64x16xf32>
  tc.acc_store %d to %D : !tc.acc<64x16xf32>, memref<64x16xf32>
  func.return
}
"""
    ref = reference(kernel(src), {0: np.zeros((64, 16)), 1: np.ones((64, 64)), 2: np.ones((64, 16)), 3: np.zeros((64, 16))})
    assert ref.types == {3: {"e4m3"}}
    assert tolerance("e4m3", "f32") == 2e-3


@pytest.mark.parametrize("failure, status", [("missing", 2), ("rejected", 1)])
def test_run_cli_tells_a_missing_ptxas_from_a_rejected_kernel(tmp_path, capsys, monkeypatch, failure, status) -> None:
    """No ptxas: it cannot run here (2). ptxas rejecting the PTX: the input failed (1)."""
    import json

    from lower_tc.lowering.backend import assembler, ptxas
    from lower_tc.lowering.cli.main import main

    def broken(*args, **kwargs):
        if failure == "missing":
            raise ptxas.ToolUnavailableError("ptxas not found: looked on PATH")
        raise ptxas.BackendError("ptxas rejected kernel k for sm_90a")

    monkeypatch.setattr(assembler, "assemble", broken)
    src = tmp_path / "k.mlir"
    src.write_text(WGMMA)
    assert main(["run", str(src)]) == status
    err = capsys.readouterr().err
    assert ("not found" if failure == "missing" else "rejected") in err and "Traceback" not in err
    assert main(["run", str(src), "--json"]) == status
    reply = json.loads(capsys.readouterr().out)
    assert reply["status"] == status and "ptxas" in reply["error"]


def test_run_cli_reports_a_kernel_failure_as_a_failure(tmp_path, capsys, monkeypatch) -> None:
    """A fault or a time-out on the GPU is the kernel's failure (1), not the machine's (2)."""
    from lower_tc.lowering.backend import ptxas
    from lower_tc.lowering.cli import run as run_cli
    from lower_tc.lowering.cli.main import main

    monkeypatch.setattr(ptxas, "assemble", lambda *a, **k: b"\x7fELF")
    monkeypatch.setattr(run_cli, "run_kernel", lambda *a: (_ for _ in ()).throw(
        KernelError("kernel k did not finish within 10 s")))
    src = tmp_path / "k.mlir"
    src.write_text(WGMMA)
    assert main(["run", str(src)]) == 1
    assert "did not finish" in capsys.readouterr().err


@pytest.mark.parametrize("dtype", ["e2m3", "e3m2"])
def test_6bit_inputs_are_a_little_endian_bit_stream(dtype) -> None:
    """Four 6-bit codes in three bytes, element i at bits [6i, 6i + 6): 16 elements are the
    12 data bytes of one padded shared-memory chunk."""
    rng = np.random.default_rng(9)
    values = random_input(rng, dtype, (37,))
    packed = inputs.device_bytes(values, dtype)
    assert packed.dtype == np.uint8 and len(packed) == -(-37 // 4) * 3
    stream = int.from_bytes(packed.tobytes(), "little")
    codes = [(stream >> (6 * i)) & 0x3F for i in range(37)]
    assert codes == [int(c) & 0x3F for c in values.view(np.uint8)]
    assert stream >> (6 * 37) == 0  # the tail is zero
    assert len(np.unique(values.astype(np.float64))) > 16


MIXED = """
func.func @k(%A: memref<16x16xf16>, %B: memref<16x16xf16>, %I: memref<16x16xsi8>, %J: memref<16x16xsi8>, %D: memref<16x16xf32>, %E: memref<16x16xi32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %a = tc.wmma_load %A[0, 0] : memref<16x16xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b = tc.wmma_load %B[0, 0] : memref<16x16xf16> -> !tc.wmma_frag<b, m16n16k16, f16, row>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, row>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %d to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  %z = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, i32>
  %i = tc.wmma_load %I[0, 0] : memref<16x16xsi8> -> !tc.wmma_frag<a, m16n16k16, si8, row>
  %j = tc.wmma_load %J[0, 0] : memref<16x16xsi8> -> !tc.wmma_frag<b, m16n16k16, si8, row>
  %e = tc.wmma_mma %i, %j, %z : !tc.wmma_frag<a, m16n16k16, si8, row>, !tc.wmma_frag<b, m16n16k16, si8, row>, !tc.wmma_frag<c, m16n16k16, i32> -> !tc.wmma_frag<c, m16n16k16, i32>
  tc.wmma_store %e to %E[0, 0] row : !tc.wmma_frag<c, m16n16k16, i32>, memref<16x16xi32>
  func.return
}
"""


def test_each_output_is_held_to_its_own_tolerance(monkeypatch) -> None:
    """An s32 result beside an f32 one stays exact: off by 3 fails, though 3 / scale
    would pass the f32 tolerance of its neighbour."""
    clean = run_with_fake_gpu(monkeypatch, MIXED, lambda i, buf: None)
    assert clean.passed, clean.summary()
    assert [(o.param, o.tolerance) for o in clean.per_output] == [("p_D", 1e-4), ("p_E", 0.0)]

    def off_by_three(i, buf):
        if i == 5:
            buf[7] += 3

    r = run_with_fake_gpu(monkeypatch, MIXED, off_by_three)
    assert not r.passed and r.mismatches == 1, r.summary()
    assert [o.mismatches for o in r.per_output] == [0, 1]
    assert "p_E max error" in r.summary()


def test_reference_records_which_mma_types_feed_each_output() -> None:
    ref = reference(kernel(MIXED), {i: np.ones((16, 16)) for i in range(6)})
    assert ref.types == {4: {"f16"}, 5: {"s8"}}


@pytest.mark.parametrize("where", ["input", "guard"])
def test_a_write_to_an_input_or_past_a_buffer_fails(monkeypatch, where) -> None:
    def spoil_input(i, buf):
        if i == 0 and where == "input":
            buf[3] = -buf[3] if buf[3] != 0 else 1.0

    r = run_with_fake_gpu(monkeypatch, WMMA, spoil_input, overrun=4 if where == "guard" else 0)
    assert not r.passed and r.mismatches == 0 and r.nan_count == 0, r.summary()
    assert r.stray == (4 if where == "guard" else 1)


def test_a_nan_result_is_null_in_json(monkeypatch) -> None:
    import json

    def nan(i, buf):
        if i == 2:
            buf[16] = np.nan

    r = run_with_fake_gpu(monkeypatch, WMMA, nan)
    assert not r.passed and r.max_error == np.inf
    data = json.loads(json.dumps(r.as_dict(), allow_nan=False))
    assert data["max_error"] is None and data["per_output"][0]["max_error"] is None


@pytest.mark.parametrize("limit", [float("nan"), 0.0, -1.0, float("inf")])
def test_the_time_limit_must_be_a_positive_number(limit) -> None:
    with pytest.raises(ValueError, match="time limit must be a positive number"):
        launching.launch(b"cubin", KernelInfo(name="k", target="sm_90a", threads=32, smem_bytes=0, args=()), [], timeout=limit)


@pytest.mark.parametrize("limit", ["nan", "0", "-1", "inf", "soon"])
def test_run_cli_refuses_a_time_limit_that_is_not_positive_seconds(tmp_path, capsys, limit) -> None:
    from lower_tc.lowering.cli.main import main

    src = tmp_path / "k.mlir"
    src.write_text(WGMMA)
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(src), "--timeout", limit])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and f"'{limit}'" in err and "Traceback" not in err


def test_run_cli_says_when_the_input_is_not_text(tmp_path, capsys) -> None:
    from lower_tc.lowering.cli.main import main

    src = tmp_path / "k.mlir"
    src.write_bytes(b"func.func @k() {\xff\xfe}")
    assert main(["run", str(src)]) == 1
    err = capsys.readouterr().err
    assert err == f"{src}:1:17: error: not UTF-8 text: byte 0xff at byte offset 16 (invalid start byte); lower-tc reads UTF-8\n"


@pytest.mark.parametrize("tool", ["run", "desc", "compile"])
def test_a_bug_in_any_sub_tool_is_one_line_not_a_traceback(capsys, monkeypatch, tool) -> None:
    from lower_tc.lowering.cli import desc, driver, main, run

    def bug(argv):
        raise KeyError("oops")

    module = {"run": run, "desc": desc, "compile": driver}[tool]
    monkeypatch.setattr(module, "main", bug)
    monkeypatch.delenv("LOWER_TC_TRACEBACK", raising=False)
    argv = {"run": ["run", "x.mlir"], "desc": ["desc", "decode", "0"], "compile": ["x.mlir"]}[tool]
    assert main.main(argv) == 1
    err = capsys.readouterr().err
    assert err == "lower-tc: internal error: KeyError: 'oops' (a bug in lower-tc; LOWER_TC_TRACEBACK=1 shows where)\n"
    monkeypatch.setenv("LOWER_TC_TRACEBACK", "1")
    with pytest.raises(KeyError):
        main.main(argv)


@pytest.mark.parametrize("spoil, where, message", [
    (("%a = tc.smem_tile", "%a = tc.smem_tile garbage"), ":3:", "error: "),  # a parse error
    (("64x16xf32>", "32x16xf32>"), ":", "error: "),  # types that do not verify
])
def test_run_cli_reports_bad_input_located_like_the_compiler(tmp_path, capsys, spoil, where, message) -> None:
    """The same `file:line:col: error: ...` line as `lower-tc k.mlir`, exit status 1."""
    from lower_tc.lowering.cli.main import main

    src = tmp_path / "k.mlir"
    src.write_text(WGMMA.replace(*spoil))
    assert main(["run", str(src)]) == 1
    run_err = capsys.readouterr().err
    assert main([str(src)]) == 1
    compile_err = capsys.readouterr().err
    assert run_err == compile_err, (run_err, compile_err)
    assert run_err.startswith(f"{src}{where}") and message in run_err and run_err.count("\n") == 1


@pytest.mark.parametrize("spoil, passes", [(None, True), ("finite for -inf", False), ("-inf for finite", False), ("nan for -inf", False)])
def test_an_infinite_reference_passes_only_where_the_kernel_wrote_it(monkeypatch, spoil, passes) -> None:
    """The log-sum-exp of a row that sees no key is -inf (docs/attention.md): the runner
    takes it where the kernel wrote -inf exactly, nowhere else, and NaN never."""
    from test_attention_online import causal_variant

    lse = 10  # the example's last argument: 64 x 1 f32; 44 keys, offset -20: rows 0 to 19 see none

    def change(i, buf):
        if i != lse or spoil is None:
            return
        if spoil == "finite for -inf":
            buf[3] = 0.0
        elif spoil == "-inf for finite":
            buf[40] = -np.inf
        else:
            buf[3] = np.nan

    r = run_with_fake_gpu(monkeypatch, causal_variant(44, -20), change)
    assert r.passed is passes, r.summary()
    assert (r.nan_count > 0) == (spoil in ("nan for -inf", "-inf for finite"))  # not finite where not expected
