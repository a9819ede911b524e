"""lower-tc: shared-memory tile layouts and tensor-core descriptors, exact and checked.

Subpackages: ``lower_tc.layout`` (pure math, no xDSL, no CUDA),
``lower_tc.dialects`` (the `tc` and `ptx` dialects), ``lower_tc.passes`` and
``lower_tc.lowering`` (PTX printer, driver, backend).

Embedding in another xDSL-based compiler::

    from xdsl.context import Context
    import lower_tc

    ctx = Context()
    lower_tc.register_dialects(ctx)          # tc and ptx, loaded lazily
    passes = lower_tc.available_passes()     # name -> pass-class factory
    pipeline = lower_tc.default_pipeline()   # list of pass instances
    for p in pipeline:
        p.apply(ctx, module)
    ptx_text = lower_tc.print_ptx(module)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass


def register_dialects(ctx: "Context") -> None:
    """Register the tc and ptx dialects on `ctx` (imported on first use)."""

    def tc_dialect():
        from lower_tc.dialects.tc import TC

        return TC

    def ptx_dialect():
        from lower_tc.dialects.ptx import PTX

        return PTX

    for name, loader in (("tc", tc_dialect), ("ptx", ptx_dialect)):
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, loader)


def available_passes() -> dict:
    """Pass name -> factory returning the pass class (for xDSLOptMain.register_pass)."""
    from lower_tc.passes import PASSES

    return dict(PASSES)


def default_pipeline(**options: dict) -> list["ModulePass"]:
    """The default pipeline as pass instances; `options` maps pass names to keyword options."""
    from lower_tc.passes import DEFAULT_PIPELINE, PASSES

    return [PASSES[name]()(**options.get(name, {})) for name in DEFAULT_PIPELINE.split(",")]


def print_ptx(module: "ModuleOp") -> str:
    """The PTX text of a module lowered by tc-lower-to-ptx."""
    from io import StringIO

    from lower_tc.dialects.ptx.printer import print_module

    out = StringIO()
    print_module(module, out)
    return out.getvalue()
