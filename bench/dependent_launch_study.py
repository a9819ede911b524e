"""Where a whole GEMM's programmatic dependent launch pays, and where its wait and trigger
go: the default kernel of each chosen suite shape, timed as the suite times it (rotating
copies of the arrays, a spin kernel's head start, interleaved rounds, the median; cuBLAS
beside it, bench/gemm_suite_gpu.py), in variants of the same PTX:

- plain: without griddepcontrol, launched by cuLaunchKernel (lower-tc before 0534f77);
- wait_first: griddepcontrol.wait as the first instruction, launched with programmatic
  stream serialization allowed (what lower-tc emits and launches now);
- wait_after_init: the wait after the barriers' initialisation (the first bar.sync), so
  that the prologue also overlaps the kernel before;
- trigger_at_start: wait_after_init with griddepcontrol.launch_dependents first, so that
  the next kernel may launch as soon as every CTA of this one has started.

    python bench/dependent_launch_study.py --out study.json [--category decode,batch,square] [--shapes NAME]

bf16, B as nn.Linear's weight. torch and cuda-bindings are its dependencies (the device's).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

WAIT = "\tgriddepcontrol.wait;\n"
VARIANTS = ("plain", "wait_first", "wait_after_init", "trigger_at_start")


def variant_ptx(ptx: str, name: str) -> str:
    """The kernel's PTX (which starts with the wait) as `name` (module docstring)."""
    if name == "wait_first":
        return ptx
    bare = ptx.replace(WAIT, "", 1)
    if name == "plain":
        return bare
    i = bare.index("bar.sync 0;")
    j = bare.index("\n", i) + 1
    moved = bare[:j] + WAIT + bare[j:]
    if name == "trigger_at_start":
        return moved.replace("\t// prologue\n", "\t// prologue\n\tgriddepcontrol.launch_dependents;\n", 1)
    return moved


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--category", action="append", default=None)
    p.add_argument("--shapes", action="append", default=None)
    p.add_argument("--samples", type=int, default=15)
    args = p.parse_args(argv)
    import torch

    import gemm_suite_gpu as g
    import gemm_suite_shapes as shapes
    from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul
    from lower_tc.lowering.compile import compile_source

    gpu = g.Gpu(torch)
    rows = []
    selected = shapes.select(names=args.shapes, categories=args.category or ["decode", "batch"])
    for case in shapes.cases(selected, ["bf16"], ["linear"]):
        ops = case.operands()
        margs = [MatrixArg(n, ops[n][0], ops[n][1], "bf16") for n in ("a", "b", "out")]
        ck = compile_source(plan_matmul(*margs, None, target="sm_90a").source, "study")[0]
        forms = {name: (variant_ptx(ck.ptx, name), dataclasses.replace(ck.info, dependent_launch=name != "plain")) for name in VARIANTS}
        us, checks, by = g.time_kernels(gpu, torch, case, forms, args.samples)
        row = {"shape": case.shape.name, "us": us, "late": {name: c.late for name, c in by.items()}, "checks": checks}
        print(json.dumps({"shape": row["shape"], "us": row["us"]}), flush=True)
        rows.append(row)
        del by
    g.write_study(args.out, torch, "bench/dependent_launch_study.py", argv, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
