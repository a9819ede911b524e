"""Reading tile programs: a context with every dialect, a parser that stamps each op with
its file:line:col, and verification that reports a failure at its op.

The `lower-tc` driver (lowering/cli/driver.py) and the Python compile API
(lowering/compile.py) both parse through this module (`parse_source`), so an error reads
the same from either: ``file:line:col: error: message``, on one line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from lower_tc.dialects import register_dialects
from lower_tc.dialects.diagnostics import location

#: How deeply attributes, types and ops may nest inside each other. xDSL's parser recurses
#: about eight Python frames per level, so Python's recursion limit (1000) ends near 120
#: levels; lower-tc's own programs nest fewer than ten.
MAX_NESTING = 64

#: What lower-tc reads, for the error about an input with nothing in it.
EXPECTED_INPUT = (
    "lower-tc expects a module with a kernel: a func.func with tc.target = \"sm_90a\" or "
    "\"sm_100a\" (see examples/)"
)


def one_line(msg: str) -> str:
    """xDSL's verifiers put the reason on a line of its own ("operand 'a' at position 0 does
    not verify:\n<reason>"); an error line holds both."""
    return msg.strip().replace(":\n", ": ").replace("\n", "; ")


class LinearLexer(MLIRLexer):
    """xDSL's lexer with its string-literal pattern made linear. xDSL's
    ``"(?:[^"\\...]+|escape)*"`` nests a repetition in a repetition, so on a string that is
    never closed the regex engine tries every way of splitting it: a 30-character ``"aaa...``
    took seconds, 60 characters never ended. One character per repetition matches the same
    strings and fails in linear time."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


class LocatedParser(Parser):
    """Stamps each op with the file:line:col of its first token, turns attribute
    verification failures into located parse errors, and refuses nesting deeper than
    MAX_NESTING at the place it starts."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, "", name)  # xDSL's own fields; the lexer is LinearLexer, below
        self._resume_from(ParserState(LinearLexer(Input(text, name))))
        self.line_offset = line_offset
        self.depth = 0
        # where each line starts, once: an op's line is then a bisection, not a count of
        # the newlines before it (which made parsing quadratic in the number of ops)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def _nested(self, parse, *args):
        """`parse(*args)` one level deeper, refused past MAX_NESTING."""
        if self.depth >= MAX_NESTING:
            self.raise_error(f"nested too deeply: lower-tc reads at most {MAX_NESTING} levels of "
                             "attributes, types and regions inside each other")
        self.depth += 1
        try:
            return parse(*args)
        finally:
            self.depth -= 1

    def parse_optional_attribute(self):
        start = self.pos
        try:
            return self._nested(super().parse_optional_attribute)
        except VerifyException as err:
            self.raise_error(one_line(str(err)), start, max(self.pos, start + 1))

    def parse_optional_type(self):
        start = self.pos
        try:
            return self._nested(super().parse_optional_type)
        except VerifyException as err:
            self.raise_error(one_line(str(err)), start, max(self.pos, start + 1))

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = self._nested(super().parse_operation)
        except VerifyException as err:
            self.raise_error(one_line(str(err)), span)
        if isinstance(op.location, UnknownLoc):
            line = bisect_right(self.line_starts, span.start)
            col = span.start - self.line_starts[line - 1] + 1
            op.location = FileLineColLoc(StringAttr(span.input.name), IntAttr(line + self.line_offset), IntAttr(col))
        return op

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        if self._current_token.kind == MLIRTokenKind.EOF:
            self.raise_error(f"nothing to compile: the input holds only comments or white space; {EXPECTED_INPUT}", 0, 0)
        try:
            return super().parse_module(allow_implicit_module)
        except RecursionError:  # a path the nesting count does not see: still where it was
            self.raise_error("nested too deeply for lower-tc's parser")


