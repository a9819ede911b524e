// Ping-pong (tc.pingpong; docs/attention.md, "Ping-pong"): the consumer warpgroups of the
// warp-specialised attention loop take turns at the tensor cores. Warpgroup w's turn is
// named barrier 1 + w, met by its 128 threads (bar.sync) and the 128 of the warpgroup
// before it (bar.arrive after issuing its MMAs): 256. Before the loop the last warpgroup
// hands warpgroup 0 the first turn (where the causal CTA runs more than one block); in
// the loop each warpgroup waits for its turn, issues S_j = Q K_j^T and O += P_{j-1} V_{j-1},
// and hands the turn on, except the last warpgroup in the last block, so that every
// arrival is waited for; then wait_group 1 and the softmax as without turns.
// RUN: lower-tc %s | filecheck %s

func.func @attn_h2_q1000_k1000_d64_128x64x3_bf16_causal_pingpong(%Q: memref<2x1000x64xbf16>, %K: memref<2x1000x64xbf16>, %V: memref<2x1000x64xbf16>, %O: memref<2x1000x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [8, 2, 1], tc.pingpong} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile {stages = 3} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile {stages = 3} : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %kt = tc.transpose %K : memref<2x1000x64xbf16> to memref<2x64x1000xbf16, strided<[64000, 1, 64]>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %hh = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c0 = arith.constant 0 : index
  %cbn = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %clast = arith.constant 7 : index
  %qb = arith.subi %clast, %bx : index
  %q0 = arith.muli %qb, %cbm : index
  %cend = arith.constant 191 : index
  %cbn2 = arith.constant 64 : index
  %e0 = arith.addi %q0, %cend : index
  %e1 = arith.divui %e0, %cbn2 : index
  %e2 = arith.muli %e1, %cbn2 : index
  %ckeys = arith.constant 1024 : index
  %ub = arith.minui %e2, %ckeys : index
  tc.window_load %Q[%hh, %q0, %c0] to %q as a : memref<2x1000x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %r:3 = scf.for %j = %c0 to %ub step %cbn iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>) {
    tc.window_load %kt[%hh, %c0, %j] to %k as b : memref<2x64x1000xbf16, strided<[64000, 1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %V[%hh, %j, %c0] to %v as b : memref<2x1000x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %z = tc.acc_zero : !tc.acc<128x64xf32>
    %s0 = tc.wgmma %q, %k, %z : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
    %sm = tc.acc_mask %s0 at (%q0, %j) {keys = 1000, causal = 0} : !tc.acc<128x64xf32>
    %m1 = tc.acc_row_max %sm, %m scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %p = tc.acc_exp %sm, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %l1 = tc.acc_row_sum %p, %l, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %c = tc.acc_rescale %o, %m, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
    %a = tc.acc_to_a %p : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
    %o1 = tc.wgmma %a, %v, %c : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x64xf32>
    scf.yield %o1, %m1, %l1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>, !tc.rows<128xf32>
  }
  %out = tc.acc_row_div %r#0, %r#2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.window_store %out to %O[%hh, %q0, %c0] : !tc.acc<128x64xf32>, memref<2x1000x64xbf16>
  func.return
}

// CHECK: // ping-pong: this warpgroup's turn
// CHECK-NEXT: add.u32 [[MINE:%r[0-9]+]], [[WG:%r[0-9]+]], 1;
// CHECK-NEXT: add.u32 [[AFTER:%r[0-9]+]], [[WG]], 1;
// CHECK-NEXT: rem.u32 [[NEXT0:%r[0-9]+]], [[AFTER]], 2;
// CHECK-NEXT: add.u32 [[NEXT:%r[0-9]+]], [[NEXT0]], 1;
// CHECK-NEXT: setp.eq.u32 [[LASTWG:%p[0-9]+]], [[WG]], 1;
// CHECK-NEXT: setp.gt.s32 [[MORE:%p[0-9]+]], [[TRIPS:%r[0-9]+]], 1;
// CHECK-NEXT: and.pred [[FIRST:%p[0-9]+]], [[LASTWG]], [[MORE]];
// CHECK-NEXT: @![[FIRST]] bra $L_first_turn_{{[0-9]+}};
// CHECK-NEXT: mov.u32 [[ONE:%r[0-9]+]], 1;
// CHECK-NEXT: // ping-pong: warpgroup 0 issues first
// CHECK-NEXT: bar.arrive [[ONE]], 256;
// CHECK: // ping-pong: this warpgroup's turn at the tensor cores
// CHECK-NEXT: bar.sync [[MINE]], 256;
// CHECK-NOT: wgmma.wait_group
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NOT: wgmma.wait_group
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: add.s32 [[I1:%r[0-9]+]], {{%r[0-9]+}}, 1;
// CHECK-NEXT: setp.ge.s32 [[LASTBLOCK:%p[0-9]+]], [[I1]], [[TRIPS]];
// CHECK-NEXT: and.pred [[SKIP:%p[0-9]+]], [[LASTWG]], [[LASTBLOCK]];
// CHECK-NEXT: @[[SKIP]] bra $L_handed_on_{{[0-9]+}};
// CHECK-NEXT: // ping-pong: the next warpgroup's turn
// CHECK-NEXT: bar.arrive [[NEXT]], 256;
// CHECK-NEXT: $L_handed_on_{{[0-9]+}}:
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: bar.arrive
// CHECK-NOT: bar.sync
// CHECK: ret;
