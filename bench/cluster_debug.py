import sys; sys.path.insert(0, 'bench')
import numpy as np
from gemm_sweep import GemmCase
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering import runner as R
opt = sys.argv[1] if len(sys.argv) > 1 else "cluster = 2, persistent = false"
import os; print("debug", os.environ.get("LOWER_TC_CLUSTER_DEBUG"))
c = GemmCase("bf16", "bf16", "f32", "bf16", 256, 512, 64, True, True, None, options=opt)
k = compile_source(c.source(), c.name, assemble=True)[0]
info = R.resolve_sizes(k.info, c.shapes())
rng = np.random.default_rng(1)
host = []
for i, a in enumerate(info["args"]):
    size = R.buffer_elements(a["shape"], a["strides"])
    host.append(R.poison(a["dtype"], (size,)) if i == 2 else R.random_input(rng, a["dtype"], (size,)))
dev = [R.device_bytes(h, a["dtype"]) for h, a in zip(host, info["args"])]
flat, device, over = R.launch(k.cubin, info, dev, 10.0)
A = R.matrix_view(host[0], info["args"][0]).astype(np.float64)
B = R.matrix_view(host[1], info["args"][1]).astype(np.float64)
D = R.matrix_view(flat[2], info["args"][2]).astype(np.float64)
ref = A @ B
bad = ~(np.abs(D - ref) <= 0.01 * (1 + np.abs(ref)))
print(opt, "bad", bad.sum(), "of", bad.size)
for tr in range(0, 256, 64):
    print("rows", tr, " ".join(f"{bad[tr:tr+64, tc:tc+64].mean():.2f}" for tc in range(0, 512, 64)))
# is the bad part equal to A times some other B block?
for tc in range(0, 512, 64):
    blk = D[0:64, tc:tc+64]
    best = min(range(0, 512, 64), key=lambda x: np.abs(blk - ref[0:64, x:x+64]).mean())
    print("D cols", tc, "look like ref cols", best, "zero-B?", np.abs(blk).max() < 1e-6)
print("D[128,64:68]", D[128, 64:68], "ref", ref[128, 64:68])
for tc in range(64, 256, 64):
    blk = D[128:192, tc:tc + 64]
    cands = {f"A1xB{x}": A[128:192] @ B[:, x:x + 64] for x in range(0, 512, 64)}
    cands.update({f"A0xB{x}": A[0:64] @ B[:, x:x + 64] for x in range(0, 512, 64)})
    cands["zero"] = np.zeros_like(blk)
    best = min(cands, key=lambda key: np.nanmean(np.abs(blk - cands[key])))
    print("rank1 rows 128-191 cols", tc, "closest", best, np.nanmean(np.abs(blk - cands[best])), "nan", np.isnan(blk).sum())
