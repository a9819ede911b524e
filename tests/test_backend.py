"""The ptxas backend and the SASS check: no GPU needed.

Tests that run ptxas or a disassembler skip with the reason when the tool is absent;
`pip install -e '.[test]'` brings both (NVIDIA's nvcc and nvdisasm wheels).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lower_tc.dialects.ptx import printer
from lower_tc.lowering.backend import ptxas as backend
from lower_tc.lowering.backend.ptxas import (
    BackendError, PtxasTimeoutError, assemble, find_ptxas, find_tool, ptxas_version,
)
from lower_tc.lowering.backend.sass import EXPECTED_SASS, check_sass, disassemble, find_disassembler, sass_opcodes

WGMMA_PTX = """\
.version 8.0
.target sm_90a
.address_size 64
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(.param .u64 p_out)
.reqntid 128, 1, 1
{
  .reg .b32 %r<4>; .reg .f32 %d<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p_out]; cvta.to.global.u64 %rd1, %rd1;
  mov.b64 %rd2, 0x4000004000010000; mov.b64 %rd3, 0x4000004000010200;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7}, %rd2, %rd3, 0, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  mov.u32 %r1, %tid.x; mul.wide.u32 %rd4, %r1, 32; add.s64 %rd5, %rd1, %rd4;
  st.global.v4.f32 [%rd5], {%d0, %d1, %d2, %d3}; st.global.v4.f32 [%rd5+16], {%d4, %d5, %d6, %d7};
  ret;
}
"""

#: Shaped like lower-tc's printer output: two kernels, `// from` comments, two bad lines.
BAD_PTX = """\
.version 8.0
.target sm_90a
.address_size 64

.visible .entry first(
\t.param .u64 p
)
{
\t// from input.mlir:3:5
\tret;
}

.visible .entry bad_kernel(
\t.param .u64 p_out
)
.reqntid 128, 1, 1
{
\t.reg .b32 %r<4>;

\t// from input.mlir:12:3
\tmov.u32 %r1, %tid.x;
\tfrobnicate.b32 %r2, %r1;
\t// from input.mlir:14:7
\tadd.s32 %r3, %r1, %r9;
\tret;
}
"""

SM100_PTX = """\
.version 8.6
.target sm_100a
.address_size 64
.visible .entry k100(.param .u64 p_out)
{
  .reg .b32 %r<2>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p_out]; cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
"""


def _ptxas() -> Path:
    tool = find_tool("ptxas")
    if tool is None:
        pytest.skip("ptxas not found (pip install -e '.[test]' brings NVIDIA's nvcc wheel)")
    return tool


def _line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def _fake_tool(folder: Path, name: str, body: str = "echo fake", mode: int = 0o755) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    tool = folder / name
    tool.write_text(f"#!/bin/sh\n{body}\n")
    tool.chmod(mode)
    return tool


@pytest.fixture
def no_tools(monkeypatch, tmp_path):
    """An environment with no CUDA tool anywhere: empty PATH, no CUDA_HOME, no wheels."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setattr(backend, "_nvidia_roots", lambda: [])
    monkeypatch.setattr(backend, "_pathfinder", lambda name: None)


# --------------------------------------------------------------------------- ptxas


def test_assemble_wgmma_gives_cubin() -> None:
    _ptxas()
    cubin = assemble(WGMMA_PTX, "sm_90a")
    assert cubin[:4] == b"\x7fELF" and len(cubin) > 1000


def test_assemble_sm100a() -> None:
    _ptxas()
    assert assemble(SM100_PTX, "sm_100a", kernel="k100")[:4] == b"\x7fELF"


