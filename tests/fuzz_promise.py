"""The promise the fuzzer checks, and how it runs lower-tc to check it.

lower-tc's promise (issue 19): bad input gets exactly one located error line
(``file:line:col: error: ...``, or ``file: error: ...`` where no place exists) on stderr
and exit status 1 (command-line misuse: 2), never a traceback, never "internal error",
never a hang, nothing written half-way; nothing accepted that the hardware cannot do. In
the Python API, failures are the documented exceptions (ParseError, VerifyException,
LocatedError, BackendError).

`run_cli` runs the `lower-tc` command on an input (in a subprocess, or in this process
through its `main` for speed) with `-o` into a fresh folder that may already hold the
output file; `run_api` calls `compile_source`. `cli_findings`, `api_findings` and
`kernel_findings` say what broke, each a `Finding` with the area of lower-tc it belongs
to and a signature that groups findings that are one bug. `check` raises `PromiseBroken`
(an AssertionError) naming every finding.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from lower_tc.layout.kernel_info import GridFromArg, KernelInfo, PersistentGrid
from lower_tc.layout.limits import (
    MAX_BLOCK_THREADS,
    MAX_CLUSTER,
    MAX_GRID,
    MAX_INDEX,
    SMEM_CAPACITY,
    TMA_MAX_BOX,
    TMA_MAX_DIM,
    TMA_MAX_STRIDE,
    TMA_STRIDE_ALIGN,
)

ROOT = Path(__file__).resolve().parent.parent
#: What a pre-existing output file holds; a failed run must leave it as it was.
SENTINEL = b"// lower-tc fuzz: this file was here before the run\n"
#: Seconds a run may take before it counts as a hang (the inputs are small).
HANG_S = 60.0
#: The input's name in error lines (the CLI runs in its temporary folder).
INPUT = "in.mlir"

#: Areas of lower-tc a finding belongs to, by the folder that raised it.
AREAS = (
    ("lowering/cli/", "CLI/driver"),
    ("lowering/parse.py", "parser"),
    ("lowering/compile.py", "Python API"),
    ("lowering/backend/", "backend (ptxas)"),
    ("lowering/runtime/", "runtime"),
    ("dialects/ptx/", "PTX dialect/printer"),
    ("dialects/", "tc dialect verifier"),
    ("passes/to_ptx/gemm/", "GEMM lowering"),
    ("passes/to_ptx/", "single-tile lowering"),
    ("passes/lower_to_ptx.py", "single-tile lowering"),
    ("passes/expand_matmul/", "tc pass (expand-matmul)"),
    ("passes/", "tc pass"),
    ("layout/", "layout"),
)


@dataclass(frozen=True)
class Finding:
    """One broken promise: what broke (`kind`), the area it belongs to, a signature
    (numbers and names stripped: one bug, many inputs) and the details to show."""

    kind: str
    area: str
    detail: str
    signature: str = ""

    def __str__(self) -> str:
        return f"[{self.area}] {self.kind}: {self.detail}"


class PromiseBroken(AssertionError):
    """The promise does not hold for an input; carries every finding."""

    def __init__(self, findings: list[Finding], program: object = None, how: str = ""):
        self.findings = findings
        self.program = program
        self.how = how
        lines = [f"lower-tc's promise broken ({how}):"] + [f"  {f}" for f in findings]
        super().__init__("\n".join(lines))


def normalize(text: str) -> str:
    """A message with its numbers, quoted names, paths and SSA names replaced: the same
    bug hit by different inputs gives the same text."""
    text = text.split("\n")[0]
    text = re.sub(r"\S*in\.mlir\S*|<input>\S*|<stdin>\S*|stdin:\S*", "FILE", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'X'", text)
    text = re.sub(r"[%@^#!][\w.$-]+", "NAME", text)
    text = re.sub(r"-?\b\d+\b|0x[0-9a-f]+", "N", text)
    text = re.sub(r"memref<[^>]*>|!tc\.\w+<[^>]*>", "TYPE", text)
    return text[:160]


def _ours(frame: traceback.FrameSummary) -> str | None:
    """A frame's file relative to the checkout, where it is lower-tc's code (not the
    fuzzer's own, which interrupts a hang)."""
    try:
        rel = Path(frame.filename).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return None if rel.startswith(("tests/", "bench/")) or "site-packages/" in rel else rel


def _frames(tb: traceback.StackSummary) -> list[traceback.FrameSummary]:
    """The frames below the fuzzer's own (a hang's interrupt is the fuzzer's frame)."""
    frames = list(tb)
    while frames and Path(frames[-1].filename).resolve().is_relative_to(ROOT / "tests"):
        frames.pop()
    return frames


def area_of(tb: traceback.StackSummary | None) -> str:
    """The area of the deepest lower-tc frame of a traceback."""
    if not tb:
        return "unknown"
    for frame in reversed(_frames(tb)):
        rel = _ours(frame)
        if rel is None:
            continue
        for prefix, area in AREAS:
            if rel.startswith(prefix):
                return area
    return "xDSL"


def raise_site(tb: traceback.StackSummary) -> str:
    """`file:function` of the deepest lower-tc frame (and the frame below it, xDSL's)."""
    frames = _frames(tb) or list(tb)
    ours = next((f"{_ours(f)}:{f.name}" for f in reversed(frames) if _ours(f)), None)
    last = frames[-1]
    theirs = f"{Path(last.filename).name}:{last.name}"
    return f"{ours} <- {theirs}" if ours else theirs


class Hang(BaseException):
    """A run in this process took longer than HANG_S (a BaseException: lower-tc's own
    `except Exception` must not turn it into an error line)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Interrupts the Python code inside after `seconds` (main thread, POSIX only;
    elsewhere no limit)."""
    if not hasattr(signal, "setitimer") or os.name != "posix":
        yield
        return
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise Hang(f"no answer in {seconds:.0f} s")

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- running the CLI -------------------------------------------------------------------------


@dataclass
class CliRun:
    """One run of `lower-tc`: its argv, exit status, output streams, and what the output
    file held before and after."""

    argv: list[str]
    status: int | None
    stdout: bytes
    stderr: str
    before: bytes | None  # the output file before the run (None: absent)
    after: bytes | None
    leftovers: list[str]  # files the run left in the folder besides input and output
    seconds: float
    traceback: str = ""  # in-process runs: where an internal error was raised
    area: str = ""
    site: str = ""


def run_cli(
    data: bytes,
    args: list[str],
    *,
    subprocess_run: bool,
    output: str | None = "out.ptx",
    pre_existing: bool = False,
    stdin: bool = False,
    write_limit: int | None = None,
) -> CliRun:
    """Runs `lower-tc [args] in.mlir -o out` in a fresh folder (the input on stdin
    where `stdin`); `pre_existing` puts SENTINEL in the output file first; `write_limit`
    (subprocess only) caps the size of every file the command writes (RLIMIT_FSIZE: a
    full disk, as far as the command can tell)."""
    with tempfile.TemporaryDirectory(prefix="lower-tc-fuzz-") as tmp:
        folder = Path(tmp)
        (folder / INPUT).write_bytes(data)
        argv = list(args) + ([] if stdin else [INPUT])
        if output is not None:
            argv += ["-o", output]
            if pre_existing:
                (folder / output).write_bytes(SENTINEL)
        before = (folder / output).read_bytes() if output and (folder / output).exists() else None
        start = time.monotonic()
        if subprocess_run:
            status, out, err, tb, area, site = _subprocess(folder, argv, data if stdin else None, write_limit)
        else:
            status, out, err, tb, area, site = _in_process(folder, argv)
        seconds = time.monotonic() - start
        after = (folder / output).read_bytes() if output and (folder / output).is_file() else None
        # a cubin written whole comes with its launch metadata beside it (FILE.json); a
        # failed run leaves neither
        metadata = f"{output}.json" if output and output.endswith(".cubin") and status == 0 else None
        leftovers = sorted(p.name for p in folder.iterdir() if p.name not in (INPUT, output, metadata))
    return CliRun(argv, status, out, err, before, after, leftovers, seconds, tb, area, site)


def _subprocess(folder: Path, argv: list[str], stdin: bytes | None, write_limit: int | None = None):
    exe = Path(sys.executable).parent / "lower-tc"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "lower_tc.lowering.cli"]
    env = {k: v for k, v in os.environ.items() if k != "LOWER_TC_TRACEBACK"}

    def limit_writes() -> None:  # in the child, before it runs lower-tc
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (write_limit, write_limit))

    try:
        done = subprocess.run(
            cmd + argv, cwd=folder, input=stdin if stdin is not None else None,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True, timeout=HANG_S, env=env,
            preexec_fn=limit_writes if write_limit is not None and os.name == "posix" else None,
        )
    except subprocess.TimeoutExpired as err:
        return None, err.stdout or b"", (err.stderr or b"").decode("utf-8", "replace"), "", "", ""
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"), "", "", ""


