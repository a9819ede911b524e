"""The runtime of batched GEMMs (issue 21), on the CPU with hand-made launch contracts
(tests/batched_info.py) and the fake CUDA of tests/fake_cuda.py: `--shape` with a batch,
`resolve_sizes` filling and checking 3-d arguments, their five size parameters, their
rank-3 tensor maps and the batch as grid z; a Kernel called on 3-d arrays (broadcast
forms included), each bad one refused naming the argument; the runner's buffers, poison,
guards, padding between matrices and its float64 check per matrix."""

from __future__ import annotations

import ctypes
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from batched_info import dynamic_batched, static_batched
from fake_cuda import install
from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.lowering.runtime import run as running
from lower_tc.lowering.runtime.callable import Kernel
from lower_tc.lowering.runtime.errors import ArgumentError, ShapeError
from lower_tc.lowering.runtime.gemm_check import FULL_CHECK_LIMIT, check_gemm
from lower_tc.lowering.runtime.inputs import buffer_elements, flat_indices, matrix_view
from lower_tc.lowering.runtime.memory import host_bytes
from lower_tc.lowering.runtime.sizes import BatchShape, check_launch_limits, parse_shape, resolve_sizes
from test_callable import cai

# -- --shape -------------------------------------------------------------------------------------


def test_shape_option_takes_a_batch_ld_and_batch_stride() -> None:
    assert parse_shape("A=8x1024x512") == ("A", BatchShape(8, 1024, 512, None, None))
    assert parse_shape("%A=8x1024x512@520") == ("A", BatchShape(8, 1024, 512, 520, None))
    assert parse_shape("A=8x1024x512@520,600000") == ("A", BatchShape(8, 1024, 512, 520, 600000))
    assert parse_shape("A=8x1024x512@,600000") == ("A", BatchShape(8, 1024, 512, None, 600000))
    assert parse_shape("B=64x32@48") == ("B", (64, 32, 48))  # a matrix as before
    for bad in ("A=8x4x4x4", "A=4x4@8,64", "A=8x4x4@", "A=8x0x4", "A=8x4x4@4,0", "A=8x4x4@4,x"):
        with pytest.raises(ShapeError, match="--shape"):
            parse_shape(bad)


# -- resolve_sizes ---------------------------------------------------------------------------------


def shapes(batch: int = 6, m: int = 1000, n: int = 904, k: int = 1000, **kw: Any) -> dict[str, Any]:
    out = {"A": BatchShape(batch, m, k), "B": BatchShape(batch, k, n), "D": BatchShape(batch, m, n)}
    out.update(kw)
    return out


def test_a_batch_fills_five_size_parameters_rank_3_maps_and_grid_z() -> None:
    info = resolve_sizes(dynamic_batched(), shapes(A=BatchShape(6, 1000, 1000, 1008)))
    a, b, d = info.args
    assert (a.shape, a.strides) == ((6, 1000, 1000), (1000 * 1008, 1008, 1))
    assert (b.shape, b.strides) == ((6, 1000, 904), (904 * 1000, 1, 1000))  # column-major: cols x ld
    assert (d.shape, d.strides) == ((6, 1000, 904), (1000 * 904, 904, 1))
    assert [(p.param, p.value) for p in info.size_params][:5] == [
        ("p_A_rows", 1000), ("p_A_cols", 1000), ("p_A_ld", 1008), ("p_A_batch", 6), ("p_A_batch_stride", 1008000)]
    assert len(info.size_params) == 15
    tm_a, tm_b = info.tensor_maps
    assert (tm_a.global_dims, tm_a.global_strides) == ((1000, 1000, 6), (2016, 2016000))
    assert (tm_b.global_dims, tm_b.global_strides) == ((1000, 904, 6), (2000, 1808000))
    assert info.grid == (4, 8, 6)
    assert (info.gemm.m, info.gemm.n, info.gemm.k, info.gemm.batch) == (1000, 904, 1000, 6)
    assert info.static and KernelInfo.from_json(info.to_json()) == info


