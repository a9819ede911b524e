"""The fuzzer, CI mode: generated programs through the Python API and the `lower-tc`
command, each checked against lower-tc's promise (tests/fuzz_promise.py): exit status 0,
1 or 2; exit 1 with exactly one located error line and no traceback or internal error;
no output file written (or changed) on failure; only the documented exceptions from the
API; and, for every accepted kernel, launch metadata within CUDA's, TMA's and the 32-bit
index arithmetic's limits and PTX whose immediates fit their instructions.

Derandomized (the same examples every run) with a fixed number of examples per test,
about a minute in all; no shrinking here (a failure prints the input as generated).
`LOWER_TC_FUZZ_SCALE=10` runs ten times the examples; `LOWER_TC_FUZZ_RANDOM=1` draws
new ones and shrinks failures. bench/fuzz.py is the exploratory mode: minutes, random,
every distinct failure shrunk and written to a folder (docs/fuzzing.md).

tests/fuzz_corpus/ holds the minimal inputs the exploratory runs found, one per bug;
`test_corpus` checks each, so each stays fixed once it is fixed.
"""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import fuzz_programs as fp
from fuzz_promise import (
    SENTINEL,
    ApiRun,
    CliRun,
    api_findings,
    check,
    cli_findings,
    examine,
    info_findings,
    ptx_findings,
    run_api,
    store_findings,
)
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import ArgInfo, GemmInfo, KernelInfo, TensorMap
from lower_tc.lowering.backend.ptxas import find_tool

CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
HAVE_PTXAS = find_tool("ptxas") is not None
SCALE = float(os.environ.get("LOWER_TC_FUZZ_SCALE", "1"))
RANDOM = os.environ.get("LOWER_TC_FUZZ_RANDOM", "") not in ("", "0")


def budget(examples: int) -> settings:
    """A test's settings: `examples` (scaled), derandomized unless LOWER_TC_FUZZ_RANDOM."""
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        derandomize=not RANDOM,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink) if RANDOM else (Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )


# -- the generated families ------------------------------------------------------------------


@budget(70)
@given(program=fp.matmul_programs(), target=st.sampled_from(("ptx", "ptx", "mlir")), pre_existing=st.booleans())
def test_matmul_programs_keep_the_promise(program: fp.Program, target: str, pre_existing: bool) -> None:
    check(examine(program, target=target, pre_existing=pre_existing), program, f"-t {target}")


@budget(45)
@given(program=fp.loop_programs(), pre_existing=st.booleans())
def test_loop_programs_keep_the_promise(program: fp.Program, pre_existing: bool) -> None:
    check(examine(program, pre_existing=pre_existing), program, "-t ptx")


@budget(80)
@given(program=fp.tile_programs(), target=st.sampled_from(("ptx", "ptx", "mlir")))
def test_tile_programs_keep_the_promise(program: fp.Program, target: str) -> None:
    check(examine(program, target=target, pre_existing=True), program, f"-t {target}")


@budget(30)
@given(program=fp.attention_programs(), target=st.sampled_from(("ptx", "ptx", "mlir")), pre_existing=st.booleans())
def test_attention_programs_keep_the_promise(program: fp.Program, target: str, pre_existing: bool) -> None:
    check(examine(program, target=target, pre_existing=pre_existing), program, f"-t {target}")


@budget(200)
@given(program=fp.mutated_programs(), pre_existing=st.booleans())
def test_mutated_text_keeps_the_promise(program: fp.Program, pre_existing: bool) -> None:
    check(examine(program, pre_existing=pre_existing), program, "-t ptx")


@budget(30)
@given(program=fp.module_programs(), target=st.sampled_from(("ptx", "mlir")))
def test_whole_files_keep_the_promise(program: fp.Program, target: str) -> None:
    check(examine(program, target=target, pre_existing=True), program, f"-t {target}")


@budget(50)
@given(program=st.one_of(fp.matmul_programs(odd=""), fp.tile_programs()), pipeline=fp.pipelines(),
       target=st.sampled_from(("ptx", "mlir")))
def test_pipelines_keep_the_promise(program: fp.Program, pipeline: str, target: str) -> None:
    check(examine(program, pipeline=pipeline, target=target), program, f"-p {pipeline} -t {target}")


@budget(14)
@given(
    program=st.one_of(fp.matmul_programs(), fp.loop_programs(), fp.tile_programs(), fp.mutated_programs(),
                       fp.module_programs()),
    target=st.sampled_from(("ptx", "mlir", "cubin") if HAVE_PTXAS else ("ptx", "mlir")),
    pre_existing=st.booleans(),
    stdin=st.booleans(),
    write_limit=st.sampled_from((None, None, None, 1024)),
)
def test_the_command_keeps_the_promise(
    program: fp.Program, target: str, pre_existing: bool, stdin: bool, write_limit: int | None,
) -> None:
    """The real command in a subprocess (the others call its main in this process),
    sometimes unable to write more than a kilobyte (a full disk)."""
    check(examine(program, cli="subprocess", target=target, pre_existing=pre_existing, stdin=stdin,
                  write_limit=write_limit),
          program, f"lower-tc -t {target}{' < in.mlir' if stdin else ' in.mlir'}"
          + (f" (files limited to {write_limit} bytes)" if write_limit else ""))


