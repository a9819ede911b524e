"""Shared fixtures: the repository root, examples, and GPU detection for `gpu` tests."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


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


@pytest.fixture
def require_gpu():
    def need(target: str = "sm_90a") -> None:
        reason = gpu_reason(target)
        if reason:
            pytest.skip(f"needs a GPU for {target}: {reason}")

    return need
