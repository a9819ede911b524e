"""lower_tc.lowering.api: lower-tc from Python, on the caller's GPU arrays.

==============  ===============================================================
compiling.py    compile(source) -> Kernel, and CompileError
matmul_program  the text of a one-op tc.matmul program (also the GEMM sweep's)
matmul_plan.py  lower_tc.matmul's program for the caller's arrays, checked argument by argument
matmul.py       lower_tc.matmul(a, b, out=None, c=None, ...): plan, compile (cached), launch
==============  ===============================================================

The room above compile (it compiles with lowering/compile.py) and the runtime (its
`Kernel` is lowering/runtime/callable.py), below the command line. `lower_tc` re-exports
it lazily: `import lower_tc` loads neither xDSL nor CUDA.
"""

from lower_tc.lowering.api.compiling import CompileError, compile
from lower_tc.lowering.api.matmul import matmul

__all__ = ["CompileError", "compile", "matmul"]
