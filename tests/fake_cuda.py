"""Fakes of NVIDIA's CUDA Python bindings, enough for the runtime's session, launch path
and callable kernels: `FakeDriver` stands for cuda.bindings.driver (it records every call
with its arguments, answers as an H100 would, hands out distinct 256-byte-aligned device
addresses, encodes tensor maps into records, and runs a kernel that finishes at once or,
with `hang`, never); `FakeCore` stands for cuda.core (Device, ObjectCode), recording the
modules it loads in the driver's call list. A cuLaunchKernelEx is recorded as
the cuLaunchKernel of the same launch (its attributes in `dependent_launches`). `install`
puts both in place of the real bindings (`session.load_driver`, `session.load_core`), so that the CPU side of every launch
is tested where there is no GPU."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SMS = 132
#: Where the fake's device memory starts; allocations follow 1 GiB apart.
DEVICE_BASE = 0x7F0000000000
CONTEXT = 0xC0
#: CUDA_ERROR_INVALID_VALUE, what cuPointerGetAttribute says of host memory.
INVALID_VALUE = 1


@dataclass
class _TensorMap:
    args: tuple[Any, ...]

    def getPtr(self) -> int:
        return 0x7000 + id(self) % 0x1000


class _Enum:
    """Stands for a driver enum: the value given, or any named member."""

    def __call__(self, value: Any) -> Any:
        return value

    def __getattr__(self, name: str) -> str:
        return name


@dataclass
class FakeDriver:
    """Enough of cuda.bindings.driver for the launch path: records what it is asked."""

    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    tensor_maps: list[_TensorMap] = field(default_factory=list)
    hang: bool = False  # the kernel never finishes: cuStreamQuery stays NOT_READY
    devices: int = 1  # what cuDeviceGetCount says
    #: The device of each GPU address range [start, end) (cuPointerGetAttribute); an
    #: address in none is host memory. Allocations add theirs on device 0.
    memory: list[tuple[int, int, int]] = field(default_factory=list)
    capability: tuple[int, int] = (9, 0)
    current_context: int = 0  # what cuCtxGetCurrent says (0: none)
    #: The attributes of each cuLaunchKernelEx (recorded in `calls` as a cuLaunchKernel).
    dependent_launches: list[dict[str, dict[str, Any]]] = field(default_factory=list)

    class CUresult:
        CUDA_ERROR_NOT_READY = 600

    class CUdevice_attribute:
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
        CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16

    class CUpointer_attribute:
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9

    CUfunction_attribute = _Enum()
    CUlaunchAttributeID = _Enum()
    CUtensorMapDataType = _Enum()
    CUtensorMapInterleave = _Enum()
    CUtensorMapSwizzle = _Enum()
    CUtensorMapL2promotion = _Enum()
    CUtensorMapFloatOOBfill = _Enum()

    @staticmethod
    def cuuint64_t(value: int) -> int:
        return value

    cuuint32_t = cuuint64_t
    CUstream = cuuint64_t

    class CUlaunchConfig:
        """cuLaunchKernelEx's configuration: the fields the launcher sets."""

    class CUlaunchAttribute:
        def __init__(self) -> None:
            self.value = type("Value", (), {})()

    def gpu_memory(self, size: int, device: int = 0) -> int:
        """A fresh device address range of `size` bytes on `device` (for fake arrays)."""
        start = DEVICE_BASE + len(self.memory) * (1 << 30)
        self.memory.append((start, start + size, device))
        return start

    def device_of(self, ptr: int) -> int | None:
        for start, end, device in self.memory:
            if start <= ptr < end:
                return device
        return None

    def __getattr__(self, name: str):
        if not name.startswith("cu"):
            raise AttributeError(name)
        results = {
            "cuDeviceGetCount": self.devices, "cuDeviceGet": 0, "cuDeviceGetName": b"NVIDIA H100 80GB HBM3\0",
            "cuDevicePrimaryCtxRetain": CONTEXT, "cuKernelGetFunction": "fn",
            "cuStreamCreate": "stream", "cuCtxGetDevice": 0,
        }

        def call(*args: Any) -> tuple[Any, ...]:
            if name == "cuLaunchKernelEx":  # recorded as cuLaunchKernel's arguments, its attributes apart
                config, function, params, extra = args
                self.dependent_launches.append({a.id: vars(a.value) for a in config.attrs[: config.numAttrs]})
                self.calls.append(("cuLaunchKernel", (function, config.gridDimX, config.gridDimY, config.gridDimZ,
                                                      config.blockDimX, config.blockDimY, config.blockDimZ,
                                                      config.sharedMemBytes, config.hStream, params, extra)))
                return (0,)
            self.calls.append((name, args))
            if name == "cuDeviceGetAttribute":
                major, minor = self.capability
                return (0, {75: major, 76: minor, 16: SMS}[args[0]])
            if name == "cuTensorMapEncodeTiled":
                self.tensor_maps.append(_TensorMap(args))
                return (0, self.tensor_maps[-1])
            if name == "cuStreamQuery":
                return (self.CUresult.CUDA_ERROR_NOT_READY if self.hang else 0,)
            if name == "cuMemAlloc":
                return (0, self.gpu_memory(args[0]))
            if name == "cuPointerGetAttribute":
                device = self.device_of(args[1])
                return (INVALID_VALUE, None) if device is None else (0, device)
            if name == "cuCtxGetCurrent":
                return (0, self.current_context)
            if name == "cuCtxSetCurrent":
                self.current_context = args[0]
            if name == "cuGetErrorName":
                return (0, b"CUDA_ERROR_FAKE")
            if name == "cuGetErrorString":
                return (0, b"a fake error")
            return (0, results[name]) if name in results else (0,)

        return call

    def called(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of each call of `name`, in order."""
        return [args for n, args in self.calls if n == name]

    @property
    def names(self) -> list[str]:
        """The calls' names, in order."""
        return [n for n, _ in self.calls]


@dataclass
class FakeCore:
    """Enough of cuda.core for the launch path: Device and ObjectCode, whose work is
    recorded in the driver's calls ("Device.set_current", "ObjectCode.from_cubin")."""

    driver: FakeDriver

    def __post_init__(self) -> None:
        fake = self

        class Device:
            def __init__(self, device_id: int = 0) -> None:
                self.device_id = device_id
                self.name = "NVIDIA H100 80GB HBM3" if fake.driver.capability == (9, 0) else "NVIDIA B200"
                self.compute_capability = fake.driver.capability
                self.properties = type("Properties", (), {"multiprocessor_count": SMS})()

            def set_current(self) -> None:
                fake.driver.calls.append(("Device.set_current", (self.device_id,)))
                fake.driver.current_context = CONTEXT + self.device_id

        class Kernel:
            def __init__(self, name: str) -> None:
                self.handle = f"kernel {name}"

        class ObjectCode:
            def __init__(self, cubin: bytes) -> None:
                self.cubin = cubin

            @staticmethod
            def from_cubin(cubin: bytes, name: str = "") -> "ObjectCode":
                fake.driver.calls.append(("ObjectCode.from_cubin", (cubin, name)))
                return ObjectCode(cubin)

            def get_kernel(self, name: str) -> Kernel:
                fake.driver.calls.append(("ObjectCode.get_kernel", (name,)))
                return Kernel(name)

        self.Device = Device
        self.ObjectCode = ObjectCode


def install(monkeypatch, driver: FakeDriver | None = None) -> FakeDriver:
    """Puts a fake driver and cuda.core in place of the real ones, with a fresh session."""
    from lower_tc.lowering.runtime import launch, session

    fake = driver or FakeDriver()
    core = FakeCore(fake)
    monkeypatch.setattr(session, "load_driver", lambda: fake)
    monkeypatch.setattr(session, "load_core", lambda: core)
    monkeypatch.setattr(session, "_SESSION", {})
    monkeypatch.setattr(session, "_DRIVER", [])
    monkeypatch.setattr(session, "_LOST", [])
    monkeypatch.setattr(launch, "_HUNG", [])
    return fake
