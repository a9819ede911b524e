"""The `lower-tc` command: dispatches to its sub-tools.

Kept lean: each sub-tool's module is imported only when that tool runs, so that
`lower-tc desc` starts without xDSL and a compile without the GPU runtime.
"""

from __future__ import annotations

import os
import sys

from lower_tc.lowering.cli.output import ClosedStream, ClosedStreamError

USAGE = """usage: lower-tc [options] [input.mlir]      compile a tile program (see lower-tc --help)
       lower-tc run input.mlir [--seed N]    run on the GPU against numpy (see lower-tc run --help)
       lower-tc desc {encode,decode,show} ...  descriptor tool, tile pictures (see lower-tc desc --help)"""


def main(argv: list[str] | None = None) -> int:
    # a standard stream closed by the caller (`lower-tc - <&-`, `lower-tc k.mlir >&-`) is
    # None in Python: a stand-in makes any use of it one clear error, exit status 2
    if sys.stdin is None:
        sys.stdin = ClosedStream("input", "give an input file instead of reading it")  # type: ignore[assignment]
    if sys.stdout is None:
        sys.stdout = ClosedStream("output", "write to a file with -o FILE")  # type: ignore[assignment]
    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except ClosedStreamError as err:
        print(f"lower-tc: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped early (`lower-tc ... | head`): not an error, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as err:  # noqa: BLE001 - a bug in lower-tc: one line, not a traceback
        if os.environ.get("LOWER_TC_TRACEBACK"):
            raise
        print(
            f"lower-tc: internal error: {type(err).__name__}: {err} (a bug in lower-tc; "
            "LOWER_TC_TRACEBACK=1 shows where)",
            file=sys.stderr,
        )
        return 1


def _dispatch(argv: list[str]) -> int:
    if argv and argv[0] == "desc":
        # imported here: `lower-tc desc` starts without xDSL (layout math and SVG only)
        from lower_tc.lowering.cli import desc

        return desc.main(argv[1:])
    if argv and argv[0] == "run":
        # imported here: only `lower-tc run` needs the GPU runtime
        from lower_tc.lowering.cli import run

        return run.main(argv[1:])
    # imported here: the compiler driver loads xDSL, which `lower-tc desc` must not wait for
    from lower_tc.lowering.cli import driver

    return driver.main(argv)
