"""What a GEMM kernel promises its launcher: its parameters, block size, dynamic shared
memory, grid (fixed, sized from an argument at launch, or one CTA per SM walking the tiles
of a persistent kernel), cluster, and the GEMM facts the runner checks it by."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, MemRefType
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import Matrix, WindowStoreOp
from lower_tc.dialects.tc_kernel import GRID_ATTR
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import ArgInfo, GemmInfo, GridEntry, GridFromArg, KernelInfo, PersistentGrid
from lower_tc.passes.to_ptx.emit import kernel_op as build_kernel_op
from lower_tc.passes.to_ptx.emit import param_name
from lower_tc.passes.to_ptx.gemm.context import GemmKernel
from lower_tc.passes.to_ptx.gemm.lowered import Lowered


def persistent_tiles(kernel: Operation) -> int:
    """The tile count of a persistent kernel: its 1-d grid's, fixed at compile time."""
    grid = kernel.attributes.get(GRID_ATTR)
    entries = grid.data if isinstance(grid, ArrayAttr) else ()
    if len(entries) != 3 or not all(isinstance(e, IntegerAttr) for e in entries) or [e.value.data for e in entries[1:]] != [1, 1]:  # type: ignore[attr-defined]
        error_at(kernel, "a persistent GEMM walks a 1-d grid of tiles known at compile time: tc.grid = [tiles, 1, 1]")
    return entries[0].value.data  # type: ignore[attr-defined]


def grid(k: GemmKernel) -> tuple[GridEntry, GridEntry, GridEntry]:
    """tc.grid: each entry a count, or [arg, dim, tile] (ceil of that size / tile, worked
    out at launch where the size is only known then)."""
    attr = k.kernel.attributes.get(GRID_ATTR)
    if attr is None:
        if k.index.uses_block_id:
            error_at(k.kernel, "a kernel that reads gpu.block_id names its grid: tc.grid = [x, y, z]")
        return (1, 1, 1)
    usage = "tc.grid is three entries, each a positive count or [arg, dim, tile] (ceil of that size / tile)"
    if not isinstance(attr, ArrayAttr) or len(attr.data) != 3:
        error_at(k.kernel, usage)
    args = k.args.values
    out: list[GridEntry] = []
    for entry in attr.data:
        if isinstance(entry, IntegerAttr) and entry.value.data >= 1:
            out.append(entry.value.data)
            continue
        parts = entry.data if isinstance(entry, ArrayAttr) else ()
        if len(parts) != 3 or not all(isinstance(p, IntegerAttr) for p in parts):
            error_at(k.kernel, usage)
        arg, dim, tile = (p.value.data for p in parts)  # type: ignore[union-attr]
        if not (0 <= arg < len(args) and dim in (0, 1) and tile >= 1):
            error_at(k.kernel, usage)
        size = k.args.size(args[arg], ("rows", "cols")[dim])
        out.append(-(-size // tile) if isinstance(size, int) else GridFromArg(arg, dim, tile))
    return (out[0], out[1], out[2])


def arg_info(arg: SSAValue, g: Matrix) -> ArgInfo:
    """An argument's entry in the metadata; sizes known only at launch are None."""
    t = arg.type
    assert isinstance(t, MemRefType)
    written = any(isinstance(use.operation, WindowStoreOp) and use.operation.dst is arg for use in arg.uses)
    strides = (g.ld, 1) if g.row_major else (1, g.ld)
    return ArgInfo(param_name(arg), (g.rows, g.cols), strides, tc.dtype_name(t.element_type), written)


def gemm_info(k: GemmKernel, lowered: Lowered, store: WindowStoreOp) -> GemmInfo:
    """Which arguments are A, B, C and D, the problem's M, N, K (None: known at launch),
    the accumulator and the tile configuration."""
    loop = lowered.loop
    a_src, b_src = (w.src for w in loop.loads)
    d = k.args.geometry[store.dst]
    return GemmInfo(
        a=k.args.index(a_src), b=k.args.index(b_src), d=k.args.index(store.dst),
        c=k.args.index(store.c) if store.c is not None else None,
        m=d.rows, n=d.cols, k=k.args.geometry[a_src].cols, acc=loop.acc_type.dtype,
        config=GemmConfig(loop.acc_type.m, loop.acc_type.n, loop.step, loop.stages),
    )


def kernel_op(k: GemmKernel, lowered: Lowered, store: WindowStoreOp) -> ptx.KernelOp:
    """The ptx.kernel of everything emitted, with its parameters and metadata."""
    args = k.args.values
    params = [f".param .u64 {param_name(a)}" for a in args]
    params += [f".param .u32 {p.param}" for p in k.args.size_params]
    params += [f".param .align 64 .b8 {tm.param}[128]" for tm in k.tensor_maps]
    smem_bytes = k.memory.total(k.kernel)
    launch_grid = grid(k)
    if lowered.persistent_tiles:  # one CTA per SM, at most one per tile: the launcher decides
        launch_grid = (PersistentGrid(lowered.persistent_tiles), 1, 1)
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
    )
    kernel = build_kernel_op(k.kernel, k.b.ops, params, lowered.threads, smem_bytes, info)
    if lowered.max_registers:
        kernel.properties["maxnreg"] = IntAttr(lowered.max_registers)
    if lowered.cluster > 1:
        kernel.properties["cluster"] = IntAttr(lowered.cluster)
    return kernel
