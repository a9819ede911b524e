// D = A x B for 4096 x 4096 x 4096 bf16 matrices (f32 accumulation, bf16 D), as one
// op: tc-expand-matmul chooses the tile configuration and builds the pipelined kernel.
func.func @gemm_bf16(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xbf16>
  func.return
}
