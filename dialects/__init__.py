"""lower_tc.dialects: the `tc` dialect (tiles, layouts, MMAs, GEMMs) and the `ptx` dialect.

Importing this package stays light (no dialect is built until it is asked for), so that
`lower_tc.dialects.diagnostics` and the registration below cost nothing up front.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from xdsl.context import Context
    from xdsl.ir import Dialect
    from xdsl.utils.target import Target


def _tc() -> Dialect:
    # a lazy registry: the dialect is imported when a parser first meets a tc op
    from lower_tc.dialects.tc import TC

    return TC


def _ptx() -> Dialect:
    # a lazy registry: the dialect is imported when a parser first meets a ptx op
    from lower_tc.dialects.ptx import PTX

    return PTX


def _ptx_target() -> type[Target]:
    # a lazy registry: the PTX printer is imported when `-t ptx` prints a module
    from lower_tc.dialects.ptx.printer import PtxTarget

    return PtxTarget


#: Dialect name -> a function that imports and returns the dialect (xDSL's Universe shape).
DIALECTS: dict[str, Callable[[], Dialect]] = {"tc": _tc, "ptx": _ptx}

#: Target name -> a function that imports and returns the target class: the text targets
#: any xdsl-opt can print. `cubin` is not here: it writes bytes and needs the assembler
#: (lowering/): the `lower-tc` driver's `-t cubin -o FILE` (lowering/cli/driver.py) and the
#: plugin's `-t 'cubin{file="..."}'` (lowering/cubin_target.py) write it.
TARGETS: dict[str, Callable[[], type[Target]]] = {"ptx": _ptx_target}


def available_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialect name -> factory returning the dialect (for Context.register_dialect)."""
    return dict(DIALECTS)


def available_targets() -> dict[str, Callable[[], type[Target]]]:
    """Target name -> factory returning the target class (for xDSLOptMain's targets)."""
    return dict(TARGETS)


def register_dialects(ctx: Context) -> None:
    """Register the tc and ptx dialects on `ctx` (each imported on first use)."""
    for name, loader in DIALECTS.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, loader)


__all__ = ["DIALECTS", "TARGETS", "available_dialects", "available_targets", "register_dialects"]
