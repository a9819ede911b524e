// Diagnostics of V's transposition in shared memory (tc.tile_transpose; docs/attention.md,
// "V as given"), each located: tiles of two types, the wrong direction, rings of different
// depths, the pipelined schedule (no producer warpgroup), two transpositions in one loop,
// one that does not fill the P V wgmma's B; P in accumulator_order against V's keys in
// natural order, and the other way round; a transposition outside an attention loop.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s
func.func @types_differ(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E5M2>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E5M2, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E5M2>, !tc.tile<64x64xf8E5M2, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E5M2, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 16]]:5: error: tc.tile_transpose copies between tiles of one type, not e5m2 to e4m3{{$}}

// -----

func.func @wrong_way(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %v to %vs : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 16]]:5: error: tc.tile_transpose copies an MN-major tile into a K-major one, not k to mn (fp8 wgmma reads B K-major; 16-bit wgmma reads MN-major B itself){{$}}

// -----

func.func @stages_differ(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 3} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 16]]:5: error: tc.tile_transpose's tiles have as many stages: 3 and 2{{$}}

// -----

func.func @pipelined(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1], tc.schedule = #tc.gemm_schedule<pipelined>} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 16]]:5: error: tc.tile_transpose runs in the producer warpgroup of the warp-specialised schedule; the pipelined one has none (drop its tc.schedule){{$}}

// -----

func.func @two_transposes(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v2 = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.tile_transpose %vs to %v2 : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 16]]:5: error: an attention kernel's loop transposes one tile: V's{{$}}

// -----

func.func @not_pv_b(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v2 = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v2 : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 16]]:5: error: the loop's tc.tile_transpose fills the P V wgmma's B (V's K-major tile){{$}}

// -----

func.func @p_ordered_v_not(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 8]]:5: error: a fragment in accumulator_order multiplies a B whose keys are in that order: the destination of a tc.tile_transpose {accumulator_order}{{$}}

// -----

func.func @v_ordered_p_not(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x1024x64xf8E4M3FN> to memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>
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
  tc.window_load %Q[%head, %q0, %c0] to %q as a : memref<2x1024x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%head, %c0, %j] to %k as b : memref<2x64x1024xf8E4M3FN, strided<[65536, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%head, %j, %c0] to %vs as b : memref<2x1024x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%q0, %j) {causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%head, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1024x64xbf16>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 8]]:5: error: V's tile holds its keys in accumulator_order (its tc.tile_transpose): P's tc.acc_to_a takes {accumulator_order} too{{$}}

// -----

func.func @outside_attention() attributes {tc.target = "sm_90a"} {
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x128xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  tc.tile_transpose %vs to %v : !tc.tile<64x128xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: transpose-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.tile_transpose runs in an attention kernel's key loop, where the producer warpgroup transposes each block of V (docs/attention.md, 'V as given'); no other kernel lowers it{{$}}
