"""`compile`: a tile program or a `tc.matmul` to a `Kernel` callable on GPU arrays.

The source is MLIR text, an xDSL `ModuleOp` (printed and parsed again, so the caller's
module is left as it was), or a path to an existing ``.mlir`` file (an `os.PathLike`, or a
one-line str ending in ``.mlir``). It is compiled as `lower-tc -t cubin` compiles it (the
default pipeline, then ptxas for the kernel's target: lowering/compile.py `compile_source`).

A program the compiler refuses is a `CompileError` (lowering/compile.py) whose message is
the located line ``file:line:col: error: ...`` the command line prints (several lines for
ptxas, one per error it found), its place also as fields; a missing ptxas or its time-out
is one too. The caller's mistakes about
what to pick are ValueErrors: `kernel=` names one kernel, and is needed where the module
has several; `target=` is checked against the kernel's `tc.target` (and gives a linalg
contraction in a function without one its target).
"""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path
from collections.abc import Hashable
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from lower_tc.lowering.backend.ptxas import BackendError
from lower_tc.lowering.compile import CompiledKernel, CompileError, compile_artifact, compile_error, compile_source
from lower_tc.lowering.parse import decode_source
from lower_tc.lowering.runtime.callable import Kernel, LruCache
from lower_tc.lowering.runtime.session import TARGET_CAPABILITY


def compile(source: str | os.PathLike[str] | ModuleOp, *, kernel: str | None = None, target: str | None = None) -> Kernel:  # noqa: A001 - lower_tc.compile, as the API names it
    """Compiles `source` (see the module's docstring) and returns its kernel, named by
    `kernel` where the module has several; `target` ("sm_90a", "sm_100a"), where given,
    must be the kernel's, and is the target of a linalg contraction in a function without
    tc.target (convert-linalg-to-tc's option). Raises CompileError for a program the compiler refuses,
    ValueError for a kernel or target that does not fit, OSError for an unreadable path."""
    if target is not None and target not in TARGET_CAPABILITY:
        raise ValueError(f"target {target!r}: lower-tc compiles for {', '.join(TARGET_CAPABILITY)}")
    text, name = source_text(source)
    chosen = pick(compiled(text, name, target), kernel, name)
    if target is not None and chosen.info.target != target:
        raise ValueError(f"kernel {chosen.name} is for {chosen.info.target} (its tc.target), not {target}")
    return chosen.kernel()


def source_text(source: Any) -> tuple[str, str]:
    """The program's text and the name its errors give it."""
    if isinstance(source, ModuleOp):
        out = StringIO()
        Printer(stream=out).print_op(source)
        return out.getvalue(), "<module>"
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and source.strip().endswith(".mlir")
    ):
        path = Path(source).expanduser()
        return decode_source(path.read_bytes(), str(source)), str(source)
    if isinstance(source, str):
        return source, "<source>"
    raise TypeError(f"lower_tc.compile takes MLIR text, a path to a .mlir file or an xDSL ModuleOp, not {type(source).__name__}")


def compiled(text: str, name: str, target: str | None = None) -> list[CompiledKernel]:
    """compile_source(assemble=True), its refusals as CompileError; `target` is the
    target of linalg contractions in functions without tc.target."""
    try:
        return compile_source(text, name, assemble=True, target=target)
    except (ParseError, DiagnosticException, BackendError) as err:
        raise compile_error(err, name) from err


def pick(kernels: list[CompiledKernel], kernel: str | None, name: str) -> CompiledKernel:
    names = [k.name for k in kernels]
    if not kernels:
        raise CompileError(f'{name}: error: no kernel: a kernel is a func.func with tc.target = "sm_90a" (or "sm_100a")')
    if kernel is None:
        if len(kernels) > 1:
            raise ValueError(f"{name} has {len(kernels)} kernels ({', '.join(names)}): name one with kernel=")
        return kernels[0]
    for k in kernels:
        if k.name == kernel:
            return k
    raise ValueError(f"{name} has no kernel {kernel!r} (its kernels: {', '.join(names)})")


def one_kernel(source: str, name: str, cache: LruCache[Hashable, Kernel], key: Hashable) -> Kernel:
    """The Kernel of a generated one-kernel program (lower_tc.matmul's, lower_tc.attention's),
    compiled once per `key` into `cache` (and on disk: compile_artifact). A refusal is a
    CompileError naming `name`, in one line where the compiler gave no located one."""
    found = cache.get(key)
    if found is not None:
        return found
    try:
        artifact = compile_artifact(source, name)
    except CompileError:
        raise
    except Exception as err:  # noqa: BLE001 - a refusal the caller's checks did not foresee, as one line
        lines = str(err).strip().splitlines()
        raise CompileError(f"{name}: error: {lines[0] if lines else type(err).__name__}") from err
    [info] = artifact.infos
    return cache.put(key, Kernel(artifact.cubin, info))


__all__ = ["CompileError", "compile", "compiled", "one_kernel", "pick", "source_text"]
