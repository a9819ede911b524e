"""What every ptx op shares: the register-run type, the op base class with its modifiers
and PTX rendering, `build` (how the lowerings make ops) and the rendering helpers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.dialects.builtin import IntAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, var_operand_def, var_result_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from lower_tc.dialects.ptx.modifiers import check_modifiers, to_attr

#: How `render` names a value's register(s): the printer's register allocator.
Names = Callable[[SSAValue], str]
#: The discardable attribute the printer prints as a PTX comment before the op's line.
COMMENT = "comment"


@irdl_attr_definition
class RegsType(ParametrizedAttribute, TypeAttribute):
    """``!ptx.regs<64xf32>``: a run of registers (an accumulator or fragment)."""

    name = "ptx.regs"
    count: IntAttr
    element_type: Attribute

    def __init__(self, count: int, elt: Attribute):
        super().__init__(IntAttr(count), elt)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elt = parser.parse_ranked_shape()
        return (IntAttr(dims[0]), elt)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.count.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


class PtxOp(IRDLOperation):
    """An op that renders as PTX; `args` are read, `res` are written. Its modifiers are
    its declared properties (see `modifiers`)."""

    args = var_operand_def()
    res = var_result_def()

    def render(self, n: Names) -> str:
        raise NotImplementedError(self.name)

    @classmethod
    def needed_modifiers(cls, nargs: int) -> tuple[str, ...]:
        """Optional modifiers that this operand form needs (an immediate that takes the
        place of a register operand left out)."""
        return ()

    def prop(self, key: str) -> object:
        """A modifier's plain value (str or int); KeyError if the op has none."""
        attr = self.properties[key]
        if isinstance(attr, StringAttr):
            return attr.data
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        return attr

    def has(self, key: str) -> bool:
        """Whether an optional modifier is set."""
        return key in self.properties

    def verify(self, verify_nested_ops: bool = True) -> None:
        # the modifiers first: their messages name the modifier, as when the op is built
        check_modifiers(type(self), self.properties, self.needed_modifiers(len(self.args)))
        super().verify(verify_nested_ops)


PtxOpT = TypeVar("PtxOpT", bound=PtxOp)


def build(
    cls: type[PtxOpT], args: Sequence[SSAValue] = (), results: Sequence[Attribute] = (), **props: object
) -> PtxOpT:
    """Build a ptx op; `props` are its modifiers (None: left out) and an optional
    `comment`. A modifier the op does not declare, a missing one or a wrong value raises
    ModifierError here, naming the op and the modifier."""
    comment = props.pop(COMMENT, None)
    properties = {key: to_attr(cls.name, key, value) for key, value in props.items() if value is not None}
    check_modifiers(cls, properties, cls.needed_modifiers(len(args)))
    attributes = {COMMENT: StringAttr(str(comment))} if comment is not None else {}
    return cls.build(
        operands=[list(args)], result_types=[list(results)], properties=properties, attributes=attributes
    )


def cta_group(op: PtxOp) -> str:
    """The `.cta_group::N` of a tcgen05 (or pair TMA) op: its `cta_group` modifier, 1 by
    default. A kernel's tcgen05 ops all name the same group (ptxas refuses a mix)."""
    return f"cta_group::{op.prop('cta_group') if op.has('cta_group') else 1}"


def regs_list(n: Names, value: SSAValue) -> list[str]:
    """The register names of a `!ptx.regs` value (or a one-element list)."""
    return n(value).split(",") if isinstance(value.type, RegsType) else [n(value)]


def brace(names: Sequence[str]) -> str:
    return "{" + ", ".join(names) + "}"


def addr(base: str, offset: object) -> str:
    """``[base+offset]``, or ``[base]`` for offset 0."""
    return f"[{base}+{offset}]" if offset else f"[{base}]"
