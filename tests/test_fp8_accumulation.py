"""fp8's promoted accumulation (`accumulation = "promoted"`, layout/fp8_accumulation.py)
without a GPU (tests/test_fp8_accumulation_gpu.py runs it): which operands and tiles take
it, the chooser's tiles for it, the option at both levels, the refusals, and the PTX: each K
step's MMAs start afresh (scale-d 0 on the first K-slice), the step waits for them and adds
them into a second f32 run, which is what the epilogue stores; every schedule assembles
without spills."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT
from lower_tc.dialects.tc_schedule import GemmSchedule, GemmScheduleAttr
from lower_tc.layout import Arch
from lower_tc.layout.fp8_accumulation import (PROMOTED_MAX_BM, PROMOTED_MAX_BN, PROMOTED_OVERLAP_MAX_BN, promoted_overlap_fits,
                                             promoted_problem)
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.gemm_choice import choose, fit_promoted
from lower_tc.layout.gemm_tuning import candidates
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import disassemble, find_disassembler, sass_opcodes
from lower_tc.lowering.compile import CompileError, compile_source

sys.path.insert(0, str(ROOT / "bench"))
from gemm_sweep import GemmCase, fp8_promoted_cases  # noqa: E402

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
PROMOTED = 'accumulation = "promoted"'


def test_which_operands_and_tiles_take_it() -> None:
    assert promoted_problem("e4m3", "e4m3", "f32") is None and promoted_problem("e5m2", "e4m3", "f32", 128, 192) is None
    assert "fp8 operands" in (promoted_problem("bf16", "bf16", "f32") or "")
    assert "must be f32, not f16" in (promoted_problem("e4m3", "e4m3", "f16") or "")
    assert "at most 128 x 192" in (promoted_problem("e4m3", "e4m3", "f32", 128, 256) or "")
    assert "at most 128 x 192" in (promoted_problem("e4m3", "e4m3", "f32", 256, 128) or "")


@pytest.mark.parametrize("shape", [(8192, 8192, 8192), (4096, 14336, 4096), (16, 4096, 4096), (512, 512, 65536), (1000, 904, 512)])
def test_the_chooser_keeps_the_tile_within_the_registers(shape: tuple[int, int, int]) -> None:
    for promoted in (False, True):
        c = choose(*shape, "e4m3", "e4m3", "f32", promoted=promoted).config
        if promoted:
            assert c.bm <= PROMOTED_MAX_BM and c.bn <= PROMOTED_MAX_BN
    for cand in candidates(*shape, "e4m3", "e4m3", "f32", promoted=True):
        assert promoted_problem("e4m3", "e4m3", "f32", cand.config.bm, cand.config.bn) is None


def test_a_rule_tile_is_cut_to_fit() -> None:
    cut = fit_promoted(GemmConfig(128, 256, 128, 4), "e4m3", "e4m3", "f32", Arch.SM90A)
    assert (cut.bm, cut.bn, cut.bk) == (128, 192, 128) and cut.stages >= 2
    same = GemmConfig(128, 128, 128, 4)
    assert fit_promoted(same, "e4m3", "e4m3", "f32", Arch.SM90A) is same


def test_the_schedule_entry_prints_parses_and_refuses_mma_depth() -> None:
    attr = GemmScheduleAttr.from_schedule(GemmSchedule("warp_specialized", accumulation="promoted"))
    assert attr.value.promoted and attr.value.entries() == ["warp_specialized", "accumulation = promoted"]
    assert GemmScheduleAttr.from_schedule(GemmSchedule("pipelined")).value.entries() == ["pipelined"]
    problem = GemmSchedule("warp_specialized", mma_depth=2, accumulation="promoted").problem()
    assert problem is not None and problem[0] == "accumulation" and "mma_depth = 2" in problem[1]


def _case(options: str = PROMOTED, a: str = "e4m3", b: str = "e4m3", acc: str = "f32", d: str = "bf16",
          shape: tuple[int, int, int] = (300, 200, 1000), config=(128, 128, 128, 4), **kw) -> GemmCase:
    return GemmCase(a, b, acc, d, *shape, True, False, config, options=options, **kw)


def _ptx(case: GemmCase) -> str:
    return compile_source(case.source(), case.name)[0].ptx


def _step(ptx: str) -> str:
    """The consumers' first K step: from the first wgmma.fence to the next."""
    start = ptx.index("wgmma.fence")
    return ptx[start: ptx.index("wgmma.fence", start + 1)] if ptx.count("wgmma.fence") > 1 else ptx[start:]


