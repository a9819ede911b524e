// The warp-specialised kernel (the default on sm_90a, here without the persistent loop
// that is also the default: filecheck/gemm/persistent.mlir; 128x256 tiles, 4 stages):
// warpgroup 0 produces, 1 and 2 consume. A register cap at entry
// (65536 / 384 threads -> 168) lets setmaxnreg move registers from the producer (down to
// 40) to the consumers (up to 168 + 128 x 128 / 256 = 232).
// RUN: lower-tc %s | filecheck %s

func.func @gemm_bf16(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {persistent = false} : memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xbf16>
  func.return
}

// CHECK: // lower-tc kernel gemm_bf16: {{.*}}"grid": [512, 1, 1]{{.*}}"threads": 384
// CHECK: .reqntid 384, 1, 1
// CHECK-NEXT: .maxnreg 168
// The producer warpgroup: only its thread 0 stays, in a loop of its own
// CHECK: @!%p{{[0-9]+}} bra $L_consumer_[[C:[0-9]+]];
// CHECK-NEXT: // producer warpgroup: TMA only
// CHECK-NEXT: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK-NEXT: @!%p0 bra $L_exit_[[X:[0-9]+]];
// CHECK: $L_for_0_head:
// It waits for "empty[s]" with the round's parity flipped: the first round passes at once
// CHECK: xor.b32 %r[[FLIP:[0-9]+]], %r{{[0-9]+}}, 1;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+196640], %r[[FLIP]];
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+196608], 49152;
// CHECK-COUNT-5: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-NOT: wgmma
// CHECK: $L_for_0_end:
// CHECK-NEXT: bra.uni $L_exit_[[X]];
// The consumers: registers up, then their own loop of MMAs; no loads in it
// CHECK-NEXT: $L_consumer_[[C]]:
// CHECK-NEXT: // consumer warpgroups: the MMAs and the epilogue
// CHECK-NEXT: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: $L_for_1_head:
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+196608], %r{{[0-9]+}};
// CHECK-NOT: cp.async.bulk.tensor
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+196640];
// CHECK: $L_for_1_end:
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: cvt.rn.bf16x2.f32
// CHECK: $L_exit_[[X]]:
// CHECK-NEXT: ret;
