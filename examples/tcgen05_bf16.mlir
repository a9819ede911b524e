// tcgen05 (Blackwell), bf16 x bf16 -> f32 in tensor memory, M = 128, N = 64, K = 64:
// K-major A (128B swizzle), N-major B (transposed, allowed for tcgen05 too).
func.func @tcgen05_bf16(%A: memref<128x64xbf16>, %B: memref<64x64xbf16>, %D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %d to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
