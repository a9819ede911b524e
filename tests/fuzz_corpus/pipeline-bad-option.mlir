// fuzz: {"pipeline": "tc-expand-matmul{remarks=true}{remarks=true},tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors{bogus=1},tc-lower-to-ptx,ptx-lower-loops", "target": "mlir"} | [CLI/driver] misuse exit status: exit 1 and five lines for a malformed -p
func.func @g(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>
  func.return
}
