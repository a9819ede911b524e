// Diagnostics of fp8 attention's descaling factors (docs/attention.md, "Descaling factors"),
// each located. The loop level: a factor read at another head than K's window's, the
// maximum's and the exponentials' factors not one, a factor that is not an f32, a factor
// memref of another shape than (batch, heads of K), a factor that is a constant. The op
// level: factors of a 16-bit attention, of another shape, of f16, with strides that are not
// a matrix's. A factor in a single-tile kernel (no key loop to read it before).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32>, %KD: memref<1x2xf32>, %VD: memref<1x2xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x256x64xf8E4M3FN> to memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%hh, %q0, %c0] to %q as a : memref<2x256x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %qd = memref.load %QD[%c0, %hh] : memref<1x2xf32>
  %kd = memref.load %KD[%c0, %c0] : memref<1x2xf32>
  %vd = memref.load %VD[%c0, %hh] : memref<1x2xf32>
  %qkd = arith.mulf %qd, %kd : f32
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%hh, %c0, %j] to %k as b : memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%hh, %j, %c0] to %vs as b : memref<2x256x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 times %vd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x256x64xbf16>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 24]]:3: error: a descaling factor is read from a (batch, heads of K) = 1x2xf32 memref at K's window's batch and head (batch 0 where K has none): memref.load %D[batch, head]{{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32>, %KD: memref<1x2xf32>, %VD: memref<1x2xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x256x64xf8E4M3FN> to memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%hh, %q0, %c0] to %q as a : memref<2x256x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %qd = memref.load %QD[%c0, %hh] : memref<1x2xf32>
  %kd = memref.load %KD[%c0, %hh] : memref<1x2xf32>
  %vd = memref.load %VD[%c0, %hh] : memref<1x2xf32>
  %qkd = arith.mulf %qd, %kd : f32
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%hh, %c0, %j] to %k as b : memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%hh, %j, %c0] to %vs as b : memref<2x256x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 times %qd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 times %vd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x256x64xbf16>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 18]]:3: error: the loop's tc.acc_row_max and tc.acc_exp take one softmax scale (and one factor known at launch){{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32>, %KD: memref<1x2xf32>, %VD: memref<1x2xf16>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x256x64xf8E4M3FN> to memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%hh, %q0, %c0] to %q as a : memref<2x256x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %qd = memref.load %QD[%c0, %hh] : memref<1x2xf32>
  %kd = memref.load %KD[%c0, %hh] : memref<1x2xf32>
  %vd = memref.load %VD[%c0, %hh] : memref<1x2xf16>
  %qkd = arith.mulf %qd, %kd : f32
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%hh, %c0, %j] to %k as b : memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%hh, %j, %c0] to %vs as b : memref<2x256x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x256x64xbf16>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 23]]:3: error: memref.load reads an f32 (a factor known at launch), not f16{{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<2x2xf32>, %KD: memref<2x2xf32>, %VD: memref<2x2xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x256x64xf8E4M3FN> to memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%hh, %q0, %c0] to %q as a : memref<2x256x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %qd = memref.load %QD[%c0, %hh] : memref<2x2xf32>
  %kd = memref.load %KD[%c0, %hh] : memref<2x2xf32>
  %vd = memref.load %VD[%c0, %hh] : memref<2x2xf32>
  %qkd = arith.mulf %qd, %kd : f32
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%hh, %c0, %j] to %k as b : memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%hh, %j, %c0] to %vs as b : memref<2x256x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 times %vd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x256x64xbf16>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 25]]:3: error: a descaling factor is read from a (batch, heads of K) = 1x2xf32 memref at K's window's batch and head (batch 0 where K has none): memref.load %D[batch, head]{{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32>, %KD: memref<1x2xf32>, %VD: memref<1x2xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %vs = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %kt = tc.transpose %K : memref<2x256x64xf8E4M3FN> to memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %qb = arith.addi %bx, %c0 : index
  %q0 = arith.muli %qb, %cbm : index
  %ub = arith.constant 256 : index
  tc.window_load %Q[%hh, %q0, %c0] to %q as a : memref<2x256x64xf8E4M3FN>, !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %qd = memref.load %QD[%c0, %hh] : memref<1x2xf32>
  %kd = memref.load %KD[%c0, %hh] : memref<1x2xf32>
  %vd = memref.load %VD[%c0, %hh] : memref<1x2xf32>
  %one = arith.constant 1.0 : f32
  %qkd = arith.mulf %qd, %one : f32
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%hh, %c0, %j] to %k as b : memref<2x64x256xf8E4M3FN, strided<[16384, 1, 64]>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%hh, %j, %c0] to %vs as b : memref<2x256x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
    tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %s0, %m scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %s0, %m1 scale 0.125 times %qkd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p {accumulator_order} : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xf8E4M3FN>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 times %vd : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x256x64xbf16>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 23]]:3: error: only integer and index constants are lowered in a kernel's index arithmetic (an f32 known at launch is read by memref.load){{$}}

// -----

