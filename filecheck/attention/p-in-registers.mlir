// tc.acc_to_a: the accumulator S's f32 registers, rounded to bf16 pairs, become the A
// operand of the next wgmma in registers. K-slice s of A is the thread's accumulator
// registers 8s .. 8s + 7, packed low element first (cvt.rn.bf16x2.f32 d, hi, lo), and the
// P V wgmma reads those four registers per K-slice in place of an A descriptor; V, an
// MN-major B tile, is transposed by the instruction (its last immediate 1).
// RUN: lower-tc %examples/attention_p_in_registers.mlir -t ptx | filecheck %s

// CHECK-LABEL: .visible .entry p_in_registers(
// S = Q K^T into %f0..%f31
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f0, {{.*}}, %f31},
// CHECK: wgmma.wait_group.sync.aligned 0;
// K-slice 0 of P: registers 0..7, pairs low first
// CHECK-NEXT: // from {{.*}}attention_p_in_registers.mlir:{{[0-9]+}}:3
// CHECK-NEXT: cvt.rn.bf16x2.f32 %r[[P0:[0-9]+]], %f1, %f0;
// CHECK-NEXT: mov.b32 %r[[A0:[0-9]+]], %r[[P0]];
// CHECK-NEXT: cvt.rn.bf16x2.f32 %r[[P1:[0-9]+]], %f3, %f2;
// CHECK-NEXT: mov.b32 %r[[A1:[0-9]+]], %r[[P1]];
// CHECK-NEXT: cvt.rn.bf16x2.f32 %r[[P2:[0-9]+]], %f5, %f4;
// CHECK-NEXT: mov.b32 %r[[A2:[0-9]+]], %r[[P2]];
// CHECK-NEXT: cvt.rn.bf16x2.f32 %r[[P3:[0-9]+]], %f7, %f6;
// CHECK-NEXT: mov.b32 %r[[A3:[0-9]+]], %r[[P3]];
// K-slice 1: registers 8..15
// CHECK-NEXT: cvt.rn.bf16x2.f32 %r[[P4:[0-9]+]], %f9, %f8;
// CHECK-NEXT: mov.b32 %r[[B0:[0-9]+]], %r[[P4]];
// the last K-slice: registers 24..31
// CHECK: cvt.rn.bf16x2.f32 %r{{[0-9]+}}, %f31, %f30;
// O = P V: the first K-slice reads P's registers of K-slice 0, then K-slice 1's
// CHECK: wgmma.fence.sync.aligned;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f32, {{.*}}, %f63},
// CHECK-NEXT: {%r[[A0]], %r[[A1]], %r[[A2]], %r[[A3]]},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f32, {{.*}}, %f63},
// CHECK-NEXT: {%r[[B0]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
