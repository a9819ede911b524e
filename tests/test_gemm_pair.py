"""The CTA-pair tcgen05 GEMM (sm_100a, `cluster = 2`: tcgen05.mma.cta_group::2, M = 256).

No Blackwell GPU is lent, so these check what can be checked without one: the shape rules
of the pair's MMA, the IR the op level expands to, the PTX's structure (every tcgen05
instruction in the pair form, the barriers and their counts) and, for a slice of the
sweep, that ptxas keeps the 2-CTA instructions in the SASS.
"""

from __future__ import annotations

import re
import sys

import pytest

from conftest import ROOT
from lower_tc.layout import LayoutError
from lower_tc.layout.instr_desc import InstrDescriptor
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import EXPECTED_SASS, check_sass, disassemble, find_disassembler

sys.path.insert(0, str(ROOT / "bench"))
from gemm_sweep import GemmCase, tcgen05_pair_cases  # noqa: E402

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")

PAIR = 'schedule = "warp_specialized", cluster = 2'


# -- the pair's MMA shapes ---------------------------------------------------------------


@pytest.mark.parametrize("a,d,n,ok", [
    ("bf16", "f32", 256, True), ("bf16", "f32", 16, True), ("bf16", "f32", 24, False),
    ("tf32", "f32", 48, True), ("e4m3", "f32", 32, True), ("e4m3", "f32", 48, False),
    ("s8", "s32", 64, True), ("s8", "s32", 16, False), ("bf16", "f32", 272, False),
])
def test_pair_mma_shapes(a: str, d: str, n: int, ok: bool) -> None:
    """M = 256 is the pair's MMA: N steps by 16 (f16, tf32) or 32 (f8f6f4, i8) up to 256."""
    desc = InstrDescriptor(a, a, d, 256, n)
    if not ok:
        with pytest.raises(LayoutError, match="cta_group::2"):
            desc.encode()
        return
    value = desc.encode()
    assert (value >> 24) & 0x1F == 256 >> 4 and (value >> 17) & 0x3F == n >> 3
    back = InstrDescriptor.decode(value, desc.kind)
    assert (back.m, back.n, back.cta_group) == (256, n, 2)


def test_single_cta_shapes_stay_as_they_were() -> None:
    assert InstrDescriptor("bf16", "bf16", "f32", 128, 24).cta_group == 1
    for m in (32, 192, 512):
        with pytest.raises(LayoutError, match="M = 64 or 128"):
            InstrDescriptor("bf16", "bf16", "f32", m, 64).encode()


# -- what the op level becomes -----------------------------------------------------------


def _pair(m: int = 1000, n: int = 1000, k: int = 1000, a: str = "bf16", acc: str = "f32", d: str = "bf16",
          b_row: bool = True, config=None, options: str = PAIR) -> GemmCase:
    return GemmCase(a, a, acc, d, m, n, k, True, b_row, config, target="sm_100a", options=options)


def _ptx(case: GemmCase, assemble: bool = False):
    return compile_source(case.source(), case.name, assemble=assemble)[0]


