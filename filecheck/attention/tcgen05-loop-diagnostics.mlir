// Diagnostics of the attention loop on tcgen05 (sm_100a; examples/attention_loop_tcgen05.mlir,
// pinned by tcgen05-loop.mlir), each located: tc.pingpong (one warpgroup takes no turns), a
// tc.schedule (sm_90a's schedules), blocks of 64 queries (a !tc.rows of 64: tcgen05's M = 128
// layout gives a thread its row), a tc.wgmma in the loop, a tc.acc_zero before the loop
// that is not O's start, P V into a new accumulator rather than the carried O.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// tc.pingpong on the tcgen05 loop (one warpgroup: no turns to take)
func.func @pingpong(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1], tc.pingpong} {
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
// CHECK: tcgen05-loop-diagnostics.mlir:[[# @LINE - 45]]:1: error: tc.pingpong takes turns between wgmma consumer warpgroups (sm_90a); the tcgen05 attention loop has one warpgroup{{$}}

// -----

// a tc.schedule: sm_90a's schedules do not apply
func.func @schedule(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1], tc.schedule = #tc.gemm_schedule<pipelined>} {
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
// CHECK: tcgen05-loop-diagnostics.mlir:[[# @LINE - 45]]:1: error: the tcgen05 attention loop (sm_100a) has one schedule, one loop for every thread: drop its tc.schedule{{$}}

// -----

// 64-query blocks: tcgen05's M = 128 layout holds a thread's whole row
func.func @rows64(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1000x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<64x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<64xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<64xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<64x64xf32>, !tc.rows<64xf32>, !tc.rows<64xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1000xbf16, strided<[64000, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %v as b : memref<2x1000x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<64x64xf32>
    %s = tc.tcgen05_mma %q, %k, %z : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {keys = 1000, causal = 0} : !tc.acc<64x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
    %a = tc.acc_to_a %p : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
    %o1 = tc.tcgen05_mma %a, %v, %c : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>, !tc.rows<64xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<64x64xf32>, memref<2x1000x64xbf16>
  %lse = tc.rows_lse %r#1, %r#2 : !tc.rows<64xf32>
  tc.rows_store %lse to %L[%head, %q0] : !tc.rows<64xf32>, memref<2x1000xf32>
  func.return
}
// CHECK: tcgen05-loop-diagnostics.mlir:[[# @LINE - 22]]:3: error: tc.rows_fill on sm_100a: a !tc.rows has one value per row of a tcgen05 accumulator, 128 rows, not 64{{$}}

// -----

// a wgmma beside a tcgen05.mma
func.func @mixed(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1]} {
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
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1000x64xbf16>
  %lse = tc.rows_lse %r#1, %r#2 : !tc.rows<128xf32>
  tc.rows_store %lse to %L[%head, %q0] : !tc.rows<128xf32>, memref<2x1000xf32>
  func.return
}
// CHECK: tcgen05-loop-diagnostics.mlir:[[# @LINE - 9]]:5: error: tc.wgmma needs target sm_90a, but the kernel targets sm_100a{{$}}

// -----

// a tc.acc_zero before the loop that is not O's start
func.func @extra_zero(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1]} {
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
  %x0 = tc.acc_zero : !tc.acc<128x64xf32>
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
// CHECK: tcgen05-loop-diagnostics.mlir:[[# @LINE - 23]]:3: error: before the tcgen05 attention loop, tc.acc_zero starts O (the loop's carried accumulator) only{{$}}

// -----

// P V into a new accumulator instead of the carried O
func.func @pv_fresh(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>, %L: memref<2x1000xf32>) attributes {tc.target = "sm_100a", tc.grid = [8, 2, 1]} {
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
    %z2 = tc.acc_zero : !tc.acc<128x64xf32>
    %o1 = tc.tcgen05_mma %a, %v, %z2 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1000x64xbf16>
  %lse = tc.rows_lse %r#1, %r#2 : !tc.rows<128xf32>
  tc.rows_store %lse to %L[%head, %q0] : !tc.rows<128xf32>, memref<2x1000xf32>
  func.return
}
// CHECK: tcgen05-loop-diagnostics.mlir:[[# @LINE - 9]]:5: error: the P V tc.tcgen05_mma adds to O, carried by the loop (through tc.acc_rescale){{$}}
