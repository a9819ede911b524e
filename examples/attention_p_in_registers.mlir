// Attention's P in registers (docs/attention.md): S = Q K^T on the tensor cores, P = S
// rounded to bf16 in the same registers (tc.acc_to_a: each thread packs its own accumulator
// registers 8s .. 8s + 7 into K-slice s of A, layout/fragments.py), then O = P V with P as
// wgmma's A operand in registers and V an MN-major B tile. Every matrix is stored as
// attention stores it, rows of 64 head-dim elements: Q and V (queries / keys x head dim)
// row-major; K (keys x head dim) is the first MMA's B, a K x N memref (head dim x keys)
// that is K-contiguous: strided<[1, 64]>. The runner checks O against float64 Q K^T
// rounded to bf16, times V.
func.func @p_in_registers(%Q: memref<64x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %k, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<64x64xf32>
  %o = tc.wgmma %p, %v, %zero2 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %o to %O : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