@pytest.mark.parametrize(("schedule", "bn"), [("pipelined", 128), ("warp_specialized", 192)])
def test_each_k_step_starts_afresh_waits_and_adds_into_the_total(schedule: str, bn: int) -> None:
    """The serial promotion: the pipelined schedule, and tiles too wide for a third run."""
    ptx = _ptx(_case(f'{PROMOTED}, schedule = "{schedule}"', config=(128, bn, 128, 4)))
    step = _step(ptx)
    scale_d = re.findall(r"wgmma\.mma_async[^;]*?%rd\d+,\s*%rd\d+,\s*([01]),", step, re.S)
    assert scale_d == ["0", "1", "1", "1"]  # four k32 K-slices of BK = 128: the first starts afresh
    assert "wgmma.wait_group.sync.aligned 0;" in step
    adds = re.findall(r"add\.f32 %f\d+, %f(\d+), %f(\d+);", step)
    regs = bn // 2
    assert len(adds) == regs  # one per register of the 64 x BN fragment
    totals, partials = {int(t) for t, _ in adds}, {int(p) for _, p in adds}
    assert partials == set(range(regs)) and totals == set(range(regs, 2 * regs))  # total += acc
    # the epilogue converts the total, never the tensor core's partial sums
    epilogue = ptx[ptx.rindex("wgmma.wait_group"):]
    converted = {int(r) for r in re.findall(r"cvt\.rn\.bf16x2\.f32 %r\d+, %f(\d+), %f\d+;", epilogue)}
    assert converted and converted <= totals


def _events(ptx: str) -> list[tuple[str, object]]:
    """The consumers' K loop, from the first wgmma.fence to "the last MMAs": each group of
    MMAs (the first register of the run it writes), each wait (its count), each add
    (the partial run's first register), and the loop's turns."""
    start, end = ptx.index("wgmma.fence"), ptx.index("// the last MMAs")
    events: list[tuple[str, object]] = []
    for line in ptx[start:end].splitlines():
        line = line.strip()
        if m := re.match(r"\{%f(\d+),", line):
            if not events or events[-1] != ("mma", int(m.group(1))):
                events.append(("mma", int(m.group(1))))
        elif m := re.match(r"wgmma\.wait_group\.sync\.aligned (\d);", line):
            events.append(("wait", int(m.group(1))))
        elif m := re.match(r"add\.f32 %f\d+, %f\d+, %f(\d+);", line):
            if events[-1][0] != "add":
                events.append(("add", int(m.group(1))))
        elif re.match(r"bra\.uni \$L_for_\d+_head;", line):
            events.append(("turn", None))
    return events


