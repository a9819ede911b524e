// Diagnostics of the attention loop (docs/attention.md, "The loop level"), each located: a
// K window that does not move with the loop, K and V rings of different depths, running
// rows of other rows than the accumulator's, an op the loop cannot hold, no Q window, a
// mask at one position; in a single tile, a !tc.rows of 128 rows and a mask at run-time
// positions (the loop's), a log-sum-exp stored at a window; an 8-bit V stored MN-major.
// tc.pingpong on the pipelined schedule, on one consumer warpgroup, with a value, and on a GEMM;
// of batches: a log-sum-exp at three indices that is not dense, an outer batch of one read at
// another index, a store past O's batch, O's store naming a head where Q's window names none.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @k_window_fixed(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %c0] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%c0, %j) {keys = 250} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 17]]:5: error: K's window moves with the loop: its column (K^T's keys) must be the induction variable{{$}}

// -----

func.func @stages_differ(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 3} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%c0, %j) {keys = 250} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 14]]:5: error: K and V need the same number of stages, at least 2 (K has 2, V 3){{$}}

// -----

func.func @rows_of_other_rows(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%c0, %j) {keys = 250} : !tc.acc<128x64xf32>
    %m64 = tc.rows_fill -inf : !tc.rows<64xf32>
    %m1x = tc.acc_row_max %sm, %m64 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 13]]:5: error: tc.acc_row_max: the rows are 64 but the accumulator has 128 rows{{$}}

// -----

func.func @softmax_in_loop(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 13]]:5: error: 'tc.acc_softmax' cannot be in an attention kernel's loop: it holds the K and V windows, two MMAs (tc.wgmma, or tc.tcgen05_mma on sm_100a), the online softmax's ops and V's tc.tile_transpose{{$}}

// -----

func.func @no_q_window(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%c0, %j) {keys = 250} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 18]]:3: error: an attention kernel loads Q's window (tc.window_load ... as a) before its loop{{$}}

// -----

func.func @mask_of_one_position(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%j) {keys = 250} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 13]]:5: error: tc.acc_mask is at (query, key): two positions, not 1{{$}}

// -----

func.func @single_tile_rows(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %m = tc.rows_fill -inf : !tc.rows<128xf32>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_fill: a !tc.rows of 128 rows belongs in an attention loop (a single tile has 64){{$}}

// -----

func.func @single_tile_mask_at(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %c0 = arith.constant 0 : index
  %z = tc.acc_zero : !tc.acc<64x64xf32>
  %t = tc.acc_mask %z at (%c0, %c0) {keys = 8} : !tc.acc<64x64xf32>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_mask at run-time positions is for attention loops (a single tile's are numbers: first_query, first_key){{$}}

// -----

func.func @single_tile_rows_at(%L: memref<2x64xf32>) attributes {tc.target = "sm_90a"} {
  %c0 = arith.constant 0 : index
  %m = tc.rows_fill 0.0 : !tc.rows<64xf32>
  tc.rows_store %m to %L[%c0, %c0] : !tc.rows<64xf32>, memref<2x64xf32>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_store at a window is for attention loops (a single tile stores a 64 x 1 column){{$}}

// -----

func.func @gemm_option(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2>} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%c0, %j) {keys = 250} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 30]]:1: error: an attention kernel's tc.schedule names its schedule only (#tc.gemm_schedule<warp_specialized> or <pipelined>): cluster is a GEMM option{{$}}

// -----

func.func @attn_h1_q256_k256_d64_128x64x2_bf16_pipelined_pingpong(%Q: memref<1x256x64xbf16>, %K: memref<1x256x64xbf16>, %V: memref<1x256x64xbf16>, %O: memref<1x256x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [2, 1, 1], tc.schedule = #tc.gemm_schedule<pipelined>, tc.pingpong} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<1x256x64xbf16> to memref<1x64x256xbf16, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%c0, %q0, %c0] to %q as a : memref<1x256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %c0, %j] to %k as b : memref<1x64x256xbf16, strided<[16384, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%c0, %j, %c0] to %v as b : memref<1x256x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %q0, %c0] : !tc.acc<128x64xf32>, memref<1x256x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 34]]:1: error: tc.pingpong takes turns between the consumer warpgroups of the warp-specialised schedule; the pipelined one has none{{$}}

// -----

func.func @attn_h1_q256_k256_d64_64x64x2_bf16_pingpong(%Q: memref<1x256x64xbf16>, %K: memref<1x256x64xbf16>, %V: memref<1x256x64xbf16>, %O: memref<1x256x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [4, 1, 1], tc.pingpong} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<1x256x64xbf16> to memref<1x64x256xbf16, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 64 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%c0, %q0, %c0] to %q as a : memref<1x256x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<64x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<64xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<64xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<64x64xf32>, !tc.rows<64xf32>, !tc.rows<64xf32>) {
    tc.window_load %kt[%c0, %c0, %j] to %k as b : memref<1x64x256xbf16, strided<[16384, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%c0, %j, %c0] to %v as b : memref<1x256x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<64x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %a = tc.acc_to_a %p : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<64x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>, !tc.rows<64xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  tc.window_store %out to %O[%c0, %q0, %c0] : !tc.acc<64x64xf32>, memref<1x256x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 34]]:1: error: tc.pingpong: the consumer warpgroups take turns, and this kernel has one (64 queries a block, 64 a warpgroup){{$}}

// -----