#: xDSL's lexer reports a lone `%`, `#`, `!` or `^` with its format placeholder unfilled.
_UNFILLED_SUFFIX = "Expected suffix identifier after {first_char}"
#: xDSL's parser reports a region without a first op or block label by this fragment alone.
_BARE_BLOCK_CONTEXT = " in block definition"
#: xDSL's lexer shows the character it cannot read as it is, even an invisible one.
_UNEXPECTED = "Unexpected character: "


def _readable(err: ParseError) -> ParseError:
    """`err` with xDSL's broken messages rewritten (xDSL's bugs, mended where they surface)."""
    if err.msg == _UNFILLED_SUFFIX:
        sigil = err.span.input.content[err.span.start : err.span.start + 1] or "%"
        err.msg = (f"expected a name after '{sigil}': digits, or a letter or one of $ . _ - "
                   "followed by letters, digits and $ . _ -")
    elif err.msg == _BARE_BLOCK_CONTEXT:
        err.msg = ("expected an operation or a block label (^name:) here: a '{' after an "
                   "operation opens its region")
    elif err.msg.startswith(_UNEXPECTED) and len(err.msg) == len(_UNEXPECTED) + 1:
        char = err.msg[-1]
        if not char.isprintable() or char.isspace() or char == "\ufeff":
            err.msg = f"unexpected character U+{ord(char):04X}" + (
                " (a byte-order mark: save the file as UTF-8 without one)" if char == "\ufeff" else "")
    return err


def parse_source(ctx: Context, text: str, name: str, line_offset: int = 0, implicit_module: bool = True) -> ModuleOp:
    """The module of `text`, named `name` in its ops' locations and in errors; `line_offset`:
    where a --split-input-file chunk starts in its file. Every parse error is a ParseError
    with a one-line message."""
    try:
        return LocatedParser(ctx, text, name, line_offset).parse_module(implicit_module)
    except ParseError as err:
        raise _readable(err) from None


def decode_source(data: bytes, name: str) -> str:
    """`data` as UTF-8 text, or a ParseError at the first byte that is not (line and column
    of the text before it, the byte and its offset in the message)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8")
        text = before + data[err.start :].decode("utf-8", errors="replace")
        at = len(before)
        raise ParseError(
            Span(at, at + 1, Input(text, name)),
            f"not UTF-8 text: byte 0x{data[err.start]:02x} at byte offset {err.start} ({err.reason}); "
            "lower-tc reads UTF-8",
        ) from None


class LocatedVerifyError(VerifyException):
    """A verifier failure with the op it is about (the error line cites the op's place)."""

    def __init__(self, op: Operation, msg: str):
        msg = one_line(msg)
        super().__init__(msg)
        self.op = op
        self.msg = msg


def _redefined_symbol(op: Operation) -> LocatedVerifyError | None:
    """The second definition of a symbol in `op`'s symbol table, as an error at it (xDSL's
    SymbolTable check names the table, which has no place of its own in a file)."""
    if not op.has_trait(SymbolTable) or len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    first: dict[str, Operation] = {}
    for o in op.regions[0].block.ops:
        name = o.get_attr_or_prop("sym_name")
        if not isinstance(name, StringAttr):
            continue
        if name.data in first:
            where = location(first[name.data])
            return LocatedVerifyError(
                o, f'redefinition of symbol "{name.data}"' + (f" (first defined at {where})" if where else "")
            )
        first[name.data] = o
    return None


def verify_located(module: ModuleOp) -> None:
    """Verify op by op, innermost first, so the failure names its op."""
    for op in module.walk(region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            raise _redefined_symbol(op) or LocatedVerifyError(op, str(err)) from None


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
    module = parse_source(ctx, text, name)
    verify(module)
    return ctx, module


__all__ = [
    "MAX_NESTING", "LocatedParser", "LocatedVerifyError", "context", "decode_source", "locating_verify_errors",
    "one_line", "parse", "parse_source", "verify", "verify_located",
]
