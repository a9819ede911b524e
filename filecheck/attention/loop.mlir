// The attention loop's schedule, pinned: a producer warpgroup (the last: setmaxnreg.dec,
// its first thread loads Q, then K and V block by block into the 2-stage ring), two
// consumer warpgroups (setmaxnreg.inc) that wait for Q, run block 0's S = Q K^T (scale-d 0
// on the first K-slice: S starts afresh) and softmax, then per block j: wait full[s],
// issue S_j and O += P_{j-1} V_{j-1} (P's registers as A, V's descriptor with trans-b 1:
// V is MN-major), wait_group 1 (S_j done, P V still running), the mask's branch that skips
// every comparison where the block is seen whole, wait_group 0, release the block before's
// stage, O carried, P_j packed to bf16 pairs; after the loop the last block's P V.
// docs/attention.md, "The loop level".
// RUN: lower-tc %s | filecheck %s

func.func @attention_loop(%Q: memref<128x64xbf16>, %K: memref<250x64xbf16>, %V: memref<250x64xbf16>, %O: memref<128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 2} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %kt = tc.transpose %K : memref<250x64xbf16> to memref<64x250xbf16, strided<[1, 64]>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tc.window_load %Q[%c0, %c0] to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%c0, %j] to %k as b : memref<64x250xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%j, %c0] to %v as b : memref<250x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s at (%c0, %j) {keys = 250} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%c0, %c0] : !tc.acc<128x64xf32>, memref<128x64xbf16>
  func.return
}

// CHECK:      "attention": {"block_m": 128, "block_n": 64, "k": 1, "keys": 250, "o": 3, "q": 0, "scale": 0.125, "v": 2}
// CHECK-SAME: "threads": 384
// CHECK:      .maxnreg 168
// CHECK:      // producer warpgroup: TMA only
// CHECK-NEXT: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK:      mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+[[QBAR:[0-9]+]]], 16384;
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+[[QBAR]]];
// CHECK:      mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+[[FULL:[0-9]+]]], 16384;
// CHECK:      $L_for_0_head:
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+[[EMPTY:[0-9]+]]], %r{{[0-9]+}};
// CHECK:      // consumer warpgroups: the MMAs and the softmax
// CHECK-NEXT: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r1+[[QBAR]]], %r{{[0-9]+}};
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+[[FULL]]], %r{{[0-9]+}};
// CHECK:      // S = Q K^T: wgmma m64n64k16, 4 K-slices
// CHECK:      wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f{{.*}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 0,
// CHECK:      wgmma.wait_group.sync.aligned 0;
// CHECK:      // the block is seen whole: keys < 250
// CHECK:      // O carried to the new maximum
// CHECK:      cvt.rn.bf16x2.f32
// CHECK:      $L_for_1_head:
// CHECK:      mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+[[FULL]]], %r{{[0-9]+}};
// CHECK:      // S = Q K^T: wgmma m64n64k16, 4 K-slices
// CHECK:      wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f{{.*}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 0,
// CHECK:      wgmma.commit_group.sync.aligned;
// CHECK-NOT:  wgmma.wait_group
// CHECK:      // O += P V: wgmma m64n64k16, 4 K-slices, P from registers
// CHECK:      wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f{{.*}}},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1;
// CHECK:      wgmma.commit_group.sync.aligned;
// CHECK-NEXT: // S is complete; the block before's P V may still run
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK:      // the block is seen whole: keys < 250
// CHECK-NEXT: setp.le.s32 %p[[WHOLE:[0-9]+]], %r{{[0-9]+}}, 250;
// CHECK-NEXT: @%p[[WHOLE]] bra $L_mask_done_{{[0-9]+}};
// CHECK:      // the block before's P V is done: its stage may go
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK:      mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+[[EMPTY]]];
// CHECK:      // O carried to the new maximum
// CHECK:      cvt.rn.bf16x2.f32
// CHECK:      $L_for_1_end:
// CHECK:      // O += P V: wgmma m64n64k16, 4 K-slices, P from registers
// CHECK:      wgmma.wait_group.sync.aligned 0;
// CHECK:      mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+[[EMPTY]]];
