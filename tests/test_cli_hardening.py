"""The `lower-tc` command under bad input and a hostile environment (issue 19): closed
standard streams, out-of-range options, sizes known at launch past the kernel's limits,
write errors, a ptxas that never finishes. Each case runs the real command in a
subprocess and asserts its one error line and exit status, and that nothing is left
half-written. (Located parse errors are pinned in filecheck/driver/.)"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.parser import Parser

from lower_tc.lowering.cli.output import OutputError, write_files
from lower_tc.lowering.parse import LocatedParser, context

ROOT = Path(__file__).resolve().parent.parent
LOWER_TC = str(Path(sys.executable).parent / "lower-tc")
DYNAMIC = str(ROOT / "examples" / "gemm_bf16_dynamic.mlir")

KERNEL = """func.func @k(%D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
"""
#: A kernel whose outputs (PTX, IR, page, pictures) are all well over 4 KiB.
TILES = (ROOT / "examples" / "wgmma_bf16_kmajor.mlir").read_text()


def lower_tc(*argv: str, close: tuple[int, ...] = (), limit: int | None = None,
             env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The command, with standard streams in `close` closed and a file-size limit of
    `limit` bytes (RLIMIT_FSIZE) in the child."""

    def setup() -> None:
        for fd in close:
            os.close(fd)
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [LOWER_TC, *argv], capture_output=1 not in close, stderr=subprocess.PIPE if 1 in close else None,
        text=True, preexec_fn=setup, env={**os.environ, **(env or {})}, timeout=timeout, check=False,
    )


def one_error(done: subprocess.CompletedProcess[str], status: int) -> str:
    """The single line of stderr, after checking the exit status and that nothing else came."""
    assert done.returncode == status, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    return lines[0]


# -- closed standard streams --------------------------------------------------------------


@pytest.mark.parametrize("argv", [("-",), ()])
def test_closed_stdin_is_one_error(argv) -> None:
    """`lower-tc - <&-`: nothing to read from; exit status 2 (how it was called)."""
    line = one_error(lower_tc(*argv, close=(0,)), 2)
    assert line == "lower-tc: error: standard input is closed: give an input file instead of reading it"


