// TMA copies into swizzled tiles placed off their 1024-byte pattern boundary
// (pinned offsets 1152 and 9344 = 1024*n + 128*r): TMA and the tensor core both
// swizzle on absolute address bits, so the base offset stays 0 (docs/base-offset.md).
func.func @wgmma_bf16_tma_offset(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 9344>>
  tc.copy %A to %a as a via tma : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152>>
  tc.copy %B to %b as b via tma : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 9344>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 9344>>, !tc.acc<64x64xf32>
  tc.acc_store %d to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
