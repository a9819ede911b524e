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

    def smem_bytes(self, d: int, bits: int = 16) -> int:
        """Q's tile and the ring's K and V tiles."""
        return d * bits // 8 * (self.bm + 2 * self.bn * self.stages)


#: The blocks by head dim, as measured on the H100 (docs/attention.md, "Speed"; the study
#: `python bench/attention_loop.py --tune`): D = 64 in 192-query blocks (three consumer
#: warpgroups) of 64 keys on four stages; D = 128 in 128 x 128 on three (the overlap
#: releases a stage a block late); D = 256 in 128 x 64 on two (its O takes 128 registers
#: a thread).
DEFAULT_BLOCKS = {64: AttentionBlocks(192, 64, 4), 128: AttentionBlocks(128, 128, 3), 256: AttentionBlocks(128, 64, 2)}


def default_blocks(p: AttentionProblem) -> AttentionBlocks:
    """The blocks for `p` (its head dim's; the verifier refused other head dims)."""
    blocks = DEFAULT_BLOCKS[p.d]
    assert blocks.smem_bytes(p.d) + 64 <= SMEM_CAPACITY
    return blocks


__all__ = ["DEFAULT_BLOCKS", "HEAD_DIMS", "AttentionBlocks", "AttentionProblem", "default_blocks"]
