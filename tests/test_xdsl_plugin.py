"""Stock `xdsl-opt` runs lower-tc through its `xdsl.universe` entry point (lower_tc/plugin.py).

The executable is the venv's own `xdsl-opt`, run as a subprocess: what a user of an
environment with lower-tc installed gets, not lower-tc's driver.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from lower_tc.passes import DEFAULT_PIPELINE

GEMM = ROOT / "examples" / "gemm_bf16.mlir"
TILE = ROOT / "examples" / "wgmma_bf16_kmajor.mlir"

#: The printer's `// from file:line:col` comment before an op's PTX. Stock xdsl-opt parses
#: without file locations (lower-tc's located parser is its own driver's), so it prints none.
LOCATION_COMMENT = re.compile(r"^\s*// from \S+:\d+:\d+\n", re.MULTILINE)


def _tool(name: str) -> str:
    """The venv's console script (beside this interpreter), else the one on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    assert found, f"no {name} executable beside {sys.executable} or on PATH"
    return found


def _run(tool: str, *args: str) -> str:
    done = subprocess.run([_tool(tool), *args], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, f"{tool} {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout


def test_stock_xdsl_opt_prints_the_same_ptx_as_lower_tc() -> None:
    """The default pipeline spelled out, `-t ptx`: lower-tc's PTX, less its location comments."""
    stock = _run("xdsl-opt", str(GEMM), "-p", DEFAULT_PIPELINE, "-t", "ptx")
    ours = _run("lower-tc", str(GEMM))
    assert "wgmma.mma_async" in stock and ".entry gemm_bf16" in stock
    assert LOCATION_COMMENT.search(ours), "lower-tc's PTX names its source lines"
    assert not LOCATION_COMMENT.search(stock)
    assert stock == LOCATION_COMMENT.sub("", ours)


def test_stock_xdsl_opt_compiles_linalg() -> None:
    """convert-linalg-to-tc first (as lower-tc's default pipeline runs it): the linalg
    example's PTX, as lower-tc prints it less its location comments."""
    linalg = ROOT / "examples" / "linalg_matmul.mlir"
    stock = _run("xdsl-opt", str(linalg), "-p", DEFAULT_PIPELINE, "-t", "ptx")
    assert '"b_transposed": true' in stock and ".entry linear" in stock
    assert stock == LOCATION_COMMENT.sub("", _run("lower-tc", str(linalg)))


def test_stock_xdsl_opt_runs_one_pass_on_a_tile_program() -> None:
    """`-p tc-choose-swizzle` fills every `auto` swizzle, as `lower-tc -t mlir` does."""
    stock = _run("xdsl-opt", str(TILE), "-p", "tc-choose-swizzle")
    assert "swizzle = auto" in TILE.read_text() and "swizzle = auto" not in stock
    assert stock == _run("lower-tc", str(TILE), "-p", "tc-choose-swizzle", "-t", "mlir")


def test_loading_the_plugin_builds_nothing_and_imports_no_cuda() -> None:
    """xdsl-opt loads every entry point at start: lower-tc's must stay a table of factories
    (no dialect built, no pass or printer imported, no CUDA), and `import lower_tc` must
    not load the plugin."""
    probe = (
        "import sys, lower_tc\n"
        "assert 'lower_tc.plugin' not in sys.modules\n"
        "from xdsl.universe import Universe\n"
        "u = Universe.get_multiverse()\n"
        "print(sorted(u.all_targets), sorted(n for n in u.all_dialects if n in ('tc', 'ptx')),\n"
        "      sorted(n for n in u.all_passes if n.startswith(('tc-', 'ptx-', 'convert-linalg-to-tc'))))\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    listed, modules = done.stdout.splitlines()
    assert "'ptx'" in listed and "'cubin'" in listed
    assert "['ptx', 'tc']" in listed
    assert all(f"'{name.split('{')[0]}'" in listed for name in DEFAULT_PIPELINE.split(","))
    loaded = set(modules.split())
    assert "lower_tc.plugin" in loaded
    assert not loaded & {"lower_tc.dialects.tc", "lower_tc.dialects.ptx", "lower_tc.dialects.ptx.printer",
                         "lower_tc.passes.lower_to_ptx", "lower_tc.passes.choose_swizzle",
                         "lower_tc.lowering.cubin_target", "lower_tc.lowering.backend.assembler"}
    assert not any(m.startswith("cuda") for m in loaded)



@pytest.mark.skipif(shutil.which("ptxas") is None and not (Path(sys.executable).parent / "ptxas").exists()
                    and importlib.util.find_spec("nvidia") is None,
                    reason="no assembler: pip install 'lower-tc[test]' (ptxas) or 'lower-tc[gpu]' (nvJitLink)")
def test_stock_xdsl_opt_writes_a_cubin_and_its_metadata(tmp_path) -> None:
    """`-t 'cubin{file=...}'`: the cubin and the launch metadata beside it, the artifact
    `lower-tc -t cubin -o` writes (lower_tc.load reads either); the PTX on stdout."""
    from lower_tc.lowering.runtime.artifact import read_artifact

    stock = tmp_path / "stock.cubin"
    ours = tmp_path / "ours.cubin"
    printed = _run("xdsl-opt", str(GEMM), "-p", DEFAULT_PIPELINE, "-t", f'cubin{{file="{stock}"}}')
    _run("lower-tc", str(GEMM), "-t", "cubin", "-o", str(ours))
    assert ".entry gemm_bf16" in printed
    got, want = read_artifact(stock), read_artifact(ours)
    assert got.cubin[:4] == b"\x7fELF" and got.cubin == want.cubin
    assert [i.to_json() for i in got.infos] == [i.to_json() for i in want.infos]


def test_stock_xdsl_opt_cubin_needs_a_file() -> None:
    """Without `file` the target says how to name one (xdsl-opt prints its traceback)."""
    done = subprocess.run([_tool("xdsl-opt"), str(GEMM), "-p", DEFAULT_PIPELINE, "-t", "cubin"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode != 0
    assert """-t 'cubin{file="kernel.cubin"}'""" in done.stderr
