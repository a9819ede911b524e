"""Swap-AB: a `tc.matmul` D = A x B computed as D^T = B^T x A^T.

A decoding layer's M (tokens) is 1 to 64 while N and K are model widths: in the plain
kernel the weight is wgmma's B and each CTA's 64-row tile of A is mostly empty. Swapped,
the weight is wgmma's A (64 rows of N a CTA, N / 64 CTAs), the activations its B (N' = M
rounded up to 8) and the ring holds 4 to 16 stages of the weight: on the H100 this
streamed decoding GEMMs at cuBLAS's speed or better where the plain kernel reached 81-98%
(docs/performance.md, "Swap-AB").

The rewrite is the op's: A' = B^T, B' = A^T, D' = D^T (and C' = C^T), each a `tc.transpose`
view of the argument, or the argument itself where the operand already is a view of it;
the chooser's rule and tile are layout/gemm_choice.py's (`prefer_swap`, `swap_config`);
the expansion then makes the loop level of the swapped op as of any other, and the
epilogue stores D^T, a column-major view, as D's rows: the TMA-store epilogue's transposed
pieces (stmatrix.trans, passes/to_ptx/gemm/epilogue_tma.py) where it applies, else the
register epilogue down D's rows. The launch metadata says so (`d_transposed`).
"""

from __future__ import annotations

import dataclasses

from xdsl.ir import Block, Operation, SSAValue

from lower_tc.dialects import tc
from lower_tc.dialects.tc_matmul import GemmConfigAttr, MatmulOp
from lower_tc.layout import Arch
from lower_tc.layout.gemm import GemmConfig


def swap_conflict(mm: MatmulOp, arch: Arch) -> str | None:
    """Why the op cannot be swapped for what it asks (one line), or None; the operands'
    own rules (an 8-bit operand that would be MN-major) are the swapped op's verifier's."""
    given = mm.options
    if arch is not Arch.SM90A:
        return "swap-AB is built for sm_90a's wgmma kernels"
    if mm.batched:
        return "swap-AB takes one matrix (D^T of a batch is not a view the epilogue stores)"
    if any(size is None for size in mm.problem):
        return "swap-AB needs M, N and K known at compile time (D^T is stored with its leading dimension as an immediate)"
    if (given.cluster or 1) > 1:
        return "swap-AB does not go with cluster = 2 (the pairs share B's loads, which swapped are the activations)"
    if given.stream_k:
        return (f"swap-AB does not go with stream_k = {given.stream_k} (not built: stream-K's fix-up of tiles stored "
                "as D^T is not checked on the GPU; split_k goes with swap_ab)")
    return None


def swapped_op(mm: MatmulOp, config: GemmConfig | None) -> tuple[MatmulOp, list[Operation]]:
    """The op D^T = B^T x A^T (not inserted) and the views it needs (not inserted);
    `config` is its configuration (None: the op's own). Raises VerifyException where the
    swapped op does not verify."""
    views: list[Operation] = []
    seen: dict[SSAValue, SSAValue] = {}

    def transposed(v: SSAValue) -> SSAValue:
        if v in seen:
            return seen[v]
        owner = v.owner
        if isinstance(owner, tc.TransposeOp):  # a view of an argument: the argument itself
            seen[v] = owner.source
        else:
            view = tc.TransposeOp(v)
            view.result.name_hint = f"{v.name_hint}_t" if v.name_hint else None
            views.append(view)
            seen[v] = view.result
        return seen[v]

    a, b, d = transposed(mm.b), transposed(mm.a), transposed(mm.dst)
    c = transposed(mm.c) if mm.c is not None else None
    options = dataclasses.replace(mm.options, swap_ab=None)
    acc = mm.properties.get("acc")
    new = MatmulOp(a, b, d, c, acc=acc.data if acc is not None else None,  # type: ignore[attr-defined]
                   config=GemmConfigAttr.from_config(config) if config is not None else mm.config, options=options)
    new.verify()
    return new, views


def swap(mm: MatmulOp, config: GemmConfig | None) -> MatmulOp:
    """Replaces `mm` by its swapped op (views inserted before it; views of the old
    operands that nothing reads any more erased) and returns the new op."""
    new, views = swapped_op(mm, config)
    block = mm.parent_block()
    assert isinstance(block, Block)
    for op in [*views, new]:
        op.location = mm.location
        block.insert_op_before(op, mm)
    old = [v.owner for v in mm.operands if isinstance(v.owner, tc.TransposeOp)]
    mm.detach()
    mm.erase()
    for op in old:
        if not op.result.uses and op.parent is not None:
            op.detach()
            op.erase()
    return new


__all__ = ["swap", "swap_conflict", "swapped_op"]
