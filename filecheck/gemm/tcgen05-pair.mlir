// The CTA-pair tcgen05 GEMM (sm_100a, `cluster = 2` with the warp-specialised schedule;
// passes/to_ptx/gemm/tcgen05_specialized.py with the pair as a flag, docs/tcgen05.md): clusters of two CTAs run one
// M = 256 tcgen05.mma.cta_group::2 over both. Each CTA loads its 128 rows of A and half of
// B's columns (here 64 of BN = 128) with the pair's TMA loads, which complete the leader's
// "full" barrier (a mapa address); the leader alone expects both CTAs' bytes and issues
// the MMAs; its commits multicast to both CTAs' "empty" and "acc_full" barriers; both
// epilogues arrive on the leader's "acc_empty" (2 x 128); every tcgen05 instruction is the
// cta_group::2 form; tensor memory is freed after the exit's cluster barrier.
// Assembled and SASS-checked (tests/test_gemm_pair.py), never run: no Blackwell GPU is lent.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @pair(%A: memref<2048x2048xbf16>, %B: memref<2048x2048xbf16>, %D: memref<2048x2048xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {schedule = "warp_specialized", cluster = 2, persistent = true} : memref<2048x2048xbf16>, memref<2048x2048xbf16>, memref<2048x2048xbf16>
  func.return
}
// CHECK:      // lower-tc kernel pair: {{.*}}"cluster": [2, 1, 1]
// CHECK-SAME: "config": {"bk": 64, "bm": 128, "bn": 128, "stages": 4}
// CHECK-SAME: "grid": [{"persistent": 256}, 1, 1]
// CHECK:      .reqntid 256, 1, 1
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK:      mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-NEXT: setp.eq.u32 [[LEADER:%p[0-9]+]], [[RANK]], 0;
// the stages' full and empty barriers take one arrival each; acc_empty[b] 2 x 128
// CHECK:      mbarrier.init.shared::cta.b64 [%r1+98336], 1;
// CHECK:      mbarrier.init.shared::cta.b64 [%r1+98384], 256;
// CHECK:      mbarrier.init.shared::cta.b64 [%r1+98392], 256;
// CHECK:      fence.mbarrier_init.release.cluster;
// CHECK:      barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK:      tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r1+98400], 256;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// the instruction descriptor: M = 256 (16 << 24), N = 128 (16 << 17), B MN-major (bit 16),
// bf16 A and B (1 << 7, 1 << 10), f32 D (1 << 4): 0x10210490
// CHECK:      and.b32 {{%r[0-9]+}}, %r1, 262143;
// CHECK:      mov.u32 %r25, 270599312;
// CHECK:      // both CTAs' tensor memory is allocated before the leader's MMAs write it
// CHECK-NEXT: barrier.cluster.arrive.release;
// producer (both CTAs): the leader alone expects both CTAs' 2 x 24576 bytes
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [{{%r[0-9]+}}+98336],
// CHECK:      @![[LEADER]] bra $L_no_expect
// CHECK:      mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{%r[0-9]+}}+98304], 49152;
// CHECK:      add.u32 [[FULL:%r[0-9]+]], {{%r[0-9]+}}, 98304;
// CHECK-NEXT: mapa.shared::cluster.u32 [[FULL_LEADER:%r[0-9]+]], [[FULL]], {{%r[0-9]+}};
// CHECK:      cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{.*}}}], [[[FULL_LEADER]]];
// CHECK:      cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}+65536], [{{%rd[0-9]+}}, {{{.*}}}], [[[FULL_LEADER]]];
// after its last load the producer waits for the ring's last releases
// CHECK:      $L_for_1_end:
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [{{%r[0-9]+}}+98336],
// MMA thread: the leader's elected thread only
// CHECK:      elect.sync _|[[ELECTED:%p[0-9]+]], 0xffffffff;
// CHECK-NEXT: @![[ELECTED]] bra $L_exit_3;
// CHECK:      @![[LEADER]] bra $L_exit_3;
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [{{%r[0-9]+}}+98384],
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [{{%r[0-9]+}}+98304],
// CHECK-COUNT-4: tcgen05.mma.cta_group::2.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, %r25,
// CHECK:      tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}+98336], %h0;
// CHECK:      tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}+98368], %h0;
// epilogue (both CTAs): own acc_full, own tensor memory, the leader's acc_empty
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, [{{%r[0-9]+}}+98368],
// CHECK:      tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK:      add.u32 [[EMPTY:%r[0-9]+]], {{%r[0-9]+}}, 98384;
// CHECK-NEXT: mapa.shared::cluster.u32 [[EMPTY_LEADER:%r[0-9]+]], [[EMPTY]], {{%r[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.shared::cluster.b64 _, [[[EMPTY_LEADER]]];
// CHECK:      $L_exit_3:
// CHECK:      barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK:      tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, 256;
// CHECK-NOT:  cta_group::1

