// Input for driver tests: a kernel the wgmma verifier refuses (M = 32), on line 5.
func.func @bad(%A: memref<32x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<32x64xf32>
  %d = tc.wgmma %a, %a, %acc : !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<32x64xf32>
  func.return
}
