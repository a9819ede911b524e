// Diagnostics of splitting the last wave's tiles after whole ones (`unsplit = F`), each
// located: at the op (no split, the cluster's split, F as many tiles as there are, the
// row-order grid, sizes known at launch), in #tc.gemm_schedule, and in a loop-level kernel
// written by hand (a grid that is not F + S j; whole tiles' CTAs that take a slice of K).
// 304 x 520 in 64 x 128 tiles is 5 x 5 = 25 tiles.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// -- the op
func.func @no_split(%A: memref<304x2056xbf16>, %B: memref<2056x520xbf16>, %D: memref<304x520xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {unsplit = 5} : memref<304x2056xbf16>, memref<2056x520xbf16>, memref<304x520xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 3]]:3: error: unsplit = 5 leaves the walk's first tiles unsplit and splits the others through global memory: it needs split_k = S (2 to 32) with reduce = global{{$}}

// -----

func.func @cluster_split(%A: memref<304x2056xbf16>, %B: memref<2056x520xbf16>, %D: memref<304x520xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 3, unsplit = 5} : memref<304x2056xbf16>, memref<2056x520xbf16>, memref<304x520xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 3]]:3: error: unsplit = 5 leaves the walk's first tiles unsplit and splits the others through global memory: it needs split_k = S (2 to 32) with reduce = global{{$}}

// -----

func.func @every_tile(%A: memref<304x2056xbf16>, %B: memref<2056x520xbf16>, %D: memref<304x520xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 3, reduce = "global", unsplit = 25} : memref<304x2056xbf16>, memref<2056x520xbf16>, memref<304x520xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 3]]:3: error: unsplit = 25 leaves no tile to split: the GEMM has 25 tile(s), so unsplit is below 25{{$}}

// -----

func.func @row_order(%A: memref<304x2056xbf16>, %B: memref<2056x520xbf16>, %D: memref<304x520xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 3, reduce = "global", unsplit = 5, raster = 0} : memref<304x2056xbf16>, memref<2056x520xbf16>, memref<304x520xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 3]]:3: error: unsplit = 5 numbers the tiles on a 1-d grid (the grouped order): it needs raster >= 1, or none given{{$}}

// -----

func.func @at_launch(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 3, reduce = "global", unsplit = 5} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 3]]:3: error: unsplit = 5 counts tiles of the walk: it needs M, N and the batch known at compile time{{$}}

// -----

// -- the loop level's schedule entry
func.func @schedule(%A: memref<304x2056xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 3, unsplit = 5>} {
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 3]]:166: error: unsplit = 5 leaves the walk's first tiles unsplit and splits the others through global memory: it needs split_k = S (2 to 32) with reduce = global{{$}}

// -----

// -- a hand-written kernel: the grid is 20 whole tiles + 3 x 5 split CTAs = 35, not 36
func.func @grid(%A: memref<304x2056xbf16>, %B: memref<2056x520xbf16>, %D: memref<304x520xbf16>) attributes {tc.target = "sm_90a", tc.grid = [36 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 3, reduce = global, unsplit = 20>} {
  %a = tc.smem_tile {stages = 4 : i64} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %split_k = arith.constant 3 : index
  %unsplit = arith.constant 20 : index
  %0 = arith.constant 1 : index
  %1 = arith.constant 2 : index
  %2 = arith.minui %bx, %unsplit : index
  %split_cta = arith.subi %bx, %2 : index
  %3 = arith.divui %split_cta, %split_k : index
  %tile_x = arith.addi %2, %3 : index
  %rank = arith.remui %split_cta, %split_k : index
  %4 = arith.addi %bx, %0 : index
  %5 = arith.minui %4, %unsplit : index
  %6 = arith.subi %4, %5 : index
  %is_split = arith.minui %6, %0 : index
  %7 = arith.muli %is_split, %1 : index
  %ways = arith.addi %7, %0 : index
  %bm = arith.constant 64 : index
  %bn = arith.constant 128 : index
  %8 = arith.constant 8 : index
  %9 = arith.constant 40 : index
  %10 = arith.constant 5 : index
  %group = arith.divui %tile_x, %9 : index
  %first_row = arith.muli %group, %8 : index
  %11 = arith.subi %10, %first_row : index
  %rows = arith.minui %11, %8 : index
  %in_group = arith.remui %tile_x, %9 : index
  %12 = arith.remui %in_group, %rows : index
  %tile_row = arith.addi %first_row, %12 : index
  %tile_col = arith.divui %in_group, %rows : index
  %m0 = arith.muli %tile_row, %bm : index
  %n0 = arith.muli %tile_col, %bn : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 2056 : index
  %bk = arith.constant 64 : index
  %k_tiles = arith.constant 33 : index
  %13 = arith.constant 1 : index
  %14 = arith.muli %rank, %k_tiles : index
  %15 = arith.divui %14, %ways : index
  %k_lo = arith.muli %15, %bk : index
  %16 = arith.addi %rank, %13 : index
  %17 = arith.muli %16, %k_tiles : index
  %18 = arith.divui %17, %ways : index
  %k_hi = arith.muli %18, %bk : index
  %zero = tc.acc_zero : !tc.acc<64x128xf32>
  %result = scf.for %k = %k_lo to %k_hi step %bk iter_args(%acc = %zero) -> (!tc.acc<64x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<304x2056xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<2056x520xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<64x128xf32>
    scf.yield %next : !tc.acc<64x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] reduce global : !tc.acc<64x128xf32>, memref<304x520xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 56]]:1: error: unsplit = 20: the first 20 CTAs along x take a tile each and the others 3 to a tile, so the grid is [20 + 3 j, 1, 1] for j >= 1 split tiles, known at compile time, not [36, 1, 1] (tc.grid){{$}}

