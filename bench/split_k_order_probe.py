"""Does the order of a paired global split's CTAs over tiles and ranks matter? The default
kernel of the long-K suite shapes whose split pairs CTAs to share B (cluster = 2:
passes/to_ptx/gemm/split_k_global.py) numbers its pairs tile-major: pair p is rank p mod S
of tile pair p / S, so the pairs the hardware places side by side are one tile pair's S
ranks. This times it beside a PTX variant in which hardware pair p plays the kernel's pair
q = (p mod P) S + p / P (P tile pairs): side by side, one rank's P tile pairs, which read
the same K range of A and B. Nothing else changes (every use of %ctaid.x is relabelled;
the pair's two CTAs stay a hardware cluster, so %cluster_ctarank is still x mod 2), so the
two must give the same bits. Nsight Compute counted lower-tc's default reading 1.45x the
L2 bytes of cuBLAS's split-K kernel at 512x512x65536 with the same tiles
(bench/ncu_long_k.py, docs/performance.md): this is the first thing to try.

    python bench/split_k_order_probe.py > order.jsonl
    python bench/split_k_order_probe.py --transposes --no-sum --shapes 512x512 > more.jsonl
    ncu --metrics ... python bench/split_k_order_probe.py --launch --transposes --shapes 512x512

`--transposes`: every permutation of the same kind, hardware pair p playing pair
(p mod a) (pairs / a) + p / a for each a that divides the pairs (`t{a}`; rank-major is
a = P). `--no-sum`: the K loop alone beside them, tile- and rank-major (the tile's sum
branched over in the kernel that sums a tile by its last CTA, bench/split_k_tail_probe.py
`no_sum`; D is not all written). `--launch`: no timing, each form launched three times in
turn on one set of fresh arrays of the first case (named on stdout, in order), for
Nsight Compute.
torch and cuda-bindings are its dependencies (the device's); `--check` (no GPU) only builds
and assembles the variants."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_CTAID = re.compile(r"^(\s*)mov\.u32 (%r\d+), %ctaid\.x;$", re.M)


def rank_major(ptx: str, pairs_of_tiles: int, split_k: int) -> str:
    """The PTX with hardware pair p computing the kernel's pair q = (p mod P) S + p / P
    (any P and S whose product is the number of pairs: `variants(transposes=True)`)."""
    def relabel(m: re.Match) -> str:
        pad, r = m.group(1), m.group(2)
        return "\n".join(pad + line for line in (
            "mov.u32 %ord0, %ctaid.x;",
            "shr.u32 %ord1, %ord0, 1;",
            "and.b32 %ord2, %ord0, 1;",
            f"rem.u32 %ord3, %ord1, {pairs_of_tiles};",
            f"mul.lo.u32 %ord3, %ord3, {split_k};",
            f"div.u32 %ord4, %ord1, {pairs_of_tiles};",
            "add.u32 %ord3, %ord3, %ord4;",
            "shl.b32 %ord3, %ord3, 1;",
            f"add.u32 {r}, %ord3, %ord2;"))

    out, n = _CTAID.subn(relabel, ptx)
    assert n >= 1, "no %ctaid.x to relabel"
    decl = re.search(r"^(\s*)\.reg \.b32 %r<\d+>;$", out, re.M)
    assert decl is not None, "no .b32 register declaration"
    return out[:decl.end()] + f"\n{decl.group(1)}.reg .b32 %ord<5>;" + out[decl.end():]


def variants(source: str, transposes: bool = False, no_sum: bool = False) -> tuple[object, dict[str, str]] | None:
    """The default kernel and its PTX forms (module docstring), or None where it is not a
    paired global split."""
    from lower_tc.lowering.compile import compile_source

    ck = compile_source(source, "order")[0]
    g, cluster = ck.info.gemm, ck.info.cluster
    if g is None or g.reduce != "global" or g.split_k < 2 or cluster != (2, 1, 1):
        return None
    tile_pairs = g.config.tiles(g.m, g.n) // 2
    pairs = tile_pairs * g.split_k
    forms = {"tile_major": ck.ptx, "rank_major": rank_major(ck.ptx, tile_pairs, g.split_k)}
    if transposes:
        forms |= {f"t{a}": rank_major(ck.ptx, a, pairs // a) for a in range(2, pairs) if pairs % a == 0 and a != tile_pairs}
    if no_sum:
        from split_k_tail_probe import compile_last_cta_sum, no_sum as branch_over_sum

        loop = branch_over_sum(compile_last_cta_sum(source).ptx)
        forms |= {"tile_major_no_sum": loop, "rank_major_no_sum": rank_major(loop, tile_pairs, g.split_k)}
    return ck, forms


def main(argv: list[str]) -> int:
    import argparse

    from lower_tc.lowering.backend.assembler import assemble

    from split_k_tail_probe import long_k_programs

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="build and assemble the variants only (no GPU)")
    p.add_argument("--transposes", action="store_true")
    p.add_argument("--no-sum", action="store_true")
    p.add_argument("--launch", action="store_true", help="launch each form three times for Nsight Compute, no timing")
    p.add_argument("--shapes", action="append", metavar="SUBSTRING", help="only the long-K shapes whose name has it")
    p.add_argument("--samples", type=int, default=21)
    args = p.parse_args(argv)
    programs = [(c, src) for c, src in long_k_programs({"bf16": ("linear", "rowmajor"), "e4m3": ("linear",)})
                if not args.shapes or any(x in c.shape.name for x in args.shapes)]

    def forms_of(source: str) -> tuple[object, dict[str, str]] | None:
        return variants(source, args.transposes, args.no_sum)

    if args.check:
        for case, source in programs:
            found = forms_of(source)
            if found is not None:
                for name, ptx in found[1].items():
                    assemble(ptx, "sm_90a")
                print(case.shape.name, case.dtype, case.layout, "assembled", ", ".join(found[1]))
        return 0
    import torch

    import gemm_suite_gpu as g

    if args.launch:
        from lower_tc.lowering.runtime.callable import Kernel

        for case, source in programs:
            found = forms_of(source)
            if found is not None:
                break
        else:
            print("no paired global split among the chosen shapes", file=sys.stderr)
            return 1
        ck, forms = found
        x = g.arrays(torch, case, 1, 1)
        for name, ptx in forms.items():
            kernel = Kernel(assemble(ptx, "sm_90a"), ck.info)  # type: ignore[attr-defined]
            print(name, flush=True)
            for _ in range(3):
                kernel(x.a[0], x.b[0], x.d[0])
            torch.cuda.synchronize()
        return 0
    gpu = g.Gpu(torch)
    for case, source in programs:
        found = forms_of(source)
        if found is None:
            continue
        ck, forms = found
        us, checks, by = g.time_kernels(gpu, torch, case, {n: (ptx, ck.info) for n, ptx in forms.items()}, args.samples)  # type: ignore[attr-defined]
        whole = [n for n in forms if not n.endswith("_no_sum")]
        row = {"shape": case.shape.name, "dtype": case.dtype, "layout": case.layout, "us": us,
               "same_bits": all(torch.equal(by["tile_major"].output(), by[n].output()) for n in whole[1:]),
               "nan": any(c.get("nan") for n, c in checks.items() if not n.endswith("_no_sum"))}
        print(json.dumps(row), flush=True)
        del by
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
