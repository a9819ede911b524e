// Diagnostics of stream-K (`stream_k = G`, layout/stream_k.py), each located: the op's
// option (parse errors at the entry; what does not go with it, its accumulator, its sizes
// and its target at the op), the loop level's schedule entry, and a hand-written loop-level
// kernel whose groups do not divide its tiles, whose K loop starts past 0 or whose
// accumulator is f16 (at the lowering). stream-k.mlir pins the kernel.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @range(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 17} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:27: error: stream_k is 0 (off) or the groups of CTAs, 1 to 16, not 17{{$}}

// -----

func.func @flag(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = true} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:27: error: stream_k is an integer (groups of CTAs sharing tiles' K steps), not true{{$}}

// -----

func.func @split(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 2, split_k = 2, reduce = "global"} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 2 does not go with split_k = 2: stream-K shares the K steps itself, across tiles{{$}}

// -----

func.func @cluster(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, cluster = 2} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 does not go with cluster = 2: its CTAs share K steps, not B's loads{{$}}

// -----

func.func @depth(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, mma_depth = 2} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 does not go with mma_depth = 2: a unit may be one K step, so the consumers leave one wgmma group in flight{{$}}

// -----

func.func @not_persistent(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, persistent = false} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 runs persistent CTAs, one per SM: it does not go with persistent = false{{$}}

// -----

func.func @pipelined(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, schedule = "pipelined"} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 runs a persistent walk: it needs the warp-specialised schedule, the grouped order (raster >= 1) and M, N, K and the batch known at compile time{{$}}

// -----

func.func @groups(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {stream_k = 3} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 3: group g takes tiles g, g + 3, g + 6, ..., so 3 must divide the 56 tiles{{$}}

// -----

func.func @f16_acc(%A: memref<256x16384xf16>, %B: memref<16384x7168xf16>, %D: memref<256x7168xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f16 {stream_k = 1} : memref<256x16384xf16>, memref<16384x7168xf16>, memref<256x7168xf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k sums f32 or s32 partial tiles from the accumulator's registers through global memory; an f16 accumulator does not go with it{{$}}

// -----

func.func @dynamic(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 runs a persistent walk: it needs the warp-specialised schedule, the grouped order (raster >= 1) and M, N, K and the batch known at compile time{{$}}

// -----

func.func @blackwell(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {stream_k = 1} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k is sm_90a only for now{{$}}

// -----

func.func @swapped(%A: memref<16x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<16x4096xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, swap_ab = true} : memref<16x4096xbf16>, memref<4096x4096xbf16>, memref<16x4096xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB does not go with stream_k = 1 (not built: stream-K's fix-up of tiles stored as D^T is not checked on the GPU; split_k goes with swap_ab){{$}}

// -----

// -- the loop level: stream-K is a persistent walk
func.func @loop(%A: memref<256x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, stream_k = 1>} {
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:126: error: stream_k = 1 needs a persistent walk: one CTA per SM runs its share of the K steps, unit after unit (persistent){{$}}

// -----

func.func @loop_groups(%A: memref<256x128xbf16>, %B: memref<128x512xbf16>, %D: memref<256x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent, stream_k = 3>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %bm = arith.constant 128 : index
  %bn = arith.constant 256 : index
  %0 = arith.constant 8 : index
  %1 = arith.constant 16 : index
  %2 = arith.constant 2 : index
  %group = arith.divui %bx, %1 : index
  %first_row = arith.muli %group, %0 : index
  %3 = arith.subi %2, %first_row : index
  %rows = arith.minui %3, %0 : index
  %in_group = arith.remui %bx, %1 : index
  %4 = arith.remui %in_group, %rows : index
  %tile_row = arith.addi %first_row, %4 : index
  %tile_col = arith.divui %in_group, %rows : index
  %m0 = arith.muli %tile_row, %bm : index
  %n0 = arith.muli %tile_col, %bn : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<128x512xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %next : !tc.acc<128x256xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<256x512xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 32]]:1: error: stream_k = 3: group g takes tiles g, g + 3, g + 6, ..., so 3 must divide the 4 tiles{{$}}

// -----

func.func @loop_lb(%A: memref<256x128xbf16>, %B: memref<128x512xbf16>, %D: memref<256x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent, stream_k = 2>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %bm = arith.constant 128 : index
  %bn = arith.constant 256 : index
  %0 = arith.constant 8 : index
  %1 = arith.constant 16 : index
  %2 = arith.constant 2 : index
  %group = arith.divui %bx, %1 : index
  %first_row = arith.muli %group, %0 : index
  %3 = arith.subi %2, %first_row : index
  %rows = arith.minui %3, %0 : index
  %in_group = arith.remui %bx, %1 : index
  %4 = arith.remui %in_group, %rows : index
  %tile_row = arith.addi %first_row, %4 : index
  %tile_col = arith.divui %in_group, %rows : index
  %m0 = arith.muli %tile_row, %bm : index
  %n0 = arith.muli %tile_col, %bn : index
  %c0 = arith.constant 64 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<128x512xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %next : !tc.acc<128x256xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<256x512xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 9]]:3: error: a stream-K GEMM's K loop runs over all of K from 0, its count known at compile time{{$}}

// -----

func.func @loop_f16(%A: memref<256x128xf16>, %B: memref<128x512xf16>, %D: memref<256x512xf16>) attributes {tc.target = "sm_90a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent, stream_k = 2>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<256x64xf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %bm = arith.constant 128 : index
  %bn = arith.constant 256 : index
  %0 = arith.constant 8 : index
  %1 = arith.constant 16 : index
  %2 = arith.constant 2 : index
  %group = arith.divui %bx, %1 : index
  %first_row = arith.muli %group, %0 : index
  %3 = arith.subi %2, %first_row : index
  %rows = arith.minui %3, %0 : index
  %in_group = arith.remui %bx, %1 : index
  %4 = arith.remui %in_group, %rows : index
  %tile_row = arith.addi %first_row, %4 : index
  %tile_col = arith.divui %in_group, %rows : index
  %m0 = arith.muli %tile_row, %bm : index
  %n0 = arith.muli %tile_col, %bn : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf16>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x256xf16>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xf16>, !tc.tile<128x64xf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<128x512xf16>, !tc.tile<256x64xf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<128x64xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf16>
    scf.yield %next : !tc.acc<128x256xf16>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x256xf16>, memref<256x512xf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 9]]:3: error: stream_k sums f32 or s32 partial tiles from the accumulator's registers through global memory; an f16 accumulator does not go with it{{$}}
