"""The GEMM sweep: whole pipelined GEMM kernels (tc.matmul) on the GPU, every one
checked against float64 numpy (lowering/runtime/gemm_check.py: all outputs up to 1024^3,
else at least 4096 sampled outputs plus whole edge rows and columns; D fully written,
nothing written outside it).

    python bench/gemm_sweep.py --list                    # the configurations, no GPU
    python bench/gemm_sweep.py --out gemm_sweep.tsv      # run them (needs an H100)
    python bench/gemm_sweep.py --subset ci --assemble-only   # what CI assembles (no GPU)
    python bench/gemm_sweep.py --summarize docs/results/gemm_sweep.tsv

Axes: operand types (bf16, f16 with f32 and f16 accumulators, e4m3, e5m2, tf32, s8) x the
four transposes where wgmma allows MN-major tiles (16-bit types) x shapes from 64^3 to
8192^3 (ragged ones, M or N below one tile, K below BK) x tile configurations (the
chooser's and three fixed ones, 2 to 5 stages) x D's type and an optional C.

Batched GEMMs (`batched_cases`, after the rest so that the other rows keep their names and
order): D[i] = A[i] x B[i] (+ C[i]) at ragged sizes, every operand type, the transposes,
the schedules (pipelined and warp-specialised with the batch as grid z, persistent with
the batch in the tile walk, the register and TMA-store epilogues), B one matrix for every
batch (2-d, or a batch of 1), sizes known at launch, C, and padding between matrices
(checked untouched like the padding between rows).

Split-K GEMMs (`split_k_cases`, after the batched ones; `--match split_k`; through global
memory `--match reduceglobal`): S CTAs of a
cluster per tile at ragged shapes and long K, every type, the schedules, C, sizes known at
launch (ranks with an empty K slice), batches, and the shapes split-K is for. The last
wave's tiles split after whole ones (`unsplit_cases`, last; `--match unsplit`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace

from lower_tc.layout.dtypes import element_type
from lower_tc.layout.gemm_choice import swap_config, swap_longer_step
from lower_tc.lowering.api.matmul_program import ELEMENT_BYTES, Matrix, dense_ld, matmul_program
from lower_tc.lowering.runtime.sizes import BatchShape

BYTES = ELEMENT_BYTES
#: (A type, B type, accumulator, D type)
TYPES = [
    ("bf16", "bf16", "f32", "bf16"),
    ("bf16", "bf16", "f32", "f32"),
    ("f16", "f16", "f32", "f16"),
    ("f16", "f16", "f16", "f16"),
    ("e4m3", "e4m3", "f32", "bf16"),
    ("e5m2", "e4m3", "f32", "f32"),
    ("tf32", "tf32", "f32", "f32"),
    ("s8", "s8", "s32", "s32"),
]
SHAPES = [
    (64, 64, 64), (128, 256, 64), (1000, 1000, 1000), (50, 300, 200), (300, 40, 520),
    (256, 256, 40), (129, 65, 33), (2048, 2048, 2048), (4097, 4095, 4099),
]
BIG_SHAPES = [(8192, 8192, 8192), (8192, 8192, 1024)]
#: The op's options besides the defaults (warp-specialised, raster 8 where sizes are static).
OPTIONS = [
    'schedule = "pipelined", raster = 0',
    'schedule = "pipelined", raster = 8',
    'schedule = "warp_specialized", raster = 0',
    'schedule = "warp_specialized", raster = 3, l2_promotion = 256',
    "persistent = true",
    'epilogue = "registers"',
    'epilogue = "registers", persistent = true',
    "mma_depth = 2",
    'mma_depth = 3, persistent = false, epilogue = "registers"',
]
#: Clusters of 2 (B multicast) with the other options they combine with.
CLUSTER_OPTIONS = [
    "cluster = 2",
    "cluster = 2, persistent = false",
    "cluster = 2, mma_depth = 2",
    'cluster = 2, epilogue = "registers"',
]
#: Options that ask for the TMA-store epilogue: only where D allows it (16 bits, rows
#: 16-byte aligned); elsewhere asking for it is an error.
TMA_OPTIONS = [
    'epilogue = "tma", schedule = "pipelined", raster = 0',
    'epilogue = "tma", persistent = true',
]
#: (bm, bn, bk in bytes of K, stages); None: the chooser's
CONFIGS = [None, (128, 256, 128, 3), (64, 128, 128, 5), (128, 64, 64, 2)]


@dataclass(frozen=True)
class GemmCase:
    a: str
    b: str
    acc: str
    d: str
    m: int
    n: int
    k: int
    a_row: bool  # A row-major (K-major tiles)
    b_row: bool  # B row-major (MN-major tiles)
    config: tuple[int, int, int, int] | None
    with_c: bool = False
    target: str = "sm_90a"
    dynamic: bool = False  # sizes known only at launch (memref<?x?x...>), given to the runner
    options: str = ""  # the op's schedule and raster, e.g. 'schedule = "warp_specialized", raster = 8'
    batch: int = 0  # 0: one GEMM; else D (A, B and C too) is a batch of this many matrices
    broadcast_b: str = ""  # B the same for every batch: "2d" (a matrix), "batch1" (1 x K x N); "": a batch
    pad: int = 0  # elements between A's, D's and C's matrices beyond the dense extent (a batch's padding)

    def _lines_ld(self, rows: int, cols: int, dtype: str, row_major: bool) -> tuple[int, int]:
        """A matrix's lines and (dense) leading dimension, as Matrix writes them."""
        extent, lines = (cols, rows) if row_major else (rows, cols)
        return lines, dense_ld(extent, dtype)

    def _batch_stride(self, rows: int, cols: int, dtype: str, row_major: bool, padded: bool) -> int:
        lines, ld = self._lines_ld(rows, cols, dtype, row_major)
        return lines * ld + (self.pad if padded else 0)

    def _operands(self) -> dict[str, tuple[int, int, str, bool, bool, bool]]:
        """Per argument: rows, cols, type, row-major, batched, padded."""
        batched = self.batch > 0
        out = {
            "A": (self.m, self.k, self.a, self.a_row, batched, True),
            "B": (self.k, self.n, self.b, self.b_row, batched and self.broadcast_b != "2d", False),
            "D": (self.m, self.n, self.d, True, batched, True),
        }
        if self.with_c:
            out["C"] = out["D"]
        return out

    def shapes(self) -> dict[str, tuple[int, int, int | None] | BatchShape] | None:
        """The --shape values of a dynamic case (leading dimensions and batch strides as in
        source())."""
        if not self.dynamic:
            return None
        given: dict[str, tuple[int, int, int | None] | BatchShape] = {}
        for name, (rows, cols, dtype, row_major, batched, padded) in self._operands().items():
            _, ld = self._lines_ld(rows, cols, dtype, row_major)
            if batched:
                stride = self._batch_stride(rows, cols, dtype, row_major, padded)
                given[name] = BatchShape(self.batch, rows, cols, ld, stride)
            else:
                given[name] = (rows, cols, ld)
        return given

    @property
    def name(self) -> str:
        t = ("N" if self.a_row else "T") + ("N" if self.b_row else "T")
        cfg = "auto" if self.config is None else "x".join(map(str, self.config))
        arch = "" if self.target == "sm_90a" else f"{self.target}_"
        dyn = "_dyn" if self.dynamic else ""
        if self.options:
            dyn += "_" + "".join(ch for ch in self.options.replace("warp_specialized", "ws") if ch.isalnum() or ch == "_")
        batch = ""
        if self.batch:
            batch = f"_batch{self.batch}" + {"": "", "2d": "_bcastB", "batch1": "_bcastB1"}[self.broadcast_b]
            batch += f"_pad{self.pad}" if self.pad else ""
        return f"{arch}{self.a}x{self.b}_{self.acc}_{self.d}_{t}_{self.m}x{self.n}x{self.k}_{cfg}{dyn}" + ("_C" if self.with_c else "") + batch

    def source(self) -> str:
        def mat(rows: int, cols: int, dtype: str, row_major: bool, batched: bool, padded: bool) -> Matrix:
            if self.dynamic:
                return Matrix(None, None, dtype, row_major, batched=batched)
            if not batched:
                return Matrix(rows, cols, dtype, row_major)
            return Matrix(rows, cols, dtype, row_major, batched=True, batch=self.batch,
                          batch_stride=self._batch_stride(rows, cols, dtype, row_major, padded))

        config = None
        if self.config is not None:
            bm, bn, bk_bytes, stages = self.config
            config = (bm, bn, bk_bytes // BYTES[self.a], stages)
        ops = self._operands()
        d = mat(*ops["D"])
        b = mat(*ops["B"])
        if self.broadcast_b == "batch1" and not self.dynamic:  # memref<1xKxN...>: one matrix for every batch
            b = replace(b, batch=1)
        return matmul_program(
            self.name.replace("-", "_"), mat(*ops["A"]), b,
            d, d if self.with_c else None, acc=self.acc, config=config, options=self.options, target=self.target,
        )


#: Batched shapes (batch, M, N, K): ragged, a K below BK, and one past the full check.
BATCH_SHAPES = [(3, 129, 65, 33), (4, 300, 40, 520), (2, 72, 200, 40), (6, 1000, 1000, 1000)]
#: The schedules a batched GEMM is swept with besides the default (persistent where sizes
#: are static): the batch as grid z (pipelined, warp-specialised), in the persistent tile
#: walk, and the register epilogue.
BATCH_OPTIONS = [
    'schedule = "pipelined", raster = 0',
    'schedule = "warp_specialized", raster = 0',
    'schedule = "warp_specialized", raster = 3',
    "persistent = true",
    'epilogue = "registers"',
]


def batched_cases() -> list[GemmCase]:
    """The batched GEMM: every type at every batched shape (A row-major, B column-major:
    K-major tiles, which every type takes), the other transposes (bf16), every schedule
    (bf16, f16 with an f16 accumulator, e4m3, s8), B the same for every batch (2-d, or a
    batch of 1), sizes known at launch, C, padding between the matrices, a batch of 300."""
    out: list[GemmCase] = []
    for a, b, acc, d in TYPES:
        for batch, *shape in BATCH_SHAPES:
            out.append(GemmCase(a, b, acc, d, *shape, True, False, None, batch=batch))
    for a_row, b_row in [(True, True), (False, False), (False, True)]:
        for batch, *shape in BATCH_SHAPES[:2]:
            out.append(GemmCase("bf16", "bf16", "f32", "bf16", *shape, a_row, b_row, None, batch=batch))
    for a, b, acc, d in (TYPES[0], TYPES[3], TYPES[4], TYPES[7]):
        for batch, *shape in BATCH_SHAPES[:2]:
            for options in BATCH_OPTIONS:
                out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, batch=batch, options=options))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 40, 520, True, True, None, batch=4,
                        options='epilogue = "tma", persistent = true'))
    for a, b, acc, d in TYPES:  # B one matrix for every batch
        out.append(GemmCase(a, b, acc, d, 300, 40, 520, True, False, None, batch=4, broadcast_b="2d"))
    for options in ("", *BATCH_OPTIONS[:2], "persistent = true"):
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 129, 65, 33, True, True, None, batch=3, broadcast_b="batch1", options=options))
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 129, 65, 33, False, False, None, batch=3, broadcast_b="2d", options=options))
    for a, b, acc, d in (TYPES[0], TYPES[4]):  # sizes known at launch
        for batch, *shape in (BATCH_SHAPES[0], BATCH_SHAPES[1], BATCH_SHAPES[3]):
            out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, batch=batch, dynamic=True))
        out.append(GemmCase(a, b, acc, d, 300, 40, 520, True, False, None, batch=4, dynamic=True, broadcast_b="2d"))
        out.append(GemmCase(a, b, acc, d, 129, 65, 33, True, False, None, batch=3, dynamic=True, pad=64, with_c=True))
    for a, b, acc, d in TYPES:  # C
        out.append(GemmCase(a, b, acc, d, 72, 200, 40, True, False, None, batch=2, with_c=True))
    for a, b, acc, d in (TYPES[0], TYPES[4], TYPES[7]):  # padding between the matrices
        for options in ("", 'schedule = "pipelined", raster = 0', 'epilogue = "registers"'):
            out.append(GemmCase(a, b, acc, d, 129, 65, 33, True, False, None, batch=3, pad=64, options=options))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 64, 64, 64, True, False, None, batch=300))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 64, 64, 64, True, False, None, batch=300,
                        options='schedule = "pipelined", raster = 0'))
    return out


