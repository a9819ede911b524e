"""A cost model of the sm_90a GEMM kernel, to rank tile configurations without a GPU: the
default chooser (layout/gemm.py `choose_config`) takes the configuration it predicts to be
fastest, and the tuner (`--tune`) times the real candidates instead.

A GEMM's time is taken as the longer of its compute and its memory time, plus a fixed
cost per wave of CTAs:
- compute: the CTAs run in waves of one CTA per SM (the ring fills most of an SM's shared
  memory); each wave takes as long as one CTA's K steps, each the longest of (`step_s`)
  its MMAs at `intrinsic_efficiency` of the SM's share of the dense peak, its bytes
  through the L2 the running CTAs share (the step at the tile's efficiency with every SM
  running, TILE_EFFICIENCY: measured at 8192^3 with bench/gemm_tune_suite.py, scaled by
  the share of SMs running) and a stage's round trip over the ring's stages;
- memory: A and B read once from HBM (L2 serves the re-reads) and D written once, at the
  HBM bandwidth or at what the CTAs keep in flight, whichever is less: by Little's law, the
  running CTAs' rings (stages x stage bytes each) over the load latency. This is what makes
  deep rings of small tiles win where M is small (decoding) and why four stages of 64 x 128
  reach only half of HBM bandwidth with 32 CTAs.

The constants were fitted on the H100 SXM (docs/performance.md, "The default chooser")
and the step's three bounds and the split costs on the H200 that replaced it (the same
chip and clocks; "The few-tile shapes on a grid of candidates"); on the suite the
configuration the model picks runs within a few percent of the best candidate measured. A
GPU with other SM counts or clocks is what `--tune` is for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lower_tc.layout.dtypes import element_type
from lower_tc.layout.gemm import GemmConfig


@dataclass(frozen=True)
class Machine:
    """What the model knows of the GPU."""

    sms: int
    dense_tflops: dict[str, float]  # the tensor cores' dense peak per operand type
    hbm_bytes_per_s: float  # what a streaming kernel reaches (not the 3.35 TB/s on paper)
    load_latency_s: float  # a TMA load's time in flight under load (Little's law)
    wave_overhead_s: float  # a wave's fill of the ring and its epilogue
    split_k_overhead_s: float = 0.0  # a split-K wave's extra per CTA of its clusters: the partial tiles, the cluster barriers, the reduction
    partial_bytes_per_s: float = 0.0  # the rate at which a global split-K's last CTA reads the tile's partials (its own L2 bandwidth)
    global_split_overhead_s: float = 0.0  # a global split-K wave's fixed extra: the partials' stores, the fences, the counters
    unsplit_split_wave_s: float = 0.0  # a split wave's extra after unsplit ones (its CTAs' short K loops' fill and drain)
    intrinsic_efficiency: float = 1.0  # the share of an SM's peak a K step's MMAs reach where nothing else bounds them
    ring_latency_s: float = 0.0  # a stage's round trip (its load issued to its release): a K step takes at least this over the ring's stages
    clusters_at_once: dict[int, int] = field(default_factory=dict)  # cluster size -> clusters that run at once

    def max_clusters(self, size: int) -> int:
        """Clusters of `size` CTAs (one per SM) that run at once: a cluster's CTAs share one
        GPC, and the GPCs are uneven, so fewer than sms / size (`clusters_at_once`,
        measured), or sms / size where not measured."""
        return self.sms if size == 1 else self.clusters_at_once.get(size, self.sms // size)


#: The H100 SXM (sm_90a): 132 SMs; dense peaks from NVIDIA's datasheet.
H100 = Machine(
    sms=132,
    dense_tflops={"bf16": 989.0, "f16": 989.0, "tf32": 494.0, "e4m3": 1979.0, "e5m2": 1979.0, "s8": 1979.0, "u8": 1979.0},
    hbm_bytes_per_s=3.0e12,
    load_latency_s=3e-6,
    wave_overhead_s=2e-6,
    split_k_overhead_s=1e-6,  # fitted on the tuning study of decode, batch and long-K shapes (docs/performance.md)
    # fitted on the tuning study of the decode, few-tile and long-K shapes with both splits
    # (docs/results/tune_split_k_global_h100.md): a global split pays about 4 us more than
    # the cluster's on small tiles, and its last CTA reads the partials at about 100 GB/s
    partial_bytes_per_s=100e9,
    global_split_overhead_s=3e-6,  # 4 us on the H100's study; 3 us fits the H200's grid with the S^2 cluster cost
    # fitted on the tuning study of the last wave split after whole ones
    # (docs/results/tune_unsplit_h100.md): a split wave after unsplit ones costs ~5 us
    # more than its share of K and its reduction (3 to 7 us pick the same kernels there)
    unsplit_split_wave_s=5e-6,
    # fitted on the H200's recorded candidates (docs/performance.md, "The few-tile shapes on a
    # grid of candidates": the pick's speed over the best measured, 63 cases): a K step's
    # MMAs at 0.85 of the peak where neither L2 nor the ring bounds them, a stage's round
    # trip about 1.2 us
    intrinsic_efficiency=0.85,
    ring_latency_s=1.2e-6,
    # the driver's cuOccupancyMaxActiveClusters with one CTA per SM (bench/cluster_occupancy.py,
    # H100 80GB HBM3, 2026-11-27: docs/results/cluster_occupancy_h100.txt)
    clusters_at_once={1: 132, 2: 66, 3: 39, 4: 30, 5: 22, 6: 17, 7: 15, 8: 15},
)

#: The share of an SM's dense peak a CTA of each tile (BM, BN) sustains, with a ring of at
#: most 4 stages and deeper (True). Measured on the H100 at 8192^3 bf16 (many waves), as a
#: share of cuBLAS's 780 TFLOP/s there times cuBLAS's 79% of the peak. The widths between
#: (WIDE_BNS of layout/gemm_choice.py) and the deeper 128 x 128 ring were measured on the
#: H200 at 8192^3 (bf16 and e4m3, B K-major, bench/gemm_tune_suite.py), each as a share of
#: the 128 x 192 tile's speed in the same run times its 0.79 (none above it: 128 x 224 ran
#: 1-2% faster, within the runs' spread). 128 x 320 (two wgmmas a K-slice, 3 stages) ran
#: 0.99 of 128 x 224's speed at 8192^3 (docs/results/gemm_tune_wide_wgmma_h200.json).
TILE_EFFICIENCY: dict[tuple[int, int, bool], float] = {
    (128, 256, False): 0.79, (128, 192, False): 0.79, (128, 128, False): 0.73,
    (64, 256, False): 0.70, (64, 128, False): 0.48, (64, 128, True): 0.56,
    (128, 64, False): 0.40, (128, 64, True): 0.38, (64, 64, False): 0.30, (64, 64, True): 0.33,
    (128, 128, True): 0.73, (128, 96, True): 0.61, (128, 112, True): 0.66, (128, 144, True): 0.77,
    (128, 160, True): 0.76, (128, 176, True): 0.78, (128, 208, False): 0.775, (128, 224, False): 0.79,
    (128, 240, False): 0.79, (128, 320, False): 0.78,
}
#: Where an MN-major B (16-bit, row-major K x N) makes a tile slower: its tile rows are
#: boxes of the 64-byte swizzle at these widths (H200, 8192^3 bf16, as above; 128 x 160 at
#: 0.62, not the 0.665 measured there: in 5 stages at 1536^3 it ran 83% of cuBLAS where 128 x
#: 192 ran 87%, which the 8192^3 ratio had priced alike).
TILE_EFFICIENCY_MN_MAJOR: dict[tuple[int, int], float] = {(128, 96): 0.52, (128, 160): 0.62, (128, 224): 0.76}


#: Where a grid is one wave of unsplit CTAs (each SM's CTA running the whole K), the share
#: of the dense peak a tile sustains with every SM running (scaled by the running share as
#: TILE_EFFICIENCY is), where it is not the 8192^3 one: a 64 x 128 ring of 8 stages ran
#: 0.72 (e4m3) and 0.77 (bf16) at 1024 x 1024 x 32768 (128 CTAs, H200,
#: bench/gemm_tune_suite.py: docs/results/gemm_tune_fp8_dependent_h200.md and
#: gemm_tune_long_k_64x128_h200.md), where 8192^3's many waves give it 0.56. Measured at
#: that K and 8 stages only (its key, as TILE_EFFICIENCY's, is "deeper than 4"); the
#: hybrid split's waves (`_hybrid`) do not take it.
ONE_WAVE_EFFICIENCY: dict[tuple[int, int, bool], float] = {(64, 128, True): 0.745, (128, 112, True): 0.755}
#: The ONE_WAVE_EFFICIENCY tiles measured with a K-major A only: 128 x 112 rings ran 0.755
#: where they made 128 CTAs and 128 x 128 ones 112 (deepseek-v3 o_proj, M = 256: 7168 / 112
#: = 64 tiles a row; bf16 99% of cuBLAS where 128 x 128 ran 95%, e4m3 106% where it ran
#: 101%: docs/results/gemm_tune_wide_h200.md, gemm_tune_fp8_dependent_h200.md). A swapped
#: kernel's A (B^T, MN-major) keeps the 8192^3 efficiency for them: no swapped one ran.
ONE_WAVE_K_MAJOR_A: frozenset[tuple[int, int, bool]] = frozenset({(128, 112, True)})


def tile_efficiency(config: GemmConfig, b_mn_major: bool = False) -> float:
    """TILE_EFFICIENCY of the config (TILE_EFFICIENCY_MN_MAJOR's where B is MN-major and it
    has the tile), or for a tile not measured, its share of a 128 x 256 tile's work per K
    step scaled from the nearest measured one (a rough guess)."""
    if b_mn_major and (config.bm, config.bn) in TILE_EFFICIENCY_MN_MAJOR:
        return TILE_EFFICIENCY_MN_MAJOR[(config.bm, config.bn)]
    deep = config.stages > 4
    key = (config.bm, config.bn, deep)
    if key in TILE_EFFICIENCY:
        return TILE_EFFICIENCY[key]
    if (config.bm, config.bn, not deep) in TILE_EFFICIENCY:
        return TILE_EFFICIENCY[(config.bm, config.bn, not deep)]
    # the same BM, the nearest measured BN: efficiency grows with the tile's width
    same = [(bn, e) for (bm, bn, d), e in TILE_EFFICIENCY.items() if bm == min(config.bm, 128) and not d]
    bn, e = min(same, key=lambda x: abs(x[0] - config.bn))
    return e * min(1.0, config.bn / bn) ** 0.5


@dataclass(frozen=True)
class Estimate:
    """The model's time of one GEMM and its parts (seconds)."""

    ctas: int
    waves: int
    compute_s: float
    memory_s: float
    seconds: float = field(default=0.0)
    in_flight: int = 0  # bytes the running CTAs' rings hold (what Little's law turns into bandwidth)


