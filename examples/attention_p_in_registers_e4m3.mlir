// Attention's P in registers with 8-bit operands (docs/attention.md): S = Q K^T on the
// tensor cores (e4m3, k32), P = S rounded to e4m3 as wgmma's A operand in registers
// (tc.acc_to_a: each quad of lanes exchanges its bytes, since 8-bit A holds four adjacent
// columns where the accumulator holds two: layout/fragments.py `quad_exchange`), then
// O = P V. fp8 wgmma reads B K-major only, so V is stored transposed (head dim x keys,
// keys contiguous: the keys x head dim K x N memref strided<[1, 64]>), as K is. The runner
// checks O against float64 Q K^T rounded to e4m3, times V.
func.func @p_in_registers_e4m3(%Q: memref<64x64xf8E4M3FN>, %K: memref<64x64xf8E4M3FN, strided<[1, 64]>>, %V: memref<64x64xf8E4M3FN, strided<[1, 64]>>, %O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xf8E4M3FN, strided<[1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xf8E4M3FN, strided<[1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %k, %zero : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x64xf8E4M3FN>
  %zero2 = tc.acc_zero : !tc.acc<64x64xf32>
  %o = tc.wgmma %p, %v, %zero2 : !tc.afrag<64x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %o to %O : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