// -----

// -- a hand-written kernel whose K range divides every CTA's K by S: the whole tiles' CTAs
// would take a third of K each
func.func @slices(%A: memref<304x2056xbf16>, %B: memref<2056x520xbf16>, %D: memref<304x520xbf16>) attributes {tc.target = "sm_90a", tc.grid = [35 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 3, reduce = global, unsplit = 20>} {
  %a = tc.smem_tile {stages = 4 : i64} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %split_k = arith.constant 3 : index
  %unsplit = arith.constant 20 : index
  %0 = arith.constant 1 : index
  %1 = arith.constant 2 : index
  %2 = arith.minui %bx, %unsplit : index
  %split_cta = arith.subi %bx, %2 : index
  %3 = arith.divui %split_cta, %split_k : index
  %tile_x = arith.addi %2, %3 : index
  %rank = arith.remui %split_cta, %split_k : index
  %4 = arith.addi %bx, %0 : index
  %5 = arith.minui %4, %unsplit : index
  %6 = arith.subi %4, %5 : index
  %is_split = arith.minui %6, %0 : index
  %7 = arith.muli %is_split, %1 : index
  %ways = arith.addi %7, %0 : index
  %bm = arith.constant 64 : index
  %bn = arith.constant 128 : index
  %8 = arith.constant 8 : index
  %9 = arith.constant 40 : index
  %10 = arith.constant 5 : index
  %group = arith.divui %tile_x, %9 : index
  %first_row = arith.muli %group, %8 : index
  %11 = arith.subi %10, %first_row : index
  %rows = arith.minui %11, %8 : index
  %in_group = arith.remui %tile_x, %9 : index
  %12 = arith.remui %in_group, %rows : index
  %tile_row = arith.addi %first_row, %12 : index
  %tile_col = arith.divui %in_group, %rows : index
  %m0 = arith.muli %tile_row, %bm : index
  %n0 = arith.muli %tile_col, %bn : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 2056 : index
  %bk = arith.constant 64 : index
  %k_tiles = arith.constant 33 : index
  %13 = arith.constant 1 : index
  %14 = arith.muli %rank, %k_tiles : index
  %15 = arith.divui %14, %split_k : index
  %k_lo = arith.muli %15, %bk : index
  %16 = arith.addi %rank, %13 : index
  %17 = arith.muli %16, %k_tiles : index
  %18 = arith.divui %17, %split_k : index
  %k_hi = arith.muli %18, %bk : index
  %zero = tc.acc_zero : !tc.acc<64x128xf32>
  %result = scf.for %k = %k_lo to %k_hi step %bk iter_args(%acc = %zero) -> (!tc.acc<64x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<304x2056xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<2056x520xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<64x128xf32>
    scf.yield %next : !tc.acc<64x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] reduce global : !tc.acc<64x128xf32>, memref<304x520xbf16>
  func.return
}
// CHECK: split-k-unsplit-diagnostics.mlir:[[# @LINE - 9]]:3: error: unsplit = 20: block x = 0 has its tile alone, but its K loop runs over [0, 704) with K = 2056: they end at 704, not at 2112 (33 K step(s) of 64 cover K){{$}}
