"""Shared fixtures: the repository root, examples, and GPU detection for `gpu` tests; and
a guard that the lower_tc under test is this checkout's.

The package maps the checkout's top-level folders into `lower_tc.*` (pyproject.toml's
package-dir). With one checkout installed editable, running another checkout's tests with
PYTHONPATH set to it would silently import the installed checkout's `lower_tc.passes`: the
session stops at once instead (`pytest_sessionstart`). A plain install of this very checkout
(a copy whose modules are byte-identical, as bench/device_run.sh makes) is this checkout.
"""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """pyproject.toml's package-dir: package name -> the folder it is read from."""
    text = (root / "pyproject.toml").read_text()
    try:
        import tomllib  # Python 3.11+
    except ModuleNotFoundError:  # Python 3.10: the table is plain `"name" = "folder"` lines
        table = text.split("[tool.setuptools.package-dir]", 1)[1].split("\n[", 1)[0]
        mapping = dict(re.findall(r'^\s*"([^"]+)"\s*=\s*"([^"]+)"', table, re.M))
    else:
        mapping = tomllib.loads(text)["tool"]["setuptools"]["package-dir"]
    return {name: (root / folder).resolve() for name, folder in mapping.items()}


def same_modules(found: Path, folder: Path) -> bool:
    """Whether `found` holds exactly the modules of `folder`, byte for byte (a plain, not
    editable, install of this checkout: what the device scripts test)."""
    names = {p.name for p in found.glob("*.py")}
    return names == {p.name for p in folder.glob("*.py")} and all(
        (found / n).read_bytes() == (folder / n).read_bytes() for n in names
    )


def foreign_packages(root: Path = ROOT) -> list[str]:
    """The lower_tc packages that import code other than their folder's in `root`: from
    another folder whose modules differ from this checkout's."""
    wrong = []
    for name, folder in package_dirs(root).items():
        try:
            module = importlib.import_module(name)
        except ImportError as err:  # a package pyproject.toml names that the install lacks
            wrong.append(f"{name} does not import ({err}): reinstall with pip install -e '.[test]'")
            continue
        found = Path(module.__file__ or "").resolve().parent
        if found != folder and not same_modules(found, folder):
            wrong.append(f"{name} from {found} (expected {folder})")
    return wrong


def pytest_sessionstart(session: pytest.Session) -> None:
    wrong = foreign_packages()
    if wrong:
        pytest.exit(
            f"the lower_tc under test is not this checkout's ({ROOT}):\n  "
            + "\n  ".join(wrong)
            + "\nAnother checkout is installed (editable?) or on PYTHONPATH: install this one "
            "into its own environment (python3 -m venv .venv && .venv/bin/pip install -e '.[test]')",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


@functools.cache
def gpu_reason(target: str = "sm_90a") -> str | None:
    """None when a GPU that runs `target` is here, else why not."""
    try:
        from lower_tc.lowering.runtime.errors import RunError
        from lower_tc.lowering.runtime.session import session

        session(target)
    except RunError as err:
        return str(err)
    except Exception as err:  # noqa: BLE001 - any driver failure means no usable GPU
        return f"no usable CUDA driver: {err}"
    return None


def example_target(path: Path) -> str:
    return "sm_100a" if 'tc.target = "sm_100a"' in path.read_text() else "sm_90a"


@pytest.fixture(scope="module")
def torch():
    """torch, or the test skips saying so (the GPU tests run on torch tensors)."""
    return pytest.importorskip("torch")


@pytest.fixture
def kernel_cache(tmp_path, monkeypatch) -> None:
    """A disk cache of compiled kernels of the test's own (LOWER_TC_CACHE_DIR)."""
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def require_gpu():
    def need(target: str = "sm_90a") -> None:
        reason = gpu_reason(target)
        if reason:
            pytest.skip(f"needs a GPU for {target}: {reason}")

    return need
