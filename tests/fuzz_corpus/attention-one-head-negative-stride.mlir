// fuzz: {"target": "ptx"} | [tc dialect verifier/pass (a limit not checked)] accepted out of limits: p_K batch stride -4096 elements: past TMA's 1099511627776 bytes
func.func @attn(%Q: memref<1x64x64xbf16>, %K: memref<1x64x64xbf16, strided<[-4096, 64, 1]>>, %V: memref<1x64x64xbf16>, %O: memref<1x64x64xbf16>, %L: memref<1x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L : memref<1x64x64xbf16>, memref<1x64x64xbf16, strided<[-4096, 64, 1]>>, memref<1x64x64xbf16>, memref<1x64x64xbf16>, memref<1x64xf32>
  func.return
}
