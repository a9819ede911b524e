"""The last wave's tiles split after whole ones (`split_k = S, reduce = "global", unsplit
= F`) without a GPU: the schedule's rules, the walk tc-expand-matmul writes (evaluated for
every CTA of the grid: each tile once, its K once), the located refusals at both levels,
the launch contract's workspace, the PTX (the unsplit CTAs' branch, the TMA store after
the sum, no spills) and the chooser's and the model's use of it.
tests/test_split_k_global_gpu.py and the GEMM sweep (`--match unsplit`) run it on the H100."""

from __future__ import annotations

import re
import subprocess
from collections import Counter

import pytest
from xdsl.dialects import arith, gpu, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

import lower_tc
from lower_tc.dialects.tc_schedule import GemmSchedule
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.gemm_choice import UNSPLIT_MAX_WAVES, choose, unsplit_options
from lower_tc.layout.gemm_model import H100, estimate
from lower_tc.layout.kernel_info import WorkspaceInfo
from lower_tc.layout.split_k import split_ctas, unsplit_problem, workspace_bytes
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.compile import compile_source
from lower_tc.passes.expand_matmul import ExpandMatmulPass

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")


def _op(m: int, n: int, k: int, options: str, config: str = "bm = 64, bn = 128, bk = 64, stages = 4", dims: str | None = None) -> str:
    """A tc.matmul of bf16 M x K by K x N (sizes known at compile time unless `dims`)."""
    a, b, d = (dims or f"{m}x{k}"), (dims or f"{k}x{n}"), (dims or f"{m}x{n}")
    cfg = f" config #tc.gemm_config<{config}>" if config else ""
    return (f'func.func @g(%A: memref<{a}xbf16>, %B: memref<{b}xbf16>, %D: memref<{d}xbf16>) attributes {{tc.target = "sm_90a"}} {{\n'
            f"  tc.matmul %A, %B to %D{cfg} {{{options}}} : memref<{a}xbf16>, memref<{b}xbf16>, memref<{d}xbf16>\n"
            "  func.return\n}\n")


def _refusal(text: str, name: str) -> str:
    """The located error the default pipeline gives for `text` (lower_tc.CompileError)."""
    module = lower_tc.parse(text, name)
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(module, lower_tc.default_pipeline())
    return str(err.value)


def _expanded(text: str) -> ModuleOp:
    module = lower_tc.parse(text, "g.mlir")
    lower_tc.run_passes(module, [ExpandMatmulPass()])
    return module


_FOLD = {arith.MinUIOp: min, arith.SubiOp: lambda a, b: a - b, arith.DivUIOp: lambda a, b: a // b,
         arith.RemUIOp: lambda a, b: a % b, arith.AddiOp: lambda a, b: a + b, arith.MuliOp: lambda a, b: a * b}


def _walk(module: ModuleOp) -> tuple[int, dict[int, tuple[int, int, int, int]]]:
    """(grid x, {block x: (m0, n0, k_lo, k_hi)}) of the expanded kernel, its index
    arithmetic evaluated in Python for every CTA."""
    func = next(iter(module.ops))
    grid = [e.value.data for e in func.attributes["tc.grid"].data]  # type: ignore[union-attr]
    assert grid[1:] == [1, 1]
    body = list(func.body.block.ops)  # type: ignore[attr-defined]
    loop = next(o for o in body if isinstance(o, scf.ForOp))
    store = next(o for o in body if o.name == "tc.window_store")
    out = {}
    for x in range(grid[0]):
        v: dict = {}
        for op in body:
            if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
                v[op.result] = op.value.value.data
            elif isinstance(op, gpu.BlockIdOp):
                v[op.result] = x if str(op.dimension.data).endswith("x") or getattr(op.dimension.data, "value", "") == "x" else 0
            elif type(op) in _FOLD:
                v[op.results[0]] = _FOLD[type(op)](v[op.operands[0]], v[op.operands[1]])
        out[x] = (v[store.operands[2]], v[store.operands[3]], v[loop.lb], v[loop.ub])
    return grid[0], out


# -- the rules ----------------------------------------------------------------------------


def test_the_schedule_takes_unsplit_only_with_the_global_split() -> None:
    assert GemmSchedule("warp_specialized", split_k=4, reduce="global", unsplit=132).problem() is None
    for s in (GemmSchedule(unsplit=3), GemmSchedule(split_k=4, unsplit=3)):
        problem = s.problem()
        assert problem is not None and problem[0] == "unsplit" and "with reduce = global" in problem[1]
    assert unsplit_problem(0, 1, "cluster", None) is None
    assert "leaves no tile to split: the GEMM has 25 tile(s)" in (unsplit_problem(25, 4, "global", 25) or "")
    assert "known at compile time" in (unsplit_problem(3, 4, "global", None) or "")


def test_the_attribute_prints_what_it_parses() -> None:
    text = _op(304, 520, 2056, 'split_k = 3, reduce = "global", unsplit = 20')
    module = _expanded(text)
    printed = str(module)
    assert "#tc.gemm_schedule<warp_specialized, split_k = 3, reduce = global, unsplit = 20>" in printed
    assert str(lower_tc.parse(printed, "again.mlir")) == printed