def test_a_given_batch_stride_and_a_batch_of_one() -> None:
    info = resolve_sizes(dynamic_batched(), shapes(D=BatchShape(6, 1000, 904, 912, 1_000_000)))
    assert info.args[2].strides == (1_000_000, 912, 1)
    # one matrix: its batch stride is never stepped, so any given one reads as the dense one
    one = resolve_sizes(dynamic_batched(), shapes(1, 64, 64, 64, A=BatchShape(1, 64, 64, None, 8)))
    assert one.args[0].strides == (64 * 64, 64, 1) and one.grid == (1, 1, 1)
    assert one.tensor_maps[0].global_strides == (128, 8192)


def test_one_matrix_for_every_batch_is_two_d_or_a_compiled_batch_of_one() -> None:
    info = resolve_sizes(dynamic_batched(broadcast_b=True), shapes(B=(1000, 904, None)))
    assert info.args[1].shape == (1000, 904) and info.tensor_maps[1].global_dims == (1000, 904)
    assert [p.what for p in info.size_params if p.arg == 1] == ["rows", "cols", "ld"]
    static = static_batched(b_batch=1)
    assert resolve_sizes(static, None) == static  # B 1 x K x N against D's batch of 4


@pytest.mark.parametrize(("info", "given", "argument", "message"), [
    (dynamic_batched(), shapes(A=(1000, 1000, None)), "A",
     r"--shape A=1000x1000: the kernel's A is a batch of matrices \(\?x\?x\?\): give --shape A=BATCHxROWSxCOLS"),
    (dynamic_batched(broadcast_b=True), shapes(), "B",
     r"--shape B=6x1000x904: the kernel's B is one matrix \(\?x\?\), the same for every batch: give --shape B=ROWSxCOLS"),
    (dynamic_batched(), {"A": BatchShape(6, 64, 64), "B": BatchShape(6, 64, 64)}, "D",
     r"kernel argument D has sizes known only at launch: give them with --shape D=BATCHxROWSxCOLS"),
    (dynamic_batched(), shapes(B=BatchShape(3, 1000, 904)), "B",
     r"the batches do not make a GEMM: B has 3 matrices and D 6"),
    (dynamic_batched(), shapes(B=BatchShape(1, 1000, 904)), "B",  # 1 at launch is no broadcast
     r"the batches do not make a GEMM: B has 1 matrix and D 6"),
    (dynamic_batched(broadcast_b=True), shapes(B=(1000, 900, None)), "B",
     r"the shapes do not make a GEMM: A 6x1000x1000, B 1000x900, D 6x1000x904"),
    (dynamic_batched(with_c=True), shapes(C=BatchShape(5, 1000, 904)), "C", r"C 5x1000x904"),
    (dynamic_batched(), shapes(A=BatchShape(6, 1000, 1000, None, 1000 * 1000 + 4)), "A",
     r"kernel argument A's batch stride is 2000008 bytes: TMA needs a multiple of 16"),
    (dynamic_batched(), shapes(D=BatchShape(6, 1000, 904, 904, 904 * 999)), "D",
     r"kernel argument D's batch stride is 903096 elements, below one matrix's extent \(1000 rows x ld 904 = 904000\)"),
    (dynamic_batched(), shapes(A=BatchShape(6, 1000, 1000, None, 2**32)), "A",
     r"size parameter p_A_batch_stride is 4294967296: it is a .u32"),
    (dynamic_batched(), shapes(65536, 64, 64, 64), "D",
     r"the grid's z is 65536 blocks: CUDA launches 1 to 65535 along z \(D is 65536x64x64 in 128x256 tiles\)"),
    (dynamic_batched(), shapes(2**31, 1, 1, 8), "A",
     r"kernel argument A's batch count is 2147483648: lower-tc's kernels compute indices in 32-bit registers"),
])
def test_batched_sizes_that_do_not_fit_are_refused_naming_the_argument(info, given, argument, message) -> None:
    with pytest.raises(ShapeError, match=message) as err:
        resolve_sizes(info, given)
    assert err.value.argument == argument


