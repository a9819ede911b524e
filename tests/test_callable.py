"""A compiled kernel called on the caller's arrays (lowering/runtime/callable.py), on the
CPU: fake arrays (objects with a `__cuda_array_interface__` dict over the fake driver's
GPU memory) and the fake CUDA of tests/fake_cuda.py. Every bad input is refused with the
right LaunchError, naming the argument, before anything is launched (the fake driver
records every call); a good call launches once with the parameters in the PTX entry's
order; the module, the resolved sizes and the tensor maps are cached; the stream is the
one given, or the arrays' framework's current one."""

from __future__ import annotations

import ctypes
import sys
import types
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from conftest import ROOT
from fake_cuda import SMS, FakeDriver, install
from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime import session
from lower_tc.lowering.runtime.arrays import lower_tc_dtype, reinterpret, view_of
from lower_tc.lowering.runtime.callable import Kernel
from lower_tc.lowering.runtime.errors import (
    ArgumentCountError, ArgumentError, CudaUnavailable, DeviceError, LaunchError,
)

ITEMSIZE = {"bf16": 2, "f16": 2, "f32": 4, "s8": 1, "u8": 1, "s32": 4, "u16": 2, "f64": 8}
TYPESTR = {"bf16": "<u2", "f16": "<f2", "f32": "<f4", "s8": "|i1", "u8": "|u1", "s32": "<i4", "u16": "<u2", "f64": "<f8"}

#: A static GEMM: f16 A row-major 128x64, B column-major 64x128 (ld 64), D f32 128x128.
STATIC = """
func.func @gemm_static(%A: memref<128x64xf16>, %B: memref<64x128xf16, strided<[1, 64]>>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x64xf16>, memref<64x128xf16, strided<[1, 64]>>, memref<128x128xf32>
  func.return
}
"""


class CaiArray:
    """A GPU array known only by its `__cuda_array_interface__` (as Numba's are)."""

    def __init__(self, ptr: int, shape: tuple[int, ...], dtype: str, strides: tuple[int, ...] | None = None, readonly: bool = False):
        size = ITEMSIZE[dtype]
        self.__cuda_array_interface__ = {
            "version": 3, "shape": shape, "typestr": TYPESTR[dtype], "data": (ptr, readonly),
            "strides": None if strides is None else tuple(s * size for s in strides),
        }


def cai(ptr: int, shape: tuple[int, ...], dtype: str, strides: tuple[int, ...] | None = None, readonly: bool = False) -> Any:
    """A CaiArray; bf16 as CuPy passes it: uint16 bits, reinterpreted."""
    if dtype == "bf16":
        return reinterpret(CaiArray(ptr, shape, "u16", strides, readonly), "bf16")
    return CaiArray(ptr, shape, dtype, strides, readonly)


def gpu_array(fake: FakeDriver, rows: int, cols: int, dtype: str, *, order: str = "C", ld: int | None = None,
              device: int = 0, offset: int = 0, readonly: bool = False) -> Any:
    """A rows x cols matrix in fresh fake GPU memory: C order (row-major) or F order
    (column-major), with leading dimension `ld` and `offset` bytes past the allocation."""
    extent = cols if order == "C" else rows
    ld = ld or extent
    strides = (ld, 1) if order == "C" else (1, ld)
    base = fake.gpu_memory(ld * (rows if order == "C" else cols) * ITEMSIZE[dtype] + 64, device)
    return cai(base + offset, (rows, cols), dtype, strides, readonly)


@pytest.fixture(scope="module")
def dynamic() -> KernelInfo:
    (kernel,) = compile_source((ROOT / "examples" / "gemm_bf16_dynamic.mlir").read_text(), "dyn.mlir")
    return kernel.info


@pytest.fixture(scope="module")
def static() -> KernelInfo:
    (kernel,) = compile_source(STATIC, "static.mlir")
    return kernel.info


@pytest.fixture
def fake(monkeypatch) -> FakeDriver:
    return install(monkeypatch)


