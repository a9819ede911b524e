// A persistent GEMM ({persistent = true}): one CTA per SM (at most one per tile, chosen by
// the launcher), each walking the tiles ctaid.x, ctaid.x + nctaid.x, ...; the producer's and
// the consumers' K loops sit inside tile loops, and the ring's stage and phase run on.
// RUN: lower-tc %s --split-input-file --verify-diagnostics | filecheck %s

func.func @persistent(%A: memref<2048x1000xbf16, strided<[1008, 1]>>, %B: memref<1000x2048xbf16>, %D: memref<2048x2048xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {persistent = true} : memref<2048x1000xbf16, strided<[1008, 1]>>, memref<1000x2048xbf16>, memref<2048x2048xbf16>
  func.return
}
// 16 x 8 tiles of 128x256
// CHECK: // lower-tc kernel persistent: {{.*}}"grid": [{"persistent": 128}, 1, 1]
// CHECK: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// CHECK: mov.u32 %r[[FIRST:[0-9]+]], %ctaid.x;
// CHECK-NEXT: mov.u32 %r[[CTAS:[0-9]+]], %nctaid.x;
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// The producer: a tile loop from ctaid.x to the 128 tiles, around the K loop
// CHECK: mov.s32 %r{{[0-9]+}}, 128;
// CHECK-NEXT: mov.b32 %r[[T:[0-9]+]], %r[[FIRST]];
// CHECK: $L_for_1_head:
// CHECK: $L_for_0_head:
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64
// CHECK: $L_for_0_end:
// CHECK: add.s32 %r{{[0-9]+}}, %r[[T]], %r[[CTAS]];
// CHECK: $L_for_1_end:
// The consumers: a tile loop around the K loop, the last stage released and the tile stored
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: $L_for_3_head:
// CHECK: $L_for_2_head:
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: $L_for_2_end:
// CHECK-NEXT: // the last MMAs
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared::cta.b64
// CHECK: cvt.rn.bf16x2.f32
// CHECK: $L_for_3_end:

// -----

func.func @row_order(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {persistent = true, raster = 0} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 3]]:3: error: a persistent GEMM is warp-specialised and walks the tiles in the grouped order (raster >= 1, sizes known at compile time)

// -----

func.func @not_bool(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {persistent = 2} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 3]]:27: error: persistent is true or false, not 2 : i64{{$}}

// -----

func.func @bad_schedule(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {schedule = "eager"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 3]]:27: error: schedule is one of pipelined, warp_specialized, not eager

// -----

// mma_depth = 2: the consumers leave two wgmma groups in flight and release iteration
// i-2's stage ((s + stages - 2) mod stages, none while i < 2); each tile ends by releasing
// its last two stages
func.func @deep(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {persistent = true, mma_depth = 2} : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: // lower-tc kernel deep:
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: $L_for_2_head:
// CHECK: setp.lt.u32 %p[[EARLY:[0-9]+]], %r[[I:[0-9]+]], 2;
// CHECK-NEXT: add.u32 %r[[BACK:[0-9]+]], %r{{[0-9]+}}, 2;
// CHECK-NEXT: setp.ge.u32 %p[[WRAP:[0-9]+]], %r[[BACK]], 4;
// CHECK: wgmma.wait_group.sync.aligned 2;
// CHECK-NEXT: @%p[[EARLY]] bra $L_no_release
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+196640];
// CHECK: $L_for_2_end:
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-COUNT-2: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+196640];
// CHECK: stmatrix

// -----

func.func @too_deep(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {mma_depth = 4} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 3]]:3: error: mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = 3, not 4{{$}}

// -----

func.func @deep_pipelined(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {mma_depth = 2, schedule = "pipelined"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 3]]:3: error: mma_depth is for the warp-specialised schedule (schedule = "warp_specialized")

// -----

// K known only at launch: the persistent wgmma kernel releases each tile's last stages
// unrolled, so its K loop's count must be static; by default such a GEMM is not persistent
// (it was, and crashed in the lowering)
func.func @k_at_launch(%A: memref<256x?xbf16>, %B: memref<?x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<256x?xbf16>, memref<?x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: // lower-tc kernel k_at_launch: {{.*}}"grid": [2, 1, 1]

// -----

func.func @persistent_k_at_launch(%A: memref<256x?xbf16>, %B: memref<?x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {persistent = true} : memref<256x?xbf16>, memref<?x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 3]]:3: error: a persistent wgmma GEMM (sm_90a) needs K known at compile time (its K loop's count is static); K here is known only at launch{{$}}

// -----

// The loop level: the same, at the K loop
func.func @loop_k_at_launch(%A: memref<128x?xbf16>, %B: memref<?x256xbf16>, %D: memref<128x256xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent>} {
  %a = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 4 : i64} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k_end = memref.dim %A, %c1 : memref<128x?xbf16>
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<128x?xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<?x256xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %next : !tc.acc<128x256xf32>
  }
  tc.window_store %result to %D[%c0, %c0] : !tc.acc<128x256xf32>, memref<128x256xbf16>
  func.return
}
// CHECK: persistent.mlir:[[# @LINE - 9]]:3: error: a persistent wgmma GEMM needs its K loop's count known at compile time (static bounds and step){{$}}
