"""The assembler's one door (lowering/backend/assembler.py): nvJitLink in this process or the
ptxas program, picked by $LOWER_TC_ASSEMBLER, with the same rules in both: errors at their
source ops, the serialized-wgmma warning an error, the time limit. No GPU needed (nvJitLink
runs without one); the nvJitLink tests skip where cuda.core or libnvJitLink is missing."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from conftest import ROOT
from lower_tc.lowering.backend import assembler, nvjitlink
from lower_tc.lowering.backend import ptxas as ptxas_backend
from lower_tc.lowering.backend.ptxas import BackendError, PtxasTimeoutError, ToolUnavailableError, find_tool
from lower_tc.lowering.backend.sass import EXPECTED_SASS, check_sass, disassemble, find_disassembler
from test_backend import BAD_PTX, SM100_PTX, WGMMA_PTX

needs_nvjitlink = pytest.mark.skipif(
    not nvjitlink.available(), reason=f"nvJitLink not available: {nvjitlink.unavailable_reason()}"
)
needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")

#: Each assembler, skipped where it cannot run.
BOTH = [
    pytest.param("nvjitlink", marks=needs_nvjitlink),
    pytest.param("ptxas", marks=needs_ptxas),
]


@pytest.fixture
def no_nvjitlink(monkeypatch):
    """A machine without nvJitLink, as the probe would find it."""
    monkeypatch.setattr(nvjitlink, "unavailable_reason", lambda: "cuda.core cannot be imported (test)")


@pytest.fixture(scope="module")
def serializing_ptx() -> str:
    """The loop-level GEMM example with a mov into an accumulator register between two
    wgmmas of one group: valid PTX that ptxas serializes."""
    from lower_tc.lowering.compile import compile_source

    ptx = compile_source((ROOT / "examples" / "gemm_bf16_loop.mlir").read_text(), "gemm_bf16_loop.mlir")[0].ptx
    first = ptx.index("wgmma.mma_async")
    second = ptx.index("wgmma.mma_async", first + 1)
    return ptx[:second] + "\tmov.f32 %f0, 0f3F800000;\n" + ptx[second:]


# -- the choice ------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "want"), [(None, "auto"), ("", "auto"), (" PTXAS ", "ptxas"), ("nvJitLink", "nvjitlink"), ("auto", "auto")])
def test_the_choice_is_read_from_the_environment(monkeypatch, value, want) -> None:
    if value is None:
        monkeypatch.delenv(assembler.ASSEMBLER_ENV, raising=False)
    else:
        monkeypatch.setenv(assembler.ASSEMBLER_ENV, value)
    assert assembler.choice() == want


def test_an_unknown_choice_is_refused_with_the_ones_there_are(monkeypatch) -> None:
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "nvcc")
    with pytest.raises(BackendError, match="^LOWER_TC_ASSEMBLER is auto, nvjitlink or ptxas, not 'nvcc'$"):
        assembler.assemble(WGMMA_PTX, "sm_90a")


def test_auto_falls_back_to_ptxas_and_a_forced_nvjitlink_says_why_not(monkeypatch, no_nvjitlink) -> None:
    monkeypatch.delenv(assembler.ASSEMBLER_ENV, raising=False)
    assert assembler.chosen() == "ptxas"
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "nvjitlink")
    with pytest.raises(ToolUnavailableError, match=r"^LOWER_TC_ASSEMBLER=nvjitlink, but nvJitLink is not available: cuda.core cannot be imported \(test\)$"):
        assembler.assemble(WGMMA_PTX, "sm_90a")
    with pytest.raises(ToolUnavailableError, match="nvJitLink is not available"):
        nvjitlink.assemble(WGMMA_PTX, "sm_90a")


SETMAXNREG_PTX = "\tsetmaxnreg.inc.sync.aligned.u32 232;\n"
C7504 = "ptxas info    : (C7504) Potential Performance Loss: 'setmaxnreg' ignored to maintain compatibility across compilation units.\n"


def test_auto_gives_setmaxnreg_to_the_ptxas_program_where_there_is_one(monkeypatch) -> None:
    """nvJitLink assembles PTX as a relocatable unit, where ptxas ignores setmaxnreg (C7504):
    under auto, a warp-specialised kernel's PTX goes to the ptxas program when it is found;
    other PTX, a forced nvjitlink, or no ptxas program keep nvJitLink."""
    monkeypatch.delenv(assembler.ASSEMBLER_ENV, raising=False)
    monkeypatch.setattr(nvjitlink, "unavailable_reason", lambda: None)
    monkeypatch.setattr(ptxas_backend, "find_tool", lambda name, **_: f"/opt/bin/{name}")
    assert assembler.needs_whole_program(SETMAXNREG_PTX) and not assembler.needs_whole_program(WGMMA_PTX)
    assert assembler.chosen(SETMAXNREG_PTX) == "ptxas"
    assert assembler.chosen(WGMMA_PTX) == "nvjitlink" and assembler.chosen() == "nvjitlink"
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "nvjitlink")
    assert assembler.chosen(SETMAXNREG_PTX) == "nvjitlink"
    monkeypatch.delenv(assembler.ASSEMBLER_ENV)
    monkeypatch.setattr(ptxas_backend, "find_tool", lambda name, **_: None)
    assert assembler.chosen(SETMAXNREG_PTX) == "nvjitlink"


@needs_ptxas
def test_auto_with_both_assemblers_names_both_in_its_identity(monkeypatch) -> None:
    """Under auto the cubin may come from either (by the PTX), so a cache key names both."""
    monkeypatch.delenv(assembler.ASSEMBLER_ENV, raising=False)
    monkeypatch.setattr(nvjitlink, "unavailable_reason", lambda: None)
    monkeypatch.setattr(nvjitlink, "identity", lambda: "nvJitLink 13.0 (test)")
    ident = assembler.identity()
    assert ident.startswith("nvJitLink 13.0 (test); setmaxnreg: ptxas ") and "release" in ident
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "nvjitlink")
    assert assembler.identity() == "nvJitLink 13.0 (test)"


def test_nvjitlink_warns_where_it_ignored_setmaxnreg(monkeypatch) -> None:
    """The C7504 note in nvJitLink's info log becomes a SetmaxnregIgnored warning (the kernel
    runs right, but may spill); a log without it warns nothing."""
    import warnings

    monkeypatch.setattr(nvjitlink, "unavailable_reason", lambda: None)
    monkeypatch.setattr(nvjitlink, "version", lambda: "nvJitLink 13.0")
    monkeypatch.setattr(nvjitlink, "_link", lambda ptx, arch: (b"\x7fELF", C7504))
    with pytest.warns(nvjitlink.SetmaxnregIgnored, match=r"nvJitLink 13.0 ignored the kernel's setmaxnreg .*C7504.*lower-tc\[ptxas\]"):
        assert nvjitlink.assemble(SETMAXNREG_PTX, "sm_90a") == b"\x7fELF"
    monkeypatch.setattr(nvjitlink, "_link", lambda ptx, arch: (b"\x7fELF", "ptxas info    : 0 bytes gmem\n"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nvjitlink.assemble(WGMMA_PTX, "sm_90a") == b"\x7fELF"


@needs_nvjitlink
def test_real_nvjitlink_ignores_setmaxnreg_and_says_so() -> None:
    """The fact the rule above stands on, checked on the installed nvJitLink: a
    warp-specialised GEMM's PTX assembled by it warns SetmaxnregIgnored."""
    from lower_tc.lowering.compile import compile_source

    sys.path.insert(0, str(ROOT / "bench"))
    from gemm_sweep import GemmCase

    case = GemmCase("e4m3", "e4m3", "f32", "bf16", 256, 384, 512, True, False, (128, 192, 128, 4), options='accumulation = "promoted"')
    ptx = compile_source(case.source(), case.name)[0].ptx
    assert assembler.needs_whole_program(ptx)
    with pytest.warns(nvjitlink.SetmaxnregIgnored):
        nvjitlink.assemble(ptx, "sm_90a")


