// Diagnostics of split-K through global memory (`split_k = S, reduce = "global"`), each
// located: the op's options (parse errors at the entry; what does not go with it, its
// accumulator, its target and K at the op), the loop level's schedule entry, its `reduce
// global` store, its grid. split-k-diagnostics.mlir has the cluster's.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// -- the op
func.func @range(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 33, reduce = "global"} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:27: error: split_k is 1 to 32 (CTAs sharing a tile's K; 1 to 8 with reduce = cluster), not 33{{$}}

// -----

func.func @cluster_range(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {reduce = "cluster", split_k = 12} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:47: error: split_k = 12 with reduce = cluster: a portable cluster has 1 to 8 CTAs (reduce = global takes up to 32){{$}}

// -----

func.func @unknown(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4, reduce = "tree"} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:40: error: reduce is one of cluster, global, not tree{{$}}

// -----

func.func @persistent(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4, reduce = "global", persistent = true} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 4 does not go with persistent: each CTA computes one tile's slice of K and leaves (not persistent){{$}}

// -----

// a global split in clusters of 2 sharing B pairs one rank's CTAs of two tiles: the first
// tiles cannot be left unsplit, and the tile rows must pair
func.func @pair_unsplit(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 4, reduce = "global", unsplit = 8, cluster = 2} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: unsplit = 8 does not go with cluster = 2: a cluster of 2 pairs the CTAs of one rank in two tiles (the same K range); unsplit tiles and split ones would pair CTAs over different K ranges{{$}}

// -----

func.func @pair_odd_rows(%A: memref<384x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<384x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 4, reduce = "global", cluster = 2} : memref<384x4096xbf16>, memref<4096x512xbf16>, memref<384x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: a cluster of 2 pairs CTAs in the same columns of D: it needs the warp-specialised schedule, an even raster group, sizes known at compile time and an even number of tile rows (here 3){{$}}

// -----

func.func @tma(%A: memref<512x4096xbf16>, %B: memref<4096x520xbf16>, %D: memref<512x520xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4, reduce = "global", epilogue = "tma"} : memref<512x4096xbf16>, memref<4096x520xbf16>, memref<512x520xf32>
  func.return
}
// the global split's sum may go out by TMA stores, but not a D they cannot store
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 4]]:3: error: the TMA-store epilogue cannot store this D: D is f32: stmatrix stores 16-bit elements (bf16 or f16){{$}}

// -----

func.func @f16_accumulator(%A: memref<512x4096xf16>, %B: memref<4096x512xf16>, %D: memref<512x512xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f16 {split_k = 4, reduce = "global"} : memref<512x4096xf16>, memref<4096x512xf16>, memref<512x512xf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: reduce = global sums f32 or s32 partial tiles from the accumulator's registers; an f16 accumulator needs reduce = cluster (which widens it to f32){{$}}

// -----

func.func @few_k_tiles(%A: memref<512x1000xbf16>, %B: memref<1000x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 32, reduce = "global"} : memref<512x1000xbf16>, memref<1000x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 32: K = 1000 has 16 K tile(s) of 64, fewer than the 32 CTAs that would share them{{$}}

// -----

func.func @sm100(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {split_k = 4, reduce = "global"} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k is sm_90a only for now{{$}}

// -----

// -- the loop level
func.func @no_split(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, reduce = global>} {
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
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 25]]:209: error: reduce = global is how split-K's CTAs sum their partial tiles: it needs split_k = S (2 to 32){{$}}

// -----

func.func @store_cluster(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, reduce = global>} {
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
  tc.window_store %acc to %D[%m0, %n0] reduce cluster : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: `reduce cluster` but the kernel's #tc.gemm_schedule has reduce = global: the store sums the partial tiles the way the schedule splits K{{$}}

// -----

func.func @store_plain(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, reduce = global>} {
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
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 8: each of a tile's 8 CTAs holds a partial tile of D, which the store sums: tc.window_store ... reduce global{{$}}

// -----

func.func @store_unsplit(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
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
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: `reduce global` sums the partial tiles of split-K's CTAs through the global workspace: the kernel's #tc.gemm_schedule needs split_k = S, reduce = global{{$}}

// -----

func.func @grid_x(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [36, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, reduce = global>} {
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
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 25]]:1: error: split_k = 8: the 8 consecutive CTAs along x of a tile share its K, so the grid's x (36) must be a multiple of 8 (tc.grid){{$}}

// -----

func.func @grid_times(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a", tc.grid = [[2, 1, 128, 4], 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, reduce = global>} {
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
  tc.window_store %acc to %D[%m0, %n0] reduce global : !tc.acc<128x128xf32>, memref<?x?xbf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 25]]:1: error: the grid's x, [2, 1, 128, 4], is a multiple of the 8 CTAs that share a tile only where its times is: [2, 1, 128, 8] (tc.grid){{$}}

// -----

func.func @loop_f16_accumulator(%A: memref<512x65536xf16>, %B: memref<65536x512xf16>, %D: memref<512x512xf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, reduce = global>} {
  %a = tc.smem_tile {stages = 4} : !tc.tile<128x64xf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4} : !tc.tile<128x64xf16, #tc.layout<mn, swizzle = auto, order = k_first>>
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
  %zero = tc.acc_zero : !tc.acc<128x128xf16>
  %acc = scf.for %k = %k_lo to %k_hi step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf16>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<512x65536xf16>, !tc.tile<128x64xf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<65536x512xf16>, !tc.tile<128x64xf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf16>
    scf.yield %d : !tc.acc<128x128xf16>
  }
  tc.window_store %acc to %D[%m0, %n0] reduce global : !tc.acc<128x128xf16>, memref<512x512xf16>
  func.return
}
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 3]]:3: error: reduce = global sums f32 or s32 partial tiles from the accumulator's registers; an f16 accumulator needs reduce = cluster (which widens it to f32){{$}}

// -----

// a pair's split written by hand with the unpaired rank (block x mod S): blocks 0, 2, ...,
// 14 are tile 0's CTAs in a cluster of 2, and they take K steps twice
func.func @pair_rank(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [128, 1, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2, split_k = 8, reduce = global>} {
  %a = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %rank = arith.remui %bx, %c8 : index
  %tile = arith.divui %bx, %c8 : index
  %row = arith.remui %tile, %c4 : index
  %col = arith.divui %tile, %c4 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %row, %c128 : index
  %n0 = arith.muli %col, %c128 : index
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
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 9]]:3: error: split_k = 8: the K loops of the CTAs of a split tile (blocks x = 0 to 14 by 2, ranks 0 to 7) run over {{.*}}: K step {{[0-9]+}} is taken twice; rank r = (block x / 2) mod S takes e.g. the K steps [r T / S, (r + 1) T / S) of T = ceil(K / BK){{$}}

// -----

// a pair's split on a 2-d grid: the pairs follow each other on a 1-d grid of 2S CTAs a pair of tiles
func.func @pair_grid(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2, split_k = 8, reduce = global>} {
  %a = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %rank = arith.remui %bx, %c8 : index
  %tile = arith.divui %bx, %c8 : index
  %row = arith.remui %tile, %c4 : index
  %col = arith.divui %tile, %c4 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %row, %c128 : index
  %n0 = arith.muli %col, %c128 : index
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
// CHECK: split-k-global-diagnostics.mlir:[[# @LINE - 27]]:1: error: split_k = 8 with cluster = 2: the pairs of tiles' 16 CTAs follow each other on a 1-d grid, so its x must be a multiple of 16 known at compile time, not [32, 4, 1] (tc.grid){{$}}