#: Split-K (sm_90a): ragged shapes, long K among them, and the decode and few-tile shapes
#: it is for (issue 22).
SPLIT_K_SHAPES = [(129, 65, 4099), (300, 520, 20000), (1000, 1000, 1000), (72, 200, 3000)]
#: split_k with the schedules and options it combines with (an S that does not divide BM:
#: 3, 5, 7; the pipelined schedule; row order; mma_depth).
SPLIT_K_OPTIONS = [
    "split_k = 2",
    'split_k = 3, schedule = "pipelined"',
    "split_k = 4",
    "split_k = 5, raster = 0",
    'split_k = 7, schedule = "pipelined", raster = 0',
    "split_k = 8, mma_depth = 2",
]


def split_k_cases() -> list[GemmCase]:
    """Split-K: every type at S = 2, 4, 8 (ragged, K not a multiple of BK), the bf16
    transposes, every option above on four types and shapes, fixed configurations (a
    128x256 partial tile larger than the ring, 64-row tiles, 256 rows in the pipelined
    schedule), C, sizes known at launch (K = 40: one K tile for four CTAs, three of them
    with an empty slice), batches (grid z and the grouped order), and the shapes it is for:
    512 x 512 x 65536, M = 16 decode, 128 x 1536 x 7168."""
    out: list[GemmCase] = []
    for a, b, acc, d in TYPES:
        for s in (2, 4, 8):
            out.append(GemmCase(a, b, acc, d, 200, 136, 2050, True, False, None, options=f"split_k = {s}"))
    for a_row, b_row in [(True, False), (False, False), (False, True)]:
        for shape in SPLIT_K_SHAPES[:2]:
            out.append(GemmCase("bf16", "bf16", "f32", "bf16", *shape, a_row, b_row, None, options="split_k = 4"))
    for a, b, acc, d in (TYPES[0], TYPES[3], TYPES[4], TYPES[7]):
        for shape in SPLIT_K_SHAPES:
            for options in SPLIT_K_OPTIONS:
                out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, options=options))
    for config, options in (((128, 256, 128, 2), "split_k = 2"), ((64, 128, 128, 4), "split_k = 4"),
                            ((256, 128, 128, 3), 'split_k = 3, schedule = "pipelined"'), ((64, 64, 64, 3), "split_k = 6")):
        for a, b, acc, d in (TYPES[0], TYPES[4]):
            out.append(GemmCase(a, b, acc, d, 300, 520, 5000, True, False, config, options=options))
    for a, b, acc, d in TYPES:  # C
        out.append(GemmCase(a, b, acc, d, 300, 200, 3000, True, False, None, with_c=True, options="split_k = 4"))
    for a, b, acc, d in (TYPES[0], TYPES[4], TYPES[7]):  # sizes known at launch
        for shape in [(129, 65, 4099), (300, 520, 40), (1000, 1000, 1000)]:
            for options in ("split_k = 4", 'split_k = 3, schedule = "pipelined"'):
                out.append(GemmCase(a, b, acc, d, *shape, True, False, None, dynamic=True, options=options))
        out.append(GemmCase(a, b, acc, d, 300, 200, 3000, True, False, None, dynamic=True, with_c=True, options="split_k = 8"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):  # batches
        for options in ("split_k = 4", "split_k = 4, raster = 0", 'split_k = 2, schedule = "pipelined", raster = 0'):
            out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, None, batch=3, options=options))
        out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, None, batch=3, dynamic=True, with_c=True, options="split_k = 4"))
        out.append(GemmCase(a, b, acc, d, 300, 40, 3000, True, False, None, batch=2, broadcast_b="2d", pad=64, options="split_k = 8"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):  # the shapes split-K is for
        out.append(GemmCase(a, b, acc, d, 512, 512, 65536, True, a == "bf16", (128, 128, 128, 4), options="split_k = 8"))
        out.append(GemmCase(a, b, acc, d, 16, 4096, 4096, True, False, (64, 128, 128, 4), options="split_k = 4"))
        out.append(GemmCase(a, b, acc, d, 128, 1536, 7168, True, False, (128, 128, 128, 4), options="split_k = 4"))
    return out + split_k_global_cases() + split_k_default_cases()


#: Split-K through global memory: `reduce = "global"` after the split.
GLOBAL = ', reduce = "global"'


def split_k_global_cases() -> list[GemmCase]:
    """Split-K through global memory (`reduce = "global"`): every type but the f16
    accumulator's at S = 2, 5, 16 (ragged, K not a multiple of BK), the bf16 transposes,
    the options above and S = 12 and 32 on four types and shapes, fixed configurations, C,
    sizes known at launch (K = 40: one K tile for four CTAs), batches, and the shapes it is
    for, among them grids of more CTAs than the GPU runs at once."""
    out: list[GemmCase] = []
    kinds = [t for t in TYPES if t[2] != "f16"]
    for a, b, acc, d in kinds:
        for s in (2, 5, 16):
            out.append(GemmCase(a, b, acc, d, 200, 136, 2050, True, False, None, options=f"split_k = {s}{GLOBAL}"))
    for a_row, b_row in [(True, False), (False, False), (False, True)]:
        for shape in SPLIT_K_SHAPES[:2]:
            out.append(GemmCase("bf16", "bf16", "f32", "bf16", *shape, a_row, b_row, None, options=f"split_k = 4{GLOBAL}"))
    for a, b, acc, d in (TYPES[0], TYPES[1], TYPES[4], TYPES[7]):
        for shape in SPLIT_K_SHAPES:
            for options in SPLIT_K_OPTIONS[1:] + ["split_k = 12", "split_k = 32"]:
                split = int(options.split(",")[0].split("=")[1])
                if -(-shape[2] // (1024 // element_type(a).bits)) < split:  # fewer K tiles than CTAs: refused
                    continue
                out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, options=options + GLOBAL))
    for config, options in (((128, 256, 128, 3), "split_k = 2"), ((64, 128, 128, 4), "split_k = 4"),
                            ((256, 128, 128, 3), 'split_k = 3, schedule = "pipelined"'), ((64, 64, 64, 3), "split_k = 6")):
        for a, b, acc, d in (TYPES[0], TYPES[4]):
            out.append(GemmCase(a, b, acc, d, 300, 520, 5000, True, False, config, options=options + GLOBAL))
    for a, b, acc, d in kinds:  # C
        out.append(GemmCase(a, b, acc, d, 300, 200, 3000, True, False, None, with_c=True, options=f"split_k = 4{GLOBAL}"))
    for a, b, acc, d in (TYPES[0], TYPES[4], TYPES[7]):  # sizes known at launch
        for shape in [(129, 65, 4099), (300, 520, 40), (1000, 1000, 1000)]:
            for options in ("split_k = 4", 'split_k = 3, schedule = "pipelined"', "split_k = 24"):
                out.append(GemmCase(a, b, acc, d, *shape, True, False, None, dynamic=True, options=options + GLOBAL))
        out.append(GemmCase(a, b, acc, d, 300, 200, 3000, True, False, None, dynamic=True, with_c=True, options=f"split_k = 8{GLOBAL}"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):  # batches
        for options in ("split_k = 4", "split_k = 4, raster = 0", 'split_k = 2, schedule = "pipelined", raster = 0'):
            out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, None, batch=3, options=options + GLOBAL))
        out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, None, batch=3, dynamic=True, with_c=True, options=f"split_k = 12{GLOBAL}"))
        out.append(GemmCase(a, b, acc, d, 300, 40, 3000, True, False, None, batch=2, broadcast_b="2d", pad=64, options=f"split_k = 8{GLOBAL}"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):  # the shapes it is for
        out.append(GemmCase(a, b, acc, d, 512, 512, 65536, True, a == "bf16", (128, 128, 128, 4), options=f"split_k = 8{GLOBAL}"))
        out.append(GemmCase(a, b, acc, d, 512, 512, 65536, True, False, (64, 64, 128, 8), options=f"split_k = 8{GLOBAL}"))  # 512 CTAs
        out.append(GemmCase(a, b, acc, d, 1024, 1024, 32768, True, False, (128, 256, 128, 3), options=f"split_k = 4{GLOBAL}"))
        out.append(GemmCase(a, b, acc, d, 16, 4096, 4096, True, False, (64, 64, 128, 8), options=f"split_k = 2{GLOBAL}"))
        out.append(GemmCase(a, b, acc, d, 128, 1536, 7168, True, False, (128, 128, 128, 4), options=f"split_k = 11{GLOBAL}"))
    return out


def paired_split_cases() -> list[GemmCase]:
    """Split-K through global memory in clusters of 2 sharing B (`split_k = S, reduce =
    "global", cluster = 2`: one rank's CTAs of two tiles a pair, walk.py): every type but
    the f16 accumulator's at S = 2, 5, 16 (ragged M, N and K), B both ways for 16 bits, A
    column-major, C, an f32 D, the register epilogue, a raster of 2, and the long-K shapes it
    is for in 4 to 6 stages."""
    out: list[GemmCase] = []
    pair = f"{GLOBAL}, cluster = 2"
    for a, b, acc, d in (t for t in TYPES if t[2] != "f16"):
        for s in (2, 5, 16):
            out.append(GemmCase(a, b, acc, d, 200, 136, 2050, True, False, (64, 64, 128, 6), options=f"split_k = {s}{pair}"))
    for a_row, b_row in [(True, True), (False, False), (False, True)]:
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 500, 520, 5001, a_row, b_row, (128, 128, 128, 4), options=f"split_k = 3{pair}"))
    for a, b, acc, d in (TYPES[0], TYPES[4], TYPES[7]):
        out.append(GemmCase(a, b, acc, d, 500, 520, 5001, True, False, (128, 128, 128, 4), with_c=True, options=f"split_k = 4{pair}"))
        out.append(GemmCase(a, b, acc, d, 500, 520, 5001, True, False, (128, 128, 128, 4), options=f'split_k = 4{pair}, epilogue = "registers"'))
        out.append(GemmCase(a, b, acc, d, 500, 520, 5001, True, False, (128, 128, 128, 4), options=f"split_k = 4{pair}, raster = 2"))
    out.append(GemmCase("bf16", "bf16", "f32", "f32", 500, 520, 5001, True, True, (128, 128, 128, 4), options=f"split_k = 4{pair}"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):
        for stages in (4, 5, 6):
            out.append(GemmCase(a, b, acc, d, 512, 512, 65536, True, a == "bf16", (128, 128, 128, stages), options=f"split_k = 8{pair}"))
        out.append(GemmCase(a, b, acc, d, 256, 1024, 131072, True, False, (128, 128, 128, 6), options=f"split_k = 8{pair}"))
    return out


def one_wave_cases() -> list[GemmCase]:
    """Defaults that one wave of unsplit 64 x 128 rings of 8 stages computes (layout/gemm_model.py
    ONE_WAVE_EFFICIENCY): 1024 x 1024 x 32768 in bf16 (B both ways) and e4m3 (both
    accumulations), and a ragged one-wave shape with C."""
    out = [GemmCase("bf16", "bf16", "f32", "bf16", 1024, 1024, 32768, True, b_row, None) for b_row in (False, True)]
    out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 1024, 1024, 32768, True, False, None))
    out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 1024, 1024, 32768, True, False, None, options='accumulation = "promoted"'))
    out.append(GemmCase("bf16", "bf16", "f32", "f32", 1000, 1000, 30001, True, False, (64, 128, 128, 8), with_c=True))
    return out


