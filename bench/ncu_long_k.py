"""512 x 512 x 65536 bf16 (B as nn.Linear's weight) through cuBLAS (torch) and lower-tc's
default, three launches each, for Nsight Compute to profile side by side:

    ncu --metrics gpu__time_duration.sum,lts__t_bytes.sum,dram__bytes.sum,sm__cycles_elapsed.avg.per_second \
        --launch-skip 4 --launch-count 4 --cache-control none --clock-control none --csv \
        python bench/ncu_long_k.py

(the last launches: cuBLAS's split-K kernel and its reduce kernel, lower-tc's twice). With
`--unpaired`, lower-tc's default configuration without the pair sharing B (cluster = 1) is
launched after each default launch too (--launch-count 6 then)."""
import sys
import torch, lower_tc
m, n, k = 512, 512, 65536
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
for _ in range(3):
    torch.matmul(a, w.t())
    lower_tc.matmul(a, w.t(), out=d)
    if "--unpaired" in sys.argv:
        lower_tc.matmul(a, w.t(), out=d, config=(128, 128, 64, 6), split_k=8, reduce="global", cluster=1)
torch.cuda.synchronize()
print("max rel diff", float((d.float() - (a @ w.t()).float()).abs().max() / (a @ w.t()).float().abs().max()))
