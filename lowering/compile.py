"""Compiling tile programs from Python: text in, PTX (and cubins) out.

This is what `lower-tc run`, the sweep and the tests use; the command-line
driver wraps the same passes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

import lower_tc
from lower_tc.dialects import ptx, tc


@dataclass
class CompiledKernel:
    """One kernel: its tc form (for the reference), its metadata and its code."""

    name: str
    source: Operation  # the tc kernel (func.func or gpu.func), before lowering
    info: dict[str, Any]
    ptx: str
    cubin: bytes | None = None


def context() -> Context:
    """Every xDSL dialect (registered lazily, as the `lower-tc` driver does) plus tc and ptx."""
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    lower_tc.register_dialects(ctx)
    return ctx


def verify(module: ModuleOp) -> None:
    """module.verify(), with a failure reported at its op (as the driver does)."""
    from lower_tc.lowering.driver import locating_verify_errors

    with locating_verify_errors(module):
        module.verify()


def parse(text: str, name: str = "<input>") -> tuple[Context, ModuleOp]:
    from lower_tc.lowering.driver import LocatedParser

    ctx = context()
    module = LocatedParser(ctx, text, name).parse_module()
    verify(module)
    return ctx, module


def compile_source(
    text: str,
    name: str = "<input>",
    assemble: bool = False,
    before_lowering: Callable[[ModuleOp], None] | None = None,
) -> list[CompiledKernel]:
    """Runs the default pipeline; returns each kernel with its PTX (and cubin if asked).

    Errors are raised as xDSL diagnostics (ParseError, VerifyException,
    LocatedError) and, for ptxas, BackendError. `before_lowering` may edit
    the module between tc-compute-descriptors and tc-lower-to-ptx
    (experiments use it to force descriptor fields).
    """
    ctx, module = parse(text, name)
    passes = lower_tc.default_pipeline()
    lowering = [p.name for p in passes].index("tc-lower-to-ptx")
    for p in passes[:lowering]:
        p.apply(ctx, module)
        verify(module)
    if before_lowering is not None:
        before_lowering(module)
    sources = {tc.kernel_name(op): op.clone() for op in tc.tc_kernels(module)}
    for p in passes[lowering:]:
        p.apply(ctx, module)
        verify(module)
    text_out = lower_tc.print_ptx(module)
    kernels = []
    for op in module.walk():
        if isinstance(op, ptx.KernelOp):
            info = json.loads(op.info.data) if op.info is not None else {}
            kernels.append(CompiledKernel(op.sym_name.data, sources[op.sym_name.data], info, text_out))
    if assemble and kernels:
        from lower_tc.lowering.ptxas import assemble as run_ptxas

        cubin = run_ptxas(text_out, kernels[0].info["target"])
        for k in kernels:
            k.cubin = cubin
    return kernels
