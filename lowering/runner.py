"""Runs lowered kernels on the GPU and checks them against the numpy reference.

Fresh random inputs every run (ml_dtypes for bf16 and fp8; integers for
s8/u8), outputs poisoned before the launch, every CUDA call's status checked,
a time limit on the kernel, and a comparison in float64 whose error is
measured against the magnitude |A|.|B| (+|C|) that rounding scales with.
NaN never passes, and neither does a write outside the result: every byte of
every buffer that the program does not write (inputs, padding, the rest of an
output) must come back as it went in, and so must a poisoned guard region
after each buffer, which catches writes past its end.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

#: Storage dtype per element type name.
STORAGE: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "tf32": np.float32,
    "f32": np.float32,
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
    "e2m1": ml_dtypes.float4_e2m1fn,  # one value per byte here; packed for the device
    "e2m3": ml_dtypes.float6_e2m3fn,  # likewise
    "e3m2": ml_dtypes.float6_e3m2fn,
    "s8": np.int8,
    "u8": np.uint8,
    "s32": np.int32,
}

#: Tolerance on max |out - ref| / (|A|.|B| + |C|), by (operand type, accumulator type).
#: f32 accumulation of exact products: K * 2^-24 at worst; fp8 on Hopper accumulates
#: with reduced precision; f16 accumulators round every partial sum to 11 bits.
def tolerance(operand: str, accumulator: str) -> float:
    if accumulator == "s32":
        return 0.0
    if accumulator == "f16":
        return 5e-3
    if operand in ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1"):
        return 2e-3
    return 1e-4


#: Poisoned bytes allocated after every buffer: a write past a buffer's end lands here.
GUARD_BYTES = 256
GUARD_FILL = 0xA5


class RunError(Exception):
    """The kernel could not be run here (no GPU, wrong GPU, CUDA error, time-out)."""


class ShapeError(RunError):
    """The sizes given for a kernel's arguments do not fit it (a --shape mistake)."""


class KernelError(RunError):
    """The kernel itself failed on the GPU: it faulted or did not finish in time."""


@dataclass
class OutputCheck:
    """One output argument's comparison: its own tolerance (from its accumulator type
    and the operand types of the MMAs whose results it holds)."""

    param: str
    max_error: float
    tolerance: float
    mismatches: int
    checked: int


@dataclass
class RunResult:
    kernel: str
    device: str
    seed: int
    passed: bool
    max_error: float  # the largest error of any output (inf where an output is NaN)
    tolerance: float  # the loosest output tolerance; each output is held to its own
    nan_count: int
    mismatches: int
    checked: int
    outputs: list[str] = field(default_factory=list)
    #: Elements outside the result that the kernel changed (in any buffer), plus bytes
    #: written into the guard regions after the buffers.
    stray: int = 0
    per_output: list[OutputCheck] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: a non-finite error (NaN in the output) becomes null."""

        def finite(value: Any) -> Any:
            if isinstance(value, float) and not math.isfinite(value):
                return None
            if isinstance(value, dict):
                return {k: finite(v) for k, v in value.items()}
            if isinstance(value, list):
                return [finite(v) for v in value]
            return value

        return finite(asdict(self))

    def summary(self) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        nan = f", {self.nan_count} NaN" if self.nan_count else ""
        stray = f", {self.stray} written outside the result" if self.stray else ""
        if len({o.tolerance for o in self.per_output}) > 1:
            errors = "; ".join(
                f"{o.param} max error {o.max_error:.3g} (tolerance {o.tolerance:.1g})" for o in self.per_output
            )
        else:
            errors = f"max error {self.max_error:.3g} (tolerance {self.tolerance:.1g})"
        return f"{self.kernel}: {errors}, {self.mismatches}/{self.checked} outside{nan}{stray}: {verdict}"


# -- inputs ----------------------------------------------------------------------------------


def random_input(rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Fresh random values in the storage type (never all zeros)."""
    if dtype in ("s8",):
        return rng.integers(-128, 128, size=shape).astype(np.int8)
    if dtype == "u8":
        return rng.integers(0, 256, size=shape).astype(np.uint8)
    if dtype == "s32":
        return rng.integers(-1000, 1000, size=shape).astype(np.int32)
    values = rng.uniform(-1.0, 1.0, size=shape)
    if dtype == "tf32":  # exactly representable in tf32: 10 mantissa bits
        bits = values.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
        return bits.view(np.float32)
    if dtype in ("e4m3", "e5m2"):
        values = values * 4.0
    if dtype == "e2m1":  # e2m1 holds 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives
        values = values * 6.0
    if dtype == "e2m3":  # steps of 1/8 up to 7.5
        values = values * 7.5
    if dtype == "e3m2":  # 0.0625 .. 28
        values = values * 16.0
    return values.astype(STORAGE[dtype])