// -----

// the pair needs the warp-specialised schedule
func.func @pair_pipelined(%A: memref<2048x2048xbf16>, %B: memref<2048x2048xbf16>, %D: memref<2048x2048xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {cluster = 2} : memref<2048x2048xbf16>, memref<2048x2048xbf16>, memref<2048x2048xbf16>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 3]]:3: error: a cluster of 2 pairs CTAs in the same columns of D: it needs the warp-specialised schedule, an even raster group, sizes known at compile time and an even number of tile rows{{$}}

// -----

// the pair's M = 256 MMA needs N a multiple of 16 (kind::f16): BN = 24 is refused
func.func @pair_n(%A: memref<2048x2048xbf16>, %B: memref<2048x2048xbf16>, %D: memref<2048x2048xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 24, bk = 64, stages = 2> {schedule = "warp_specialized", cluster = 2} : memref<2048x2048xbf16>, memref<2048x2048xbf16>, memref<2048x2048xbf16>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 3]]:3: error: {{.*}}cta_group::2 kind::f16 with M = 256 needs N a multiple of 16 from 16 to 256, not 24{{$}}

// -----

// the pair's MMA needs cluster = 2 and the warp-specialised schedule
func.func @loop_pair_no_cluster(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %two = arith.constant 2 : index
  %bm = arith.constant 128 : index
  %half = arith.constant 64 : index
  %row = arith.remui %bx, %two : index
  %col = arith.divui %bx, %two : index
  %m0 = arith.muli %row, %bm : index
  %n0 = arith.muli %col, %bm : index
  %off = arith.muli %row, %half : index
  %n0_half = arith.addi %n0, %off : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0_half] to %b as b : memref<128x256xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc cta_pair : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 6]]:5: error: a CTA pair's tcgen05.mma (cta_pair) runs in the warp-specialised GEMM with cluster = 2 (#tc.gemm_schedule){{$}}

// -----

// cluster on sm_100a is 1 or 2 (a CTA pair), refused where the attribute is parsed
func.func @loop_pair_cluster3(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 3>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %two = arith.constant 2 : index
  %bm = arith.constant 128 : index
  %half = arith.constant 64 : index
  %row = arith.remui %bx, %two : index
  %col = arith.divui %bx, %two : index
  %m0 = arith.muli %row, %bm : index
  %n0 = arith.muli %col, %bm : index
  %off = arith.muli %row, %half : index
  %n0_half = arith.addi %n0, %off : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0_half] to %b as b : memref<128x256xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc cta_pair : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 26]]:242: error: cluster is 1 or 2 (CTAs sharing B's loads), not 3{{$}}

// -----

// cluster = 2 needs the warp-specialised schedule, refused where the attribute is parsed
func.func @loop_pair_pipelined(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<pipelined, cluster = 2>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %two = arith.constant 2 : index
  %bm = arith.constant 128 : index
  %half = arith.constant 64 : index
  %row = arith.remui %bx, %two : index
  %col = arith.divui %bx, %two : index
  %m0 = arith.muli %row, %bm : index
  %n0 = arith.muli %col, %bm : index
  %off = arith.muli %row, %half : index
  %n0_half = arith.addi %n0, %off : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 128 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<256x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0_half] to %b as b : memref<128x256xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.tcgen05_mma %a, %b, %acc cta_pair : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 26]]:226: error: cluster is for the warp-specialised schedule (#tc.gemm_schedule<warp_specialized, cluster = 2>){{$}}
