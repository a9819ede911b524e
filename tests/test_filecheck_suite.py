"""Runs the lit/FileCheck suite in filecheck/ as part of `python -m pytest`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parent.parent / "filecheck"
#: Files a lit run takes: the suffixes and excludes of filecheck/lit.cfg.py (lit's own
#: Output/ folders left out).
SUFFIXES = (".mlir", ".test")
#: Files per lit run: the suite is split so that pytest-xdist spreads it over the workers
#: with the rest of the tests (one run of all 126 files held one worker for ~7 minutes).
CHUNK = 8


def suite_files() -> list[Path]:
    return sorted(p for p in SUITE.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                  and not {"Inputs", "Output"} & set(p.relative_to(SUITE).parts))


def chunks() -> list[list[Path]]:
    files = suite_files()
    return [files[i:i + CHUNK] for i in range(0, len(files), CHUNK)]


def test_the_chunks_hold_what_lit_discovers() -> None:
    """Every file lit would run on the folder is in exactly one chunk."""
    done = subprocess.run([sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())",
                           "--show-tests", str(SUITE)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
    discovered = sorted(line.split(" :: ", 1)[1].strip() for line in done.stdout.splitlines() if " :: " in line)
    held = [str(p.relative_to(SUITE)) for chunk in chunks() for p in chunk]
    assert sorted(held) == discovered and len(discovered) > 100


@pytest.mark.parametrize("files", chunks(), ids=lambda files: f"{files[0].relative_to(SUITE)}+{len(files) - 1}")
def test_lit_suite_passes(files: list[Path]) -> None:
    # under pytest-xdist each worker already holds a core: lit runs its files one at a time
    jobs = ["-j1"] if os.environ.get("PYTEST_XDIST_WORKER") else []
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())",
         # the runs share filecheck/: none records its test times there (lit reads that file)
         "-v", "--order=lexical", "--skip-test-time-recording", *jobs, *map(str, files)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-5000:]
    counts = {kind: int(n) for kind, n in re.findall(r"^\s*(Passed|Unsupported|Expectedly Failed): (\d+)", done.stdout, re.M)}
    assert counts.get("Passed", 0) > 0 and sum(counts.values()) == len(files), done.stdout[-3000:]


def test_descriptor_pins_are_current() -> None:
    """filecheck/descriptors/ is what gen_descriptor_pins.py writes today: every value
    cross-checked against the emulator, none hand-edited or left behind by a change."""
    done = subprocess.run(
        [sys.executable, str(SUITE / "gen_descriptor_pins.py"), "--check"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "files current" in done.stdout
