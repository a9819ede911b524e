"""Located diagnostics for passes: errors that name the op, and remarks."""

from __future__ import annotations

import sys
from typing import NoReturn

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException


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


def remark_at(op: Operation, msg: str) -> None:
    """A remark on stderr, located like an error."""
    print(f"{location(op) or '<unknown>'}: remark: {msg}", file=sys.stderr)
