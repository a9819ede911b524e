"""Runs the lit/FileCheck suite in filecheck/ as part of `python -m pytest`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parent.parent / "filecheck"


def test_lit_suite_passes() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())",
         "-v", "--order=lexical", str(SUITE)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-5000:]
    assert "Passed" in done.stdout


def test_descriptor_pins_are_current() -> None:
    """filecheck/descriptors/ is what gen_descriptor_pins.py writes today: every value
    cross-checked against the emulator, none hand-edited or left behind by a change."""
    done = subprocess.run(
        [sys.executable, str(SUITE / "gen_descriptor_pins.py"), "--check"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "files current" in done.stdout
