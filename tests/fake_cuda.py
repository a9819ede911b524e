"""A fake of cuda.bindings.driver, enough for the runtime's session and launcher: it
records every call with its arguments, answers as an H100 would, encodes tensor maps into
records, and runs a kernel that finishes at once or, with `hang`, never. The runtime tests
put it in place of the real bindings (`session.load_driver`), so that the launcher's CPU
side is tested where there is no GPU."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SMS = 132


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
    """Enough of cuda.bindings.driver for `launch`: records what the launcher asks for."""

    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    tensor_maps: list[_TensorMap] = field(default_factory=list)
    hang: bool = False  # the kernel never finishes: cuStreamQuery stays NOT_READY
    devices: int = 1  # what cuDeviceGetCount says

    class CUresult:
        CUDA_ERROR_NOT_READY = 600

    class CUdevice_attribute:
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
        CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16

    CUfunction_attribute = _Enum()
    CUtensorMapDataType = _Enum()
    CUtensorMapInterleave = _Enum()
    CUtensorMapSwizzle = _Enum()
    CUtensorMapL2promotion = _Enum()
    CUtensorMapFloatOOBfill = _Enum()

    @staticmethod
    def cuuint64_t(value: int) -> int:
        return value

    cuuint32_t = cuuint64_t

    def __getattr__(self, name: str):
        if not name.startswith("cu"):
            raise AttributeError(name)
        results = {
            "cuDeviceGetCount": self.devices, "cuDeviceGet": 0, "cuDeviceGetName": b"NVIDIA H100 80GB HBM3\0",
            "cuDevicePrimaryCtxRetain": "ctx", "cuModuleLoadData": "module", "cuModuleGetFunction": "fn",
            "cuMemAlloc": 0x1000, "cuStreamCreate": "stream", "cuCtxGetDevice": 0,
        }

        def call(*args: Any) -> tuple[Any, ...]:
            self.calls.append((name, args))
            if name == "cuDeviceGetAttribute":
                return (0, {75: 9, 76: 0, 16: SMS}[args[0]])
            if name == "cuTensorMapEncodeTiled":
                self.tensor_maps.append(_TensorMap(args))
                return (0, self.tensor_maps[-1])
            if name == "cuStreamQuery":
                return (self.CUresult.CUDA_ERROR_NOT_READY if self.hang else 0,)
            return (0, results[name]) if name in results else (0,)

        return call

    def called(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of each call of `name`, in order."""
        return [args for n, args in self.calls if n == name]

    @property
    def names(self) -> list[str]:
        """The calls' names, in order."""
        return [n for n, _ in self.calls]
