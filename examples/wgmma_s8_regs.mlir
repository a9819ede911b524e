// wgmma, s8 x s8 -> s32 with A in registers (loaded from its tile), B N=32.
func.func @wgmma_s8_regs(%A: memref<64x64xsi8>, %B: memref<64x32xsi8>, %D: memref<64x32xi32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<32x64xsi8, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xsi8>, !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x32xsi8>, !tc.tile<32x64xsi8, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x32xi32>
  %d = tc.wgmma %a, %b, %acc a_in_registers : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.tile<32x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.acc<64x32xi32>
  tc.acc_store %d to %D : !tc.acc<64x32xi32>, memref<64x32xi32>
  func.return
}
