"""Hand-made launch contracts of batched GEMMs (layout/kernel_info.py), as the lowering
gives them (issue 21): for the runtime's CPU tests, which need no compiler."""

from __future__ import annotations

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import (
    SIZE_PARAM_KINDS, ArgInfo, GemmInfo, GridFromArg, KernelInfo, SizeParam, TensorMap,
)

CONFIG = GemmConfig(128, 256, 64, 4)
SWIZZLE = {"128b": 3}


def _size_params(args: tuple[ArgInfo, ...]) -> tuple[SizeParam, ...]:
    """Every size of every argument known at launch: rows, cols, ld (and batch,
    batch_stride for a batched one), in argument order."""
    out = []
    for i, a in enumerate(args):
        if a.static:
            continue
        for what in SIZE_PARAM_KINDS[: 5 if a.batched else 3]:
            out.append(SizeParam(f"{a.param}_{what}", i, what))
    return tuple(out)


def _map(param: str, arg: int, a: ArgInfo, box: tuple[int, int]) -> TensorMap:
    """A's (or B's) TMA map: a batch dimension last with box 1; dims and strides at launch."""
    full = (*box, 1) if a.batched else box
    return TensorMap(param, arg, a.dtype, full, "128b", 3, None, None)


def dynamic_batched(*, b_rows: bool = False, broadcast_b: bool = False, with_c: bool = False,
                    dtype: str = "bf16", d_dtype: str = "bf16") -> KernelInfo:
    """D[b] = A[b] x B[b] (+ C[b]) with every size known at launch: A row-major, B
    column-major (row-major with `b_rows`), one matrix for every batch with `broadcast_b`,
    D row-major; the batch as grid z (row order, 128 x 256 tiles)."""
    b_strides = (None, None, 1) if b_rows else (None, 1, None)
    args = [
        ArgInfo("p_A", (None, None, None), (None, None, 1), dtype, False),
        (ArgInfo("p_B", (None, None), b_strides[1:], dtype, False) if broadcast_b
         else ArgInfo("p_B", (None, None, None), b_strides, dtype, False)),
        ArgInfo("p_D", (None, None, None), (None, None, 1), d_dtype, True),
    ]
    if with_c:
        args.append(ArgInfo("p_C", (None, None, None), (None, None, 1), d_dtype, False))
    argt = tuple(args)
    return KernelInfo(
        name="bgemm", target="sm_90a", threads=384, smem_bytes=196672, args=argt,
        tensor_maps=(_map("tmap_0", 0, argt[0], (64, 128)), _map("tmap_1", 1, argt[1], (64, 256))),
        grid=(GridFromArg(2, 2, 256), GridFromArg(2, 1, 128), GridFromArg(2, 0, 1)),
        size_params=_size_params(argt),
        gemm=GemmInfo(0, 1, 2, 3 if with_c else None, None, None, None, "f32", CONFIG, batched=True, batch=None),
    )


def static_batched(batch: int = 4, m: int = 200, n: int = 136, k: int = 112, *, pad: int = 0,
                   b_batch: int | None = None) -> KernelInfo:
    """The same with every size compiled in: A batch x m x k row-major, B column-major with
    a batch of `b_batch` (default: batch; 1: the same matrix for every batch), D batch x m
    x n row-major with `pad` elements between its matrices."""
    b_batch = batch if b_batch is None else b_batch
    a = ArgInfo("p_A", (batch, m, k), (m * k, k, 1), "bf16", False)
    b = ArgInfo("p_B", (b_batch, k, n), (k * n, 1, k), "bf16", False)
    d = ArgInfo("p_D", (batch, m, n), (m * n + pad, n, 1), "bf16", True)
    maps = (
        TensorMap("tmap_0", 0, "bf16", (64, 128, 1), "128b", 3, (k, m, batch), (2 * k, 2 * m * k)),
        TensorMap("tmap_1", 1, "bf16", (64, 256, 1), "128b", 3, (k, n, b_batch), (2 * k, 2 * k * n)),
    )
    tiles = (-(-n // CONFIG.bn), -(-m // CONFIG.bm), batch)
    return KernelInfo(
        name="bgemm_static", target="sm_90a", threads=384, smem_bytes=196672, args=(a, b, d), tensor_maps=maps,
        grid=tiles, size_params=(), gemm=GemmInfo(0, 1, 2, None, m, n, k, "f32", CONFIG, batched=True, batch=batch),
    )
