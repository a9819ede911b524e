"""lower_tc.dialects: the `tc` dialect (tiles, layouts, MMAs, GEMMs) and the `ptx` dialect.

Importing this package stays light (no dialect is built until it is asked for), so that
`lower_tc.dialects.diagnostics` and the registration below cost nothing up front.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from xdsl.context import Context
    from xdsl.ir import Dialect


def _tc() -> Dialect:
    # a lazy registry: the dialect is imported when a parser first meets a tc op
    from lower_tc.dialects.tc import TC

    return TC


def _ptx() -> Dialect:
    # a lazy registry: the dialect is imported when a parser first meets a ptx op
    from lower_tc.dialects.ptx import PTX

    return PTX


def register_dialects(ctx: Context) -> None:
    """Register the tc and ptx dialects on `ctx` (each imported on first use)."""
    for name, loader in (("tc", _tc), ("ptx", _ptx)):
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, loader)


__all__ = ["register_dialects"]
