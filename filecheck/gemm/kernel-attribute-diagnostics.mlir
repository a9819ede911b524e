// Diagnostics of the loop level's kernel attributes for the epilogue, the wgmma depth and
// clusters (the op level's are in epilogue-tma.mlir, persistent.mlir and cluster.mlir).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @epilogue_name(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.epilogue = "fast"} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:5:1: error: tc.epilogue is one of tma, registers, not "fast"

// -----

func.func @depth_too_big(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.schedule = "warp_specialized", tc.mma_depth = 3} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:31:1: error: tc.mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = 2, not 3 : i64

// -----

func.func @depth_pipelined(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.mma_depth = 2} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:57:1: error: tc.mma_depth is for the warp-specialised wgmma schedule (tc.schedule = "warp_specialized")

// -----

func.func @cluster_three(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.schedule = "warp_specialized", tc.cluster = 3} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:83:1: error: tc.cluster is 2 (CTAs per cluster), not 3 : i64
