// The attention loop of attention_loop.mlir on Blackwell's tensor cores (tcgen05, sm_100a;
// docs/attention.md, "tcgen05 (sm_100a): the attention loop"), written by hand, with each
// row's log-sum-exp: O = softmax(Q K^T / 8) V for 2 heads of 1000 queries and 1000 keys,
// head dim 64, bf16, causal. The same ops with tc.tcgen05_mma for tc.wgmma: a CTA of one
// warpgroup takes 128 queries (thread t of warp w owns row 32w + t of S, P and O, which
// live in tensor memory) and loops over blocks of 64 keys; the elected thread of warp 0
// issues each block's Q K^T and P V (P from tensor memory, where tc.acc_to_a rounds it),
// thread 0 keeps K and V loading two blocks ahead, and the running maximum and sum are one
// register a thread. Assembled and SASS-checked only: no Blackwell GPU runs it here.
func.func @attention_loop_tcgen05(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1000x64xbf16> to memref<2x64x1000xbf16, strided<[64000, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %head = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c191 = arith.constant 191 : index
  %c1024 = arith.constant 1024 : index
  // the CTAs that see the most keys (the last queries) start first: block 7 - x
  %c7 = arith.constant 7 : index
  %qb = arith.subi %c7, %bx : index
  %q0 = arith.muli %qb, %c128 : index
  // the block after the one holding key q0 + 127 (the CTA's last query sees it), at most 1024
  %e0 = arith.addi %q0, %c191 : index
  %e1 = arith.divui %e0, %c64 : index
  %e2 = arith.muli %e1, %c64 : index
  %ub = arith.minui %e2, %c1024 : index
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1000x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1000xbf16, strided<[64000, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %v as b : memref<2x1000x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.tcgen05_mma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {keys = 1000, causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.tcgen05_mma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1000x64xbf16>
  %lse = tc.rows_lse %r#1, %r#2 : !tc.rows<128xf32>
  tc.rows_store %lse to %L[%head, %q0] : !tc.rows<128xf32>, memref<2x1000xf32>
  func.return
}
