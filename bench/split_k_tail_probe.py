"""What a global split-K's tail costs: the default kernel of each long-K suite shape
(bf16 and e4m3, B as nn.Linear's weight), timed as the suite times it (rotating copies of
the arrays, a spin kernel's head start, interleaved rounds, the median; cuBLAS beside it:
bench/gemm_suite_gpu.py), its tiles summed by their last CTA (`compile_last_cta_sum`), as
emitted and in timing-only variants of its PTX (`VARIANTS`: D is not fully written in those):

- no_sum: the tile's last CTA's sum and store branched over;
- one_slot: the last CTA sums rank 0's slot only (the loop over ranks 1 to S - 1 ends at once);
- no_acquire_fence: without the last CTA's fence.acq_rel.gpu after it learns it is last;
- one_release_fence: the fence after the partial's stores in the counting thread only.

    python bench/split_k_tail_probe.py --out split_k_tail_probe.json

torch and cuda-bindings are its dependencies (the device's).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def no_sum(ptx: str) -> str:
    """The kernel's PTX with the branch that sends all but the tile's last CTA past the sum
    taken by every CTA."""
    m = re.search(r"@!%p\d+ bra (\$L_split_k_done_\d+);", ptx)
    if m is None:
        raise ValueError("the kernel has no split-K done branch (not a global split)")
    return ptx.replace(m.group(0), f"bra {m.group(1)};", 1)


def one_slot(ptx: str) -> str:
    """The loop over ranks 1 .. S - 1 bounded at 1: its bound is the mov.s32 of S right
    after the `mov.s32 %r, 1` that starts it, after rank 0's loads."""
    at = ptx.index("rank 0's partial into the registers")
    m = re.compile(r"\tmov\.s32 %r\d+, 1;\n\tmov\.s32 (%r\d+), (\d+);\n").search(ptx, at)
    if m is None:
        raise ValueError("no loop over the ranks after rank 0's partial")
    return ptx[: m.start(1)] + m.group(1) + ", 1;" + ptx[m.end(2) + 1 :]


def no_acquire_fence(ptx: str) -> str:
    """Without the fence.acq_rel.gpu right after the branch past the sum."""
    m = re.search(r"(@!%p\d+ bra \$L_split_k_done_\d+;\n)\tfence\.acq_rel\.gpu;\n", ptx)
    if m is None:
        raise ValueError("no fence after the split-K done branch")
    return ptx[: m.start()] + m.group(1) + ptx[m.end() :]


def one_release_fence(ptx: str) -> str:
    """The partial's fence.acq_rel.gpu in the counting thread only (after the consumers
    meet, before its atom), not in every consumer thread after its stores (CUTLASS's
    barrier's form)."""
    at = ptx.index("this CTA's partial tile into its slot")
    fence = ptx.index("\tfence.acq_rel.gpu;\n", at)
    atom = ptx.index("\tatom.acq_rel.gpu.global.add.u32", fence)
    line = len("\tfence.acq_rel.gpu;\n")
    return ptx[:fence] + ptx[fence + line : atom] + "\tfence.acq_rel.gpu;\n" + ptx[atom:]


def long_k_programs(layouts: dict[str, tuple[str, ...]]) -> Iterator[tuple[Any, str]]:
    """Each long-K suite case of these operand types and B layouts ({"bf16": ("linear",)}),
    with the program of its default GEMM (lower_tc.matmul's plan for the case's arrays)."""
    import gemm_suite_shapes as shapes
    from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul

    for dtype, kinds in layouts.items():
        for case in shapes.cases(shapes.select(names=None, categories=["long-k"]), [dtype], list(kinds)):
            ops = case.operands()
            margs = [MatrixArg(n, ops[n][0], ops[n][1], dtype if n != "out" else "bf16") for n in ("a", "b", "out")]
            yield case, plan_matmul(*margs, None, target="sm_90a").source


def compile_last_cta_sum(source: str) -> Any:
    """`source`'s kernel compiled with every global split's tile summed by its last CTA:
    the spread sum (passes/to_ptx/gemm/split_k_global.py `spreads`) off for this compile,
    so that the tail this probe studies is there whatever the grid."""
    import lower_tc.passes.to_ptx.gemm.split_k_global as split_k_global
    from lower_tc.lowering.compile import compile_source

    spreads = split_k_global.spreads
    split_k_global.spreads = lambda *_: False
    try:
        return compile_source(source, "last-cta-sum")[0]
    finally:
        split_k_global.spreads = spreads


#: The timing-only forms of the kernel (module docstring).
VARIANTS = {"no_sum": no_sum, "one_slot": one_slot, "no_acquire_fence": no_acquire_fence, "one_release_fence": one_release_fence}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--samples", type=int, default=15)
    args = p.parse_args(argv)
    import torch

    import gemm_suite_gpu as g

    gpu = g.Gpu(torch)
    rows = []
    for case, source in long_k_programs({"bf16": ("linear",), "e4m3": ("linear",)}):
        ck = compile_last_cta_sum(source)
        if ck.info.workspace is None:
            continue  # not split through global memory
        forms = {"default": (ck.ptx, ck.info), **{n: (f(ck.ptx), ck.info) for n, f in VARIANTS.items()}}
        us, _, by = g.time_kernels(gpu, torch, case, forms, args.samples)
        row = {"shape": case.shape.name, "dtype": case.dtype, "config": str(ck.info.gemm.config), "split_k": ck.info.gemm.split_k,
               "us": us}
        print(json.dumps(row), flush=True)
        rows.append(row)
        del by
    g.write_study(args.out, torch, "bench/split_k_tail_probe.py", argv, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
