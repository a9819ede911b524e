// An fp8 GEMM at the op level: D (bf16) = A (e4m3, row-major) x B (e4m3, column-major:
// wgmma reads 8-bit operands K-major only, so B is stored N x K), f32 accumulation,
// plus C (f32). The configuration is given: 128x128 tiles, K step 128, 5 stages.
func.func @gemm_e4m3(%A: memref<2000x1024xf8E4M3FN>, %B: memref<1024x1500xf8E4M3FN, strided<[1, 1024]>>, %D: memref<2000x1500xbf16>, %C: memref<2000x1500xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 5> : memref<2000x1024xf8E4M3FN>, memref<1024x1500xf8E4M3FN, strided<[1, 1024]>>, memref<2000x1500xbf16>, memref<2000x1500xf32>
  func.return
}