@pytest.mark.parametrize("argv", [
    ("{src}",),
    ("desc", "encode", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k", "--swizzle", "auto", "--mn", "64", "--k", "64"),
    ("--help",),
])
def test_closed_stdout_is_one_error(tmp_path, argv) -> None:
    """`lower-tc k.mlir >&-`: every sub-tool says so, once, with exit status 2."""
    src = tmp_path / "k.mlir"
    src.write_text(KERNEL)
    done = lower_tc(*(a.format(src=src) for a in argv), close=(1,))
    assert one_error(done, 2) == "lower-tc: error: standard output is closed: write to a file with -o FILE"


def test_closed_stdout_does_not_matter_with_o(tmp_path) -> None:
    src, out = tmp_path / "k.mlir", tmp_path / "k.ptx"
    src.write_text(KERNEL)
    done = lower_tc(str(src), "-o", str(out), close=(1,))
    assert done.returncode == 0, done.stderr
    assert ".visible .entry k(" in out.read_text()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_failing_stdout_is_one_error(tmp_path) -> None:
    """Standard output on a full device: one line, exit 1, and no second complaint from the
    interpreter's own flush at exit."""
    src = tmp_path / "k.mlir"
    src.write_text(KERNEL)
    with open("/dev/full", "w") as full:
        done = subprocess.run([LOWER_TC, str(src)], stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert one_error(done, 1) == "lower-tc: error: cannot write to standard output: No space left on device"


@pytest.mark.parametrize(("pipeline", "message"), [
    ("tc-bogus", "Unrecognized passes: ['tc-bogus']"),
    ("tc-compute-descriptors{bogus=1}", 'Provided arguments ["bogus"] not found in expected arguments []'),
    ("tc-choose-swizzle{max=7b}", "tc-choose-swizzle: max=7b: unknown swizzle mode '7b' (known: none, 32b, 64b, 128b, 128b_base32b)"),
    ("tc-choose-swizzle{max=64b", "-p, column 26: Malformed pass arguments, expected either a space or `}` here"),
    ("a{", "-p, column 3: Expected argument name here"),
])
def test_a_bad_pipeline_is_a_usage_error(tmp_path, pipeline, message) -> None:
    """-p names a pass or an option that does not exist, a value out of range, or is
    malformed: the command line's fault, one line (xDSL's caret picture folded into a
    column) and exit status 2, nothing written (found by tests/test_fuzz.py)."""
    src, out = tmp_path / "k.mlir", tmp_path / "k.ptx"
    src.write_text(KERNEL)
    done = lower_tc(str(src), "-p", pipeline, "-o", str(out))
    assert one_error(done, 2) == f"lower-tc: error: {message}"
    assert not out.exists()


# -- lower-tc run: options and sizes known at launch ----------------------------------------


@pytest.mark.parametrize("seed", ["-1", str(2**32)])
def test_run_refuses_a_seed_numpy_cannot_take(tmp_path, seed) -> None:
    src = tmp_path / "k.mlir"
    src.write_text(KERNEL)
    done = lower_tc("run", str(src), "--seed", seed)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"lower-tc run: error: argument --seed: a seed is 0 to 4294967295 (2^32 - 1), not {seed}"
    )


@pytest.mark.parametrize(("shapes", "status", "message"), [
    (("A=4294967296x16", "B=16x16", "D=4294967296x16"), 1,
     "kernel argument A's row count is 4294967296: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647)"),
    (("A=18446744073709551616x16", "B=16x16", "D=18446744073709551616x16"), 1,
     "kernel argument A's row count is 18446744073709551616: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647)"),
    (("A=100000000x64", "B=64x64", "D=100000000x64"), 1,
     "kernel gemm_bf16_dynamic: the grid's y is 781250 blocks: CUDA launches 1 to 65535 along y (D is 100000000x64 in 128x256 tiles)"),
    (("A=64x64", "B=64x64", "D=64x64", "Q=1x1"), 1,
     "--shape names no argument of the kernels: Q (their arguments: A, B, D)"),
    (("A=64x2147483520", "B=2147483520x64@2147483520", "D=64x64"), 2,
     "kernel gemm_bf16_dynamic: the run needs at least"),
])
def test_run_checks_launch_sizes_before_allocating_anything(shapes, status, message) -> None:
    """Sizes past the index width, a grid past CUDA's limits, a name that is no argument,
    more host memory than any machine has: one line naming the argument, before anything
    is allocated (the last used to allocate until numpy's MemoryError)."""
    done = lower_tc("run", DYNAMIC, *(f"--shape={s}" for s in shapes))
    assert one_error(done, status).startswith(f"lower-tc run: error: {message}")


@pytest.mark.parametrize(("shape", "message"), [
    ("A=0x64", "--shape 'A=0x64': sizes are positive"),
    ("A=-4x64", "--shape 'A=-4x64': sizes are positive"),
    ("=4x4", "--shape '=4x4': no argument name before '='"),
    ("A=4x", "--shape 'A=4x': expected NAME=ROWSxCOLS[@LD] or NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]], "
             "e.g. A=4096x4096 or A=8x1024x1024"),
    ("A=4x4x4x4", "--shape 'A=4x4x4x4': expected NAME=ROWSxCOLS[@LD] or NAME=BATCHxROWSxCOLS[@LD[,BSTRIDE]], "
                  "e.g. A=4096x4096 or A=8x1024x1024"),
    ("A=2x4x4@8,0", "--shape 'A=2x4x4@8,0': sizes are positive"),
])
def test_a_malformed_shape_is_a_usage_error(shape, message) -> None:
    done = lower_tc("run", DYNAMIC, f"--shape={shape}")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"lower-tc run: error: argument --shape: {message}"


def test_a_shape_given_twice_is_a_usage_error() -> None:
    done = lower_tc("run", DYNAMIC, "--shape=A=64x64", "--shape=B=64x64", "--shape=A=128x64")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "lower-tc run: error: argument --shape: A given more than once"


# -- writes: whole or not at all ----------------------------------------------------------


@pytest.mark.parametrize("target", ["ptx", "mlir", "html"])
def test_a_write_error_leaves_the_old_file_and_nothing_else(tmp_path, target) -> None:
    """A file-size limit of 4 KiB: the output (well over it) fails; the old file keeps its
    content, no temporary file is left, and the error is one line."""
    src, out = tmp_path / "k.mlir", tmp_path / f"out.{target}"
    src.write_text(TILES)
    out.write_text("the old content\n")
    done = lower_tc(str(src), "-t", target, "-o", str(out), limit=4096)
    assert one_error(done, 1) == f"lower-tc: error: cannot write {out}: File too large"
    assert out.read_text() == "the old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.mlir", f"out.{target}"]