# -- the corpus: minimal inputs the exploratory runs found -----------------------------------


def corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.mlir")) if CORPUS.is_dir() else []


@pytest.mark.parametrize("path", corpus(), ids=lambda p: p.stem)
def test_corpus(path: Path) -> None:
    """One minimal input of a bug found by bench/fuzz.py. Its first line is a comment
    with how it is run (JSON: cli, target, pipeline, stdin, assemble, write_limit,
    unused_attr) and what
    broke when it was found."""
    data = path.read_bytes()
    first = data.split(b"\n", 1)[0].decode("utf-8", "replace")
    how = json.loads(first.removeprefix("// fuzz: ").split(" | ", 1)[0]) if first.startswith("// fuzz: ") else {}
    if (how.get("target") == "cubin" or how.get("assemble")) and not HAVE_PTXAS:
        pytest.skip("ptxas not found (pip install 'lower-tc[test]')")
    program = fp.Program("corpus", data, path.name, unused_attr=_unused(data, how))
    check(examine(program, cli=how.get("cli", "in-process"), target=how.get("target", "ptx"),
                  pipeline=how.get("pipeline"), stdin=how.get("stdin", False), assemble=how.get("assemble", False),
                  write_limit=how.get("write_limit"), pre_existing=True), program, path.name)


def _unused(data: bytes, how: dict) -> tuple[str, str] | None:
    attr = how.get("unused_attr")
    if not attr:
        return None
    text = data.decode()
    return attr, text.replace(attr + ", ", "", 1)


# -- the checker itself: each check fires on what it is there to catch ------------------------


def test_ptx_check_catches_wide_immediates_and_bad_names() -> None:
    ptx = (".visible .entry a-b(\n)\n{\n\tdiv.u32 %r5, %r4, 4398046511104;\n\tmov.s32 %r14, 17179869184;\n"
           "\tadd.u32 %r1, %r2, 4294967295;\n\tmov.u64 %rd1, 17179869184;\n\tld.global.f32 %f1, [%rd1+4294967296];\n}\n")
    kinds = [f.detail.split(":")[0] for f in ptx_findings(ptx, gemm=True)]
    assert kinds == [".entry a-b", "immediate 4398046511104 does not fit .32-bit div.u32",
                     "immediate 17179869184 does not fit .32-bit mov.s32", "address offset 4294967296 past 32 bits"]


def _info(**changes) -> KernelInfo:
    base = dict(
        name="k", target="sm_90a", threads=384, smem_bytes=196672,
        args=(ArgInfo("p_A", (4096, 4096), (4096, 1), "bf16", False),),
        tensor_maps=(TensorMap("tmap_0", 0, "bf16", (64, 128), "128b", 3, (4096, 4096), (8192,)),),
        grid=(16, 32, 1),
        gemm=GemmInfo(0, 1, 2, None, 4096, 4096, 4096, "f32", GemmConfig(128, 256, 64, 4)),
    )
    return KernelInfo(**(base | changes))


def test_metadata_check_catches_each_limit() -> None:
    assert info_findings(_info()) == []
    cases = {
        "grid y": dict(grid=(1, 65537, 1)),
        "threads": dict(threads=2048),
        "smem": dict(smem_bytes=262144),
        "arg rows": dict(args=(ArgInfo("p_A", (2**32, 16), (16, 1), "bf16", False),)),
        "arg batch": dict(args=(ArgInfo("p_Q", (2**31, 64, 64), (4096, 64, 1), "bf16", False),)),
        "arg tma stride": dict(args=(ArgInfo("p_Q", (2, 64, 64), (2**39, 64, 1), "bf16", False),)),
        "arg stride": dict(args=(ArgInfo("p_D", (64, 64), (2**31, 1), "bf16", True),)),
        "tma stride": dict(tensor_maps=(TensorMap("tmap_0", 0, "bf16", (64, 128), "128b", 3, (16, 16), (2**41,)),)),
        "tma dtype": dict(tensor_maps=(TensorMap("tmap_0", 0, "e2m1", (64, 128), "128b", 3, (16, 16), (16,)),)),
        "gemm K": dict(gemm=GemmInfo(0, 1, 2, None, 128, 128, 2**32, "f32", GemmConfig(128, 128, 64, 4))),
    }
    for sig, change in cases.items():
        assert [f.signature for f in info_findings(_info(**change))][:1] == [f"limits|{sig}"], sig
    # an attention's heads (or a batch's matrices) 2^37 elements apart: 64-bit offsets, TMA's strides
    assert info_findings(_info(args=(ArgInfo("p_Q", (2, 2**30, 128), (2**37, 128, 1), "bf16", False),))) == []
    # rows 2^31 + 64 elements apart: TMA's stride where only TMA reads the input, a 32-bit step otherwise
    wide = ArgInfo("p_A", (64, 64), (2**31 + 64, 1), "bf16", False)
    tmap = TensorMap("tmap_0", 0, "bf16", (64, 64), "128b", 3, (64, 64), (2**32 + 128,))
    assert info_findings(_info(args=(wide,), tensor_maps=(tmap,))) == []
    assert [f.signature for f in info_findings(_info(args=(wide,), tensor_maps=()))] == ["limits|arg stride"]
    wrong = GemmInfo(0, 1, 2, None, 4096, 4096, 4095, "f32", GemmConfig(128, 256, 64, 4))
    assert [f.signature for f in info_findings(_info(gemm=wrong), {"k": 4096})] == ["metadata|k"]


