"""The tc passes and the tc verifiers stay linear in the number of ops: a chain of 10,000
tc.wgmma on two tiles (one accumulator threaded through them) is verified after every pass
and run through tc-choose-swizzle, tc-assign-smem and tc-compute-descriptors well inside a
generous bound. Before, each MMA's verifier walked every op after it and
tc-compute-descriptors scanned the kernel's body once per MMA: minutes for this chain."""

from __future__ import annotations

import time

from xdsl.dialects import func
from xdsl.dialects.builtin import BFloat16Type, Float32Type, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Region

from lower_tc.dialects import tc
from lower_tc.dialects.ptx import KernelOp
from lower_tc.lowering.parse import context
from lower_tc.passes import PASSES

CHAIN = 10_000
#: Seconds for the whole chain (about 4 on the shared CI machine; the quadratic passes
#: took over a minute for it).
BOUND = 30.0


def chain_module(n: int) -> ModuleOp:
    """A single-tile sm_90a kernel: two 64x64 bf16 tiles copied in, then n chained wgmma."""
    bf16, f32 = BFloat16Type(), Float32Type()
    a_t = tc.TileType([64, 64], bf16, tc.LayoutAttr("k"))
    b_t = tc.TileType([64, 64], bf16, tc.LayoutAttr("mn"))
    acc_t = tc.AccType([64, 64], f32)
    body = Block(arg_types=[MemRefType(bf16, [64, 64]), MemRefType(bf16, [64, 64]), MemRefType(f32, [64, 64])])
    big_a, big_b, big_d = body.args
    a, b = tc.SmemTileOp(a_t), tc.SmemTileOp(b_t)
    acc = tc.AccZeroOp(acc_t)
    body.add_ops([a, b, tc.CopyOp(big_a, a.tile, tc.Operand.A), tc.CopyOp(big_b, b.tile, tc.Operand.B), acc])
    value = acc.acc
    for _ in range(n):
        mma = tc.WgmmaOp(a.tile, b.tile, value)
        body.add_op(mma)
        value = mma.result
    body.add_ops([tc.AccStoreOp.build(operands=[value, big_d]), func.ReturnOp()])
    kernel = func.FuncOp("chain", ((*body.arg_types,), ()), Region(body))
    kernel.attributes[tc.TARGET_ATTR] = StringAttr("sm_90a")
    return ModuleOp([kernel])


def test_a_chain_of_10000_wgmma_is_linear() -> None:
    ctx = context()
    module = chain_module(CHAIN)
    start = time.perf_counter()
    module.verify()
    for name in ("tc-choose-swizzle", "tc-assign-smem", "tc-compute-descriptors"):
        PASSES[name]()().apply(ctx, module)
        module.verify()
    took = time.perf_counter() - start
    assert took < BOUND, f"{CHAIN} chained wgmma took {took:.1f} s through the tc passes"
    mmas = [op for op in module.walk() if isinstance(op, tc.WgmmaOp)]
    assert len(mmas) == CHAIN
    # every MMA got its descriptors (shared: the tiles are the same), one per 16-element K-slice
    assert all(len(op.attributes["tc.a_descs"].data) == 4 for op in mmas)  # type: ignore[attr-defined]
    assert mmas[0].attributes["tc.b_descs"] is mmas[-1].attributes["tc.b_descs"]


def test_a_short_chain_lowers() -> None:
    """The chain is a valid program: the rest of the pipeline lowers it."""
    ctx = context()
    module = chain_module(3)
    for name in ("tc-choose-swizzle", "tc-assign-smem", "tc-compute-descriptors", "tc-lower-to-ptx"):
        PASSES[name]()().apply(ctx, module)
    module.verify()
    assert [op.sym_name.data for op in module.walk() if isinstance(op, KernelOp)] == ["chain"]  # type: ignore[attr-defined]
