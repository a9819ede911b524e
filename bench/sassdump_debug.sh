python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl 2>/dev/null; python3 -m pip install -q --no-index --no-deps --no-build-isolation --target /tmp/site . 2>/dev/null; export PYTHONPATH=/tmp/site
for d in self,nodirective,nobarrier self,nodirective,nobarrier,count256; do
  LOWER_TC_CLUSTER_DEBUG=$d python3 -P -c "
import sys; sys.path.insert(0,'bench')
from gemm_sweep import GemmCase
from lower_tc.lowering.compile import compile_source
c = GemmCase('bf16', 'bf16', 'f32', 'bf16', 256, 512, 64, True, True, None, options='cluster = 2, persistent = false')
k = compile_source(c.source(), c.name, assemble=True)[0]
open('$OUT/k_$d.cubin','wb').write(k.cubin); open('$OUT/k_$d.ptx','w').write(k.ptx)
"
  cuobjdump -sass $OUT/k_$d.cubin > $OUT/k_$d.sass
done
ls -la $OUT
