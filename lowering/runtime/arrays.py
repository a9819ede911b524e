"""A caller's array as the launcher sees it: `ArrayView` (address, shape, strides in
elements, lower-tc's element type, device, read-only), read from the array's DLPack or
`__cuda_array_interface__` without copying it or touching its data.

- DLPack (`__dlpack__`: PyTorch, CuPy, JAX, NumPy) is read through cuda.core's
  `StridedMemoryView.from_any_interface` (DLPack first; its fast path for torch tensors).
  It carries bf16 and the fp8 types (as ml_dtypes' dtypes). It is read with no stream
  ordering (`stream_ptr=-1`): the kernel is launched on the stream the caller names or the
  framework's current one (lowering/runtime/streams.py), where the caller orders its own
  work on the arrays. The exception is a producer that has no current stream lower-tc can
  see (JAX): it is asked for the array as ready on the launch stream (`view_of`'s
  `stream`). JAX arrays are read-only (immutable).
- `__cuda_array_interface__` (version 2 or 3, e.g. Numba, or an object that only has the
  dict, like the CPU tests' fakes) is read here from the dict itself (shape, typestr,
  data, strides in bytes or None for C order); its device is the driver's answer for the
  pointer (`cuPointerGetAttribute`), and memory the driver does not know is host memory.
- Element types by name: PyTorch's, CuPy's and ml_dtypes' (``bfloat16`` -> ``bf16``,
  ``float8_e4m3fn`` -> ``e4m3``, ``float8_e5m2`` -> ``e5m2``, ``float16`` -> ``f16``,
  ``float32`` -> ``f32``, ``int8`` -> ``s8``, ``uint8`` -> ``u8``, ``int32`` -> ``s32``).
  A kernel argument declared ``tf32`` takes ``f32`` arrays (lowering/runtime/arguments.py).
- CuPy has no bf16 or fp8 dtype, and `__cuda_array_interface__`'s typestrs cannot name
  them (``<u2`` is uint16, ``<V2`` any two bytes). Such data is passed as its bits,
  explicitly: ``reinterpret(x.view(cupy.uint16), "bf16")`` (or ``uint8`` bits as
  ``"e4m3"``/``"e5m2"``). `reinterpret` only renames the type, for an array whose
  elements have the same width; a bare uint16 array is never taken as bf16.

A CPU array (DLPack's CPU device, or a pointer the driver does not know) is an
ArgumentError naming the argument.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lower_tc.layout import element_type
from lower_tc.lowering.runtime import session
from lower_tc.lowering.runtime.errors import ArgumentError

#: lower-tc's element type for each dtype name of PyTorch, CuPy/NumPy and ml_dtypes.
DTYPE_NAMES: dict[str, str] = {
    "bfloat16": "bf16",
    "float16": "f16",
    "half": "f16",
    "float32": "f32",
    "float": "f32",
    "float8_e4m3fn": "e4m3",
    "float8_e5m2": "e5m2",
    "int8": "s8",
    "uint8": "u8",
    "int32": "s32",
}

#: lower-tc's element type for each `__cuda_array_interface__` typestr it can name
#: (byte order '<' or '|' or '='; bf16 and fp8 have none: see `reinterpret`).
TYPESTRS: dict[str, str] = {"f2": "f16", "f4": "f32", "i1": "s8", "u1": "u8", "i4": "s32"}

#: DLPack device types (dlpack.h DLDeviceType) whose memory a kernel can read.
DLPACK_GPU_DEVICES = {2: "CUDA", 3: "CUDA host (pinned)", 13: "CUDA managed"}
DLPACK_CPU = 1


def element_bits(dtype: str) -> int:
    """Bits per element in memory: the operand type's width (4- and 6-bit types packed),
    or 32 for s32, the integer accumulator's type. An unknown name is a LayoutError."""
    return 32 if dtype == "s32" else element_type(dtype).bits


@dataclass(frozen=True)
class ArrayView:
    """One argument's memory: the base address, shape, strides in elements (not bytes),
    lower-tc's element type, the device, whether it may be written, and the object it
    was read from (kept alive while the view is used)."""

    ptr: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: str
    device_id: int
    readonly: bool = False
    owner: Any = field(default=None, compare=False, repr=False)

    @property
    def bits(self) -> int:
        return element_bits(self.dtype)

    def span(self) -> tuple[int, int]:
        """The bytes [start, end) the array's elements lie in (negative strides reach
        below the base address)."""
        low = sum((n - 1) * s for n, s in zip(self.shape, self.strides) if s < 0)
        high = sum((n - 1) * s for n, s in zip(self.shape, self.strides) if s > 0)
        return self.ptr + low * self.bits // 8, self.ptr + -(-(high + 1) * self.bits // 8)