def static_args(fake: FakeDriver) -> list[CaiArray]:
    return [gpu_array(fake, 128, 64, "f16"), gpu_array(fake, 64, 128, "f16", order="F"), gpu_array(fake, 128, 128, "f32")]


def dynamic_args(fake: FakeDriver, m: int = 1000, n: int = 904, k: int = 1000, lda: int | None = 1008) -> list[CaiArray]:
    return [gpu_array(fake, m, k, "bf16", ld=lda), gpu_array(fake, k, n, "bf16"), gpu_array(fake, m, n, "bf16")]


# -- element types and views --------------------------------------------------------------


@pytest.mark.parametrize("name, dtype", [
    ("torch.bfloat16", "bf16"), ("bfloat16", "bf16"), ("float8_e4m3fn", "e4m3"), ("torch.float8_e5m2", "e5m2"),
    ("float16", "f16"), ("torch.float16", "f16"), ("float32", "f32"), ("int8", "s8"), ("uint8", "u8"),
    ("int32", "s32"), ("dtype('float16')", "f16"), ("float64", None), ("uint16", None), ("float8_e4m3fnuz", None),
])
def test_framework_dtypes_map_to_lower_tc_names(name: str, dtype: str | None) -> None:
    assert lower_tc_dtype(name) == dtype


def test_a_cai_array_is_read_with_its_strides_and_device(fake) -> None:
    a = gpu_array(fake, 6, 10, "f16", order="F", ld=8, device=0)
    v = view_of(a, "A")
    assert (v.shape, v.strides, v.dtype, v.device_id, v.readonly) == ((6, 10), (1, 8), "f16", 0, False)
    assert v.span() == (v.ptr, v.ptr + (5 + 9 * 8 + 1) * 2)
    c_order = CaiArray(fake.gpu_memory(64), (2, 3), "s32")
    assert view_of(c_order, "C").strides == (3, 1)


def test_cupy_bf16_bits_pass_through_reinterpret_only(fake) -> None:
    bits = gpu_array(fake, 4, 8, "u16")
    with pytest.raises(ArgumentError, match=r"argument A: lower-tc has no element type for typestr '<u2'.*reinterpret") as err:
        view_of(bits, "A")
    assert err.value.argument == "A"
    assert view_of(reinterpret(bits, "bf16"), "A").dtype == "bf16"
    with pytest.raises(ArgumentError, match=r"reinterpret as bf16 needs 16-bit elements; the array's are f32"):
        view_of(reinterpret(gpu_array(fake, 4, 8, "f32"), "bf16"), "A")


def test_a_cpu_array_is_refused_by_name_with_or_without_cuda_core(fake, monkeypatch) -> None:
    for absent in (False, True):
        if absent:
            monkeypatch.setattr(session, "load_core", lambda: (_ for _ in ()).throw(CudaUnavailable("no cuda.core")))
        with pytest.raises(ArgumentError, match=r"argument B is in CPU memory, not on a GPU: a ndarray") as err:
            view_of(np.zeros((4, 4), np.float16), "B")
        assert err.value.argument == "B"
    host = CaiArray(0x1234000, (4, 4), "f16")  # an address the driver does not know
    with pytest.raises(ArgumentError, match=r"argument A is in host memory"):
        view_of(host, "A")


def test_a_gpu_dlpack_array_needs_cuda_core(fake, monkeypatch) -> None:
    class GpuDlpack:
        def __dlpack__(self, stream=None):  # pragma: no cover - never reached
            raise AssertionError

        def __dlpack_device__(self):
            return (2, 0)

    monkeypatch.setattr(session, "load_core", lambda: (_ for _ in ()).throw(CudaUnavailable("launching a kernel needs NVIDIA's cuda.core")))
    with pytest.raises(CudaUnavailable, match="needs NVIDIA's cuda.core"):
        view_of(GpuDlpack(), "A")


