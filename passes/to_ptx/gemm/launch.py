"""What a GEMM kernel promises its launcher: its parameters, block size, dynamic shared
memory, grid (fixed, sized from an argument at launch, or one CTA per SM walking the tiles
of a persistent kernel), cluster, and the GEMM facts the runner checks it by."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntAttr, MemRefType
from xdsl.ir import SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.tc_gemm import Matrix, WindowStoreOp
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import WORKSPACE_PARAM, ArgInfo, GemmInfo, KernelInfo, PersistentGrid, TensorMap
from lower_tc.passes.to_ptx.emit import kernel_op as build_kernel_op
from lower_tc.passes.to_ptx.emit import param_name
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs, waits_first
from lower_tc.passes.to_ptx.gemm.lowered import Lowered


def _stores_to(value: SSAValue) -> bool:
    """Whether a window or rows store writes `value`, or a tc.transpose view of it."""
    for use in value.uses:
        op = use.operation
        if isinstance(op, WindowStoreOp | tc.RowsStoreOp) and op.dst is value:
            return True
        if isinstance(op, tc.TransposeOp) and _stores_to(op.result):
            return True
    return False


def arg_info(arg: SSAValue, g: Matrix) -> ArgInfo:
    """An argument's entry in the metadata; sizes known only at launch are None."""
    t = arg.type
    assert isinstance(t, MemRefType)
    written = _stores_to(arg)
    return ArgInfo(param_name(arg), g.shape, g.strides, tc.dtype_name(t.element_type), written)


def gemm_info(k: GemmKernel, lowered: Lowered, store: WindowStoreOp) -> GemmInfo:
    """Which arguments are A, B, C and D (and whether A, B or D (with C) is a view of
    its argument, transposed), the problem's M, N, K (None: known at launch), the
    accumulator and the tile configuration."""
    loop = lowered.loop
    a_src, b_src = (w.src for w in loop.loads)
    d = k.args.geometry[store.dst]
    return GemmInfo(
        a=k.args.index(a_src), b=k.args.index(b_src), d=k.args.index(store.dst),
        c=k.args.index(store.c) if store.c is not None else None,
        m=d.rows, n=d.cols, k=k.args.geometry[a_src].cols, acc=loop.acc_type.dtype,
        config=GemmConfig(loop.acc_type.m, loop.acc_type.n, loop.step, loop.stages),
        batched=d.batched, batch=d.batch,
        a_transposed=a_src in k.args.views, b_transposed=b_src in k.args.views, d_transposed=store.dst in k.args.views,
        split_k=k.options.split_k, reduce=k.options.reduce if k.options.split_k > 1 else "cluster",
        unsplit=k.options.unsplit,
    )


def kernel_params(args: KernelArgs, tensor_maps: Sequence[TensorMap], workspace: bool = False) -> list[str]:
    """A whole kernel's PTX parameters, in the contract's order: each argument's address,
    the workspace's (the launcher's scratch memory, after the arguments), the sizes known
    at launch, the tensor maps (128 bytes, 64-aligned)."""
    params = [f".param .u64 {param_name(a)}" for a in args.values]
    if workspace:
        params.append(f".param .u64 {WORKSPACE_PARAM}")
    params += [f".param .u32 {p.param}" for p in args.size_params]
    return params + [f".param .align 64 .b8 {tm.param}[128]" for tm in tensor_maps]


def kernel_op(k: GemmKernel, lowered: Lowered, store: WindowStoreOp) -> ptx.KernelOp:
    """The ptx.kernel of everything emitted, with its parameters and metadata."""
    args = k.args.values
    params = kernel_params(k.args, k.tensor_maps, workspace=lowered.workspace is not None)
    smem_bytes = k.memory.total(k.kernel)
    launch_grid = k.grid
    if lowered.persistent_tiles:  # one CTA per SM, at most one per tile: the launcher decides
        launch_grid = (PersistentGrid(lowered.persistent_tiles, lowered.stream_k_steps), 1, 1)
    info = KernelInfo(
        name=tc.kernel_name(k.kernel),
        target=k.kernel.attributes[tc.TARGET_ATTR].data,  # type: ignore[attr-defined]
        threads=lowered.threads,
        grid=launch_grid,
        smem_bytes=smem_bytes,
        args=tuple(arg_info(a, k.args.geometry[a]) for a in args),
        size_params=tuple(k.args.size_params),
        tensor_maps=tuple(k.tensor_maps),
        gemm=gemm_info(k, lowered, store),
        cluster=(lowered.cluster, 1, 1) if lowered.cluster > 1 else None,
        workspace=lowered.workspace,
        dependent_launch=waits_first(k.b.ops),  # read_operands's griddepcontrol.wait comes first
    )
    kernel = build_kernel_op(k.kernel, k.b.ops, params, lowered.threads, smem_bytes, info)
    if lowered.max_registers:
        kernel.properties["maxnreg"] = IntAttr(lowered.max_registers)
    if lowered.cluster > 1:
        kernel.properties["cluster"] = IntAttr(lowered.cluster)
    return kernel
