// Split-K through global memory at the loop level, written by hand: D = A x B for 512 x 512 x
// 65536 bf16 (f32 accumulation, bf16 D) has only 16 tiles of 128 x 128, so 8 CTAs share each:
// any 8 consecutive CTAs along x (split_k = 8, reduce = global in tc.schedule: no cluster),
// rank r = block x mod 8 taking K from r 8192 to (r + 1) 8192. Each CTA stores its partial
// tile into its slot of the workspace (the launcher's scratch memory) and counts itself in
// the tile's counter; `reduce global` makes the tile's last CTA sum the 8 partials in rank
// order (the same bits every run) and store D; the others leave. Unlike the cluster's split
// (gemm_bf16_split_k_loop.mlir), no CTA waits for another: the grid may be larger than what
// runs at once. 4 x 4 tiles x 8 CTAs = 128 CTAs (docs/gemm.md, "Split-K").
func.func @gemm_bf16_split_k_global_loop(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, reduce = global>} {
  %a = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c8 = arith.constant 8 : index
  %rank = arith.remui %bx, %c8 : index
  %tile_x = arith.divui %bx, %c8 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %tile_x, %c128 : index
  %slice = arith.constant 8192 : index
  %k_lo = arith.muli %rank, %slice : index
  %k_hi = arith.addi %k_lo, %slice : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %k_lo to %k_hi step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<512x65536xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<65536x512xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] reduce global : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
