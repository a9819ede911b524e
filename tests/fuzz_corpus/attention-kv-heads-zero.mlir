// fuzz: {"target": "ptx"} | [tc dialect verifier] undocumented exception: ZeroDivisionError: integer modulo by zero (raised in dialects/tc_attention.py:verify_ <- tc_attention.py:verify_)
func.func @attn(%Q: memref<1x64x64xbf16>, %K: memref<0x64x64xbf16>, %V: memref<0x64x64xbf16>, %O: memref<1x64x64xbf16>, %L: memref<1x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L : memref<1x64x64xbf16>, memref<0x64x64xbf16>, memref<0x64x64xbf16>, memref<1x64x64xbf16>, memref<1x64xf32>
  func.return
}
