"""Whole-GEMM tile configurations: what a CTA computes per K step, and whether the
tensor core, shared memory and registers allow it.

A configuration is (BM, BN, BK, stages): the CTA owns a BM x BN tile of D and walks K
in steps of BK, with `stages` shared-memory buffers of A (BM x BK) and B (BN x BK) in a
ring. Each consumer warpgroup owns 64 rows of the tile (wgmma is m64nNkK), so BM/64
warpgroups share one B tile. The chooser picks a configuration from the problem's shape
and types; the checks say, in one line each, why a given one cannot run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lower_tc.layout.descriptor import MatrixDescriptor, k_slices
from lower_tc.layout.dtypes import element_type
from lower_tc.layout.errors import LayoutError
from lower_tc.layout.instr_desc import KIND_ACCUMULATORS, check_mma_shape, kind_of
from lower_tc.layout.limits import SMEM_CAPACITY
from lower_tc.layout.targets import Arch
from lower_tc.layout.tile import TileLayout

#: Each stage has a "full" and an "empty" mbarrier of 8 bytes.
BARRIER_BYTES_PER_STAGE = 16

#: Accumulator types wgmma allows per operand type (PTX ISA, wgmma.mma_async types).
WGMMA_ACCUMULATORS: dict[str, tuple[str, ...]] = {
    "f16": ("f32", "f16"),
    "bf16": ("f32",),
    "tf32": ("f32",),
    "e4m3": ("f32", "f16"),
    "e5m2": ("f32", "f16"),
    "s8": ("s32",),
    "u8": ("s32",),
}

#: D types an accumulator may be stored as (converted in the epilogue).
STORE_TYPES: dict[str, tuple[str, ...]] = {
    "f32": ("f32", "bf16", "f16"),
    "f16": ("f16", "f32"),
    "s32": ("s32",),
}


def wgmma_valid_n(dtype: str) -> tuple[int, ...]:
    """N of wgmma.mma_async: multiples of 8 up to 256; s8/u8: 8, 16, 24, then steps of 16."""
    if dtype in ("s8", "u8"):
        return (8, 16, 24) + tuple(range(32, 257, 16))
    return tuple(range(8, 257, 8))


#: The widths over one wgmma's N = 256 that a GEMM kernel's consumer warpgroup takes, as
#: several wgmmas a K-slice (`wgmma_parts`): 320 = 5 swizzle atoms of a 16-bit MN-major B,
#: the width of cuBLAS's one-wave tiles (128 x 320) where 128 x 256 tiles leave a fifth of a
#: wave and 128 x 160 ones need the 64-byte swizzle for a row-major B. 160 f32 accumulator
#: registers a thread, so at most two consumer warpgroups (BM 64 or 128).
WIDE_WGMMA_NS = (320,)
#: The most consumer warpgroups a tile of WIDE_WGMMA_NS takes (their registers).
WIDE_WGMMA_MAX_BM = 128


def gemm_valid_n(dtype: str) -> tuple[int, ...]:
    """A GEMM kernel's tile widths: one wgmma's N (`wgmma_valid_n`) and WIDE_WGMMA_NS."""
    return wgmma_valid_n(dtype) + WIDE_WGMMA_NS


def wgmma_parts(n: int, atom: int) -> tuple[int, ...]:
    """The N of each wgmma a warpgroup issues per K-slice for an N-wide accumulator: (N,) up
    to 256; past it, as few parts as there are 256-column instructions, as even as they can
    be with each part starting at a multiple of `atom` columns of B's tile (a descriptor's
    start moves by whole swizzle atoms: 8 rows of a K-major B, one atom's width, 64
    columns under the 128-byte swizzle, of an MN-major one): 320 is 160 + 160 K-major and
    192 + 128 MN-major. A ValueError where N cannot be cut so."""
    if n <= 256:
        return (n,)
    count = -(-n // 256)
    first = -(-n // count // atom) * atom
    parts = (first,) * (count - 1) + (n - first * (count - 1),)
    if first > 256 or parts[-1] <= 0 or any(p % 8 for p in parts):
        raise ValueError(f"N = {n} does not split into wgmmas of at most 256 starting at multiples of {atom} columns")
    return parts


def operand_pair_problem(a: str, b: str, arch: Arch = Arch.SM90A) -> str | None:
    """Why the tensor core cannot multiply an `a` by a `b` operand, or None."""
    pair = {a, b}
    if a == b or pair <= {"e4m3", "e5m2"} or pair <= {"s8", "u8"}:
        return None
    return f"{arch.family} cannot multiply {a} by {b}"


def accumulators(a: str, arch: Arch = Arch.SM90A) -> tuple[str, ...]:
    """The accumulator types the tensor core allows for `a` operands."""
    if arch is Arch.SM90A:
        return WGMMA_ACCUMULATORS.get(a, ())
    try:
        allowed = KIND_ACCUMULATORS[kind_of(a)]
    except LayoutError:
        return ()
    return ("f32",) if a == "bf16" else allowed


def default_accumulator(a: str) -> str:
    """f32 for floating-point operands, s32 for 8-bit integers."""
    return "s32" if a in ("s8", "u8") else "f32"


@dataclass(frozen=True)
class GemmConfig:
    """A CTA's tile of D (BM x BN), its K step (BK) and the depth of its ring."""

    bm: int
    bn: int
    bk: int
    stages: int

    @property
    def warpgroups(self) -> int:  # on sm_90a; a tcgen05 CTA has one warpgroup
        """Consumer warpgroups: one per 64 rows of the CTA tile."""
        return self.bm // 64

    @property
    def threads(self) -> int:
        return 128 * self.warpgroups

    def tiles(self, m: int, n: int, batch: int = 1) -> int:
        """The BM x BN tiles of an M x N GEMM (of each of `batch` matrices: all of them)."""
        return batch * -(-m // self.bm) * -(-n // self.bn)

    def stage_bytes(self, a: str, b: str) -> int:
        """Shared memory of one stage: an A tile and a B tile."""
        return (self.bm * self.bk * element_type(a).bits + self.bn * self.bk * element_type(b).bits) // 8

    def smem_bytes(self, a: str, b: str) -> int:
        """Every stage's tiles (each 1024-byte aligned) plus their barriers."""
        per_stage = -(-self.stage_bytes(a, b) // 1024) * 1024
        return self.stages * per_stage + self.stages * BARRIER_BYTES_PER_STAGE

    def __str__(self) -> str:
        return f"{self.bm}x{self.bn}x{self.bk}, {self.stages} stages"


def config_problem(config: GemmConfig, a: str, b: str, acc: str, arch: Arch = Arch.SM90A) -> str | None:
    """Why `config` cannot run (one line), or None when it can."""
    bm, bn, bk, stages = config.bm, config.bn, config.bk, config.stages
    if arch is Arch.SM100A:
        if bm != 128:
            return f"BM = {bm}: the tcgen05 GEMM runs one M = 128 MMA per K-slice, so BM is 128"
        kind = kind_of(a)
        try:
            check_mma_shape(kind, bm, bn)
        except LayoutError as err:
            return f"BN = {bn}: {err}"
        if acc not in KIND_ACCUMULATORS[kind]:
            return f"tcgen05 kind::{kind} accumulates in {' or '.join(KIND_ACCUMULATORS[kind])}, not {acc}"
        if a == "bf16" and acc == "f16":
            return "bf16 operands accumulate in f32"
    elif arch is not Arch.SM90A:
        raise LayoutError(f"GEMM kernels are lowered for sm_90a and sm_100a, not {arch}")
    elif bm <= 0 or bm % 64 or bm > 256:
        return f"BM = {bm}: wgmma is m64, so BM must be 64, 128, 192 or 256 (one warpgroup per 64 rows)"
    elif bn not in gemm_valid_n(a):
        rule = "8, 16, 24, then a multiple of 16" if a in ("s8", "u8") else "a multiple of 8"
        wide = " or ".join(str(w) for w in WIDE_WGMMA_NS)
        return f"BN = {bn}: one warpgroup's wgmma N must be {rule} from 8 to 256, or {wide} (several wgmmas)"
    elif bn > 256 and bm > WIDE_WGMMA_MAX_BM:
        return (f"BN = {bn} holds {bn // 2} accumulator registers a thread: at most {WIDE_WGMMA_MAX_BM // 64} "
                f"consumer warpgroups (BM <= {WIDE_WGMMA_MAX_BM}), not {bm // 64}")
    kpi = element_type(a).k_per_instruction
    if bk <= 0 or bk % kpi:
        return f"BK = {bk} is not a whole number of {kpi}-element (32-byte) K-slices of {a}"
    if stages < 2:
        return f"{stages} stage(s): the pipeline needs at least 2 (one loading while one is read)"
    if arch is Arch.SM90A and acc not in WGMMA_ACCUMULATORS.get(a, ()):
        allowed = " or ".join(WGMMA_ACCUMULATORS.get(a, ("nothing",)))
        return f"wgmma with {a} accumulates in {allowed}, not {acc}"
    need = config.smem_bytes(a, b)
    if need > SMEM_CAPACITY:
        return (
            f"{stages} stages of {bm}x{bk} + {bn}x{bk} tiles need {need} bytes of shared memory, "
            f"more than the {SMEM_CAPACITY} (227 KiB) a block may use"
        )
    return None


def check_config(config: GemmConfig, a: str, b: str, acc: str, arch: Arch = Arch.SM90A) -> None:
    problem = config_problem(config, a, b, acc, arch)
    if problem:
        raise LayoutError(problem)


def rule_config(m: int | None, n: int | None, k: int | None, a: str, b: str, acc: str, arch: Arch = Arch.SM90A) -> GemmConfig:
    """The configuration by rule, where the cost model (layout/gemm_choice.py) has nothing
    to go on (a size known only at launch) or is not fitted (sm_100a): on sm_90a 128x256
    CTA tiles where N is over 128 (two warpgroups of 64x256), 128x128 else, 64 where M or N
    is known to be at most 64; 128x128 on sm_100a; a K step of one 128-byte swizzle row; as
    many stages (up to 4) as shared memory holds."""
    row_elems = 128 * 8 // element_type(a).bits
    bm = 64 if m is not None and m <= 64 and arch is Arch.SM90A else 128
    if n is not None and n <= 64:
        bn = 64
    elif arch is Arch.SM90A and bm == 128 and (n is None or n > 128):
        bn = 256  # two warpgroups of 64 x 256: measured fastest on the H100 (docs/performance.md)
    else:
        bn = 128
    bk = row_elems
    for stages in (4, 3, 2):
        config = GemmConfig(bm, bn, bk, stages)
        if config_problem(config, a, b, acc, arch) is None:
            return config
    check_config(GemmConfig(bm, bn, bk, 2), a, b, acc, arch)  # raises with the reason
    raise AssertionError("unreachable")


__all__ = [
    "BARRIER_BYTES_PER_STAGE",
    "GemmConfig",
    "accumulators",
    "STORE_TYPES",
    "WGMMA_ACCUMULATORS",
    "check_config",
    "config_problem",
    "default_accumulator",
    "default_persistent",
    "default_schedule",
    "operand_pair_problem",
    "rule_config",
    "ring_footprint",
    "ring_k_slices",
    "ring_stride",
    "wgmma_valid_n",
    "gemm_valid_n",
    "wgmma_parts",
    "WIDE_WGMMA_NS",
    "WIDE_WGMMA_MAX_BM",
]


#: CTAs walk the tiles in groups of this many tile rows by default (measured best of 0, 4,
#: 8 on the H100 at 8192^3 and 4096^3, docs/performance.md).
DEFAULT_RASTER = 8


def default_schedule(m: int | None, n: int | None, config: GemmConfig) -> tuple[str, int]:
    """How a sm_90a GEMM runs by default: (schedule, raster group). Warp-specialised (a TMA
    producer warpgroup: as fast as one loop for bf16, faster for fp8 on the H100) where
    there are at most two consumer warpgroups; the grouped order needs the tile counts, so
    sizes known only at launch keep row order."""
    schedule = "warp_specialized" if config.warpgroups <= 2 else "pipelined"
    return schedule, (DEFAULT_RASTER if m is not None and n is not None else 0)


def default_persistent(schedule: str, raster: int, m: int | None, n: int | None) -> bool:
    """Whether a sm_90a GEMM is persistent by default: wherever it can be (warp-specialised,
    the grouped order, sizes known at compile time). With the TMA-store epilogue, one CTA
    per SM walking the tiles overlaps each tile's stores with the next one's loads and MMAs
    (docs/performance.md)."""
    return schedule == "warp_specialized" and raster >= 1 and m is not None and n is not None


def ring_stride(footprint: int) -> int:
    """Bytes between the buffers of a ring: each starts 1024 bytes after a 1024-byte
    boundary of the first, so every buffer has the first one's swizzle phase (and its
    descriptors plus the offset)."""
    return -(-footprint // 1024) * 1024


def ring_footprint(footprint: int, stages: int) -> int:
    """Bytes from a ring's first buffer to the end of its last."""
    return (stages - 1) * ring_stride(footprint) + footprint


@dataclass(frozen=True)
class RingSlice:
    """One K-slice of one stage's buffer, for the warpgroup owning rows [64 * block, ...)."""

    stage: int
    block: int
    k: int
    descriptor: MatrixDescriptor


def ring_k_slices(layout: TileLayout, arch: Arch, stages: int, row_blocks: int = 1) -> list[RingSlice]:
    """Every stage's K-slice descriptors, stage-major, then warpgroup row block, then K.

    A stage is the first buffer moved by whole ring strides; a warpgroup's 64-row block
    of it starts at that row's address. Strides and swizzle stay the whole tile's."""
    stride = ring_stride(layout.footprint)
    out = []
    for s in range(stages):
        buffer = replace(layout, address=layout.address + s * stride)
        slices = k_slices(buffer, arch)
        for b in range(row_blocks):
            for sl in slices:
                start = int(buffer.linear_addresses(64 * b, sl.k))
                out.append(RingSlice(s, b, sl.k, sl.descriptor.with_start(start)))
    return out
