"""What a global split-K's tail costs: the default kernel of each long-K suite shape
(bf16 and e4m3, B as nn.Linear's weight), timed as the suite times it (rotating copies of
the arrays, a spin kernel's head start, interleaved rounds, the median; cuBLAS beside it:
bench/gemm_suite_gpu.py), as emitted and in timing-only variants of its PTX (`VARIANTS`:
D is not fully written in those):

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
import statistics
import sys
from pathlib import Path

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


#: The timing-only forms of the kernel (module docstring).
VARIANTS = {"no_sum": no_sum, "one_slot": one_slot, "no_acquire_fence": no_acquire_fence, "one_release_fence": one_release_fence}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--samples", type=int, default=15)
    args = p.parse_args(argv)
    import torch

    import gemm_suite_gpu as g
    import gemm_suite_shapes as shapes
    from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul
    from lower_tc.lowering.backend.assembler import assemble
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.callable import Kernel

    gpu = g.Gpu(torch)
    rows = []
    for dtype in ("bf16", "e4m3"):
        for case in shapes.cases(shapes.select(names=None, categories=["long-k"]), [dtype], ["linear"]):
            ops = case.operands()
            margs = [MatrixArg(n, ops[n][0], ops[n][1], dtype if n != "out" else "bf16") for n in ("a", "b", "out")]
            ck = compile_source(plan_matmul(*margs, None, target="sm_90a").source, "probe")[0]
            if ck.info.workspace is None or "$L_split_k_done_" not in ck.ptx:
                continue  # not split through global memory, or its sum spread over the tile's CTAs
            x = g.arrays(torch, case, 1, case.copies)
            contenders = [*g.cublas_contenders(torch, case, x)]
            for name, text in (("default", ck.ptx), *((n, f(ck.ptx)) for n, f in VARIANTS.items())):
                contenders.append(g.kernel_contender(name, Kernel(assemble(text, "sm_90a"), ck.info), x))
            g.measure(gpu, contenders, args.samples, 1, 2.0)
            row = {"shape": case.shape.name, "dtype": dtype, "config": str(ck.info.gemm.config), "split_k": ck.info.gemm.split_k,
                   "us": {c.name: round(statistics.median(c.samples) * 1e3, 2) for c in contenders if c.samples}}
            print(json.dumps(row), flush=True)
            rows.append(row)
            del x, contenders
    with open(args.out, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "command": "python bench/split_k_tail_probe.py " + " ".join(argv),
                   "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
