"""Hashes of everything lower-tc emits, to show that a change of the code did not change
its output: every example, every single-tile sweep configuration (wgmma, WMMA, tcgen05),
every GEMM sweep configuration (sm_90a and sm_100a) and every attention case of
bench/attention_loop.py (its check, timing and tuning lists; loop and op level).

    python bench/ptx_hashes.py --out after.tsv                    # all (about 12,000 kernels)
    python bench/ptx_hashes.py --out a.tsv --sets examples gemm   # some sets
    python bench/ptx_hashes.py --compare before.tsv after.tsv     # what differs, by column

One TSV row per kernel: set, name, then three sha256 prefixes: `ptx` of the whole PTX
text, `code` of the PTX without the launch-metadata comment line, and `info` of the
metadata JSON (sorted keys; a top-level "version" key is left out, so that versioning the
metadata shows as a change of `ptx` alone). A configuration that does not compile has
its error in place of the hashes: a refusal must stay the same refusal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

#: The sets, in order: examples, the single-tile sweep (sm_90a, then tcgen05), the GEMM sweep.
SETS = ("examples", "tile", "tile-tcgen05", "gemm", "gemm-tcgen05", "attention")
#: The launch-metadata comment line of each kernel in the PTX.
INFO_LINE = re.compile(r"^// lower-tc kernel [^:]+: (\{.*\})$", re.M)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def hash_source(job: tuple[str, str, str]) -> str:
    """One row: compile `text` with the default pipeline and hash what comes out."""
    from lower_tc.lowering.compile import compile_source  # the project's Python entry point

    kind, name, text = job
    try:
        kernels = compile_source(text, name)
    except Exception as err:  # noqa: BLE001 - a refusal is recorded as the output
        first = (str(err).splitlines() or [""])[0][:200]
        return f"{kind}\t{name}\terror\t{type(err).__name__}: {first}\t"
    ptx = kernels[0].ptx if kernels else ""
    infos = [json.loads(m) for m in INFO_LINE.findall(ptx)]
    for info in infos:
        info.pop("version", None)
    code = INFO_LINE.sub("", ptx)
    return f"{kind}\t{name}\t{_digest(ptx)}\t{_digest(code)}\t{_digest(json.dumps(infos, sort_keys=True))}"


def jobs(sets: list[str]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    if "examples" in sets:
        for path in sorted((ROOT / "examples").glob("*.mlir")):
            out.append(("examples", path.name, path.read_text()))
    if "tile" in sets or "tile-tcgen05" in sets:
        import sweep

        for subset, kind in (("all", "tile"), ("tcgen05", "tile-tcgen05")):
            if kind in sets:
                out += [(kind, key, text) for key, text, *_ in sweep.jobs(subset, 0, True)]
    if "gemm" in sets or "gemm-tcgen05" in sets:
        import gemm_sweep

        for subset, kind in (("full", "gemm"), ("tcgen05", "gemm-tcgen05")):
            if kind in sets:
                out += [(kind, c.name, c.source()) for c in gemm_sweep.cases(subset)]
    if "attention" in sets:
        import attention_loop as al

        seen: set[str] = set()
        for c in al.CHECKS + al.BENCH + al.TUNE + al.MOSAIC + al.FP8_BENCH + al.FP8_V_BENCH + al.FP8_TUNE:
            if c.name not in seen:
                seen.add(c.name)
                out += [("attention", f"{c.name} loop", c.source()), ("attention", f"{c.name} op", c.op_source())]
    return out


def compare(before: str, after: str) -> int:
    """Prints, per set and column, how many rows differ; exit 1 if any row does."""

    def rows(path: str) -> dict[tuple[str, str, int], list[str]]:
        """Rows by (set, name, occurrence): a sweep may list one name twice."""
        seen: dict[tuple[str, str], int] = {}
        out = {}
        for line in Path(path).read_text().splitlines()[1:]:
            p = line.split("\t")
            n = seen[(p[0], p[1])] = seen.get((p[0], p[1]), -1) + 1
            out[(p[0], p[1], n)] = p[2:]
        return out

    old, new = rows(before), rows(after)
    changed = 0
    if old.keys() != new.keys():
        print(f"rows only in {before}: {len(old.keys() - new.keys())}, only in {after}: {len(new.keys() - old.keys())}")
        changed += 1
    for kind in SETS:
        keys = sorted(k for k in old.keys() & new.keys() if k[0] == kind)
        if not keys:
            continue
        diff = {col: [k for k in keys if old[k][i] != new[k][i]] for i, col in enumerate(("ptx", "code", "info"))}
        errors = sum(old[k][0] == "error" for k in keys)
        print(f"{kind}: {len(keys)} rows ({errors} refusals): "
              + ", ".join(f"{col} differs in {len(d)}" for col, d in diff.items()))
        for col, d in diff.items():
            for k in d[:5]:
                print(f"    {col}: {k[1]}")
        changed += any(diff.values())
    return 1 if changed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="the TSV to write")
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("--out or --compare")
    work = jobs(args.sets)
    with mp.get_context("spawn").Pool(args.workers) as pool:
        lines = pool.map(hash_source, work, chunksize=8)
    Path(args.out).write_text("set\tname\tptx\tcode\tinfo\n" + "\n".join(lines) + "\n")
    print(f"{len(lines)} kernels hashed into {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
