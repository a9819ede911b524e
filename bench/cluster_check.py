import sys; sys.path.insert(0, 'bench')
from gemm_sweep import GemmCase
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runner import run_kernel
for shape in [(256, 512, 128), (1000, 1000, 1000), (4096, 4096, 4096)]:
    for opt in ("cluster = 2", "cluster = 2, persistent = false", "cluster = 2, mma_depth = 2", 'cluster = 2, epilogue = "registers"'):
        c = GemmCase("bf16", "bf16", "f32", "bf16", *shape, True, True, None, options=opt)
        k = compile_source(c.source(), c.name, assemble=True)[0]
        r = run_kernel(k, 7, shapes=c.shapes()); print(c.name, r.summary()[-200:], flush=True)
