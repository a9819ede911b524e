// The loop level's index arithmetic over the whole grid (passes/to_ptx/gemm/index_range.py):
// every index fits a 32-bit register and is non-negative for every CTA, and the stores
// are bounds-checked unless every CTA's window lies inside D; CUDA's grid and cluster
// limits (layout/limits.py).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// The grid covers D exactly: every CTA's window lies inside it, so the stores carry no bounds checks.
func.func @exact(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK-LABEL: .visible .entry exact(
// CHECK-NOT: outside_d
// CHECK: ret;

// -----

// One tile row too many (row 256 of a 256-row D): the same kernel is bounds-checked.
func.func @one_row_more(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 3, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK-LABEL: .visible .entry one_row_more(
// CHECK: $L_outside_d_
// CHECK: ret;

// -----

// A store at a constant row past D's last tile: bounds-checked.
func.func @constant_row(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %c256 = arith.constant 256 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c256, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK-LABEL: .visible .entry constant_row(
// CHECK: $L_outside_d_
// CHECK: ret;

// -----

// An index that goes negative for some CTA.
func.func @negative(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.subi %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 12]]:3: error: 'arith.subi' can compute -128 (for block (0, 0, 0)): a GEMM kernel's indices are non-negative{{$}}

// -----

// An index past 32 bits for some CTA: 2^25 CTAs of 128 columns (more than are evaluated one by one: by intervals).
func.func @wide(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [33554432, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 11]]:3: error: 'arith.muli' can compute 4294967168: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// An index constant past 32 bits (the K loop's bound).
func.func @big_constant(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 17179869184 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 14]]:3: error: this index constant is 17179869184: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// A division by a block index, zero for block 0.
func.func @by_zero(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.divui %c128, %by : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 12]]:3: error: 'arith.divui' divides by zero for some block of the grid{{$}}

// -----

// CUDA's grid: y is at most 65535.
func.func @grid_y(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 70000, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 20]]:1: error: the grid's y is 70000 blocks: CUDA launches 1 to 65535 along y (tc.grid){{$}}

// -----

// CUDA's grid: x is at most 2^31 - 1.
func.func @grid_x(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [4294967296, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 20]]:1: error: the grid's x is 4294967296 blocks: CUDA launches 1 to 2147483647 along x (tc.grid){{$}}

// -----

// A cluster launch runs whole clusters.
func.func @half_cluster(%A: memref<256x64xbf16>, %B: memref<64x384xbf16>, %D: memref<256x384xf32>) attributes {tc.target = "sm_90a", tc.grid = [3, 2, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2>} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x384xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x384xf32>
  func.return
}
// CHECK: {{.*}}loop-limits.mlir:[[# @LINE - 20]]:1: error: a cluster launch runs whole clusters of 2 CTAs: the grid's x (3) is not a multiple of 2 (tc.grid){{$}}
