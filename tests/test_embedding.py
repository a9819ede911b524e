"""Embedding: a separate minimal compiler (tests/embedding/my_compiler.py) registers
lower-tc's dialects and passes through the public API, mixes them with its own
(xDSL's canonicalize) and runs them on IR where tc kernels sit among standard
dialects (func, arith, scf, memref, gpu)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from lower_tc.layout import Arch, TileLayout, k_slices
from lower_tc.lowering.backend.ptxas import assemble, find_tool

HERE = Path(__file__).resolve().parent / "embedding"
EXAMPLE = HERE.parent.parent / "examples" / "wgmma_f16_gpu_module.mlir"
DESCRIPTOR_PASSES = "canonicalize,tc-choose-swizzle{max=64b},tc-assign-smem,tc-compute-descriptors"


def my_compiler(pipeline: str, *extra: str) -> str:
    proc = subprocess.run(
        [sys.executable, str(HERE / "my_compiler.py"), str(EXAMPLE), pipeline, *extra],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_lower_tc_passes_run_inside_another_pipeline() -> None:
    ir = my_compiler(DESCRIPTOR_PASSES)
    # the host code is untouched by lower-tc, and the embedding compiler's own pass ran on it
    assert "scf.for %i = %c0 to %c16 step %c1" in ir and "memref.load" in ir
    assert "%unused" not in ir  # canonicalize removed the dead arith.addi
    # the pass option reached tc-choose-swizzle: 64b although 128b would fit the K extent
    assert "#tc.layout<k, swizzle = 64b, offset = 0>" in ir
    assert "#tc.layout<mn, swizzle = 64b, offset = 8192>" in ir


def test_descriptors_in_the_embedded_module_are_the_layout_cores() -> None:
    ir = my_compiler(DESCRIPTOR_PASSES)
    values = {
        name: [int(v, 16) for v in re.findall(r"value = (0x[0-9a-f]+)", block)]
        for name, block in re.findall(r"tc\.(a|b)_descs = \[([^\]]*)\]", ir)
    }
    a = TileLayout.make("f16", 64, 64, "k", "64b", address=0)
    b = TileLayout.make("f16", 32, 64, "mn", "64b", address=8192)
    assert values["a"] == [s.descriptor.encode() for s in k_slices(a, Arch.SM90A)]
    assert values["b"] == [s.descriptor.encode() for s in k_slices(b, Arch.SM90A)]
    assert len(values["a"]) == len(values["b"]) == 4


def test_embedded_kernel_lowers_to_ptx_that_ptxas_accepts() -> None:
    ptx = my_compiler("tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx", "--ptx")
    assert ".visible .entry embedded_wgmma(" in ptx
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16") == 4
    assert "host_sum" not in ptx  # host code is not device code
    if find_tool("ptxas") is None:
        pytest.skip("ptxas not found (pip install 'lower-tc[ptxas]')")
    assert assemble(ptx, "sm_90a")[:4] == b"\x7fELF"