#: Shapes whose default kernel (no configuration, no options) is split over K by the cost
#: model (layout/gemm_choice.py `choose`): ragged few-tile long K, decode, M = 300.
SPLIT_K_DEFAULT_SHAPES = [(129, 65, 40000), (33, 1000, 9000)]


def split_k_default_cases() -> list[GemmCase]:
    """The default kernel where the chooser splits K: every type at two ragged shapes, the
    bf16 transposes and C, and the long-K and decode shapes of the suite (B as a weight).
    tests/test_split_k.py checks that each of them compiles split."""
    out = [GemmCase(a, b, acc, d, *shape, True, False, None) for a, b, acc, d in TYPES for shape in SPLIT_K_DEFAULT_SHAPES]
    for a_row, b_row in [(False, True), (False, False)]:
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 520, 20000, a_row, b_row, None))
    out.append(GemmCase("bf16", "bf16", "f32", "f32", 300, 520, 20000, True, False, None, with_c=True))
    for (a, b, acc, d), k in ((TYPES[0], 11008), (TYPES[4], 28672)):
        out.append(GemmCase(a, b, acc, d, 512, 512, 65536, True, False, None))
        # a decoding shape, unswapped (by default it is swapped: swap_ab_cases); e4m3's
        # 64-row tiles stream 11008 of K unsplit (layout/gemm_model.py step_s)
        out.append(GemmCase(a, b, acc, d, 1, 4096, k, True, False, None, options="swap_ab = false"))
    return out


