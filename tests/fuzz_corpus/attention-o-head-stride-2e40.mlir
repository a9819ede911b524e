// fuzz: {"target": "ptx"} | [tc dialect verifier/pass (a limit not checked)] accepted out of limits: p_O stride 1099511627776 elements: past TMA's 1099511627776 bytes
func.func @attn(%Q: memref<2x64x64xbf16>, %K: memref<2x64x64xbf16>, %V: memref<2x64x64xbf16>, %O: memref<2x64x64xbf16, strided<[1099511627776, 64, 1]>>, %L: memref<2x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L : memref<2x64x64xbf16>, memref<2x64x64xbf16>, memref<2x64x64xbf16>, memref<2x64x64xbf16, strided<[1099511627776, 64, 1]>>, memref<2x64xf32>
  func.return
}