def _in_process(folder: Path, argv: list[str]):
    """`lower_tc.lowering.cli.main.main(argv)` in this process, in `folder`, with its
    streams captured; an internal error is run again with LOWER_TC_TRACEBACK set, to say
    where it was raised."""
    from lower_tc.lowering.cli.main import main

    def once(traceback_env: bool):
        out, err = io.StringIO(), io.StringIO()
        cwd = os.getcwd()
        saved = os.environ.pop("LOWER_TC_TRACEBACK", None)
        if traceback_env:
            os.environ["LOWER_TC_TRACEBACK"] = "1"
        status: int | None
        try:
            os.chdir(folder)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(HANG_S):
                try:
                    status = main(argv)
                except SystemExit as exit_:
                    status = exit_.code if isinstance(exit_.code, int) else 1
                except Hang:
                    status = None
        finally:
            os.chdir(cwd)
            os.environ.pop("LOWER_TC_TRACEBACK", None)
            if saved is not None:
                os.environ["LOWER_TC_TRACEBACK"] = saved
        return status, out.getvalue().encode(), err.getvalue()

    status, out, err = once(False)
    tb = area = site = ""
    if "internal error" in err or "Traceback" in err:
        try:
            once(True)
        except BaseException as exc:  # noqa: BLE001 - what the internal error was
            summary = traceback.extract_tb(exc.__traceback__)
            tb = "".join(traceback.format_exception(exc))
            area, site = area_of(summary), raise_site(summary)
    return status, out, err, tb, area, site


