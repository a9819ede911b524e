// Attention of one tile on Blackwell (tcgen05, sm_100a; docs/attention.md, "tcgen05"): 128
// queries against 64 keys, head dim 64, bf16; the mirror of attention_tile.mlir. S = Q K^T
// by tcgen05.mma into tensor memory (M = 128: row r in lane r); P = softmax(S / 8) by each
// thread on its own row (tcgen05.ld of the row, its max and sum with no shuffle, exp2 of
// (s - max) x log2(e) / 8, written back over S); P rounded to bf16 pairs into tensor memory
// (tc.acc_to_a: tcgen05.st of the packed row), where O = P V's tcgen05.mma reads it as A
// (the .kind::f16 form with A in tensor memory, as FlashAttention-4 keeps P). Assembled and
// SASS-checked only: no Blackwell GPU runs it here.
func.func @attention_tile_tcgen05(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<128x64xf32>
  %p = tc.acc_to_a %sm : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<128x64xf32>
  %o = tc.tcgen05_mma %p, %v, %zero2 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %o to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
