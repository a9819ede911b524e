"""Does the GPU check catch a wrong transposition of V? Runs one fp8 attention case with V
as given (its tiles transposed in shared memory, tc.tile_transpose) as lowered, then with
the transposition broken two ways, each of which must fail the check against float64:

    swapped columns   the byte permutes give column 1's keys to column 2 and back
    a block moved     every thread's iteration 1 stores where iteration 0 did

    python bench/attention_transpose_mutations.py [--out results.txt]

Prints one line per run; exits 1 unless the first passes and both mutations fail.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attention_loop import AttentionCase  # noqa: E402

CASE = AttentionCase(2, 1024, d=128, bm=128, bn=128, stages=4, causal=True, dtype="e4m3", v_given=True)


def run(mutation: str) -> bool:
    """Compiles and checks CASE with `mutation` applied to the lowering; whether it passed."""
    from lower_tc.layout import smem_transpose
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.run import run_kernel
    from lower_tc.passes.to_ptx.attention import transpose

    steps, plan_of = transpose.PRMT_STEPS, transpose.transpose_plan
    try:
        if mutation == "swapped columns":
            table = dict((out, (out, a, b, sel)) for out, a, b, sel in steps)
            table["o1"], table["o2"] = ("o1",) + table["o2"][1:], ("o2",) + table["o1"][1:]
            transpose.PRMT_STEPS = tuple(table[out] for out, *_ in steps)
        elif mutation == "a block moved":
            def moved(src, dst, order=False):  # type: ignore[no-untyped-def]
                plan = smem_transpose.transpose_plan(src, dst, order)
                xs = list(plan.step_xor)
                adds = list(plan.step_adds)
                xs[1] = xs[1][:4] + xs[0][4:]
                adds[1] = adds[1][:4] + adds[0][4:]
                return dataclasses.replace(plan, step_xor=tuple(xs), step_adds=tuple(adds))
            transpose.transpose_plan = moved
        kernel = compile_source(CASE.source(), CASE.name, assemble=True)[0]
        result = run_kernel(kernel, seed=1)
    finally:
        transpose.PRMT_STEPS, transpose.transpose_plan = steps, plan_of
    print(f"{mutation or 'as lowered'}: {result.summary()}", flush=True)
    return result.passed


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.parse_args(argv)
    ok = run("")
    for mutation in ("swapped columns", "a block moved"):
        ok = not run(mutation) and ok
    print("the check catches both mutations" if ok else "UNEXPECTED: see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
