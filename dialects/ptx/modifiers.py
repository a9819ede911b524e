"""Typed modifiers: what a ptx op's modifiers (its type, immediate, offset, comparison,
count, ...) may be, and the check that refuses a wrong one when the op is built.

Each modifier is a declared xDSL property of its op (`prop_def` / `opt_prop_def`) with one
of the constraints below: a closed set of words (`one_of`), an i64 integer (`INT`), a closed
set of integers (`ints`, `FLAG`), free text where PTX's set is open (`TEXT`: labels,
symbols, compound cvt types), or an integer or text (`INT_OR_TEXT`: an immediate written
either way). `check_modifiers` applies them with messages that name the op and the
modifier, both when a lowering builds an op (`ptx.build`) and when hand-written IR is
verified; xDSL's own property checks, which follow, name no modifier.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, i64
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyOf,
    AttrConstraint,
    AttrSetConstraint,
    BaseAttr,
    EqAttrConstraint,
    IRDLOperation,
    OptPropertyDef,
    ParamAttrConstraint,
    PropertyDef,
    VerificationContext,
    irdl_to_attr_constraint,
)
from xdsl.utils.exceptions import VerifyException

#: An i64 integer: offsets, counts, immediates, register indices.
INT: AttrConstraint = irdl_to_attr_constraint(IntegerAttr[I64])
#: Free text, where PTX's set is open: labels, symbols, parameter names, compound types.
TEXT: AttrConstraint = BaseAttr(StringAttr)
#: An immediate the lowering writes as an integer or as PTX text (``0x...``, ``0f...``).
INT_OR_TEXT: AttrConstraint = AnyOf((INT, TEXT))


def one_of(*words: str) -> AttrConstraint:
    """A closed set of words (a PTX type, a comparison, a state space)."""
    return AttrSetConstraint.get(*(StringAttr(w) for w in words))


def ints(*values: int) -> AttrConstraint:
    """A closed set of i64 integers."""
    return AttrSetConstraint.get(*(IntegerAttr(v, i64) for v in values))


#: A yes/no modifier, 0 or 1 (a Python bool is stored as one).
FLAG = ints(0, 1)
#: PTX's fundamental types (and .pred), as a register instruction names them.
PTX_TYPE = one_of(
    "pred", "b8", "b16", "b32", "b64", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
    "f16", "f16x2", "bf16", "bf16x2", "f32", "f64",
)
#: `.cta_group::1` or `::2` of the tcgen05 ops and of a CTA pair's TMA load.
CTA_GROUP = ints(1, 2)
#: The address of a symbol or a shared::cluster address: 32 or 64 bits.
ADDRESS_TYPE = one_of("u32", "u64")


class ModifierError(VerifyException):
    """A ptx op built or written with a modifier it does not have, without one it needs,
    or with a value of the wrong kind."""


def _show(attr: Attribute) -> str:
    if isinstance(attr, StringAttr):
        return f'"{attr.data}"'
    if isinstance(attr, IntegerAttr):
        return str(attr.value.data)
    return str(attr)


def describe(constr: AttrConstraint) -> str:
    """What a constraint accepts, in words: 'one of "eq", "ne"', 'an i64 integer'."""
    if isinstance(constr, EqAttrConstraint):
        return _show(constr.attr)
    if isinstance(constr, AttrSetConstraint):
        values = sorted(constr.values, key=lambda a: (isinstance(a, StringAttr), _show(a)))
        return "one of " + ", ".join(_show(v) for v in values)
    if isinstance(constr, ParamAttrConstraint) and constr.base_attr is IntegerAttr:
        return "an i64 integer"
    if isinstance(constr, BaseAttr) and constr.attr is StringAttr:
        return "a string"
    if isinstance(constr, AnyOf):
        return " or ".join(describe(c) for c in constr.attr_constrs)
    return str(constr)


def to_attr(op_name: str, key: str, value: object) -> Attribute:
    """A modifier's Python value as an attribute: int (and bool) -> i64, str -> string."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        try:
            return IntegerAttr(value, i64)
        except VerifyException:
            raise ModifierError(f"{op_name} modifier '{key}' must fit in an i64 integer, not {value}") from None
    if isinstance(value, str):
        return StringAttr(value)
    raise ModifierError(f"{op_name} modifier '{key}' is an int or a str, not {value!r}")


@cache
def declared(cls: type[IRDLOperation]) -> Mapping[str, PropertyDef]:
    """The modifiers an op class declares, by name, in declaration order."""
    return dict(cls.get_irdl_definition().properties)


def check_modifiers(
    cls: type[IRDLOperation],
    props: Mapping[str, Attribute],
    needed: Collection[str] = (),
) -> None:
    """Raises ModifierError unless `props` are the modifiers `cls` declares: no unknown
    name, every required one (and every one in `needed`, those its operand form needs)
    present, each value of its kind."""
    mods = declared(cls)
    for key in props:
        if key not in mods:
            listed = f"its modifiers: {', '.join(mods)}" if mods else "it has none"
            raise ModifierError(f"{cls.name} has no modifier '{key}' ({listed})")
    for key, mod in mods.items():
        attr = props.get(key)
        if attr is None:
            if isinstance(mod, OptPropertyDef) and key not in needed:
                continue
            raise ModifierError(f"{cls.name} needs the modifier '{key}'")
        try:
            mod.constr.verify(attr, VerificationContext())
        except VerifyException:
            raise ModifierError(
                f"{cls.name} modifier '{key}' must be {describe(mod.constr)}, not {_show(attr)}"
            ) from None
