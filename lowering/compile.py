"""Compiling tile programs from Python: text in, PTX (and cubins) out.

This is what `lower-tc run`, the sweeps, the benchmarks and the tests use; the command-line
driver runs the same passes. A CompiledKernel is plain data (no IR): its launch contract
(`KernelInfo`), its PTX, its cubin when assembled, and for a single-tile kernel the
reference program the runtime's numpy reference evaluates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO

from xdsl.dialects.builtin import ModuleOp

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import location
from lower_tc.dialects.ptx.printer import print_module
from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.lowering.backend import assembler
from lower_tc.lowering.parse import parse, verify
from lower_tc.lowering.reference_program import reference_program
from lower_tc.lowering.runtime.artifact import Artifact
from lower_tc.lowering.runtime.cache import CacheKey, cached, store
from lower_tc.lowering.runtime.reference import ReferenceProgram
from lower_tc.passes import default_pipeline


@dataclass
class CompiledKernel:
    """One kernel: its launch contract, its code, and what its reference computes."""

    name: str
    info: KernelInfo
    ptx: str
    cubin: bytes | None = None
    #: A single-tile kernel's tc ops as plain data (None for a whole GEMM, which the
    #: runtime checks against D = A x B (+ C) directly).
    reference: ReferenceProgram | None = None
    #: The kernel's place in its source (``file:line:col``), where errors about it point.
    location: str | None = None


def print_ptx(module: ModuleOp) -> str:
    """The PTX text of a module lowered by tc-lower-to-ptx."""
    out = StringIO()
    print_module(module, out)
    return out.getvalue()


def compile_source(
    text: str,
    name: str = "<input>",
    assemble: bool = False,
    before_lowering: Callable[[ModuleOp], None] | None = None,
    target: str | None = None,
) -> list[CompiledKernel]:
    """Runs the default pipeline; returns each kernel with its PTX (and cubin if asked).

    Errors are raised as xDSL diagnostics (ParseError, VerifyException,
    LocatedError) and, for ptxas, BackendError (PtxasTimeoutError past ptxas's time
    limit, $LOWER_TC_PTXAS_TIMEOUT). `before_lowering` may edit
    the module between tc-compute-descriptors and tc-lower-to-ptx
    (experiments use it to force descriptor fields). `target` ("sm_90a", "sm_100a") is
    the target of linalg contractions in functions without tc.target
    (convert-linalg-to-tc's option; one that differs from a function's tc.target is an
    error at the function).
    """
    ctx, module = parse(text, name)
    passes = default_pipeline(**({"convert-linalg-to-tc": {"target": target}} if target else {}))
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
    text_out = print_ptx(module)
    kernels = []
    for op in module.walk():
        if isinstance(op, ptx.KernelOp):
            info = KernelInfo.from_json(op.info.data) if op.info is not None else None
            if info is None:
                raise ValueError(f"ptx.kernel {op.sym_name.data} has no launch metadata (info)")
            # the reference follows a single-tile kernel's tc ops; a GEMM is checked as one
            source = sources[op.sym_name.data]
            program = reference_program(source) if info.gemm is None else None
            kernels.append(CompiledKernel(op.sym_name.data, info, text_out, reference=program, location=location(source)))
    if assemble:
        assemble_kernels(kernels)
    return kernels


def assemble_kernels(kernels: list[CompiledKernel]) -> None:
    """Assembles the PTX the kernels share (one module) and gives each the cubin (nvJitLink
    or ptxas: lowering/backend/assembler.py); a time-out is reported at the kernel
    (BackendError, PtxasTimeoutError)."""
    if not kernels:
        return
    places = {k.name: k.location for k in kernels}
    cubin = assembler.assemble(kernels[0].ptx, kernels[0].info.target, kernel_locations=places)
    for k in kernels:
        k.cubin = cubin


def compile_artifact(text: str, name: str = "<input>") -> Artifact:
    """Every kernel of `text` as an artifact (the cubin and each kernel's contract): from the
    disk cache when it holds this text compiled by this lower-tc with the assembler that
    would run now (lowering/runtime/cache.py), else compiled, assembled and stored. Raises
    what compile_source raises, and ValueError for a program with no kernel."""
    key = CacheKey.for_source(text)
    hit = cached(key)
    if hit is not None:
        return hit
    kernels = compile_source(text, name, assemble=True)
    if not kernels:
        raise ValueError(f"{name} has no kernel: no function carries tc.target")
    assert kernels[0].cubin is not None  # assemble=True
    artifact = Artifact(kernels[0].cubin, tuple(k.info for k in kernels), kernels[0].info.target)
    store(key, artifact)
    return artifact


__all__ = ["CompiledKernel", "assemble_kernels", "compile_artifact", "compile_source", "print_ptx"]