def test_what_is_no_array_is_named() -> None:
    with pytest.raises(ArgumentError, match=r"argument A is a list, not a GPU array"):
        view_of([1, 2], "A")
    DynamicJaxprTracer = type("DynamicJaxprTracer", (), {})
    with pytest.raises(ArgumentError, match=r"argument A is a JAX tracer .*outside jax.jit"):
        view_of(DynamicJaxprTracer(), "A")


# -- bad input: each refused before anything is launched -----------------------------------


def _refused(fake: FakeDriver, kernel: Kernel, arrays: list[Any], error: type[LaunchError], pattern: str, **kw: Any) -> LaunchError:
    with pytest.raises(error, match=pattern) as caught:
        kernel(*arrays, **kw)
    assert "cuLaunchKernel" not in fake.names
    assert "cuTensorMapEncodeTiled" not in fake.names
    return caught.value


BAD_STATIC = {
    "cpu array": (lambda f, a: [a[0], np.zeros((64, 128), np.float16), a[2]], ArgumentError, "B",
                  r"argument B is in CPU memory, not on a GPU"),
    "dtype": (lambda f, a: [gpu_array(f, 128, 64, "bf16"), a[1], a[2]], ArgumentError, "A",
              r"argument A: the kernel takes f16 elements, not bf16"),
    "shape": (lambda f, a: [gpu_array(f, 128, 32, "f16"), a[1], a[2]], ArgumentError, "A",
              r"argument A: the kernel takes 128x64, not 128x32"),
    "not a matrix": (lambda f, a: [a[0], a[1], CaiArray(f.gpu_memory(65536), (128, 128, 1), "f32")], ArgumentError, "D",
                     r"argument D: the kernel takes a matrix \(128x128\), not an array of shape \(128, 128, 1\)"),
    "strides": (lambda f, a: [a[0], gpu_array(f, 64, 128, "f16"), a[2]], ArgumentError, "B",
                r"argument B: the kernel reads it column-major, strides \(1, ld\) with ld >= 64; the array's strides are \(128, 1\)"),
    "leading dimension": (lambda f, a: [a[0], gpu_array(f, 64, 128, "f16", order="F", ld=72), a[2]], ArgumentError, "B",
                          r"argument B: the kernel was compiled for a leading dimension of 64 elements; the array's is 72"),
    "alignment": (lambda f, a: [gpu_array(f, 128, 64, "f16", offset=8), a[1], a[2]], ArgumentError, "A",
                  r"argument A: its address 0x[0-9a-f]+ is not a multiple of 16 bytes"),
    "overlap": (lambda f, a: [a[0], a[1], CaiArray(a[0].__cuda_array_interface__["data"][0], (128, 128), "f32")],
                ArgumentError, "D", r"argument D is an output, and its memory .* overlaps argument A's"),
    "read-only output": (lambda f, a: [a[0], a[1], gpu_array(f, 128, 128, "f32", readonly=True)], ArgumentError, "D",
                         r"argument D is an output, and the array is read-only"),
    "negative stride": (lambda f, a: [CaiArray(a[0].__cuda_array_interface__["data"][0] + 127 * 128, (128, 64), "f16", (-64, 1)), a[1], a[2]],
                        ArgumentError, "A", r"argument A: the kernel reads it row-major"),
}


@pytest.mark.parametrize("case", BAD_STATIC)
def test_each_bad_input_is_refused_by_name_before_launching(fake, static, case: str) -> None:
    make, error, argument, pattern = BAD_STATIC[case]
    kernel = Kernel(b"cubin", static)
    err = _refused(fake, kernel, make(fake, static_args(fake)), error, pattern)
    assert err.argument == argument
    assert "ObjectCode.from_cubin" not in fake.names  # refused before the module was loaded


def test_arrays_on_two_devices_are_refused(fake, static) -> None:
    a, b, d = static_args(fake)
    other = gpu_array(fake, 64, 128, "f16", order="F", device=1)
    _refused(fake, Kernel(b"cubin", static), [a, other, d], DeviceError,
             r"arguments A and B are on two devices \(GPU 0 and GPU 1\)")