@needs_ptxas
def test_without_cuda_core_auto_assembles_with_ptxas() -> None:
    """A fresh interpreter where cuda.core cannot be imported: the probe says so and auto
    assembles with the ptxas program."""
    code = (
        "import sys; sys.modules['cuda.core'] = None\n"
        "from lower_tc.lowering.backend import assembler, nvjitlink\n"
        "from test_backend import WGMMA_PTX\n"
        "print(nvjitlink.unavailable_reason()); print(assembler.chosen()); print(assembler.identity())\n"
        "print(assembler.assemble(WGMMA_PTX, 'sm_90a')[:4])\n"
    )
    env_path = str(ROOT / "tests")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          env={**_environ_without_choice(), "PYTHONPATH": env_path}, timeout=120)
    assert done.returncode == 0, done.stderr
    reason, which, identity, magic = done.stdout.splitlines()
    assert reason.startswith("cuda.core cannot be imported") and which == "ptxas"
    assert identity.startswith("ptxas ") and "release" in identity
    assert magic == repr(b"\x7fELF")


def _environ_without_choice() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != assembler.ASSEMBLER_ENV}


@pytest.mark.parametrize("which", BOTH)
def test_identity_names_the_chosen_assembler_and_its_version(monkeypatch, which) -> None:
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, which)
    ident = assembler.identity()
    assert ident.startswith({"nvjitlink": "nvJitLink ", "ptxas": "ptxas "}[which]) and "bytes" in ident
    assert assembler.identity() == ident  # asked once, the same after


