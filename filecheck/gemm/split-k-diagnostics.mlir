// Diagnostics of split-K (`split_k = S`), each located: the op's option (parse errors at
// the entry; what does not go with it, the target, K and shared memory at the op), the
// loop level's schedule entry, its `reduce cluster` store, the cluster's K ranges (shown to
// take every K step once), its grid and its shared memory.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// -- the op
func.func @range(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 9} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:27: error: split_k = 9 with reduce = cluster: a portable cluster has 1 to 8 CTAs (reduce = global takes up to 32){{$}}

// -----

func.func @wrong_type(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = "4"} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:27: error: split_k is an integer (CTAs sharing a tile's K), not "4"{{$}}

// -----

func.func @persistent(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4, persistent = true} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 4 does not go with persistent: the cluster's CTAs compute one tile together and leave (not persistent){{$}}

// -----

func.func @cluster(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4, cluster = 2} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 4 does not go with cluster = 2: the cluster is split_k's, its CTAs sharing one tile's K{{$}}

// -----

func.func @tma_store(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4, epilogue = "tma"} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 4 does not go with epilogue = tma: the reduced tile is stored from registers{{$}}

// -----

func.func @blackwell(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {split_k = 4} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k is sm_90a only for now{{$}}

// -----

// K = 128: two K tiles of 64 for four CTAs
func.func @few_k_tiles(%A: memref<512x128xbf16>, %B: memref<128x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {split_k = 4} : memref<512x128xbf16>, memref<128x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 4: K = 128 has 2 K tile(s) of 64, fewer than the 4 CTAs that would share them{{$}}

// -----

// a 256x256 f32 partial tile: 256 rows of 1056 bytes
func.func @smem(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 256, bn = 256, bk = 64, stages = 2> {split_k = 2} : memref<512x4096xbf16>, memref<4096x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 2: the 256x256 f32 partial tile needs 270336 bytes (256 rows of 1056), 270368 with the barriers, more than the 232448 (227 KiB) a block may use{{$}}

// -----

// -- the loop level
func.func @schedule_persistent(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, persistent>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:220: error: split_k = 8 does not go with persistent: the cluster's CTAs compute one tile together and leave (not persistent){{$}}

// -----

func.func @schedule_range(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 9>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:215: error: split_k = 9 with reduce = cluster: a portable cluster has 1 to 8 CTAs (reduce = global takes up to 32){{$}}

// -----

func.func @schedule_cluster(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8, cluster = 2>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:217: error: split_k = 8 does not go with cluster = 2: the cluster is split_k's, its CTAs sharing one tile's K{{$}}

// -----

func.func @schedule_tma(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, epilogue = tma, split_k = 8>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:229: error: split_k = 8 does not go with epilogue = tma: the reduced tile is stored from registers{{$}}

// -----

func.func @reduce_what(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8>} {
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
  tc.window_store %acc to %D[%m0, %n0] reduce warp : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:47: error: tc.window_store reduces over the cluster (`reduce cluster`) or the global workspace (`reduce global`), not warp{{$}}

// -----

func.func @no_reduce(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 8: each CTA of a cluster holds a partial tile of D, which the store sums: tc.window_store ... reduce cluster{{$}}

// -----

func.func @reduce_without_split(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: `reduce cluster` sums the partial tiles of a split-K cluster: the kernel's #tc.gemm_schedule needs split_k = S (2 to 8){{$}}

// -----

// every CTA of the cluster over the same K (the tile's index instead of the rank)
func.func @no_rank(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8>} {
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
  %k_lo = arith.muli %tile_x, %slice : index
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 9]]:3: error: split_k = 8: the K loops of the cluster's CTAs (blocks x = 0 to 7, ranks 0 to 7) run over [0, 8192), [0, 8192), [0, 8192), [0, 8192), [0, 8192), [0, 8192), [0, 8192), [0, 8192) with K = 65536: K step 0 is taken twice; rank r = block x mod S takes e.g. the K steps [r T / S, (r + 1) T / S) of T = ceil(K / BK){{$}}

// -----

// a gap: rank r from r 8192 to r 8192 + 4096
func.func @gap(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [32, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8>} {
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
  %half = arith.constant 4096 : index
  %k_lo = arith.muli %rank, %slice : index
  %k_hi = arith.addi %k_lo, %half : index
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 9]]:3: error: split_k = 8: the K loops of the cluster's CTAs (blocks x = 0 to 7, ranks 0 to 7) run over [0, 4096), [8192, 12288), [16384, 20480), [24576, 28672), [32768, 36864), [40960, 45056), [49152, 53248), [57344, 61440) with K = 65536: K step 4096 is taken by no CTA; rank r = block x mod S takes e.g. the K steps [r T / S, (r + 1) T / S) of T = ceil(K / BK){{$}}

// -----

// K known at launch, cut into quarters that are not whole K steps of 64
func.func @dynamic_quarters(%A: memref<512x?xbf16>, %B: memref<?x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 4>} {
  %a = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c8 = arith.constant 4 : index
  %rank = arith.remui %bx, %c8 : index
  %tile_x = arith.divui %bx, %c8 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %tile_x, %c128 : index
  %c1 = arith.constant 1 : index
  %kk = memref.dim %A, %c1 : memref<512x?xbf16>
  %c4q = arith.constant 4 : index
  %slice = arith.divui %kk, %c4q : index
  %k_lo = arith.muli %rank, %slice : index
  %k_hi = arith.addi %k_lo, %slice : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %k_lo to %k_hi step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<512x?xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<?x512xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] reduce cluster : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 9]]:3: error: split_k = 4: the K loops of the cluster's CTAs (blocks x = 0 to 3, ranks 0 to 3) run over [0, 0), [0, 0), [0, 0), [0, 0) with K = 1 (K known at launch, a sample): they end at 0, not at 64 (1 K step(s) of 64 cover K); rank r = block x mod S takes e.g. the K steps [r T / S, (r + 1) T / S) of T = ceil(K / BK){{$}}

// -----

// the grid's x is not a whole number of clusters
func.func @grid(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [36, 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8>} {
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
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:1: error: a cluster launch runs whole clusters of 8 CTAs: the grid's x (36) is not a multiple of 8 (tc.grid){{$}}

// -----

// a grid entry known at launch: [arg, dim, tile, times] with times 1 to 32
func.func @grid_times(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a", tc.grid = [[2, 1, 128, 33], 4, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 8>} {
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
  tc.window_store %acc to %D[%m0, %n0] reduce cluster : !tc.acc<128x128xf32>, memref<?x?xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:1: error: tc.grid is three entries, each a positive count or [arg, dim, tile] (ceil of that size / tile), or [arg, dim, tile, times] (that many times as many, 1 to 32: split-K's CTAs per tile){{$}}

// -----

// 256 x 256: its partial tile does not fit
func.func @loop_smem(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a", tc.grid = [4, 2, 1], tc.schedule = #tc.gemm_schedule<pipelined, split_k = 2>} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<256x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c8 = arith.constant 2 : index
  %rank = arith.remui %bx, %c8 : index
  %tile_x = arith.divui %bx, %c8 : index
  %c128 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %tile_x, %c128 : index
  %slice = arith.constant 32768 : index
  %k_lo = arith.muli %rank, %slice : index
  %k_hi = arith.addi %k_lo, %slice : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<256x256xf32>
  %acc = scf.for %k = %k_lo to %k_hi step %c64 iter_args(%c = %zero) -> (!tc.acc<256x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<512x65536xbf16>, !tc.tile<256x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<65536x512xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<256x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<256x256xf32>
    scf.yield %d : !tc.acc<256x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] reduce cluster : !tc.acc<256x256xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: split_k = 2: the 256x256 f32 partial tile needs 270336 bytes (256 rows of 1056); over the ring's 131072 and with its barriers the kernel needs 270368, more than the 232448 (227 KiB) a block may use{{$}}

// -----

// sm_100a (a tcgen05 loop)
func.func @tcgen05_split(%A: memref<512x4096xbf16>, %B: memref<4096x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_100a", tc.grid = [8, 4, 1], tc.schedule = #tc.gemm_schedule<pipelined, split_k = 2>} {
  %a = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c2 = arith.constant 2 : index
  %rank = arith.remui %bx, %c2 : index
  %tile_x = arith.divui %bx, %c2 : index
  %bm = arith.constant 128 : index
  %m0 = arith.muli %by, %bm : index
  %n0 = arith.muli %tile_x, %bm : index
  %slice = arith.constant 2048 : index
  %k_lo = arith.muli %rank, %slice : index
  %k_hi = arith.addi %k_lo, %slice : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %k_lo to %k_hi step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<512x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x512xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] reduce cluster : !tc.acc<128x128xf32>, memref<512x512xbf16>
  func.return
}
// CHECK: split-k-diagnostics.mlir:[[# @LINE - 25]]:1: error: split_k is sm_90a only for now{{$}}