func.func @f(%Q: memref<2x256x64xbf16>, %K: memref<2x256x64xbf16>, %V: memref<2x256x64xbf16>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O q_descale %QD : memref<2x256x64xbf16>, memref<2x256x64xbf16>, memref<2x256x64xbf16>, memref<2x256x64xbf16>, memref<1x2xf32>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 3]]:3: error: q_descale is for 8-bit Q, K and V (descaling factors), not bf16{{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32>, %KD: memref<1x4xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O q_descale %QD k_descale %KD : memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xbf16>, memref<1x2xf32>, memref<1x4xf32>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 3]]:3: error: k_descale is a (batch, heads of K) = 1x2xf32 memref (FlashAttention-3's; batch 1 for 3-d tensors), not memref<1x4xf32>{{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O v_descale %QD : memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xbf16>, memref<1x2xf16>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 3]]:3: error: v_descale is a (batch, heads of K) = 1x2xf32 memref (FlashAttention-3's; batch 1 for 3-d tensors), not memref<1x2xf16>{{$}}

// -----

func.func @f(%Q: memref<2x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<2x256x64xbf16>, %QD: memref<1x2xf32, strided<[0, 0]>>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O k_descale %QD : memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xbf16>, memref<1x2xf32, strided<[0, 0]>>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 3]]:3: error: k_descale has strides [0, 0]; it must be row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>) (a (batch, heads of K) = 1x2xf32 matrix){{$}}

// -----

func.func @f(%QD: memref<1x1xf32>, %Q: memref<64x64xbf16>, %K0: memref<64x64xbf16, strided<[1, 64]>>, %K1: memref<64x64xbf16, strided<[1, 64]>>, %K2: memref<64x64xbf16, strided<[1, 64]>>, %K3: memref<64x64xbf16, strided<[1, 64]>>, %V0: memref<64x64xbf16>, %V1: memref<64x64xbf16>, %V2: memref<64x64xbf16>, %V3: memref<64x64xbf16>, %O: memref<64x64xf32>, %LSE: memref<64x1xf32>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k0 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v0 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K0 to %k0 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V0 to %v0 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %k1 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v1 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K1 to %k1 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V1 to %v1 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %k2 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v2 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K2 to %k2 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V2 to %v2 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %k3 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v3 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K3 to %k3 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V3 to %v3 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %m0 = tc.rows_fill -inf : !tc.rows<64xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<64xf32>
  %o0 = tc.acc_zero : !tc.acc<64x64xf32>
  %z0 = tc.acc_zero : !tc.acc<64x64xf32>
  %s0 = tc.wgmma %q, %k0, %z0 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %i0 = arith.constant 0 : index
  %f = memref.load %QD[%i0, %i0] : memref<1x1xf32>
  %m1 = tc.acc_row_max %s0, %m0 scale 0.125 times %f : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p0 = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l1 = tc.acc_row_sum %p0, %l0, %m0, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c0 = tc.acc_rescale %o0, %m0, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a0 = tc.acc_to_a %p0 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o1 = tc.wgmma %a0, %v0, %c0 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %z1 = tc.acc_zero : !tc.acc<64x64xf32>
  %s1 = tc.wgmma %q, %k1, %z1 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m2 = tc.acc_row_max %s1, %m1 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p1 = tc.acc_exp %s1, %m2 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l2 = tc.acc_row_sum %p1, %l1, %m1, %m2 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c1 = tc.acc_rescale %o1, %m1, %m2 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a1 = tc.acc_to_a %p1 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o2 = tc.wgmma %a1, %v1, %c1 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %z2 = tc.acc_zero : !tc.acc<64x64xf32>
  %s2 = tc.wgmma %q, %k2, %z2 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m3 = tc.acc_row_max %s2, %m2 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p2 = tc.acc_exp %s2, %m3 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l3 = tc.acc_row_sum %p2, %l2, %m2, %m3 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c2 = tc.acc_rescale %o2, %m2, %m3 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a2 = tc.acc_to_a %p2 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o3 = tc.wgmma %a2, %v2, %c2 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %z3 = tc.acc_zero : !tc.acc<64x64xf32>
  %s3 = tc.wgmma %q, %k3, %z3 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m4 = tc.acc_row_max %s3, %m3 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p3 = tc.acc_exp %s3, %m4 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l4 = tc.acc_row_sum %p3, %l3, %m3, %m4 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c3 = tc.acc_rescale %o3, %m3, %m4 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a3 = tc.acc_to_a %p3 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o4 = tc.wgmma %a3, %v3, %c3 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %o = tc.acc_row_div %o4, %l4 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  tc.acc_store %o to %O : !tc.acc<64x64xf32>, memref<64x64xf32>
  %lse = tc.rows_lse %m4, %l4 : !tc.rows<64xf32>
  tc.rows_store %lse to %LSE : !tc.rows<64xf32>, memref<64x1xf32>
  func.return
}
// CHECK: descale-diagnostics.mlir:[[# @LINE - 36]]:3: error: tc.acc_row_max takes a factor known at launch (times) in an attention loop kernel only (read by memref.load before its key loop){{$}}
