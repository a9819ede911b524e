// tc.acc_softmax on the accumulator S (%f0..%f31 of m64n64): row 16w + g is the thread's
// registers 0, 1, 4, 5, 8, 9, ... (row 16w + g + 8 the others); its max over them, then
// across the quad (shfl.sync.bfly 1 and 2), exp2(s c - max c) with c = log2(e) / 8
// (0f3E38AA3B), the sum over the quad the same way, and one reciprocal per row.
// RUN: lower-tc %examples/attention_tile.mlir -t ptx | filecheck %s

// CHECK-LABEL: .visible .entry attention_tile(
// CHECK: mov.f32 %f[[C:[0-9]+]], 0f3E38AA3B;
// CHECK-NEXT: max.f32 %f[[M0:[0-9]+]], %f0, %f1;
// CHECK-NEXT: max.f32 %f{{[0-9]+}}, %f[[M0]], %f4;
// CHECK-NEXT: max.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, %f5;
// CHECK: max.f32 %f[[ROW:[0-9]+]], %f{{[0-9]+}}, %f29;
// CHECK-NEXT: shfl.sync.bfly.b32 %f[[X1:[0-9]+]], %f[[ROW]], 1, 31, -1;
// CHECK-NEXT: max.f32 %f[[Q1:[0-9]+]], %f[[ROW]], %f[[X1]];
// CHECK-NEXT: shfl.sync.bfly.b32 %f[[X2:[0-9]+]], %f[[Q1]], 2, 31, -1;
// CHECK-NEXT: max.f32 %f[[MAX:[0-9]+]], %f[[Q1]], %f[[X2]];
// CHECK-NEXT: mul.f32 %f[[MAXC:[0-9]+]], %f[[MAX]], %f[[C]];
// CHECK-NEXT: mul.f32 %f[[S0:[0-9]+]], %f0, %f[[C]];
// CHECK-NEXT: sub.f32 %f[[T0:[0-9]+]], %f[[S0]], %f[[MAXC]];
// CHECK-NEXT: ex2.approx.f32 %f[[E0:[0-9]+]], %f[[T0]];
// CHECK: add.f32 %f{{[0-9]+}}, %f[[E0]], %f{{[0-9]+}};
// CHECK: shfl.sync.bfly.b32 %f{{[0-9]+}}, %f{{[0-9]+}}, 1, 31, -1;
// CHECK-NEXT: add.f32
// CHECK-NEXT: shfl.sync.bfly.b32 %f{{[0-9]+}}, %f{{[0-9]+}}, 2, 31, -1;
// CHECK-NEXT: add.f32 %f[[SUM:[0-9]+]],
// CHECK-NEXT: rcp.approx.ftz.f32 %f[[INV:[0-9]+]], %f[[SUM]];
// CHECK-NEXT: mul.f32 %f{{[0-9]+}}, %f[[E0]], %f[[INV]];
// the second row (registers 2, 3, 6, 7, ...)
// CHECK: max.f32 %f{{[0-9]+}}, %f2, %f3;
// then P, rounded to bf16 pairs, feeds the P V wgmma from registers
// CHECK: cvt.rn.bf16x2.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f{{[0-9]+}}, {{.*}}},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
