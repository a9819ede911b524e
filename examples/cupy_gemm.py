"""D (f32) = A x B in f16 on CuPy arrays, B column-major, with a lower-tc GEMM (sm_90a: H100).
CuPy has no bf16: pass bf16 bits as lower_tc.reinterpret(x.view(cupy.uint16), "bf16")."""
import cupy as cp

import lower_tc

M, N, K = 2048, 2048, 2048
A, B, D = f"memref<{M}x{K}xf16>", f"memref<{K}x{N}xf16, strided<[1, {K}]>>", f"memref<{M}x{N}xf32>"
kernel = lower_tc.compile(f"""func.func @gemm(%A: {A}, %B: {B}, %D: {D}) attributes {{tc.target = "sm_90a"}} {{
  tc.matmul %A, %B to %D : {A}, {B}, {D}
  func.return
}}""")
a = cp.random.uniform(-1, 1, (M, K)).astype(cp.float16)
b = cp.random.uniform(-1, 1, (N, K)).astype(cp.float16).T  # column-major K x N
d = cp.empty((M, N), cp.float32)
kernel(a, b, d)  # on CuPy's current stream
ref = a.astype(cp.float64) @ b.astype(cp.float64)
print(kernel, f"max error {float(cp.abs(d - ref).max() / cp.abs(ref).max()):.1e}")
