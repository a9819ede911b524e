"""The fuzzer, exploratory mode: random programs for minutes, every distinct failure
shrunk by Hypothesis and written to a folder.

    python bench/fuzz.py --minutes 20 --out fuzz-findings      # all families, one process
    python bench/fuzz.py --minutes 5 --families matmul,loop --seed 7
    python bench/fuzz.py --summarize fuzz-findings             # the table of a finished run

The families and the promise are tests/fuzz_programs.py's and tests/fuzz_promise.py's (the
CI mode, tests/test_fuzz.py, runs the same ones for a minute, derandomized). Each round runs
one family for `--round` examples with a fresh random seed. A failure is shrunk (Hypothesis
keeps each signature apart: one exception class per signature) and every finding of the
minimal input whose signature is new is written as:

    OUT/NNN-<area>-<kind>.mlir   the minimal input, first line `// fuzz: {how} | finding`
                                 (tests/fuzz_corpus/ takes these files as they are)
    OUT/NNN-<area>-<kind>.txt    what happened: every finding, the command, the note
    OUT/findings.tsv             one row per signature: id, area, kind, known/new, detail

Later rounds skip signatures already found, so the run goes on to new bugs. Known cases
(issue 19's list) are marked `known` in the table by `KNOWN` below.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.internal.conjecture import engine  # noqa: E402

import fuzz_programs as fp  # noqa: E402
from fuzz_promise import Finding, PromiseBroken, examine  # noqa: E402
from lower_tc.lowering.backend.ptxas import find_tool  # noqa: E402

#: A shrink may take this long (Hypothesis's default is 5 minutes).
engine.MAX_SHRINKING_SECONDS = 90

HAVE_PTXAS = find_tool("ptxas") is not None

#: Each family: its strategy (of keyword arguments for `examine`) and its share of rounds.
FAMILIES = {
    "matmul": (st.fixed_dictionaries({"program": fp.matmul_programs(), "target": st.sampled_from(("ptx", "ptx", "mlir")),
                                      "pre_existing": st.booleans()}), 4),
    "loop": (st.fixed_dictionaries({"program": fp.loop_programs(), "pre_existing": st.booleans()}), 3),
    "tile": (st.fixed_dictionaries({"program": fp.tile_programs(), "target": st.sampled_from(("ptx", "mlir"))}), 2),
    "attention": (st.fixed_dictionaries({"program": fp.attention_programs(), "target": st.sampled_from(("ptx", "ptx", "mlir")),
                                         "pre_existing": st.booleans()}), 2),
    "mutated": (st.fixed_dictionaries({"program": fp.mutated_programs(), "pre_existing": st.booleans()}), 3),
    "module": (st.fixed_dictionaries({"program": fp.module_programs(), "target": st.sampled_from(("ptx", "mlir"))}), 1),
    "pipeline": (st.fixed_dictionaries({"program": st.one_of(fp.matmul_programs(odd=""), fp.tile_programs()),
                                        "pipeline": fp.pipelines(), "target": st.sampled_from(("ptx", "mlir"))}), 1),
    "command": (st.fixed_dictionaries({
        "program": st.one_of(fp.matmul_programs(), fp.loop_programs(), fp.tile_programs(), fp.mutated_programs()),
        "target": st.sampled_from(("ptx", "mlir", "cubin") if HAVE_PTXAS else ("ptx", "mlir")),
        "pre_existing": st.booleans(), "stdin": st.booleans(), "cli": st.just("subprocess"),
        "assemble": st.just(True), "write_limit": st.sampled_from((None, None, None, 1024))}), 1),
}

#: Issue 19's known cases: a pattern on a finding's "kind: detail" -> the issue's item.
KNOWN = (
    (r"stores past D", "2: the loop level stores past D"),
    (r"grid [xyz] = |grid x \d+ is not", "3: CUDA's grid limits not checked"),
    (r"persistent grid over \d+ tiles", "1/3: tile counts past 32 bits"),
    (r"(rows|cols|stride) \d+: past the 32-bit|GEMM [MNK] = \d{10}|K steps: past|CTA tiles: past", "1: sizes past 32-bit index arithmetic"),
    (r"immediate -?\d+ does not fit", "1: immediates past 32 bits (raster, loop bounds)"),
    (r"dtype e2m1|dtype e2m3|dtype e3m2|f4E2M1|f6E", "4: 4- and 6-bit types in tc.matmul"),
    (r"does nothing", "5: options that do nothing"),
    (r"\.entry .*not a PTX identifier|Parsing error near '-'", "6: kernel names that are not PTX identifiers"),
    (r"tma stride|global stride|memory space", "7: leading dimension past TMA's stride limit / memory space"),
    (r"RecursionError", "internal: attribute nesting (RecursionError)"),
    (r"Redefinition of symbol", "unlocated: two functions of one name"),
    (r"codec can't decode", "unlocated: invalid UTF-8"),
    (r"tc\.grid is three entries|arith\.divui'? by zero|a wgmma accumulator has M = 64|no tc\.target on the enclosing|"
     r"no kernel to lower|suffix identifier after \{|Could not parse entire input|accumulates in nothing|l2_promotion",
     "misleading message (issue's list)"),
    (r"bytes of shared memory.*(232448|227 KiB)|smem_bytes 2(2|3|4|5)\d{4}\b", "unlocated: a tile between 227 and 256 KiB (tc-assign-smem)"),
)


def known_item(f: Finding) -> str:
    text = f"{f.kind}: {f.detail}"
    for pattern, item in KNOWN:
        if re.search(pattern, text):
            return item
    return ""


class Recorder:
    """Writes each new signature's minimal input and details; remembers what was found."""

    def __init__(self, out: Path):
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.table = out / "findings.tsv"
        self.known: set[str] = set()
        if self.table.exists():
            for line in self.table.read_text().splitlines()[1:]:
                self.known.add(line.split("\t")[5])
        else:
            self.table.write_text("id\tarea\tkind\tissue 19\tfamily\tsignature\tdetail\n")
        self.count = len(self.known)

    def record(self, err: PromiseBroken, family: str, how: dict) -> list[Finding]:
        program = err.program
        new = []
        for f in err.findings:
            if f.signature in self.known:
                continue
            new.append(f)
            self.known.add(f.signature)
            self.count += 1
            slug = re.sub(r"[^a-z0-9]+", "-", f"{f.area}-{f.kind}".lower()).strip("-")[:60]
            stem = f"{self.count:03d}-{slug}"
            header = {k: v for k, v in how.items() if k != "program" and v not in (None, False)}
            if program.unused_attr is not None:
                header["unused_attr"] = program.unused_attr[0]
            line = f"// fuzz: {json.dumps(header, sort_keys=True)} | [{f.area}] {f.kind}: {f.detail}".replace("\n", " ")[:600]
            (self.out / f"{stem}.mlir").write_bytes(line.encode() + b"\n" + program.data)
            (self.out / f"{stem}.txt").write_text(
                f"{f}\n\nsignature: {f.signature}\nknown: {known_item(f) or 'new'}\nfamily: {family}\n"
                f"how: {json.dumps(header)}\nnote: {program.note}\n\nall findings of this input:\n"
                + "\n".join(f"  {g}" for g in err.findings) + "\n"
            )
            with self.table.open("a") as t:
                t.write("\t".join([stem, f.area, f.kind, known_item(f) or "new", family, f.signature,
                                   f.detail.replace("\t", " ").replace("\n", " ")[:300]]) + "\n")
            print(f"  {stem}: {f}  [{known_item(f) or 'NEW'}]", flush=True)
        return new


