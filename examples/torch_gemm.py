"""D = A x B in bf16 on PyTorch tensors, with a lower-tc GEMM compiled once (sm_90a: H100)."""
import torch

import lower_tc

M, N, K = 4096, 4096, 4096
A, B, D = (f"memref<{r}x{c}xbf16>" for r, c in ((M, K), (K, N), (M, N)))
kernel = lower_tc.compile(f"""func.func @gemm(%A: {A}, %B: {B}, %D: {D}) attributes {{tc.target = "sm_90a"}} {{
  tc.matmul %A, %B to %D : {A}, {B}, {D}
  func.return
}}""")
a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
d = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
kernel(a, b, d)  # on torch's current stream; returns at once
ref = a.double() @ b.double()
print(kernel, f"max error {((d.double() - ref).abs().max() / ref.abs().max()).item():.1e}")
