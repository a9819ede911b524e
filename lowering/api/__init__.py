"""lower_tc.lowering.api: lower-tc from Python, on the caller's GPU arrays.

==============  ===============================================================
compiling.py    compile(source) -> Kernel, and CompileError
==============  ===============================================================

The room above compile (it compiles with lowering/compile.py) and the runtime (its
`Kernel` is lowering/runtime/callable.py), below the command line. `lower_tc` re-exports
it lazily: `import lower_tc` loads neither xDSL nor CUDA.
"""

from lower_tc.lowering.api.compiling import CompileError, compile

__all__ = ["CompileError", "compile"]