#: Swapped GEMMs' (M, N, K): M from 1 to 64, N and K ragged (not multiples of the tiles).
SWAP_SHAPES = [(1, 1000, 520), (7, 2056, 4099), (16, 1032, 1000), (33, 1000, 2056), (64, 1544, 520)]
SWAP = "swap_ab = true"


def swap_ab_cases() -> list[GemmCase]:
    """D^T = B^T A^T (swap-AB, passes/expand_matmul/swap_ab.py): every type at ragged
    decoding shapes, B as a weight (column-major) and, for 16-bit types, row-major (the
    swapped A MN-major); C; K split over a cluster and through global memory; the default
    (swapped by the chooser) at the suite's decoding shapes; fp8's promoted accumulation."""
    out = [GemmCase(a, b, acc, d, *shape, True, False, None, options=SWAP) for a, b, acc, d in TYPES for shape in SWAP_SHAPES]
    for a, b, acc, d in TYPES[:4]:
        out += [GemmCase(a, b, acc, d, *shape, True, True, None, options=SWAP) for shape in SWAP_SHAPES[1::2]]
    for a, b, acc, d in (TYPES[0], TYPES[4]):
        out.append(GemmCase(a, b, acc, d, 24, 2056, 3000, True, False, None, with_c=True, options=SWAP))
        out.append(GemmCase(a, b, acc, d, 24, 2056, 3000, True, False, None, options=SWAP + ", split_k = 2"))
        out.append(GemmCase(a, b, acc, d, 5, 1032, 9000, True, False, None, with_c=True, options=SWAP + ", split_k = 4" + GLOBAL))
        for m, n, k in ((1, 6144, 4096), (16, 10240, 8192), (32, 5120, 13824), (64, 4096, 14336), (77, 4096, 4096)):
            out.append(GemmCase(a, b, acc, d, m, n, k, True, False, None))
    for a, b, acc, d in (TYPES[0], TYPES[4], TYPES[6], TYPES[7]):  # the tuner's swapped tiles in K steps twice as long
        for m, n, k in ((16, 10240, 8192), (40, 4100, 3000), (5, 9000, 2056)):
            c = swap_longer_step(swap_config(m, n, b, a, acc, k=k), b, a, acc)
            if c is not None:
                out.append(GemmCase(a, b, acc, d, m, n, k, True, False, (c.bm, c.bn, c.bk, c.stages), options=SWAP))
    for shape in SWAP_SHAPES[::2]:  # fp8's promoted accumulation, swapped
        out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", *shape, True, False, None, options=SWAP + ", " + PROMOTED))
    out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 16, 6144, 4096, True, False, None, options=PROMOTED, with_c=True))
    return out + swap_tma_cases()


#: Swapped tiles (BM over N, BN over M) whose D^T the TMA-store epilogue stores in
#: transposed pieces (stmatrix.trans): every piece height (64, 32, 16 rows of D).
SWAP_TMA_TILES = [(128, 144), (128, 176), (128, 224), (128, 256), (128, 96), (64, 48), (128, 112), (128, 240), (128, 160),
                  (128, 208), (64, 64), (128, 16), (128, 128)]


