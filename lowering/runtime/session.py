"""The CUDA driver session: the bindings (optional), checked driver calls, the device.

The bindings are NVIDIA's: cuda.bindings (the driver API, `load_driver`) and cuda.core
(devices and modules, `load_core`), both imported when first needed, so that everything
imports on a machine without them. One checked driver wrapper per process (`driver`).

The runner's session is per process and target: the first GPU's primary context, made
current, after checking that the GPU runs the target. A kernel that never finished or
faulted leaves the context unusable; after that (`mark_lost`) the process launches
nothing more.
"""

from __future__ import annotations

from typing import Any

from lower_tc.lowering.runtime.errors import CudaError, CudaUnavailable, RunError

#: The compute capability each kernel target runs on ('a' targets run on no other).
TARGET_CAPABILITY = {"sm_90a": (9, 0), "sm_100a": (10, 0)}


def load_driver() -> Any:
    """The CUDA driver API bindings (cuda-bindings, or the older cuda-python layout)."""
    try:
        # imported here: the bindings are optional (`lower-tc[gpu]`); compiling needs none
        from cuda.bindings import driver
    except ImportError:
        try:
            # the same bindings under cuda-python's older module name
            from cuda import cuda as driver  # type: ignore[no-redef]
        except ImportError as err:
            raise CudaUnavailable(
                "the GPU runner needs NVIDIA's CUDA Python bindings: pip install 'lower-tc[gpu]'"
            ) from err
    return driver


def load_core() -> Any:
    """cuda.core, the CUDA Python object model (Device, ObjectCode), version 1.2 or later."""
    try:
        # imported here: cuda.core is optional (`lower-tc[gpu]`); compiling needs none
        import cuda.core as core
    except ImportError as err:
        raise CudaUnavailable(
            "launching a kernel needs NVIDIA's cuda.core (1.2 or later): pip install 'lower-tc[gpu]'"
        ) from err
    if not hasattr(core, "Device") or not hasattr(core.utils.StridedMemoryView, "from_any_interface"):
        found = getattr(core, "__version__", "an older version")
        raise CudaUnavailable(f"launching a kernel needs cuda.core 1.2 or later, not {found}: pip install -U cuda-core")
    return core


class Cuda:
    """A thin checked wrapper over the driver API: every call's status is checked."""

    def __init__(self) -> None:
        self.cu = load_driver()
        try:
            self.call("cuInit", 0)
        except RunError:
            raise
        except Exception as err:  # noqa: BLE001 - cuda-bindings raises when libcuda is absent
            raise CudaUnavailable(f"no usable NVIDIA driver (libcuda) here: {err}") from err

    def call(self, name: str, *args: Any) -> Any:
        ret = getattr(self.cu, name)(*args)
        err, rest = (ret[0], ret[1:]) if isinstance(ret, tuple) else (ret, ())
        if int(err) != 0:
            _, text = self.cu.cuGetErrorName(err)
            _, desc = self.cu.cuGetErrorString(err)
            raise CudaError(f"{name} failed: {text.decode() if text else err} ({desc.decode() if desc else ''})")
        return rest[0] if len(rest) == 1 else rest

    def device(self, target: str) -> tuple[Any, str]:
        """The first GPU, checked to run `target` (sm_90a needs 9.0, sm_100a needs 10.0)."""
        count = self.call("cuDeviceGetCount")
        if count == 0:
            raise CudaUnavailable("no CUDA GPU is present")
        dev = self.call("cuDeviceGet", 0)
        attr = self.cu.CUdevice_attribute
        major = self.call("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        minor = self.call("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
        name = self.call("cuDeviceGetName", 96, dev).split(b"\0")[0].decode()
        need = TARGET_CAPABILITY[target]
        if (major, minor) != need:
            raise RunError(
                f"a {target} kernel needs a GPU of compute capability {need[0]}.{need[1]}; "
                f"this {name} is {major}.{minor} ('a' targets do not run on other generations)"
            )
        return dev, f"{name} (sm_{major}{minor})"


_SESSION: dict[str, tuple[Cuda, Any, str]] = {}
#: The process's checked driver wrapper (cuInit done), made on first use.
_DRIVER: list[Cuda] = []
#: Why this process may not launch again (a kernel that never finished still holds the GPU).
_LOST: list[str] = []


def session(target: str) -> tuple[Cuda, Any, str]:
    """One checked driver session per process: the device's primary context, made current.
    Returns the driver wrapper, the device and its name."""
    check_usable()
    if target not in _SESSION:
        cuda = driver()
        dev, name = cuda.device(target)
        ctx = cuda.call("cuDevicePrimaryCtxRetain", dev)
        cuda.call("cuCtxSetCurrent", ctx)
        _SESSION[target] = (cuda, dev, name)
    return _SESSION[target]


def driver() -> Cuda:
    """The process's checked driver wrapper (the driver initialised once)."""
    if not _DRIVER:
        _DRIVER.append(Cuda())
    return _DRIVER[0]


def check_usable() -> None:
    """Raises CudaError where an earlier kernel left this process's GPU context unusable."""
    if _LOST:
        raise CudaError(f"this process's GPU context is unusable: {_LOST[0]}")


def mark_lost(reason: str) -> None:
    """This process's context is unusable from now on (a hung or faulted kernel)."""
    _LOST.append(reason)


__all__ = [
    "TARGET_CAPABILITY", "Cuda", "check_usable", "driver", "load_core", "load_driver", "mark_lost", "session",
]
