// tc.acc_to_a to an 8-bit fragment (layout/fragments.py `quad_exchange`): 8-bit A holds
// four adjacent columns where the accumulator holds two, so each thread rounds two pairs
// of its accumulator into a word (cvt.rn.satfinite.e4m3x2.f32 d, hi, lo: the pair's first
// column in the low byte; n8 block 4s + 2j low, 4s + 2j + 1 high), reads that word from
// quad lanes 2 (q % 2) and 2 (q % 2) + 1 and keeps half q // 2 of each (prmt 0x5410 or
// 0x7632). The P V wgmma reads the four words per K-slice (k32) in place of A's descriptor.
// RUN: lower-tc %examples/attention_p_in_registers_e4m3.mlir -t ptx | filecheck %s

// CHECK-LABEL: .visible .entry p_in_registers_e4m3(
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// the lanes and the selector, once
// CHECK: and.b32 %r[[LANE:[0-9]+]], %r{{[0-9]+}}, 31;
// CHECK-NEXT: and.b32 %r[[Q:[0-9]+]], %r[[LANE]], 3;
// CHECK-NEXT: sub.s32 %r[[BASE:[0-9]+]], %r[[LANE]], %r[[Q]];
// CHECK-NEXT: and.b32 %r[[ODD:[0-9]+]], %r[[Q]], 1;
// CHECK-NEXT: shl.b32 %r[[TWO:[0-9]+]], %r[[ODD]], 1;
// CHECK-NEXT: // quad lanes 2 (q % 2), 2 (q % 2) + 1
// CHECK-NEXT: add.s32 %r[[FIRST:[0-9]+]], %r[[BASE]], %r[[TWO]];
// CHECK-NEXT: add.s32 %r[[SECOND:[0-9]+]], %r[[FIRST]], 1;
// CHECK-NEXT: setp.ge.u32 %p[[UPPER:[0-9]+]], %r[[Q]], 2;
// CHECK-NEXT: mov.b32 %r[[LOW:[0-9]+]], 0x5410;
// CHECK-NEXT: mov.b32 %r[[HIGH:[0-9]+]], 0x7632;
// CHECK-NEXT: // half q // 2 of each word
// CHECK-NEXT: selp.b32 %r[[SEL:[0-9]+]], %r[[HIGH]], %r[[LOW]], %p[[UPPER]];
// K-slice 0, register 0: blocks 0 and 1 of row half 0 (accumulator registers 0, 1 and 4, 5)
// CHECK: cvt.rn.satfinite.e4m3x2.f32 %h[[A:[0-9]+]], %f1, %f0;
// CHECK-NEXT: cvt.rn.satfinite.e4m3x2.f32 %h[[B:[0-9]+]], %f5, %f4;
// CHECK-NEXT: mov.b32 %r[[W:[0-9]+]], {%h[[A]], %h[[B]]};
// CHECK-NEXT: shfl.sync.idx.b32 %r[[X:[0-9]+]], %r[[W]], %r[[FIRST]], 31, -1;
// CHECK-NEXT: shfl.sync.idx.b32 %r[[Y:[0-9]+]], %r[[W]], %r[[SECOND]], 31, -1;
// CHECK-NEXT: prmt.b32 %r[[R0:[0-9]+]], %r[[X]], %r[[Y]], %r[[SEL]];
// register 1: row half 1 (registers 2, 3 and 6, 7)
// CHECK: cvt.rn.satfinite.e4m3x2.f32 %h{{[0-9]+}}, %f3, %f2;
// CHECK-NEXT: cvt.rn.satfinite.e4m3x2.f32 %h{{[0-9]+}}, %f7, %f6;
// register 2: blocks 2 and 3 (registers 8, 9 and 12, 13)
// CHECK: cvt.rn.satfinite.e4m3x2.f32 %h{{[0-9]+}}, %f9, %f8;
// CHECK-NEXT: cvt.rn.satfinite.e4m3x2.f32 %h{{[0-9]+}}, %f13, %f12;
// K-slice 1 starts at block 4 (registers 16, 17 and 20, 21)
// CHECK: cvt.rn.satfinite.e4m3x2.f32 %h{{[0-9]+}}, %f17, %f16;
// CHECK-NEXT: cvt.rn.satfinite.e4m3x2.f32 %h{{[0-9]+}}, %f21, %f20;
// the P V wgmma: A from the fragment's registers, k32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f{{[0-9]+}},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
