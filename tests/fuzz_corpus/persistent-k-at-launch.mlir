// fuzz: {"target": "ptx"} | [GEMM lowering] internal error: AssertionError in passes/to_ptx/gemm/specialized.py (sm_90a persistent by default with K known only at launch)
func.func @g(%A: memref<64x?xf8E5M2>, %B: memref<?x64xf8E4M3FN, strided<[1, 64]>>, %D: memref<64x64xf16>, %C: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C : memref<64x?xf8E5M2>, memref<?x64xf8E4M3FN, strided<[1, 64]>>, memref<64x64xf16>, memref<64x64xf16>
  func.return
}