#: ``in.mlir:3:5: error: ...`` or ``in.mlir: error: ...``; stdin is ``<stdin>`` or ``stdin``.
_LOCATED = r"^(?P<file>{name}):(?:(?P<line>\d+):(?P<col>\d+):)? error: (?P<msg>.*)$"
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z_0-9]*\}")
#: An error about the -p pipeline itself (a pass's name or option), not the input.
_MISUSE = re.compile(r"^lower-tc: error: .*(pass|pipeline|[Aa]rgument|Incompatible types|\w=)")


def cli_findings(
    run: CliRun, data: bytes, *, stdin: bool = False, argv_ok: bool = True, area: str = "", write_limit: bool = False,
) -> list[Finding]:
    """What `run` broke of the promise. `argv_ok`: the command line itself is valid (exit
    status 2 is then wrong); `area`: where the input's failure comes from, when known
    (the API's answer on the same text); `write_limit`: the run could not write its output
    (an error about the output file, not the input, is then one ``lower-tc: error:`` line)."""
    area = run.area or area or "unknown"
    found: list[Finding] = []

    def add(kind: str, detail: str, sig: str = "", where: str = "") -> None:
        found.append(Finding(kind, where or area, detail, f"{kind}|{sig or normalize(detail)}"))

    lines = [line for line in run.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if ": remark: " not in line and ": warning: " not in line]
    if run.status is None:
        add("hang", f"no answer in {HANG_S:.0f} s: {' '.join(run.argv)}", "hang")
        return found
    if run.seconds > HANG_S:
        add("slow", f"{run.seconds:.0f} s: {' '.join(run.argv)}", "slow")
    if "Traceback" in run.stderr:
        add("traceback", run.stderr.strip().splitlines()[-1], run.site or run.stderr.strip().splitlines()[-1])
    if "internal error" in run.stderr:
        msg = next(line for line in lines if "internal error" in line)
        add("internal error", msg + (f" (raised in {run.site})" if run.site else ""), run.site or normalize(msg))
    if run.status not in (0, 1, 2):
        add("exit status", f"exit status {run.status}", str(run.status))
    if run.status == 2 and argv_ok:
        add("exit status", f"exit 2 (misuse) for a valid command line: {run.stderr.strip()[:200]}")
    if run.status == 2:  # misuse: one `lower-tc: error:` line (after argparse's usage, if any)
        own = [line for line in errors if not line.startswith(("usage:", " "))]
        if len(own) != 1 or not re.match(r"lower-tc(?: \w+)?: error: \S", own[0]):
            add("error lines", f"exit 2 with {len(own)} error lines: " + " | ".join(own)[:400],
                f"2|{normalize(own[0]) if own else ''}", where="CLI/driver")
    name = re.escape("<stdin>") + "|stdin" if stdin else re.escape(INPUT)
    if run.status == 1:
        if len(errors) != 1:
            add("error lines", f"{len(errors)} error lines: " + " | ".join(errors)[:400],
                f"{min(len(errors), 2)}|{normalize(errors[0]) if errors else ''}")
        for line in errors[:1]:
            m = re.match(_LOCATED.format(name=name), line)
            if m is None and write_limit and line.startswith("lower-tc: error: "):
                pass  # the output could not be written: not the input's error
            elif m is None and not argv_ok and _MISUSE.search(line):
                # the command line's fault (a pass or its option): misuse, exit 2
                add("misuse exit status", f"exit 1 for command-line misuse: {line}", normalize(line), where="CLI/driver")
            elif m is None:
                if "internal error" not in line:
                    # invalid UTF-8 is the driver's to refuse (it decodes the input)
                    add("unlocated", line, normalize(line), where="" if _utf8(data) else "CLI/driver")
            else:
                if m.group("line") is None and _place_exists(m.group("msg"), data):
                    add("unlocated", f"{line} (the place it speaks of is in the file)", normalize(m.group("msg")))
                if m.group("line") is not None:
                    n_lines = data.count(b"\n") + 1
                    if not 1 <= int(m.group("line")) <= n_lines or int(m.group("col")) < 1:
                        add("location", f"{line} (the input has {n_lines} lines)", normalize(m.group("msg")))
                if not m.group("msg")[:1].strip():
                    add("message", f"no message, or one that starts with a space: {line}", normalize(m.group("msg")))
                if _PLACEHOLDER.search(m.group("msg")):
                    add("message", f"unformatted placeholder: {line}", normalize(m.group("msg")))
    if run.status == 0 and errors:
        add("error lines", f"exit 0 with error lines: {' | '.join(errors)[:300]}")
    if run.status != 0 and run.before != run.after:
        what = "left a partial output file" if run.before is None else "changed the pre-existing output file"
        add("output file", f"exit {run.status} {what} ({len(run.after or b'')} bytes)", what, where="CLI/driver")
    if run.status == 0 and "-o" in run.argv and not run.after:
        add("output file", "exit 0 but the output file is missing or empty", "missing", where="CLI/driver")
    if run.leftovers:
        add("output file", f"files left behind: {run.leftovers}", "leftovers", where="CLI/driver")
    return found


