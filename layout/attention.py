"""Attention's problem and its blocks (pure data, no xDSL): what `tc.attention` computes
and the loop level's block sizes for it (docs/attention.md, "The op level")."""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.limits import SMEM_CAPACITY

#: Head dims the loop level is built and checked for.
HEAD_DIMS = (64, 128, 256)


@dataclass(frozen=True)
class AttentionProblem:
    """Q and O (batch, heads, sq, d), K and V (batch, kv_heads, sk, d), and the options;
    `batch` 1 where the tensors are (heads, sequence, head dim)."""

    heads: int
    kv_heads: int
    sq: int
    sk: int
    d: int
    dtype: str
    causal: bool
    scale: float
    lse: bool
    batch: int = 1


@dataclass(frozen=True)
class AttentionBlocks:
    """A CTA's queries (BM, 64 a consumer warpgroup), an iteration's keys (BN), and the
    K/V ring's stages."""

    bm: int
    bn: int
    stages: int

    def smem_bytes(self, d: int, bits: int = 16, staged_v: bool = False) -> int:
        """Q's tile and the ring's K and V tiles (and, with `staged_v`, V's MN-major tiles
        as loaded, before their transposition: 8-bit V with its head dim contiguous)."""
        return d * bits // 8 * (self.bm + (3 if staged_v else 2) * self.bn * self.stages)


#: The blocks by head dim, as measured on the H100 (docs/attention.md, "Speed"; the study
#: `python bench/attention_loop.py --tune`): D = 64 in 192-query blocks (three consumer
#: warpgroups) of 64 keys on four stages; D = 128 in 128 x 128 on three (the overlap
#: releases a stage a block late); D = 256 in 128 x 64 on two (its O takes 128 registers
#: a thread).
DEFAULT_BLOCKS = {64: AttentionBlocks(192, 64, 4), 128: AttentionBlocks(128, 128, 3), 256: AttentionBlocks(128, 64, 2)}
#: 8-bit Q, K and V (fp8 attention): the element types, and the blocks by head dim. An 8-bit
#: tile holds twice the keys of a 16-bit one in the same bytes: D = 64 in 192 x 128 on four
#: stages, D = 128 in 128 x 128 on four, D = 256 the 16-bit blocks (O's registers bound it)
#: on three stages: each the best of the shapes that assemble, or within 1% of it
#: (bench/attention_loop.py --fp8-tune on the H200: docs/attention.md, "fp8 attention at the
#: loop level").
FP8_TYPES = ("e4m3", "e5m2")
#: O's types where Q, K and V are 8-bit.
FP8_OUT_TYPES = ("bf16", "f16")
FP8_BLOCKS = {64: AttentionBlocks(192, 128, 4), 128: AttentionBlocks(128, 128, 4), 256: AttentionBlocks(128, 64, 3)}


#: The tcgen05 attention loop's blocks (sm_100a: one warpgroup, 128 queries, a thread a
#: row, S, P and O in tensor memory): 128 keys a block where the stages fit (D = 64 on four,
#: 128 on three), 64 at D = 256 on two; O (D columns), S (BN) and P (BN / 2) take 256
#: columns of tensor memory at D = 64 and 512 beyond. Chosen to fit, not measured: no
#: Blackwell GPU is lent.
TCGEN05_BLOCKS = {64: AttentionBlocks(128, 128, 4), 128: AttentionBlocks(128, 128, 3), 256: AttentionBlocks(128, 64, 2)}


def default_blocks(p: AttentionProblem, tcgen05: bool = False) -> AttentionBlocks:
    """The blocks for `p` (its head dim's and type's; the verifier refused other head
    dims), on tcgen05 (sm_100a) where `tcgen05`."""
    fp8 = p.dtype in FP8_TYPES
    assert not (fp8 and tcgen05)  # the verifier refuses 8-bit attention on sm_100a
    blocks = (TCGEN05_BLOCKS if tcgen05 else FP8_BLOCKS if fp8 else DEFAULT_BLOCKS)[p.d]
    assert blocks.smem_bytes(p.d, 8 if fp8 else 16, staged_v=fp8) + 64 + 8 * blocks.stages <= SMEM_CAPACITY
    return blocks


__all__ = ["DEFAULT_BLOCKS", "FP8_BLOCKS", "TCGEN05_BLOCKS", "FP8_OUT_TYPES", "FP8_TYPES", "HEAD_DIMS", "AttentionBlocks", "AttentionProblem", "default_blocks"]