@pytest.mark.parametrize("capability, target, pattern", [
    ((9, 0), "sm_100a", r"kernel gemm_static is for sm_100a \(compute capability 10.0\); GPU 0 \(NVIDIA H100 80GB HBM3\) is 9.0"),
    ((10, 0), "sm_90a", r"kernel gemm_static is for sm_90a \(compute capability 9.0\); GPU 0 \(NVIDIA B200\) is 10.0"),
])
def test_a_kernel_for_another_gpu_is_refused(monkeypatch, static, capability, target, pattern) -> None:
    fake = install(monkeypatch, FakeDriver(capability=capability))
    _refused(fake, Kernel(b"cubin", replace(static, target=target)), static_args(fake), DeviceError, pattern)
    assert "ObjectCode.from_cubin" not in fake.names


def test_the_wrong_number_of_arrays_is_a_type_error(fake, static) -> None:
    err = _refused(fake, Kernel(b"cubin", static), static_args(fake)[:2], ArgumentCountError,
                   r"kernel gemm_static takes 3 arrays \(A, B, D\), not 2")
    assert isinstance(err, TypeError)


def test_a_bad_stream_is_refused(fake, static) -> None:
    err = _refused(fake, Kernel(b"cubin", static), static_args(fake), ArgumentError, r"stream=str: a stream is", stream="s1")
    assert err.argument == "stream"


@pytest.mark.parametrize("arrays, argument, pattern", [
    (lambda f: dynamic_args(f, lda=1001), "A", r"kernel argument A's leading dimension is 2002 bytes: TMA needs a multiple of 16"),
    (lambda f: [gpu_array(f, 64, 96, "bf16"), gpu_array(f, 64, 64, "bf16"), gpu_array(f, 64, 64, "bf16")], "B",
     r"the shapes do not make a GEMM: A 64x96, B 64x64, D 64x64"),
    (lambda f: [gpu_array(f, 64, 64, "bf16", ld=64), gpu_array(f, 64, 64, "bf16"), gpu_array(f, 64, 64, "bf16", ld=2**31)], "D",
     r"kernel argument D's leading dimension"),
])
def test_sizes_known_at_launch_are_checked_against_the_limits(fake, dynamic, arrays, argument, pattern) -> None:
    err = _refused(fake, Kernel(b"cubin", dynamic), arrays(fake), ArgumentError, pattern)
    assert err.argument == argument


# -- a good call ------------------------------------------------------------------------------


