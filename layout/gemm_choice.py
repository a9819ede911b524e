"""The default GEMM configuration: of the tiles and ring depths sm_90a runs well, the one
the cost model (layout/gemm_model.py) predicts fastest for the problem; persistent where
the tiles make more than one wave. Sizes known only at launch, and sm_100a, keep the
rule of layout/gemm.py `rule_config`.

Why a model and not a table of shapes: the right tile depends on how many CTAs a shape
makes (a last wave a fifth full costs as much as a whole one; 32 CTAs of 64 x 128 keep too
few loads in flight to stream a decoding GEMM's weights at HBM speed), which a few
constants measured once capture for every shape. bench/gemm_tune_suite.py measures every
candidate on issue 22's suite; docs/performance.md shows how close the model's pick runs
to the best one.
"""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.dtypes import element_type
from lower_tc.layout.epilogue import PIECE_ALIGN, PIECE_QUANTUM, staging_bytes, tma_store_problem
from lower_tc.layout.fp8_accumulation import PROMOTED_MAX_BK, PROMOTED_MAX_BM, PROMOTED_MAX_BN, promoted_tile_fits
from lower_tc.layout.errors import LayoutError
from lower_tc.layout.gemm import WIDE_WGMMA_NS, GemmConfig, config_problem, default_schedule, gemm_valid_n, rule_config, wgmma_valid_n
from lower_tc.layout.gemm_model import H100, Machine, estimate
from lower_tc.layout.limits import MAX_CLUSTER, SMEM_CAPACITY
from lower_tc.layout.split_k import MAX_GLOBAL_SPLIT, REDUCES, reduces_for, valid_split_k
from lower_tc.layout.targets import Arch

#: (BM, BN) tiles of sm_90a's warp-specialised kernel (one or two consumer warpgroups),
#: from the most reuse of shared memory to the most CTAs.
SM90_TILES = ((128, 256), (128, 192), (128, 128), (64, 256), (64, 128), (128, 64), (64, 64))
#: The deepest ring of a small tile (more bytes in flight per SM where memory-bound).
MAX_STAGES = 8
#: Tiles of at most this many elements also get the deepest ring that fits.
DEEP_TILE = 64 * 128
#: The deepest ring of a 64 x 64 tile whose grid is under one wave, a tuner's candidate
#: (`few_tiles_ring`).
FEW_TILES_STAGES = 12
#: The most waves of tiles for which the chooser weighs splitting the last wave's tiles
#: after whole ones (`unsplit_options`).
UNSPLIT_MAX_WAVES = 4
#: Widths of 128-row tiles between SM90_TILES' powers of two, so that some tile makes
#: nearly whole waves: 1536^3 in 128 x 144 tiles is 132 CTAs on 132 SMs, where 128 x 192
#: makes 96 (cuBLAS picks such widths too: bench/cublas_kernels.py). Multiples of 16, so
#: the TMA-store epilogue stages the last columns in 32- and 16-column pieces
#: (layout/epilogue.py); measured in docs/performance.md "Tiles as wide as make whole waves".
#: And past one wgmma, WIDE_WGMMA_NS (320: two a K-slice; cuBLAS's 128 x 320 at M = 512).
WIDE_BNS = (96, 112, 144, 160, 176, 208, 224, 240) + WIDE_WGMMA_NS
#: The deepest ring of a 128-row tile that still leaves room for the TMA-store epilogue's
#: staging pieces: 6 stages of 128 x 128 ran 97% of cuBLAS where 4 ran 83% (M = 127,
#: N = 11008, K = 4096), and 5 stages of 128 x 144 at or above 4 on the suite.
STAGED_MAX_STAGES = 6
#: An MN-major B's tile rows must be whole swizzle rows of at least this many bytes: a
#: 32-byte swizzle (BN = 144 of bf16) ran 60-65% of the 128-byte one's speed.
MN_MAJOR_MIN_ROW_BYTES = 64


def deepest(bm: int, bn: int, bk: int, a: str, b: str, acc: str, arch: Arch, most: int = MAX_STAGES) -> GemmConfig | None:
    """The configuration with the most stages (up to `most`) that fits, or None."""
    for stages in range(most, 1, -1):
        config = GemmConfig(bm, bn, bk, stages)
        if config_problem(config, a, b, acc, arch) is None:
            return config
    return None