def test_ptxas_error_points_at_source() -> None:
    _ptxas()
    with pytest.raises(BackendError) as info:
        assemble(BAD_PTX, "sm_90a")
    msg = str(info.value)
    bad, add = _line_of(BAD_PTX, "frobnicate"), _line_of(BAD_PTX, "%r9")
    # the unknown instruction maps to the nearest `// from` above it, not the one after
    assert "input.mlir:12:3: error: ptxas: Not a name of any known instruction: 'frobnicate'" in msg
    assert f"kernel bad_kernel, PTX line {bad}: frobnicate.b32 %r2, %r1;" in msg
    # the undefined register maps to the second location
    assert "input.mlir:14:7: error: ptxas: Unknown symbol '%r9'" in msg
    assert f"PTX line {add}: add.s32 %r3, %r1, %r9;" in msg
    assert "input.mlir:3:5" not in msg  # that loc belongs to the other kernel
    assert "aborted due to errors" not in msg and "sm_90a" in msg


def test_ptxas_error_without_loc_comment_names_ptx_line() -> None:
    _ptxas()
    ptx = WGMMA_PTX.replace("wgmma.commit_group.sync.aligned;", "bogus.instr;")
    with pytest.raises(BackendError) as info:
        assemble(ptx, "sm_90a")
    line = _line_of(ptx, "bogus.instr")
    assert f"<ptx>:{line}: error: ptxas:" in str(info.value)
    assert f"kernel k, PTX line {line}: bogus.instr;" in str(info.value)


def test_unknown_kernel_entry_is_reported() -> None:
    _ptxas()
    with pytest.raises(BackendError, match="Unknown function nope"):
        assemble(WGMMA_PTX, "sm_90a", kernel="nope")


@pytest.mark.parametrize("arch", ["sm_90", "sm_80", "sm_100", "sm_120a", ""])
def test_other_archs_rejected(arch: str) -> None:
    with pytest.raises(BackendError, match="unsupported arch"):
        assemble(WGMMA_PTX, arch, ptxas=Path("/never/run"))


def test_timeout_and_missing_tool_are_backend_errors(tmp_path, monkeypatch) -> None:
    slow = _fake_tool(tmp_path, "ptxas", "exec sleep 10")
    monkeypatch.setattr(backend, "TIMEOUT_S", 0.3)
    monkeypatch.delenv(backend.TIMEOUT_ENV, raising=False)
    with pytest.raises(PtxasTimeoutError, match="^ptxas ran 0.3 s on kernel k for sm_90a without finishing"):
        assemble(WGMMA_PTX, "sm_90a", ptxas=slow)
    with pytest.raises(BackendError, match="could not run ptxas"):
        assemble(WGMMA_PTX, "sm_90a", ptxas=tmp_path / "missing" / "ptxas")


def test_a_ptxas_time_out_names_the_kernel_where_it_is_and_the_way_out(tmp_path, monkeypatch) -> None:
    """Past $LOWER_TC_PTXAS_TIMEOUT seconds: one line at the kernel's place, naming it, how
    long ptxas ran, and how to give it longer; every kernel of the PTX when none is picked."""
    slow = _fake_tool(tmp_path, "ptxas", "exec sleep 10")
    monkeypatch.setenv(backend.TIMEOUT_ENV, "0.25")
    with pytest.raises(PtxasTimeoutError) as info:
        assemble(WGMMA_PTX, "sm_90a", ptxas=slow, kernel_locations={"k": "k.mlir:3:1"})
    assert str(info.value) == (
        "k.mlir:3:1: error: ptxas ran 0.25 s on kernel k for sm_90a without finishing; give it longer "
        "with LOWER_TC_PTXAS_TIMEOUT=SECONDS (a long or unrolled kernel can take minutes)"
    )
    assert info.value.where == "k.mlir:3:1" and info.value.seconds == 0.25
    with pytest.raises(PtxasTimeoutError, match="^ptxas ran 0.25 s on kernels first, bad_kernel for sm_90a") as info:
        assemble(BAD_PTX, "sm_90a", ptxas=slow)
    assert info.value.where is None