# -- the Python API --------------------------------------------------------------------------


@dataclass
class ApiRun:
    kernels: list = field(default_factory=list)
    error: BaseException | None = None
    traceback: traceback.StackSummary | None = None
    seconds: float = 0.0
    assembled: bool = False


def documented_errors() -> tuple[type[BaseException], ...]:
    from xdsl.utils.exceptions import ParseError, VerifyException

    from lower_tc.dialects.diagnostics import LocatedError
    from lower_tc.lowering.backend.ptxas import BackendError

    return (ParseError, VerifyException, LocatedError, BackendError)


def run_api(text: str, assemble: bool = False) -> ApiRun:
    """`compile_source(text)`; with `assemble`, ptxas too (where ptxas is found)."""
    from lower_tc.lowering.compile import compile_source

    start = time.monotonic()
    try:
        with time_limit(HANG_S):
            kernels = compile_source(text, INPUT, assemble=assemble)
    except Hang as err:
        return ApiRun(error=err, traceback=traceback.extract_tb(err.__traceback__), seconds=time.monotonic() - start)
    except RecursionError as err:  # raised deep: keep only the bottom of the trace
        return ApiRun(error=err, traceback=traceback.extract_tb(err.__traceback__)[-40:], seconds=time.monotonic() - start)
    except Exception as err:  # noqa: BLE001 - the fuzzer judges every exception
        return ApiRun(error=err, traceback=traceback.extract_tb(err.__traceback__), seconds=time.monotonic() - start)
    return ApiRun(kernels, seconds=time.monotonic() - start, assembled=assemble)


