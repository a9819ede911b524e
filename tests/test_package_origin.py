"""The test session refuses a lower_tc that is not the checkout under test (tests/conftest.py).

The situation it guards against: one checkout installed editable, another checkout's tests
run with PYTHONPATH set to the second one. The package maps the top-level folders into
`lower_tc.*`, so `lower_tc.passes` and the rest would silently come from the first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, foreign_packages, package_dirs, same_modules


def test_this_checkout_is_the_one_under_test() -> None:
    assert foreign_packages(ROOT) == []
    assert package_dirs(ROOT)["lower_tc.passes"] == ROOT / "passes"


def test_a_second_checkout_on_pythonpath_stops_the_session_at_once(tmp_path: Path) -> None:
    """A fake second checkout (its pyproject.toml, its folders, this conftest and one
    test) run with PYTHONPATH set to it: lower_tc still imports from this checkout, and
    its session must stop before running anything, naming both places."""
    other = tmp_path / "other-checkout"
    (other / "tests").mkdir(parents=True)
    shutil.copy(ROOT / "pyproject.toml", other)
    shutil.copy(ROOT / "tests" / "conftest.py", other / "tests")
    for folder in package_dirs(ROOT).values():
        target = other / folder.relative_to(ROOT)
        target.mkdir(parents=True, exist_ok=True)
        (target / "__init__.py").write_text("")
    (other / "tests" / "test_anything.py").write_text("def test_anything():\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(other)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(other / "tests")],
        cwd=other, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 4, out  # pytest's usage error: nothing ran
    assert "the lower_tc under test is not this checkout's" in out, out
    assert f"from {ROOT}" in out and f"(expected {other}" in out, out
    assert "passed" not in out


def test_a_plain_install_of_this_checkout_is_this_checkout(tmp_path: Path) -> None:
    """A copy of the package laid out as pip installs it (lower_tc/layout/, ...) passes the
    guard while its modules are this checkout's byte for byte, and fails once one differs."""
    site = tmp_path / "site"
    for name, folder in package_dirs(ROOT).items():
        target = site.joinpath(*name.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for module in folder.glob("*.py"):
            shutil.copy(module, target)
    assert same_modules(site / "lower_tc" / "passes", ROOT / "passes")
    probe = (f"import sys; sys.path.append({str(ROOT / 'tests')!r}); import lower_tc.passes; "
             "from conftest import foreign_packages; print(lower_tc.passes.__file__); print(foreign_packages())")
    env = {**os.environ, "PYTHONPATH": str(site)}

    def guard() -> str:
        done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=True)
        return done.stdout.strip()

    assert guard() == f"{site / 'lower_tc' / 'passes' / '__init__.py'}\n[]"  # the copy is imported, and accepted
    (site / "lower_tc" / "passes" / "__init__.py").write_text("# edited\n")
    assert f"lower_tc.passes from {site / 'lower_tc' / 'passes'}" in guard()


def test_pyproject_lists_every_package_folder() -> None:
    """A plain install copies only the packages pyproject.toml lists: every folder with an
    __init__.py under the mapped ones must be there (a new room left out would be missing
    from every wheel, and from the device runs)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = set()
    for name, folder in package_dirs(ROOT).items():
        for init in folder.rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                found.add(".".join((name, *init.parent.relative_to(folder).parts)))
    assert found == listed
