// wgmma, tf32 x tf32 -> f32 (k8 instructions), K-major, no swizzle pinned for A
// (8 x 16-byte core matrices), 32B swizzle for B; N = 24.
func.func @wgmma_tf32(%A: memref<64x16xtf32>, %B: memref<16x24xtf32>, %D: memref<64x24xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<k, swizzle = none>>
  %b = tc.smem_tile : !tc.tile<24x16xtf32, #tc.layout<k, swizzle = 32b>>
  tc.copy %A to %a as a : memref<64x16xtf32>, !tc.tile<64x16xtf32, #tc.layout<k, swizzle = none>>
  tc.copy %B to %b as b : memref<16x24xtf32>, !tc.tile<24x16xtf32, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<64x24xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x16xtf32, #tc.layout<k, swizzle = none>>, !tc.tile<24x16xtf32, #tc.layout<k, swizzle = 32b>>, !tc.acc<64x24xf32>
  tc.acc_store %d to %D : !tc.acc<64x24xf32>, memref<64x24xf32>
  func.return
}
