// Diagnostics of the warp-specialised tcgen05 GEMM's options (sm_100a), each located.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s
// persistent alone: the sm_100a default schedule is the one-loop kernel
func.func @persistent_alone(%A: memref<1000x1000xbf16>, %B: memref<1000x1000xbf16>, %D: memref<1000x1000xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {persistent = true} : memref<1000x1000xbf16>, memref<1000x1000xbf16>, memref<1000x1000xbf16>
  func.return
}
// CHECK: {{.*}}tcgen05-specialized-diagnostics.mlir:5:3: error: a persistent GEMM is warp-specialised and walks the tiles in the grouped order (raster >= 1, sizes known at compile time){{$}}

// -----

// persistent walks the tiles in the grouped order: not with raster = 0
func.func @persistent_raster0(%A: memref<1000x1000xbf16>, %B: memref<1000x1000xbf16>, %D: memref<1000x1000xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {schedule = "warp_specialized", persistent = true, raster = 0} : memref<1000x1000xbf16>, memref<1000x1000xbf16>, memref<1000x1000xbf16>
  func.return
}
// CHECK: {{.*}}tcgen05-specialized-diagnostics.mlir:14:3: error: a persistent GEMM is warp-specialised and walks the tiles in the grouped order (raster >= 1, sizes known at compile time){{$}}

// -----

// mma_depth counts wgmma groups
func.func @depth(%A: memref<1000x1000xbf16>, %B: memref<1000x1000xbf16>, %D: memref<1000x1000xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {schedule = "warp_specialized", mma_depth = 2} : memref<1000x1000xbf16>, memref<1000x1000xbf16>, memref<1000x1000xbf16>
  func.return
}
// CHECK: {{.*}}tcgen05-specialized-diagnostics.mlir:23:3: error: mma_depth counts wgmma groups: the warp-specialised tcgen05 GEMM (sm_100a) has none{{$}}

// -----

// the loop level: persistent without the warp-specialised schedule, refused where the attribute is parsed
func.func @loop_persistent_pipelined(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [2 : i64, 2 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<pipelined, persistent>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bm = arith.constant 128 : index
  %m0 = arith.muli %by, %bm : index
  %n0 = arith.muli %bx, %bm : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<128x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-specialized-diagnostics.mlir:31:232: error: persistent is for the warp-specialised schedule (#tc.gemm_schedule<warp_specialized, persistent>){{$}}

// -----

// the loop level: a persistent kernel's grid is 1-d
func.func @loop_persistent_2d(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [2 : i64, 2 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bm = arith.constant 128 : index
  %m0 = arith.muli %by, %bm : index
  %n0 = arith.muli %bx, %bm : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<128x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-specialized-diagnostics.mlir:57:1: error: a persistent GEMM walks a 1-d grid of tiles known at compile time: tc.grid = {{\[}}tiles, 1, 1]{{$}}

// -----

// cluster = 2 on sm_100a makes a CTA pair: its K loop's MMA must be the pair's (cta_pair)
func.func @loop_cluster(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [2 : i64, 2 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bm = arith.constant 128 : index
  %m0 = arith.muli %by, %bm : index
  %n0 = arith.muli %bx, %bm : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<128x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-specialized-diagnostics.mlir:98:5: error: with cluster = 2 (#tc.gemm_schedule) on sm_100a the K loop's tc.tcgen05_mma is a CTA pair's (cta_pair): the pair shares one M = 256 MMA{{$}}
