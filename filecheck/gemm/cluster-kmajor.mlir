// A cluster of 2 sharing a K-major B (`cluster = 2` with nn.Linear's weight, B column-major):
// the tile's one TMA box a stage (64 K x 256 rows of N) is cut in two along its rows
// (layout/tma.py `tma_plan(..., parts=2)`), boxes of 64 x 128; CTA rank r loads box r (rows
// n0 + 128 r, 16 KiB into the stage) and multicasts it to both CTAs (mask 0b11); each CTA
// expects the whole stage (16 KiB of A, 32 KiB of B).
// RUN: lower-tc %s | filecheck %s

func.func @linear(%A: memref<512x512xbf16>, %B: memref<512x512xbf16, strided<[1, 512]>>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {cluster = 2, persistent = true} : memref<512x512xbf16>, memref<512x512xbf16, strided<[1, 512]>>, memref<512x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel linear: {{.*}}"cluster": [2, 1, 1]
// CHECK-SAME: {"arg": 1, "box": [64, 128], "dtype": "bf16"
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: // b window by TMA: 2 box(es) of 64x128, 4 stages
// this CTA's box: rank x 16384 bytes into the stage, rank x 128 rows of N
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+{{[0-9]+}}], 49152;
// A's box, this CTA's own; then B's:
// CHECK-NEXT: mul.lo.s32
// CHECK-NEXT: mul.lo.u32
// CHECK-NEXT: add.u32
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// CHECK-NEXT: mul.lo.u32
// CHECK-NEXT: add.u32
// CHECK-NEXT: mul.lo.u32 %r{{[0-9]+}}, %r[[RANK:[0-9]+]], 16384;
// CHECK-NEXT: add.u32
// CHECK-NEXT: mul.lo.s32 %r{{[0-9]+}}, %r[[RANK]], 0;
// CHECK-NEXT: mul.lo.s32 %r{{[0-9]+}}, %r[[RANK]], 128;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// CHECK-NOT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// CHECK: wgmma.mma_async
