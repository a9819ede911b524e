// wgmma with transposed (MN-major) operands: A is M-major with 64B swizzle (pinned),
// B is N-major with the swizzle chosen automatically; f16 accumulator C loaded and added.
func.func @wgmma_f16_mnmajor(%A: memref<64x32xf16>, %B: memref<32x64xf16>, %C: memref<64x64xf16>, %D: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<mn, swizzle = 64b, order = k_first>>
  %b = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x32xf16>, !tc.tile<64x32xf16, #tc.layout<mn, swizzle = 64b, order = k_first>>
  tc.copy %B to %b as b : memref<32x64xf16>, !tc.tile<64x32xf16, #tc.layout<mn, swizzle = auto>>
  %c = tc.acc_load %C : memref<64x64xf16> -> !tc.acc<64x64xf16>
  %d = tc.wgmma %a, %b, %c : !tc.tile<64x32xf16, #tc.layout<mn, swizzle = 64b, order = k_first>>, !tc.tile<64x32xf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf16>
  tc.acc_store %d to %D : !tc.acc<64x64xf16>, memref<64x64xf16>
  func.return
}
