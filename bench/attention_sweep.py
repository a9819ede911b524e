"""The attention sweep (issue 23, docs/attention.md "Checked on the H100"): tc.attention at
its default blocks (what the op level and lower_tc.attention run) on head dims x causal x
GQA ratios x lengths (ragged, S_q above and below S_k) x both layouts x both types, each
against float64 attention on fresh inputs (lowering/runtime/run.py: O poisoned, guard
bytes, NaN never passes; every row of small problems, sampled rows of large ones).

    python bench/attention_sweep.py --out results.json [--workers 14] [--match TEXT]

The layouts: "bhsd" is (heads, S, D) dense, one batch (3-d memrefs); "bshd" a batch of 2 in
(batch, S, heads, D) memory, read as 4-d (batch, heads, S, D) memrefs with BSHD strides.
Kernels compile in parallel (`--workers` processes), then run one by one on the GPU.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attention_loop import AttentionCase  # noqa: E402

HEAD_DIMS = (64, 128, 256)
#: (query heads, K/V heads): one each, groups of 2, one K/V head for all (MQA).
HEADS = ((4, 4), (4, 2), (4, 1))
#: (S_q, S_k): ragged lengths, one query, S_q below and above S_k.
LENGTHS = ((1, 1), (63, 63), (65, 65), (127, 127), (1000, 1000), (4097, 4097), (127, 1000), (1000, 127))
LAYOUTS = (("bhsd", 1), ("bshd", 2))  # (layout, batch)
TYPES = ("bf16", "f16")


def cases() -> list[AttentionCase]:
    """Every configuration of the sweep (the module docstring), the log-sum-exp on those of
    odd length so that both outputs are checked."""
    from lower_tc.layout.attention import DEFAULT_BLOCKS

    out = []
    for d, causal, (h, kvh), (sq, sk), (layout, batch), t in itertools.product(HEAD_DIMS, (False, True), HEADS, LENGTHS, LAYOUTS, TYPES):
        blocks = DEFAULT_BLOCKS[d]  # the op level's (named in the case)
        out.append(AttentionCase(h, sq, sk=sk, d=d, dtype=t, causal=causal, kv_heads=kvh if kvh != h else None,
                                 batch=batch, layout=layout, lse=sq % 2 == 1, bm=blocks.bm, bn=blocks.bn, stages=blocks.stages))
    return out


@dataclass
class Compiled:
    """What run_kernel needs of a kernel compiled in a worker process."""

    info: object
    cubin: bytes
    reference: None = None


def _compile(case: AttentionCase) -> tuple[str, str, bytes] | tuple[str, str, None]:
    from lower_tc.lowering.compile import compile_source

    try:
        (k,) = compile_source(case.op_source(), case.name, assemble=True)
        return case.name, k.info.to_json(), k.cubin
    except Exception as err:  # noqa: BLE001 - recorded as that configuration's failure
        return case.name, f"{type(err).__name__}: {err}", None


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    p.add_argument("--match", default="")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    from lower_tc.layout.kernel_info import KernelInfo
    from lower_tc.lowering.runtime.run import run_kernel

    todo = [c for c in cases() if args.match in c.name]
    start = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        built = list(pool.map(_compile, todo, chunksize=4))
    print(f"{len(built)} kernels compiled in {time.time() - start:.0f} s", flush=True)
    rows = []
    for case, (name, info, cubin) in zip(todo, built):
        row = {"case": name, "d": case.d, "causal": case.causal, "heads": case.heads, "kv_heads": case.kv_heads or case.heads,
               "sq": case.sq, "sk": case.keys, "layout": case.layout, "batch": case.batch, "dtype": case.dtype, "lse": case.lse}
        if cubin is None:
            row.update(passed=False, error=info)
        else:
            r = run_kernel(Compiled(KernelInfo.from_json(info), cubin), seed=args.seed)
            row.update(passed=r.passed, max_error=r.max_error, outside=r.mismatches, checked=r.checked, nan=r.nan_count, stray=r.stray)
        rows.append(row)
        print(("PASS " if row["passed"] else "FAIL ") + name + ("" if row["passed"] else f": {row}"), flush=True)
    passed = sum(r["passed"] for r in rows)
    out = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "commit": os.environ.get("LOWER_TC_COMMIT") or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
           "command": "python bench/attention_sweep.py " + " ".join(argv), "passed": passed, "total": len(rows),
           "seconds": round(time.time() - start), "results": rows}
    try:
        import torch

        out["device"] = torch.cuda.get_device_name()
    except ImportError:
        pass
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"{passed}/{len(rows)} passed in {time.time() - start:.0f} s")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
