// Diagnostics of fp8's promoted accumulation, each located: the option's value at its
// entry; at the op, operands that are not fp8, an accumulator that is not f32, a tile
// whose two accumulators do not fit the registers, mma_depth, sm_100a; the loop level's
// schedule entry with mma_depth and on sm_100a.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @value(%A: memref<256x1024xf8E4M3FN>, %B: memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {accumulation = "exact"} : memref<256x1024xf8E4M3FN>, memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, memref<256x256xbf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:27: error: accumulation is one of fast, promoted, not exact{{$}}

// -----

func.func @bf16(%A: memref<256x1024xbf16>, %B: memref<1024x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {accumulation = "promoted"} : memref<256x1024xbf16>, memref<1024x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:3: error: accumulation = promoted is for fp8 operands (e4m3, e5m2), whose wgmma sums are of limited precision; bf16 x bf16 accumulates exactly in f32 already{{$}}

// -----

func.func @f16_acc(%A: memref<256x1024xf8E4M3FN>, %B: memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, %D: memref<256x256xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f16 {accumulation = "promoted"} : memref<256x1024xf8E4M3FN>, memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, memref<256x256xf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:3: error: accumulation = promoted adds the partial sums into f32 registers: the accumulator must be f32, not f16{{$}}

// -----

func.func @wide(%A: memref<256x1024xf8E4M3FN>, %B: memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 128, stages = 4> {accumulation = "promoted"} : memref<256x1024xf8E4M3FN>, memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, memref<256x256xbf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:3: error: accumulation = promoted holds two accumulators per thread: the tile is at most 128 x 192 (the consumers' registers), not 128 x 256{{$}}

// -----

func.func @depth(%A: memref<256x1024xf8E4M3FN>, %B: memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {accumulation = "promoted", schedule = "warp_specialized", mma_depth = 2} : memref<256x1024xf8E4M3FN>, memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, memref<256x256xbf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:3: error: accumulation = promoted waits for each K step's MMAs before it adds their sums: it does not go with mma_depth = 2{{$}}

// -----

func.func @blackwell(%A: memref<256x1024xf8E4M3FN>, %B: memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {accumulation = "promoted"} : memref<256x1024xf8E4M3FN>, memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, memref<256x256xbf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:3: error: accumulation = promoted is for wgmma's fp8 partial sums (sm_90a): tcgen05 accumulates in tensor memory{{$}}

// -----

// the loop level
func.func @schedule_depth(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, mma_depth = 2, accumulation = promoted>} {
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: accumulation = promoted waits for each K step's MMAs before it adds their sums: it does not go with mma_depth = 2{{$}}

// -----

// a loop level written by hand: its bf16 MMA's sums are exact in f32 already
func.func @loop_bf16(%A: memref<256x1024xbf16>, %B: memref<1024x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 2, 1], tc.schedule = #tc.gemm_schedule<pipelined, accumulation = promoted>} {
  %a = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bm = arith.constant 128 : index
  %m0 = arith.muli %by, %bm : index
  %n0 = arith.muli %bx, %bm : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 1024 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x1024xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<1024x256xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 6]]:5: error: accumulation = promoted is for fp8 operands (e4m3, e5m2), whose wgmma sums are of limited precision; bf16 x bf16 accumulates exactly in f32 already{{$}}

// -----

func.func @long_step(%A: memref<256x1024xf8E4M3FN>, %B: memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 256, stages = 3> {accumulation = "promoted"} : memref<256x1024xf8E4M3FN>, memref<1024x256xf8E4M3FN, strided<[1, 1024]>>, memref<256x256xbf16>
  func.return
}
// CHECK: fp8-promoted-diagnostics.mlir:[[# @LINE - 3]]:3: error: accumulation = promoted adds each K step's sums in f32: a step (BK) is at most 128 products, not 256{{$}}
