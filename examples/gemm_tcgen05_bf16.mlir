// The op-level GEMM on sm_100a (Blackwell): D (bf16) = A x B for 2048 x 2048 x 2048 bf16,
// A row-major, B row-major (N-major tiles: tcgen05 transposes 16-bit types). It expands
// to the same K loop as on sm_90a, lowered to tcgen05.mma with the accumulator in tensor
// memory, tcgen05.commit releasing each stage and a tcgen05.ld epilogue. It is assembled
// and its SASS checked here; no Blackwell GPU is lent to run it (docs/tcgen05.md).
func.func @gemm_tcgen05_bf16(%A: memref<2048x2048xbf16>, %B: memref<2048x2048xbf16>, %D: memref<2048x2048xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D : memref<2048x2048xbf16>, memref<2048x2048xbf16>, memref<2048x2048xbf16>
  func.return
}