@pytest.mark.parametrize("config,bn", [(None, None), ((128, 256, 128, 3), 256), ((128, 64, 64, 2), 64)])
def test_pair_kernel_structure(config, bn) -> None:
    """Every tcgen05 instruction is the pair's (cta_group::2); the cluster is two CTAs; the
    leader expects both CTAs' bytes; loads complete the leader's barrier (mapa); the MMA
    is M = 256 over the whole BN while each CTA loads half of B's columns."""
    kernel = _ptx(_pair(config=config))
    ptx, info = kernel.ptx, kernel.info
    bn = bn or info.gemm.config.bn
    assert info.cluster == (2, 1, 1) and info.threads == 256
    assert ".reqnctapercluster 2, 1, 1" in ptx
    tcgen05 = re.findall(r"tcgen05\.(alloc|relinquish_alloc_permit|dealloc|mma|commit)\.(cta_group::\d)", ptx)
    assert {op for op, _ in tcgen05} == {"alloc", "relinquish_alloc_permit", "dealloc", "mma", "commit"}
    assert {group for _, group in tcgen05} == {"cta_group::2"}
    # each CTA loads A's 128 rows and half of B's BN columns; the leader expects both CTAs'
    per_cta = 128 * info.gemm.config.bk * 2 + (bn // 2) * info.gemm.config.bk * 2
    assert re.findall(r"mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[[^]]+\], (\d+);", ptx) == [str(2 * per_cta)]
    loads = re.findall(r"cp\.async\.bulk\.tensor\.2d(\.cta_group::2)?\.shared::cluster", ptx)
    assert loads and all(loads)
    assert "mapa.shared::cluster.u32" in ptx
    commits = re.findall(r"tcgen05\.commit\.cta_group::2\.mbarrier::arrive::one\.shared::cluster\.multicast::cluster\.b64 \[[^]]+\], %h\d+;", ptx)
    assert len(commits) == 2  # each stage's release, the tile's acc_full
    idesc = int(re.search(r"tcgen05\.mma\.cta_group::2\.kind::f16 \[%r\d+\], %rd\d+, %rd\d+, (%r\d+)", ptx).group(1)[2:])  # type: ignore[union-attr]
    value = int(re.search(rf"mov\.u32 %r{idesc}, (\d+);", ptx).group(1))  # type: ignore[union-attr]
    assert ((value >> 24) & 0x1F) << 4 == 256 and ((value >> 17) & 0x3F) << 3 == bn
    # acc_empty counts both CTAs' epilogue threads
    assert re.search(r"mbarrier\.init\.shared::cta\.b64 \[%r\d+\+\d+\], 256;", ptx)
    # the exit: every thread at the cluster barrier, then the dealloc
    tail = ptx[ptx.rindex("$L_exit"):]
    assert tail.index("barrier.cluster.wait") < tail.index("tcgen05.dealloc.cta_group::2")


def test_pair_ir_splits_b_between_the_ctas() -> None:
    """The loop level: B's tile is BN/2 columns at n0 + (block mod 2) BN/2, and the MMA is
    marked cta_pair with the 128 x BN accumulator."""
    from lower_tc.lowering.compile import parse
    from lower_tc.passes.expand_matmul import ExpandMatmulPass

    ctx, module = parse(_pair(config=(128, 256, 128, 3)).source())
    ExpandMatmulPass().apply(ctx, module)
    text = str(module)
    assert "cta_pair" in text and "!tc.acc<128x256xf32>" in text
    assert re.search(r"tc\.window_load %\w+\[%k, %n0_half\] to %b", text)
    assert "!tc.tile<128x64xbf16" in text  # B: 128 = 256 / 2 columns, 64 K


@pytest.mark.parametrize("options,why", [
    ('cluster = 2', "warp-specialised schedule"),
    ('schedule = "warp_specialized", cluster = 2, raster = 3', "even raster group"),
    ('schedule = "warp_specialized", cluster = 2, raster = 0', "even raster group"),
])
def test_pair_refusals(options: str, why: str) -> None:
    with pytest.raises(Exception, match=why):
        _ptx(_pair(options=options))


def test_odd_tile_rows_are_refused() -> None:
    with pytest.raises(Exception, match=r"even number of tile rows \(here 9\)"):
        _ptx(_pair(m=1100))


# -- ptxas and SASS -----------------------------------------------------------------------

PAIR_SASS = {"bf16": "UTCHMMA.2CTA", "f16": "UTCHMMA.2CTA", "tf32": "UTCHMMA.2CTA",
             "e4m3": "UTCQMMA.2CTA", "e5m2": "UTCQMMA.2CTA", "s8": "UTCIMMA.2CTA"}


@needs_ptxas
@pytest.mark.parametrize("case", tcgen05_pair_cases()[::29], ids=lambda c: c.name)
def test_ci_slice_of_the_pair_gemm_assembles(case: GemmCase) -> None:
    """ptxas keeps the pair's instructions: the 2-CTA MMA of the kind, the pair's TMA loads,
    the multicast commits, the elected MMA thread and the epilogue's tensor-memory loads."""
    kernel = _ptx(case, assemble=True)
    if find_disassembler() is None:
        pytest.skip("no nvdisasm/cuobjdump: pip install 'lower-tc[test]'")
    sass = disassemble(kernel.cubin)
    want = [PAIR_SASS[case.a], "UTMALDG.2D.2CTA", "UTCBAR.2CTA.MULTICAST", "ELECT", "LDTM"]
    assert check_sass(sass, want) == []
    assert check_sass(sass, EXPECTED_SASS["tma"]) == []