def test_a_ptxas_ended_by_a_signal_is_the_machine_not_the_kernel(tmp_path) -> None:
    """ptxas past the file-size limit (SIGXFSZ) made no cubin; the PTX is not to blame."""
    killed = _fake_tool(tmp_path, "ptxas", "kill -XFSZ $$")
    with pytest.raises(backend.ToolUnavailableError, match=(
        r"^ptxas \(.*\) was ended by SIGXFSZ while assembling kernel k: the file-size limit \(ulimit -f\) "
        "is too small for the cubin$")):
        assemble(WGMMA_PTX, "sm_90a", ptxas=killed)


@pytest.mark.parametrize("value", ["0", "-3", "soon", "inf", "nan", ""])
def test_the_ptxas_time_limit_must_be_positive_seconds(monkeypatch, value) -> None:
    monkeypatch.setenv(backend.TIMEOUT_ENV, value)
    with pytest.raises(BackendError, match=f"^LOWER_TC_PTXAS_TIMEOUT is a positive number of seconds, not '{value}'$"):
        assemble(WGMMA_PTX, "sm_90a", ptxas=Path("/never/run"))


def test_ptxas_version_mentions_release() -> None:
    _ptxas()
    assert "release" in ptxas_version()


# --------------------------------------------------------------------------- find_tool


@pytest.mark.parametrize("layout", ["cu13/bin", "cuda_nvcc/bin"])
def test_find_tool_in_injected_wheel_root(no_tools, tmp_path, layout: str) -> None:
    root = tmp_path / "site" / "nvidia"
    tool = _fake_tool(root / layout, "ptxas")
    assert find_tool("ptxas") is None
    assert find_tool("ptxas", extra_roots=[root]) == tool
    assert find_ptxas(extra_roots=[root]) == tool


def test_find_tool_order_path_then_cuda_home(no_tools, tmp_path, monkeypatch) -> None:
    root = tmp_path / "nvidia"
    _fake_tool(root / "cu13" / "bin", "nvdisasm")
    home_tool = _fake_tool(tmp_path / "cuda" / "bin", "nvdisasm")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    assert find_tool("nvdisasm", extra_roots=[root]) == home_tool
    path_tool = _fake_tool(tmp_path / "on-path", "nvdisasm")
    monkeypatch.setenv("PATH", str(tmp_path / "on-path"))
    assert find_tool("nvdisasm", extra_roots=[root]) == path_tool


def test_find_tool_reports_non_executable(no_tools, tmp_path) -> None:
    root = tmp_path / "nvidia"
    tool = _fake_tool(root / "cu13" / "bin", "ptxas", mode=0o644)
    assert not os.stat(tool).st_mode & stat.S_IXUSR
    with pytest.raises(BackendError) as info:
        find_tool("ptxas", extra_roots=[root])
    assert "not executable" in str(info.value) and f"chmod +x {tool}" in str(info.value)


def test_find_ptxas_explains_install(no_tools) -> None:
    with pytest.raises(BackendError) as info:
        find_ptxas()
    assert "pip install 'lower-tc[ptxas]'" in str(info.value)
    assert "CUDA_HOME" in str(info.value) and "PATH" in str(info.value)
    with pytest.raises(BackendError, match="ptxas not found"):
        assemble(WGMMA_PTX, "sm_90a")


def test_wheel_ptxas_found_without_path(monkeypatch, tmp_path) -> None:
    """What a fresh machine with only `pip install '.[test]'` gets: ptxas from the wheel."""
    wheel_bins = [d for d in backend.search_dirs() if (d / "ptxas").is_file()]
    if not wheel_bins:
        pytest.skip("no nvidia-cuda-nvcc wheel in this environment")
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    tool = find_ptxas()
    assert "nvidia" in tool.parts
    assert assemble(WGMMA_PTX, "sm_90a", ptxas=tool)[:4] == b"\x7fELF"


def test_loc_comment_matches_the_printer() -> None:
    """The error mapping reads the comments dialects/ptx/printer.py writes."""
    assert printer.LOC_MARK == "from"
    assert backend.locate("x\n.entry q(\n\t// from a.mlir:1:2\n\tret;\n", 4) == ("\tret;", "q", "a.mlir:1:2")


