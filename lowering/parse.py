"""Reading tile programs: a context with every dialect, a parser that stamps each op with
its file:line:col, and verification that reports a failure at its op.

The `lower-tc` driver (lowering/cli/driver.py) and the Python compile API
(lowering/compile.py) both parse through this module, so an error reads the same from
either: ``file:line:col: error: message``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import register_dialects


class LocatedParser(Parser):
    """Stamps each op with the file:line:col of its first token, and turns
    attribute verification failures into located parse errors."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.line_offset = line_offset

    def parse_optional_attribute(self):
        start = self.pos
        try:
            return super().parse_optional_attribute()
        except VerifyException as err:
            self.raise_error(str(err), start, max(self.pos, start + 1))

    def parse_optional_type(self):
        start = self.pos
        try:
            return super().parse_optional_type()
        except VerifyException as err:
            self.raise_error(str(err), start, max(self.pos, start + 1))

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = super().parse_operation()
        except VerifyException as err:
            self.raise_error(str(err), span)
        if isinstance(op.location, UnknownLoc):
            loc = span.get_location()
            op.location = FileLineColLoc(
                StringAttr(loc.file), IntAttr(loc.line + self.line_offset), IntAttr(loc.col)
            )
        return op


class LocatedVerifyError(VerifyException):
    """A verifier failure with the op it is about (the error line cites the op's place)."""

    def __init__(self, op: Operation, msg: str):
        super().__init__(msg)
        self.op = op
        self.msg = msg


def verify_located(module: ModuleOp) -> None:
    """Verify op by op, innermost first, so the failure names its op."""
    for op in module.walk(region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            raise LocatedVerifyError(op, str(err)) from None


@contextmanager
def locating_verify_errors(module: ModuleOp) -> Iterator[None]:
    """A verifier error raised inside (by module.verify() or a pass pipeline) that names
    no op is found again op by op, so that it is reported at its op's place."""
    try:
        yield
    except VerifyException as err:
        if getattr(err, "op", None) is None:
            verify_located(module)
        raise


def context() -> Context:
    """Every xDSL dialect (registered lazily, as the `lower-tc` driver does) plus tc and ptx."""
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    register_dialects(ctx)
    return ctx


def verify(module: ModuleOp) -> None:
    """module.verify(), with a failure reported at its op (as the driver does)."""
    with locating_verify_errors(module):
        module.verify()


def parse(text: str, name: str = "<input>") -> tuple[Context, ModuleOp]:
    """A verified module of `text` (named `name` in error lines) and its context."""
    ctx = context()
    module = LocatedParser(ctx, text, name).parse_module()
    verify(module)
    return ctx, module


__all__ = ["LocatedParser", "LocatedVerifyError", "context", "locating_verify_errors", "parse", "verify", "verify_located"]