def few_tiles_ring(m: int, n: int, a: str, b: str, acc: str, batch: int = 1, machine: Machine = H100) -> GemmConfig | None:
    """A 64 x 64 tile in its deepest ring up to FEW_TILES_STAGES with room for the TMA-store
    epilogue's staging, where its tiles make less than a wave (else None): at deepseek-v3
    q_a_proj (128 x 1536 x 7168) 12 stages split 2 through global memory ran 98-103% of
    cuBLAS (the kernel cuBLAS runs there: 64 x 64, 13 stages, split 2) where 8 stages ran
    89-93%, and on grids of two waves or more 12 stages ran 0-8% slower than 8
    (docs/results/gemm_tune_few_tiles_grid_h200.md). A tuner's candidate, not weighed by
    the default chooser: the model prices it over a cluster (84-90% there) as through
    global memory."""
    if -(-m // 64) * -(-n // 64) * batch > machine.sms:
        return None
    bk = 128 * 8 // element_type(a).bits
    return staged_depth(64, 64, bk, a, b, acc, Arch.SM90A, most=FEW_TILES_STAGES)


def split_ring(config: GemmConfig) -> bool:
    """Whether a split kernel (split-K, its last wave split) takes this configuration: not
    a 128-row ring deeper than 4 stages (6 stages of 128 x 128 split 8 ran 5-13% slower on
    the suite's long-K shapes: H200, docs/performance.md)."""
    return config.bm < 128 or config.stages <= 4


def staged_depth(bm: int, bn: int, bk: int, a: str, b: str, acc: str, arch: Arch, most: int = STAGED_MAX_STAGES) -> GemmConfig | None:
    """The deepest ring (up to `most`) whose stages leave room after them for its consumer
    warpgroups' (BM / 64) staging pieces of the TMA-store epilogue (`staging_fits`; else the
    kernel would fall back to the slower register epilogue), or None."""
    for stages in range(most, 1, -1):
        config = GemmConfig(bm, bn, bk, stages)
        if config_problem(config, a, b, acc, arch) is None and staging_fits(config, a, b):
            return config
    return None


def tile_configs(m: int, n: int, a: str, b: str, acc: str, arch: Arch = Arch.SM90A, b_mn_major: bool = False) -> list[GemmConfig]:
    """The sm_90a configurations worth trying for M x N: each tile of SM90_TILES that the
    problem does not leave mostly empty (BM at most M rounded up to 64, BN at most N rounded
    up to 64), with the deepest ring up to 4 stages and, for tiles of at most DEEP_TILE
    elements, also the deepest up to MAX_STAGES; a K step of one 128-byte swizzle row. Then
    128-row tiles with the deepest ring that leaves room for the TMA-store epilogue
    (`staged_depth`): the widths of SM90_TILES and WIDE_BNS (for an MN-major B, `b_mn_major`,
    only those whose rows are whole swizzle rows of MN_MAJOR_MIN_ROW_BYTES or more)."""
    bk = 128 * 8 // element_type(a).bits
    found: list[GemmConfig] = []

    def add(config: GemmConfig | None) -> None:
        if config is not None and config not in found:
            found.append(config)

    for bm, bn in SM90_TILES:
        if bm > _round_up(m, 64) or bn > _round_up(n, 64):
            continue
        add(deepest(bm, bn, bk, a, b, acc, arch, most=4))
        if bm * bn <= DEEP_TILE:
            add(deepest(bm, bn, bk, a, b, acc, arch))
    if arch is not Arch.SM90A or m <= 64:
        return found
    for bn in sorted({bn for bm, bn in SM90_TILES if bm == 128} | set(WIDE_BNS), reverse=True):
        row = bn * element_type(b).bits // 8
        if bn > _round_up(n, PIECE_QUANTUM) or bn not in gemm_valid_n(a):
            continue
        if b_mn_major and row % MN_MAJOR_MIN_ROW_BYTES:
            continue
        add(staged_depth(128, bn, bk, a, b, acc, arch))
    return found


#: The largest M the chooser computes swapped, D^T = B^T A^T (swap-AB: a decoding GEMM,
#: memory-bound, its weight streamed as wgmma's A): 64, and 16 rows past it, where the
#: unswapped kernel's second 64-row tile would be at most a quarter full.
SWAP_MAX_M = 80
#: The least N it swaps for: N / 64 tiles should fill a good part of the GPU.
SWAP_MIN_N = 1024
#: The deepest ring of a swapped kernel (its stages are small: 64 or 128 rows of the
#: weight and at most 64 of the activations).
SWAP_MAX_STAGES = 16
#: The widest swapped tile (N' = M rounded up) whose K step is two 128-byte swizzle rows
#: (256 bytes of each weight row a stage) in at most SWAP_WIDE_K_STAGES stages: on the H200
#: every decoding shape of the suite (M = 1 to 64, bf16 and e4m3, B as the weight and
#: row-major) ran 0.3-5.7% faster so than in one-row steps 12-16 deep; deeper two-row rings
#: (9-12 stages) lost up to 5% on some, and at N' = 80 (ragged 77 x 4096 x 4096) the
#: two-row step lost up to 2.3% (docs/performance.md, "Swapped decoding in 256-byte K steps").
SWAP_WIDE_K_MAX_N = 64
SWAP_WIDE_K_STAGES = 8


def prefer_swap(m: int, n: int, batch: int = 1) -> bool:
    """Swap a decoding GEMM (M <= SWAP_MAX_M: up to 64, and to 80, where the unswapped
    kernel's tiles would be mostly empty; N >= SWAP_MIN_N; one matrix), whatever its
    accumulation (fp8's promoted one too: its second accumulator is as small). Measured on the
    H100 (docs/performance.md, "Swap-AB"): 96-112% of cuBLAS on the suite's decoding
    shapes where the unswapped kernel ran 81-106%; ragged 77 x 4096 x 4096 95% / 90%
    (bf16 / e4m3) against 74% / 84%; at M = 127 and 128 swapping lost 1-22%."""
    return m <= SWAP_MAX_M and n >= SWAP_MIN_N and batch == 1


def swap_config(m: int, n: int, a: str, b: str, acc: str, machine: Machine = H100, bm: int | None = None,
                staged: bool = False, promoted: bool = False, k: int | None = None, split: int = 1) -> GemmConfig:
    """The swapped kernel's tile (the swapped problem is N x M x K; `a`, `b` its A's and
    B's types, the original B's and A's): 64 rows of N, or 128 where 64-row tiles would
    make more than one wave; N' = the least wgmma N of at least M (M rounded up to 8; for
    8-bit integers 8, 16, 24, then multiples of 16); a K step of two 128-byte swizzle rows
    in at most SWAP_WIDE_K_STAGES stages where N' <= SWAP_WIDE_K_MAX_N (not for fp8's
    `promoted` accumulation, whose step is at most PROMOTED_MAX_BK), else of one row in up
    to SWAP_MAX_STAGES; as many stages as fit (`staged`: the TMA-store epilogue is asked
    for, so as many as leave room for its staging pieces). `bm` overrides the rows. A
    split of K over `split` CTAs (K known: `k`) keeps one-row steps where two-row ones
    would leave fewer K steps than CTAs (layout/split_k.py `split_k_problem`)."""
    if bm is None:
        bm = 64 if -(-n // 64) <= machine.sms else 128
    # the staged pieces are multiples of PIECE_QUANTUM of D's rows: M = 7 takes N' = 16, not 8
    bn = min(x for x in wgmma_valid_n(a) if x >= min(m, 256) and (not staged or x % PIECE_QUANTUM == 0))
    row = 128 * 8 // element_type(a).bits
    wide = (bn <= SWAP_WIDE_K_MAX_N and not (promoted and 2 * row > PROMOTED_MAX_BK)
            and (k is None or -(-k // (2 * row)) >= split))
    bk, most = (2 * row, SWAP_WIDE_K_STAGES) if wide else (row, SWAP_MAX_STAGES)
    config = (staged_depth if staged else deepest)(bm, bn, bk, a, b, acc, Arch.SM90A, most=most)
    assert config is not None, "a 128 x 64 tile of A and 64 of B fit two stages and two staging pieces a warpgroup"
    return config


#: The fewest stages the tuner tries a swapped tile's doubled K step in (`swap_longer_step`).
SWAP_LONGER_STEP_MIN_STAGES = 3


def swap_longer_step(config: GemmConfig, a: str, b: str, acc: str, promoted: bool = False) -> GemmConfig | None:
    """The swapped tile `config` (`a`, `b`: the swapped problem's types) with its K step
    doubled, in as many stages as fit up to SWAP_WIDE_K_STAGES, where at least
    SWAP_LONGER_STEP_MIN_STAGES fit (not for fp8's `promoted` accumulation, whose step is
    at most PROMOTED_MAX_BK); else None. A tuning candidate, not a default: on the H200 a
    512-byte step of 128 weight rows in 3 stages ran 4-5% faster at N = 10240 and 12288
    (M = 8, K = 8192) and 1% slower at N = 9216, 14336 and 16384, with no rule between
    (docs/performance.md, "What limits decoding at M = 32-64")."""
    if promoted and 2 * config.bk > PROMOTED_MAX_BK:
        return None
    longer = deepest(config.bm, config.bn, 2 * config.bk, a, b, acc, Arch.SM90A, most=SWAP_WIDE_K_STAGES)
    return longer if longer is not None and longer.stages >= SWAP_LONGER_STEP_MIN_STAGES else None


#: The bytes of an L2 line: a TMA box row that starts inside one is read as two requests.
L2_LINE_BYTES = 128
#: The columns of an MN-major 16-bit B box (one 128-byte swizzle row): a cluster of 2 shares
#: B's boxes, so its tile needs an even number of them.
MN_BOX_BYTES = 128


def prefer_multicast(b_row_bytes: int | None, b_mn_major: bool, b_bits: int) -> bool:
    """Whether the default pairs CTAs in the same columns of D to share B's loads (`cluster
    = 2`, B's boxes multicast): where B is a 16-bit MN-major operand (row-major K x N, the
    only B a cluster shares) whose rows are not whole L2 lines. Then each 128-byte box row
    starts inside a line and TMA reads it as two requests: L2 throughput went from 52% to
    81% of its peak and the kernel 27% slower at 3000 x 5000 x 4000 (ncu, H200); sharing
    B's boxes halves its requests: 75% -> 90% of cuBLAS there (bench/gemm_ld_study.py,
    docs/performance.md "B rows off the L2 lines")."""
    return b_mn_major and b_bits == 16 and b_row_bytes is not None and b_row_bytes % L2_LINE_BYTES != 0


def mn_boxes(bn: int, b_bits: int) -> int:
    """TMA boxes of an MN-major B tile of BN columns: one per 128-byte swizzle row."""
    return bn * b_bits // 8 // MN_BOX_BYTES


def mn_boxes_halve(bn: int, b_bits: int) -> bool:
    """Whether a pair can share an MN-major B tile of BN columns box by box: its rows are
    whole pairs of 128-byte boxes (160 bf16 columns are 2.5 boxes: not)."""
    return bn * b_bits // 8 % (2 * MN_BOX_BYTES) == 0


def multicast_fits(m: int, n: int, config: GemmConfig, b_bits: int, batch: int = 1, machine: Machine = H100) -> bool:
    """Whether `config` can share B's boxes over a cluster of 2 and is worth it: an even
    number of tile rows (the pairs), an even number of B's boxes per tile, and at least a
    wave of tiles (measured only there: a few-tile GEMM keeps the cost model's smaller
    tiles)."""
    return -(-m // config.bm) % 2 == 0 and mn_boxes_halve(config.bn, b_bits) and config.tiles(m, n, batch) >= machine.sms


def default_multicast(m: int, n: int, k: int, a: str, b: str, acc: str, b_row_bytes: int | None, b_mn_major: bool,
                      batch: int = 1, machine: Machine = H100) -> GemmConfig | None:
    """The tile of the default's cluster of 2 sharing B's boxes, or None where the default
    keeps one CTA: one matrix whose B `prefer_multicast` (16-bit, MN-major, rows not whole
    L2 lines), the rule's tile fitting a pair (`multicast_fits`) under the default
    schedule (warp-specialised, an even raster group: the pairs are neighbours in it). The
    pass (tc-expand-matmul) asks this where nothing given rules a cluster out; the tuner's
    first candidate is the same kernel."""
    bits = element_type(b).bits
    if batch != 1 or not prefer_multicast(b_row_bytes, b_mn_major, bits):
        return None
    try:
        config = rule_config(m, n, k, a, b, acc, Arch.SM90A)
    except LayoutError:
        return None
    schedule, raster = default_schedule(m, n, config)
    if schedule != "warp_specialized" or raster < 2 or raster % 2 or not multicast_fits(m, n, config, bits, batch, machine):
        return None
    return config


@dataclass(frozen=True)
class Choice:
    """The default kernel of a GEMM: its tile configuration and split-K (1: none), how
    the split sums its partial tiles, and how many tiles come first unsplit
    (layout/split_k.py)."""

    config: GemmConfig
    split_k: int = 1
    reduce: str = "cluster"
    unsplit: int = 0  # with reduce = "global": the walk's first tiles that take one CTA each
    cluster: int = 1  # 2: a global split's CTAs paired to share B's loads (`paired_split`)


def split_k_options(m: int, n: int, k: int, config: GemmConfig, a: str, b: str, batch: int = 1,
                    machine: Machine = H100, reduce: str = "cluster") -> tuple[int, ...]:
    """The S > 1 worth weighing with `config` (layout/split_k.py): none where its tiles
    fill half the SMs or more; else the largest S whose CTAs still run at once (one wave:
    through a cluster, `Machine.max_clusters` of them; through global memory, the SMs), and
    half of it, each where K and shared memory allow."""
    tiles = config.tiles(m, n, batch)
    if 2 * tiles > machine.sms:
        return ()
    if reduce == "global":
        fits = [s for s in range(2, MAX_GLOBAL_SPLIT + 1) if tiles * s <= machine.sms]
    else:
        fits = [s for s in range(2, MAX_CLUSTER + 1) if tiles <= machine.max_clusters(s)]
    if not fits:
        return ()
    most = max(fits)
    valid = valid_split_k(config, a, b, k, reduce=reduce)
    return tuple(sorted({s for s in (most, most // 2) if s >= 2 and s in valid}))


def unsplit_options(m: int, n: int, k: int, config: GemmConfig, a: str, b: str, batch: int = 1,
                    machine: Machine = H100) -> tuple[tuple[int, int], ...]:
    """The (S, F) worth weighing for a grid that leaves its first F tiles unsplit and
    splits the others S ways through global memory (layout/split_k.py): where the tiles
    make more than one wave and the last is not full, F the tiles of the full waves and S
    the largest that fills the SMs once, twice or three times with the last wave's tiles'
    CTAs, where K allows. Not beyond UNSPLIT_MAX_WAVES waves: there the last wave is a
    small share of the time, and the persistent kernel (which a split one cannot be) won
    or tied on every such shape measured (docs/results/tune_unsplit_h100.md)."""
    tiles = config.tiles(m, n, batch)
    last = tiles % machine.sms
    if tiles <= machine.sms or last == 0 or tiles > UNSPLIT_MAX_WAVES * machine.sms:
        return ()
    unsplit = tiles - last
    valid = valid_split_k(config, a, b, k, reduce="global")
    ways = {min(MAX_GLOBAL_SPLIT, waves * machine.sms // last) for waves in (1, 2, 3)}
    return tuple((s, unsplit) for s in sorted(ways) if s in valid)


#: The deepest ring of a global split paired to share B (`paired_split`): 6 stages of 128 x
#: 128 ran 94% of cuBLAS at 256 x 1024 x 131072 where 4 ran 84% paired and 80% not, and 6
#: unpaired 71% (H200, docs/performance.md "Split-K in pairs sharing B").
PAIRED_MAX_STAGES = 6


def pair_fits(m: int, config: GemmConfig, b_bits: int, b_mn_major: bool) -> bool:
    """Whether two CTAs of adjacent tile rows can share B's boxes: an even number of tile
    rows, and B's tile whole boxes for each (an MN-major B: an even number of 128-byte rows;
    a K-major B: its rows cut in halves of whole 8-row groups)."""
    if -(-m // config.bm) % 2:
        return False
    return mn_boxes_halve(config.bn, b_bits) if b_mn_major else config.bn % 16 == 0


def pair_open(schedule: str | None = None, raster: int | None = None, cluster: int | None = None) -> bool:
    """Whether what is asked (None or "auto", -1: nothing) leaves a global split free to be
    paired (`paired_split`): no cluster given, the warp-specialised schedule, an even raster
    group."""
    return (cluster is None and schedule in (None, "auto", "warp_specialized")
            and (raster is None or raster == -1 or (raster >= 2 and raster % 2 == 0)))


def paired_split(m: int, n: int, k: int, choice: Choice, a: str, b: str, acc: str, *, b_mn_major: bool,
                 batch: int = 1) -> Choice | None:
    """`choice` (a split through global memory) run in clusters of 2 sharing B's loads,
    one rank's CTAs of two tile rows a pair, with the deepest ring up to PAIRED_MAX_STAGES
    that leaves room for the TMA-store epilogue's staging; None where it does not apply:
    not a global split, unsplit tiles first, not 128-row tiles, a batch, an odd number of
    tile rows, B's boxes not halved (`pair_fits`), no deeper ring than the split's (128 x
    256 in 4 stages: 1024 x 1024 x 32768 split 4 ran 94% of cuBLAS paired, 97% not).

    Why: the suite's long-K splits (128 CTAs of 128 x 128, K / 8 each) read L2 as fast as
    it serves (ncu); pairing halves B's requests and the freed bandwidth feeds a deeper
    ring, as cuBLAS's own kernel there does (128 x 128, 6 stages, 2 x 1 clusters:
    bench/cublas_kernels.py): 80% -> 94% of cuBLAS at 256 x 1024 x 131072, 78% -> 88% at
    512 x 512 x 65536 (H200, docs/performance.md "Split-K in pairs sharing B")."""
    if choice.split_k == 1 or choice.reduce != "global" or choice.unsplit or batch != 1 or choice.config.bm != 128:
        return None
    if not pair_fits(m, choice.config, element_type(b).bits, b_mn_major):
        return None
    c = choice.config
    deeper = staged_depth(c.bm, c.bn, c.bk, a, b, acc, Arch.SM90A, most=PAIRED_MAX_STAGES)
    if deeper is None or deeper.stages <= c.stages:  # the pair pays through the deeper ring
        return None
    if choice.split_k not in valid_split_k(deeper, a, b, k, reduce="global"):
        return None
    return Choice(deeper, choice.split_k, "global", 0, cluster=2)


def fit_promoted(config: GemmConfig, a: str, b: str, acc: str, arch: Arch) -> GemmConfig:
    """`config` cut to the tile fp8's promoted accumulation holds (layout/fp8_accumulation.py),
    with the deepest ring that fits it."""
    bm, bn = min(config.bm, PROMOTED_MAX_BM), min(config.bn, PROMOTED_MAX_BN)
    if (bm, bn) == (config.bm, config.bn):
        return config
    return deepest(bm, bn, config.bk, a, b, acc, arch, most=max(config.stages, 4)) or config


def choose(m: int | None, n: int | None, k: int | None, a: str, b: str, acc: str, arch: Arch = Arch.SM90A,
           *, d: str = "bf16", batch: int | None = 1, machine: Machine = H100, split: bool = True,
           promoted: bool = False, reduces: tuple[str, ...] | None = None, b_mn_major: bool = False,
           groups: int = 1, split_given: bool = False, pair: bool = False, a_mn_major: bool = False) -> Choice:
    """The default kernel of an M x N x K GEMM (times `batch`; None: a size known only at
    launch): the cost model's fastest of `tile_configs`, each also split over K where
    `split_k_options` weighs it (`split`: a GEMM whose options leave split-K open; `reduces`:
    the ways of summing the partial tiles weighed, None: both), on sm_90a where every size
    is known; else `rule_config`, not split. `promoted` (fp8's promoted accumulation): only
    tiles whose two accumulators fit the registers. `b_mn_major`: B is MN-major (row-major
    K x N), which narrows the tiles weighed and slows some (`tile_configs`, `estimate`).
    `groups` (stream-K asked for in G groups): only tiles whose count G divides, where any
    does. `split_given` (split-K asked for): the rings a split keeps (4 stages of 128 rows).
    `pair` (nothing rules out a cluster of 2): a global split runs paired where
    `paired_split` applies. `a_mn_major`: A is MN-major (column-major M x K), which some
    measured prices do not hold for (`estimate`)."""
    if arch is not Arch.SM90A or m is None or n is None or k is None or batch is None:
        rule = rule_config(m, n, k, a, b, acc, arch)
        return Choice(fit_promoted(rule, a, b, acc, arch) if promoted else rule)
    configs = [c for c in tile_configs(m, n, a, b, acc, arch, b_mn_major)
               if (not promoted or promoted_tile_fits(c.bm, c.bn)) and (not split_given or split_ring(c))]
    if groups > 1 and any(c.tiles(m, n, batch) % groups == 0 for c in configs):
        configs = [c for c in configs if c.tiles(m, n, batch) % groups == 0]
    if not configs:
        rule = rule_config(m, n, k, a, b, acc, arch)
        return Choice(fit_promoted(rule, a, b, acc, arch) if promoted else rule)
    ways = tuple(r for r in (reduces if reduces is not None else REDUCES) if r in reduces_for(acc))
    choices = [Choice(c) for c in configs]
    if split:
        splittable = [c for c in configs if split_ring(c)]
        choices += [Choice(c, s, r) for c in splittable for r in ways
                    for s in split_k_options(m, n, k, c, a, b, batch, machine, r)]
        if "global" in ways:
            choices += [Choice(c, s, "global", f) for c in splittable for s, f in unsplit_options(m, n, k, c, a, b, batch, machine)]

    best = min(choices, key=lambda c: _cost(m, n, k, c, a, b, d, batch, machine, b_mn_major, a_mn_major))
    paired = paired_split(m, n, k, best, a, b, acc, b_mn_major=b_mn_major, batch=batch) if pair and not promoted else None
    return paired or best


def _cost(m: int, n: int, k: int, c: Choice, a: str, b: str, d: str, batch: int, machine: Machine,
          b_mn_major: bool, a_mn_major: bool = False) -> tuple[float, int, int, int, int, bool]:
    """How `choose` ranks a choice (the least first). The model's time; where HBM bounds
    several equally: unsplit, the most bytes in flight (the model's bandwidth is the
    H100's; on the H200 M = 127 x 11008 x 4096 ran 99% of cuBLAS in 6 stages of 128 x 96 and
    89% in 5 of 128 x 160, both capped alike; split 8 ways, 256 x 1024 x 131072 ran 85% in
    128 x 128 tiles and 71% in 64 x 256 ones, which keep more in flight but re-read more
    through L2), then the fewest CTAs (the least re-reading through L2), the deepest ring
    (measured on the suite's decoding shapes), unsplit first, a cluster's split before the
    global one (no workspace)."""
    e = estimate(m, n, k, c.config, a, b, d, batch, machine, c.split_k, c.reduce, c.unsplit, b_mn_major, a_mn_major)  # type: ignore[arg-type]
    return (e.seconds, -e.in_flight if c.split_k == 1 else 0, e.ctas, -c.config.stages, c.split_k, c.reduce == "global")


def staging_fits(config: GemmConfig, a: str, b: str) -> bool:
    """The ring leaves room after it for its consumer warpgroups' staging pieces of the
    TMA-store epilogue (`staged_depth`'s test)."""
    start = -(-config.smem_bytes(a, b) // PIECE_ALIGN) * PIECE_ALIGN
    return start + staging_bytes(max(1, config.bm // 64)) <= SMEM_CAPACITY


def d_transposed_storable(m: int, n: int, d: str, acc: str, *, with_c: bool = False, d_ld: int | None = None) -> bool:
    """Whether the TMA-store epilogue can store D^T of an M x N GEMM into a row-major D
    (leading dimension `d_ld`, None: N) in transposed pieces (layout/epilogue.py
    `tma_store_problem`, the lowering's own test)."""
    return tma_store_problem(d, acc, with_c=with_c, row_major=False, rows=n, cols=m, ld=n if d_ld is None else d_ld) is None


def swapped_tile(m: int, n: int, k: int, a: str, b: str, acc: str, *, d: str, staged: bool, split: int = 1,
                 machine: Machine = H100, b_mn_major: bool = True, promoted: bool = False) -> GemmConfig:
    """The tile of an M x N x K GEMM computed swapped (the swapped problem is N x M x K;
    `a`, `b` the original operands' types): a decoding M (<= SWAP_MAX_M) `swap_config`'s;
    else the model's fastest unsplit tile of the swapped problem (`tile_configs`, ranked by
    `_cost`), with room for the TMA-store epilogue's staging pieces where `staged` and a
    ring a split keeps where K is split (`split` > 1). `b_mn_major`: the original B is MN-major (row-
    major K x N), so the swapped kernel's A, B^T, is too (`estimate`'s `a_mn_major`)."""
    if m <= SWAP_MAX_M:  # swap_config takes the swapped problem's types
        return swap_config(m, n, b, a, acc, machine, staged=staged, promoted=promoted, k=k, split=split)
    configs = [c for c in tile_configs(n, m, b, a, acc) if (not staged or staging_fits(c, b, a)) and (split == 1 or split_ring(c))]
    if not configs:
        return swap_config(m, n, b, a, acc, machine, bm=128, staged=staged, promoted=promoted, k=k, split=split)
    return min(configs, key=lambda c: _cost(n, m, k, Choice(c), b, a, d, 1, machine, False, a_mn_major=b_mn_major))


def wide_swap(m: int, n: int, k: int, a: str, b: str, acc: str, *, d: str, b_mn_major: bool, a_mn_major: bool = False,
              with_c: bool = False, batch: int = 1, d_row_major: bool = True, d_ld: int | None = None, split: bool = True,
              machine: Machine = H100) -> GemmConfig | None:
    """The swapped kernel's configuration (the swapped problem is N x M x K) where the model
    prices D^T = B^T A^T faster than the default unswapped kernel, else None: past the
    decoding swap (M > SWAP_MAX_M), for a 16-bit B that is MN-major (row-major K x N) with A
    K-major, one matrix, and a row-major D (`d_row_major`: else D^T is the argument itself,
    with nothing to store transposed) that the TMA-store epilogue can store transposed
    (`d_transposed_storable`: no C, 16-bit, rows of whole 16-byte chunks, `d_ld` its leading
    dimension, None: N). `split`: whether the unswapped default may split K (the pass's
    `_split_open`).

    An MN-major B gets only the widths whose rows are whole swizzle rows, some read slower
    (`tile_configs`, TILE_EFFICIENCY_MN_MAJOR); swapped, B^T is wgmma's A (MN-major, 64 or
    128 rows: the 128-byte swizzle) and A^T a K-major B of any width, and the TMA-store
    epilogue stages D^T transposed. Unsplit only, with room for the staging pieces (a split
    or a register epilogue would store D^T down D's columns: `swapped_tile`). Ranked as
    `choose` ranks (`_cost`): on the H200 the model's picks ran 1536^3 86% -> 102% of cuBLAS
    (128 x 144 over M, 5 stages), 5120^3 97% -> 101%, 127 x 11008 x 4096 92% -> 99%,
    2048 x 5120 x 5120 95% -> 97% (docs/performance.md, "Swap-AB for a row-major B")."""
    if (not b_mn_major or a_mn_major or batch != 1 or m <= SWAP_MAX_M or element_type(b).bits != 16 or not d_row_major
            or not d_transposed_storable(m, n, d, acc, with_c=with_c, d_ld=d_ld)):
        return None
    plain = choose(m, n, k, a, b, acc, d=d, machine=machine, b_mn_major=True, split=split)
    best = Choice(swapped_tile(m, n, k, a, b, acc, d=d, staged=True, machine=machine))
    if not staging_fits(best.config, b, a):
        return None

    def key(mm: int, nn: int, c: Choice, ta: str, tb: str, mn_major: bool) -> tuple[float, float]:
        # where HBM bounds both alike, the one whose tiles compute faster (127 x 11008 x 4096:
        # 6 stages of 128 x 96 with B MN-major ran 92% of cuBLAS, swapped 128 x 128 99%)
        e = estimate(mm, nn, k, c.config, ta, tb, d, 1, machine, c.split_k, c.reduce, c.unsplit, mn_major, not mn_major)
        return e.seconds, e.compute_s

    return best.config if key(n, m, best, b, a, False) < key(m, n, plain, a, b, True) else None


def choose_config(m: int | None, n: int | None, k: int | None, a: str, b: str, acc: str, arch: Arch = Arch.SM90A,
                  *, d: str = "bf16", batch: int | None = 1, machine: Machine = H100, promoted: bool = False,
                  b_mn_major: bool = False, groups: int = 1, split_given: bool = False, a_mn_major: bool = False) -> GemmConfig:
    """The default configuration of a GEMM that the chooser does not split over K (`choose`)."""
    return choose(m, n, k, a, b, acc, arch, d=d, batch=batch, machine=machine, split=False, promoted=promoted,
                  b_mn_major=b_mn_major, groups=groups, split_given=split_given, a_mn_major=a_mn_major).config


def prefer_persistent(m: int, n: int, config: GemmConfig, batch: int = 1, machine: Machine = H100) -> bool:
    """Whether the default kernel is persistent (where it can be): where the tiles make more
    than one wave, so each CTA's next tile's loads overlap its last one's epilogue. With at
    most one wave there is nothing to overlap, and a plain grid starts sooner (measured on
    the suite: bench/gemm_tune_suite.py)."""
    return config.tiles(m, n, batch) > machine.sms


def _round_up(x: int, to: int) -> int:
    return -(-x // to) * to


__all__ = ["default_multicast", "DEEP_TILE", "L2_LINE_BYTES", "MAX_STAGES", "MN_BOX_BYTES", "UNSPLIT_MAX_WAVES", "SM90_TILES", "STAGED_MAX_STAGES", "WIDE_BNS", "Choice", "PAIRED_MAX_STAGES", "choose", "pair_fits", "pair_open", "paired_split", "choose_config", "deepest", "split_ring", "staged_depth", "staging_fits", "swapped_tile", "d_transposed_storable", "wide_swap", "fit_promoted", "mn_boxes", "mn_boxes_halve", "multicast_fits", "prefer_multicast", "prefer_persistent",
           "split_k_options", "tile_configs", "unsplit_options"]