def test_a_batch_stride_of_zero_and_a_static_kernels_batch_are_refused() -> None:
    """A batch stride of 0 (every batch one matrix) is no stride TMA steps; a static
    contract's batch is checked as a dynamic one's."""
    resolved = resolve_sizes(dynamic_batched(), shapes())
    zero = replace(resolved, args=(replace(resolved.args[0], strides=(0, 1000, 1)), *resolved.args[1:]))
    with pytest.raises(ShapeError, match=r"kernel argument A's batch stride is 0: a batch of 6 matrices needs a positive one") as err:
        check_launch_limits(zero)
    assert err.value.argument == "A"
    far = replace(resolved, tensor_maps=(replace(resolved.tensor_maps[0], global_strides=(2016, 2**40)),))
    with pytest.raises(ShapeError, match=r"kernel argument A's TMA batch stride is 1099511627776 bytes: TMA takes strides below 2\^40"):
        check_launch_limits(far)
    with pytest.raises(ShapeError, match=r"--shape D=4x200x137: the kernel's D is 4x200x136"):
        resolve_sizes(static_batched(), {"D": BatchShape(4, 200, 137)})
    overlapping = static_batched(pad=-136)
    with pytest.raises(ShapeError, match=r"kernel argument D's batch stride is 27064 elements, below one matrix's extent"):
        resolve_sizes(overlapping, None)


def test_a_launch_ld_or_batch_stride_must_be_the_kernels_own_where_it_has_one() -> None:
    info = dynamic_batched()
    a = replace(info.args[0], strides=(2**20, None, 1))
    fixed = replace(info, args=(a, *info.args[1:]))
    assert resolve_sizes(fixed, shapes()).args[0].strides == (2**20, 1000, 1)
    with pytest.raises(ShapeError, match=r"--shape A: the kernel's A has a batch stride of 1048576, not 2000000"):
        resolve_sizes(fixed, shapes(A=BatchShape(6, 1000, 1000, None, 2_000_000)))


# -- the runner's buffers ----------------------------------------------------------------------------


def test_a_batch_is_laid_out_by_its_three_strides_padding_between_matrices() -> None:
    info = resolve_sizes(dynamic_batched(), shapes(3, 4, 8, 16, D=BatchShape(3, 4, 8, 16, 80)))
    d = info.args[2]
    assert buffer_elements(d.shape, d.strides) == 2 * 80 + 3 * 16 + 7 + 1
    idx = flat_indices(d)
    assert idx.shape == (3, 4, 8) and idx[2, 3, 7] == 2 * 80 + 3 * 16 + 7 and idx[1, 0, 0] == 80
    buf = np.arange(buffer_elements(d.shape, d.strides), dtype=np.float32)
    assert (matrix_view(buf, d) == idx).all()
    b = info.args[1]  # column-major: element (k, n) of batch i at i * bs + k + n * ld
    assert flat_indices(b)[1, 2, 3] == b.strides[0] + 2 + 3 * b.ld
    assert host_bytes(info) > 8 * (3 * 4 * 16 + 3 * 16 * 8 + 3 * 4 * 8)


# -- the Kernel on 3-d arrays -----------------------------------------------------------------------


ITEM = 2  # bf16


def batch_array(fake, batch: int, rows: int, cols: int, *, order: str = "C", ld: int | None = None,
                stride: int | None = None, dtype: str = "bf16", readonly: bool = False, offset: int = 0) -> Any:
    """A batch x rows x cols array in fresh fake GPU memory, each matrix row-major (C) or
    column-major (F) with leading dimension `ld`, `stride` elements apart (default dense)."""
    lines, extent = (rows, cols) if order == "C" else (cols, rows)
    ld = ld or extent
    stride = lines * ld if stride is None else stride
    size = (max(stride, 0) * max(batch - 1, 0) + lines * ld) * ITEM + 64
    matrix = (ld, 1) if order == "C" else (1, ld)
    return cai(fake.gpu_memory(size) + offset, (batch, rows, cols), dtype, (stride, *matrix), readonly)


def ptr(x: Any) -> int:
    return x.array.__cuda_array_interface__["data"][0]


def launched(fake, info: KernelInfo) -> tuple[tuple[int, int, int], list[int], list[int]]:
    """The one launch's grid, its pointers and its .u32 size values."""
    (fn, gx, gy, gz, bx, by, bz, smem, stream, params, extra), = fake.called("cuLaunchKernel")
    n = len(info.args)
    n_sizes = len(info.size_params or ())
    addresses = np.frombuffer(ctypes.string_at(params, 8 * (n + n_sizes)), np.uint64)
    pointers = [int(np.frombuffer(ctypes.string_at(int(p), 8), np.uint64)[0]) for p in addresses[:n]]
    sizes = [int(np.frombuffer(ctypes.string_at(int(p), 4), np.uint32)[0]) for p in addresses[n:]]
    return (gx, gy, gz), pointers, sizes


