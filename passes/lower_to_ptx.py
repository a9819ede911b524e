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

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx
from lower_tc.dialects import tc
from lower_tc.dialects.ptx import TARGET_ATTR as PTX_TARGET_ATTR
from lower_tc.dialects.ptx import VERSION_ATTR as PTX_VERSION_ATTR
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.gemm import is_gemm_kernel, lower_gemm_kernel
from lower_tc.passes.to_ptx import lower_kernel


@dataclass(frozen=True)
class LowerToPtxPass(ModulePass):
    """Rewrites every tc kernel (a func.func or gpu.func with tc.target) into a ptx.kernel.

    Everything else in the module (host functions, other dialects) is left as it is,
    and the PTX printer prints only the ptx ops."""

    name = "tc-lower-to-ptx"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = tc.tc_kernels(op)
        if not kernels:
            error_at(None, "no kernel to lower: mark a func.func or gpu.func with tc.target = \"sm_90a\" or \"sm_100a\"")
        archs = set()
        for k in kernels:
            attr = k.attributes[tc.TARGET_ATTR]
            if not isinstance(attr, StringAttr):
                error_at(k, 'tc.target is a string such as "sm_90a"')
            try:
                archs.add(tc.parse_kernel_target(attr.data).value)
            except VerifyException as err:
                error_at(k, str(err))
        if len(archs) > 1:
            error_at(kernels[-1], f"one PTX module has one target; kernels target {', '.join(sorted(archs))}")
        tables: list[ptx.TableOp] = []
        for k in kernels:
            if is_gemm_kernel(k):  # a loop-level GEMM: its own, pipelined lowering
                lowered = lower_gemm_kernel(k)
            else:
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


def ptx_version(arch: str, module: ModuleOp) -> str:
    """The lowest PTX ISA version the kernels need (ptxas rejects lower ones):
    wgmma and TMA 8.0, wgmma with mixed s8/u8 operands 8.4, tcgen05 8.6."""
    version = (8, 6) if arch == "sm_100a" else (8, 0)
    for op in module.walk():
        if isinstance(op, ptx.WgmmaMmaAsyncOp) and {op.prop("atype"), op.prop("btype")} == {"s8", "u8"}:
            version = max(version, (8, 4))
    return f"{version[0]}.{version[1]}"