# -- the walk -----------------------------------------------------------------------------


@pytest.mark.parametrize(("m", "n", "k", "split", "unsplit"), [
    (304, 520, 2056, 3, 20),   # 5 x 5 tiles, K ragged
    (304, 520, 2056, 5, 1),    # one tile whole, 24 split
    (304, 520, 2056, 2, 24),   # all but the last whole
    (304, 520, 200, 4, 7),     # 4 K tiles for 4 CTAs
    (1000, 264, 640, 7, 30),   # 16 x 3 tiles, 10 K tiles over 7 ranks (uneven slices)
])
def test_every_tile_is_computed_once_and_its_k_once(m: int, n: int, k: int, split: int, unsplit: int) -> None:
    x, ctas = _walk(_expanded(_op(m, n, k, f'split_k = {split}, reduce = "global", unsplit = {unsplit}')))
    tiles = -(-m // 64) * -(-n // 128)
    k_end = -(-k // 64) * 64
    assert x == split_ctas(tiles, split, unsplit) == unsplit + split * (tiles - unsplit)
    steps: Counter = Counter()
    for bx, (m0, n0, lo, hi) in ctas.items():
        for kk in range(lo, hi, 64):
            steps[(m0, n0, kk)] += 1
        if bx < unsplit:  # a whole tile: all of K
            assert (lo, hi) == (0, k_end), bx
        else:  # the lowering's slot, rank and counter: x - F, (x - F) mod S, (x - F) / S
            first = unsplit + (bx - unsplit) // split * split
            assert ctas[first][:2] == (m0, n0)
            assert (bx - unsplit) % split == 0 or lo > 0 or hi == lo  # rank 0 starts at K = 0
    every = {(i * 64, j * 128, kk) for i in range(-(-m // 64)) for j in range(-(-n // 128)) for kk in range(0, k_end, 64)}
    assert set(steps) == every and set(steps.values()) == {1}
    assert len({c[:2] for c in ctas.values()}) == tiles


def test_the_last_wave_is_what_is_split() -> None:
    """The walk's last tiles are the split ones: the CTAs x >= F follow the whole tiles'
    grouped order, so the CTAs launched last are the split ones."""
    x, ctas = _walk(_expanded(_op(304, 520, 2056, 'split_k = 3, reduce = "global", unsplit = 20')))
    plain_x, plain = _walk(_expanded(_op(304, 520, 2056, "")))
    assert plain_x == 25
    assert [ctas[i][:2] for i in range(20)] == [plain[i][:2] for i in range(20)]
    assert [ctas[20 + 3 * j][:2] for j in range(5)] == [plain[20 + j][:2] for j in range(5)]


# -- the refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "config", "dims", "why"), [
    ('split_k = 3, reduce = "global", unsplit = 25', None, None, "leaves no tile to split: the GEMM has 25 tile(s)"),
    ('split_k = 3, reduce = "global", unsplit = 5, raster = 0', None, None, "needs raster >= 1"),
    ('split_k = 3, reduce = "global", unsplit = 5', None, "?x?", "M, N and the batch known at compile time"),
    ("split_k = 3, unsplit = 5", None, None, "it needs split_k = S (2 to 32) with reduce = global"),
    ("unsplit = 5", None, None, "it needs split_k = S (2 to 32) with reduce = global"),
])
def test_the_op_refuses_what_cannot_be(options: str, config: str | None, dims: str | None, why: str) -> None:
    text = _op(304, 520, 2056, options, dims=dims, **({"config": config} if config is not None else {}))
    message = _refusal(text, "g.mlir")
    assert why in message and message.startswith("g.mlir:2:3: error: "), message


def _loop_level(options: str = 'split_k = 3, reduce = "global", unsplit = 20') -> str:
    return str(_expanded(_op(304, 520, 2056, options)))


def test_the_lowering_refuses_a_grid_that_is_not_f_plus_s_j() -> None:
    text = _loop_level().replace("tc.grid = [35 : i64, 1 : i64, 1 : i64]", "tc.grid = [36 : i64, 1 : i64, 1 : i64]")
    assert ("error: unsplit = 20: the first 20 CTAs along x take a tile each and the others 3 to a tile, so the grid is "
            "[20 + 3 j, 1, 1] for j >= 1 split tiles, known at compile time, not [36, 1, 1] (tc.grid)") in _refusal(text, "loop.mlir")


def test_the_lowering_refuses_an_unsplit_cta_that_takes_a_slice() -> None:
    """A hand-written walk that divides every CTA's K by S: the whole tiles' CTAs would
    each take a third of K and D would be a third of the product there."""
    text = _loop_level()
    wrong = re.sub(r"arith\.divui (%\d+), %ways", r"arith.divui \1, %split_k", text)
    assert wrong != text
    assert "error: unsplit = 20: block x = 0 has its tile alone, but its K loop runs over [0, 704) with K = 2056" in _refusal(wrong, "loop.mlir")


# -- the contract and the PTX ---------------------------------------------------------------


def test_the_workspace_has_slots_for_the_split_ctas_only() -> None:
    (kernel,) = compile_source(_op(304, 520, 2056, 'split_k = 3, reduce = "global", unsplit = 20'), "g.mlir")
    ws = kernel.info.workspace
    assert ws == WorkspaceInfo(64 * 128 * 4, 3, 20)
    assert ws.bytes(35) == workspace_bytes(15, 3, 64 * 128 * 4) == 15 * 32768 + 80  # 5 counters and 15 slice claims, 80 bytes
    assert ws.to_dict() == {"partial_bytes": 32768, "split_k": 3, "unsplit": 20}
    assert WorkspaceInfo.from_dict(ws.to_dict()) == ws
    assert WorkspaceInfo.from_dict({"partial_bytes": 32768, "split_k": 3}).unsplit == 0
    # a reader that does not know `unsplit` sizes the workspace for every CTA: more than enough
    assert WorkspaceInfo(32768, 3).bytes(35) >= ws.bytes(35)
    assert kernel.info.version == 4


@needs_ptxas
def test_the_ptx_branches_the_whole_tiles_past_the_sum_and_stores_by_tma() -> None:
    (kernel,) = compile_source(_op(512, 10240, 8192, 'split_k = 4, reduce = "global", unsplit = 132',
                                   config="bm = 128, bn = 256, bk = 64, stages = 4"), "g.mlir", assemble=True)
    ptx = kernel.ptx
    branch = re.search(r"setp\.lt\.u32 (%p\d+), %r\d+, 132;\n(?:.*\n)?\t@\1 bra (\$L_unsplit_store_\d+);", ptx)
    assert branch is not None
    target = branch.group(2)
    order = [branch.group(0), "st.global.v4.", "atom.acq_rel.gpu.global.add.u32", "bar.red.or.pred",
             "rank i's partial added", f"{target}:", "stmatrix.sync.aligned", "cp.async.bulk.tensor.2d.global.shared::cta"]
    at = 0
    for what in order:
        at = ptx.index(what, at) + 1
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta") == 4  # one store path: 2 warpgroups x 2 buffers' code
    proc = subprocess.run([str(find_tool("ptxas")), "-arch=sm_90a", "-v", "-", "-o", "/dev/null"], input=ptx,
                          capture_output=True, text=True)
    assert proc.returncode == 0 and " 0 bytes spill stores" in proc.stderr, proc.stderr


# -- the chooser and the model --------------------------------------------------------------


def test_the_options_split_the_last_wave_of_a_few_waves_only() -> None:
    config = GemmConfig(128, 256, 64, 4)
    assert unsplit_options(512, 10240, 8192, config, "bf16", "bf16") == ((4, 132), (9, 132), (14, 132))  # 160 tiles: 28 left
    assert unsplit_options(256, 1024 * 16, 8192, config, "bf16", "bf16") == ()  # 128 tiles: one wave
    assert unsplit_options(1024, 256 * 33, 8192, config, "bf16", "bf16") == ()  # 264 tiles: two full waves
    many = 128 * (UNSPLIT_MAX_WAVES * H100.sms + 1)
    assert unsplit_options(many, 256, 8192, config, "bf16", "bf16") == ()


def test_the_model_prices_the_split_wave_at_its_share_of_k() -> None:
    config = GemmConfig(128, 256, 64, 4)
    whole = estimate(512, 10240, 8192, config, "bf16", "bf16")
    split = estimate(512, 10240, 8192, config, "bf16", "bf16", split_k=4, reduce="global", unsplit=132)
    assert whole.waves == 2 and split.waves == 2 and split.ctas == 132 + 28 * 4
    # one whole wave and a quarter of one, plus the split wave's extra
    assert split.compute_s == pytest.approx(whole.compute_s * 1.25 / 2)
    assert split.seconds < whole.seconds
    # 128 x 320 tiles (two wgmmas) make 128 CTAs, one wave, and beat the split there with B
    # row-major and 128 x 160 (256 CTAs) with B K-major (H200: 103% and 102% of cuBLAS,
    # where the split ran 93% and 128 x 160 100%: docs/performance.md)
    for b_mn_major in (True, False):
        c = choose(512, 10240, 8192, "bf16", "bf16", "f32", b_mn_major=b_mn_major)
        assert (c.config, c.split_k) == (GemmConfig(128, 320, 64, 3), 1)
        assert c.config.tiles(512, 10240) == 128
    # without the 320-wide tiles, the split (B row-major) and 128 x 160 (B K-major) as before
    from lower_tc.layout.gemm_model import estimate as est
    assert est(512, 10240, 8192, config, "bf16", "bf16", split_k=4, reduce="global", unsplit=132, b_mn_major=True).seconds \
        < est(512, 10240, 8192, GemmConfig(128, 160, 64, 5), "bf16", "bf16", b_mn_major=True).seconds