# --------------------------------------------------------------------------- SASS


SYNTHETIC_SASS = """\
//--------------------- .text.HMMA_kernel --------------------------
.text.HMMA_kernel:
        /*0060*/                   S2R R5, SR_TID.X ;
        /*0070*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], RZ, !UPT, gsb0 ;
        /*0080*/              @P0  UTMALDG.2D [UR8], [UR4] ;
        /*0090*/                   NOP;
"""


def test_check_sass_matches_whole_opcodes() -> None:
    assert sass_opcodes(SYNTHETIC_SASS) == ["S2R", "HGMMA.64x128x16.F32.BF16", "UTMALDG.2D", "NOP"]
    assert check_sass(SYNTHETIC_SASS, ["HGMMA", "UTMALDG", "NOP"]) == []
    # HMMA is inside HGMMA and in the kernel's name, but no instruction is an HMMA
    assert check_sass(SYNTHETIC_SASS, ["HMMA", "HGMMA", "GMMA", "UTCHMMA"]) == ["HMMA", "GMMA", "UTCHMMA"]
    assert check_sass(SYNTHETIC_SASS, ["HGMMA.64x128x16", "HGMMA.64x64x16"]) == ["HGMMA.64x64x16"]


def test_expected_sass_table() -> None:
    assert EXPECTED_SASS["wgmma.bf16"] == ("HGMMA",) and EXPECTED_SASS["wgmma.e4m3"] == ("QGMMA",)
    assert EXPECTED_SASS["wgmma.s8"] == ("IGMMA",) and EXPECTED_SASS["wmma.f16"] == ("HMMA",)
    assert EXPECTED_SASS["wmma.s8"] == ("IMMA",) and EXPECTED_SASS["tma"] == ("UTMALDG",)
    assert EXPECTED_SASS["tcgen05.f16"] == EXPECTED_SASS["tcgen05.tf32"] == ("UTCHMMA",)
    assert EXPECTED_SASS["tcgen05.f8f6f4"] == ("UTCQMMA",) and EXPECTED_SASS["tcgen05.i8"] == ("UTCIMMA",)


def test_find_disassembler_prefers_nvdisasm(no_tools, tmp_path) -> None:
    root = tmp_path / "nvidia"
    assert find_disassembler(extra_roots=[root]) is None
    objdump = _fake_tool(root / "cu13" / "bin", "cuobjdump")
    assert find_disassembler(extra_roots=[root]) == objdump
    nvdisasm = _fake_tool(root / "cu13" / "bin", "nvdisasm")
    assert find_disassembler(extra_roots=[root]) == nvdisasm
    with pytest.raises(BackendError, match="no SASS disassembler"):
        disassemble(b"\x7fELF")


@pytest.mark.parametrize("name", ["nvdisasm", "cuobjdump"])
def test_wgmma_cubin_has_hgmma(name: str) -> None:
    _ptxas()
    tool = find_tool(name)
    if tool is None:
        pytest.skip(f"{name} not found (pip install -e '.[test]' brings nvidia-cuda-{name})")
    sass = disassemble(assemble(WGMMA_PTX, "sm_90a"), tool=tool)
    assert any(op.startswith("HGMMA.64x16x16") for op in sass_opcodes(sass))
    assert check_sass(sass, EXPECTED_SASS["wgmma.bf16"]) == []
    assert check_sass(sass, EXPECTED_SASS["wgmma.bf16"] + EXPECTED_SASS["tcgen05.f16"]) == ["UTCHMMA"]


def test_default_disassembler_and_bad_cubin() -> None:
    if find_disassembler() is None:
        pytest.skip("no nvdisasm or cuobjdump (pip install -e '.[test]' brings nvidia-cuda-nvdisasm)")
    _ptxas()
    assert "HGMMA" in disassemble(assemble(WGMMA_PTX, "sm_90a"))
    with pytest.raises(BackendError, match="could not disassemble"):
        disassemble(b"not a cubin")
