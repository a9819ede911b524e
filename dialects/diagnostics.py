"""Located diagnostics for everything that works on the IR (passes, the PTX printer,
the driver): errors that name the op, and remarks.

A `Diagnostic` is one located message as data (file, line, column, severity, message);
its text is the line the command line prints, ``file:line:col: error: message``.
Errors travel as exceptions (`LocatedError` from the passes, xDSL's ParseError and
VerifyException) and become Diagnostics where they are reported (`diagnostic`). Remarks
go to stderr, or, inside `collecting_remarks()`, to a list the caller reads (an embedding
compiler shows them its own way).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import NoReturn

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, PassFailedException


@dataclass(frozen=True)
class Diagnostic:
    """One message about the input: where (`file`, and `line` and `column` where the op
    or token has a place; None where it has none) and what."""

    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    severity: str = "error"  # or "remark"

    @property
    def place(self) -> str | None:
        """``file:line:col``, or the file alone, or None."""
        if self.file is None:
            return None
        return self.file if self.line is None else f"{self.file}:{self.line}:{self.column}"

    def __str__(self) -> str:
        return f"{self.place or '<unknown>'}: {self.severity}: {self.message}"

    @classmethod
    def at(cls, op: Operation | None, message: str, severity: str = "error") -> Diagnostic:
        """`message` at `op`'s place (its nearest located ancestor's), or at no place."""
        loc = _file_line_col(op)
        if loc is None:
            return cls(message, severity=severity)
        return cls(message, loc.filename.data, loc.line.data, loc.column.data, severity)

    @classmethod
    def from_line(cls, text: str) -> Diagnostic:
        """The Diagnostic of a printed line (``file:line:col: error: msg``, ``file: error:
        msg``); a line of neither form is a message at no place. For messages that reach
        lower-tc as text (ptxas's, mapped back to the source)."""
        m = _LINE.match(text)
        if m is None:
            return cls(text)
        line, col = m.group("line"), m.group("col")
        return cls(m.group("msg"), m.group("file"), int(line) if line else None, int(col) if col else None, m.group("sev"))


#: A printed diagnostic line: ``file[:line:col]: severity: message``.
_LINE = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<sev>error|warning|remark|note): (?P<msg>.*)$")


class LocatedError(PassFailedException):
    """A pass error at an op; the driver prints it as ``file:line:col: error: msg``, the
    embedding API raises it as CompileError at that place. Public as `lower_tc.LocatedError`,
    for an embedder's own passes."""

    def __init__(self, op: Operation | None, msg: str):
        super().__init__(msg)
        self.op = op
        self.msg = msg


def error_at(op: Operation | None, msg: str) -> NoReturn:
    raise LocatedError(op, msg)


def _file_line_col(op: Operation | None) -> FileLineColLoc | None:
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return loc
        op = op.parent_op()  # ops built by passes inherit their ancestor's place
    return None


def location(op: Operation | None) -> str | None:
    """``file:line:col`` of an op, when the parser recorded one."""
    loc = _file_line_col(op)
    return None if loc is None else f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"


def diagnostic(err: ParseError | DiagnosticException, input_name: str, line_offset: int = 0) -> Diagnostic:
    """The Diagnostic of a parse error or an error raised on the IR, on one line; an error
    at no recorded place is put at the input. `line_offset`: where a --split-input-file
    chunk starts in its file."""
    if isinstance(err, ParseError):
        loc = err.span.get_location()
        return Diagnostic(err.msg, loc.file, loc.line + line_offset, loc.col)
    text = getattr(err, "msg", None) or str(err).split("\n")[0]
    # one line: xDSL's constraint messages ("operand 'a' at position 0 does not verify:\n...") join up
    text = " ".join(line.strip() for line in text.splitlines() if line.strip())
    found = Diagnostic.at(getattr(err, "op", None), text)
    return found if found.file is not None else Diagnostic(text, input_name)


def error_line(err: ParseError | DiagnosticException, input_name: str, line_offset: int = 0) -> str:
    """The one-line ``file:line:col: error: msg`` of a parse error or a diagnostic
    (`diagnostic`)."""
    return str(diagnostic(err, input_name, line_offset))


#: Where remarks go instead of stderr: the list of the innermost `collecting_remarks()`.
_REMARKS: ContextVar[list[Diagnostic] | None] = ContextVar("lower_tc_remarks", default=None)


def remark_at(op: Operation, msg: str) -> None:
    """A remark, located like an error: on stderr, or into `collecting_remarks()`'s list."""
    remark = Diagnostic.at(op, msg, severity="remark")
    sink = _REMARKS.get()
    if sink is None:
        print(remark, file=sys.stderr)
    else:
        sink.append(remark)


@contextmanager
def collecting_remarks() -> Iterator[list[Diagnostic]]:
    """Inside, remarks are appended to the list it gives instead of printed (per thread and
    asyncio task: a context variable)."""
    remarks: list[Diagnostic] = []
    token = _REMARKS.set(remarks)
    try:
        yield remarks
    finally:
        _REMARKS.reset(token)
