"""`lower-tc run input.mlir`: compile, run on the GPU, compare with numpy.

Exit status: 0 every kernel passed; 1 a kernel failed or the input has
errors (ptxas rejecting it, sizes that do not fit the kernel or break a
limit, a fault on the GPU and a time-out included); 2 the command line is
wrong (a malformed option) or it cannot run here (no GPU, wrong GPU, no
CUDA bindings or driver, no ptxas, not enough host memory). With --json,
errors are printed as {"error": ..., "status": ...} on stdout.

Every size known at launch (--shape) is checked against the kernel's limits
(lowering/runtime/sizes.py) and the host memory the run takes, for every
kernel, before anything is allocated or launched.
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
from lower_tc.lowering.backend.ptxas import BackendError, PtxasTimeoutError, ToolUnavailableError
from lower_tc.lowering.compile import CompiledKernel, assemble_kernels, compile_source
from lower_tc.lowering.parse import decode_source
from lower_tc.lowering.runtime.errors import KernelError, RunError, ShapeError
from lower_tc.lowering.runtime.memory import check_host_memory
from lower_tc.lowering.runtime.run import run_kernel
from lower_tc.lowering.runtime.sizes import Shape, parse_shape, resolve_sizes
from lower_tc.lowering.runtime.timing import time_kernel
from lower_tc.lowering.cli.tune import tune_source

#: Seeds numpy's generator takes from the command line: 0 to 2^32 - 1.
MAX_SEED = 2**32 - 1


def _seconds(text: str) -> float:
    """A time limit: a finite number of seconds over 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"the time limit must be a positive number of seconds, not {text!r}")
    return value


def _seed(text: str) -> int:
    """A random seed: an integer from 0 to MAX_SEED."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is 0 to {MAX_SEED} (2^32 - 1), not {text}")
    return value


def _count(least: int):
    """An argparse type: an integer of at least `least`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"at least {least}, not {text}")
        return value

    return parse


def _shape(text: str) -> tuple[str, Shape]:
    """A --shape option, NAME=ROWSxCOLS[@LD] or NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]]."""
    try:
        return parse_shape(text)
    except ShapeError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _kernel_shapes(kernels: list[CompiledKernel], shapes: dict[str, Shape]) -> list[dict[str, Shape]]:
    """Each kernel's own --shape sizes, every one resolved and checked (limits, host
    memory) before any kernel runs; a --shape naming no argument of any kernel is refused."""
    names = {a.param[2:] for k in kernels for a in k.info.args}
    unknown = sorted(set(shapes) - names)
    if unknown:
        known = ", ".join(sorted(names)) or "none"
        raise ShapeError(f"--shape names no argument of the kernels: {', '.join(unknown)} (their arguments: {known})")
    own = [{a.param[2:]: shapes[a.param[2:]] for a in k.info.args if a.param[2:] in shapes} for k in kernels]
    for k, given in zip(kernels, own):
        check_host_memory(resolve_sizes(k.info, given))
    return own


def _bench(kernels: list[Any], args: argparse.Namespace, seed: int, fail: Any, shapes: list[dict[str, Shape]]) -> int:
    """`--bench`: the median time, TFLOP/s and spread of each kernel."""
    try:
        timings = [time_kernel(k, seed, args.warmup, args.runs, args.timeout, s) for k, s in zip(kernels, shapes)]
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
    parser.add_argument("--seed", type=_seed, default=None, help=f"random seed, 0 to {MAX_SEED} (default: from the clock)")
    parser.add_argument("--timeout", type=_seconds, default=10.0, help="seconds a kernel may run")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--shape", type=_shape, action="append", default=[], metavar="NAME=[BATCHx]ROWSxCOLS[@LD[,BSTRIDE]]",
                        help="sizes of an argument known only at launch (memref<?x?x...>), e.g. A=4096x4096, or a batch "
                             "of matrices (memref<?x?x?x...>), e.g. A=8x1024x1024; LD and the batch stride BSTRIDE in "
                             "elements, dense by default (A=8x1024x1000@1008 or @1008,1048576 or @,1048576)")
    parser.add_argument("--bench", action="store_true", help="time the kernels (CUDA events) instead of checking them")
    parser.add_argument("--warmup", type=_count(0), default=5, help="launches before timing (--bench)")
    parser.add_argument("--runs", type=_count(1), default=20, help="timed samples of 10 launches each; the median is reported (--bench)")
    parser.add_argument("--tune", action="store_true", help="time the chooser's candidates for each tc.matmul without a config on "
                        "this GPU, write the fastest in (remembered per program and device: lowering/api/tuning.py), then run")
    args = parser.parse_args(argv)
    given = [name for name, _ in args.shape]
    twice = sorted({name for name in given if given.count(name) > 1})
    if twice:
        parser.error(f"argument --shape: {', '.join(twice)} given more than once")

    def fail(message: str, status: int) -> int:
        """One error, as a line on stderr, or with --json as {"error", "status"} on stdout."""
        if args.json:
            print(json.dumps({"error": message, "status": status}, indent=2))
        else:
            print(message, file=sys.stderr)
        return status

    seed = args.seed if args.seed is not None else time.time_ns() % (1 << 31)
    try:
        with open(args.input, "rb") as f:
            data = f.read()
        text = decode_source(data, args.input)
        if args.tune:
            text = tune_source(text, args.input, seed, args.timeout, lambda line: print(line, file=sys.stderr))
        kernels = compile_source(text, args.input)
    except OSError as err:
        return fail(f"lower-tc run: error: cannot read {args.input}: {err.strerror or err}", 1)
    except (ParseError, DiagnosticException) as err:
        return fail(error_line(err, args.input), 1)
    except (KernelError, ShapeError) as err:  # --tune: a candidate faulted, or sizes it cannot tune
        return fail(f"lower-tc run: error: {err}", 1)
    except RunError as err:  # --tune: no GPU here
        return fail(f"lower-tc run: error: {err}", 2)
    try:  # sizes first: refused before ptxas spends time on the kernels
        shapes = _kernel_shapes(kernels, dict(args.shape))
    except ShapeError as err:
        return fail(f"lower-tc run: error: {err}", 1)
    except RunError as err:  # not enough host memory here
        return fail(f"lower-tc run: error: {err}", 2)
    try:
        assemble_kernels(kernels)
    except ToolUnavailableError as err:
        return fail(f"lower-tc run: error: {err}", 2)
    except PtxasTimeoutError as err:  # already one line at the kernel
        return fail(str(err) if err.where else f"lower-tc run: error: {err}", 1)
    except BackendError as err:  # ptxas rejected the kernel: the input's fault
        return fail(f"lower-tc run: error: {err}", 1)
    if args.bench:
        return _bench(kernels, args, seed, fail, shapes)
    results = []
    try:
        for k, own in zip(kernels, shapes):
            results.append(run_kernel(k, seed, args.timeout, own))
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
