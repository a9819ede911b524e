// fuzz: {"pipeline": "tc-expand-matmul,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,ptx-lower-loops", "target": "ptx"} | [tc pass] unlocated: lower-tc: error: unknown swizzle mode 'auto' (tc-assign-smem)
func.func @g(%A: memref<64x64xbf16, strided<[1, 72]>>, %B: memref<64x64xbf16, strided<[1, 72]>>, %D: memref<64x64xf32>, %C: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C : memref<64x64xbf16, strided<[1, 72]>>, memref<64x64xbf16, strided<[1, 72]>>, memref<64x64xf32>, memref<64x64xf32>
  func.return
}
