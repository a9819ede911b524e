// Diagnostics of the loop level: what the pipelined lowering needs of the K loop.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @nogrid(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%bx, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:4:1: error: a kernel that reads gpu.block_id names its grid: tc.grid = [x, y, z]{{$}}

// -----

func.func @kcoord(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %c0] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:31:5: error: operand a's window moves along K with the loop: its K coordinate must be the induction variable{{$}}

// -----

func.func @step(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:50:3: error: the loop steps K by 32, but the tiles hold BK = 64{{$}}

// -----

func.func @onestage(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:72:5: error: A and B need the same number of stages, at least 2 (A has 1, B 1){{$}}

// -----

func.func @badstages(%A: memref<128x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 0} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:83:3: error: stages is an integer from 1 to 16: tc.smem_tile {stages = 4} : ...{{$}}

// -----

func.func @transpose(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>
  %c0 = arith.constant 0 : index
  tc.window_load %A[%c0, %c0] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:93:3: error: TMA cannot transpose: operand a's global matrix is contiguous along K, so its tile must be k-major for a TMA copy; store it column-major or copy via threads{{$}}

// -----

func.func @dynbound(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %bx to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:107:3: error: the K loop's lower bound must be a constant{{$}}

// -----

func.func @foreign(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %x = arith.addi %k, %c64 : index
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:129:5: error: 'arith.addi' cannot be in the K loop: it holds tc.window_load and tc.wgmma{{$}}

// -----

func.func @nowindow(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:148:5: error: the tc.wgmma's B tile must be loaded by a tc.window_load in the loop{{$}}

// -----

func.func @twice(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %A[%c64, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:166:5: error: each ring tile is loaded by one window{{$}}

// -----

func.func @after(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  %z = tc.acc_zero : !tc.acc<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:191:3: error: 'tc.acc_zero' cannot follow the K loop: a GEMM kernel ends with tc.window_store{{$}}

// -----

func.func @badgrid(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a", tc.grid = [1, 2]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:198:1: error: tc.grid is three entries, each a positive count or [arg, dim, tile] (ceil of that size / tile), or [arg, dim, tile, times] (that many times as many, 1 to 32: split-K's CTAs per tile){{$}}

// -----

func.func @regs(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c a_in_registers : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:226:5: error: the pipelined GEMM reads A from shared memory (a_in_registers is for single tiles){{$}}

// -----

func.func @twoloops(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  %acc2 = scf.for %k2 = %c0 to %c64 step %c64 iter_args(%c2 = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k2] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k2, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d2 = tc.wgmma %a, %b, %c2 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d2 : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:248:3: error: a GEMM kernel has one K loop{{$}}

// -----

func.func @divui(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %q = arith.divui %c64, %c0 : index
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}loop-diagnostics.mlir:267:3: error: 'arith.divui' by zero{{$}}

// -----

// A window is a TMA load: no 4- or 6-bit types (their tensor-map type is not emitted).
func.func @e2m1_window(%A: memref<256x256xf4E2M1FN>) attributes {tc.target = "sm_100a", tc.grid = [1, 2, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %m0 = arith.muli %by, %c128 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 256 : index
  scf.for %k = %c0 to %cK step %c128 {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x256xf4E2M1FN>, !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  }
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 4]]:5: error: a window is a TMA load, and TMA copies of e2m1 tiles need the padded 16U4_ALIGN16B tensor-map type, which lower-tc does not emit yet: multiply 4- and 6-bit types in a single-tile tcgen05 kernel whose tiles are filled by thread copies (examples/tcgen05_e2m1.mlir){{$}}

// -----

// Window coordinates are 32-bit: a source of 2^32 rows has rows no register reaches.
func.func @window_rows(%A: memref<4294967296x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c64 {
    tc.window_load %A[%c0, %k] to %a as a : memref<4294967296x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  }
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 4]]:5: error: the window's source's row count is 4294967296: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// The store steps D's rows by its row pitch, a 32-bit immediate.
func.func @store_pitch(%D: memref<128x128xf32, strided<[1073741824, 1]>>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    scf.yield %c : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0] : !tc.acc<128x128xf32>, memref<128x128xf32, strided<[1073741824, 1]>>
  func.return
}
// CHECK: loop-diagnostics.mlir:[[# @LINE - 3]]:3: error: D's row pitch (1073741824 elements) in bytes is 4294967296: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}
