// The warp-specialised tcgen05 GEMM (sm_100a, only when asked: schedule = "warp_specialized",
// persistent = true; docs/tcgen05.md): warp 0's thread 0 loads by TMA, warp 1's elected
// thread issues tcgen05.mma and commits onto the stages' "empty" barriers and the
// accumulator's "acc_full" barriers, warps 4..7 read tensor memory and arrive on
// "acc_empty". Persistent: two accumulator buffers in tensor memory. Assembled, never run.
// RUN: lower-tc %s --split-input-file -t ptx | filecheck %s
// RUN: lower-tc %s --split-input-file -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=EXPAND
// RUN: lower-tc %s --split-input-file -p 'tc-expand-matmul{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK

func.func @persistent(%A: memref<1000x1000xbf16, strided<[1008, 1]>>, %B: memref<1000x1000xbf16, strided<[1008, 1]>>, %D: memref<1000x1000xbf16, strided<[1008, 1]>>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {schedule = "warp_specialized", persistent = true} : memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16, strided<[1008, 1]>>
  func.return
}
// EXPAND: tc.target = "sm_100a", tc.grid = [64 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent>} {
// REMARK: remark: 128x128x64, 4 stages (tcgen05: TMA warp, MMA warp, epilogue warpgroup, raster 8) for 1000x1000x1000 (chosen)
// 8 x 8 tiles of 128x128, 256 threads, one CTA per SM (at most 64)
// CHECK-LABEL: // lower-tc kernel persistent:
// CHECK-SAME: "grid": [{"persistent": 64}, 1, 1]
// CHECK-SAME: "threads": 256
// CHECK: .reqntid 256, 1, 1
// Barriers after the 4-stage ring (131072 bytes): full[s] at +131072 + 8s and empty[s] at
// +131104 + 8s (one arrival: tcgen05.commit's arrive::one); acc_full[b] at +131136 + 8b
// (one commit), acc_empty[b] at +131152 + 8b (the 128 epilogue threads); the tensor-memory
// address at +131168.
// CHECK: mbarrier.init.shared::cta.b64 [%r[[SMEM:[0-9]+]]+131072], 1;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131104], 1;
// CHECK: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131128], 1;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131136], 1;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131152], 128;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131144], 1;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131160], 128;
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// Warp 4 allocates two 128-column buffers (256 columns) before the roles split
// CHECK: shr.u32 %r[[WARP:[0-9]+]], %r0, 5;
// CHECK-NEXT: setp.eq.u32 %p[[ALLOCW:[0-9]+]], %r[[WARP]], 4;
// CHECK-NEXT: @!%p[[ALLOCW]] bra $L_tmem_ready_{{[0-9]+}};
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r[[SMEM]]+131168], 256;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: ld.shared.b32 %r[[TMEM:[0-9]+]], [%r[[SMEM]]+131168];
// The roles: warps 4.. to the epilogue, warp 0 produces, warp 1 issues the MMAs
// CHECK: mov.u32 %r[[FIRST:[0-9]+]], %ctaid.x;
// CHECK-NEXT: mov.u32 %r[[CTAS:[0-9]+]], %nctaid.x;
// CHECK-NEXT: setp.ge.u32 %p[[EPI:[0-9]+]], %r[[WARP]], 4;
// CHECK-NEXT: @%p[[EPI]] bra $L_epilogue_[[E:[0-9]+]];
// CHECK-NEXT: setp.eq.u32 %p[[PROD:[0-9]+]], %r[[WARP]], 0;
// CHECK-NEXT: @!%p[[PROD]] bra $L_mma_warp_[[M:[0-9]+]];
// CHECK: @!%p0 bra $L_exit_[[X:[0-9]+]];
// Producer: a tile loop from ctaid.x to the 64 tiles around the K loop; load j waits for
// empty[s] with the round's parity flipped, then expect_tx on full[s]
// CHECK: mov.s32 %r{{[0-9]+}}, 64;
// CHECK-NEXT: mov.b32 %r[[PT:[0-9]+]], %r[[FIRST]];
// CHECK: $L_for_[[PTILE:[0-9]+]]_head:
// CHECK: $L_for_[[PK:[0-9]+]]_head:
// CHECK: xor.b32 %r[[PFLIP:[0-9]+]], %r{{[0-9]+}}, 1;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+131104], %r[[PFLIP]];
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+131072], 32768;
// CHECK-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: $L_for_[[PK]]_end:
// CHECK: add.s32 %r{{[0-9]+}}, %r[[PT]], %r[[CTAS]];
// CHECK: $L_for_[[PTILE]]_end:
// CHECK-NEXT: bra.uni $L_exit_[[X]];
// MMA warp: warps 2 and 3 leave; one elected thread of warp 1 runs the MMAs
// CHECK-NEXT: $L_mma_warp_[[M]]:
// CHECK-NEXT: setp.eq.u32 %p[[MW:[0-9]+]], %r[[WARP]], 1;
// CHECK-NEXT: @!%p[[MW]] bra $L_exit_[[X]];
// CHECK: elect.sync _|%p[[ELECTED:[0-9]+]], 0xffffffff;
// CHECK-NEXT: @!%p[[ELECTED]] bra $L_exit_[[X]];
// Its tile loop carries the ring's stage and phase and the accumulator's buffer b and phase q
// CHECK: mov.b32 %r[[MT:[0-9]+]], %r[[FIRST]];
// CHECK-NEXT: mov.b32 %r[[S:[0-9]+]], %r[[Z:[0-9]+]];
// CHECK-NEXT: mov.b32 %r[[P:[0-9]+]], %r[[Z]];
// CHECK-NEXT: mov.b32 %r[[B:[0-9]+]], %r[[Z]];
// CHECK-NEXT: mov.b32 %r[[Q:[0-9]+]], %r[[Z]];
// CHECK-NEXT: $L_for_[[MTILE:[0-9]+]]_head:
// Wait until the epilogue has emptied buffer b (parity q ^ 1: the first two tiles pass)
// CHECK: xor.b32 %r[[QFLIP:[0-9]+]], %r[[Q]], 1;
// CHECK-NEXT: shl.b32 %r[[B8:[0-9]+]], %r[[B]], 3;
// CHECK-NEXT: add.u32 %r[[AEMPTY:[0-9]+]], %r[[SMEM]], %r[[B8]];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r[[AEMPTY]]+131152], %r[[QFLIP]];
// CHECK: tcgen05.fence::after_thread_sync;
// Buffer b starts at column 128 b
// CHECK-NEXT: mul.lo.u32 %r[[COL:[0-9]+]], %r[[B]], 128;
// CHECK-NEXT: add.u32 %r[[DBUF:[0-9]+]], %r[[TMEM]], %r[[COL]];
// The K loop: wait full[s] with the round's parity, 4 K-slices into buffer b (the tile's
// first with enable-input-d off), commit onto empty[s]
// CHECK: $L_for_[[MK:[0-9]+]]_head:
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+131072], %r{{[0-9]+}};
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK: setp.ne.u32 %p[[ACC:[0-9]+]], %r{{[0-9]+}}, 0;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[DBUF]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, %p[[ACC]];
// CHECK-COUNT-3: tcgen05.mma.cta_group::1.kind::f16 [%r[[DBUF]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r{{[0-9]+}}+131104];
// CHECK: $L_for_[[MK]]_end:
// After the tile's last K step: commit onto acc_full[b]; then b + 1 wraps at 2, flipping q
// CHECK-NEXT: shl.b32 %r[[BF8:[0-9]+]], %r[[B]], 3;
// CHECK-NEXT: add.u32 %r[[AFULL:[0-9]+]], %r[[SMEM]], %r[[BF8]];
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r[[AFULL]]+131136];
// CHECK-NEXT: add.u32 %r[[BN:[0-9]+]], %r[[B]], 1;
// CHECK-NEXT: setp.eq.u32 %p[[WRAP:[0-9]+]], %r[[BN]], 2;
// CHECK-NEXT: xor.b32 %r[[QN:[0-9]+]], %r[[Q]], 1;
// CHECK: selp.b32 %r[[BNEXT:[0-9]+]], %r{{[0-9]+}}, %r[[BN]], %p[[WRAP]];
// CHECK-NEXT: selp.b32 %r[[QNEXT:[0-9]+]], %r[[QN]], %r[[Q]], %p[[WRAP]];
// CHECK: mov.b32 %r[[B]], %r[[BNEXT]];
// CHECK-NEXT: mov.b32 %r[[Q]], %r[[QNEXT]];
// CHECK: $L_for_[[MTILE]]_end:
// CHECK-NEXT: bra.uni $L_exit_[[X]];
// Epilogue warpgroup: warp 4 + i owns lanes 32i..; it waits acc_full[b] with parity q
// CHECK-NEXT: $L_epilogue_[[E]]:
// CHECK: and.b32 %r[[EW:[0-9]+]], %r[[WARP]], 3;
// CHECK: mov.b32 %r{{[0-9]+}}, %r[[FIRST]];
// CHECK-NEXT: mov.b32 %r[[EB:[0-9]+]], %r[[EZ:[0-9]+]];
// CHECK-NEXT: mov.b32 %r[[EQ:[0-9]+]], %r[[EZ]];
// CHECK-NEXT: $L_for_[[ETILE:[0-9]+]]_head:
// CHECK: shl.b32 %r[[EB8:[0-9]+]], %r[[EB]], 3;
// CHECK-NEXT: add.u32 %r[[EFULL:[0-9]+]], %r[[SMEM]], %r[[EB8]];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r[[EFULL]]+131136], %r[[EQ]];
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: mul.lo.u32 %r[[ECOL:[0-9]+]], %r[[EB]], 128;
// CHECK-NEXT: add.u32 %r[[EBUF:[0-9]+]], %r[[TMEM]], %r[[ECOL]];
// CHECK: shl.b32 %r[[LANES:[0-9]+]], %r[[EW]], 21;
// CHECK-NEXT: add.u32 %r[[TADDR:[0-9]+]], %r[[EBUF]], %r[[LANES]];
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{{.*}}}, [%r[[TADDR]]];
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{{.*}}}, [%r[[TADDR]]+96];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// Buffer b read: fence, then hand it back on acc_empty[b]
// CHECK: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: shl.b32 %r[[EE8:[0-9]+]], %r[[EB]], 3;
// CHECK-NEXT: add.u32 %r[[EEMPTY:[0-9]+]], %r[[SMEM]], %r[[EE8]];
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [%r[[EEMPTY]]+131152];
// CHECK: $L_for_[[ETILE]]_end:
// Free tensor memory: the epilogue warps meet at named barrier 1, warp 4 deallocates
// CHECK-NEXT: // free tensor memory once every epilogue warp has read it
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: mov.u32 %r[[BAR:[0-9]+]], 1;
// CHECK-NEXT: bar.sync %r[[BAR]], 128;
// CHECK-NEXT: @!%p[[ALLOCW]] bra $L_no_dealloc_{{[0-9]+}};
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r[[TMEM]], 256;
// CHECK: $L_exit_[[X]]:
// CHECK-NEXT: ret;

