"""The candidates a tuner times for one GEMM: the default kernel first, then every
configuration the default chooser weighs (layout/gemm_choice.py `tile_configs`), each
persistent and not, and split over K where the chooser weighs that (`split_k_options`),
through a cluster and through global memory, and with the last wave's tiles split after
whole ones (`unsplit_options`).

Plain data (no xDSL, no CUDA): the tuner (lowering/api/tuning.py, `lower-tc run --tune`)
compiles and times each candidate on the device, and bench/gemm_tune_suite.py times them
over issue 22's suite, which is where the default chooser's model is fitted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lower_tc.layout.fp8_accumulation import promoted_tile_fits
from lower_tc.layout.gemm import GemmConfig, config_problem
from lower_tc.layout.gemm_choice import (WIDE_BNS, choose, default_multicast, few_tiles_ring, prefer_persistent, prefer_swap,
                                         split_k_options, split_ring, staging_fits, swap_config, swap_longer_step, tile_configs,
                                         unsplit_options, wide_swap)
from lower_tc.layout.split_k import reduces_for
from lower_tc.layout.stream_k import stream_k_problem
from lower_tc.layout.targets import Arch


@dataclass(frozen=True)
class Candidate:
    """One way to run the GEMM: a tile configuration and tc.matmul options (name, value)
    besides it; `()` keeps every default."""

    config: GemmConfig
    options: tuple[tuple[str, object], ...] = field(default=())

    @property
    def option_dict(self) -> dict[str, object]:
        return dict(self.options)

    def label(self) -> str:
        """e.g. "128x256x64/4" or "64x128x64/8 persistent=False"."""
        c = self.config
        text = f"{c.bm}x{c.bn}x{c.bk}/{c.stages}"
        return " ".join([text, *(f"{k}={v}" for k, v in self.options)])

    @classmethod
    def parse(cls, label: str) -> Candidate:
        """The candidate `label` names ("128x144x64/4 persistent=True": the inverse of
        `label`); a ValueError says what is malformed."""
        words = label.split()
        found = re.fullmatch(r"(\d+)x(\d+)x(\d+)/(\d+)", words[0]) if words else None
        if found is None:
            raise ValueError(f"{label!r}: a candidate starts with BMxBNxBK/STAGES, e.g. 128x144x64/4")
        options: list[tuple[str, object]] = []
        for word in words[1:]:
            key, eq, text = word.partition("=")
            if not eq or not key or not text:
                raise ValueError(f"{label!r}: {word!r} is not an option=value")
            value: object = {"True": True, "False": False}.get(text, int(text) if text.isdigit() else text)
            options.append((key, value))
        return cls(GemmConfig(*(int(g) for g in found.groups())), tuple(options))


def candidates(m: int, n: int, k: int, a: str, b: str, acc: str, arch: Arch = Arch.SM90A, *, d: str = "bf16",
               batch: int = 1, promoted: bool = False, b_row_bytes: int | None = None, b_mn_major: bool = False,
               a_mn_major: bool = False, with_c: bool = False, d_row_major: bool = True, d_ld: int | None = None,
               pair: bool = True) -> list[Candidate]:
    """What a tuner tries: the default kernel first (its configuration, split-K and
    persistence as by default: the same kernel as none given), then each of `tile_configs`
    persistent and not, and split over K by each of its `split_k_options` (not
    persistent; the 128-row tiles of WIDE_BNS and the deeper rings only unsplit; where
    the default pairs a global split's CTAs to share B, `paired_split`, the same split
    unpaired among them; `pair`: what the caller gives leaves the pair open, `pair_open`). sm_100a: the default's tile with BN 128 and 256 (its BM is 128), options
    left out. `promoted` (fp8's promoted accumulation): only the tiles it holds. Where the
    default swaps (a decoding GEMM, `prefer_swap`), it and the swapped kernel's other row
    counts, cluster splits and K steps twice as long (`swap_longer_step`) come first
    (swap_ab = true; their configurations are the swapped problem's), then the unswapped candidates; where it swaps a row-major B
    (`wide_swap`: A K-major, not `a_mn_major`, no C, `with_c`, a row-major D, `d_row_major`,
    of leading dimension `d_ld` (None: N) that D^T can be stored into), it and the other swapped 128-row tiles
    with room for the TMA-store epilogue's staging come first. Where the default pairs CTAs to
    share B (`default_multicast`: B's rows, `b_row_bytes` apart and MN-major where
    `b_mn_major`, are not whole L2 lines), that kernel comes first (cluster = 2), then the
    others (one CTA each)."""
    chosen = choose(m, n, k, a, b, acc, arch, d=d, batch=batch, promoted=promoted, b_mn_major=b_mn_major,
                    pair=arch is Arch.SM90A and pair, a_mn_major=a_mn_major)
    first = chosen.config
    leading: list[Candidate] = []  # the default's own kind first: swapped, or paired
    if arch is Arch.SM90A and prefer_swap(m, n, batch):
        default = swap_config(m, n, b, a, acc, promoted=promoted, k=k)
        leading = [Candidate(default, (("swap_ab", True),))]
        for bm in (64, 128):
            for split in (1, 2):
                config = swap_config(m, n, b, a, acc, bm=bm, promoted=promoted, k=k, split=split)
                options: tuple[tuple[str, object], ...] = (("swap_ab", True),) + ((("split_k", split),) if split > 1 else ())
                if Candidate(config, options) not in leading:
                    leading.append(Candidate(config, options))
            longer = swap_longer_step(swap_config(m, n, b, a, acc, bm=bm, promoted=promoted, k=k), b, a, acc, promoted)
            if longer is not None and Candidate(longer, (("swap_ab", True),)) not in leading:  # K steps twice as long, unsplit
                leading.append(Candidate(longer, (("swap_ab", True),)))
    elif arch is Arch.SM90A and not promoted and batch == 1:
        wide = wide_swap(m, n, k, a, b, acc, d=d, b_mn_major=b_mn_major, a_mn_major=a_mn_major, with_c=with_c,
                         d_row_major=d_row_major, d_ld=d_ld)
        if wide is not None:  # a row-major B swapped: the default, then the other swapped 128-row tiles
            leading = [Candidate(wide, (("swap_ab", True),))]
            for config in tile_configs(n, m, b, a, acc):
                if config.bm == 128 and staging_fits(config, b, a) and Candidate(config, (("swap_ab", True),)) not in leading:
                    leading.append(Candidate(config, (("swap_ab", True),)))
    if arch is not Arch.SM90A:
        found = [Candidate(first)]
        for bn in (128, 256):
            config = GemmConfig(first.bm, bn, first.bk, first.stages)
            if config != first and config_problem(config, a, b, acc, arch) is None:
                found.append(Candidate(config))
        return found
    paired = default_multicast(m, n, k, a, b, acc, b_row_bytes, b_mn_major, batch) if not leading and not promoted else None
    if paired is not None:
        leading = [Candidate(paired, (("cluster", 2), ("persistent", prefer_persistent(m, n, paired, batch))))]
    if chosen.split_k > 1:
        unsplit = (("unsplit", chosen.unsplit),) if chosen.unsplit else ()
        split = (("persistent", False), ("split_k", chosen.split_k), ("reduce", chosen.reduce))
        found = [*leading, Candidate(first, split + unsplit + ((("cluster", 2),) if chosen.cluster == 2 else ()))]
    else:
        found = [*leading, Candidate(first, (("persistent", prefer_persistent(m, n, first, batch)),))]

    def add(c: Candidate) -> None:
        if c not in found:
            found.append(c)

    for config in tile_configs(m, n, a, b, acc, arch, b_mn_major):
        if promoted and not promoted_tile_fits(config.bm, config.bn):
            continue
        add(Candidate(config, (("persistent", True),)))
        add(Candidate(config, (("persistent", False),)))
        if (config.bm == 128 and config.bn in WIDE_BNS) or not split_ring(config):
            continue  # the widths between and the deeper rings: unsplit only (the default's split is first above)
        for reduce in reduces_for(acc):
            for s in split_k_options(m, n, k, config, a, b, batch, reduce=reduce):
                add(Candidate(config, (("persistent", False), ("split_k", s), ("reduce", reduce))))
        if "global" in reduces_for(acc):
            for s, f in unsplit_options(m, n, k, config, a, b, batch):
                add(Candidate(config, (("persistent", False), ("split_k", s), ("reduce", "global"), ("unsplit", f))))
            for groups in stream_k_groups(m, n, k, config, batch):
                add(Candidate(config, (("stream_k", groups),)))
    deep = few_tiles_ring(m, n, a, b, acc, batch) if m > 64 or not prefer_swap(m, n, batch) else None
    if deep is not None and deep.stages > 8:  # under a wave: 64 x 64 in 12 stages, unsplit and split through global memory
        add(Candidate(deep, (("persistent", False),)))
        for s in split_k_options(m, n, k, deep, a, b, batch, reduce="global"):
            add(Candidate(deep, (("persistent", False), ("split_k", s), ("reduce", "global"))))
    return found


def stream_k_groups(m: int, n: int, k: int, config: GemmConfig, batch: int = 1, raster: int = 8) -> tuple[int, ...]:
    """The stream-K groups worth timing for this tile (layout/stream_k.py): one group, and
    one per tile row where a column's 2 to `raster` tile rows follow each other in the walk
    (one matrix), so the CTAs reading one of B's column blocks read it together."""
    tiles, kt, rows = config.tiles(m, n, batch), -(-k // config.bk), -(-m // config.bm)
    out = [1] + ([rows] if batch == 1 and 2 <= rows <= raster else [])
    return tuple(g for g in out if stream_k_problem(tiles, kt, g) is None)


__all__ = ["Candidate", "candidates", "stream_k_groups"]