@pytest.fixture
def fake(monkeypatch):
    return install(monkeypatch)


def test_a_call_on_3d_arrays_launches_with_rank_3_maps_and_five_sizes_each(fake) -> None:
    info = dynamic_batched()
    a = batch_array(fake, 6, 1000, 1000, ld=1008)
    b = batch_array(fake, 6, 1000, 904, order="F", stride=1000 * 904 + 8)  # padding between matrices
    d = batch_array(fake, 6, 1000, 904)
    Kernel(b"cubin", info)(a, b, d)
    grid, pointers, sizes = launched(fake, info)
    assert grid == (4, 8, 6) and pointers == [ptr(a), ptr(b), ptr(d)]
    assert sizes == [1000, 1000, 1008, 6, 1008000, 1000, 904, 1000, 6, 904008, 1000, 904, 904, 6, 904000]
    ma, mb = fake.tensor_maps
    assert ma.args[1] == 3 and list(ma.args[3]) == [1000, 1000, 6] and list(ma.args[4]) == [2016, 2016000]
    assert list(ma.args[5]) == [64, 128, 1] and list(ma.args[6]) == [1, 1, 1]
    assert list(mb.args[3]) == [1000, 904, 6] and list(mb.args[4]) == [2000, 1808016]


def test_one_matrix_for_every_batch_takes_a_batch_of_one_or_an_expanded_view(fake) -> None:
    """A 2-d B: a 2-d array, a batch of 1, or an input's expanded view (batch stride 0)."""
    info = dynamic_batched(broadcast_b=True)
    kernel = Kernel(b"cubin", info)
    a, d = batch_array(fake, 6, 256, 128), batch_array(fake, 6, 256, 192)
    base = fake.gpu_memory(128 * 192 * ITEM)
    for b in (cai(base, (128, 192), "bf16", (1, 128)), cai(base, (1, 128, 192), "bf16", (7, 1, 128)),
              cai(base, (6, 128, 192), "bf16", (0, 1, 128))):
        kernel(a, b, d)
    assert len(fake.called("cuLaunchKernel")) == 3
    assert {tuple(m.args[3]) for m in fake.tensor_maps[1::2]} == {(128, 192)}
    # a static B compiled with a batch of 1 takes the same three
    static = static_batched(b_batch=1)
    k2 = Kernel(b"cubin", static)
    a2, d2 = batch_array(fake, 4, 200, 112), batch_array(fake, 4, 200, 136)
    base = fake.gpu_memory(112 * 136 * ITEM)
    for b in (cai(base, (112, 136), "bf16", (1, 112)), cai(base, (4, 112, 136), "bf16", (0, 1, 112))):
        k2(a2, b, d2)
    assert len(fake.called("cuLaunchKernel")) == 5


@pytest.mark.parametrize("case", ["rank", "two_d", "batch", "stride", "negative", "overlap", "expanded_out",
                                  "static_stride", "zero_stride", "layout"])
def test_each_bad_3d_array_is_refused_naming_it(fake, case) -> None:
    info = dynamic_batched()
    a, b, d = batch_array(fake, 6, 256, 128), batch_array(fake, 6, 128, 192, order="F"), batch_array(fake, 6, 256, 192)
    base = fake.gpu_memory(1 << 24)
    arrays, argument, message = {
        "rank": ([a, b, cai(base, (2, 6, 256, 192), "bf16")], "D",
                 r"argument D: the kernel takes a batch of matrices \(\?x\?x\?\), not an array of shape \(2, 6, 256, 192\)"),
        "two_d": ([cai(base, (256, 128), "bf16"), b, d], "A",
                  r"argument A: the kernel takes a batch of matrices \(\?x\?x\?\), not an array of shape \(256, 128\)"),
        "batch": ([a, batch_array(fake, 5, 128, 192, order="F"), d], "B", r"the batches do not make a GEMM: B has 5"),
        "stride": ([a, batch_array(fake, 6, 128, 192), d], "B", r"argument B: the kernel reads it column-major, strides \(batch_stride, 1, ld\)"),
        "negative": ([cai(base + 5 * 256 * 128 * ITEM, (6, 256, 128), "bf16", (-256 * 128, 128, 1)), b, d], "A",
                     r"argument A: its batch stride is -32768"),
        "overlap": ([a, b, batch_array(fake, 6, 256, 192, stride=192 * 200)], "D",
                    r"kernel argument D's batch stride is 38400 elements, below one matrix's extent"),
        "expanded_out": ([a, b, cai(base, (6, 256, 192), "bf16", (0, 192, 1))], "D",
                         r"kernel argument D's batch stride is 0: a batch of 6 matrices needs a positive one"),
        "static_stride": None,
        "zero_stride": ([cai(base, (6, 256, 128), "bf16", (0, 128, 1)), b, d], "A", r"kernel argument A's batch stride is 0"),
        "layout": ([a, b, batch_array(fake, 6, 256, 192, order="F")], "D", r"argument D: the kernel reads it row-major, strides \(batch_stride, ld, 1\)"),
    }[case] or _static_stride(fake)
    kernel = Kernel(b"cubin", static_batched() if case == "static_stride" else info)
    with pytest.raises(ArgumentError, match=message) as err:
        kernel(*arrays)
    assert err.value.argument == argument
    assert "cuLaunchKernel" not in fake.names and "cuTensorMapEncodeTiled" not in fake.names


