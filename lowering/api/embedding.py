"""The embedding API: lower-tc inside someone else's xDSL-based compiler (docs/embedding.md).

An embedding compiler parses with file locations (`parse`), runs a pipeline of its own
passes mixed with lower-tc's (`run_passes`) and reads each kernel's PTX, launch contract
and cubin (`kernels`). Everything it can get wrong in the program (a parse error, a
verifier's, a pass's, a missing pass, ptxas's) reaches it as one exception, `CompileError`,
whose message is the line the command line prints (``file:line:col: error: ...``) and
whose `file`, `line` and `column` say where. Remarks print as ``file:line:col: remark:
...`` on stderr, or are collected (`remarks`). Mistakes in the call itself (a pass name
no registry knows) stay ValueErrors.

The same path as `lower-tc` and `lower_tc.compile` (lowering/compile.py: `apply_pipeline`,
`module_kernels`; lowering/parse.py: the located parser), with the errors turned into
CompileError at this door.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.transforms import get_all_passes
from xdsl.utils.exceptions import DiagnosticException, ParseError

from lower_tc.dialects import register_dialects
from lower_tc.dialects.diagnostics import Diagnostic, collecting_remarks
from lower_tc.lowering import parse as located
from lower_tc.lowering.compile import CompiledKernel, apply_pipeline, compile_error, module_kernels
from lower_tc.lowering.compile import print_ptx as _print_ptx
from lower_tc.passes import available_passes, default_pipeline

T = TypeVar("T")

#: What errors at no place of their own are put at, for a module with no located op.
UNNAMED = "<module>"


def context() -> Context:
    """A context with every xDSL dialect and lower-tc's tc and ptx, each loaded when first
    met (what `lower-tc` parses with)."""
    return located.context()


def parse(text: str, name: str = "<input>", ctx: Context | None = None, *, verify: bool = True) -> ModuleOp:
    """The module of `text`, every op stamped with its ``name:line:col`` (so remarks and
    errors about it are located), verified unless `verify=False`. `ctx`: the embedder's
    context (tc and ptx are registered on it where missing); by default `context()`.
    Raises CompileError."""
    if ctx is None:
        ctx = context()
    else:
        register_dialects(ctx)
    module = _reported(lambda: located.parse_source(ctx, text, name), name)
    if verify:
        _reported(lambda: located.verify(module), name)
    return module


def verify(module: ModuleOp) -> None:
    """Verifies `module`, a failure reported at its op as CompileError."""
    _reported(lambda: located.verify(module), input_name(module))


def run_passes(
    module: ModuleOp,
    passes: str | Sequence[ModulePass] | None = None,
    ctx: Context | None = None,
    *,
    registry: Mapping[str, Callable[[], type[ModulePass]]] | None = None,
) -> None:
    """Runs a pipeline on `module` in place, verifying it first and after each pass.

    `passes`: ModulePass instances (lower-tc's from `lower_tc.default_pipeline()` or
    `lower_tc.available_passes()`, the embedder's own, xDSL's), in any order; or a pipeline
    spec (``"canonicalize,tc-expand-matmul,tc-choose-swizzle{max=64b},..."``) whose names
    are xDSL's passes, lower-tc's and `registry`'s (the embedder's: name -> factory of the
    pass class, as xDSL registers them); None: lower-tc's default pipeline. `ctx`: what the
    passes get (by default `context()`). Raises CompileError for the program's faults,
    ValueError for a spec naming a pass no registry has."""
    pipeline = _pipeline(passes, registry)
    name = input_name(module)
    verify(module)
    _reported(lambda: apply_pipeline(ctx or context(), module, pipeline), name)


def kernels(module: ModuleOp) -> list[CompiledKernel]:
    """Each kernel of a module lowered by tc-lower-to-ptx and ptx-lower-loops, in order:
    `name`, `ptx` (the whole module's PTX text, shared by its kernels), `info` (the launch
    contract, `lower_tc.contracts.KernelInfo`), `location`, `cubin` (assembled when first
    read, once per module: nvJitLink or ptxas) and `kernel()` (the `lower_tc.Kernel`
    callable on GPU arrays). Raises CompileError, also from reading `cubin`: a module not
    lowered names the pass it lacks."""
    name = input_name(module)
    return _reported(lambda: module_kernels(module, errors_at=name), name)


def print_ptx(module: ModuleOp) -> str:
    """The PTX text of a module lowered by tc-lower-to-ptx (and ptx-lower-loops); CompileError
    where it is not."""
    return _reported(lambda: _print_ptx(module), input_name(module))


def remarks() -> AbstractContextManager[list[Diagnostic]]:
    """``with lower_tc.remarks() as got:`` collects the remarks the passes make inside
    (e.g. tc-choose-swizzle{remarks=true}'s) into `got`, Diagnostics with `file`, `line`,
    `column`, `message`, instead of printing them on stderr."""
    return collecting_remarks()


def input_name(module: ModuleOp) -> str:
    """The file the module was parsed from (its first located op's), for errors at no
    place of their own; UNNAMED for a module built in memory."""
    for op in module.walk():
        if isinstance(op.location, FileLineColLoc):
            return op.location.filename.data
    return UNNAMED


def _pipeline(
    passes: str | Sequence[ModulePass] | None, registry: Mapping[str, Callable[[], type[ModulePass]]] | None,
) -> tuple[ModulePass, ...]:
    if passes is None:
        return tuple(default_pipeline())
    if isinstance(passes, str):
        known = {**get_all_passes(), **available_passes(), **(registry or {})}
        return PassPipeline.parse_spec(known, passes).passes
    for p in passes:
        if not isinstance(p, ModulePass):
            raise TypeError(f"run_passes takes ModulePass instances or a pipeline spec, not {type(p).__name__}")
    return tuple(passes)


def _reported(work: Callable[[], T], name: str) -> T:
    """`work()`, the program's faults as CompileError (the original is its `__cause__`)."""
    try:
        return work()
    except (ParseError, DiagnosticException) as err:
        raise compile_error(err, name) from err


__all__ = ["context", "input_name", "kernels", "parse", "print_ptx", "remarks", "run_passes", "verify"]
