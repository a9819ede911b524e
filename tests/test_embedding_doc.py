"""docs/embedding.md's compiler of one's own, run as the page shows it: its Python block
(between the embedding-example markers) on its input (embedding-input), checked up to
the PTX and the launch contract everywhere, the cubins where an assembler is installed;
and the error the page shows for a pipeline without tc-expand-matmul is the one raised."""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import lower_tc
from conftest import ROOT
from lower_tc.lowering.backend.ptxas import find_tool

DOC = (ROOT / "docs" / "embedding.md").read_text()


def block(marker: str) -> str:
    """The fenced code between ``<!-- MARKER:begin -->`` and ``<!-- MARKER:end -->``."""
    found = re.search(rf"<!-- {marker}:begin -->\n```[a-z]*\n(.*?)```\n<!-- {marker}:end -->", DOC, re.S)
    assert found is not None, f"docs/embedding.md has no {marker} block"
    return found.group(1)


@pytest.fixture(scope="module")
def example() -> Iterator[dict[str, Any]]:
    """The block run as a module of its own (its dataclasses look their module up)."""
    module = types.ModuleType("embedding_example")
    sys.modules[module.__name__] = module
    try:
        exec(compile(block("embedding-example"), "docs/embedding.md", "exec"), module.__dict__)  # noqa: S102 - the page's own code
        yield module.__dict__
    finally:
        del sys.modules[module.__name__]


def test_the_example_is_about_thirty_lines_of_code() -> None:
    code = [line for line in block("embedding-example").splitlines() if line.strip()]
    assert 25 <= len(code) <= 45


def test_the_example_compiles_the_input_to_ptx_and_a_launch_contract(example) -> None:
    kernels = example["my_compile"](block("embedding-input"), "model.mlir")
    assert [k.name for k in kernels] == ["gemm"]
    (k,) = kernels
    assert isinstance(k, lower_tc.CompiledKernel) and isinstance(k.info, lower_tc.contracts.KernelInfo)
    # the embedder's first pass made the function a kernel for its target
    assert k.info.target == "sm_90a" and k.location == "model.mlir:1:1"
    assert k.info.gemm is not None and (k.info.gemm.m, k.info.gemm.n, k.info.gemm.k) == (256, 256, 128)
    # the warp-specialised kernel: a producer warpgroup and one consumer per 64 rows of the tile
    assert k.info.threads == 128 + 128 * (k.info.gemm.config.bm // 64)
    assert [a.param for a in k.info.args] == ["p_A", "p_B", "p_D"] and k.info.args[2].output
    assert ".visible .entry gemm(" in k.ptx and "wgmma.mma_async" in k.ptx and ".target sm_90a" in k.ptx
    # the launch contract in the PTX is the one given
    assert f"// lower-tc kernel gemm: {k.info.to_json()}" in k.ptx
    assert not k.assembled  # nothing assembled until asked


def test_the_embedders_passes_ran_before_and_after_lower_tcs(example) -> None:
    module = lower_tc.parse(block("embedding-input"), "model.mlir")
    lower_tc.run_passes(module, [example["MarkKernels"]("sm_100a"), *lower_tc.default_pipeline(), example["DropHostCode"]()])
    text = str(module)
    assert "func.func" not in text  # the host function and the kernel's shell are gone
    assert [k.info.target for k in lower_tc.kernels(module)] == ["sm_100a"]  # the pass's option reached it


def test_the_error_the_page_shows_is_the_one_raised(example) -> None:
    shown = block("embedding-error").strip()
    module = lower_tc.parse(block("embedding-input"), "model.mlir")
    pipeline = [p for p in lower_tc.default_pipeline() if p.name != "tc-expand-matmul"]
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(module, [example["MarkKernels"](), *pipeline])
    assert err.value.message == shown
    assert (err.value.file, err.value.line, err.value.column) == ("model.mlir", 2, 3)


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
def test_save_writes_each_cubin_and_its_contract(example, tmp_path: Path) -> None:
    kernels = example["my_compile"](block("embedding-input"), "model.mlir")
    example["save"](kernels, tmp_path)
    assert (tmp_path / "gemm.cubin").read_bytes()[:4] == b"\x7fELF"
    assert lower_tc.contracts.KernelInfo.from_json((tmp_path / "gemm.json").read_text()) == kernels[0].info
    assert json.loads((tmp_path / "gemm.json").read_text())["version"] == kernels[0].info.version == lower_tc.contracts.BASE_VERSION
    assert kernels[0].kernel().cubin == kernels[0].cubin  # a lower_tc.Kernel on the same cubin


def test_the_page_is_linked_from_the_readme_and_the_architecture() -> None:
    for page in ("README.md", "docs/architecture.md", "docs/api.md"):
        assert "embedding.md" in (ROOT / page).read_text(), page