def _static_stride(fake) -> tuple[list[Any], str, str]:
    a = batch_array(fake, 4, 200, 112, stride=200 * 112 + 64)
    return ([a, batch_array(fake, 4, 112, 136, order="F"), batch_array(fake, 4, 200, 136)], "A",
            r"argument A: the kernel was compiled for a batch stride of 22400 elements; the array's is 22464")


def test_an_output_overlapping_another_batch_is_refused_by_byte_spans(fake) -> None:
    """D's last matrix reaches into A's memory: the spans of the whole batches overlap."""
    info = dynamic_batched()
    base = fake.gpu_memory(1 << 24)
    d = cai(base, (6, 256, 192), "bf16")
    a = cai(base + 5 * 256 * 192 * ITEM, (6, 256, 128), "bf16")
    with pytest.raises(ArgumentError, match=r"argument D is an output, and its memory .* overlaps argument A's") as err:
        Kernel(b"cubin", info)(a, batch_array(fake, 6, 128, 192, order="F"), d)
    assert err.value.argument == "D"


def test_the_torch_key_holds_the_batch_stride() -> None:
    from lower_tc.lowering.runtime.callable import torch_key

    def tensor(stride: tuple[int, ...]) -> Any:
        t = type("Tensor", (), {"__module__": "torch"})()
        t.is_cuda, t.dtype, t.shape = True, "torch.bfloat16", (6, 256, 128)
        t.data_ptr, t.stride, t.get_device = (lambda: 0x1000), (lambda: stride), (lambda: 0)
        return t

    dense, padded = torch_key((tensor((256 * 128, 128, 1)),)), torch_key((tensor((256 * 128 + 64, 128, 1)),))
    assert dense != padded and dense[0][1] == (6, 256, 128) and dense[0][2] == (32768, 128, 1)


# -- the runner ------------------------------------------------------------------------------------


def gemm_on_the_host(spoil=None, broadcast_wrong: bool = False):
    """A `launch` that computes D[i] = A[i] x B[i] (+ C[i]) in float64 on the host buffers
    (the right answer, stored in D's type through its strides), then lets `spoil(info,
    buffers)` change it; `broadcast_wrong`: B's first matrix for every batch."""

    def launch(cubin, info, host_args, timeout):
        gemm = info.gemm
        out = [buf.copy() for buf in host_args]
        a = matrix_view(host_args[gemm.a], info.args[gemm.a]).astype(np.float64)
        b = matrix_view(host_args[gemm.b], info.args[gemm.b]).astype(np.float64)
        if broadcast_wrong:
            b = b[:1]
        d = np.matmul(a, b)
        if gemm.c is not None:
            d = d + matrix_view(host_args[gemm.c], info.args[gemm.c]).astype(np.float64)
        d_arg = info.args[gemm.d]
        out[gemm.d][flat_indices(d_arg)] = np.broadcast_to(d, d_arg.shape).astype(out[gemm.d].dtype)
        if spoil is not None:
            spoil(info, out)
        launch.sent = host_args
        return out, "fake GPU", [0] * len(out)

    return launch


def run_batched(monkeypatch, info: KernelInfo, given: dict | None, **kw: Any) -> running.RunResult:
    monkeypatch.setattr(running, "launch", gemm_on_the_host(**kw))
    return running.run_kernel(SimpleNamespace(info=info, cubin=b"cubin", reference=None), 11, shapes=given)