def api_findings(run: ApiRun) -> list[Finding]:
    """An undocumented exception type, or a message that is no message."""
    found: list[Finding] = []
    err = run.error
    if err is None:
        return found
    area = area_of(run.traceback)
    if isinstance(err, Hang):
        found.append(Finding("hang", area, f"compile_source: no answer in {HANG_S:.0f} s (in {raise_site(run.traceback)})", f"hang|{area}"))
        return found
    if not isinstance(err, documented_errors()):
        site = raise_site(run.traceback) if run.traceback else "?"
        msg = f"{type(err).__name__}: {str(err).splitlines()[0][:200] if str(err) else ''}"
        found.append(Finding("undocumented exception", area, f"{msg} (raised in {site})",
                             f"undocumented|{type(err).__name__}|{site}"))
    elif not str(err).strip():
        found.append(Finding("message", area, f"{type(err).__name__} with an empty message", f"empty|{type(err).__name__}"))
    return found


# -- accepted kernels ------------------------------------------------------------------------

#: A PTX identifier (PTX ISA, "Identifiers").
_PTX_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_$]*|[_$%][A-Za-z0-9_$]+")
_INSTR = re.compile(r"^\s*(?:@!?%\w+\s+)?(?P<op>[a-z][\w.:]*)\s+(?P<args>[^;]*);")
_IMM = re.compile(r"(?<![\w.%$])(-?(?:0[xX][0-9a-fA-F]+|\d+))(?![\w.])")
_WIDTH = re.compile(r"\.[usb](16|32|64)\b")


def ptx_findings(ptx: str, gemm: bool) -> list[Finding]:
    """PTX that ptxas takes but that does not do what it says: an integer immediate wider
    than its instruction's type (`div.u32 %r5, %r4, 4398046511104`), an address offset
    past 32 bits, an entry name that is not a PTX identifier."""
    area = "GEMM lowering" if gemm else "single-tile lowering"
    found: list[Finding] = []
    for name in re.findall(r"\.entry\s+([^\s(]+)\s*\(", ptx):
        if not _PTX_IDENT.fullmatch(name):
            found.append(Finding("ptx", "PTX dialect/printer", f".entry {name}: not a PTX identifier", "ptx|entry name"))
    for line in ptx.splitlines():
        m = _INSTR.match(line)
        if not m or m.group("op").startswith((".", "//")):
            continue
        op, args = m.group("op"), m.group("args")
        widths = {int(w) for w in _WIDTH.findall(op)}
        for offset in re.findall(r"\[[^\]]*?([+-]\s*\d+)\]", args):
            value = int(offset.replace(" ", ""))
            if not -(2**31) <= value < 2**31:
                found.append(Finding("ptx", area, f"address offset {value} past 32 bits: {line.strip()}", f"ptx|offset|{op}"))
        if not widths or 64 in widths:
            continue
        bits = max(widths)
        outside = re.sub(r"\[[^\]]*\]", "", args)
        for imm in _IMM.findall(outside):
            value = int(imm, 0)
            if not -(2 ** (bits - 1)) <= value < 2**bits:
                found.append(Finding("ptx", area, f"immediate {value} does not fit .{bits}-bit {op}: {line.strip()}",
                                     f"ptx|immediate|{op}"))
                break
    return found


