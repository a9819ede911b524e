"""The `lower-tc` compiler driver: xdsl-opt with lower-tc's dialects, passes and
targets, the default pipeline, and located errors instead of tracebacks.

`lower-tc input.mlir` runs the default pipeline and prints PTX. `-p` picks the
pipeline, `-t mlir` prints IR, `-t cubin -o FILE` assembles (nvJitLink or ptxas) and
writes the launch metadata beside the cubin (FILE.json), `-t svg -o
DIR` draws every tile (one SVG each), `-t html -o FILE` one page with every tile,
MMA descriptor and shared-memory map (these two stop the default pipeline after
tc-compute-descriptors); `-o FILE` writes a file (only when everything succeeded,
and whole or not at all: lowering/cli/output.py); no file reads stdin, which must be
UTF-8 text. `--split-input-file` and
`--verify-diagnostics` work as in xdsl-opt; errors print as
``file:line:col: error: message`` with exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from io import BytesIO, StringIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from lower_tc.dialects import available_targets, register_dialects
from lower_tc.dialects.diagnostics import LocatedError, error_line
from lower_tc.lowering.backend.ptxas import BackendError, PtxasTimeoutError
from lower_tc.lowering.cli.output import OutputError, write_files, write_folder, write_stdout, writes_in_place
from lower_tc.lowering.compile import PtxModule, apply_pipeline, module_kernels, verified_between
from lower_tc.lowering.parse import decode_source, parse_source
from lower_tc.lowering.pictures.picture import tile_svg
from lower_tc.lowering.pictures.picture_html import program_html
from lower_tc.lowering.pictures.picture_program import collect
from lower_tc.lowering.pictures.tile import PictureError
from lower_tc.lowering.runtime.artifact import artifact_files
from lower_tc.dialects.ptx.printer import CubinTarget
from lower_tc.passes import DEFAULT_PIPELINE, available_passes


class InputError(Exception):
    """The input file cannot be read: the message names it and says why."""


class LowerTcMain(xDSLOptMain):
    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in available_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        """mlir, ptx and cubin only: xDSL's other targets (riscv-asm, llvm, ...) do not
        apply to tc or ptx IR and fail with tracebacks on it."""
        super().register_all_targets()
        self.available_targets = {"mlir": self.available_targets["mlir"]}
        self.available_targets.update(available_targets())  # ptx, as the xdsl-opt plugin gives it
        self.available_targets["cubin"] = lambda: CubinTarget  # PTX, then ptxas (see output_binary)
        for name in PICTURE_TARGETS:  # drawn by run_pictures, never printed as IR
            self.available_targets[name] = _no_printer

    @property
    def picture_target(self) -> str | None:
        """'svg' or 'html' when the run draws pictures."""
        name = self.args.target.split("{")[0]
        return name if name in PICTURE_TARGETS else None

    def setup_pipeline(self) -> None:
        """Pictures are drawn after placement: the default pipeline stops before tc-lower-to-ptx."""
        if self.picture_target and self.args.passes == DEFAULT_PIPELINE:
            self.args.passes = PICTURE_PIPELINE
        super().setup_pipeline()

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.set_defaults(target="ptx", passes=DEFAULT_PIPELINE)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The whole input, checked to be UTF-8 text before it is split into chunks (a
        ParseError at the first byte that is not)."""
        if self.args.input_file == "-":  # the usual spelling of stdin
            self.args.input_file = None
        try:
            f, ext = super().get_input_stream()
            with f:
                data = f.read()
        except OSError as err:
            raise InputError(f"cannot read {self.get_input_name()}: {err.strerror or err}") from None
        decode_source(data, self.get_input_name())
        return BytesIO(data), ext

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0):
        text = chunk.read()
        if isinstance(text, bytes):
            text = text.decode()
        return parse_source(self.ctx, text, self.get_input_name(), start_offset, not self.args.no_implicit_module)

    def apply_passes(self, prog: ModuleOp) -> None:
        """The passes of -p through the one path the Python API takes too (verified after
        each, failures at their op), with xdsl-opt's callback (--print-between-passes,
        --time-passes, --disable-verify), which verifies where the Python API does
        (`verified_between`)."""
        opt_callback = self.pipeline.callback

        def callback(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
            asked = self.args.disable_verify
            self.args.disable_verify = asked or (previous is not None and not verified_between(previous, following))
            try:
                opt_callback(previous, module, following)
            finally:
                self.args.disable_verify = asked

        apply_pipeline(self.ctx, prog, self.pipeline.passes, callback)

    @property
    def wants_cubin(self) -> bool:
        return self.args.target.split("{")[0] == "cubin"

    def output_binary(self, text: str, module: ModuleOp) -> dict[str, bytes]:
        """`-t cubin -o FILE`: assemble the module's PTX for its target (nvJitLink or ptxas:
        lowering/backend/assembler.py; a time-out is reported at the kernel); the files to
        write: the cubin and, beside it, every kernel's launch metadata (FILE.json,
        lowering/runtime/artifact.py). A FILE that is not a regular file (/dev/null, a
        pipe) gets the cubin alone: nothing can be written beside it."""
        ptx_module = PtxModule.of(module, text)
        cubin = ptx_module.assemble()
        out = self.args.output_file
        if writes_in_place(out):
            return {out: cubin}
        # a hand-written ptx.kernel may carry no launch metadata: it cannot be loaded by name
        infos = [k.info for k in module_kernels(module, text=text)]
        return artifact_files(out, cubin, infos, ptx_module.target)

    def run_pictures(self) -> int:
        """`-t svg -o DIR` / `-t html [-o FILE]`: every picture is drawn before any file
        is written, and an error writes nothing."""
        target = self.picture_target
        out_path = self.args.output_file
        if self.args.split_input_file or self.args.verify_diagnostics or self.args.parsing_diagnostics:
            print(f"lower-tc: error: -t {target} draws one program: no --split-input-file or "
                  "diagnostics checking", file=sys.stderr)
            return 1
        if target == "svg" and not out_path:
            print("lower-tc: error: -t svg writes one file per tile: give -o DIR", file=sys.stderr)
            return 1
        if "tc-lower-to-ptx" in self.args.passes:
            print(f"lower-tc: error: -t {target} draws tc tiles, which tc-lower-to-ptx removes: "
                  "leave it out of -p", file=sys.stderr)
            return 1
        chunks, ext = self.prepare_input()
        (chunk, offset), = chunks
        try:
            module = self.parse_chunk(chunk, ext, offset)
            self.apply_passes(module)
            kernels = collect(module)
            files: dict[str, str] = {}
            if target == "svg":
                for k in kernels:
                    for t in k.tiles:
                        try:
                            files[f"{k.name}.{t.name}.svg"] = tile_svg(t.picture)
                        except PictureError as err:
                            raise LocatedError(t.op, str(err)) from None
            else:
                files[""] = program_html(kernels, self.get_input_name())
        except (ParseError, DiagnosticException) as err:
            print(error_line(err, self.get_input_name(), offset), file=sys.stderr)
            return 1
        finally:
            chunk.close()
        if target == "html":
            if out_path:
                write_files({out_path: files[""]})
            else:
                write_stdout(files[""])
            return 0
        if os.path.exists(out_path) and not os.path.isdir(out_path):
            print(f"lower-tc: error: -t svg writes into a folder; {out_path} is a file", file=sys.stderr)
            return 1
        if not kernels or not files:
            print("lower-tc: error: no tile to draw (no tc.smem_tile in a kernel with tc.target)",
                  file=sys.stderr)
            return 1
        write_folder(out_path, files)
        return 0

    def run(self) -> int:  # type: ignore[override]
        if self.picture_target:
            return self.run_pictures()
        if self.wants_cubin and (not self.args.output_file or self.args.split_input_file):
            print("lower-tc: error: -t cubin writes one binary file: give -o FILE (and no --split-input-file)", file=sys.stderr)
            return 1
        diag_mode = self.args.verify_diagnostics or self.args.parsing_diagnostics
        if self.wants_cubin and diag_mode:
            print("lower-tc: error: -t cubin assembles a kernel; diagnostics are checked with -t mlir or ptx", file=sys.stderr)
            return 1
        chunks, ext = self.prepare_input()
        binary: dict[str, bytes] = {}
        out = StringIO()
        failed = False
        for i, (chunk, offset) in enumerate(chunks):
            if i:
                out.write("// -----\n")
            try:
                module = self.parse_chunk(chunk, ext, offset)
                self.apply_passes(module)
                text = self.output_resulting_program(module)
                if self.wants_cubin:
                    binary = self.output_binary(text, module)
                else:
                    out.write(text)
            except (ParseError, DiagnosticException) as err:
                failed |= self._report(error_line(err, self.get_input_name(), offset), diag_mode, out)
            except BackendError as err:  # ptxas: its errors at their ops, a time-out at the kernel
                located = isinstance(err, PtxasTimeoutError) and err.where
                failed |= self._report(str(err) if located else f"lower-tc: error: {err}", False, out)
            finally:
                chunk.close()
        if failed:
            return 1
        if self.wants_cubin:
            write_files(binary)
        elif self.args.output_file:
            write_files({self.args.output_file: out.getvalue()})
        else:
            write_stdout(out.getvalue())
        return 0

    @staticmethod
    def _report(msg: str, diag_mode: bool, out: StringIO) -> bool:
        """An error: on stderr (the run fails), or with --verify-diagnostics in the
        output, in its chunk's place, as xdsl-opt does (the run goes on)."""
        if diag_mode:
            out.write(msg + "\n")
        else:
            print(msg, file=sys.stderr)
        return not diag_mode


#: Targets that draw pictures instead of printing a program.
PICTURE_TARGETS = ("svg", "html")
#: What they run by default: the default pipeline up to the descriptors.
_DEFAULT_PASSES = DEFAULT_PIPELINE.split(",")
PICTURE_PIPELINE = ",".join(_DEFAULT_PASSES[: _DEFAULT_PASSES.index("tc-compute-descriptors") + 1])


def _no_printer():
    raise ValueError("svg and html are drawn by the driver, not printed as a program")


def _pipeline_error(err: ArgSpecParseError) -> str:
    """xDSL's malformed-pipeline error (a heading, `pass-pipeline:1:COL`, the pipeline
    and a caret, the message) on one line: `-p, column COL: message`."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    place = next((line for line in lines if line.startswith("pass-pipeline:")), "")
    column = place.rsplit(":", 1)[-1]
    message = lines[-1] if len(lines) > 1 else "malformed"
    return f"-p, column {column}: {message}" if column.isdigit() else f"-p: {message}"


def main(argv: list[str]) -> int:
    driver = None
    try:
        driver = LowerTcMain(description=__doc__, args=argv)
        return driver.run()
    except ParseError as err:  # the input is not UTF-8 text
        print(error_line(err, driver.get_input_name() if driver else "<input>"), file=sys.stderr)
        return 1
    except (InputError, OutputError) as err:
        print(f"lower-tc: error: {err}", file=sys.stderr)
        return 1
    except (ValueError, ArgSpecParseError) as err:
        print(f"lower-tc: error: {_pipeline_error(err) if isinstance(err, ArgSpecParseError) else err}",
              file=sys.stderr)
        # raised while the command line was read (-p: a pass or option that does not
        # exist, an option's value out of range): misuse, exit status 2
        return 2 if driver is None else 1
    except BrokenPipeError:
        raise  # handled by lower_tc.lowering.cli.main: the reader closed the pipe
    except OSError as err:
        print(f"lower-tc: error: {err}", file=sys.stderr)
        return 1
