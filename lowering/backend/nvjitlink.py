"""In-process assembly: PTX -> cubin with nvJitLink (through cuda.core's Linker), no ptxas process.

nvJitLink carries ptxas inside it, and its logs are ptxas's lines (``ptxas application ptx
input, line 13; error   : ...``), so its errors are pointed back at the source ops exactly as
ptxas.py does. Checked with cuda.core 1.2.0 and nvJitLink 13.5 (no GPU needed):

- ptxas's "wgmma.mma_async instructions are serialized" performance warning (C7519) is in
  the Linker's *info* log after linking, without any verbose option, so it fails the build
  here as it does with ptxas. ``Program(ptx, "ptx").compile("cubin", logs=...)`` does not pass
  that log on (the log stays empty for a PTX that serializes), which is why this module
  drives ``Linker`` itself.
- An error in the PTX is raised while the Linker is built (nvJitLinkError, status
  ERROR_PTX_COMPILE), its message carrying the error log after ``nvJitLink error log:``.
- nvJitLink assembles PTX as a relocatable unit, and there ptxas ignores `setmaxnreg`
  ("(C7504) Potential Performance Loss: 'setmaxnreg' ignored to maintain compatibility across
  compilation units", in the info log; no option turns it off): a warp-specialised kernel
  then runs every warpgroup under its entry cap. Seen on the H100 (nvJitLink 13.0): fp8's
  promoted 128 x 192 GEMM spilled 400 bytes per thread and ran at 355 TFLOP/s at 4096^3,
  where the ptxas program's cubin runs at 1206 (docs/performance.md). assembler.py's `auto` therefore gives such PTX to the ptxas
  program where there is one, and `assemble` here warns (SetmaxnregIgnored) when it happens.
- The cubin is not byte-identical to the ptxas command's (the ELF notes name "nvJIT API";
  the code differs in padding and a few register moves), so the assembler is part of every
  cache key (`identity`).

The time limit ($LOWER_TC_PTXAS_TIMEOUT, as for ptxas) holds too: nvJitLink releases the
GIL while it works, so it runs on a worker thread that `assemble` waits for. An in-process
call cannot be stopped, though: past the limit the error is raised at once and the thread is
left to finish in the background (a daemon thread, which does not keep the interpreter alive).

nvJitLink is used only through cuda.core's Linker with its nvJitLink backend: without
libnvJitLink, cuda.core would link with the CUDA driver's cuLink, which needs a GPU and
a driver, so that counts as unavailable here (`unavailable_reason`).
"""

from __future__ import annotations

import functools
import os
import re
import threading
import warnings
from collections.abc import Callable, Mapping
from typing import TypeVar

from lower_tc.lowering.backend.ptxas import (
    ARCHS, BackendError, ToolUnavailableError, parse_ptxas_output, ptxas_timeout, serialization_error, timeout_error,
)

#: How to get nvJitLink (the pip wheels; a CUDA toolkit's libnvJitLink is found too).
INSTALL_HINT = "pip install cuda-core cuda-bindings nvidia-nvjitlink"

#: The marker before nvJitLink's error log in the message of cuda.bindings' nvJitLinkError.
_ERROR_LOG = "nvJitLink error log:"
#: nvJitLink's own closing line (``ERROR NVJITLINK_ERROR_PTX_COMPILE: JIT the PTX ()``),
#: which says nothing the status does not.
_OWN_LINE = re.compile(r"^ERROR NVJITLINK_\w+:")

T = TypeVar("T")

#: ptxas's note (in nvJitLink's info log) that the PTX's setmaxnreg were ignored.
_SETMAXNREG_IGNORED = re.compile(r"C7504|'setmaxnreg' ignored")


class SetmaxnregIgnored(UserWarning):
    """nvJitLink assembled a kernel without its setmaxnreg (a relocatable unit): it runs
    right, but each warpgroup keeps the register cap at entry, which may spill."""


def setmaxnreg_warning(info_log: str) -> SetmaxnregIgnored | None:
    """The warning for an info log that says setmaxnreg was ignored, else None."""
    if not _SETMAXNREG_IGNORED.search(info_log):
        return None
    return SetmaxnregIgnored(
        f"{version()} ignored the kernel's setmaxnreg (it assembles PTX as a relocatable unit: "
        "ptxas C7504), so every warpgroup keeps the register cap at entry and the consumers may "
        "spill; the ptxas program keeps them (pip install 'lower-tc[ptxas]', or "
        "LOWER_TC_ASSEMBLER=ptxas / auto, which uses it for such kernels where it is found)"
    )


@functools.cache
def unavailable_reason() -> str | None:
    """Why nvJitLink cannot assemble here (cuda.core missing, or no libnvJitLink so that
    cuda.core would fall back to the driver), or None when it can. Probed once per process."""
    try:
        # imported here: cuda.core is optional (the GPU extra); importing it needs no GPU
        from cuda.core import Linker
    except Exception as err:  # not installed, or cuda.bindings of a major it does not support
        return f"cuda.core cannot be imported ({type(err).__name__}: {err}); {INSTALL_HINT}"
    try:
        with warnings.catch_warnings():  # cuda.core warns when it falls back to the driver
            warnings.simplefilter("ignore")
            backend = Linker.which_backend()
    except Exception as err:
        return f"cuda.core cannot tell its linker ({type(err).__name__}: {err})"
    if getattr(backend, "value", backend) != "nvJitLink":
        return (
            f"libnvJitLink (12.3 or newer) was not found, so cuda.core would link with the CUDA "
            f"driver ({backend}), which needs a GPU; {INSTALL_HINT}"
        )
    return None


