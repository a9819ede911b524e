"""Kernels, tables and the module's target: a ``ptx.kernel`` is a ``.visible .entry``, a
``ptx.table`` a read-only ``.global`` array the lowering computes at compile time; the
module's ``ptx.target`` and ``ptx.version`` attributes give the header's ``.target`` and
``.version``."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, StringAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, region_def, traits_def
from xdsl.traits import NoTerminator

#: The module attribute naming the PTX target (``sm_90a``, ``sm_100a``), set by tc-lower-to-ptx.
TARGET_ATTR = "ptx.target"
#: The module attribute naming the PTX ISA version the kernels need.
VERSION_ATTR = "ptx.version"
#: PTX ISA version per target when the module names none: wgmma needs 8.0, tcgen05 8.6.
PTX_VERSION = {"sm_90a": "8.0", "sm_100a": "8.6"}


@irdl_op_definition
class KernelOp(IRDLOperation):
    """A ``.visible .entry``: params, threads, dynamic shared memory and a body."""

    name = "ptx.kernel"
    sym_name = prop_def(StringAttr)
    params = prop_def(ArrayAttr[StringAttr])  # PTX param declarations, e.g. ".param .u64 p_A"
    threads = prop_def(IntAttr)
    smem_bytes = prop_def(IntAttr)
    info = opt_prop_def(StringAttr)  # JSON metadata for the runner
    maxnreg = opt_prop_def(IntAttr)  # a register cap at entry (.maxnreg), which setmaxnreg needs
    cluster = opt_prop_def(IntAttr)  # CTAs per cluster along x (.reqnctapercluster N, 1, 1)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())


@irdl_op_definition
class TableOp(IRDLOperation):
    """A read-only ``.global .u32`` table computed at compile time."""

    name = "ptx.table"
    sym_name = prop_def(StringAttr)
    values = prop_def(DenseArrayBase)
