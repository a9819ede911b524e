"""Compiling tile programs from Python: text in, PTX (and cubins) out; the one path that
the `lower-tc` driver, `lower_tc.compile` and the embedding API (lowering/api/embedding.py)
share.

- `apply_pipeline`: passes on a module, verified after each, a failure reported at its op;
- `module_kernels`: a lowered module's kernels, each its PTX and launch contract, its cubin
  assembled when first asked for;
- `compile_source`: text through the default pipeline to those kernels (what `lower-tc
  run`, the sweeps, the benchmarks and the tests use);
- `CompileError` and `compile_error`: a refusal as the one exception the Python API raises,
  its located line and its place as fields.

A CompiledKernel is plain data (no IR): its launch contract (`KernelInfo`), its PTX, its
cubin, and for a single-tile kernel the reference program the runtime's numpy reference
evaluates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType
from xdsl.utils.exceptions import DiagnosticException, ParseError

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import Diagnostic, diagnostic, location
from lower_tc.dialects.ptx.printer import print_module
from lower_tc.layout.kernel_info import KernelInfo
from lower_tc.lowering.backend import assembler
from lower_tc.lowering.backend.ptxas import BackendError, PtxasTimeoutError
from lower_tc.lowering.parse import locating_verify_errors, parse
from lower_tc.lowering.reference_program import reference_program
from lower_tc.lowering.runtime.artifact import Artifact
from lower_tc.lowering.runtime.cache import CacheKey, cached, store
from lower_tc.lowering.runtime.callable import Kernel
from lower_tc.lowering.runtime.reference import ReferenceProgram
from lower_tc.passes import default_pipeline


class CompileError(Exception):
    """The compiler refused the program: parsing, verifying, a pass, printing the PTX or
    assembling it. `message` is what the command line prints, ``file:line:col: error:
    ...`` (ptxas: a line for each of its errors); `diagnostic` the first located error in
    it as data, whose `file`, `line` and `column` are also this exception's (None where
    the error has no place). The original exception is the `__cause__`."""

    def __init__(self, message: str, diagnostic: Diagnostic | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostic = diagnostic or _first_located(message)

    @property
    def file(self) -> str | None:
        return self.diagnostic.file

    @property
    def line(self) -> int | None:
        return self.diagnostic.line

    @property
    def column(self) -> int | None:
        return self.diagnostic.column


def _first_located(message: str) -> Diagnostic:
    """The first line of `message` that names a line of the source (ptxas's errors follow
    a heading), else its first line."""
    lines = [Diagnostic.from_line(text) for text in message.splitlines()] or [Diagnostic(message)]
    return next((d for d in lines if d.line is not None), lines[0])


def compile_error(err: ParseError | DiagnosticException | BackendError, name: str) -> CompileError:
    """`err` as a CompileError, reported as the driver reports it; an error with no place
    is put at `name`, the input's."""
    if isinstance(err, ParseError | DiagnosticException):
        found = diagnostic(err, name)
        return CompileError(str(found), found)
    if isinstance(err, PtxasTimeoutError) and err.where:
        return CompileError(str(err))
    return CompileError(f"{name}: error: {err}")


#: Passes between which the module is not verified: tc-lower-to-ptx's ptx ops have their
#: modifiers checked as each is built (dialects/ptx/base.py `build`), and the module is
#: verified after ptx-lower-loops, which only turns the kernels' loops into labels. Verifying
#: a GEMM's PTX module twice was a quarter of its lowering time.
UNVERIFIED_BETWEEN = frozenset({("tc-lower-to-ptx", "ptx-lower-loops")})


def verified_between(previous: ModulePass | None, following: ModulePass | None) -> bool:
    """Whether the module is verified after `previous` when `following` comes next."""
    return previous is not None and (following is None or (previous.name, following.name) not in UNVERIFIED_BETWEEN)