def test_a_write_error_in_an_svg_folder_leaves_no_folder(tmp_path) -> None:
    """Not the pictures written before the one that failed, nor the folders made for them."""
    src, out = tmp_path / "k.mlir", tmp_path / "new" / "pictures"
    src.write_text(TILES)
    done = lower_tc(str(src), "-t", "svg", "-o", str(out), limit=4096)
    assert one_error(done, 1).startswith(f"lower-tc: error: cannot write {out}{os.sep}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.mlir"]


def test_binary_writes_are_whole_or_absent(tmp_path) -> None:
    """`-t cubin` writes through write_files too: bytes past the limit fail and leave the
    old file; within it they replace it, keeping the old file's permissions."""
    out = tmp_path / "k.cubin"
    out.write_bytes(b"old")
    out.chmod(0o640)
    code = ("import sys, resource; from lower_tc.lowering.cli.output import write_files, OutputError\n"
            "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
            "try: write_files({sys.argv[1]: bytes(int(sys.argv[2]))})\n"
            "except OutputError as err: print(err); sys.exit(1)\n")
    done = subprocess.run([sys.executable, "-c", code, str(out), "10000"], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and done.stdout == f"cannot write {out}: File too large\n"
    assert out.read_bytes() == b"old" and len(list(tmp_path.iterdir())) == 1
    done = subprocess.run([sys.executable, "-c", code, str(out), "100"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    assert out.read_bytes() == bytes(100) and stat.S_IMODE(out.stat().st_mode) == 0o640


def test_writes_follow_symlinks_and_write_devices_in_place(tmp_path) -> None:
    target, link = tmp_path / "real.ptx", tmp_path / "link.ptx"
    target.write_text("old")
    link.symlink_to(target)
    write_files({str(link): "new"})
    assert link.is_symlink() and target.read_text() == "new"
    write_files({os.devnull: "nothing"})  # not replaced by a regular file
    assert not Path(os.devnull).is_file()
    with pytest.raises(OutputError, match=f"cannot write {tmp_path}: Is a directory"):
        write_files({str(tmp_path): "x"})


# -- ptxas's time limit -------------------------------------------------------------------


def test_a_ptxas_time_out_is_located_at_the_kernel(tmp_path) -> None:
    """A ptxas that never finishes: one line at the kernel, how long it ran, and how to
    give it longer; no cubin written."""
    tools = tmp_path / "bin"
    tools.mkdir()
    slow = tools / "ptxas"
    slow.write_text("#!/bin/sh\nexec sleep 60\n")
    slow.chmod(0o755)
    src, out = tmp_path / "k.mlir", tmp_path / "k.cubin"
    src.write_text(KERNEL)
    env = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}", "LOWER_TC_PTXAS_TIMEOUT": "0.5",
           "LOWER_TC_ASSEMBLER": "ptxas"}  # the ptxas program, not nvJitLink in the process
    done = lower_tc(str(src), "-t", "cubin", "-o", str(out), env=env, timeout=60)
    assert one_error(done, 1) == (
        f"{src}:1:1: error: ptxas ran 0.5 s on kernel k for sm_90a without finishing; give it longer "
        "with LOWER_TC_PTXAS_TIMEOUT=SECONDS (a long or unrolled kernel can take minutes)"
    )
    assert not out.exists()
    done = lower_tc(str(src), "-t", "cubin", "-o", str(out), env={**env, "LOWER_TC_PTXAS_TIMEOUT": "soon"})
    assert one_error(done, 1) == "lower-tc: error: LOWER_TC_PTXAS_TIMEOUT is a positive number of seconds, not 'soon'"


# -- parsing: linear, and still exact ------------------------------------------------------


class _CountingParser(LocatedParser):
    """The old way, for comparison: each op's place from xDSL's Span.get_location, which
    counts the newlines from the start of the file (quadratic in a long file)."""

    def parse_operation(self):
        span = self._current_token.span
        op = Parser.parse_operation(self)
        if isinstance(op.location, UnknownLoc):
            loc = span.get_location()
            op.location = FileLineColLoc(StringAttr(loc.file), IntAttr(loc.line + self.line_offset), IntAttr(loc.col))
        return op


def _program(ops: int, padding: str = "") -> str:
    body = "".join(f"  %c{i} = arith.constant {i} : i32\n{padding}" for i in range(ops))
    return KERNEL.replace("  %c = tc.wmma_zero", body + "  %c = tc.wmma_zero")


def test_parsing_is_linear_in_the_size_of_the_file() -> None:
    """10,000 ops, each followed by a 1000-character comment (10 MB): about 3 s here, in a
    generous bound of 20 s; counting each op's line from the start of the file took 40 s
    (and 100,000 plain ops took 123 s, now 16 s)."""
    text = _program(10_000, "// " + "x" * 1000 + "\n")
    start = time.perf_counter()
    module = LocatedParser(context(), text, "big.mlir").parse_module()
    assert time.perf_counter() - start < 20
    last = list(module.walk())[-1]  # func.return, after every constant
    assert last.name == "func.return"
    assert (last.location.line.data, last.location.column.data) == (text.count("\n", 0, text.index("  func.return")) + 1, 3)


def test_op_locations_are_those_xdsl_counts() -> None:
    """Every op's file:line:col from the line starts found once equals xDSL's own count
    from the start of the file: ops at a line's start and inside one, after tabs and a
    multi-byte character, in nested regions, with a --split-input-file line offset."""
    text = "// é ü\n" + _program(40).replace("  %c5 = ", "\t %c5 = ").replace(
        "%c7 = arith.constant 7 : i32\n", "%c7 = arith.constant 7 : i32 %c7b = arith.constant 8 : i32\n"
    ).replace("  func.return", "  scf.execute_region {\n    %r = arith.constant 1 : i32 scf.yield\n  }\n  func.return")

    def places(parser_class: type[LocatedParser]) -> list[tuple[str, int, int]]:
        module = parser_class(context(), text, "chunk.mlir", line_offset=40).parse_module()
        return [(op.name, op.location.line.data, op.location.column.data) for op in module.walk()
                if isinstance(op.location, FileLineColLoc)]

    found = places(LocatedParser)
    assert found == places(_CountingParser)
    assert len(found) == 48
    assert ("arith.constant", 50, 32) in found  # %c7b, inside line 10 of the chunk
    assert ("scf.yield", 86, 33) in found  # inside a nested region


@pytest.mark.parametrize("prefix", ["", "func.func @f() attributes {s = ", "func.func @"])
def test_an_unclosed_string_is_refused_in_linear_time(tmp_path, prefix) -> None:
    """A string literal that is never closed: one located error at once. xDSL's pattern
    for it backtracked exponentially (a 28-character string took 13 s, a 60-character
    one never ended; found by tests/test_fuzz.py); LinearLexer's matches the same strings."""
    src = tmp_path / "s.mlir"
    src.write_text(prefix + '"' + "a b " * 50_000 + "\n")
    start = time.perf_counter()
    done = lower_tc(str(src), timeout=60)
    assert time.perf_counter() - start < 20
    assert one_error(done, 1) == f"{src}:1:{len(prefix) + 1}: error: End of file reached before closing string literal."


def test_string_literals_read_as_xdsl_reads_them() -> None:
    """LinearLexer's pattern takes the same strings as xDSL's: escapes, a quote inside,
    hex bytes, non-ASCII text; a module with such a string parses as with xDSL's parser."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    from lower_tc.lowering.parse import LinearLexer

    for s in ['""', '"a"', r'"a\"b"', r'"\n\t\\"', r'"\ff\00"', '"é ü 😀"', '"a" "b"', r'"a\q"', '"a\nb"']:
        ours, theirs = LinearLexer._unescaped_characters_regex.match(s), MLIRLexer._unescaped_characters_regex.match(s)
        assert (ours and ours.group()) == (theirs and theirs.group()), s
    text = 'func.func @f() attributes {s = "x\\"y\\n\\ffz é"} {\n  func.return\n}\n'
    ours = str(LocatedParser(context(), text, "s.mlir").parse_module())
    assert ours == str(Parser(context(), text, "s.mlir").parse_module())
    assert 's = "x\\22y\\0A\\FFz \\C3\\A9"' in ours
