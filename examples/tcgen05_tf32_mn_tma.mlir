// tcgen05 kind::tf32 with both operands MN-major: the only swizzle tcgen05 transposes tf32
// with is 128B of 32-byte atomicity (auto picks it), 4-row atoms; both copied by TMA with
// the matching tensor-map swizzle (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B). A is column-major.
func.func @tcgen05_tf32_mn_tma(%A: memref<128x32xtf32, strided<[1, 128]>>, %B: memref<32x64xtf32>, %D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>
  %b = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>
  tc.copy %A to %a as a via tma : memref<128x32xtf32, strided<[1, 128]>>, !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>
  tc.copy %B to %b as b via tma : memref<32x64xtf32>, !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
  tc.acc_store %d to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