func.func @attn_h1_q256_k256_d64_128x64x2_bf16_pingpong(%Q: memref<1x256x64xbf16>, %K: memref<1x256x64xbf16>, %V: memref<1x256x64xbf16>, %O: memref<1x256x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [2, 1, 1], tc.pingpong = 1} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<1x256x64xbf16> to memref<1x64x256xbf16, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%c0, %q0, %c0] to %q as a : memref<1x256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %c0, %j] to %k as b : memref<1x64x256xbf16, strided<[16384, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%c0, %j, %c0] to %v as b : memref<1x256x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %q0, %c0] : !tc.acc<128x64xf32>, memref<1x256x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 34]]:1: error: tc.pingpong is a flag (a unit attribute), not 1{{$}}

// -----

func.func @gemm_pingpong(%A: memref<256x64xbf16>, %B: memref<64x128xbf16>, %D: memref<256x128xbf16>) attributes {tc.target = "sm_90a", tc.pingpong} {
  tc.matmul %A, %B to %D : memref<256x64xbf16>, memref<64x128xbf16>, memref<256x128xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 4]]:1: error: tc.pingpong is for attention kernels (tc.attention, or a loop carrying !tc.rows): their consumer warpgroups take turns at the tensor cores{{$}}

// -----

func.func @attn_b2_bshd_h4_q300_k300_d64_128x64x2_bf16_lse(%Q: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %K: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %V: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %O: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %LSE: memref<2x4x300xf32, strided<[2400, 600, 1]>>) attributes {tc.target = "sm_90a", tc.grid = [3, 4, 2]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>> to memref<2x4x64x300xbf16, strided<[76800, 64, 1, 256]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 320 : index
  tc.window_load %Q[%bz, %hh, %q0, %c0] to %q as a : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%bz, %hh, %c0, %j] to %k as b : memref<2x4x64x300xbf16, strided<[76800, 64, 1, 256]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%bz, %hh, %j, %c0] to %v as b : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s0 at (%q0, %j) {keys = 300} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%bz, %hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>
  %lse = tc.rows_lse %r#1, %r#2 : !tc.rows<128xf32>
  tc.rows_store %lse to %LSE[%bz, %hh, %q0] : !tc.rows<128xf32>, memref<2x4x300xf32, strided<[2400, 600, 1]>>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_store at three indices writes a dense (batch, heads, sequence) memref, not memref<2x4x300xf32, strided<[2400, 600, 1]>>{{$}}

// -----

func.func @attn_bshd_h4_q300_k300_d64_128x64x2_bf16(%Q: memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %K: memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %V: memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %O: memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>) attributes {tc.target = "sm_90a", tc.grid = [3, 4, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>> to memref<1x4x64x300xbf16, strided<[76800, 64, 1, 256]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 320 : index
  tc.window_load %Q[%hh, %hh, %q0, %c0] to %q as a : memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %hh, %c0, %j] to %k as b : memref<1x4x64x300xbf16, strided<[76800, 64, 1, 256]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%c0, %hh, %j, %c0] to %v as b : memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s0 at (%q0, %j) {keys = 300} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<1x4x300x64xbf16, strided<[76800, 64, 256, 1]>>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 22]]:3: error: the window's source has an outer batch of 1: its outer batch index is 0{{$}}

// -----

func.func @attn_b2_bshd_h4_q300_k300_d64_128x64x2_bf16(%Q: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %K: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %V: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %O: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>) attributes {tc.target = "sm_90a", tc.grid = [3, 4, 3]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>> to memref<2x4x64x300xbf16, strided<[76800, 64, 1, 256]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 320 : index
  tc.window_load %Q[%bz, %hh, %q0, %c0] to %q as a : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%bz, %hh, %c0, %j] to %k as b : memref<2x4x64x300xbf16, strided<[76800, 64, 1, 256]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%bz, %hh, %j, %c0] to %v as b : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s0 at (%q0, %j) {keys = 300} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%bz, %hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: the store's outer batch index can be 2, past D's outer batch of 2{{$}}

// -----

func.func @attn_h1_q256_k256_d64_128x64x2_bf16(%Q: memref<256x64xbf16>, %K: memref<1x256x64xbf16>, %V: memref<1x256x64xbf16>, %O: memref<1x256x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [2, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<1x256x64xbf16> to memref<1x64x256xbf16, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%q0, %c0] to %q as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %c0, %j] to %k as b : memref<1x64x256xbf16, strided<[16384, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%c0, %j, %c0] to %v as b : memref<1x256x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %q0, %c0] : !tc.acc<128x64xf32>, memref<1x256x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: O's tc.window_store names a head or a batch (a batch index) where Q's window names none{{$}}

// -----

// fp8 attention's P V wgmma reads V K-major only: an e4m3 V tile stored MN-major (V as
// given, keys x head dim, head dim contiguous) is refused at the MMA; store V transposed
// (examples/attention_loop_e4m3.mlir).
func.func @p_8bit_v_mn_major(%Q: memref<128x64xf8E4M3FN>, %K: memref<256x64xf8E4M3FN>, %V: memref<256x64xf8E4M3FN>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<256x64xf8E4M3FN> to memref<64x256xf8E4M3FN, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x256xf8E4M3FN, strided<[1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<256x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 7]]:5: error: wgmma (sm_90a) cannot transpose e4m3: MN-major operands must be one of bf16, f16; store the tile K-major{{$}}
