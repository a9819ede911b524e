// fuzz: {"target": "ptx"} | [tc dialect verifier/pass (a limit not checked)] accepted out of limits: p_Q stride 137438953408: past the 32-bit index width (2147483647)
func.func @attn(%Q: memref<1x2147483647x64xbf16>, %K: memref<1x64x64xbf16>, %V: memref<1x64x64xbf16>, %O: memref<1x2147483647x64xbf16>, %L: memref<1x2147483647xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L : memref<1x2147483647x64xbf16>, memref<1x64x64xbf16>, memref<1x64x64xbf16>, memref<1x2147483647x64xbf16>, memref<1x2147483647xf32>
  func.return
}