def poison(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """An output buffer full of a value no correct kernel writes: NaN, or 0x5A5A5A5A."""
    nbytes = int(np.prod(shape)) * np.dtype(STORAGE[dtype]).itemsize
    fill = 0xFF if dtype in ("f32", "f16", "bf16", "tf32") else 0x5A
    return np.full(nbytes, fill, dtype=np.uint8).view(STORAGE[dtype]).reshape(shape)


def device_bytes(values: np.ndarray, dtype: str) -> np.ndarray:
    """What the device holds for an input buffer: the values as they are, except 4- and
    6-bit ones, packed into a contiguous little-endian bit stream: element i at bits
    [b i, b i + b) (for 4-bit, element 2i in the low nibble: the packed FP4 order of
    CUTLASS and PyTorch's float4_e2m1fn_x2). lower-tc's copies move these bytes unchanged."""
    bits = {"e2m1": 4, "e2m3": 6, "e3m2": 6}.get(dtype)
    if bits is None:
        return values
    codes = (values.view(np.uint8) & ((1 << bits) - 1)).astype(np.uint64)
    per_group = 8 // np.gcd(bits, 8)  # elements per whole number of bytes: 2 (4-bit), 4 (6-bit)
    pad = -codes.size % per_group
    codes = np.append(codes, np.zeros(pad, np.uint64)).reshape(-1, per_group)
    words = (codes << (np.arange(per_group, dtype=np.uint64) * bits)).sum(axis=1)
    group_bytes = per_group * bits // 8
    out = (words[:, None] >> (np.arange(group_bytes, dtype=np.uint64) * 8)) & 0xFF
    return out.astype(np.uint8).ravel()


def buffer_elements(shape: list[int], strides: list[int]) -> int:
    """Elements a matrix of `shape` with element `strides` spans in memory."""
    return sum((n - 1) * s for n, s in zip(shape, strides)) + 1


def matrix_view(buffer: np.ndarray, arg: dict[str, Any]) -> np.ndarray:
    """The logical matrix (a copy) an argument's flat `buffer` holds, rows x cols by its strides.

    Plain index arithmetic rather than numpy's as_strided, which cannot rebuild
    ml_dtypes' float8 types from their array interface."""
    (rows, cols), (s_row, s_col) = arg["shape"], arg["strides"]
    return buffer[np.arange(rows)[:, None] * s_row + np.arange(cols)[None, :] * s_col]


# -- CUDA ------------------------------------------------------------------------------------


def _driver():
    try:
        from cuda.bindings import driver
    except ImportError:
        try:
            from cuda import cuda as driver  # type: ignore[no-redef]
        except ImportError as err:
            raise RunError(
                "the GPU runner needs NVIDIA's CUDA Python bindings: pip install 'lower-tc[gpu]'"
            ) from err
    return driver


class Cuda:
    """A thin checked wrapper over the driver API: every call's status is checked."""

    def __init__(self) -> None:
        self.cu = _driver()
        try:
            self.call("cuInit", 0)
        except RunError:
            raise
        except Exception as err:  # noqa: BLE001 - cuda-bindings raises when libcuda is absent
            raise RunError(f"no usable NVIDIA driver (libcuda) here: {err}") from err

    def call(self, name: str, *args: Any) -> Any:
        ret = getattr(self.cu, name)(*args)
        err, rest = (ret[0], ret[1:]) if isinstance(ret, tuple) else (ret, ())
        if int(err) != 0:
            _, text = self.cu.cuGetErrorName(err)
            _, desc = self.cu.cuGetErrorString(err)
            raise RunError(f"{name} failed: {text.decode() if text else err} ({desc.decode() if desc else ''})")
        return rest[0] if len(rest) == 1 else rest

    def device(self, target: str) -> tuple[Any, str]:
        """The first GPU, checked to run `target` (sm_90a needs 9.0, sm_100a needs 10.0)."""
        count = self.call("cuDeviceGetCount")
        if count == 0:
            raise RunError("no CUDA GPU is present")
        dev = self.call("cuDeviceGet", 0)
        attr = self.cu.CUdevice_attribute
        major = self.call("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        minor = self.call("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
        name = self.call("cuDeviceGetName", 96, dev).split(b"\0")[0].decode()
        need = {"sm_90a": (9, 0), "sm_100a": (10, 0)}[target]
        if (major, minor) != need:
            raise RunError(
                f"a {target} kernel needs a GPU of compute capability {need[0]}.{need[1]}; "
                f"this {name} is {major}.{minor} ('a' targets do not run on other generations)"
            )
        return dev, f"{name} (sm_{major}{minor})"


_SESSION: dict[str, tuple[Cuda, Any, str]] = {}
#: Why this process may not launch again (a kernel that never finished still holds the GPU).
_LOST: list[str] = []


def _session(target: str) -> tuple[Cuda, Any, str]:
    """One checked driver session per process: the device's primary context, made current."""
    if _LOST:
        raise RunError(f"this process's GPU context is unusable: {_LOST[0]}")
    if target not in _SESSION:
        cuda = Cuda()
        dev, name = cuda.device(target)
        ctx = cuda.call("cuDevicePrimaryCtxRetain", dev)
        cuda.call("cuCtxSetCurrent", ctx)
        _SESSION[target] = (cuda, dev, name)
    return _SESSION[target]


_TMA_DTYPES = {"f16": 6, "bf16": 9, "tf32": 7, "f32": 7, "e4m3": 0, "e5m2": 0, "s8": 0, "u8": 0}


def parse_shape(text: str) -> tuple[str, tuple[int, int, int | None]]:
    """``NAME=ROWSxCOLS[@LD]`` (a --shape option) as (NAME, (rows, cols, ld or None))."""
    try:
        name, dims = text.split("=", 1)
        size, _, ld = dims.partition("@")
        rows, cols = (int(x) for x in size.lower().split("x"))
        value = (rows, cols, int(ld) if ld else None)
    except ValueError:
        raise ShapeError(f"--shape {text!r}: expected NAME=ROWSxCOLS or NAME=ROWSxCOLS@LD, e.g. A=4096x4096") from None
    if rows <= 0 or cols <= 0 or (value[2] is not None and value[2] <= 0):
        raise ShapeError(f"--shape {text!r}: sizes are positive")
    return name.lstrip("%"), value


def resolve_sizes(info: dict[str, Any], shapes: dict[str, tuple[int, int, int | None]] | None) -> dict[str, Any]:
    """The kernel's metadata with every size known at launch filled in from `shapes`
    (argument name -> rows, cols, leading dimension or None for the contiguous extent):
    argument shapes and strides, the TMA tensor maps, the grid, the GEMM's M, N, K and
    the values of the size parameters. Static metadata comes back unchanged."""
    import copy

    shapes = dict(shapes or {})
    info = copy.deepcopy(info)
    for a in info["args"]:
        name = a["param"][2:]
        given = shapes.pop(name, None)
        if None not in a["shape"] and None not in a["strides"]:
            if given is not None and (given[0], given[1]) != tuple(a["shape"]):
                raise ShapeError(f"--shape {name}={given[0]}x{given[1]}: the kernel's {name} is {a['shape'][0]}x{a['shape'][1]}")
            continue
        if given is None:
            raise ShapeError(f"kernel argument {name} has sizes known only at launch: give them with --shape {name}=ROWSxCOLS")
        rows, cols, ld = given
        for dim, (want, got) in enumerate(zip(a["shape"], (rows, cols))):
            if want is not None and want != got:
                raise ShapeError(f"--shape {name}: dimension {dim} of {name} is {want}, not {got}")
        row_major = a["strides"][1] == 1
        extent = cols if row_major else rows
        fixed = a["strides"][0] if row_major else a["strides"][1]
        ld = ld if ld is not None else (fixed if fixed is not None else extent)
        if ld < extent:
            raise ShapeError(f"--shape {name}: a leading dimension of {ld} is less than the contiguous extent {extent}")
        a["shape"] = [rows, cols]
        a["strides"] = [ld, 1] if row_major else [1, ld]
    if shapes:
        raise ShapeError(f"--shape names no argument of kernel {info['name']}: {', '.join(sorted(shapes))}")
    args = info["args"]
    for p in info.get("size_params", []):
        a = args[p["arg"]]
        row_major = a["strides"][1] == 1
        p["value"] = {"rows": a["shape"][0], "cols": a["shape"][1], "ld": a["strides"][0] if row_major else a["strides"][1]}[p["what"]]
    for tm in info["tensor_maps"]:
        if tm["global_dims"] is None:
            a = args[tm["arg"]]
            rows, cols = a["shape"]
            row_major = a["strides"][1] == 1
            ld = a["strides"][0] if row_major else a["strides"][1]
            bits = _BITS[tm["dtype"]]
            if ld * bits % 128:
                raise ShapeError(
                    f"kernel argument {a['param'][2:]}'s leading dimension is {ld * bits / 8:g} bytes: "
                    "TMA needs a multiple of 16"
                )
            tm["global_dims"] = [cols, rows] if row_major else [rows, cols]
            tm["global_strides"] = [ld * bits // 8]
    info["grid"] = [
        -(-args[g["arg"]]["shape"][g["dim"]] // g["tile"]) if isinstance(g, dict) and "arg" in g else g
        for g in info.get("grid", [1, 1, 1])
    ]  # a {"persistent": tiles} entry stays: the launcher sizes it to the GPU
    gemm = info.get("gemm")
    if gemm:
        d, a, b = args[gemm["d"]], args[gemm["a"]], args[gemm["b"]]
        gemm["m"], gemm["n"], gemm["k"] = d["shape"][0], d["shape"][1], a["shape"][1]
        c = args[gemm["c"]] if gemm.get("c") is not None else d
        if (a["shape"][0], b["shape"][1], b["shape"][0], c["shape"]) != (gemm["m"], gemm["n"], gemm["k"], d["shape"]):
            raise ShapeError(
                f"the shapes do not make a GEMM: A {a['shape'][0]}x{a['shape'][1]}, "
                f"B {b['shape'][0]}x{b['shape'][1]}, D {d['shape'][0]}x{d['shape'][1]}"
                + (f", C {c['shape'][0]}x{c['shape'][1]}" if c is not d else "")
            )
    return info


_BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8}


@dataclass
class Loaded:
    """A kernel ready to launch: its module and function, the device buffers (each
    followed by a poisoned guard) and the packed parameter array."""

    cuda: Cuda
    module: Any
    function: Any
    allocations: list[Any]
    pointers: list[Any]
    params: np.ndarray
    holders: list[Any]  # keeps the parameter values alive while params points at them
    smem: int
    grid: tuple[int, int, int]
    threads: int


def load(cuda: Cuda, cubin: bytes, info: dict[str, Any], host_args: list[np.ndarray], allocations: list[Any]) -> Loaded:
    """Loads the module, copies the arguments (and a guard after each) to the device and
    builds the TMA tensor maps. Allocations are appended to `allocations` as they are made,
    so the caller can free them whatever fails."""
    cu = cuda.cu
    module = cuda.call("cuModuleLoadData", cubin)
    allocations.append(("module", module))
    function = cuda.call("cuModuleGetFunction", module, info["name"].encode())
    smem = int(info["smem_bytes"])
    if smem > 48 * 1024:  # dynamic shared memory beyond 48 KiB must be opted into
        cuda.call(
            "cuFuncSetAttribute", function,
            cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem,
        )
    pointers = []
    guard = np.full(GUARD_BYTES, GUARD_FILL, dtype=np.uint8)
    for array in host_args:
        dptr = cuda.call("cuMemAlloc", array.nbytes + GUARD_BYTES)
        allocations.append(("mem", dptr))
        cuda.call("cuMemcpyHtoD", dptr, array.ctypes.data, array.nbytes)
        cuda.call("cuMemcpyHtoD", int(dptr) + array.nbytes, guard.ctypes.data, GUARD_BYTES)
        pointers.append(dptr)
    holders: list[Any] = [np.array([int(p)], dtype=np.uint64) for p in pointers]
    holders += [np.array([int(p["value"])], dtype=np.uint32) for p in info.get("size_params", [])]
    addresses = [h.ctypes.data for h in holders]
    for tm in info["tensor_maps"]:
        tmap = cuda.call(
            "cuTensorMapEncodeTiled",
            cu.CUtensorMapDataType(_TMA_DTYPES[tm["dtype"]]),
            2,
            pointers[tm["arg"]],
            [cu.cuuint64_t(int(d)) for d in tm["global_dims"]],
            [cu.cuuint64_t(int(s)) for s in tm["global_strides"]],
            [cu.cuuint32_t(int(b)) for b in tm["box"]],
            [cu.cuuint32_t(1), cu.cuuint32_t(1)],
            cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
            cu.CUtensorMapSwizzle(tm["tma_swizzle_code"]),
            cu.CUtensorMapL2promotion(int(tm.get("l2_promotion", 0))),
            cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
        holders.append(tmap)
        addresses.append(tmap.getPtr())
    grid = list(info.get("grid", (1, 1, 1)))
    if isinstance(grid[0], dict) and "persistent" in grid[0]:  # one CTA per SM, at most one per tile
        dev = cuda.call("cuCtxGetDevice")
        sms = cuda.call("cuDeviceGetAttribute", cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)
        grid[0] = min(int(grid[0]["persistent"]), int(sms))
        cluster = int(info.get("cluster", [1])[0])
        grid[0] -= grid[0] % cluster  # whole clusters (the tile count is a multiple of it)
    gx, gy, gz = (int(g) for g in grid)
    return Loaded(
        cuda, module, function, allocations, pointers, np.array(addresses, dtype=np.uint64),
        holders, smem, (gx, gy, gz), int(info["threads"]),
    )


def enqueue(k: Loaded, stream: Any) -> None:
    """One launch of the loaded kernel on `stream` (asynchronous)."""
    gx, gy, gz = k.grid
    k.cuda.call(
        "cuLaunchKernel", k.function, gx, gy, gz, k.threads, 1, 1, k.smem, stream,
        k.params.ctypes.data, 0,
    )


def launch(
    cubin: bytes,
    info: dict[str, Any],
    host_args: list[np.ndarray],
    timeout: float = 10.0,
) -> tuple[list[np.ndarray], str, list[int]]:
    """Runs one kernel on the first GPU. Returns the arguments as copied back, the
    device, and per argument how many bytes of the poisoned guard region after its
    buffer the kernel changed (a write past the buffer's end)."""
    if not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"the time limit must be a positive number of seconds, not {timeout}")
    cuda, dev, device_name = _session(info["target"])
    allocations: list[Any] = []
    stream = None
    try:
        k = load(cuda, cubin, info, host_args, allocations)
        stream = cuda.call("cuStreamCreate", 0)
        enqueue(k, stream)
        wait_for(cuda, stream, info["name"], timeout)
        results, overruns = [], []
        for array, dptr in zip(host_args, k.pointers):
            back = np.empty_like(array)
            cuda.call("cuMemcpyDtoH", back.ctypes.data, dptr, array.nbytes)
            results.append(back)
            tail = np.empty(GUARD_BYTES, dtype=np.uint8)
            cuda.call("cuMemcpyDtoH", tail.ctypes.data, int(dptr) + array.nbytes, GUARD_BYTES)
            overruns.append(int((tail != GUARD_FILL).sum()))
    except KernelHung:
        raise  # freeing under a running kernel would wait for it forever
    except BaseException:
        _release(cuda, stream, allocations, check=False)
        raise
    _release(cuda, stream, allocations, check=True)
    return results, device_name, overruns


class KernelHung(KernelError):
    """The kernel did not finish in time: it still holds the GPU."""


def wait_for(cuda: Cuda, stream: Any, name: str, timeout: float) -> None:
    """Polls the stream until the work on it is done; a kernel past `timeout` seconds is
    reported (and this process launches nothing more), a fault as its CUDA error."""
    cu = cuda.cu
    deadline = time.monotonic() + timeout
    while True:
        status = cu.cuStreamQuery(stream)
        status = status[0] if isinstance(status, tuple) else status
        if status == cu.CUresult.CUDA_ERROR_NOT_READY:
            if time.monotonic() > deadline:
                reason = f"kernel {name} did not finish within {timeout:g} s"
                _LOST.append(reason)
                raise KernelHung(
                    f"{reason}; it still runs, so its memory is left allocated and this "
                    "process launches nothing more (the driver ends the kernel when the "
                    "process exits)"
                )
            time.sleep(0.001)
            continue
        if int(status) != 0:
            try:
                cuda.call("cuStreamSynchronize", stream)  # raises with the error's name
            except RunError as err:
                _LOST.append(f"kernel {name} faulted ({err})")  # a sticky error
                raise KernelError(f"kernel {name} failed: {err}") from None
        return


def _release(cuda: Cuda, stream: Any, allocations: list[Any], *, check: bool) -> None:
    """Frees what a launch took. Checked after a clean run; after a failure each call is
    still made, but its status cannot replace the error that is already on its way."""
    calls = [("cuStreamDestroy", stream)] if stream is not None else []
    calls += [("cuMemFree", h) for kind, h in allocations if kind == "mem"]
    calls += [("cuModuleUnload", h) for kind, h in allocations if kind == "module"]
    for name, handle in calls:
        if check:
            cuda.call(name, handle)
        else:
            try:
                cuda.call(name, handle)
            except RunError:
                pass


# -- checking -----------------------------------------------------------------------------


def run_kernel(compiled: Any, seed: int, timeout: float = 10.0, shapes: dict[str, tuple[int, int, int | None]] | None = None) -> RunResult:
    """Draws inputs, poisons outputs, launches, and compares with the reference.
    `shapes` gives the sizes of arguments known only at launch (see resolve_sizes)."""
    from lower_tc.lowering.reference import read_arguments, reference

    info = resolve_sizes(compiled.info, shapes)
    if "gemm" in info:
        return run_gemm_kernel(compiled, info, seed, timeout)
    rng = np.random.default_rng(seed)
    read = read_arguments(compiled.source)
    host = []  # one flat buffer per argument, laid out by its strides (padding included)
    for i, a in enumerate(info["args"]):
        size = buffer_elements(a["shape"], a["strides"])
        fresh = i in read or not a["output"]  # outputs only written start poisoned
        host.append(random_input(rng, a["dtype"], (size,)) if fresh else poison(a["dtype"], (size,)))
    inputs64 = {i: matrix_view(h, a).astype(np.float64) for i, (h, a) in enumerate(zip(host, info["args"]))}
    ref = reference(compiled.source, inputs64)
    on_device = [device_bytes(h, a["dtype"]) for h, a in zip(host, info["args"])]
    flat_results, device, overruns = launch(compiled.cubin, info, on_device, timeout)
    # every byte the program does not write comes back as it went in: inputs (as the
    # device holds them), padding, the rest of each output, and the guards after them
    stray = sum(overruns) + sum(
        stray_writes(flat, sent, ref.written.get(i), a)
        for i, (flat, sent, a) in enumerate(zip(flat_results, on_device, info["args"]))
    )
    checks = []
    nan_count = 0
    for index, expected in ref.values.items():
        arg = info["args"][index]
        tol = max(tolerance(o, arg["dtype"]) for o in ref.types.get(index) or {"f32"})
        mask = ref.written[index]
        got = matrix_view(flat_results[index], arg).astype(np.float64)[mask]
        want = expected[mask]
        scale = np.maximum(ref.scale[index][mask], 1e-30)
        nan = ~np.isfinite(got)
        err = np.where(nan, np.inf, np.abs(got - want) / scale)
        nan_count += int(nan.sum())
        worst = float(err.max()) if err.size else 0.0
        checks.append(OutputCheck(arg["param"], worst, tol, int((err > tol).sum()), int(mask.sum())))
    mismatches = sum(c.mismatches for c in checks)
    checked = sum(c.checked for c in checks)
    passed = nan_count == 0 and mismatches == 0 and stray == 0 and checked > 0
    return RunResult(
        info["name"], device, seed, passed,
        max((c.max_error for c in checks), default=0.0),
        max((c.tolerance for c in checks), default=0.0),
        nan_count, mismatches, checked, [c.param for c in checks], stray, checks,
    )


def run_gemm_kernel(compiled: Any, info: dict[str, Any], seed: int, timeout: float = 10.0) -> RunResult:
    """A whole GEMM: D = A x B (+ C) over the grid, checked by lowering/gemm_check.py;
    `info` is the kernel's metadata with its sizes resolved."""
    from lower_tc.lowering.gemm_check import check_gemm

    gemm = info["gemm"]
    rng = np.random.default_rng(seed)
    roles = {gemm[r]: r for r in ("a", "b", "c", "d") if gemm.get(r) is not None}
    host = []
    for i, a in enumerate(info["args"]):
        size = buffer_elements(a["shape"], a["strides"])
        output = roles.get(i) == "d"
        host.append(poison(a["dtype"], (size,)) if output else random_input(rng, a["dtype"], (size,)))
    on_device = [device_bytes(h, a["dtype"]) for h, a in zip(host, info["args"])]
    flat_results, device, overruns = launch(compiled.cubin, info, on_device, timeout)
    d_index = gemm["d"]
    d_arg = info["args"][d_index]
    written = {d_index: np.ones(d_arg["shape"], dtype=bool)}
    stray = sum(overruns) + sum(
        stray_writes(flat, sent, written.get(i), a)
        for i, (flat, sent, a) in enumerate(zip(flat_results, on_device, info["args"]))
    )
    operands = {roles[i]: matrix_view(h, a).astype(np.float64) for i, (h, a) in enumerate(zip(host, info["args"])) if roles.get(i) in ("a", "b", "c")}
    d_raw = matrix_view(flat_results[d_index], d_arg)
    d_out = d_raw.astype(np.float64)
    if d_arg["dtype"] == "s32":  # the poison is a valid integer: find it by its bits
        d_out[d_raw == poison("s32", (1,))[0]] = np.nan
    operand_dtype = info["args"][gemm["a"]]["dtype"]
    tol = tolerance(operand_dtype, gemm["acc"])
    worst, bad, checked, missing, tol = check_gemm(
        gemm, operands, d_out, d_arg["dtype"], operand_dtype, tol, rng
    )
    passed = bad == 0 and missing == 0 and stray == 0 and checked > 0
    check = OutputCheck(d_arg["param"], worst, tol, bad, checked)
    return RunResult(
        info["name"], device, seed, passed, worst, tol, missing, bad, checked,
        [d_arg["param"]], stray, [check],
    )


def stray_writes(result: np.ndarray, before: np.ndarray, written: np.ndarray | None, arg: dict[str, Any]) -> int:
    """Elements of a buffer the program does not write but the kernel changed: all of
    an input, and of an output everything outside the written part of the matrix
    (padding included), must still hold, byte for byte, what was there before the
    launch (the input, the poison, or C's values for an accumulator updated in place)."""
    keep = np.ones(result.shape[0], dtype=bool)
    if written is not None:
        (rows, cols), (s_row, s_col) = arg["shape"], arg["strides"]
        flat = np.arange(rows)[:, None] * s_row + np.arange(cols)[None, :] * s_col
        keep[flat[written]] = False
    width = result.dtype.itemsize
    changed = result.view(np.uint8).reshape(-1, width) != before.view(np.uint8).reshape(-1, width)
    return int((changed.any(axis=1) & keep).sum())


__all__ = ["KernelError", "OutputCheck", "RunError", "ShapeError", "RunResult", "launch", "parse_shape", "resolve_sizes", "run_kernel", "tolerance"]