def swap_tma_cases() -> list[GemmCase]:
    """Swapped GEMMs with the transposed TMA-store epilogue: every 16-bit-D type at shapes
    ragged in M (the last tile's pieces clipped or not stored) and K, B as a weight and
    row-major (16-bit: the swapped A MN-major); persistent and not, the pipelined
    schedule, the register epilogue asked for, C and an f32 D (the register epilogue),
    A column-major."""
    out: list[GemmCase] = []
    for i, (bm, bn) in enumerate(SWAP_TMA_TILES):
        for a, b, acc, d in (TYPES[0], TYPES[2], TYPES[3], TYPES[4]):
            for b_row in ((False, True) if a in ("bf16", "f16") else (False,)):
                shape = ((1000, 1032, 520), (4097, 1000, 520), (300, 2056, 1000))[(i + len(out)) % 3]
                out.append(GemmCase(a, b, acc, d, *shape, True, b_row, (bm, bn, 128, 4), options=SWAP))
    cfg = (128, 144, 128, 4)
    for options in ("persistent = false", "persistent = true", 'schedule = "pipelined", raster = 0', 'epilogue = "registers"',
                    'epilogue = "tma"', "split_k = 2"):
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1032, 1000, True, True, cfg, options=f"{SWAP}, {options}"))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1032, 1000, True, False, cfg, with_c=True, options=SWAP))
    out.append(GemmCase("bf16", "bf16", "f32", "f32", 1000, 1032, 1000, True, True, cfg, options=SWAP))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1032, 1000, False, True, cfg, options=SWAP))
    out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 1000, 1032, 1000, True, False, cfg, options=f"{SWAP}, {PROMOTED}"))
    return out


def multicast_default_cases() -> list[GemmCase]:
    """The default's cluster of 2 for a row-major B whose rows are not whole L2 lines
    (layout/gemm_choice.py `prefer_multicast`): the 16-bit types (both D types, the f16
    accumulator), A both ways, C, ragged M, N and K (N of 5000 and 4040: 10000- and 8080-byte
    rows, 16 past a line), and `cluster = 1` beside it (the unpaired kernel at the same shape)."""
    out: list[GemmCase] = []
    for a, b, acc, d in TYPES[:4]:
        for m, n, k in ((3000, 5000, 4000), (2304, 4040, 520)):
            out.append(GemmCase(a, b, acc, d, m, n, k, True, True, None))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 2304, 4040, 520, False, True, None, with_c=True))
    out.append(GemmCase("f16", "f16", "f32", "f16", 3000, 5000, 1000, True, True, None, options="persistent = false"))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 3000, 5000, 4000, True, True, None, options="cluster = 1"))
    return out


def stream_k_cases() -> list[GemmCase]:
    """Stream-K (`stream_k = 1`, layout/stream_k.py) on 132 SMs: every type but the f16
    accumulator's at 300 x 520 x 2050 in 64 x 128 tiles (25 tiles, five or six CTAs to a
    tile); the bf16 transposes; the default tiles where the CTAs share one to two waves'
    tiles (2049^3: 153 tiles), where whole waves come first (4097 x 4095 x 520 in 64 x 128
    tiles: 14 data-parallel waves, then 232 tiles shared), where every CTA takes one whole
    tile (4097 x 4095 x 4099: 528 tiles, four waves) and where most CTAs have nothing (129
    x 65 x 33: one K step); K of one step over 128 tiles; the register epilogue, C, an
    f32 D, fp8's promoted accumulation, a batch, and the suite's shapes stream-K is for;
    then groups of CTAs (`stream_k = G`): G tile rows, and G dividing the tiles otherwise."""
    out: list[GemmCase] = []
    small = (64, 128, 128, 4)
    sk = "stream_k = 1"
    for a, b, acc, d in [t for t in TYPES if t[2] != "f16"]:
        out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, False, small, options=sk))
    for a_row, b_row in [(True, True), (False, False), (False, True)]:
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 520, 2050, a_row, b_row, small, options=sk))
    for a, b, acc, d in (TYPES[0], TYPES[4]):
        b_row = a == "bf16"
        for shape in ((2049, 2049, 2049), (4097, 4095, 4099), (129, 65, 33)):
            out.append(GemmCase(a, b, acc, d, *shape, True, b_row, None, options=sk))
        out.append(GemmCase(a, b, acc, d, 4097, 4095, 520, True, b_row, small, options=sk))
        out.append(GemmCase(a, b, acc, d, 1000, 1000, 40 if a == "bf16" else 80, True, b_row, small, options=sk))
        out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, b_row, small, options=sk + ', epilogue = "registers"'))
        out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, b_row, small, with_c=True, options=sk))
        out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, b_row, small, batch=3, options=sk))
    out.append(GemmCase("bf16", "bf16", "f32", "f32", 300, 520, 2050, True, False, small, options=sk))
    out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 300, 520, 2050, True, False, small, options=sk + ", " + PROMOTED))
    for m, n, k in ((128, 1536, 7168), (256, 7168, 16384), (1536, 1536, 1536), (2048, 7168, 2048)):
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", m, n, k, True, False, None, options=sk))
    # groups: every Gth tile to a group of CTAs (G tile rows, or any G dividing the tiles)
    for a, b, acc, d in (TYPES[0], TYPES[4], TYPES[7]):
        out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, False, small, options="stream_k = 5"))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 520, 2050, True, True, small, with_c=True, options="stream_k = 5"))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 4097, 4095, 520, True, True, small, options="stream_k = 8"))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 2049, 2049, 2049, True, True, (128, 192, 128, 4), options="stream_k = 11"))  # 187 tiles
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 129, 65, 4099, True, False, small, batch=3, options="stream_k = 3"))
    for m, n, k, g in ((256, 7168, 16384, 2), (1024, 11008, 4096, 8), (512, 10240, 8192, 4)):
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", m, n, k, True, False, None, options=f"stream_k = {g}"))
    return out


def multicast_kmajor_cases() -> list[GemmCase]:
    """Clusters of 2 sharing a K-major B (`cluster = 2` with nn.Linear's weight, or any
    8-bit B): each CTA of the pair loads half of B's tile (its box cut along the rows,
    layout/tma.py) and multicasts it. The types whose B can be K-major with a cluster (bf16,
    f16 both accumulators, e4m3, e5m2 x e4m3, s8, tf32), ragged shapes with an even number
    of tile rows, persistent and not, mma_depth 2, the register epilogue, C, fp8's promoted
    accumulation."""
    out: list[GemmCase] = []
    for a, b, acc, d in TYPES:
        for shape in ((1000, 1000, 1000), (2048, 1920, 520), (256, 512, 128)):
            out.append(GemmCase(a, b, acc, d, *shape, True, False, None, options="cluster = 2"))
    for options in ("cluster = 2, persistent = false", "cluster = 2, mma_depth = 2", 'cluster = 2, epilogue = "registers"'):
        for a, b, acc, d in (TYPES[0], TYPES[4]):
            out.append(GemmCase(a, b, acc, d, 2048, 1920, 520, True, False, None, options=options))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, False, False, None, with_c=True, options="cluster = 2"))
    out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 1000, 1000, 1000, True, False, None, options="cluster = 2, " + PROMOTED))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 256, 7168, 16384, True, False, None, options="cluster = 2"))
    return out


