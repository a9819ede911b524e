// Attention of one tile (docs/attention.md): 64 queries against 64 keys, head dim 64, bf16.
// S = Q K^T on the tensor cores into f32 registers; P = softmax(S / 8) row by row in those
// registers (tc.acc_softmax: each row's max and sum reduced across its quad of threads with
// shfl.sync.bfly, exp2 of (s - max) x log2(e) / 8); P rounded to bf16 in the same threads
// (tc.acc_to_a) and fed to O = P V as wgmma's A operand in registers. Q and V are row-major
// (tokens x head dim); K too, which as the first MMA's B (K x N = head dim x keys) is the
// K-contiguous memref strided<[1, 64]>. The runner checks O against float64
// softmax(Q K^T / 8), rounded to bf16, times V.
func.func @attention_tile(%Q: memref<64x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %k, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<64x64xf32>
  %p = tc.acc_to_a %sm : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<64x64xf32>
  %o = tc.wgmma %p, %v, %zero2 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %o to %O : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
