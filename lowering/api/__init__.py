"""lower_tc.lowering.api: lower-tc from Python, on the caller's GPU arrays and inside the
caller's compiler.

==============  =================================================================================
compiling.py    compile(source) -> Kernel (its refusals: CompileError, from lowering/compile.py)
embedding.py    the embedding API: parse, verify, run_passes, kernels, print_ptx, remarks
matmul_program  the text of a one-op tc.matmul program (also the GEMM sweep's)
matmul_plan.py  lower_tc.matmul's program for the caller's arrays, checked argument by argument
matmul.py       lower_tc.matmul(a, b, out=None, c=None, ...): plan, compile (cached), launch
attention.py    lower_tc.attention(q, k, v, out=None, ...): checks, a tc.attention program, launch
==============  =================================================================================

The room above compile (it compiles with lowering/compile.py) and the runtime (its
`Kernel` is lowering/runtime/callable.py), below the command line. `lower_tc` re-exports
it lazily: `import lower_tc` loads neither xDSL nor CUDA.
"""

from lower_tc.lowering.api.compiling import CompileError, compile
from lower_tc.lowering.api.embedding import context, kernels, parse, print_ptx, remarks, run_passes, verify
from lower_tc.lowering.api.attention import attention
from lower_tc.lowering.api.matmul import matmul

__all__ = ["CompileError", "attention", "compile", "context", "kernels", "matmul", "parse", "print_ptx", "remarks", "run_passes", "verify"]