@needs_nvjitlink
@needs_ptxas
def test_the_two_assemblers_have_different_identities(monkeypatch) -> None:
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "ptxas")
    by_ptxas = assembler.identity()
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "nvjitlink")
    assert assembler.identity() != by_ptxas


# -- the same rules in both ------------------------------------------------------------------


@pytest.mark.parametrize("which", BOTH)
def test_both_assemble_wgmma_and_tcgen05_targets(monkeypatch, which) -> None:
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, which)
    assert assembler.assemble(WGMMA_PTX, "sm_90a")[:4] == b"\x7fELF"
    assert assembler.assemble(SM100_PTX, "sm_100a")[:4] == b"\x7fELF"


@pytest.mark.parametrize("which", BOTH)
def test_both_point_errors_at_the_source_ops(monkeypatch, which) -> None:
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, which)
    with pytest.raises(BackendError) as info:
        assembler.assemble(BAD_PTX, "sm_90a")
    msg = str(info.value)
    assert "input.mlir:12:3: error: ptxas: Not a name of any known instruction: 'frobnicate'" in msg
    assert "kernel bad_kernel, PTX line 22: frobnicate.b32 %r2, %r1;" in msg
    assert "input.mlir:14:7: error: ptxas: Unknown symbol '%r9'" in msg
    assert "NVJITLINK_ERROR" not in msg and "Ptx assembly aborted" not in msg


@pytest.mark.parametrize("which", BOTH)
def test_both_refuse_wgmma_on_sm_100a(monkeypatch, which) -> None:
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, which)
    with pytest.raises(BackendError, match="cannot be compiled for architecture 'sm_100a'"):
        assembler.assemble(WGMMA_PTX, "sm_100a")


@pytest.mark.parametrize("which", BOTH)
def test_both_fail_the_build_on_serialized_wgmma(monkeypatch, which, serializing_ptx) -> None:
    """ptxas's C7519/C7520 warning, in ptxas's output or nvJitLink's info log: an error at
    the kernel (and at the source op where the warning names a PTX line)."""
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, which)
    with pytest.raises(BackendError) as info:
        assembler.assemble(serializing_ptx, "sm_90a")
    msg = str(info.value)
    assert "serialized the wgmma instructions of kernel gemm_bf16_loop for sm_90a (lower-tc treats this warning as an error)" in msg
    assert "wgmma.mma_async instructions are serialized" in msg
    if "in line" in msg:  # ptxas 13.5 names the PTX line; 13.0 only the function
        assert "gemm_bf16_loop.mlir:" in msg and "kernel gemm_bf16_loop, PTX line" in msg