def verify_between(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
    """A pipeline's callback: the module is verified after each pass (but see
    `UNVERIFIED_BETWEEN`)."""
    if verified_between(previous, following):
        module.verify()


def apply_pipeline(
    ctx: Context, module: ModuleOp, passes: Sequence[ModulePass],
    callback: PassPipelineCallbackType | None = verify_between,
) -> None:
    """Runs `passes` in order (lower-tc's and any other ModulePass, mixed) through xDSL's
    PassPipeline, `callback` between them (xdsl-opt's, which verifies and can print or time
    them; by default `verify_between`). A verifier failure that names no op is found again
    op by op and reported at its op. Raises what the passes raise (LocatedError, xDSL's
    VerifyException and DiagnosticException)."""
    with locating_verify_errors(module):
        PassPipeline(tuple(passes), callback).apply(ctx, module)


@dataclass(eq=False)
class PtxModule:
    """What assembling one lowered module needs: its PTX text, its target and each kernel's
    place (a time-out is reported there); and its cubin, once assembled, which all its
    kernels share."""

    text: str
    target: str
    kernel_locations: dict[str, str | None]
    #: Set (the input's name), a failure to assemble is a CompileError put there where it
    #: has no place of its own: the embedding API's one exception. None: the BackendError
    #: the assembler raised (`lower-tc run` tells a missing ptxas from a rejected kernel).
    errors_at: str | None = None
    cubin: bytes | None = None

    @classmethod
    def of(cls, module: ModuleOp, text: str | None = None, errors_at: str | None = None) -> PtxModule:
        """A lowered module's (its PTX `text` where printed already)."""
        target = module.attributes.get(ptx.TARGET_ATTR)
        if not isinstance(target, StringAttr):
            print_ptx(module)  # the printer's error: the pass the pipeline lacks
            raise ValueError("the module has no ptx.target")
        places = {op.sym_name.data: location(op) for op in module.walk() if isinstance(op, ptx.KernelOp)}
        return cls(print_ptx(module) if text is None else text, target.data, places, errors_at)

    def assemble(self) -> bytes:
        """The cubin (nvJitLink or ptxas: lowering/backend/assembler.py), assembled once;
        BackendError (or CompileError, `errors_at`) where that fails."""
        if self.cubin is None:
            try:
                self.cubin = assembler.assemble(self.text, self.target, kernel_locations=self.kernel_locations)
            except BackendError as err:
                if self.errors_at is None:
                    raise
                raise compile_error(err, self.errors_at) from err
        return self.cubin


class CompiledKernel:
    """One kernel: its launch contract, its code, and what its reference computes.

    `cubin` is assembled when first read (nvJitLink or ptxas, lowering/backend/assembler.py;
    BackendError where that fails) and kept; the kernels of one module share one PTX
    module (`module`), assembled once. It can be set (an experiment assembling PTX it
    changed)."""

    def __init__(
        self, name: str, info: KernelInfo, ptx: str, cubin: bytes | None = None,
        reference: ReferenceProgram | None = None, location: str | None = None,
        module: PtxModule | None = None,
    ) -> None:
        self.name = name
        self.info = info
        self.ptx = ptx
        #: A single-tile kernel's tc ops as plain data (None for a whole GEMM, which the
        #: runtime checks against D = A x B (+ C) directly, and for a module lowered elsewhere).
        self.reference = reference
        #: The kernel's place in its source (``file:line:col``), where errors about it point.
        self.location = location
        self._cubin = cubin
        self._module = module

    def __repr__(self) -> str:
        return f"<CompiledKernel {self.name} ({self.info.target}) at {self.location or '<unknown>'}>"

    @property
    def cubin(self) -> bytes:
        if self._cubin is None:
            module = self._module
            if module is None or module.text != self.ptx:  # PTX changed since: this kernel's own
                errors_at = module.errors_at if module is not None else None
                module = PtxModule(self.ptx, self.info.target, {self.name: self.location}, errors_at)
            self._cubin = module.assemble()
        return self._cubin

    @cubin.setter
    def cubin(self, value: bytes | None) -> None:
        self._cubin = value

    @property
    def assembled(self) -> bool:
        """Whether the cubin is here already (reading `cubin` assembles it)."""
        return self._cubin is not None

    def kernel(self) -> Kernel:
        """The kernel callable on GPU arrays (lowering/runtime/callable.py), on its cubin."""
        return Kernel(self.cubin, self.info)


def print_ptx(module: ModuleOp) -> str:
    """The PTX text of a module lowered by tc-lower-to-ptx."""
    out = StringIO()
    print_module(module, out)
    return out.getvalue()


def module_kernels(
    module: ModuleOp, sources: dict[str, Operation] | None = None, text: str | None = None,
    errors_at: str | None = None,
) -> list[CompiledKernel]:
    """Every kernel of a lowered module that has launch metadata (each one tc-lower-to-ptx
    made; a hand-written ptx.kernel may have none), in order, with the module's PTX
    (`text` where printed already), launch contract and cubin when first read (a failure
    as PtxModule's `errors_at` says). `sources`, where given, are the tc kernels before
    tc-lower-to-ptx by name: a single-tile kernel's reference program is read from its own."""
    shared = PtxModule.of(module, text, errors_at)
    kernels: list[CompiledKernel] = []
    for op in module.walk():
        if not isinstance(op, ptx.KernelOp) or op.info is None:
            continue
        name = op.sym_name.data
        info = KernelInfo.from_json(op.info.data)
        source = (sources or {}).get(name)
        program = reference_program(source) if source is not None and info.gemm is None and info.attention is None else None
        place = location(source) if source is not None else location(op)
        kernels.append(CompiledKernel(name, info, shared.text, reference=program, location=place, module=shared))
    return kernels


def compile_source(
    text: str,
    name: str = "<input>",
    assemble: bool = False,
    before_lowering: Callable[[ModuleOp], None] | None = None,
    target: str | None = None,
) -> list[CompiledKernel]:
    """Runs the default pipeline; returns each kernel with its PTX (and cubin if asked:
    else it is assembled when first read).

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
    apply_pipeline(ctx, module, passes[:lowering])
    if before_lowering is not None:
        before_lowering(module)
    sources = {tc.kernel_name(op): op.clone() for op in tc.tc_kernels(module)}
    apply_pipeline(ctx, module, passes[lowering:])
    kernels = module_kernels(module, sources)
    if assemble:
        assemble_kernels(kernels)
    return kernels


def assemble_kernels(kernels: list[CompiledKernel]) -> None:
    """Assembles the PTX the kernels share (one module) now, not when first read, and gives
    each the cubin; a time-out is reported at the kernel (BackendError, PtxasTimeoutError)."""
    if kernels:
        cubin = kernels[0].cubin
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
    artifact = Artifact(kernels[0].cubin, tuple(k.info for k in kernels), kernels[0].info.target)
    store(key, artifact)
    return artifact


__all__ = [
    "CompileError", "CompiledKernel", "PtxModule", "apply_pipeline", "assemble_kernels", "compile_artifact",
    "compile_error", "compile_source", "module_kernels", "print_ptx", "verified_between", "verify_between",
]
