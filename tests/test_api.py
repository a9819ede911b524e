"""`lower_tc.compile` (lowering/api/): MLIR text, a path or an xDSL module to a Kernel;
the compiler's refusals as CompileError with the located line the command line prints;
`kernel=` and `target=`. Assembling needs ptxas (the test extra brings it)."""

from __future__ import annotations

from pathlib import Path

import pytest

import lower_tc
from conftest import ROOT
from lower_tc.lowering.backend.ptxas import ToolUnavailableError, find_ptxas

GEMM = (ROOT / "examples" / "gemm_bf16_dynamic.mlir").read_text()
TWO = GEMM + GEMM.replace("@gemm_bf16_dynamic", "@second")


@pytest.fixture(autouse=True)
def need_ptxas() -> None:
    try:
        find_ptxas()
    except ToolUnavailableError:
        pytest.skip("ptxas not found (pip install -e '.[test]' brings NVIDIA's nvcc wheel)")


def test_text_a_path_and_a_module_compile_to_the_same_kernel(tmp_path: Path) -> None:
    from lower_tc.lowering.parse import parse

    path = tmp_path / "gemm.mlir"
    path.write_text(GEMM)
    _, module = parse(GEMM, "gemm.mlir")
    before = str(module)
    kernels = [lower_tc.compile(GEMM), lower_tc.compile(str(path)), lower_tc.compile(path), lower_tc.compile(module)]
    assert all(isinstance(k, lower_tc.Kernel) for k in kernels)
    assert {k.info.to_json() for k in kernels} == {kernels[0].info.to_json()}
    assert kernels[0].cubin[:4] == b"\x7fELF"
    assert str(module) == before  # the caller's module is left as it was
    assert lower_tc.compile(GEMM, target="sm_90a").target == "sm_90a"


def test_a_refused_program_is_a_compile_error_with_its_located_line(tmp_path: Path) -> None:
    bad = GEMM.replace("tc.matmul %A, %B to %D", "tc.matmul %A, %B to %Q")
    with pytest.raises(lower_tc.CompileError, match=r"^<source>:\d+:\d+: error: .*%Q") as err:
        lower_tc.compile(bad)
    assert "\n" not in err.value.message and err.value.__cause__ is not None
    path = tmp_path / "bad.mlir"
    path.write_text(GEMM.replace("memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>", "memref<?x?xbf16>, memref<?x?xf16>, memref<?x?xbf16>"))
    with pytest.raises(lower_tc.CompileError, match=rf"^{path}:\d+:\d+: error: "):
        lower_tc.compile(path)
    with pytest.raises(lower_tc.CompileError, match=r"<source>: error: no kernel"):
        lower_tc.compile("func.func @f() {\n  func.return\n}\n")


def test_kernel_and_target_pick_and_check() -> None:
    with pytest.raises(ValueError, match=r"<source> has 2 kernels \(gemm_bf16_dynamic, second\): name one with kernel="):
        lower_tc.compile(TWO)
    assert lower_tc.compile(TWO, kernel="second").name == "second"
    with pytest.raises(ValueError, match=r"<source> has no kernel 'third' \(its kernels: gemm_bf16_dynamic, second\)"):
        lower_tc.compile(TWO, kernel="third")
    with pytest.raises(ValueError, match=r"kernel gemm_bf16_dynamic is for sm_90a \(its tc.target\), not sm_100a"):
        lower_tc.compile(GEMM, target="sm_100a")
    with pytest.raises(ValueError, match=r"target 'sm_80': lower-tc compiles for sm_90a, sm_100a"):
        lower_tc.compile(GEMM, target="sm_80")
    with pytest.raises(FileNotFoundError):
        lower_tc.compile("missing.mlir")
    with pytest.raises(TypeError, match="not bytes"):
        lower_tc.compile(GEMM.encode())  # type: ignore[arg-type]
