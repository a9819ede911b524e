// wgmma, bf16 x bf16 -> f32, both tiles K-major, swizzle chosen automatically (128B),
// copied by the threads with 16-byte vector stores. D = A * B, A 64x64, B 64x128.
func.func @wgmma_bf16_kmajor(%A: memref<64x64xbf16>, %B: memref<64x128xbf16>, %D: memref<64x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x128xf32>
  tc.acc_store %d to %D : !tc.acc<64x128xf32>, memref<64x128xf32>
  func.return
}