def unsplit_cases() -> list[GemmCase]:
    """The last wave's tiles split after whole ones (`unsplit = F` with `reduce =
    "global"`): every type but the f16 accumulator's with the first tile, most tiles or
    all but one unsplit (ragged M, N and K), the bf16 transposes, both schedules, both
    epilogues, C, an f32 D, K of few tiles, a batch in the tile walk, and the shapes the
    chooser splits so (fixed and by default)."""
    out: list[GemmCase] = []
    small = (64, 128, 128, 4)  # 5 x 5 = 25 tiles of 300 x 520
    for a, b, acc, d in [t for t in TYPES if t[2] != "f16"]:
        for s, f in ((3, 20), (5, 1), (2, 24)):
            out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, False, small, options=f"split_k = {s}{GLOBAL}, unsplit = {f}"))
    for a_row, b_row in [(True, True), (False, False), (False, True)]:
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 520, 2050, a_row, b_row, small, options=f"split_k = 4{GLOBAL}, unsplit = 13"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):
        for options in ('schedule = "pipelined"', 'epilogue = "registers"', 'schedule = "pipelined", epilogue = "registers"'):
            out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, False, small, options=f"split_k = 3{GLOBAL}, unsplit = 10, {options}"))
        out.append(GemmCase(a, b, acc, d, 300, 520, 2050, True, False, small, with_c=True, options=f"split_k = 3{GLOBAL}, unsplit = 10"))
        out.append(GemmCase(a, b, acc, d, 300, 520, 200 if a == "bf16" else 400, True, False, small, options=f"split_k = 4{GLOBAL}, unsplit = 7"))
        out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, small, batch=3, options=f"split_k = 4{GLOBAL}, unsplit = 2"))
    out.append(GemmCase("bf16", "bf16", "f32", "f32", 300, 520, 2050, True, False, small, options=f"split_k = 3{GLOBAL}, unsplit = 10"))
    for a, b, acc, d in (TYPES[0], TYPES[4]):  # the shapes it is for
        out.append(GemmCase(a, b, acc, d, 512, 10240, 8192, True, False, (128, 256, 128, 4), options=f"split_k = 4{GLOBAL}, unsplit = 132"))
        out.append(GemmCase(a, b, acc, d, 2048, 5120, 5120, True, False, (128, 256, 128, 4), options=f"split_k = 2{GLOBAL}, unsplit = 264"))
        out.append(GemmCase(a, b, acc, d, 5120, 5120, 5120, True, False, (128, 256, 128, 4), options=f"split_k = 16{GLOBAL}, unsplit = 792"))
    for a_row, b_row in [(True, False), (True, True)]:  # the default kernel where the chooser splits so
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 512, 10240, 8192, a_row, b_row, None))
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 2048, 5120, 5120, a_row, b_row, None))
    return out


#: The tile widths between the powers of two (BN a multiple of 16, not of 64): D's last
#: columns staged in pieces of 32 and 16 (layout/epilogue.py `piece_widths`), and with B
#: row-major its tile in boxes of 64- or 32-byte swizzle.
WIDE_BNS = (80, 96, 112, 144, 160, 176, 208, 224, 240)


def wide_tile_cases() -> list[GemmCase]:
    """Tiles 128 x BN for BN of WIDE_BNS: every type with a 16-bit D (the TMA-store
    epilogue's narrow pieces) at shapes ragged in M and K with N a whole number of 16-byte
    chunks (4088, 1000, 520: the last tile's narrow pieces clipped or not stored), B as
    nn.Linear's weight (K-major) and row-major (16-bit: MN-major boxes of 32- or 64-byte
    swizzle); the other D types (register epilogue); persistent and not, the pipelined
    schedule, a cluster of 2, split-K through global memory and a cluster, stream-K, C, a
    batch, fp8's promoted accumulation, sizes known at launch."""
    out: list[GemmCase] = []
    for i, bn in enumerate(WIDE_BNS):
        for a, b, acc, d in (TYPES[0], TYPES[2], TYPES[3], TYPES[4]):
            b_rows = (False, True) if a in ("bf16", "f16") else (False,)
            for b_row in b_rows:
                shape = ((1000, 4088, 1000), (4097, 1000, 520), (300, 520, 2050))[(i + len(out)) % 3]
                out.append(GemmCase(a, b, acc, d, *shape, True, b_row, (128, bn, 128, 4)))
        for a, b, acc, d in (TYPES[1], TYPES[6], TYPES[7]):  # f32/s32 D: the register epilogue
            out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, False, (128, bn, 128, 4)))
    for bn in (144, 176, 224):
        cfg = (128, bn, 128, 4)
        for options in ("persistent = false", 'schedule = "pipelined", raster = 0', "cluster = 2",
                        f"split_k = 3{GLOBAL}", "split_k = 2", "stream_k = 1", 'epilogue = "registers"'):
            out.append(GemmCase("bf16", "bf16", "f32", "bf16", 2048, 4088, 1000, True, False, cfg, options=options))
        if bn <= 192:  # fp8's promoted accumulation holds tiles up to 128 x 192
            out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", 1000, 4088, 1000, True, False, cfg, options=PROMOTED))
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, True, False, cfg, with_c=True))
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 1000, 520, True, True, cfg, batch=3))
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, True, False, cfg, dynamic=True))
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, False, True, cfg, options='epilogue = "tma"'))
    return out


def wide_wgmma_cases() -> list[GemmCase]:
    """Tiles 128 x 320 and 64 x 320: two wgmmas a K-slice (layout/gemm.py `wgmma_parts`: 160
    + 160 with B K-major, 192 + 128 with B row-major's 64-column atoms), every type, B both
    ways (16-bit), ragged M, N and K, the TMA-store epilogue (3 stages) and the register one
    (4 stages, or a 32-bit D); persistent and not, the pipelined schedule, a cluster of 2,
    split-K through global memory and a cluster, stream-K, C, a batch, sizes known at
    launch, A column-major, swapped; llama-3-70b's qkv at M = 512 (one wave of 128 CTAs)."""
    out: list[GemmCase] = []
    for a, b, acc, d in TYPES:
        b_rows = (False, True) if a in ("bf16", "f16") else (False,)
        for b_row in b_rows:
            for shape, stages in (((1000, 4088, 1000), 3), ((300, 650, 2050), 4), ((4097, 1000, 520), 3)):
                out.append(GemmCase(a, b, acc, d, *shape, True, b_row, (128, 320, 128, stages)))
        out.append(GemmCase(a, b, acc, d, 200, 1000, 300, True, False, (64, 320, 128, 4)))
    cfg = (128, 320, 128, 3)
    for options in ("persistent = false", 'schedule = "pipelined", raster = 0', "cluster = 2",
                    f"split_k = 3{GLOBAL}", "split_k = 2", "stream_k = 1", 'epilogue = "registers"'):
        # a pair shares a row-major B's 5 boxes of 64 columns unevenly: refused (docs/gemm.md)
        for b_row in (False, True) if options != "cluster = 2" else (False,):
            out.append(GemmCase("bf16", "bf16", "f32", "bf16", 2048, 4088, 1000, True, b_row, cfg, options=options))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, True, True, cfg, with_c=True))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 300, 1000, 520, True, True, cfg, batch=3))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, True, True, cfg, dynamic=True))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, False, True, cfg, options='epilogue = "tma"'))
    for b_row in (False, True):
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 512, 10240, 8192, True, b_row, cfg))
        # swapped: D^T = B^T A^T in 128 x 320 tiles, stored transposed by the TMA-store epilogue
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1000, 1000, 1000, True, b_row, cfg, options="swap_ab = true"))
        # a global split summed spread over the tile's CTAs (8 tiles x 8 = 64 CTAs): 40 8-column groups, 5 a slice
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", 512, 640, 32768, True, b_row, (128, 320, 128, 4), options=f"split_k = 8{GLOBAL}"))
    out.append(GemmCase("bf16", "bf16", "f32", "bf16", 1024, 640, 131072, True, False, None))  # the default: 128 x 320 split 8, spread
    return out


