"""`lower-tc run input.mlir`: compile, run on the GPU, compare with numpy.

Exit status: 0 every kernel passed; 1 a kernel failed or the input has
errors (ptxas rejecting it, a fault on the GPU and a time-out included);
2 it cannot run here (no GPU, wrong GPU, no CUDA bindings or driver, no
ptxas). With --json, errors are printed as {"error": ..., "status": ...}
on stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from xdsl.utils.exceptions import DiagnosticException, ParseError

from lower_tc.dialects.diagnostics import error_line
from lower_tc.lowering.backend.ptxas import BackendError, ToolUnavailableError
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.errors import KernelError, RunError, ShapeError
from lower_tc.lowering.runtime.run import run_kernel
from lower_tc.lowering.runtime.sizes import parse_shape
from lower_tc.lowering.runtime.timing import time_kernel


def _seconds(text: str) -> float:
    """A time limit: a finite number of seconds over 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"the time limit must be a positive number of seconds, not {text!r}")
    return value


def _bench(kernels: list[Any], args: argparse.Namespace, seed: int, fail: Any, shapes: dict[str, Any]) -> int:
    """`--bench`: the median time, TFLOP/s and spread of each kernel."""
    if args.runs < 1 or args.warmup < 0:
        return fail("lower-tc run: error: --runs must be at least 1 and --warmup at least 0", 2)
    try:
        timings = [time_kernel(k, seed, args.warmup, args.runs, args.timeout, shapes) for k in kernels]
    except (KernelError, ShapeError) as err:
        return fail(f"lower-tc run: error: {err}", 1)
    except RunError as err:
        return fail(f"lower-tc run: error: {err}", 2)
    if args.json:
        print(json.dumps([t.as_dict() for t in timings], indent=2))
    else:
        for t in timings:
            print(t.summary())
        print(f"on {timings[0].device}" if timings else "no kernels")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="lower-tc run", description=__doc__)
    parser.add_argument("input", help="a tile program (.mlir)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    parser.add_argument("--timeout", type=_seconds, default=10.0, help="seconds a kernel may run")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--shape", action="append", default=[], metavar="NAME=ROWSxCOLS[@LD]",
                        help="sizes of an argument known only at launch (memref<?x?x...>), e.g. A=4096x4096")
    parser.add_argument("--bench", action="store_true", help="time the kernels (CUDA events) instead of checking them")
    parser.add_argument("--warmup", type=int, default=5, help="launches before timing (--bench)")
    parser.add_argument("--runs", type=int, default=20, help="timed samples of 10 launches each; the median is reported (--bench)")
    args = parser.parse_args(argv)

    def fail(message: str, status: int) -> int:
        """One error, as a line on stderr, or with --json as {"error", "status"} on stdout."""
        if args.json:
            print(json.dumps({"error": message, "status": status}, indent=2))
        else:
            print(message, file=sys.stderr)
        return status

    seed = args.seed if args.seed is not None else time.time_ns() % (1 << 31)
    try:
        shapes = dict(parse_shape(text) for text in args.shape)
    except ShapeError as err:
        return fail(f"lower-tc run: error: {err}", 1)
    try:
        with open(args.input) as f:
            text = f.read()
        kernels = compile_source(text, args.input, assemble=True)
    except OSError as err:
        return fail(f"lower-tc run: error: {err}", 1)
    except UnicodeDecodeError as err:
        return fail(f"lower-tc run: error: {args.input} is not UTF-8 text ({err.reason} at byte {err.start})", 1)
    except (ParseError, DiagnosticException) as err:
        return fail(error_line(err, args.input), 1)
    except ToolUnavailableError as err:
        return fail(f"lower-tc run: error: {err}", 2)
    except BackendError as err:  # ptxas rejected the kernel: the input's fault
        return fail(f"lower-tc run: error: {err}", 1)
    if args.bench:
        return _bench(kernels, args, seed, fail, shapes)
    results = []
    try:
        for k in kernels:
            results.append(run_kernel(k, seed, args.timeout, shapes))
    except (KernelError, ShapeError) as err:
        return fail(f"lower-tc run: error: {err}", 1)
    except RunError as err:
        return fail(f"lower-tc run: error: {err}", 2)
    if args.json:
        print(json.dumps([r.as_dict() for r in results], indent=2, allow_nan=False))
    else:
        for r in results:
            print(r.summary())
        print(f"seed {seed} on {results[0].device}" if results else "no kernels")
    return 0 if results and all(r.passed for r in results) else 1