@needs_nvjitlink
def test_nvjitlink_sees_the_serialized_warning_in_its_info_log(serializing_ptx) -> None:
    """The evidence nvjitlink.py is built on: the warning is in the Linker's info log with
    no verbose option; the good PTX has an empty log."""
    cubin, log = nvjitlink._link(serializing_ptx, "sm_90a")
    assert cubin[:4] == b"\x7fELF" and "wgmma.mma_async instructions are serialized" in log
    first = serializing_ptx.index("\tmov.f32 %f0, 0f3F800000;\n")
    _, clean = nvjitlink._link(serializing_ptx[:first] + serializing_ptx[first + 26:], "sm_90a")
    assert "serialized" not in clean


@needs_nvjitlink
def test_the_nvjitlink_cubin_passes_the_sass_check(monkeypatch) -> None:
    if find_disassembler() is None:
        pytest.skip("no nvdisasm or cuobjdump (pip install -e '.[test]' brings nvidia-cuda-nvdisasm)")
    monkeypatch.setenv(assembler.ASSEMBLER_ENV, "nvjitlink")
    sass = disassemble(assembler.assemble(WGMMA_PTX, "sm_90a"))
    assert check_sass(sass, EXPECTED_SASS["wgmma.bf16"]) == []


@needs_nvjitlink
def test_nvjitlink_refuses_other_archs_and_reads_the_time_limit(monkeypatch) -> None:
    with pytest.raises(BackendError, match="unsupported arch 'sm_80'"):
        nvjitlink.assemble(WGMMA_PTX, "sm_80")
    monkeypatch.setenv(ptxas_backend.TIMEOUT_ENV, "soon")
    with pytest.raises(BackendError, match="^LOWER_TC_PTXAS_TIMEOUT is a positive number of seconds, not 'soon'$"):
        nvjitlink.assemble(WGMMA_PTX, "sm_90a")


def test_an_nvjitlink_time_out_is_located_at_the_kernel(monkeypatch) -> None:
    """An in-process link past the limit: ptxas's one line at the kernel, raised at once
    (the link is left to finish on its thread)."""
    monkeypatch.setattr(nvjitlink, "unavailable_reason", lambda: None)
    monkeypatch.setattr(nvjitlink, "version", lambda: "nvJitLink 99.9")
    monkeypatch.setattr(nvjitlink, "_link", lambda ptx, arch: time.sleep(3))
    monkeypatch.setenv(ptxas_backend.TIMEOUT_ENV, "0.2")
    start = time.monotonic()
    with pytest.raises(PtxasTimeoutError) as info:
        nvjitlink.assemble(WGMMA_PTX, "sm_90a", kernel_locations={"k": "k.mlir:3:1"})
    assert time.monotonic() - start < 2
    assert str(info.value) == (
        "k.mlir:3:1: error: nvJitLink ran 0.2 s on kernel k for sm_90a without finishing; give it "
        "longer with LOWER_TC_PTXAS_TIMEOUT=SECONDS (a long or unrolled kernel can take minutes)"
    )
    assert info.value.where == "k.mlir:3:1" and info.value.seconds == 0.2


def test_run_with_limit_hands_back_the_result_or_the_exception() -> None:
    assert nvjitlink.run_with_limit(lambda: 7, 5) == (True, 7)
    done, err = nvjitlink.run_with_limit(lambda: 1 / 0, 5)
    assert done and isinstance(err, ZeroDivisionError)
    assert nvjitlink.run_with_limit(lambda: time.sleep(2), 0.05) == (False, None)


def test_a_failure_other_than_a_refusal_is_not_dressed_as_ptxas_errors(monkeypatch) -> None:
    monkeypatch.setattr(nvjitlink, "unavailable_reason", lambda: None)
    monkeypatch.setattr(nvjitlink, "version", lambda: "nvJitLink 99.9")

    def broken(ptx, arch):
        raise MemoryError("out of host memory")

    monkeypatch.setattr(nvjitlink, "_link", broken)
    with pytest.raises(BackendError, match="^nvJitLink 99.9 failed on the PTX for sm_90a: MemoryError: out of host memory$"):
        nvjitlink.assemble(WGMMA_PTX, "sm_90a")