@dataclass(frozen=True)
class Reinterpreted:
    """An array whose elements are to be read as another type of the same width (CuPy's
    uint16 bits as bf16, uint8 bits as e4m3): what `reinterpret` returns."""

    array: Any
    dtype: str


def reinterpret(array: Any, dtype: str) -> Reinterpreted:
    """`array` with its elements read as lower-tc's type `dtype` ("bf16", "e4m3", ...),
    which must have their width: the way to pass bf16 or fp8 data from a library that has
    no such dtype (CuPy: ``reinterpret(x.view(cupy.uint16), "bf16")``)."""
    element_bits(dtype)  # a LayoutError names the known types
    return Reinterpreted(array, dtype)


def lower_tc_dtype(name: str) -> str | None:
    """lower-tc's element type for a framework's dtype name (``torch.bfloat16``,
    ``float8_e4m3fn``, ``dtype('float16')``), or None where it has none."""
    name = str(name).removeprefix("torch.").removeprefix("dtype('").removesuffix("')")
    return DTYPE_NAMES.get(name)


def view_of(obj: Any, name: str, *, device_of: Callable[[int], int | None] | None = None, stream: int = -1) -> ArrayView:
    """`obj` (DLPack or `__cuda_array_interface__`, or `reinterpret`'s wrapper) as an
    ArrayView. `name` is the kernel argument's, for the errors; `device_of(ptr)` answers
    the device of a CAI pointer (None: not GPU memory; default: the driver); `stream`
    is the launch stream handed to DLPack producers that are not ordered by their own
    current stream (JAX), -1 for none. Raises ArgumentError for a CPU array, a type
    lower-tc has no name for, or an object that is no array."""
    override = None
    if isinstance(obj, Reinterpreted):
        obj, override = obj.array, obj.dtype
    what = type(obj).__name__
    if "Tracer" in what:  # before DLPack: a tracer's __dlpack__ raises JAX's own error
        raise ArgumentError(
            f"argument {name} is a JAX tracer ({what}): a lower-tc kernel is called on concrete "
            "arrays, outside jax.jit (docs/api.md, JAX)", name,
        )
    if type(obj).__module__.split(".")[0] == "torch" and hasattr(obj, "data_ptr"):
        return _from_torch(obj, name, override)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj, name, stream, override)
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cai(obj, name, device_of or _driver_device, override)
    raise ArgumentError(
        f"argument {name} is a {what}, not a GPU array (one with __dlpack__ or "
        "__cuda_array_interface__: a torch tensor, a CuPy or JAX array)", name,
    )


def _element(name: str, source: str, bits: int, override: str | None) -> str:
    """lower-tc's type for elements of dtype `source` (`bits` wide), or `override` where
    `reinterpret` asked for one of the same width."""
    if override is not None:
        want = element_bits(override)
        if bits != want:
            raise ArgumentError(
                f"argument {name}: reinterpret as {override} needs {want}-bit elements; the array's "
                f"are {source} ({bits}-bit)", name,
            )
        return override
    dtype = lower_tc_dtype(source)
    if dtype is None:
        raise ArgumentError(_no_type(name, source), name)
    return dtype


def _from_dlpack(obj: Any, name: str, stream: int, override: str | None) -> ArrayView:
    device = getattr(obj, "__dlpack_device__", None)
    if device is not None:
        kind, _ = device()
        if int(kind) not in DLPACK_GPU_DEVICES:
            where = "CPU memory" if int(kind) == DLPACK_CPU else f"DLPack device type {int(kind)}"
            raise ArgumentError(_not_on_gpu(name, obj, where), name)
    core = session.load_core()
    # stream ordering: the caller's framework orders its own current stream; a producer
    # without one lower-tc sees (JAX) makes the array ready on the launch stream (DLPack
    # names the legacy default stream 1, since 0 is no stream there)
    consumer = -1 if stream == -1 or not _foreign(obj) else (stream or 1)
    smv = core.utils.StridedMemoryView.from_any_interface(obj, stream_ptr=consumer)  # DLPack first
    if not smv.is_device_accessible:
        raise ArgumentError(_not_on_gpu(name, obj, "CPU memory"), name)
    if smv.dtype is None:
        raise ArgumentError(_no_type(name, "an unknown dtype"), name)
    dtype = _element(name, smv.dtype.name, smv.dtype.itemsize * 8, override)
    shape = tuple(int(n) for n in smv.shape)
    strides = tuple(int(s) for s in smv.strides) if smv.strides is not None else _c_order(shape)
    # JAX arrays are immutable whether or not their DLPack says read-only
    readonly = bool(smv.readonly) or type(obj).__module__.split(".")[0] in ("jax", "jaxlib")
    return ArrayView(int(smv.ptr), shape, strides, dtype, int(smv.device_id), readonly, obj)