def available() -> bool:
    """nvJitLink can assemble here."""
    return unavailable_reason() is None


@functools.cache
def version() -> str:
    """nvJitLink's version, e.g. "nvJitLink 13.5" (the library reports major.minor only)."""
    # imported here: cuda.bindings is optional (the GPU extra)
    from cuda.bindings import nvjitlink

    major, minor = nvjitlink.version()
    return f"nvJitLink {major}.{minor}"


@functools.cache
def identity() -> str:
    """What a cubin assembled here depends on: the version, and the library file (path, size
    and modification time: nvJitLink reports no patch level, so a new build of the same
    major.minor must still change every cache key)."""
    try:
        # imported here: cuda.pathfinder comes with cuda.bindings (optional); it names the
        # library cuda.bindings loaded
        from cuda.pathfinder import load_nvidia_dynamic_lib

        path = load_nvidia_dynamic_lib("nvJitLink").abs_path
        st = os.stat(path)
        where = f"{path}, {st.st_size} bytes, mtime {st.st_mtime_ns}"
    except Exception as err:  # an older pathfinder, or a library loaded another way
        where = f"library not located: {type(err).__name__}"
    return f"{version()} ({where})"


def assemble(ptx: str, arch: str, *, kernel_locations: Mapping[str, str | None] | None = None) -> bytes:
    """Assemble PTX text into a cubin for `arch` ("sm_90a" or "sm_100a") in this process.

    Raises what ptxas.assemble raises for the same faults: BackendError with each ptxas
    error at its source op, the serialization warning as an error, PtxasTimeoutError past
    ptxas_timeout() at the kernel (`kernel_locations`: each kernel's ``file:line:col``), and
    ToolUnavailableError when nvJitLink is not available here.
    """
    if arch not in ARCHS:
        raise BackendError(f"unsupported arch {arch!r}: lower-tc assembles for {' or '.join(ARCHS)}.")
    limit = ptxas_timeout()
    reason = unavailable_reason()
    if reason is not None:
        raise ToolUnavailableError(f"nvJitLink is not available: {reason}")
    done, outcome = run_with_limit(lambda: _link(ptx, arch), limit)
    if not done:
        raise timeout_error(ptx, arch, None, kernel_locations or {}, limit, tool="nvJitLink")
    if isinstance(outcome, BaseException):
        raise _failure(outcome, ptx, arch)
    cubin, info_log = outcome
    serialized = serialization_error(info_log, ptx, arch, tool=f"{version()}'s ptxas")
    if serialized is not None:
        raise serialized
    ignored = setmaxnreg_warning(info_log)
    if ignored is not None:
        warnings.warn(ignored, stacklevel=2)
    return cubin


def run_with_limit(work: Callable[[], T], limit: float) -> tuple[bool, T | BaseException | None]:
    """Runs `work` on a daemon thread and waits up to `limit` seconds: (True, its result or
    the exception it raised), or (False, None) when it is still running (it is left to
    finish: an in-process call cannot be stopped)."""
    outcome: list[T | BaseException] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as err:  # handed to the waiting thread, which raises it
            outcome.append(err)

    worker = threading.Thread(target=run, name="lower-tc-nvjitlink", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        return False, None
    return True, outcome[0]


def _link(ptx: str, arch: str) -> tuple[bytes, str]:
    """The cubin and nvJitLink's info log (where ptxas's warnings are)."""
    # imported here: cuda.core is optional (checked by unavailable_reason)
    from cuda.core import Linker, LinkerOptions, ObjectCode

    linker = Linker(ObjectCode.from_ptx(ptx.encode()), options=LinkerOptions(arch=arch))
    try:
        cubin = bytes(linker.link("cubin").code)
        return cubin, _text(linker.get_info_log())
    finally:
        linker.close()


def _text(log: str | bytes | None) -> str:
    """A log as text, without the C string's NUL."""
    if log is None:
        return ""
    text = log.decode(errors="replace") if isinstance(log, bytes) else str(log)
    return text.replace("\x00", "")


def _failure(err: BaseException, ptx: str, arch: str) -> BackendError:
    """nvJitLink's refusal as ptxas's would read: its status, then each error at its source op."""
    message = _text(str(err))
    status, marker, log = message.partition(_ERROR_LOG)
    if not marker and type(err).__name__ != "nvJitLinkError":  # not a refusal of the PTX
        return BackendError(f"{version()} failed on the PTX for {arch}: {type(err).__name__}: {message.strip()}")
    status = status.strip().splitlines()[0] if status.strip() else type(err).__name__
    lines = [ln for ln in log.splitlines() if ln.strip() and not _OWN_LINE.match(ln.strip())]
    diags = parse_ptxas_output("\n".join(lines), ptx)
    errors = sum(d.severity in ("error", "fatal") for d in diags)
    count = f", {errors} error{'s' if errors != 1 else ''}" if errors else ""
    head = f"{version()} rejected the PTX for {arch} ({status}{count}):"
    body = [d.render() for d in diags] or ["(its error log is empty)"]
    return BackendError("\n".join([head, *body]))


__all__ = ["SetmaxnregIgnored", "available", "assemble", "identity", "run_with_limit", "setmaxnreg_warning", "unavailable_reason", "version"]