#: fp8's promoted accumulation (`accumulation = "promoted"`): the operand pairs and D types.
FP8_PROMOTED_TYPES = [("e4m3", "e4m3", "f32", "bf16"), ("e5m2", "e4m3", "f32", "f32")]
PROMOTED = 'accumulation = "promoted"'


def fp8_promoted_cases() -> list[GemmCase]:
    """fp8 with the promoted accumulation: both operand pairs at ragged and long-K shapes
    (the default tile), both schedules, persistent, the tiles at its limit (128 x 192, 64 x
    192) and a deep small one, split-K, C, sizes known at launch and a batch."""
    out: list[GemmCase] = []
    for a, b, acc, d in FP8_PROMOTED_TYPES:
        for shape in [(129, 65, 4099), (300, 520, 2000), (256, 256, 32768)]:
            out.append(GemmCase(a, b, acc, d, *shape, True, False, None, options=PROMOTED))
        for options in (f'{PROMOTED}, schedule = "pipelined"', f'{PROMOTED}, schedule = "warp_specialized", persistent = true',
                        f"{PROMOTED}, split_k = 4"):
            out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, False, None, options=options))
        for config in ((128, 192, 128, 4), (64, 192, 128, 4), (64, 64, 128, 8)):
            out.append(GemmCase(a, b, acc, d, 300, 520, 2000, True, False, config, options=PROMOTED))
        # overlapped promotion's groups of 4 K steps: none whole (1 step), a group and a
        # last group of 2 (K = 768) or of 3 (7 steps, K = 846 ragged), persistent with a last
        # group of 1 (9 steps), in a cluster of 2 sharing B, swapped (decoding)
        for k in (100, 768, 846):
            out.append(GemmCase(a, b, acc, d, 200, 136, k, True, False, (64, 128, 128, 6), options=PROMOTED))
        out.append(GemmCase(a, b, acc, d, 1000, 1000, 1100, True, False, (64, 128, 128, 4),
                            options=f'{PROMOTED}, schedule = "warp_specialized", persistent = true'))
        out.append(GemmCase(a, b, acc, d, 256, 512, 1000, True, False, (64, 128, 128, 4), options=f"{PROMOTED}, cluster = 2"))
        out.append(GemmCase(a, b, acc, d, 48, 4096, 1000, True, False, None, options=PROMOTED))
        out.append(GemmCase(a, b, acc, d, 300, 200, 3000, True, False, None, with_c=True, options=PROMOTED))
        out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, None, dynamic=True, options=PROMOTED))
        out.append(GemmCase(a, b, acc, d, 129, 65, 4099, True, False, None, batch=3, options=PROMOTED))
    return out


#: tcgen05 (sm_100a: assembled and SASS-checked, not run): (A, B, accumulator, D); every
#: one of these types may be MN-major on tcgen05, so all four transposes are swept.
TCGEN05_TYPES = [
    ("bf16", "bf16", "f32", "bf16"),
    ("f16", "f16", "f16", "f16"),
    ("e4m3", "e4m3", "f32", "bf16"),
    ("e5m2", "e4m3", "f32", "f32"),
    ("tf32", "tf32", "f32", "f32"),
    ("s8", "s8", "s32", "s32"),
]
TCGEN05_CONFIGS = [None, (128, 256, 128, 3), (128, 64, 64, 2)]


def tcgen05_cases() -> list[GemmCase]:
    out = []
    for a, b, acc, d in TCGEN05_TYPES:
        for a_row, b_row in [(True, False), (True, True), (False, False), (False, True)]:
            for shape in [(128, 256, 64), (1000, 1000, 1000), (129, 65, 33)]:
                for config in TCGEN05_CONFIGS:
                    out.append(GemmCase(a, b, acc, d, *shape, a_row, b_row, config, target="sm_100a"))
        out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, False, None, with_c=True, target="sm_100a"))
    return out


#: The warp-specialised tcgen05 GEMM's options (sm_100a, only when asked; not the default).
TCGEN05_WS_OPTIONS = [
    'schedule = "warp_specialized"',
    'schedule = "warp_specialized", raster = 0',
    'schedule = "warp_specialized", persistent = true',
    'schedule = "warp_specialized", raster = 3, persistent = true',
]


def tcgen05_ws_cases() -> list[GemmCase]:
    """The warp-specialised (and persistent) tcgen05 GEMM at ragged shapes: every type, two
    transposes, the chooser's and two fixed configurations; sizes known at launch and C."""
    out = []
    for a, b, acc, d in TCGEN05_TYPES:
        for a_row, b_row in [(True, False), (False, True)]:
            for shape in [(1000, 1000, 1000), (129, 65, 33), (4097, 4095, 4099), (72, 200, 40)]:
                for config in TCGEN05_CONFIGS:
                    for options in TCGEN05_WS_OPTIONS:
                        out.append(GemmCase(a, b, acc, d, *shape, a_row, b_row, config, target="sm_100a", options=options))
        out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, False, None, with_c=True, target="sm_100a", options=TCGEN05_WS_OPTIONS[2]))
        out.append(GemmCase(a, b, acc, d, 300, 520, 40, True, False, (128, 256, 128, 3), with_c=True, target="sm_100a", dynamic=True, options=TCGEN05_WS_OPTIONS[0]))
    return out


#: The CTA-pair tcgen05 GEMM (cluster = 2 on sm_100a: tcgen05.mma.cta_group::2, M = 256).
TCGEN05_PAIR_OPTIONS = [
    'schedule = "warp_specialized", cluster = 2',
    'schedule = "warp_specialized", cluster = 2, persistent = true',
    'schedule = "warp_specialized", cluster = 2, raster = 4, persistent = true',
]


def tcgen05_pair_cases() -> list[GemmCase]:
    """The CTA-pair tcgen05 GEMM: every type, two transposes, shapes with an even number of
    128-row tiles (ragged ones among them), three configurations (B halves of 64, 128 and
    32 columns), plain and persistent; C."""
    out = []
    for a, b, acc, d in TCGEN05_TYPES:
        for a_row, b_row in [(True, False), (False, True)]:
            for shape in [(1000, 1000, 1000), (129, 65, 33), (2048, 1920, 520), (256, 512, 128)]:
                for config in TCGEN05_CONFIGS:
                    for options in TCGEN05_PAIR_OPTIONS:
                        out.append(GemmCase(a, b, acc, d, *shape, a_row, b_row, config, target="sm_100a", options=options))
        out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, False, None, with_c=True, target="sm_100a", options=TCGEN05_PAIR_OPTIONS[1]))
    return out


