"""`lower_tc.matmul(a, b, out=None, c=None, ...)`: D = A x B (+ C) on the caller's GPU
arrays, in one call. The arrays' dtypes, shapes and strides choose the program
(lowering/api/matmul_plan.py, each refusal an ArgumentError naming the argument); the
program is compiled once (kept in memory, and on disk by lowering/runtime/cache.py, keyed
by the program, lower-tc, the target and the assembler) and launched like any Kernel.

Sizes are compiled in by default (a kernel per shape, persistent and in the grouped
order: the fast one); `dynamic=True` compiles one kernel for every shape, with every store
bounds-checked.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Mapping
from typing import Any

from lower_tc.lowering.api.compiling import one_kernel
from lower_tc.layout.gemm import default_accumulator
from lower_tc.layout.gemm_choice import pair_open
from lower_tc.layout.gemm_tuning import Candidate, candidates
from lower_tc.lowering.api.matmul_plan import OPERAND_TYPES, TARGETS, MatmulPlan, MatrixArg, plan_matmul
from lower_tc.lowering.api.tuning import remember, remembered, run_trials, time_launches, tuning_key
from lower_tc.lowering.runtime import launcher, session
from lower_tc.lowering.runtime.arrays import ArrayView, Reinterpreted, reinterpret, view_of
from lower_tc.lowering.runtime.callable import Kernel, LruCache, torch_key
from lower_tc.lowering.runtime.errors import ArgumentError, DeviceError
from lower_tc.lowering.runtime.session import TARGET_CAPABILITY
from lower_tc.lowering.runtime.streams import stream_handle

#: Programs (and the plan that wrote them) kept per call signature, and kernels per program.
_plans: LruCache[Hashable, MatmulPlan] = LruCache(256)
_kernels: LruCache[Hashable, Kernel] = LruCache(64)

#: torch's dtype attribute for each type matmul allocates D as.
TORCH_DTYPES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "s32": "int32"}
#: CuPy's dtype for each (bf16 as its bits, through `reinterpret`).
CUPY_DTYPES = {"bf16": "uint16", "f16": "float16", "f32": "float32", "s32": "int32"}


def matmul(
    a: Any,
    b: Any,
    out: Any = None,
    c: Any = None,
    *,
    acc: str | None = None,
    config: Any = None,
    target: str | None = None,
    dynamic: bool = False,
    tune: bool = False,
    stream: Any = None,
    **options: Any,
) -> Any:
    """D = a x b (+ c) into `out` (allocated like `a` when None: torch or CuPy, M x N,
    row-major, of the type matmul_plan.DEFAULT_OUT names) and returns it. Batches as
    torch.matmul takes them: a (B, M, K) or (M, K), b (B, K, N), (1, K, N) or (K, N), at
    least one 3-d, make D (B, M, N); c, when given, has D's shape. `acc` is the
    accumulator ("f32", "f16", "s32"), `config` a GemmConfig or (bm, bn, bk, stages),
    `options` tc.matmul's (schedule, raster, persistent, mma_depth, cluster, epilogue, split_k,
    reduce, unsplit, stream_k, accumulation, l2_promotion: docs/gemm.md; each checked against the
    options' table first). f32 operands are multiplied as tf32. `tune=True` times
    the chooser's candidates (lowering/api/tuning.py) on these arrays the first time a
    signature is seen on a device (synchronising the stream; `out` is written by each),
    keeps the fastest in memory and on disk, and runs it from then on; options given
    stay fixed. Raises an ArgumentError naming the argument, or a DeviceError, before
    anything is launched."""
    arrays = [("a", a), ("b", b)] + ([("out", out)] if out is not None else []) + ([("c", c)] if c is not None else [])
    handle = stream_handle(stream, [x for _, x in arrays])
    fast = _torch_signature([x for _, x in arrays], tuple(n for n, _ in arrays), target, acc, config, dynamic, tune, options)
    found = _torch_calls.get(fast) if fast is not None else None
    if found is not None:  # torch tensors of a signature seen before: its kernel checks the call
        kernel, plan = found
        if out is None:
            out = allocate(a, plan.out_shape, plan.out_dtype)
        kernel(a, b, out, *([c] if c is not None else []), stream=handle)
        return out
    views = {name: view_of(x, name, stream=handle) for name, x in arrays}
    devices = {v.device_id for v in views.values()}
    if len(devices) != 1:
        raise DeviceError(f"the arrays are on devices {sorted(devices)}: lower_tc.matmul runs on one")
    target = target or _device_target(views["a"].device_id)
    if tune:
        if out is None:  # the candidates are timed writing D: allocated as the default plan says
            first = _plan(views, target, acc, None, dynamic, options)
            out = allocate(a, first.out_shape, first.out_dtype)
            views["out"] = view_of(out, "out", stream=handle)
        config, options = _tuned(views, target, acc, config, dynamic, options, handle)
    plan = _plan(views, target, acc, config, dynamic, options)
    kernel = _kernel(plan, target)
    if fast is not None:
        _torch_calls.put(fast, (kernel, plan))
    if out is None:
        out = allocate(a, plan.out_shape, plan.out_dtype)
        views["out"] = view_of(out, "out", stream=handle)
    # the views read above, in the kernel's argument order (A, B, D[, C]): launched as
    # Kernel.__call__ launches, without reading the arrays again
    order = [views["a"], views["b"], views["out"]] + ([views["c"]] if c is not None else [])
    launcher.enqueue(session.driver(), kernel.prepare(order), handle)
    return out


#: The kernel and plan of each call signature of torch tensors (shapes, strides, dtypes,
#: devices and the options), found without building views; the kernel's own call checks
#: the tensors (addresses included) as it always does.
_torch_calls: LruCache[Hashable, tuple[Kernel, MatmulPlan]] = LruCache(256)


def _torch_signature(arrays: list[Any], *options: Any) -> Hashable | None:
    """The call's signature where every array is a torch tensor on a GPU (the Kernel's
    torch key without the addresses), else None."""
    key = torch_key(tuple(arrays))
    if key is None:
        return None
    *rest, given = options  # the last is the options dict
    return (tuple(k[1:] for k in key), *[repr(o) for o in rest], tuple(sorted(given.items())))


def _tuned(views: dict[str, ArrayView], target: str, acc: str | None, config: Any, dynamic: bool,
           options: Mapping[str, Any], handle: int) -> tuple[Any, dict[str, Any]]:
    """(config, options) for this call with `tune=True`: the choice remembered for these
    arrays on this device, else the fastest candidate timed now on them."""
    if config is not None:
        raise ArgumentError("tune=True chooses the configuration: leave config out, or tune=False", "config")
    if dynamic:
        raise ArgumentError("tune=True times kernels compiled for these sizes: it needs dynamic=False", "dynamic")
    if "c" in views and _overlap(views["c"], views["out"]):
        raise ArgumentError("tune=True launches each candidate on out: with c the same memory as out, each would add "
                            "to it again; tune with a separate c first", "c")
    cuda = session.driver()
    if cuda.call("cuStreamIsCapturing", handle) != _not_capturing():
        raise ArgumentError("tune=True times kernels, which cannot happen while the stream is captured into a CUDA "
                            "graph: call once with tune=True before capturing", "tune")
    base = _plan(views, target, acc, None, False, options)
    device = session.load_core().Device(views["a"].device_id).name
    key = tuning_key("matmul", device, target, acc, sorted(options.items()),
                     [(n, v.shape, v.strides, v.dtype) for n, v in views.items()])
    found = remembered(key)
    if found is None:
        ta, tb = OPERAND_TYPES[views["a"].dtype], OPERAND_TYPES[views["b"].dtype]
        def row_major(v: ArrayView) -> bool:
            return v.shape[-1] == 1 or v.strides[-1] == 1

        vb, vd = views["b"], views["out"]
        b_mn_major = row_major(vb)  # B (K x N) row-major: its tiles MN-major
        b_row_bytes = vb.strides[-2] * vb.bits // 8 if b_mn_major and vb.shape[-2] > 1 else None
        d_row_major = row_major(vd)
        swap = {"a_mn_major": not row_major(views["a"]), "with_c": "c" in views,
                "d_row_major": d_row_major, "d_ld": vd.strides[-2] if d_row_major and vd.shape[-2] > 1 else None}
        cands = []
        for cand in candidates(base.m, base.n, base.k, ta, tb, acc or default_accumulator(ta), TARGETS[target],
                               d=base.out_dtype, batch=base.batch, promoted=options.get("accumulation") == "promoted",
                               b_row_bytes=b_row_bytes, b_mn_major=b_mn_major, **swap,
                               pair=pair_open(options.get("schedule"), options.get("raster"), options.get("cluster"))):
            kept = Candidate(cand.config, tuple((k, v) for k, v in cand.options if k not in options))
            if kept not in cands:  # an option given stays as given
                cands.append(kept)
        order = [views["a"], views["b"], views["out"]] + ([views["c"]] if "c" in views else [])

        def prepare(cand: Candidate) -> Any:
            plan = _plan(views, target, acc, cand.config, False, {**cand.option_dict, **options})
            prepared = _kernel(plan, target).prepare(order)
            return lambda: launcher.enqueue(cuda, prepared, handle)

        trials = run_trials(cands, prepare, lambda launch: time_launches(cuda, handle, launch))
        found = remember(key, trials, problem=base.source)
    return found.config, {**found.option_dict, **options}


def _overlap(x: ArrayView, y: ArrayView) -> bool:
    (a0, a1), (b0, b1) = x.span(), y.span()
    return a0 < b1 and b0 < a1


def _not_capturing() -> Any:
    return session.load_driver().CUstreamCaptureStatus.CU_STREAM_CAPTURE_STATUS_NONE


def _arg(v: ArrayView, name: str) -> MatrixArg:
    return MatrixArg(name, v.shape, v.strides, v.dtype)


def _plan(views: Mapping[str, ArrayView], target: str, acc: str | None, config: Any, dynamic: bool, options: Mapping[str, Any]) -> MatmulPlan:
    key = (
        tuple((n, v.shape, v.strides, v.dtype) for n, v in views.items()),
        target, acc, repr(config), dynamic, tuple(sorted(options.items())),
    )
    found = _plans.get(key)
    if found is not None:
        return found
    out = _arg(views["out"], "out") if "out" in views else None
    c = _arg(views["c"], "c") if "c" in views else None
    plan = plan_matmul(_arg(views["a"], "a"), _arg(views["b"], "b"), out, c, target=target, acc=acc, config=config,
                       options=dict(options), dynamic=dynamic)
    return _plans.put(key, plan)


def _kernel(plan: MatmulPlan, target: str) -> Kernel:
    return one_kernel(plan.source, "<lower_tc.matmul>", _kernels, (plan.source, target))


def _device_target(device_id: int) -> str:
    """The target of the GPU the arrays are on: sm_90a on compute capability 9.0, sm_100a
    on 10.0; other GPUs run no lower-tc kernel. Asked once per device."""
    found = _targets.get(device_id)
    if found is None:
        found = _targets[device_id] = _capability_target(device_id)
    return found


#: The target of each device seen.
_targets: dict[int, str] = {}


def _capability_target(device_id: int) -> str:
    major, minor = tuple(session.load_core().Device(device_id).compute_capability)
    for target, capability in TARGET_CAPABILITY.items():
        if capability == (major, minor):
            return target
    raise DeviceError(f"device {device_id} has compute capability {major}.{minor}: lower-tc's kernels need 9.0 (sm_90a) or 10.0 (sm_100a)")


def allocate(like: Any, shape: tuple[int, ...], dtype: str) -> Any:
    """An empty row-major array for D (M x N, or batch x M x N), from `like`'s library and
    on its device: a torch tensor, or a CuPy array (bf16 as uint16 bits, wrapped by
    `reinterpret`)."""
    owner = like.array if isinstance(like, Reinterpreted) else like
    module = type(owner).__module__.split(".")[0]
    if module == "torch":
        torch = sys.modules["torch"]
        return owner.new_empty(shape, dtype=getattr(torch, TORCH_DTYPES[dtype]))
    if module in ("cupy", "cupy_backends"):
        cupy = sys.modules["cupy"]
        with owner.device:
            array = cupy.empty(shape, dtype=CUPY_DTYPES[dtype])
        return reinterpret(array, dtype) if dtype == "bf16" else array
    raise ArgumentError(f"out: lower_tc.matmul allocates D only like torch and CuPy arrays (a is {type(owner).__name__}); pass out=", "out")


__all__ = ["allocate", "matmul"]