def _run(status: int | None, stderr: str, before: bytes | None = None, after: bytes | None = None) -> CliRun:
    return CliRun(["-t", "ptx", "in.mlir", "-o", "out.ptx"], status, b"", stderr, before, after, [], 0.1)


def test_cli_check_catches_each_broken_promise() -> None:
    ok_error = "in.mlir:3:5: error: BM = 96: wgmma is m64"
    assert cli_findings(_run(1, ok_error + "\n"), b"a\nb\nc\n") == []
    assert cli_findings(_run(1, "in.mlir: error: no kernel\n", SENTINEL, SENTINEL), b"") == []
    assert cli_findings(_run(0, "", None, b"ptx"), b"") == []
    cases = {
        "error lines": _run(1, ok_error + "\nin.mlir:4:1: error: and another\n"),
        "unlocated": _run(1, "lower-tc: error: 'arith.divui' by zero\n"),
        "internal error": _run(1, "lower-tc: internal error: AttributeError: x (a bug in lower-tc)\n"),
        "traceback": _run(1, "Traceback (most recent call last):\n  File x\nValueError: y\n"),
        "exit status": _run(3, ok_error),
        "output file": _run(1, ok_error, SENTINEL, b"half"),
        "location": _run(1, "in.mlir:9:1: error: past the end\n"),
        "message": _run(1, "in.mlir:1:1: error: Expected suffix identifier after {first_char}\n"),
        "hang": _run(None, ""),
    }
    cases["error lines, misuse"] = _run(2, "lower-tc: error: Error parsing pass pipeline specification:\npass-pipeline:1:3\n")
    for kind, run in cases.items():
        assert kind.split(",")[0] in [f.kind for f in cli_findings(run, b"a\nb\n")], kind
    usage = "usage: lower-tc [-h] [-o OUTPUT_FILE]\n       [-p PASSES]\nlower-tc: error: argument -t/--target: invalid choice\n"
    assert cli_findings(_run(2, usage), b"", argv_ok=False) == []
    # an error without a line, where the file has the place it speaks of
    twice = b"func.func @t() {\n  func.return\n}\nfunc.func @t() {\n  func.return\n}\n"
    assert [f.kind for f in cli_findings(_run(1, 'in.mlir: error: Redefinition of symbol "t"\n'), twice)] == ["unlocated"]


def test_api_check_refuses_undocumented_exceptions() -> None:
    from xdsl.utils.exceptions import VerifyException

    try:
        raise ValueError("'arith.divui' by zero")
    except ValueError as err:
        crash = ApiRun(error=err, traceback=traceback.extract_tb(err.__traceback__))
    assert [f.kind for f in api_findings(crash)] == ["undocumented exception"]
    assert api_findings(ApiRun(error=VerifyException("BM = 96"))) == []
    assert api_findings(run_api("func.func @f() {\n  func.return\n}\n")) == []  # LocatedError: no kernel


def test_store_check_counts_the_ctas_that_pick_tiles() -> None:
    """More CTAs than D has tiles, along the axes the kernel reads, with an unguarded
    store: a finding; CTAs along an axis the kernel never reads repeat the same tiles."""
    ptx = ("// lower-tc kernel k\n.visible .entry k(\n)\n{\n\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ctaid.y;\n"
           "\tst.global.v2.f32 [%rd1], {%f0, %f1};\n}\n")
    over = _info(grid=(16, 33, 1))  # 4096x4096 in 128x256 tiles: 16 x 32
    assert [f.signature for f in store_findings(over, ptx)] == ["stores|unguarded"]
    guarded = ptx.replace("\tst.global", "\t@!%p1 bra $L_skip;\n\tld.global.f32 %f2, [%rd2];\n\tst.global")
    assert store_findings(over, guarded) == []  # the branch a few lines up (a C load between)
    assert store_findings(over, guarded.replace("\tld.global", "$L_join:\n\tld.global")) != []  # a label between
    assert store_findings(_info(grid=(16, 32, 1009)), ptx) == []  # z is never read
    assert store_findings(_info(grid=(16, 32, 2)), ptx.replace("%ctaid.y;", "%ctaid.y;\n\tmov.u32 %r3, %ctaid.z;")) != []