#: Bytes of an argument's element (4 for the 32-bit types and any other).
ARG_BYTES = {"e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1, "bf16": 2, "f16": 2}


def info_findings(info: KernelInfo, expect: dict | None = None) -> list[Finding]:
    """An accepted kernel's launch metadata within what CUDA, TMA and lower-tc's 32-bit
    index arithmetic can do (layout/limits.py), and agreeing with the program."""
    found: list[Finding] = []
    area = "tc dialect verifier/pass (a limit not checked)"

    def add(detail: str, sig: str) -> None:
        found.append(Finding("accepted out of limits", area, detail, f"limits|{sig}"))

    if not 1 <= info.threads <= MAX_BLOCK_THREADS:
        add(f"threads {info.threads}: a block has 1 to {MAX_BLOCK_THREADS}", "threads")
    if not 0 <= info.smem_bytes <= SMEM_CAPACITY:
        add(f"smem_bytes {info.smem_bytes}: a block may use up to {SMEM_CAPACITY}", "smem")
    if info.grid is not None:
        for axis, entry, limit in zip("xyz", info.grid, MAX_GRID):
            if isinstance(entry, int) and not 1 <= entry <= limit:
                add(f"grid {axis} = {entry}: CUDA launches 1 to {limit} (grid {list(map(str, info.grid))})", f"grid {axis}")
            elif isinstance(entry, GridFromArg) and entry.tile <= 0:
                add(f"grid {axis} from a size over a tile of {entry.tile}", "grid tile")
            elif isinstance(entry, PersistentGrid) and not 1 <= entry.tiles <= MAX_INDEX:
                add(f"persistent grid over {entry.tiles} tiles", "persistent tiles")
    if info.cluster is not None:
        size = info.cluster[0] * info.cluster[1] * info.cluster[2]
        if not 1 <= size <= MAX_CLUSTER:
            add(f"cluster {info.cluster}", "cluster")
        x = info.grid[0] if info.grid else 1
        if isinstance(x, int) and x % info.cluster[0]:
            add(f"grid x {x} is not a whole number of clusters of {info.cluster[0]}", "cluster grid")
    tma_read = {t.arg for t in info.tensor_maps}
    for i, arg in enumerate(info.args):
        # a matrix's rows and columns are 32-bit indices, and so are its strides where
        # threads step them (an output's stores, a thread copy's loads); an input that
        # only TMA reads has TMA's strides (multiples of 16 bytes below 2^40, checked with
        # the tensor maps). A batch's (or an attention's heads' and batch's) counts are
        # 32-bit too, their strides 64-bit offsets within TMA's stride limit.
        *outer, rows, cols = arg.shape
        *outer_strides, row_stride, col_stride = arg.strides
        width = ARG_BYTES.get(arg.dtype, 4)
        tma_only = not arg.output and i in tma_read
        strides = () if tma_only else (("stride", row_stride), ("stride", col_stride))
        for what, value in (("rows", rows), ("cols", cols), *strides, *(("batch", n) for n in outer)):
            if value is not None and not 0 <= value <= MAX_INDEX:
                add(f"{arg.param} {what} {value}: past the 32-bit index width ({MAX_INDEX})", f"arg {what}")
        stepped = [st for n, st in zip(outer, outer_strides) if n != 1]  # one head or batch: its stride is never used
        for stride in (*stepped, *((row_stride, col_stride) if tma_only else ())):
            if stride is not None and not 0 <= stride * width < TMA_MAX_STRIDE:
                add(f"{arg.param} stride {stride} elements: past TMA's {TMA_MAX_STRIDE} bytes", "arg tma stride")
        if None not in arg.shape and 0 in arg.shape:
            add(f"{arg.param} is {'x'.join(map(str, arg.shape))}: an empty matrix", "empty")
    for tmap in info.tensor_maps:
        for d in tmap.global_dims or ():
            if not 1 <= d <= TMA_MAX_DIM:
                add(f"{tmap.param} global dimension {d}: TMA takes 1 to 2^32", "tma dim")
        for s in tmap.global_strides or ():
            if s % TMA_STRIDE_ALIGN or not 0 < s < TMA_MAX_STRIDE:
                add(f"{tmap.param} global stride {s} bytes: TMA takes multiples of 16 below 2^40", "tma stride")
        for b in tmap.box:
            if not 1 <= b <= TMA_MAX_BOX:
                add(f"{tmap.param} box {tmap.box}: TMA boxes are 1 to 256", "tma box")
        if tmap.dtype not in ("bf16", "f16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8", "s32"):
            add(f"{tmap.param} has dtype {tmap.dtype}: no CUtensorMapDataType the runtime encodes", "tma dtype")
    g = info.gemm
    if g is not None:
        c = g.config
        for what, value in (("M", g.m), ("N", g.n), ("K", g.k)):
            if value is not None and not 1 <= value <= MAX_INDEX:
                add(f"GEMM {what} = {value}: outside 1 to {MAX_INDEX}", f"gemm {what}")
        if g.m is not None and g.n is not None and c.bm > 0 and c.bn > 0:
            tiles = -(-g.m // c.bm) * -(-g.n // c.bn)
            if tiles > MAX_INDEX:
                add(f"{tiles} CTA tiles: past the 32-bit index width", "tiles")
        if g.k is not None and c.bk > 0 and -(-g.k // c.bk) > MAX_INDEX:
            add(f"{-(-g.k // c.bk)} K steps: past the 32-bit index width", "k steps")
        if g.d_transposed and expect:  # swap-AB: the kernel's GEMM is D^T = B^T A^T (N x M x K, docs/gemm.md)
            expect = {**expect, "m": expect.get("n"), "n": expect.get("m")}
        for what, value in (expect or {}).items():
            got = getattr(g, what)
            if value is not None and got is not None and got != value:
                found.append(Finding("metadata", "GEMM lowering", f"gemm {what} = {got}, the program has {value}", f"metadata|{what}"))
    return found


def ptxas_findings(run: ApiRun) -> list[Finding]:
    """PTX that lower-tc emitted for a program its verifiers accepted, and that ptxas
    then rejects: the lowering or the printer wrote what PTX does not have."""
    from lower_tc.lowering.backend.ptxas import BackendError, ToolUnavailableError

    err = run.error
    if not isinstance(err, BackendError) or isinstance(err, ToolUnavailableError):
        return []
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    first = next((line for line in lines[1:] if "error" in line or "fatal" in line), lines[0] if lines else "")
    return [Finding("ptxas rejects accepted PTX", "PTX dialect/printer or lowering",
                    " | ".join(lines[:3])[:300], f"ptxas|{normalize(first)}")]


def kernel_text(ptx: str, name: str) -> str:
    """The PTX of one kernel: from its `.entry` to the next kernel's comment or entry."""
    start = ptx.find(f".entry {name}(")
    if start < 0:
        return ""
    end = min([i for i in (ptx.find("\n.visible .entry", start + 1), ptx.find("\n// lower-tc kernel", start + 1)) if i > 0],
              default=len(ptx))
    return ptx[start:end]


def _guarded(lines: list[str], i: int) -> bool:
    """Whether line `i` sits in a block entered only past a conditional branch: going
    back, a `@%p bra` (or `@!%p bra`) comes before any label. (A predicated store,
    `@%p st.global`, guards itself.)"""
    for line in reversed(lines[:i]):
        if re.match(r"@!?%p\d+ bra", line):
            return True
        if line.endswith(":"):
            return False
    return False


def store_findings(info: KernelInfo, ptx: str) -> list[Finding]:
    """A GEMM whose static grid has more CTAs than D has tiles must guard its stores to D
    (issue 19: a loop-level `tc.grid = [16, 33, 1]` over a 4096-row D stored rows
    4096-4223): every `st.global` is then predicated or jumped over. TMA stores clip at
    D's edge by themselves."""
    g = info.gemm
    if g is None or info.grid is None or not all(isinstance(e, int) for e in info.grid):
        return []
    if g.m is None or g.n is None or g.config.bm <= 0 or g.config.bn <= 0:
        return []
    # a split-K cluster's S CTAs share one tile, each storing its own share of it
    tiles = -(-g.m // g.config.bm) * -(-g.n // g.config.bn) * g.split_k
    text = kernel_text(ptx, info.name)
    # CTAs along an axis the kernel never reads (no %ctaid there) repeat the same tiles
    read = [n for n, axis in zip(info.grid, "xyz") if f"%ctaid.{axis}" in text]
    ctas = 1
    for n in read:
        ctas *= n  # type: ignore[operator]
    if ctas <= tiles:
        return []
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if line.startswith("st.global") and not _guarded(lines, i):
            return [Finding("stores past D", "GEMM lowering",
                            f"grid {list(info.grid)} has {ctas} CTAs for {tiles} tiles of D ({g.m}x{g.n} in "
                            f"{g.config.bm}x{g.config.bn}), and D is stored unguarded: {line}", "stores|unguarded")]
    return []


def kernel_findings(run: ApiRun, expect: dict | None = None) -> list[Finding]:
    """Every check of the accepted kernels; `expect` holds what the program says of them
    (the GEMM's sizes; "refused": why the program should not have been accepted)."""
    found: list[Finding] = []
    expect = dict(expect or {})
    refused = expect.pop("refused", None)
    if refused and run.kernels:
        found.append(Finding("accepted, wrong", "tc dialect verifier", f"accepted: {refused}", f"accepted|{normalize(refused)}"))
    for k in run.kernels:
        found += info_findings(k.info, expect if k.info.gemm is not None else None)
        found += store_findings(k.info, k.ptx)
    if run.kernels:
        found += ptx_findings(run.kernels[0].ptx, any(k.info.gemm is not None for k in run.kernels))
    return found


def examine(
    program,
    *,
    cli: str | None = "in-process",
    target: str = "ptx",
    pipeline: str | None = None,
    pre_existing: bool = False,
    stdin: bool = False,
    assemble: bool = False,
    write_limit: int | None = None,
) -> list[Finding]:
    """Every finding of one program (a tests/fuzz_programs.Program): through the Python
    API (unless a pipeline is given: the API runs the default one) with its kernels'
    metadata and PTX checked, and through the CLI (`cli`: "in-process", "subprocess" or
    None) with `-t target` (`-p pipeline`), into an output file that exists before the
    run where `pre_existing`, reading stdin where `stdin`. Where both ran the default
    pipeline, they must agree on whether the program is accepted."""
    found: list[Finding] = []
    api = None
    if pipeline is None:
        api = run_api(program.text, assemble=assemble or target == "cubin")
        found += api_findings(api)
        found += ptxas_findings(api)
        if api.error is None:
            found += kernel_findings(api, program.expect)
            if program.unused_attr is not None:
                attr, without = program.unused_attr
                plain = run_api(without)
                if plain.error is None and plain.kernels and plain.kernels[0].ptx == api.kernels[0].ptx:
                    found.append(Finding("accepted, does nothing", "tc dialect verifier",
                                         f"{attr} on a single-tile kernel: accepted, PTX identical to leaving it out",
                                         f"unused|{attr.split(' =')[0]}"))
    if cli is not None:
        args = ["-t", target] + (["-p", pipeline] if pipeline is not None else [])
        output = "out.cubin" if target == "cubin" else "out." + target
        limit = write_limit if cli == "subprocess" else None
        run = run_cli(program.data, args, subprocess_run=cli == "subprocess", output=output,
                      pre_existing=pre_existing, stdin=stdin, write_limit=limit)
        area = area_of(api.traceback) if api is not None and api.error is not None else ""
        found += cli_findings(run, program.data, stdin=stdin, argv_ok=pipeline is None, area=area,
                              write_limit=limit is not None)
        if limit is not None:
            return found  # the command could not write; the API could
        agree = (run.status == 0) == (api is not None and api.error is None)
        same_work = target == "cubin" or (target == "ptx" and not assemble)  # ptxas on both sides or neither
        if api is not None and same_work and run.status in (0, 1) and _utf8(program.data) and not agree:
            api_says = "accepted" if api.error is None else f"{type(api.error).__name__}: {str(api.error).splitlines()[0][:120]}"
            found.append(Finding("CLI and API disagree", "CLI/driver" if api.error is None else area_of(api.traceback),
                                 f"CLI exit {run.status} ({run.stderr.strip()[:160]}); API: {api_says}",
                                 f"disagree|{run.status}|{normalize(run.stderr) if run.status else normalize(api_says)}"))
    return found


def _place_exists(msg: str, data: bytes) -> bool:
    """An error without a line that speaks of something the file has a place for: a
    symbol it defines (``Redefinition of symbol "t"``), or the kernel it marks with
    tc.target ("no kernel to lower" where a function carries tc.target)."""
    text = data.decode("utf-8", "replace")
    symbol = re.search(r"symbol \"?@?([\w$.-]+)\"?", msg)
    if symbol and re.search(r"@\"?" + re.escape(symbol.group(1)) + r"\b", text):
        return True
    return msg.startswith("no kernel to lower") and re.search(r"tc\.target\s*=", text) is not None


def _utf8(data: bytes) -> bool:
    """The API is handed text: it sees invalid UTF-8 only as replacement characters."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def check(findings: list[Finding], program: object, how: str, known: frozenset[str] = frozenset()) -> None:
    """Raises PromiseBroken with the findings whose signature is not in `known`."""
    new = [f for f in findings if f.signature not in known]
    if new:
        raise PromiseBroken(new, program, how)


__all__ = [
    "ApiRun", "CliRun", "Finding", "PromiseBroken", "SENTINEL", "api_findings", "check", "cli_findings", "examine",
    "info_findings", "kernel_findings", "normalize", "ptx_findings", "run_api", "run_cli",
]
