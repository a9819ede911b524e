// The loop level, written by hand: D = A x B for 4096^3 bf16 (f32 accumulation, bf16 D)
// with 128x256 CTA tiles (two warpgroups of 64x256), a K step of 64 and 3 stages.
// The CTA finds its tile from gpu.block_id; tc.grid says how many CTAs there are
// (4096/256 x 4096/128). The lowering builds the full/empty mbarriers, keeps the TMA
// loads 2 stages ahead of the wgmma and keeps one wgmma group in flight (docs/gemm.md).
func.func @gemm_bf16_loop(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1]} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
