"""The ptxas backend: PTX text -> cubin, with ptxas errors pointed back at the source.

ptxas reports errors by PTX line number, which means nothing to someone who wrote
the tc IR. The PTX printer puts a ``// from FILE:LINE:COL`` comment before the
instructions of each source op, so each ptxas error here is mapped to the nearest
such comment above its line and printed as ``FILE:LINE:COL: error: ptxas: ...``
with the PTX line and the kernel it sits in.

The CUDA tools are found on PATH, under ``$CUDA_HOME``/``$CUDA_PATH``, or in
NVIDIA's pip wheels (``pip install 'lower-tc[ptxas]'``), so no CUDA toolkit
install is needed. Nothing here needs a GPU, and nothing runs through a shell.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Targets lower-tc emits PTX for (the ``a`` variants: wgmma and tcgen05 need them).
ARCHS = ("sm_90a", "sm_100a")
#: Seconds before a ptxas / nvdisasm run counts as hung (ptxas: unless
#: LOWER_TC_PTXAS_TIMEOUT says otherwise).
TIMEOUT_S = 120
#: The environment variable that sets ptxas's time limit, in seconds.
TIMEOUT_ENV = "LOWER_TC_PTXAS_TIMEOUT"

#: Where NVIDIA's wheels put their tools, relative to a ``nvidia`` package folder:
#: CUDA 13 wheels share ``cu13/bin``; CUDA 12 wheels have one folder per wheel.
WHEEL_BIN_DIRS = (
    "cu13/bin",
    "cuda_nvcc/bin",
    "cuda_nvdisasm/bin",
    "cuda_cuobjdump/bin",
    "cu12/bin",
)

INSTALL_HINT = (
    "Install it with `pip install 'lower-tc[ptxas]'` (brings NVIDIA's nvidia-cuda-nvcc "
    "wheel), or put a CUDA toolkit's ptxas on PATH or set CUDA_HOME to the toolkit."
)

#: ``\t// from FILE:LINE:COL``, as the PTX printer writes it (its LOC_MARK is "from").
_LOC_COMMENT = re.compile(r"^\s*//\s*from\s+(?P<loc>.+:\d+:\d+)\s*$")
_ENTRY = re.compile(r"\.entry\s+(?P<name>[A-Za-z_$%][\w$]*)\s*\(")
#: ``ptxas input.ptx, line 13; error   : Unknown symbol '%r9'``
_DIAG = re.compile(r"^ptxas\s+(?P<file>.+?), line (?P<line>\d+); (?P<sev>\w+)\s*: (?P<msg>.*)$")
#: ``ptxas fatal   : ... at line 13 in function k ...`` (no file, line inside the text)
_OTHER = re.compile(r"^ptxas\s+(?P<sev>\w+)\s*: (?P<msg>.*)$")
_LINE_IN_MSG = re.compile(r"\bline (\d+)\b")


class BackendError(Exception):
    """ptxas or a disassembler failed, or could not be found or run.

    The message is meant to be shown as it is, without a traceback.
    """


class ToolUnavailableError(BackendError):
    """The tool is missing or cannot be started here: the machine, not the input, is at fault."""


class ToolTimeoutError(BackendError):
    """A tool ran past its time limit (`seconds`)."""

    def __init__(self, msg: str, seconds: float):
        super().__init__(msg)
        self.seconds = seconds


class PtxasTimeoutError(ToolTimeoutError):
    """ptxas ran past its time limit on a kernel: the message is one line, at the kernel's
    place (`where`, when known), naming it and saying how to give ptxas longer."""

    def __init__(self, msg: str, seconds: float, where: str | None):
        super().__init__(f"{where}: error: {msg}" if where else msg, seconds)
        self.msg = msg
        self.where = where


# --------------------------------------------------------------------------- tools


def _exe_names(name: str) -> list[str]:
    return [name + ".exe", name] if os.name == "nt" else [name]


def _nvidia_roots() -> list[Path]:
    """Every folder of the ``nvidia`` namespace package (one per site-packages that has it)."""
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _pathfinder(name: str) -> Path | None:
    """cuda.pathfinder's answer, where it is installed and knows the tool (it may not)."""
    try:
        # imported here: cuda.pathfinder is optional (it comes with the GPU bindings)
        from cuda.pathfinder import find_nvidia_binary_utility  # type: ignore[import-not-found]

        found = find_nvidia_binary_utility(name)
    except Exception:  # not installed, too old, or the tool is not in its list
        return None
    return Path(found) if found else None