def test_a_call_launches_once_with_the_parameters_in_the_entrys_order(fake, dynamic) -> None:
    kernel = Kernel(b"cubin", dynamic)
    a, b, d = dynamic_args(fake)
    kernel(a, b, d, stream=77)
    (fn, gx, gy, gz, bx, by, bz, smem, stream, params, extra), = fake.called("cuLaunchKernel")
    assert (fn, stream, extra) == ("fn", 77, 0)
    assert (gx, gy, gz) == (-(-904 // dynamic.gemm.config.bn), -(-1000 // dynamic.gemm.config.bm), 1)
    assert (bx, by, bz, smem) == (dynamic.threads, 1, 1, dynamic.smem_bytes)
    # the block: a u64 address per argument, the .u32 sizes (rows, cols, ld of each), the maps
    n_sizes = len(dynamic.size_params)
    addresses = np.frombuffer(ctypes.string_at(params, 8 * (3 + n_sizes + 2)), np.uint64)
    pointers = [int(np.frombuffer(ctypes.string_at(int(p), 8), np.uint64)[0]) for p in addresses[:3]]
    assert pointers == [x.array.__cuda_array_interface__["data"][0] for x in (a, b, d)]
    sizes = [int(np.frombuffer(ctypes.string_at(int(p), 4), np.uint32)[0]) for p in addresses[3:3 + n_sizes]]
    assert sizes == [{"rows": r, "cols": c, "ld": ld}[p.what] for p in dynamic.size_params
                     for r, c, ld in [{0: (1000, 1000, 1008), 1: (1000, 904, 904), 2: (1000, 904, 904)}[p.arg]]]
    assert [int(x) for x in addresses[3 + n_sizes:]] == [m.getPtr() for m in fake.tensor_maps]
    assert [list(m.args[3]) for m in fake.tensor_maps] == [[1000, 1000], [904, 1000]]
    assert fake.tensor_maps[0].args[2] == pointers[0] and fake.tensor_maps[0].args[4] == [2016]


def test_the_module_sizes_and_tensor_maps_are_cached(fake, dynamic) -> None:
    kernel = Kernel(b"cubin", dynamic)
    first = dynamic_args(fake)
    for _ in range(3):
        kernel(*first)
    assert fake.names.count("ObjectCode.from_cubin") == 1 and fake.names.count("cuKernelGetFunction") == 1
    assert fake.names.count("cuTensorMapEncodeTiled") == 2  # A's and B's maps, once
    assert fake.names.count("cuLaunchKernel") == 3
    assert kernel.cache_info() == {"sizes": (0, 1), "launches": (2, 1)}
    params = {args[9] for args in fake.called("cuLaunchKernel")}
    assert len(params) == 1  # one parameter block, made once
    other = dynamic_args(fake)  # the same sizes at other addresses: new maps, the same sizes
    kernel(*other)
    assert fake.names.count("cuTensorMapEncodeTiled") == 4
    assert kernel.cache_info() == {"sizes": (1, 1), "launches": (2, 2)}
    kernel(*first)
    assert fake.names.count("cuTensorMapEncodeTiled") == 4 and kernel.cache_info()["launches"] == (3, 2)
    kernel(*dynamic_args(fake, m=512, n=512, k=256, lda=None))  # other sizes: resolved again
    assert kernel.cache_info() == {"sizes": (1, 2), "launches": (3, 3)}
    # a bad argument at a cached launch's addresses is still refused: the key holds every field
    a, b, d = first
    with pytest.raises(ArgumentError, match="read-only"):
        kernel(a, b, cai(d.array.__cuda_array_interface__["data"][0], (1000, 904), "bf16", readonly=True))


def test_a_persistent_kernel_fills_the_gpu_in_whole_clusters(fake) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from gemm_sweep import GemmCase

    case = GemmCase("bf16", "bf16", "f32", "bf16", 4096, 4096, 4096, True, True, None, options="cluster = 2")
    (compiled,) = compile_source(case.source(), case.name)
    arrays = [gpu_array(fake, 4096, 4096, "bf16", ld=a.ld) for a in compiled.info.args]
    Kernel(b"cubin", compiled.info)(*arrays)
    (_, gx, gy, gz, *_), = fake.called("cuLaunchKernel")
    assert (gx, gy, gz) == (SMS - SMS % 2, 1, 1)
    assert fake.called("cuFuncSetAttribute")[0][-1] == compiled.info.smem_bytes > 48 * 1024


def test_an_f32_array_feeds_a_tf32_argument(fake) -> None:
    source = """
func.func @gemm_tf32(%A: memref<128x64xtf32>, %B: memref<64x128xtf32, strided<[1, 64]>>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x64xtf32>, memref<64x128xtf32, strided<[1, 64]>>, memref<128x128xf32>
  func.return
}
"""
    (compiled,) = compile_source(source, "tf32.mlir")
    arrays = [gpu_array(fake, 128, 64, "f32"), gpu_array(fake, 64, 128, "f32", order="F"), gpu_array(fake, 128, 128, "f32")]
    Kernel(b"cubin", compiled.info)(*arrays)
    assert fake.names.count("cuLaunchKernel") == 1
    assert [m.args[0] for m in fake.tensor_maps] == [7, 7]  # FLOAT32: the tensor cores read tf32


def test_a_single_row_or_column_needs_no_stride(fake, dynamic) -> None:
    """torch gives a 1 x N matrix any row stride: the leading dimension is then the
    contiguous extent rounded up to 16 bytes (only one row is read)."""
    a = cai(fake.gpu_memory(4096), (1, 100), "bf16", (1, 1))
    b = gpu_array(fake, 100, 64, "bf16")
    d = gpu_array(fake, 1, 64, "bf16")
    Kernel(b"cubin", dynamic)(a, b, d)
    assert fake.tensor_maps[0].args[3] == [100, 1] and fake.tensor_maps[0].args[4] == [208]


def test_the_kernels_context_is_made_current_where_another_is(fake, static) -> None:
    kernel = Kernel(b"cubin", static)
    kernel(*static_args(fake))
    assert fake.names.count("cuCtxSetCurrent") == 0  # set_current made it current
    fake.current_context = 0x99  # another library's context on this thread
    kernel(*static_args(fake))
    assert fake.called("cuCtxSetCurrent") == [(0xC0,)]


# -- streams ----------------------------------------------------------------------------------


class ProtocolStream:
    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, 4242)


def _framework_array(fake: FakeDriver, module: str, rows: int, cols: int, dtype: str, order: str = "C") -> Any:
    """A fake array whose type lives in `module` (as torch.Tensor lives in torch)."""
    base = gpu_array(fake, rows, cols, dtype, order=order)
    cls = type("Tensor", (), {"__module__": module, "is_cuda": True, "device": "cuda:0", "get_device": lambda self: 0})
    obj = cls()
    obj.__cuda_array_interface__ = base.__cuda_array_interface__
    return obj


def test_the_stream_given_or_the_frameworks_current_one(fake, static, monkeypatch) -> None:
    kernel = Kernel(b"cubin", static)
    kernel(*static_args(fake))
    kernel(*static_args(fake), stream=ProtocolStream())
    kernel(*static_args(fake), stream=5)
    torch = types.SimpleNamespace(_C=types.SimpleNamespace(_cuda_getCurrentRawStream=lambda index: 1234 + index))
    cupy = types.SimpleNamespace(cuda=types.SimpleNamespace(get_current_stream=lambda: types.SimpleNamespace(ptr=5678)))
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    a, b, d = static_args(fake)
    kernel(a, b, _framework_array(fake, "torch", 128, 128, "f32"))
    kernel(_framework_array(fake, "cupy._core.core", 128, 64, "f16"), b, gpu_array(fake, 128, 128, "f32"))
    torch_stream = type("Stream", (), {"__module__": "torch.cuda.streams", "cuda_stream": 31})()
    kernel(*static_args(fake), stream=torch_stream)
    assert [args[8] for args in fake.called("cuLaunchKernel")] == [0, 4242, 5, 1234, 5678, 31]


# -- the Kernel a user reads -------------------------------------------------------------------


def test_a_kernel_says_what_it_takes(static) -> None:
    kernel = Kernel(b"cubin", static)
    assert (kernel.name, kernel.target, kernel.info) == ("gemm_static", "sm_90a", static)
    assert [(a.name, a.dtype, a.shape, a.output) for a in kernel.args] == [
        ("A", "f16", (128, 64), False), ("B", "f16", (64, 128), False), ("D", "f32", (128, 128), True)]
    assert repr(kernel) == "<lower_tc.Kernel gemm_static (sm_90a): (A: f16[128x64], B: f16[64x128]) -> (D: f32[128x128])>"
    assert "B: f16[64x128]  column-major, strides (1, ld)" in kernel.signature()
    with pytest.raises(ValueError, match="needs the cubin's bytes"):
        Kernel(b"", static)


class _Device:
    def __init__(self, kind: str, index: int | None) -> None:
        self.type, self.index = kind, index


def _torch_like(dtype: str, bits: int, *, cuda: bool = True, ptr: int = 0x7F0000001000,
                shape: tuple[int, int] = (64, 32), stride: tuple[int, int] = (1, 64)):
    """A stand-in for a torch tensor: its type lives in `torch`, and it answers what the
    fast path reads (data_ptr, shape, stride, dtype, element_size, device)."""
    cls = type("Tensor", (), {"__module__": "torch"})
    t = cls()
    t.is_cuda, t.dtype, t.shape, t.device = cuda, dtype, shape, _Device("cuda" if cuda else "cpu", 0 if cuda else None)
    t.data_ptr, t.stride, t.element_size = (lambda: ptr), (lambda: stride), (lambda: bits // 8)
    t.get_device = lambda: 0 if cuda else -1
    return t


def test_a_torch_tensor_is_read_from_its_own_attributes_fp8_too() -> None:
    v = view_of(_torch_like("torch.float8_e4m3fn", 8), "A")
    assert (v.ptr, v.shape, v.strides, v.dtype, v.device_id, v.readonly) == (0x7F0000001000, (64, 32), (1, 64), "e4m3", 0, False)
    assert view_of(_torch_like("torch.bfloat16", 16), "A").dtype == "bf16"
    with pytest.raises(ArgumentError, match="argument B is in CPU memory") as err:
        view_of(_torch_like("torch.float16", 16, cuda=False), "B")
    assert err.value.argument == "B"
    with pytest.raises(ArgumentError) as err:
        view_of(_torch_like("torch.float64", 64), "C")
    assert err.value.argument == "C"


def test_a_call_on_torch_tensors_seen_before_builds_no_view(fake, static, monkeypatch) -> None:
    import lower_tc.lowering.runtime.callable as callable_module

    kernel = Kernel(b"cubin", static)
    a, b, d = (
        _torch_like("torch.float16", 16, ptr=fake.gpu_memory(128 * 64 * 2), shape=(128, 64), stride=(64, 1)),
        _torch_like("torch.float16", 16, ptr=fake.gpu_memory(64 * 128 * 2), shape=(64, 128), stride=(1, 64)),
        _torch_like("torch.float32", 32, ptr=fake.gpu_memory(128 * 128 * 4), shape=(128, 128), stride=(128, 1)),
    )
    seen = []
    real = callable_module.view_of
    monkeypatch.setattr(callable_module, "view_of", lambda x, *args, **kw: seen.append(x) or real(x, *args, **kw))
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(_C=types.SimpleNamespace(_cuda_getCurrentRawStream=lambda i: 9)))
    kernel(a, b, d)
    kernel(a, b, d)
    assert len(seen) == 3 and len(fake.called("cuLaunchKernel")) == 2
    wrong = _torch_like("torch.float32", 32, ptr=fake.gpu_memory(128 * 64 * 4), shape=(128, 64), stride=(64, 1))
    with pytest.raises(ArgumentError) as err:  # a new tensor: read and checked in full
        kernel(wrong, b, d)
    assert err.value.argument == "A" and len(fake.called("cuLaunchKernel")) == 2


def test_a_dependent_launch_is_configured_once_per_stream_and_the_switch_read_at_each_call(fake, static, monkeypatch) -> None:
    """A whole GEMM (metadata "dependent_launch") goes to cuLaunchKernelEx with programmatic
    stream serialization allowed; its configuration is built at the first call on each
    stream and reused (building one costs microseconds of host time);
    LOWER_TC_DEPENDENT_LAUNCH=0 set after the first calls launches the next plainly."""
    assert static.dependent_launch
    built = []

    class Counted(FakeDriver.CUlaunchConfig):
        def __init__(self) -> None:
            built.append(self)

    monkeypatch.setattr(fake, "CUlaunchConfig", Counted, raising=False)
    kernel = Kernel(b"cubin", static)
    args = static_args(fake)
    for stream in (5, 5, 6, 5):
        kernel(*args, stream=stream)
    assert len(built) == 2 and [launch[8] for launch in fake.called("cuLaunchKernel")] == [5, 5, 6, 5]
    assert fake.dependent_launches == [{"CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION":
                                        {"programmaticStreamSerializationAllowed": 1}}] * 4
    monkeypatch.setenv("LOWER_TC_DEPENDENT_LAUNCH", "0")
    kernel(*args, stream=5)
    assert len(fake.dependent_launches) == 4 and len(fake.called("cuLaunchKernel")) == 5
