"""`-t 'cubin{file="k.cubin"}'` in stock `xdsl-opt` (the plugin, lower_tc/plugin.py).

An xDSL 0.74 target writes text to a stream that xdsl-opt copies into its output, so the
cubin's bytes cannot go there: the target writes them itself, to the file its `file`
option names, with the launch metadata beside it (`file + ".json"`, the artifact that
`lower_tc.load` reads; both or neither), and prints the PTX it assembled to the output.
The `lower-tc` driver keeps its own `-t cubin -o FILE` (lowering/cli/driver.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from lower_tc.lowering.compile import PtxModule, module_kernels
from lower_tc.lowering.runtime.artifact import write_artifact


class CubinTargetError(ValueError):
    """`-t cubin` without a file to write the cubin to."""


@dataclass(frozen=True)
class CubinFileTarget(Target):
    """Assembles the lowered module (nvJitLink or ptxas) into `file`, its launch metadata
    into `file.json`, and prints the PTX."""

    name = "cubin"
    file: str = ""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if not self.file:
            raise CubinTargetError(
                "the cubin target writes bytes, which an xdsl-opt target cannot print: "
                """name its file, -t 'cubin{file="kernel.cubin"}' (the launch metadata goes beside it, kernel.cubin.json)"""
            )
        ptx_module = PtxModule.of(module)
        cubin = ptx_module.assemble()
        infos = [k.info for k in module_kernels(module, text=ptx_module.text)]
        write_artifact(self.file, cubin, infos, ptx_module.target)
        output.write(ptx_module.text)


__all__ = ["CubinFileTarget", "CubinTargetError"]
