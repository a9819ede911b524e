"""The kernel's grid (`tc.grid`), read and checked once: each entry a count of blocks, or
[arg, dim, tile] (ceil of that size / tile, worked out at launch where the size is only
known then). Counts known now must be ones CUDA launches (layout/limits.py); a persistent
kernel's grid is the 1-d list of its tiles."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_kernel import GRID_ATTR
from lower_tc.layout.kernel_info import GridEntry, GridFromArg
from lower_tc.layout.limits import grid_problem
from lower_tc.layout.split_k import MAX_GLOBAL_SPLIT
from lower_tc.passes.to_ptx.gemm.operands import KernelArgs, dim_names

Grid = tuple[GridEntry, GridEntry, GridEntry]

USAGE = ("tc.grid is three entries, each a positive count or [arg, dim, tile] (ceil of that size / tile), "
         f"or [arg, dim, tile, times] (that many times as many, 1 to {MAX_GLOBAL_SPLIT}: split-K's CTAs per tile)")


def read_grid(kernel: Operation, args: KernelArgs, uses_block_id: bool) -> Grid:
    """The grid of `kernel`; one block when it names none and reads no gpu.block_id."""
    attr = kernel.attributes.get(GRID_ATTR)
    if attr is None:
        if uses_block_id:
            error_at(kernel, "a kernel that reads gpu.block_id names its grid: tc.grid = [x, y, z]")
        return (1, 1, 1)
    if not isinstance(attr, ArrayAttr) or len(attr.data) != 3:
        error_at(kernel, USAGE)
    out: list[GridEntry] = []
    for entry in attr.data:
        if isinstance(entry, IntegerAttr) and entry.value.data >= 1:
            out.append(entry.value.data)
            continue
        parts = entry.data if isinstance(entry, ArrayAttr) else ()
        if len(parts) not in (3, 4) or not all(isinstance(p, IntegerAttr) for p in parts):
            error_at(kernel, USAGE)
        arg, dim, tile, *times_ = (p.value.data for p in parts)  # type: ignore[union-attr]
        times = times_[0] if times_ else 1
        if not (0 <= arg < len(args.values) and tile >= 1 and 1 <= times <= MAX_GLOBAL_SPLIT):
            error_at(kernel, USAGE)
        names = dim_names(args.geometry[args.values[arg]])
        if not 0 <= dim < len(names):
            error_at(kernel, USAGE)
        size = args.size(args.values[arg], names[dim])
        grid_entry = GridFromArg(arg, dim, tile, times)
        out.append(grid_entry.count(size) if isinstance(size, int) else grid_entry)
    grid = (out[0], out[1], out[2])
    static = [g if isinstance(g, int) else 1 for g in grid]  # a count known at launch is checked then
    problem = grid_problem(static)
    if problem is not None:
        error_at(kernel, f"{problem} (tc.grid)")
    return grid


def persistent_tiles(kernel: Operation, grid: Grid) -> int:
    """The tile count of a persistent kernel: its 1-d grid's, fixed at compile time."""
    if not (isinstance(grid[0], int) and grid[1:] == (1, 1) and isinstance(kernel.attributes.get(GRID_ATTR), ArrayAttr)):
        error_at(kernel, "a persistent GEMM walks a 1-d grid of tiles known at compile time: tc.grid = [tiles, 1, 1]")
    return grid[0]


def check_clusters(kernel: Operation, grid: Grid, cluster: int) -> None:
    """A cluster launch runs whole clusters: the grid's x (not a persistent kernel's, which
    the launcher rounds down to whole clusters) must be a multiple of the cluster's size.
    A count known only at launch is the launcher's to check."""
    x = grid[0]
    if cluster > 1 and isinstance(x, int) and x % cluster:
        error_at(kernel, f"a cluster launch runs whole clusters of {cluster} CTAs: the grid's x ({x}) is not a multiple of {cluster} (tc.grid)")
    times_problem(kernel, grid, cluster)


def times_problem(kernel: Operation, grid: Grid, split: int) -> None:
    """A located error where the grid's x is known at launch ([arg, dim, tile, times]) and
    is not sure to be a multiple of `split` (the CTAs that share a tile, consecutive in x):
    `times` must be."""
    x = grid[0]
    if split > 1 and isinstance(x, GridFromArg) and x.times % split:
        error_at(kernel, f"the grid's x, [{x.arg}, {x.dim}, {x.tile}, {x.times}], is a multiple of the {split} CTAs that share "
                         f"a tile only where its times is: [{x.arg}, {x.dim}, {x.tile}, {split}] (tc.grid)")