// -----

// Not persistent: the block's one tile, one accumulator buffer (128 columns), the 2-d grid
func.func @one_tile(%A: memref<1000x1000xbf16, strided<[1008, 1]>>, %B: memref<1000x1000xbf16, strided<[1008, 1]>>, %D: memref<1000x1000xf32>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {schedule = "warp_specialized", raster = 0} : memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xf32>
  func.return
}
// EXPAND: tc.target = "sm_100a", tc.grid = [8 : i64, 8 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
// REMARK: remark: 128x128x64, 4 stages (tcgen05: TMA warp, MMA warp, epilogue warpgroup, raster 0) for 1000x1000x1000 (chosen)
// CHECK-LABEL: // lower-tc kernel one_tile:
// CHECK-SAME: "grid": [8, 8, 1]
// CHECK-SAME: "threads": 256
// CHECK: mbarrier.init.shared::cta.b64 [%r[[SMEM:[0-9]+]]+131136], 1;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+131144], 128;
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r[[SMEM]]+131152], 128;
// CHECK-NOT: %nctaid.x
// CHECK: elect.sync
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+131144], %r{{[0-9]+}};
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[TMEM:[0-9]+]]]
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r{{[0-9]+}}+131136];
// CHECK: $L_epilogue_{{[0-9]+}}:
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+131136], %r{{[0-9]+}};
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r[[TMEM]], 128;

// -----

// The loop level: tc.schedule = #tc.gemm_schedule<warp_specialized, persistent> on the kernel picks the same lowering
func.func @loop_level(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a", tc.grid = [4 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent>} {
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %c2 = arith.constant 2 : index
  %bm = arith.constant 128 : index
  %tile_row = arith.divui %bx, %c2 : index
  %tile_col = arith.remui %bx, %c2 : index
  %m0 = arith.muli %tile_row, %bm : index
  %n0 = arith.muli %tile_col, %bm : index
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
// CHECK-LABEL: // lower-tc kernel loop_level:
// CHECK-SAME: "grid": [{"persistent": 4}, 1, 1]
// CHECK-SAME: "threads": 256
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r{{[0-9]+}}+{{[0-9]+}}], 256;
// CHECK: %nctaid.x
// CHECK: elect.sync
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r{{[0-9]+}}, 256;