PADDED = shapes(5, 72, 40, 48, D=BatchShape(5, 72, 40, 40, 72 * 40 + 24), A=BatchShape(5, 72, 48, 56, 72 * 56 + 8))


@pytest.mark.parametrize("info, given", [
    (dynamic_batched(), PADDED),
    (dynamic_batched(broadcast_b=True), {**PADDED, "B": (48, 40, None)}),
    (dynamic_batched(b_rows=True, with_c=True), {**PADDED, "C": BatchShape(5, 72, 40)}),
    (dynamic_batched(dtype="e4m3", d_dtype="f32"), shapes(3, 65, 33, 64)),
    (static_batched(b_batch=1, pad=40), None),
], ids=["padded", "broadcast", "c", "e4m3", "static"])
def test_the_runner_checks_every_matrix_of_a_batch(monkeypatch, info, given) -> None:
    r = run_batched(monkeypatch, info, given)
    assert r.passed, r.summary()
    resolved = resolve_sizes(info, given)
    assert r.checked == resolved.gemm.batch * resolved.gemm.m * resolved.gemm.n and r.stray == 0


def _set(info: KernelInfo, buffers: list[np.ndarray], where: tuple[int, int, int] | int, value: float) -> None:
    d = info.args[info.gemm.d]
    index = where if isinstance(where, int) else flat_indices(d)[where]
    buffers[info.gemm.d][index] = value


@pytest.mark.parametrize("spoil, verdict", [
    (lambda info, out: _set(info, out, (4, 71, 39), 3.0), "mismatch"),  # the last matrix's last element
    (lambda info, out: _set(info, out, 72 * 40 + 3, 1.0), "stray"),  # the padding after matrix 0
    (lambda info, out: _set(info, out, (2, 10, 10), np.nan), "nan"),
], ids=["wrong", "padding", "nan"])
def test_a_wrong_value_a_write_between_matrices_or_nan_fails(monkeypatch, spoil, verdict) -> None:
    r = run_batched(monkeypatch, dynamic_batched(), PADDED, spoil=spoil)
    assert not r.passed, r.summary()
    assert (r.mismatches, r.stray, r.nan_count) == {"mismatch": (1, 0, 0), "stray": (0, 1, 0), "nan": (1, 0, 1)}[verdict]


def test_a_kernel_that_reads_one_b_for_every_batch_fails(monkeypatch) -> None:
    r = run_batched(monkeypatch, dynamic_batched(), PADDED, broadcast_wrong=True)
    assert not r.passed and r.mismatches > 4 * 72 * 40 // 2, r.summary()


def test_the_runner_draws_inputs_and_poisons_d_through_the_batch_strides(monkeypatch) -> None:
    launch = gemm_on_the_host()
    monkeypatch.setattr(running, "launch", launch)
    info = dynamic_batched()
    running.run_kernel(SimpleNamespace(info=info, cubin=b"cubin", reference=None), 3, shapes=PADDED)
    a, _, d = launch.sent
    assert len(d) == 4 * (72 * 40 + 24) + 71 * 40 + 40 and np.isnan(d.astype(np.float64)).all()
    assert len(a) == 4 * (72 * 56 + 8) + 71 * 56 + 48 and np.isfinite(a.astype(np.float64)).all()


def test_a_large_batch_is_sampled_matrices_and_points(monkeypatch) -> None:
    """5 x 512 x 512 x 1024 is past the full check: the first, the last and two random
    matrices in full (each within the limit), and 4096 points over every matrix; a NaN
    anywhere still fails."""
    given = shapes(5, 512, 512, 1024)
    assert 5 * 512 * 512 * 1024 > FULL_CHECK_LIMIT
    r = run_batched(monkeypatch, dynamic_batched(), given)
    assert r.passed, r.summary()
    assert r.checked in {n * 512 * 512 + 4096 for n in (2, 3, 4)}
    r = run_batched(monkeypatch, dynamic_batched(), given, spoil=lambda info, out: _set(info, out, (3, 5, 5), np.nan))
    assert not r.passed and r.nan_count == 1


