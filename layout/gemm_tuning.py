"""The configurations a tuner tries for one GEMM: tile shapes, ring depths and schedule
options that the tensor core, shared memory and the kernel allow for the problem, pruned
to those that could win.

Plain data (no xDSL, no CUDA): the tuner (lowering/api/tuning.py, `lower-tc run --tune`)
compiles and times each candidate on the device, and bench/gemm_tune_suite.py times them
over issue 22's suite, which is where the default chooser's rules (layout/gemm.py) come from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lower_tc.layout.dtypes import element_type
from lower_tc.layout.gemm import GemmConfig, choose_config, config_problem
from lower_tc.layout.targets import Arch

#: Streaming multiprocessors of the H100 SXM: one wave of CTAs (one CTA per SM: a GEMM's
#: ring fills most of an SM's shared memory).
H100_SMS = 132

#: (BM, BN) tiles tried on sm_90a, from the most reuse of shared memory to the most CTAs.
SM90_TILES = ((128, 256), (128, 192), (128, 128), (64, 256), (64, 128), (128, 64), (64, 64))
#: The deepest ring tried (small tiles: more bytes in flight per SM where memory-bound).
MAX_STAGES = 8


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


def tiles(m: int, n: int, bm: int, bn: int, batch: int = 1) -> int:
    """Output tiles (CTAs of a non-persistent grid) of an M x N problem."""
    return batch * -(-m // bm) * -(-n // bn)


def wave_efficiency(ctas: int, sms: int = H100_SMS) -> float:
    """The share of the SMs' time busy when `ctas` equal CTAs run in whole waves of `sms`:
    2.2 waves take 3 wave-times (73% busy)."""
    waves = -(-ctas // sms)
    return ctas / (waves * sms)


def deepest(bm: int, bn: int, bk: int, a: str, b: str, acc: str, arch: Arch, most: int = MAX_STAGES) -> GemmConfig | None:
    """The configuration with the most stages (up to `most`) that fits, or None."""
    for stages in range(most, 1, -1):
        config = GemmConfig(bm, bn, bk, stages)
        if config_problem(config, a, b, acc, arch) is None:
            return config
    return None


def candidates(m: int, n: int, k: int, a: str, b: str, acc: str, arch: Arch = Arch.SM90A, batch: int = 1) -> list[Candidate]:
    """What a tuner tries, the default chooser's choice first (with no options: exactly
    the default kernel). On sm_90a: each tile of SM90_TILES that the problem does not
    leave mostly empty (BM at most M rounded up to 64, BN at most N rounded up to 64),
    with the deepest ring up to 4 stages and, for tiles of at most 64 x 128, the deepest
    up to MAX_STAGES; each persistent (the default where sizes are static) and not.
    sm_100a: the chooser's (its tiles are fixed at BM = 128) with BN 128 and 256."""
    first = Candidate(choose_config(m, n, k, a, b, acc, arch))
    found = [first]

    def add(c: Candidate) -> None:
        if c not in found:
            found.append(c)

    bk = 128 * 8 // element_type(a).bits
    if arch is Arch.SM100A:
        for bn in (128, 256):
            config = deepest(128, bn, bk, a, b, acc, arch, most=4)
            if config is not None:
                add(Candidate(config))
        return found
    for bm, bn in SM90_TILES:
        if bm > _round_up(m, 64) or bn > _round_up(n, 64):
            continue
        configs = {deepest(bm, bn, bk, a, b, acc, arch, most=4)}
        if bm * bn <= 64 * 128:
            configs.add(deepest(bm, bn, bk, a, b, acc, arch))
        for config in sorted((c for c in configs if c is not None), key=lambda c: c.stages):
            add(Candidate(config))
            add(Candidate(config, (("persistent", False),)))
    return found


def _round_up(x: int, to: int) -> int:
    return -(-x // to) * to


__all__ = ["Candidate", "H100_SMS", "MAX_STAGES", "SM90_TILES", "candidates", "deepest", "tiles", "wave_efficiency"]
