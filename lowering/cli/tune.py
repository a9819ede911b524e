"""`lower-tc run --tune input.mlir`: each `tc.matmul` (or linalg contraction) without a
configuration is tuned before the program runs: the chooser's candidates
(layout/gemm_tuning.py) are compiled and timed on the GPU (lowering/runtime/timing.py,
fresh random inputs), the fastest is written into the op and remembered per program and
device (lowering/api/tuning.py), and the program then runs (checked, or with --bench
timed) as tuned. Each candidate's time is printed, and the choice as tc.matmul's text.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i1, i64
from xdsl.printer import Printer

from lower_tc.dialects import tc
from lower_tc.dialects.tc_matmul import GemmConfigAttr, MatmulOp
from lower_tc.dialects.tc_kernel import kernel_target
from lower_tc.layout.gemm_choice import pair_open
from lower_tc.layout.gemm_tuning import Candidate, candidates
from lower_tc.passes.expand_matmul import b_rows, swap_geometry
from lower_tc.layout.targets import Arch
from lower_tc.lowering.api.tuning import Trial, remember, remembered, run_trials, tuning_key
from lower_tc.lowering.compile import apply_pipeline, compile_source, default_pipeline
from lower_tc.lowering.parse import parse
from lower_tc.lowering.runtime.errors import ShapeError
from lower_tc.lowering.runtime.session import session
from lower_tc.lowering.runtime.timing import time_kernel


def _text(module: Any) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def _set(op: MatmulOp, cand: Candidate) -> None:
    """Writes `cand` into the op: its config, and each option as the op's property."""
    op.properties["config"] = GemmConfigAttr.from_config(cand.config)
    for name, value in cand.options:
        if isinstance(value, bool):
            op.properties[name] = IntegerAttr(int(value), i1)
        elif isinstance(value, int):
            op.properties[name] = IntegerAttr(value, i64)
        else:
            op.properties[name] = StringAttr(str(value))


def _sites(module: ModuleOp) -> list[tuple[str, MatmulOp]]:
    """(kernel name, its tc.matmul) for each kernel whose matmul has no configuration."""
    found = []
    for kernel in tc.tc_kernels(module):
        for op in tc.kernel_body(kernel).ops:
            if isinstance(op, MatmulOp) and op.config is None:
                found.append((tc.kernel_name(kernel), op))
    return found


def tune_source(text: str, name: str, seed: int, timeout: float, say: Callable[[str], None]) -> str:
    """The program `text` with each untuned tc.matmul's fastest candidate written in
    (linalg contractions converted first), timing the candidates of each not tuned before
    on this GPU. A tc.matmul with sizes known only at launch is refused (ShapeError)."""
    ctx, module = parse(text, name)
    first = default_pipeline()[0]
    if first.name == "convert-linalg-to-tc":
        apply_pipeline(ctx, module, [first])
    sites = _sites(module)
    if not sites:
        say("--tune: no tc.matmul without a configuration: nothing to tune")
        return text
    for kernel_name, op in sites:
        m, n, k = op.problem
        if m is None or n is None or k is None or op.batch is None:
            raise ShapeError(f"--tune: {kernel_name}'s tc.matmul has sizes known only at launch; tuning times kernels "
                             "compiled for fixed sizes: give the memrefs static sizes")
        arch = kernel_target(op) or Arch.SM90A
        _, _, device = session(arch.value)
        a, b = op.types
        d = tc.dtype_name(op.dst.type.element_type)  # type: ignore[union-attr]
        given = {o: op.properties[o] for o in op.properties if o != "config"}
        key = tuning_key("program", device, arch.value, _text(op.parent_op() or op))  # type: ignore[arg-type]
        choice = remembered(key)
        if choice is None:
            b_mn_major, b_row_bytes = b_rows(op.b.type)  # type: ignore[arg-type]
            cands = [c for c in candidates(m, n, k, a, b, op.acc_type, arch, d=d, batch=op.batch,
                                           promoted=op.options.accumulation == "promoted",
                                           b_row_bytes=b_row_bytes, b_mn_major=b_mn_major, **swap_geometry(op),  # type: ignore[arg-type]
                                           pair=pair_open(op.options.schedule, op.options.raster, op.options.cluster))
                     if not any(o in given for o, _ in c.options)]  # an option the program gives stays

            def prepare(cand: Candidate, op: MatmulOp = op, kernel_name: str = kernel_name) -> Any:
                variant = module.clone()
                [target] = [o for kn, o in _sites(variant) if kn == kernel_name]
                _set(target, cand)
                [compiled] = [kc for kc in compile_source(_text(variant), name, assemble=True) if kc.name == kernel_name]
                return compiled

            trials: list[Trial] = []
            for trial in run_trials(cands, prepare, lambda compiled: time_kernel(compiled, seed, 2, 5, timeout).median_ms):
                trials.append(trial)
                say(f"  {kernel_name} {trial.candidate.label()}: " + (f"{trial.ms * 1e3:.1f} us" if trial.ms is not None else f"skipped ({trial.skipped})"))
            choice = remember(key, trials, problem=_text(op))
            say(f"{kernel_name}: tuned on {device}: {choice.label()}")
        else:
            say(f"{kernel_name}: tuned before on {device}: {choice.label()}")
        _set(op, choice)
    return _text(module)


__all__ = ["tune_source"]