def test_check_gemm_compares_a_batch_with_a_broadcast_operand() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(3, 8, 16)), rng.normal(size=(16, 4))
    info = resolve_sizes(dynamic_batched(broadcast_b=True), shapes(3, 8, 4, 16, B=(16, 4, None)))
    d = a @ b
    worst, bad, checked, missing, _ = check_gemm(info.gemm, {"a": a, "b": b}, d, "f32", "bf16", 1e-4, rng)
    assert (bad, checked, missing) == (0, 3 * 8 * 4, 0) and worst < 1e-12
    d[1, 2, 3] += 1
    assert check_gemm(info.gemm, {"a": a, "b": b}, d, "f32", "bf16", 1e-4, rng)[1] == 1


def test_run_cli_takes_a_batch_and_refuses_one_for_a_matrix_before_assembling(capsys, monkeypatch) -> None:
    from conftest import ROOT
    from lower_tc.lowering.backend import assembler
    from lower_tc.lowering.cli import run as run_cli
    from lower_tc.lowering.cli.main import main

    monkeypatch.setattr(assembler, "assemble", lambda *a, **k: pytest.fail("assembled before the sizes were checked"))
    example = str(ROOT / "examples" / "gemm_bf16_dynamic.mlir")
    code = main(["run", example, "--shape", "A=8x64x64@,4096", "--shape", "B=64x64", "--shape", "D=64x64"])
    err = capsys.readouterr().err
    assert code == 1 and err == ("lower-tc run: error: --shape A=8x64x64: the kernel's A is one matrix (?x?), the same "
                                 "for every batch: give --shape A=ROWSxCOLS\n")
    with pytest.raises(SystemExit):
        main(["run", example, "--shape", "A=8x64x64@64,"])
    assert "NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]]" in capsys.readouterr().err
    kernels = [SimpleNamespace(info=dynamic_batched())]
    own = run_cli._kernel_shapes(kernels, {"A": BatchShape(6, 64, 64), "B": BatchShape(6, 64, 64), "D": BatchShape(6, 64, 64)})
    assert own == [{"A": (6, 64, 64, None, None), "B": (6, 64, 64, None, None), "D": (6, 64, 64, None, None)}]


def test_a_batch_of_one_known_at_launch_keeps_a_2d_map() -> None:
    """B compiled as memref<1x?x?x...> is one matrix for every batch: the lowering gives
    it a 2-d tensor map (box of two), filled with its matrix alone."""
    info = dynamic_batched()
    b = replace(info.args[1], shape=(1, None, None))
    tm = replace(info.tensor_maps[1], box=(64, 256))
    one = replace(info, args=(info.args[0], b, info.args[2]), tensor_maps=(info.tensor_maps[0], tm))
    got = resolve_sizes(one, shapes(B=BatchShape(1, 1000, 904)))
    assert got.tensor_maps[1].global_dims == (1000, 904) and got.tensor_maps[1].global_strides == (2000,)
    assert got.args[1].shape == (1, 1000, 904)


@pytest.mark.parametrize("options, grid", [
    ("", (128, 1, 1)),  # persistent: the 4 x 4 tiles (128 x 192) of 8 matrices, 128 CTAs (132 SMs)
    ('schedule = "pipelined", raster = 0', (4, 4, 8)),  # row order: the batch as grid z
])
def test_a_compiled_batched_kernel_launches_on_3d_arrays(fake, options, grid) -> None:
    import sys

    from conftest import ROOT
    from lower_tc.lowering.compile import compile_source

    sys.path.insert(0, str(ROOT / "bench"))
    from gemm_sweep import GemmCase

    case = GemmCase("bf16", "bf16", "f32", "bf16", 500, 600, 256, True, False, None, batch=8, options=options)
    (compiled,) = compile_source(case.source(), case.name)
    info = compiled.info
    a, b, d = batch_array(fake, 8, 500, 256), batch_array(fake, 8, 256, 600, order="F"), batch_array(fake, 8, 500, 600)
    Kernel(b"cubin", info)(a, b, d)
    got, pointers, sizes = launched(fake, info)
    # HBM bounds 128 x 256 (96 CTAs) and 128 x 192 (128) alike in the model: the one with more bytes in flight
    assert (info.gemm.config.bm, info.gemm.config.bn) == (128, 192) and got == grid
    assert pointers == [ptr(a), ptr(b), ptr(d)] and sizes == []
    assert all(m.args[1] == 3 for m in fake.tensor_maps)  # every map over a batch: rank 3