def search_dirs(extra_roots: Iterable[Path | str] = ()) -> list[Path]:
    """The folders searched after PATH, in order: $CUDA_HOME/bin, $CUDA_PATH/bin, then the
    wheel bin folders under `extra_roots` (folders laid out like the ``nvidia`` package)
    and under every folder of the installed ``nvidia`` package."""
    dirs: list[Path] = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        value = os.environ.get(var)
        if value:
            dirs.append(Path(value) / "bin")
    for root in [*map(Path, extra_roots), *_nvidia_roots()]:
        dirs.extend(root / sub for sub in WHEEL_BIN_DIRS)
    return dirs


def find_tool(name: str, *, extra_roots: Iterable[Path | str] = ()) -> Path | None:
    """Find a CUDA tool (ptxas, nvdisasm, cuobjdump): PATH, then CUDA_HOME / CUDA_PATH,
    then NVIDIA's pip wheels in this Python environment, then cuda.pathfinder.

    Returns None when there is none. Raises BackendError when the only copies found are
    not executable (pip wheels sometimes lose the +x bit), so that is not mistaken for
    a missing tool.
    """
    on_path = shutil.which(name)
    if on_path:
        return Path(on_path)
    not_executable: list[Path] = []
    for folder in search_dirs(extra_roots):
        for exe in _exe_names(name):
            candidate = folder / exe
            if candidate.is_file():
                if os.access(candidate, os.X_OK):
                    return candidate
                not_executable.append(candidate)
    found = _pathfinder(name)
    if found is not None and found.is_file():
        if os.access(found, os.X_OK):
            return found
        not_executable.append(found)
    if not_executable:
        paths = ", ".join(str(p) for p in dict.fromkeys(not_executable))
        raise ToolUnavailableError(
            f"found {name} at {paths} but it is not executable (pip wheels sometimes lose "
            f"the +x bit); fix it with `chmod +x {not_executable[0]}`."
        )
    return None


def find_ptxas(*, extra_roots: Iterable[Path | str] = ()) -> Path:
    """ptxas, or a BackendError that says how to get it."""
    found = find_tool("ptxas", extra_roots=extra_roots)
    if found is None:
        raise ToolUnavailableError(
            "ptxas not found: looked on PATH, in $CUDA_HOME/bin and $CUDA_PATH/bin, and in "
            f"NVIDIA's pip wheels (nvidia/cu13/bin, nvidia/cuda_nvcc/bin). {INSTALL_HINT}"
        )
    return found


def ptxas_timeout() -> float:
    """ptxas's time limit in seconds: $LOWER_TC_PTXAS_TIMEOUT, else TIMEOUT_S."""
    text = os.environ.get(TIMEOUT_ENV)
    if text is None:
        return TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value > 0 and value != float("inf")):
        raise BackendError(f"{TIMEOUT_ENV} is a positive number of seconds, not {text!r}")
    return value


