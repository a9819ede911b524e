"""Located diagnostics for everything that works on the IR (passes, the PTX printer,
the driver): errors that name the op, and remarks."""

from __future__ import annotations

import sys
from typing import NoReturn

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, PassFailedException


class LocatedError(PassFailedException):
    """A pass error at an op; the driver prints it as ``file:line:col: error: msg``."""

    def __init__(self, op: Operation | None, msg: str):
        super().__init__(msg)
        self.op = op
        self.msg = msg


def error_at(op: Operation | None, msg: str) -> NoReturn:
    raise LocatedError(op, msg)


def location(op: Operation | None) -> str | None:
    """``file:line:col`` of an op, when the parser recorded one."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        op = op.parent_op()  # ops built by passes inherit their ancestor's place
    return None


def error_line(err: ParseError | DiagnosticException, input_name: str, line_offset: int = 0) -> str:
    """The one-line ``file:line:col: error: msg`` of a parse error or a diagnostic; an error
    at no recorded place is put at the input. `line_offset`: where a --split-input-file
    chunk starts in its file."""
    if isinstance(err, ParseError):
        loc = err.span.get_location()
        return f"{loc.file}:{loc.line + line_offset}:{loc.col}: error: {err.msg}"
    where = location(getattr(err, "op", None)) or input_name
    text = getattr(err, "msg", None) or str(err).split("\n")[0]
    # one line: xDSL's constraint messages ("operand 'a' at position 0 does not verify:\n...") join up
    text = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return f"{where}: error: {text}"


def remark_at(op: Operation, msg: str) -> None:
    """A remark on stderr, located like an error."""
    print(f"{location(op) or '<unknown>'}: remark: {msg}", file=sys.stderr)
