// fuzz: {"pipeline": "canonicalize,tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,tc-lower-to-ptx,ptx-lower-loops", "target": "ptx"} | [tc pass] unlocated: in.mlir: error: no kernel to lower (tc-lower-to-ptx twice)
func.func @g(%A: memref<64x64xbf16, strided<[1, 72]>>, %B: memref<64x64xbf16, strided<[1, 72]>>, %D: memref<64x64xf32>, %C: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C config #tc.gemm_config<bm = 64, bn = 8, bk = 16, stages = 2> : memref<64x64xbf16, strided<[1, 72]>>, memref<64x64xbf16, strided<[1, 72]>>, memref<64x64xf32>, memref<64x64xf32>
  func.return
}