def run_tool(
    argv: Sequence[str], *, cwd: Path | None = None, what: str, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a tool without a shell, with a time limit (TIMEOUT_S unless given); failures to
    start become ToolUnavailableError, a run past the limit ToolTimeoutError."""
    limit = TIMEOUT_S if timeout is None else timeout
    try:
        return subprocess.run(
            list(argv), cwd=cwd, capture_output=True, text=True, timeout=limit, check=False
        )
    except subprocess.TimeoutExpired:
        raise ToolTimeoutError(f"{what} did not finish within {limit:g} s: {' '.join(argv)}", limit) from None
    except OSError as err:
        raise ToolUnavailableError(f"could not run {what} ({argv[0]}): {err}") from None


def ptxas_version(ptxas: Path | None = None) -> str:
    """The release line of ``ptxas --version`` (e.g. "Cuda compilation tools, release 13.0, V13.0.88")."""
    tool = ptxas or find_ptxas()
    proc = run_tool([str(tool), "--version"], what="ptxas --version")
    lines = [ln.strip() for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    if proc.returncode != 0 or not lines:
        raise BackendError(f"`{tool} --version` failed (exit status {proc.returncode}).")
    return next((ln for ln in lines if "release" in ln), lines[-1])


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class PtxasDiagnostic:
    """One ptxas message, with where it points in the PTX and in the source."""

    severity: str
    message: str
    ptx_line: int | None = None
    ptx_text: str | None = None
    kernel: str | None = None
    source_loc: str | None = None

    def render(self, ptx_name: str = "<ptx>") -> str:
        where = self.source_loc or (f"{ptx_name}:{self.ptx_line}" if self.ptx_line else ptx_name)
        head = f"{where}: {self.severity}: ptxas: {self.message}"
        if self.ptx_line is None:
            return head + (f"\n    in kernel {self.kernel}" if self.kernel else "")
        kernel = f"kernel {self.kernel}, " if self.kernel else ""
        return f"{head}\n    {kernel}PTX line {self.ptx_line}: {(self.ptx_text or '').strip()}"


def locate(ptx: str, line: int) -> tuple[str | None, str | None, str | None]:
    """For a 1-based PTX line: (its text, the kernel it is in, the source loc of the
    nearest ``// from`` comment above it inside that kernel)."""
    lines = ptx.splitlines()
    if not 1 <= line <= len(lines):
        return None, None, None
    kernel = loc = None
    for i in range(line - 1, -1, -1):
        text = lines[i]
        entry = _ENTRY.search(text)
        if entry:
            kernel = entry.group("name")
            break
        if loc is None:
            mark = _LOC_COMMENT.match(text)
            if mark:
                loc = mark.group("loc")
    if kernel is None:  # a global, outside every kernel: a loc above it is not its own
        loc = None
    return lines[line - 1], kernel, loc


def parse_ptxas_output(output: str, ptx: str) -> list[PtxasDiagnostic]:
    """ptxas's messages, each mapped to its PTX line, kernel and source location."""
    diags: list[PtxasDiagnostic] = []
    for raw in output.splitlines():
        text = raw.strip()
        if not text:
            continue
        m = _DIAG.match(text)
        if m:
            severity, message, line = m.group("sev"), m.group("msg").strip(), int(m.group("line"))
        else:
            m = _OTHER.match(text)
            if m is None:
                diags.append(PtxasDiagnostic("note", text))
                continue
            severity, message = m.group("sev"), m.group("msg").strip()
            if message == "Ptx assembly aborted due to errors":
                continue
            in_msg = _LINE_IN_MSG.search(message)
            line = int(in_msg.group(1)) if in_msg else None
        if line is None:
            diags.append(PtxasDiagnostic(severity, message))
            continue
        ptx_text, kernel, loc = locate(ptx, line)
        diags.append(PtxasDiagnostic(severity, message, line, ptx_text, kernel, loc))
    return list(dict.fromkeys(diags))


# --------------------------------------------------------------------------- assemble


#: ptxas's warning when it cannot keep wgmma asynchronous (accumulator registers touched
#: between wgmma.fence and the wait, or across control flow it cannot see through).
SERIALIZED = "wgmma.mma_async instructions are serialized"


def assemble(
    ptx: str,
    arch: str,
    *,
    kernel: str | None = None,
    extra_args: Sequence[str] = (),
    ptxas: Path | None = None,
    kernel_locations: Mapping[str, str | None] | None = None,
) -> bytes:
    """Assemble PTX text into a cubin for `arch` ("sm_90a" or "sm_100a").

    `kernel`, if given, restricts code generation to that entry (``ptxas --entry``) and
    names it in errors. Every failure (a ptxas error, a timeout, a missing ptxas) is a
    BackendError whose message points each ptxas error at its source op. ptxas may run
    for ptxas_timeout() seconds ($LOWER_TC_PTXAS_TIMEOUT, default TIMEOUT_S); past that
    it is a PtxasTimeoutError at the kernel (`kernel_locations`: each kernel's
    ``file:line:col``).
    """
    if arch not in ARCHS:
        raise BackendError(f"unsupported arch {arch!r}: lower-tc assembles for {' or '.join(ARCHS)}.")
    limit = ptxas_timeout()
    tool = ptxas or find_ptxas()
    try:
        workdir = tempfile.TemporaryDirectory(prefix="lower-tc-ptxas-")
    except OSError as err:
        raise ToolUnavailableError(f"cannot make a folder for ptxas's files: {err.strerror or err}") from None
    with workdir as tmp:
        src, out = Path(tmp) / "input.ptx", Path(tmp) / "input.cubin"
        try:
            src.write_text(ptx)
        except OSError as err:  # a full disk or a file-size limit where the temporary files go
            raise ToolUnavailableError(f"cannot write ptxas's input file {src}: {err.strerror or err}") from None
        argv = [str(tool), f"-arch={arch}", *extra_args]
        if kernel is not None:
            argv += ["--entry", kernel]
        argv += [src.name, "-o", out.name]
        try:
            proc = run_tool(argv, cwd=Path(tmp), what="ptxas", timeout=limit)
        except ToolTimeoutError:
            raise timeout_error(ptx, arch, kernel, kernel_locations or {}, limit) from None
        if proc.returncode < 0:  # ended by a signal: the machine, not the PTX
            raise ToolUnavailableError(_ended_by_signal(-proc.returncode, tool, kernel, ptx))
        if proc.returncode != 0:
            raise BackendError(_failure(proc, ptx, arch, kernel, tool))
        if not out.is_file():
            raise BackendError(f"ptxas exited 0 but wrote no cubin ({' '.join(argv)}).")
        serialized = serialization_error(proc.stderr + proc.stdout, ptx, arch, kernel)
        if serialized is not None:
            raise serialized
        return out.read_bytes()


#: Where ptxas's serialization warning says it is: ``... in the function 'k' in line 282``.
_SERIALIZED_LINE = re.compile(r"\bin line (\d+)\b")
_SERIALIZED_KERNEL = re.compile(r"\bin the function '(?P<name>[^']+)'")


def serialization_error(log: str, ptx: str, arch: str, kernel: str | None = None, tool: str = "ptxas") -> BackendError | None:
    """The error for ptxas's "wgmma.mma_async instructions are serialized" warning in
    `log` (correct code but slow: every wgmma waits for the one before), pointed at the
    source op of the PTX line the warning names; None when the log has no such warning."""
    serialized = [line.strip() for line in log.splitlines() if SERIALIZED in line]
    if not serialized:
        return None
    message = _OTHER.sub(lambda m: m.group("msg"), serialized[0]).strip()
    found = _SERIALIZED_LINE.search(message)
    named = _SERIALIZED_KERNEL.search(message)
    kernel = kernel or (named.group("name") if named else None)
    diag = PtxasDiagnostic("error", message, kernel=kernel)
    if found is not None:
        line = int(found.group(1))
        diag = PtxasDiagnostic("error", message, line, *locate(ptx, line))
    return BackendError(
        f"{tool} serialized the wgmma instructions of {f'kernel {kernel}' if kernel else 'the PTX'} "
        f"for {arch} (lower-tc treats this warning as an error):\n{diag.render()}"
    )


def _kernels(ptx: str, kernel: str | None) -> list[str]:
    """The kernels ptxas works on: `kernel`, or every .entry in the PTX."""
    return [kernel] if kernel else [m.group("name") for m in _ENTRY.finditer(ptx)]


def _what(names: list[str]) -> str:
    if not names:
        return "the PTX"
    return f"kernel {names[0]}" if len(names) == 1 else f"kernels {', '.join(names)}"


def _ended_by_signal(number: int, tool: Path, kernel: str | None, ptx: str) -> str:
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    hint = {
        "SIGXFSZ": ": the file-size limit (ulimit -f) is too small for the cubin",
        "SIGKILL": ": killed, perhaps for lack of memory",
    }.get(name, "")
    return f"ptxas ({tool}) was ended by {name} while assembling {_what(_kernels(ptx, kernel))}{hint}"


def timeout_error(
    ptx: str, arch: str, kernel: str | None, locations: Mapping[str, str | None], limit: float, tool: str = "ptxas"
) -> PtxasTimeoutError:
    """`tool` (ptxas, or nvJitLink's ptxas) past its time limit: which kernel, how long,
    how to give it longer."""
    names = _kernels(ptx, kernel)
    what = _what(names)
    where = next((locations.get(n) for n in names if locations.get(n)), None)
    return PtxasTimeoutError(
        f"{tool} ran {limit:g} s on {what} for {arch} without finishing; give it longer with "
        f"{TIMEOUT_ENV}=SECONDS (a long or unrolled kernel can take minutes)",
        limit, where,
    )


def _failure(proc: subprocess.CompletedProcess[str], ptx: str, arch: str, kernel: str | None, tool: Path) -> str:
    output = (proc.stderr + "\n" + proc.stdout).strip()
    diags = parse_ptxas_output(output, ptx)
    errors = sum(d.severity in ("error", "fatal") for d in diags)
    what = f"kernel {kernel}" if kernel else "the PTX"
    head = (
        f"ptxas ({tool}) rejected {what} for {arch} with exit status {proc.returncode}"
        f" ({errors} error{'s' if errors != 1 else ''}):"
    )
    body = [d.render() for d in diags] or [output or "(ptxas printed nothing)"]
    return "\n".join([head, *body])
