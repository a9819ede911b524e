"""PTX -> cubin through one door: nvJitLink in this process where it is installed, else ptxas.

`assemble(ptx, target, kernel_locations=...)` is what the compiler, the command line and the
API call. Which assembler runs is `$LOWER_TC_ASSEMBLER`:

- ``auto`` (the default, also when unset or empty): nvJitLink (lowering/backend/nvjitlink.py)
  when cuda.core and libnvJitLink are installed, else the ptxas program (ptxas.py); but a
  PTX with `setmaxnreg` (the warp-specialised kernels) goes to the ptxas program wherever
  it is found: nvJitLink assembles PTX as a relocatable unit, where ptxas ignores setmaxnreg
  (nvjitlink.py says what that cost on the H100);
- ``nvjitlink``: nvJitLink, or an error saying why it is not available;
- ``ptxas``: the ptxas program.

Both keep the same rules: ptxas's errors pointed at the source ops, its "wgmma.mma_async
instructions are serialized" warning an error, $LOWER_TC_PTXAS_TIMEOUT as the time limit.
A PTX that nvJitLink rejects is not retried with ptxas: both are the same ptxas, so the
error is the kernel's. `identity()` names the assembler that would run, with its version
and where it is, for cache keys (the two make different cubins from the same PTX); under
`auto` with both at hand it names both, since which one runs depends on the PTX.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path

from lower_tc.lowering.backend import nvjitlink, ptxas
from lower_tc.lowering.backend.ptxas import BackendError, ToolUnavailableError

#: The environment variable that picks the assembler.
ASSEMBLER_ENV = "LOWER_TC_ASSEMBLER"
#: Its values.
CHOICES = ("auto", "nvjitlink", "ptxas")


def choice() -> str:
    """$LOWER_TC_ASSEMBLER as one of CHOICES (unset or empty: "auto"); another value is a
    BackendError naming the ones there are."""
    text = os.environ.get(ASSEMBLER_ENV, "")
    value = text.strip().lower() or "auto"
    if value not in CHOICES:
        raise BackendError(f"{ASSEMBLER_ENV} is {', '.join(CHOICES[:-1])} or {CHOICES[-1]}, not {text!r}")
    return value


#: What in a PTX only a whole-program assembly honours (the ptxas program; module docstring).
WHOLE_PROGRAM_INSTRUCTION = "setmaxnreg"


def needs_whole_program(ptx: str) -> bool:
    """Whether `ptx` has an instruction that nvJitLink's relocatable assembly would ignore."""
    return WHOLE_PROGRAM_INSTRUCTION in ptx


def chosen(ptx: str | None = None) -> str:
    """The assembler that runs (for `ptx`, where given): "nvjitlink" or "ptxas". With
    LOWER_TC_ASSEMBLER=nvjitlink and no nvJitLink here, a ToolUnavailableError saying why."""
    value = choice()
    if value == "ptxas":
        return "ptxas"
    reason = nvjitlink.unavailable_reason()
    if value == "nvjitlink":
        if reason is not None:
            raise ToolUnavailableError(f"{ASSEMBLER_ENV}=nvjitlink, but nvJitLink is not available: {reason}")
        return "nvjitlink"
    if reason is not None:
        return "ptxas"
    if ptx is not None and needs_whole_program(ptx) and ptxas.find_tool("ptxas") is not None:
        return "ptxas"
    return "nvjitlink"


def assemble(ptx: str, target: str, *, kernel_locations: Mapping[str, str | None] | None = None) -> bytes:
    """The cubin of `ptx` for `target` ("sm_90a" or "sm_100a"), by the chosen assembler.

    Raises BackendError (each ptxas error at its source op; the serialization warning),
    PtxasTimeoutError past the time limit, located at the kernel (`kernel_locations`: each
    kernel's ``file:line:col``), ToolUnavailableError when the assembler cannot run here.
    """
    if chosen(ptx) == "nvjitlink":
        return nvjitlink.assemble(ptx, target, kernel_locations=kernel_locations)
    return ptxas.assemble(ptx, target, kernel_locations=kernel_locations)


def identity() -> str:
    """The chosen assembler with its version and where it is, e.g. "nvJitLink 13.5
    (/.../libnvJitLink.so.13, ...)" or "ptxas Cuda compilation tools, release 13.0,
    V13.0.88 (/usr/local/bin/ptxas, ...)": what a cubin depends on besides the PTX. Under
    `auto` with both here, both ("nvJitLink ...; setmaxnreg: ptxas ...")."""
    if chosen() == "ptxas":
        return _ptxas_tool_identity()
    if choice() == "auto" and ptxas.find_tool("ptxas") is not None:
        return f"{nvjitlink.identity()}; {WHOLE_PROGRAM_INSTRUCTION}: {_ptxas_tool_identity()}"
    return nvjitlink.identity()


def _ptxas_tool_identity() -> str:
    tool = ptxas.find_ptxas()
    st = tool.stat()
    return _ptxas_identity(tool, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _ptxas_identity(tool: Path, size: int, mtime_ns: int) -> str:
    """ptxas's version line, asked once per file (a new file at the path is asked again)."""
    return f"ptxas {ptxas.ptxas_version(tool)} ({tool}, {size} bytes, mtime {mtime_ns})"


__all__ = ["ASSEMBLER_ENV", "CHOICES", "WHOLE_PROGRAM_INSTRUCTION", "assemble", "choice", "chosen", "identity", "needs_whole_program"]
