"""The spread split-K sum (passes/to_ptx/gemm/split_k_global.py `spread_reduce`) with and
without the `fence.acq_rel.gpu` each CTA runs before it reads the other CTAs' partials: the
default kernel of each long-K suite shape, its PTX as emitted ("fence") and with those
fences removed ("nofence", a timing-only variant: the lowering keeps them), timed as the
suite times them beside cuBLAS on the same arrays, and whether the two give the same bits.

    python bench/split_k_spread_fence_ab.py > fence_ab.jsonl

torch and cuda-bindings are its dependencies (the device's)."""
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def no_fence(ptx: str) -> str:
    """The PTX without the fence before each spread slice's sum (after the branch into it)."""
    out, n = re.subn(r"(bra \$L_spread_(?:own|left_\d+)_\d+;\n)\tfence\.acq_rel\.gpu;\n", r"\1", ptx)
    assert n >= 2, n
    return out


def main() -> int:
    import torch

    import gemm_suite_gpu as g
    from lower_tc.lowering.compile import compile_source

    from split_k_tail_probe import long_k_programs

    gpu = g.Gpu(torch)
    for case, source in long_k_programs({"bf16": ("linear", "rowmajor"), "e4m3": ("linear",)}):
        ck = compile_source(source, "probe")[0]
        if "spread split-K" not in ck.ptx:
            continue
        us, checks, by = g.time_kernels(gpu, torch, case, {"fence": (ck.ptx, ck.info), "nofence": (no_fence(ck.ptx), ck.info)}, 21)
        assert not any(c.get("nan") for c in checks.values()), checks
        same = bool(torch.equal(by["fence"].output(), by["nofence"].output()))
        row = {"shape": case.shape.name, "dtype": case.dtype, "layout": case.layout, "us": us, "same_bits": same}
        print(json.dumps(row), flush=True)
        del by
    return 0


if __name__ == "__main__":
    sys.exit(main())
