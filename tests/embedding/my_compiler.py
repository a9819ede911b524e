#!/usr/bin/env python3
"""A stand-in for someone else's xDSL-based compiler that embeds lower-tc.

It is built from the lower pieces of the public API (docs/ir.md, "Embedding"; the
README's "Embedded in your own compiler" names it): it knows its own dialects and passes,
parses with xDSL's own Parser, and adds lower-tc's through `lower_tc.register_dialects`,
`lower_tc.available_passes` and `lower_tc.print_ptx`, nothing else. (docs/embedding.md's
compiler uses `lower_tc.parse`, `run_passes` and `kernels` instead.)
tests/test_embedding.py runs it as a separate program.

    my_compiler.py INPUT.mlir PIPELINE [--ptx]

PIPELINE is an xDSL pass pipeline that may mix this compiler's passes (here: all of
xDSL's own, e.g. `canonicalize`) with lower-tc's. Prints the IR, or with --ptx the
PTX of the lowered kernels.
"""

from __future__ import annotations

import sys

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.dialects.gpu import GPU
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes

import lower_tc


def main(argv: list[str]) -> int:
    path, spec = argv[0], argv[1]
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Scf, MemRef, GPU):  # "our" dialects
        ctx.load_dialect(dialect)
    lower_tc.register_dialects(ctx)  # + tc and ptx

    passes = get_all_passes()  # "our" passes
    passes.update(lower_tc.available_passes())  # + lower-tc's
    pipeline = PassPipeline.parse_spec(passes, spec)

    with open(path) as f:
        module = Parser(ctx, f.read(), path).parse_module()
    module.verify()
    pipeline.apply(ctx, module)
    module.verify()
    if "--ptx" in argv:
        sys.stdout.write(lower_tc.print_ptx(module))
    else:
        print(module)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
