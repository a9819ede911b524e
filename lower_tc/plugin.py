"""lower-tc inside stock `xdsl-opt`: the `xdsl.universe` entry point (pyproject.toml).

xDSL's `Universe.get_multiverse()` loads every installed `xdsl.universe` entry point, so
with lower-tc installed, plain `xdsl-opt` knows the `tc` and `ptx` dialects, every lower-tc
pass and the `ptx` target. The registries are the ones the `lower-tc` driver uses
(`lower_tc.dialects`, `lower_tc.passes`); each factory imports its dialect, pass or printer
only when xdsl-opt first asks for it, so loading this plugin builds no dialect and imports
no CUDA. It lives beside the root package (nothing in lower-tc imports it) and
`import lower_tc` does not load it.

`cubin` takes the file to write: an xDSL 0.74 `Target` writes text (`emit(ctx, module,
output: IO[str])`, to a StringIO that xdsl-opt copies into a file opened with "w"), so
`-t 'cubin{file="k.cubin"}'` writes the cubin and its launch metadata (k.cubin.json) itself
and prints the PTX (lowering/cubin_target.py); `lower-tc -t cubin -o FILE` is the driver's
form of the same.
"""

from __future__ import annotations

from xdsl.universe import Universe

from xdsl.utils.target import Target

from lower_tc.dialects import available_dialects, available_targets
from lower_tc.passes import available_passes


def _cubin_target() -> type[Target]:
    # a lazy registry: the assembler and the artifact writer are imported when `-t cubin` runs
    from lower_tc.lowering.cubin_target import CubinFileTarget

    return CubinFileTarget


#: What `xdsl-opt` gains: dialects tc and ptx, lower-tc's passes, the ptx and cubin targets.
LOWER_TC_UNIVERSE = Universe(
    all_dialects=available_dialects(),
    all_passes=available_passes(),
    all_targets={**available_targets(), "cubin": _cubin_target},
)
