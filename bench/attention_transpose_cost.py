"""Where fp8 attention's transposition of V costs (docs/attention.md, "V as given"): times, in
one process on the same e4m3 tensors, the kernel with V^T (no transposition), with V as
given, and variants of the transposition whose results are wrong on purpose:

    none      the producer threads wait, fence and arrive, but move nothing (barriers only)
    loads     4-byte loads of every block, folded into one store (no permutes, no stores)
    loads16   the same bytes with 16-byte loads
    stores    every block's 4 stores, of values in registers (no loads)

    python bench/attention_transpose_cost.py [--runs 10] [--out cost.json]

FA3's shapes at S = 8192, non-causal, head dims 256 and 128, FP8_BLOCKS; TFLOP/s of each
(the median of `runs` samples, interleaved: attention_loop.py `interleaved_samples`).
torch is this benchmark's dependency only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from xdsl.dialects.builtin import i32

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attention_loop import AttentionCase, interleaved_samples  # noqa: E402

from lower_tc.dialects import ptx  # noqa: E402
from lower_tc.passes.to_ptx.attention import transpose  # noqa: E402
from lower_tc.passes.to_ptx.gemm.tma_loads import stage_tile  # noqa: E402

VARIANTS = ("vt", "given", "none", "loads", "loads16", "stores")


def _loads(self: transpose.VTransposer, s, vec: int) -> None:  # type: ignore[no-untyped-def]
    """Every block's load slots (`vec` words an access), XORed into one word stored once."""
    b, plan = self.b, self.plan
    src, src_off = stage_tile(b, self.smem, s, self.src)
    dst, dst_off = stage_tile(b, self.smem, s, self.dst)
    acc = b.imm(0)
    for n in range(0, plan.iterations, vec):
        for j in range(4):
            off = b.val(ptx.XorOp, [self.offsets[j]], type="b32", imm=plan.step_xor[n][j])
            off = b.val(ptx.AndOp, [off], type="b32", imm=~(4 * vec - 1) & 0xFFFFFFFF)
            words = b.emit(ptx.LdOp, [b.val(ptx.AddOp, [src, off], type="u32")], [i32] * vec, space="shared", type="b32",
                           vec=vec, offset=src_off).res
            for w in words:
                acc = b.val(ptx.XorOp, [acc, w], type="b32")
    b.emit(ptx.StOp, [b.val(ptx.AddOp, [dst, self.offsets[4]], type="u32"), acc], space="shared", type="b32", vec=1, offset=dst_off)


def _stores(self: transpose.VTransposer, s) -> None:  # type: ignore[no-untyped-def]
    """Every block's store slots, storing their own offsets."""
    b, plan = self.b, self.plan
    dst, dst_off = stage_tile(b, self.smem, s, self.dst)
    for n in range(plan.iterations):
        for i in range(4):
            off = b.val(ptx.XorOp, [self.offsets[4 + i]], type="b32", imm=plan.step_xor[n][4 + i])
            b.emit(ptx.StOp, [b.val(ptx.AddOp, [dst, off], type="u32"), off], space="shared", type="b32", vec=1, offset=dst_off)


STAGES = {"none": lambda self, s: None, "loads": lambda self, s: _loads(self, s, 1),
          "loads16": lambda self, s: _loads(self, s, 4), "stores": _stores}


def compile_variant(case: AttentionCase, variant: str):  # type: ignore[no-untyped-def]
    """The kernel of `case` with the transposition's stage replaced by `variant`'s."""
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.callable import Kernel

    original = transpose.VTransposer.stage
    transpose.VTransposer.stage = STAGES.get(variant, original)  # type: ignore[method-assign]
    try:
        compiled = compile_source(case.source(), f"{case.name}_{variant}", assemble=True)[0]
    finally:
        transpose.VTransposer.stage = original  # type: ignore[method-assign]
    return Kernel(compiled.cubin, compiled.info)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--out", help="write the rows as JSON")
    args = p.parse_args(argv)
    import torch

    from lower_tc.lowering.runtime.timing import attention_flops

    rows = []
    for d, bm, bn, stages in ((256, 128, 64, 3), (128, 128, 128, 4)):
        s = 8192
        h = 16384 // s * (2048 // d)
        q, k, v = (torch.randn(1, h, s, d, device="cuda").to(torch.float8_e4m3fn) for _ in range(3))
        vt = v.transpose(-1, -2).contiguous()
        o = torch.empty(1, h, s, d, device="cuda", dtype=torch.bfloat16)
        ops, flops = {}, 0.0
        for variant in VARIANTS:
            case = AttentionCase(h, s, d=d, bm=bm, bn=bn, stages=stages, dtype="e4m3", v_given=variant != "vt")
            kernel = compile_variant(case, variant)
            arg = vt if variant == "vt" else v
            ops[variant] = lambda kernel=kernel, arg=arg: kernel(q[0], k[0], arg[0], o[0])
            flops = attention_flops(kernel.info)
        samples = interleaved_samples(ops, args.runs, 3)
        row = {"d": d, "seq": s, **{name: round(flops / (statistics.median(t) * 1e-3) / 1e12, 1) for name, t in samples.items()}}
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