@pytest.mark.parametrize(("k", "tail"), [(1000, 0), (846, 3), (640, 1), (100, 1)])
def test_overlapped_promotion_adds_a_step_while_the_next_runs(k: int, tail: int) -> None:
    """A 64 x 128 tile (warp-specialised, K known) alternates two runs: a step's MMAs are
    issued, the step before's are waited for (wait_group 1) and added while they run, the
    group of four's last step is waited for (wait_group 0) and added, so no group is in
    flight where the loop turns (ptxas serializes the MMAs otherwise); K mod 4 steps follow
    the loop as a shorter group."""
    ptx = _ptx(_case(config=(64, 128, 128, 6), shape=(200, 136, k)))
    a, s = 0, 128  # the runs: acc %f0..%f63, total %f64..%f127, spare %f128..%f191
    group = [("mma", a), ("mma", s), ("wait", 1), ("add", a), ("mma", a), ("wait", 1), ("add", s),
             ("mma", s), ("wait", 1), ("add", a), ("wait", 0), ("add", s)]
    short = [("mma", a)] * (tail > 0) + [e for j in range(1, tail) for e in (("mma", (a, s)[j % 2]), ("wait", 1), ("add", (a, s)[(j - 1) % 2]))]
    short += [("wait", 0), ("add", (a, s)[(tail - 1) % 2])] if tail else []
    whole = -(-k // 128) // 4
    assert _events(ptx) == (group + [("turn", None)] if whole else []) + short
    assert "serial" not in ptx and "promoted: this step's MMAs are done" not in ptx
    totals = {int(t) for t in re.findall(r"add\.f32 %f\d+, %f(\d+), %f\d+;", ptx)}
    epilogue = ptx[ptx.rindex("wgmma.wait_group"):]
    converted = {int(r) for r in re.findall(r"cvt\.rn\.bf16x2\.f32 %r\d+, %f(\d+), %f\d+;", epilogue)}
    assert totals == set(range(64, 128)) and converted and converted <= totals


def test_overlapped_promotion_only_where_it_fits() -> None:
    """A third run of a 64 x 192 tile would not fit beside the second (serial there); two
    consumer warpgroups (128 rows) hide each other's adds; stream-K's units do not take it
    (their steps start and end anywhere in K)."""
    assert promoted_overlap_fits(128) and not promoted_overlap_fits(PROMOTED_OVERLAP_MAX_BN + 16)
    assert "overlapped promotion" not in _ptx(_case(config=(64, 192, 128, 4)))
    assert "overlapped promotion" not in _ptx(_case(config=(128, 128, 128, 4)))  # two consumers hide each other's adds
    assert "overlapped promotion" not in _ptx(_case(f'{PROMOTED}, stream_k = 1', config=(64, 128, 128, 4)))
    assert "overlapped promotion" in _ptx(_case(config=(64, 128, 128, 4)))


@pytest.mark.parametrize("options", [PROMOTED, f"{PROMOTED}, split_k = 3"])
def test_overlapped_promotion_counted_at_run_time(options: str) -> None:
    """Steps counted at run time (K known at launch, a split-K rank's share): the loop of
    groups of four, then the last trips mod 4 steps as a group of 1, 2 or 3 picked by
    branches, each ending in wait_group 0 and its add."""
    ptx = _ptx(_case(options, config=(64, 128, 128, 4), dynamic="split_k" not in options))
    assert ptx.count("the group's last MMAs are done") == 4  # the loop's group and the three shorter ones
    for left in (1, 2, 3):
        assert re.search(rf"setp\.eq\.u32 %p\d+, %r\d+, {left};\n\s*@!%p\d+ bra \$L_not_{left}_left_\d+;", ptx)
    assert ptx.count("wgmma.wait_group.sync.aligned 1;") == 3 + (0 + 1 + 2)  # a wait per step after a group's first
    assert "promoted: this step's MMAs are done" not in ptx


def test_the_fast_default_is_unchanged() -> None:
    """Without the option (or with "fast") the K step keeps one group in flight and
    accumulates in the wgmma registers alone: the same PTX as before the option existed."""
    fast, default = _ptx(_case('accumulation = "fast"')), _ptx(_case(""))
    step = _step(default)
    assert fast == default.replace(_case("").name, _case('accumulation = "fast"').name)
    assert "add.f32" not in step and "wgmma.wait_group.sync.aligned 1;" in step


@pytest.mark.parametrize(("case", "message"), [
    (_case(a="bf16", b="bf16"), "accumulation = promoted is for fp8 operands"),
    (_case(acc="f16", d="f16"), "the accumulator must be f32, not f16"),
    (_case(config=(128, 256, 128, 4)), "the tile is at most 128 x 192"),
    (_case(config=(128, 128, 256, 3)), "a step (BK) is at most 128 products, not 256"),
    (_case(f'{PROMOTED}, schedule = "warp_specialized", mma_depth = 2'), "does not go with mma_depth = 2"),
    (_case(target="sm_100a"), "accumulation = promoted is for wgmma's fp8 partial sums (sm_90a)"),
    (_case('accumulation = "exact"'), "accumulation is one of fast, promoted, not exact"),
])
def test_refusals_are_located_at_the_op(case: GemmCase, message: str) -> None:
    import lower_tc

    with pytest.raises(CompileError) as err:
        lower_tc.compile(case.source())
    assert message in str(err.value) and err.value.line == 2


def test_the_default_tile_of_a_promoted_gemm() -> None:
    info = compile_source(_case(shape=(4096, 4096, 4096), config=None).source(), "big")[0].info
    assert info.gemm is not None and info.gemm.config.bm <= 128 and info.gemm.config.bn <= 192


@needs_ptxas
@pytest.mark.parametrize("case", fp8_promoted_cases(), ids=lambda c: c.name)
def test_the_sweeps_rows_assemble_without_spills(case: GemmCase) -> None:
    kernel = compile_source(case.source(), case.name, assemble=True)[0]
    serial, groups = kernel.ptx.count("promoted: this step's MMAs are done"), kernel.ptx.count("the group's last MMAs are done")
    # the loop's step (serial), or its group and a shorter one (K known), or three (K counted at run time)
    assert (serial, groups) == (1, 0) or (serial == 0 and groups in (1, 2, 4))
    proc = subprocess.run([str(find_tool("ptxas")), "-arch=sm_90a", "-v", "-", "-o", "/dev/null"], input=kernel.ptx,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"\b0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads", proc.stderr), proc.stderr
    if find_disassembler() is not None:
        ops = sass_opcodes(disassemble(kernel.cubin))
        assert any(o.startswith("QGMMA") for o in ops) and not any(o.startswith(("LDL", "STL")) for o in ops)
