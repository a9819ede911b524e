// wgmma, fp8 e4m3 x e5m2 -> f32 (k32 instructions), K-major (fp8 cannot be transposed
// on sm_90a), 128B swizzle, A copied by TMA, B by the threads.
func.func @wgmma_e4m3(%A: memref<64x128xf8E4M3FN>, %B: memref<128x64xf8E5M2>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x128xf8E5M2, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a via tma : memref<64x128xf8E4M3FN>, !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<128x64xf8E5M2>, !tc.tile<64x128xf8E5M2, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x128xf8E5M2, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %d to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