def cases(subset: str = "full") -> list[GemmCase]:
    if subset == "tcgen05":
        return tcgen05_cases() + tcgen05_ws_cases() + tcgen05_pair_cases()
    if subset == "tcgen05-ci":
        return tcgen05_cases()[::9]
    if subset == "multicast":
        return multicast_default_cases() + multicast_kmajor_cases()
    if subset == "swap":
        return swap_ab_cases()
    if subset == "stream_k":
        return stream_k_cases()
    if subset == "wide":
        return wide_tile_cases()
    if subset == "wide_wgmma":
        return wide_wgmma_cases()
    if subset == "paired_split":
        return paired_split_cases()
    if subset == "one_wave":
        return one_wave_cases()
    out: list[GemmCase] = []
    for a, b, acc, d in TYPES:
        sixteen = a in ("f16", "bf16")
        transposes = [(True, False), (True, True), (False, False), (False, True)] if sixteen else [(True, False)]
        for a_row, b_row in transposes:
            for shape in SHAPES:
                for config in CONFIGS:
                    out.append(GemmCase(a, b, acc, d, *shape, a_row, b_row, config))
        out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, False, None, with_c=True))
    for a, b, acc, d in TYPES[:1] + TYPES[4:5]:  # sizes known only at launch
        for shape in [(1000, 1000, 1000), (129, 65, 33), (4097, 4095, 4099)]:
            out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, dynamic=True))
        out.append(GemmCase(a, b, acc, d, 300, 520, 40, True, a == "bf16", (128, 256, 128, 3), with_c=True, dynamic=True))
    # every schedule and raster choice, not only the defaults (docs/performance.md)
    for a, b, acc, d in (TYPES[0], TYPES[3], TYPES[4], TYPES[7]):
        for shape in [(1000, 1000, 1000), (129, 65, 33), (4097, 4095, 4099), (72, 200, 40)]:
            for options in OPTIONS:
                out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, options=options))
            if d in ("bf16", "f16") and shape[1] * 2 % 16 == 0:
                for options in TMA_OPTIONS:
                    out.append(GemmCase(a, b, acc, d, *shape, True, a == "bf16", None, options=options))
    for a, b, acc, d in TYPES[2:3]:  # f16 D from an f32 accumulator, B row-major (MN-major tiles)
        for options in TMA_OPTIONS:
            out.append(GemmCase(a, b, acc, d, 1000, 1000, 1000, True, True, None, options=options))
    # clusters of 2 sharing B (16-bit B row-major: its MN-major tile is several TMA boxes;
    # an even number of tile rows)
    for a, b, acc, d in (TYPES[0], TYPES[2], TYPES[3]):
        for shape in [(1000, 1000, 1000), (2048, 1920, 520), (256, 512, 128)]:
            for options in CLUSTER_OPTIONS:
                out.append(GemmCase(a, b, acc, d, *shape, True, True, None, options=options))
    for shape in BIG_SHAPES:
        out.append(GemmCase("bf16", "bf16", "f32", "bf16", *shape, True, True, None))
        out.append(GemmCase("e4m3", "e4m3", "f32", "bf16", *shape, True, False, None))
    if subset == "ci":
        return (out[::17] + batched_cases()[::9] + swap_ab_cases()[::9] + multicast_default_cases()[::4]
                + stream_k_cases()[::10] + multicast_kmajor_cases()[::11] + wide_tile_cases()[::7] + paired_split_cases()[::6] + one_wave_cases()[::4]
                + wide_wgmma_cases()[::8])
    return (out + batched_cases() + split_k_cases() + fp8_promoted_cases() + unsplit_cases() + swap_ab_cases()
            + multicast_default_cases() + stream_k_cases() + multicast_kmajor_cases() + wide_tile_cases() + paired_split_cases()
            + one_wave_cases() + wide_wgmma_cases())


def run_case(case: GemmCase, seed: int, assemble_only: bool) -> tuple[str, str]:
    from lower_tc.lowering.compile import compile_source

    try:
        kernels = compile_source(case.source(), case.name, assemble=True)
    except Exception as err:  # noqa: BLE001 - a rejected configuration is a result
        return "REJECTED", str(err).splitlines()[0][:200]
    if assemble_only:
        return "ASSEMBLED", f"{len(kernels[0].cubin or b'')} bytes"
    from lower_tc.lowering.runtime.run import run_kernel

    result = run_kernel(kernels[0], seed, shapes=case.shapes())
    return ("PASS" if result.passed else "FAIL"), (
        f"max_err={result.max_error:.3g} tol={result.tolerance:.1g} bad={result.mismatches} "
        f"checked={result.checked} nan={result.nan_count} stray={result.stray}"
    )


def summarize(path: str) -> str:
    """A markdown table of a recorded sweep: per operand types, accumulator and D, the
    configurations by verdict and the largest error relative to the tolerance."""
    import re

    groups: dict[str, Counter[str]] = {}
    worst: dict[str, float] = {}
    for line in list(open(path))[1:]:
        name, verdict, detail = line.rstrip("\n").split("\t")[:3]
        key = "_".join(name.split("_")[:4 if name.startswith("sm_100a") else 3])
        if "_batch" in name:
            key += " (batched)"
        if "_dyn" in name:
            key += " (sizes at launch)"
        groups.setdefault(key, Counter())[verdict] += 1
        m = re.search(r"max_err=(\S+) tol=(\S+)", detail)
        if m and float(m.group(2)) > 0:
            worst[key] = max(worst.get(key, 0.0), float(m.group(1)) / float(m.group(2)))
    verdicts = sorted({v for c in groups.values() for v in c})
    lines = ["| A x B, accumulator, D | " + " | ".join(verdicts) + " | max error / tolerance |", "|---" * (len(verdicts) + 2) + "|"]
    for key in sorted(groups):
        counts = " | ".join(str(groups[key].get(v, 0)) for v in verdicts)
        lines.append(f"| {key} | {counts} | {worst.get(key, 0.0):.3f} |")
    total = sum(groups.values(), Counter())
    lines.append("| **all** | " + " | ".join(str(total.get(v, 0)) for v in verdicts) + " | |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--subset", default="full", choices=["full", "ci", "tcgen05", "tcgen05-ci", "swap", "multicast", "stream_k", "wide", "paired_split", "one_wave", "wide_wgmma"])
    p.add_argument("--list", action="store_true")
    p.add_argument("--assemble-only", action="store_true")
    p.add_argument("--out")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--summarize")
    p.add_argument("--match", default="", help="only cases whose name contains this")
    p.add_argument("--shard", default="0/1", help="I/N: every N-th case from the I-th")
    p.add_argument("--names", help="a file of case names, one a line: only those (e.g. the rows a change of the "
                   "default kernel touches)")
    args = p.parse_args(argv)
    if args.summarize:
        print(summarize(args.summarize))
        return 0
    index, count = (int(x) for x in args.shard.split("/"))
    names = set(open(args.names).read().split("\n")) - {""} if args.names else None
    todo = [c for c in cases(args.subset) if args.match in c.name and (names is None or c.name in names)][index::count]
    if args.list:
        for c in todo:
            print(c.name)
        print(f"{len(todo)} configurations", file=sys.stderr)
        return 0
    out = open(args.out, "w") if args.out else None
    if out:
        out.write("name\tverdict\tdetail\tseconds\n")
    verdicts: Counter[str] = Counter()
    for i, c in enumerate(todo):
        t0 = time.time()
        verdict, detail = run_case(c, args.seed + i, args.assemble_only)
        verdicts[verdict] += 1
        line = f"{c.name}\t{verdict}\t{detail}\t{time.time() - t0:.2f}"
        if out:
            out.write(line + "\n")
            out.flush()
        if verdict not in ("PASS", "ASSEMBLED"):
            print(line, flush=True)
    print(f"{len(todo)} configurations: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())), flush=True)
    return 0 if set(verdicts) <= {"PASS", "ASSEMBLED"} else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