def _from_torch(t: Any, name: str, override: str | None) -> ArrayView:
    """A torch tensor read from its own attributes, as Triton reads them: the same facts
    its DLPack carries (torch orders its work by its current stream, so no stream is
    handed over), for a fraction of the host time, and for every dtype (cuda.core 1.2's
    torch path refuses the fp8 ones)."""
    if not t.is_cuda:
        raise ArgumentError(_not_on_gpu(name, t, f"{t.device.type.upper()} memory"), name)
    dtype = _TORCH_TYPES.get(t.dtype) if override is None else None
    if dtype is None:
        dtype = _element(name, str(t.dtype), t.element_size() * 8, override)
        if override is None:
            _TORCH_TYPES[t.dtype] = dtype
    return ArrayView(t.data_ptr(), tuple(t.shape), t.stride(), dtype, t.get_device(), False, t)


#: lower-tc's type per torch dtype object, filled as they are met (a dict lookup per call).
_TORCH_TYPES: dict[Any, str] = {}


def _foreign(obj: Any) -> bool:
    """A producer whose work lower-tc cannot order by a current stream (not torch, CuPy)."""
    return type(obj).__module__.split(".")[0] not in ("torch", "cupy", "cupy_backends", "numpy")


def _from_cai(obj: Any, name: str, device_of: Callable[[int], int | None], override: str | None) -> ArrayView:
    cai = obj.__cuda_array_interface__
    try:
        shape = tuple(int(n) for n in cai["shape"])
        typestr = str(cai["typestr"])
        ptr, readonly = int(cai["data"][0]), bool(cai["data"][1])
        byte_strides = cai.get("strides")
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise ArgumentError(f"argument {name}: its __cuda_array_interface__ is not version 2 or 3 ({err})", name) from None
    known = TYPESTRS.get(typestr[1:]) if typestr[:1] in "<|=" else None
    if override is None and known is None:
        raise ArgumentError(_no_type(name, f"typestr {typestr!r}"), name)
    try:
        size = int(typestr[2:])
    except ValueError:
        raise ArgumentError(_no_type(name, f"typestr {typestr!r}"), name) from None
    dtype = known if override is None else _element(name, known or f"typestr {typestr!r}", 8 * size, override)
    if byte_strides is None:
        strides = _c_order(shape)
    else:
        if any(int(s) % size for s in byte_strides):
            raise ArgumentError(f"argument {name}: strides {tuple(byte_strides)} bytes are not whole {dtype} elements", name)
        strides = tuple(int(s) // size for s in byte_strides)
    device = device_of(ptr) if ptr else None
    if device is None and all(shape):
        raise ArgumentError(_not_on_gpu(name, obj, "host memory (the driver does not know its address)"), name)
    return ArrayView(ptr, shape, strides, dtype, device if device is not None else -1, readonly, obj)


def _driver_device(ptr: int) -> int | None:
    """The device whose memory holds `ptr`, or None where the driver does not know it."""
    cuda = session.driver()
    attr = cuda.cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    ret = cuda.cu.cuPointerGetAttribute(attr, ptr)
    err, value = (ret[0], ret[1]) if isinstance(ret, tuple) else (ret, None)
    return int(value) if int(err) == 0 and value is not None else None


def _c_order(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _not_on_gpu(name: str, obj: Any, where: str) -> str:
    hint = " (move it first: x.cuda() in PyTorch, cupy.asarray(x) in CuPy)"
    return f"argument {name} is in {where}, not on a GPU: a {type(obj).__name__} there cannot be read by the kernel{hint}"


def _no_type(name: str, dtype: Any) -> str:
    known = ", ".join(sorted(set(DTYPE_NAMES.values())))
    return (
        f"argument {name}: lower-tc has no element type for {dtype} (it takes {known}; "
        "bf16 or fp8 bits in a uint16/uint8 array: lower_tc.reinterpret(x, 'bf16'))"
    )


__all__ = ["ArrayView", "DTYPE_NAMES", "element_bits", "Reinterpreted", "TYPESTRS", "lower_tc_dtype", "reinterpret", "view_of"]