def estimate(m: int, n: int, k: int, config: GemmConfig, a: str, b: str, d: str = "bf16", batch: int = 1,
             machine: Machine = H100, split_k: int = 1, reduce: str = "cluster", unsplit: int = 0,
             b_mn_major: bool = False, a_mn_major: bool = False) -> Estimate:
    """The model's time of an M x N x K GEMM (times `batch`) with `config` (module docstring).

    With `split_k` = S each tile takes S CTAs, each over ceil(T / S) of the T K steps (the
    longest rank's share). Split through a cluster (`reduce` "cluster"), the waves count the
    clusters that run at once (`max_clusters`), and each pays the reduction, S x
    `split_k_overhead_s`; through global memory ("global"), the waves count CTAs, and each
    pays its last CTAs' read of the S partial tiles at `partial_bytes_per_s`.

    With `unsplit` = F (global only) the first F tiles run unsplit in their own waves and
    the other tiles' S CTAs in waves after them (`_hybrid`). `b_mn_major`: B is MN-major
    (`tile_efficiency`); `a_mn_major`: A is (a swapped kernel's B^T: `step_s`)."""
    if unsplit:
        return _hybrid(m, n, k, config, a, b, d, batch, machine, split_k, unsplit, b_mn_major)
    tiles = config.tiles(m, n, batch)
    ctas = tiles * split_k
    split_global = split_k > 1 and reduce == "global"
    # a split-K cluster's CTAs share a GPC, so fewer than sms / S clusters run at once
    # (clusters of 1 are the CTAs: max_clusters(1) is the SM count)
    cluster = 1 if split_global else split_k
    waves = -(-ctas // machine.sms) if split_global else -(-tiles // machine.max_clusters(split_k))
    k_tiles = -(-k // config.bk)
    k_steps = -(-k_tiles // split_k)  # the K steps of the longest rank
    running = min(ctas, machine.max_clusters(cluster) * cluster)
    one_wave = split_k == 1 and ctas <= machine.sms
    compute = waves * k_steps * step_s(config, a, running, machine, b_mn_major, one_wave, a_mn_major)
    ring = min(config.stages, k_steps)  # a ring deeper than K's steps holds no more
    in_flight = running * ring * config.stage_bytes(a, b)
    bandwidth = min(machine.hbm_bytes_per_s, in_flight / machine.load_latency_s)
    size = lambda t: 4 if t in ("f32", "s32") else element_type(t).bits / 8  # noqa: E731 (D may be s32)
    moved = batch * ((m * k * size(a) + k * n * size(b)) / bandwidth + m * n * size(d) / machine.hbm_bytes_per_s)
    if split_global:
        reduction = _global_reduction_s(machine, config, split_k)
    else:
        reduction = _cluster_reduction_s(machine, split_k)
    overhead = waves * (machine.wave_overhead_s + reduction)
    return Estimate(ctas, waves, compute, moved, max(compute, moved) + overhead, in_flight)


def step_s(config: GemmConfig, a: str, running: int, machine: Machine = H100, b_mn_major: bool = False,
           one_wave: bool = False, a_mn_major: bool = False) -> float:
    """One CTA's K step: the longest of its MMAs at `intrinsic_efficiency` of the SM's peak;
    its bytes through the L2 the running CTAs share (the step at `tile_efficiency`, which
    was measured with every SM running, scaled by the share of SMs running: at 8192^3 the
    small tiles are bound there, and with a few CTAs they run nearer their MMAs' speed;
    `one_wave`, a grid of one wave of unsplit CTAs: ONE_WAVE_EFFICIENCY where it has the
    tile, but not ONE_WAVE_K_MAJOR_A's where A is MN-major, `a_mn_major`: a swapped
    kernel's B^T); and a stage's round trip over the ring's stages (Little's law: a shallow ring of
    a small tile waits on its loads)."""
    per_sm = machine.dense_tflops[a] * 1e12 / machine.sms
    mma = 2.0 * config.bm * config.bn * config.bk / per_sm
    efficiency = tile_efficiency(config, b_mn_major)
    key = (config.bm, config.bn, config.stages > 4)
    if (one_wave and not (b_mn_major and (config.bm, config.bn) in TILE_EFFICIENCY_MN_MAJOR)
            and not (a_mn_major and key in ONE_WAVE_K_MAJOR_A)):
        efficiency = ONE_WAVE_EFFICIENCY.get(key, efficiency)
    shared = mma / efficiency * min(1.0, running / machine.sms)
    return max(mma / machine.intrinsic_efficiency, shared, machine.ring_latency_s / config.stages)


def _cluster_reduction_s(machine: Machine, split_k: int) -> float:
    """A cluster split's extra per wave: `split_k_overhead_s` x S^2 / 2 (S = 2: 2 us; over a
    cluster a split of 4 ran up to 14% slower than through global memory where a split of 2
    ran 4-11% faster: docs/results/gemm_tune_few_tiles_grid_h200.md)."""
    return split_k * split_k / 2 * machine.split_k_overhead_s if split_k > 1 else 0.0


def _global_reduction_s(machine: Machine, config: GemmConfig, split_k: int) -> float:
    """A global split's extra per wave: its fixed cost and the last CTA's read of the S
    partial tiles (f32)."""
    return machine.global_split_overhead_s + split_k * config.bm * config.bn * 4 / machine.partial_bytes_per_s


def _hybrid(m: int, n: int, k: int, config: GemmConfig, a: str, b: str, d: str, batch: int, machine: Machine,
            split_k: int, unsplit: int, b_mn_major: bool = False) -> Estimate:
    """`estimate` of a grid whose first `unsplit` tiles take a CTA each and whose other
    tiles take `split_k` CTAs each, through global memory: the unsplit tiles' waves, then
    the split CTAs' waves, each as long as the longest rank's share of K."""
    tiles = config.tiles(m, n, batch)
    split = (tiles - unsplit) * split_k
    unsplit_waves = -(-unsplit // machine.sms)
    split_waves = -(-split // machine.sms)
    per_sm = machine.dense_tflops[a] * 1e12 / machine.sms
    k_tiles = -(-k // config.bk)
    k_steps = -(-k_tiles // split_k)  # the longest rank's
    tile_s = 2.0 * config.bm * config.bn / (per_sm * tile_efficiency(config, b_mn_major))  # a tile's time per unit of K
    compute = unsplit_waves * tile_s * k + split_waves * tile_s * k_steps * config.bk
    unsplit_only = estimate(m, n, k, config, a, b, d, batch, machine, b_mn_major=b_mn_major)  # the same bytes from HBM, at full occupancy
    reduction = _global_reduction_s(machine, config, split_k)
    overhead = unsplit_waves * machine.wave_overhead_s + split_waves * (machine.wave_overhead_s + reduction + machine.unsplit_split_wave_s)
    return Estimate(unsplit + split, unsplit_waves + split_waves, compute, unsplit_only.memory_s,
                    max(compute, unsplit_only.memory_s) + overhead, unsplit_only.in_flight)


__all__ = ["Estimate", "H100", "Machine", "ONE_WAVE_EFFICIENCY", "ONE_WAVE_K_MAJOR_A", "TILE_EFFICIENCY", "TILE_EFFICIENCY_MN_MAJOR", "estimate", "step_s", "tile_efficiency"]
