"""tc-lower-to-ptx: rewrites each tc kernel into a `ptx.kernel` of PTX-level ops.

The kernel runs one warpgroup (128 threads; 32 when it holds only WMMA ops).
Everything the layout decides is computed here at compile time, by the
layout core: thread copies read a table of (shared offset, global element
offset) per 16-byte chunk, so every element lands at the address the tile's
layout gives; TMA copies get one box per contiguous column of atoms; the
wgmma register fragment of A comes from a table of shared offsets per
thread. Accumulators follow the PTX ISA register-fragment layouts.

This module is the pass; the lowering itself, one function per op grouped by family,
is the package `lower_tc.passes.to_ptx` (passes/to_ptx/).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from lower_tc.dialects import ptx
from lower_tc.dialects import tc
from lower_tc.dialects.ptx import TARGET_ATTR as PTX_TARGET_ATTR
from lower_tc.dialects.ptx import VERSION_ATTR as PTX_VERSION_ATTR
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.pass_order import require
from lower_tc.passes.to_ptx.attention import is_attention_kernel, lower_attention_kernel
from lower_tc.passes.to_ptx.gemm import is_gemm_kernel, lower_gemm_kernel
from lower_tc.passes.to_ptx import lower_kernel
from lower_tc.passes.to_ptx.emit import param_name


@dataclass(frozen=True)
class LowerToPtxPass(ModulePass):
    """Rewrites every tc kernel (a func.func or gpu.func with tc.target) into a ptx.kernel.

    Everything else in the module (host functions, other dialects) is left as it is,
    and the PTX printer prints only the ptx ops."""

    name = "tc-lower-to-ptx"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = tc.tc_kernels(op)  # each a named one-block function with a known target
        if not kernels:
            lowered = next((o for o in op.walk() if isinstance(o, ptx.KernelOp)), None)
            if lowered is not None:  # tc-lower-to-ptx twice in one pipeline
                error_at(lowered, "this kernel is PTX already: tc-lower-to-ptx runs once")
            error_at(None, "no kernel to lower: mark a func.func or gpu.func with tc.target = \"sm_90a\" or \"sm_100a\"")
        archs = {tc.parse_kernel_target(k.attributes[tc.TARGET_ATTR].data).value for k in kernels}  # type: ignore[attr-defined]
        if len(archs) > 1:
            error_at(kernels[-1], f"one PTX module has one target; kernels target {', '.join(sorted(archs))}")
        check_names(kernels)
        for o in op.walk():  # a tc op outside every kernel would be left out of the PTX
            if o.dialect_name() == "tc" and tc.enclosing_kernel(o) is None:
                error_at(o, f"'{o.name}' is outside every kernel: tc ops are lowered in a function marked tc.target")
        require(op, self.name, kernels)  # every pass before this one has done its work
        tables: list[ptx.TableOp] = []
        for k in kernels:
            if is_attention_kernel(k):  # a loop over blocks of keys carrying O and the running rows
                lowered = lower_attention_kernel(k)
            elif is_gemm_kernel(k):  # a loop-level GEMM: its own, pipelined lowering
                lowered = lower_gemm_kernel(k)
            else:
                check_single_tile(k)
                lowered = lower_kernel(k, tables, f"lower_tc_{tc.kernel_name(k)}_table")
            parent = k.parent_block()
            assert parent is not None
            parent.insert_op_before(lowered, k)
            k.detach()
            k.erase()
        block = op.body.block
        first = block.first_op
        for t in tables:
            if first is None:
                block.add_op(t)
            else:
                block.insert_op_before(t, first)
        arch = archs.pop()
        op.attributes[PTX_TARGET_ATTR] = StringAttr(arch)
        op.attributes[PTX_VERSION_ATTR] = StringAttr(ptx_version(arch, op))


#: The PTX module's own symbol: its dynamic shared memory (the printer declares it).
SMEM_SYMBOL = "smem"
#: What a single-tile kernel's tables are named after: lower_tc_<kernel>_table_<i>.
TABLE_NAME = re.compile(r"lower_tc_(.+)_table_\d+")


def check_names(kernels: list[Operation]) -> None:
    """Every name the PTX module declares once: each kernel's (an entry), distinct from the
    other kernels', from the shared-memory symbol and from the kernels' tables; each
    kernel's parameters (its arguments' names, sanitised by `param_name`) distinct.
    Located errors at the kernel."""
    names: dict[str, Operation] = {}
    for k in kernels:
        name = tc.kernel_name(k)
        if name == SMEM_SYMBOL:
            error_at(k, f"a kernel cannot be named {name}: the PTX module names its dynamic shared memory so")
        if name in names:
            error_at(k, f"two kernels are named {name}: each becomes the PTX entry of its name")
        names[name] = k
        params: dict[str, str] = {}
        for arg in tc.kernel_body(k).args:
            param = param_name(arg)
            shown = f"%{arg.name_hint}" if arg.name_hint else f"argument {arg.index}"
            if param in params:
                error_at(k, f"{params[param]} and {shown} both become the PTX parameter {param}: rename one")
            params[param] = shown
    for name, k in names.items():
        table = TABLE_NAME.fullmatch(name)
        if table and table.group(1) in names:
            error_at(k, f"a kernel cannot be named {name}: kernel {table.group(1)}'s tables are named so")


def check_single_tile(kernel: Operation) -> None:
    """A single-tile kernel runs one CTA and has no K loop to schedule: the loop level's
    tc.grid and tc.schedule would change nothing, and the windows of a GEMM whose loop
    is gone cannot be lowered one by one. Located errors at the kernel."""
    lost = tc.lost_gemm_loop(kernel)
    if lost:
        error_at(kernel, lost)
    for attr in (tc.GRID_ATTR, tc.SCHEDULE_ATTR):
        if attr in kernel.attributes:
            error_at(kernel, f"{attr} is for a loop-level GEMM kernel (an scf.for over K): this single-tile "
                             "kernel runs one CTA; leave it out")


def ptx_version(arch: str, module: ModuleOp) -> str:
    """The lowest PTX ISA version the kernels need (ptxas rejects lower ones):
    wgmma and TMA 8.0, wgmma with mixed s8/u8 operands 8.4, tcgen05 8.6."""
    version = (8, 6) if arch == "sm_100a" else (8, 0)
    for op in module.walk():
        if isinstance(op, ptx.WgmmaMmaAsyncOp) and {op.prop("atype"), op.prop("btype")} == {"s8", "u8"}:
            version = max(version, (8, 4))
    return f"{version[0]}.{version[1]}"