_CLASSES: dict[str, type[PromiseBroken]] = {}


def _kind_of(signature: str) -> type[PromiseBroken]:
    """One exception class per signature: Hypothesis shrinks each bug on its own."""
    if signature not in _CLASSES:
        _CLASSES[signature] = type(f"Broken{len(_CLASSES)}", (PromiseBroken,), {})
    return _CLASSES[signature]


def one_round(family: str, examples: int, seed: int, known: set[str]) -> list[tuple[PromiseBroken, dict]]:
    """`examples` random examples of `family`; the failures (shrunk) whose signatures are new."""
    strategy = FAMILIES[family][0]
    failures: list[tuple[PromiseBroken, dict]] = []

    @settings(max_examples=examples, database=None, deadline=None, derandomize=False, print_blob=False,
              phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck),
              report_multiple_bugs=True)
    @given(how=strategy)
    def run(how: dict) -> None:
        findings = [f for f in examine(**how) if f.signature not in known]
        if findings:
            err = _kind_of(findings[0].signature)(findings, how["program"], family)
            err.how_args = how  # type: ignore[attr-defined]
            raise err

    try:
        hypothesis_seed(seed)(run)()
    except PromiseBroken as err:
        failures.append((err, err.how_args))  # type: ignore[attr-defined]
    except BaseExceptionGroup as group:  # several distinct bugs in one round
        for err in group.exceptions:
            if isinstance(err, PromiseBroken):
                failures.append((err, err.how_args))  # type: ignore[attr-defined]
            else:
                raise
    return failures


def explore(out: Path, minutes: float, families: list[str], per_round: int, seed: int) -> None:
    rec = Recorder(out)
    rng = random.Random(seed)
    deadline = time.monotonic() + 60 * minutes
    schedule = [f for f in families for _ in range(FAMILIES[f][1])]
    rounds = 0
    print(f"fuzzing {', '.join(families)} for {minutes:g} min (seed {seed}), findings in {out}/", flush=True)
    while time.monotonic() < deadline:
        family = schedule[rounds % len(schedule)]
        rounds += 1
        start = time.monotonic()
        failures = one_round(family, per_round, rng.randrange(2**32), rec.known)
        for err, how in failures:
            rec.record(err, family, how)
        print(f"round {rounds} {family}: {len(failures)} failure(s), {time.monotonic() - start:.0f} s; "
              f"{len(rec.known)} signatures so far", flush=True)
    print(f"done: {rounds} rounds, {len(rec.known)} distinct findings in {rec.table}")


def summarize(out: Path) -> None:
    rows = [line.split("\t") for line in (out / "findings.tsv").read_text().splitlines()[1:]]
    by_area: dict[str, list[list[str]]] = {}
    for row in rows:
        by_area.setdefault(row[1], []).append(row)
    for area, items in sorted(by_area.items()):
        print(f"\n## {area} ({len(items)})")
        for row in items:
            print(f"- {row[0]} [{row[3]}] {row[2]}: {row[6][:200]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated: {', '.join(FAMILIES)}")
    parser.add_argument("--round", type=int, default=60, help="examples per round")
    parser.add_argument("--seed", type=int, default=None, help="the run's seed (default: random)")
    parser.add_argument("--summarize", type=Path, help="print a finished run's findings by area")
    args = parser.parse_args(argv)
    if args.summarize:
        summarize(args.summarize)
        return 0
    families = args.families.split(",")
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families {unknown} (known: {', '.join(FAMILIES)})")
    explore(args.out, args.minutes, families, args.round, args.seed if args.seed is not None else random.randrange(2**32))
    return 0


if __name__ == "__main__":
    sys.exit(main())
