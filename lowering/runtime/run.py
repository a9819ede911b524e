"""Runs a compiled kernel on the GPU and checks it against the float64 numpy reference.

Fresh random inputs every run, outputs poisoned before the launch, every CUDA call's
status checked, a time limit on the kernel (lowering/runtime/launch.py), and a
comparison in float64 (lowering/runtime/checks.py): a single-tile kernel against its
reference program (lowering/runtime/reference.py), a whole GEMM against D = A x B (+ C),
per matrix of a batched one (lowering/runtime/gemm_check.py).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np

from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
from lower_tc.lowering.runtime.attention_check import ROUNDING, check_attention
from lower_tc.lowering.runtime.checks import OutputCheck, all_stray_writes, tolerance
from lower_tc.lowering.runtime.errors import RunError
from lower_tc.lowering.runtime.gemm_check import check_gemm
from lower_tc.lowering.runtime.inputs import device_bytes, flat_indices, host_buffers, matrix_view, poison
from lower_tc.lowering.runtime.launch import launch
from lower_tc.lowering.runtime.memory import check_host_memory
from lower_tc.lowering.runtime.reference import ReferenceProgram, reference
from lower_tc.lowering.runtime.sizes import Shape, resolve_sizes


class Runnable(Protocol):
    """What the runtime needs of a compiled kernel (lowering/compile.py's CompiledKernel)."""

    info: KernelInfo
    cubin: bytes | None
    reference: ReferenceProgram | None


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
    #: written into the guard regions around the buffers.
    stray: int = 0
    per_output: list[OutputCheck] = field(default_factory=list)
    #: What else failed, in words (an attention kernel's log-sum-exp, a blind row that is not 0).
    notes: list[str] = field(default_factory=list)

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
        notes = "".join(f"; {n}" for n in self.notes)
        return f"{self.kernel}: {errors}, {self.mismatches}/{self.checked} outside{nan}{stray}{notes}: {verdict}"


def run_kernel(compiled: Runnable, seed: int, timeout: float = 10.0, shapes: dict[str, Shape] | None = None) -> RunResult:
    """Draws inputs, poisons outputs, launches, and compares with the reference.
    `shapes` gives the sizes of arguments known only at launch (see resolve_sizes, which
    checks them against the kernel's limits); sizes that break a limit (ShapeError) or need
    more host memory than there is (RunError) are refused before anything is allocated."""
    info = resolve_sizes(compiled.info, shapes)
    check_host_memory(info)
    if info.gemm is not None:
        return run_gemm_kernel(compiled, info, seed, timeout)
    if info.attention is not None:
        return run_attention_kernel(compiled, info, seed, timeout)
    program = compiled.reference
    if program is None:
        raise RunError(f"kernel {info.name} has no reference program to check it against")
    rng = np.random.default_rng(seed)
    read = program.reads
    # outputs only written start poisoned; C updated in place is read, so it is drawn
    host = host_buffers(rng, info.args, {i for i, a in enumerate(info.args) if i in read or not a.output})
    inputs64 = {i: matrix_view(h, a).astype(np.float64) for i, (h, a) in enumerate(zip(host, info.args))}
    ref = reference(program, inputs64)
    on_device = [device_bytes(h, a.dtype) for h, a in zip(host, info.args)]
    flat_results, device, overruns = launch(compiled.cubin, info, on_device, timeout)
    # every byte the program does not write comes back as it went in: inputs (as the
    # device holds them), padding, the rest of each output, and the guards around them
    stray = all_stray_writes(flat_results, on_device, overruns, ref.written, info.args)
    checks = []
    nan_count = 0
    for index, expected in ref.values.items():
        arg = info.args[index]
        tol = max(tolerance(o, arg.dtype) for o in ref.types.get(index) or {"f32"})
        mask = ref.written[index]
        got = matrix_view(flat_results[index], arg).astype(np.float64)[mask]
        want = expected[mask]
        scale = np.maximum(ref.scale[index][mask], 1e-30)
        # an infinite reference (a log-sum-exp of a row that sees no key) passes only
        # where the kernel wrote that infinity; NaN never passes
        infinite = np.isinf(want)
        exact = infinite & (got == want)
        nan = ~np.isfinite(got) & ~exact
        with np.errstate(invalid="ignore"):
            err = np.where(nan | (infinite & ~exact), np.inf, np.where(exact, 0.0, np.abs(got - want) / scale))
        nan_count += int(nan.sum())
        worst = float(err.max()) if err.size else 0.0
        checks.append(OutputCheck(arg.param, worst, tol, int((err > tol).sum()), int(mask.sum())))
    mismatches = sum(c.mismatches for c in checks)
    checked = sum(c.checked for c in checks)
    passed = nan_count == 0 and mismatches == 0 and stray == 0 and checked > 0
    return RunResult(
        info.name, device, seed, passed,
        max((c.max_error for c in checks), default=0.0),
        max((c.tolerance for c in checks), default=0.0),
        nan_count, mismatches, checked, [c.param for c in checks], stray, checks,
    )


def run_gemm_kernel(compiled: Runnable, info: KernelInfo, seed: int, timeout: float = 10.0) -> RunResult:
    """A whole GEMM: D = A x B (+ C) over the grid, checked by lowering/runtime/gemm_check.py;
    `info` is the kernel's contract with its sizes resolved."""
    gemm = info.gemm
    assert gemm is not None
    rng = np.random.default_rng(seed)
    roles = {index: role for role, index in (("a", gemm.a), ("b", gemm.b), ("c", gemm.c), ("d", gemm.d)) if index is not None}
    # D starts poisoned, unless it is C too (D += A x B): then it starts random, and C is its start
    host = host_buffers(rng, info.args, {i for i in range(len(info.args)) if roles.get(i) != "d" or i == gemm.c})
    on_device = [device_bytes(h, a.dtype) for h, a in zip(host, info.args)]
    flat_results, device, overruns = launch(compiled.cubin, info, on_device, timeout)
    d_arg = info.args[gemm.d]
    written = {gemm.d: np.ones(d_arg.shape, dtype=bool)}
    stray = all_stray_writes(flat_results, on_device, overruns, written, info.args)
    operands = {
        role: matrix_view(host[index], info.args[index]).astype(np.float64)
        for role, index in (("a", gemm.a), ("b", gemm.b), ("c", gemm.c)) if index is not None
    }
    for role, transposed in (("a", gemm.a_transposed), ("b", gemm.b_transposed), ("c", gemm.d_transposed)):
        if transposed and role in operands:  # the kernel reads this argument transposed (a tc.transpose view)
            operands[role] = np.swapaxes(operands[role], -1, -2)
    d_raw = matrix_view(flat_results[gemm.d], d_arg)
    d_out = d_raw.astype(np.float64)
    if d_arg.dtype == "s32":  # the poison is a valid integer: find it by its bits
        d_out[d_raw == poison("s32", (1,))[0]] = np.nan
    if gemm.d_transposed:  # swap-AB: the kernel computed D^T into D
        d_out = np.swapaxes(d_out, -1, -2)
    operand_dtype = info.args[gemm.a].dtype
    tol = tolerance(operand_dtype, gemm.acc)
    worst, bad, checked, missing, tol = check_gemm(gemm, operands, d_out, d_arg.dtype, operand_dtype, tol, rng)
    passed = bad == 0 and missing == 0 and stray == 0 and checked > 0
    check = OutputCheck(d_arg.param, worst, tol, bad, checked)
    return RunResult(
        info.name, device, seed, passed, worst, tol, missing, bad, checked,
        [d_arg.param], stray, [check],
    )


def _heads(x: np.ndarray) -> np.ndarray:
    """A (sequence, head dim) matrix, a (heads, sequence, head dim) batch or a (batch,
    heads, sequence, head dim) batch of batches as BHSD."""
    return x[None, None] if x.ndim == 2 else x[None] if x.ndim == 3 else x


def _shift_half_of_v(buffer: np.ndarray, arg: ArgInfo, transposed: bool = False) -> None:
    """V's last half of columns moved to mean 1 (uniform in [0, 2)), in place. O is an
    average of V's rows: where V's mean is 0, a kernel that gives the wrong keys some weight
    (a ragged mask a few keys off) moves O by far less than P's rounding bound allows
    (sum p |v| / l) and passes; with mean 1 the same weight moves O by its own size. The
    first half keeps mean 0, where a wrong pairing of P's and V's rows shows most. A
    `transposed` argument is V^T (head dim x keys): its last half of rows."""
    index = flat_indices(arg)
    half = index[..., arg.shape[-2] // 2 :, :] if transposed else index[..., arg.shape[-1] // 2 :]
    buffer[half] = (buffer[half].astype(np.float64) + 1.0).astype(buffer.dtype)


def run_attention_kernel(compiled: Runnable, info: KernelInfo, seed: int, timeout: float = 10.0) -> RunResult:
    """A loop-level attention kernel: O = softmax(Q K^T scale, masked) V, each head of a
    batch (a 3-d argument's first dimension; K/V's heads may divide Q's), checked by
    lowering/runtime/attention_check.py on every row of small problems and sampled rows
    of large ones; O starts poisoned, and nothing outside it may change."""
    att = info.attention
    assert att is not None
    rng = np.random.default_rng(seed)
    host = host_buffers(rng, info.args, {i for i in range(len(info.args)) if i not in (att.o, att.lse)})
    _shift_half_of_v(host[att.v], info.args[att.v], att.v_transposed)
    for i in att.qk_descale + att.v_descale:  # descaling factors: a quantization's scales are above 0
        index = flat_indices(info.args[i])
        host[i][index] = rng.uniform(0.25, 2.0, size=index.shape).astype(host[i].dtype)
    on_device = [device_bytes(h, a.dtype) for h, a in zip(host, info.args)]
    flat_results, device, overruns = launch(compiled.cubin, info, on_device, timeout)
    o_arg = info.args[att.o]
    stray = all_stray_writes(flat_results, on_device, overruns, {i: np.ones(info.args[i].shape, dtype=bool)
                                                                  for i in (att.o, att.lse) if i is not None}, info.args)
    q, k, v = (_heads(matrix_view(host[i], info.args[i]).astype(np.float64)) for i in (att.q, att.k, att.v))
    if att.v_transposed:  # V^T (head dim x keys) read through a view: the reference takes V
        v = np.swapaxes(v, -1, -2)
    # the descaling factors, (batch, K heads) each: the scores' product on K, V's on V
    factor = lambda i: matrix_view(host[i], info.args[i]).astype(np.float64)[:, :, None, None]  # noqa: E731
    for i in att.qk_descale:
        k = k * factor(i)
    for i in att.v_descale:
        v = v * factor(i)
    o = _heads(matrix_view(flat_results[att.o], o_arg).astype(np.float64))
    lse = None
    if att.lse is not None:  # (heads, S_q) or (batch, heads, S_q): the check wants the latter
        lse = matrix_view(flat_results[att.lse], info.args[att.lse]).astype(np.float64)
        lse = lse[None] if lse.ndim == 2 else lse
    sq, sk = q.shape[2], k.shape[2]
    if att.keys is not None:  # the keys past the count are masked: the reference does not see them
        k, v = k[:, :, : att.keys], v[:, :, : att.keys]
        sk = min(sk, att.keys)
    if att.causal is not None and att.causal != sk - sq:
        raise RunError(f"kernel {info.name}: the runner checks a causal mask aligned as FlashAttention aligns it "
                       f"(causal = keys - queries = {sk - sq}), not causal = {att.causal}")
    check = check_attention(q, k, v, o, causal=att.causal is not None, scale=att.scale, layout="bhsd",
                            p_dtype=info.args[att.q].dtype, out_dtype=o_arg.dtype, lse=lse, rng=rng)
    checked = int(o[:, :, check.rows].size)
    passed = check.ok and stray == 0 and checked > 0
    tol = 2 * ROUNDING[info.args[att.q].dtype]
    result = OutputCheck(o_arg.param, check.max_error, tol, check.bad, checked)
    notes = [p for p in check.problems if "outside the tolerance" not in p and "NaN in O" not in p]
    return RunResult(info.name, device, seed, passed, check.max_error, tol, check.nan, check.bad, checked,
                     [o_arg.param], stray, [result], notes)


__all__ = ["RunResult", "Runnable", "run_attention_kernel", "run_gemm_kernel", "run_kernel"]
