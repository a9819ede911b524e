// tc.acc_mask in examples/attention_causal.mlir (250 keys in four blocks of 64, causal with
// offset 186): per thread d = 2q - (16w + g) once, then per register i of row half h and
// column 8(i / 4) + i % 2 a comparison with first query + 8h + causal - first key - column
// (d runs over -63 to 6) and, near the keys' count, 2q >= keys - first key - column (2q runs
// over 0 to 6), each with a selp of -inf. A block every query sees whole (the first) emits
// no comparison: its elements are copied as they are.
// RUN: lower-tc %examples/attention_causal.mlir -t ptx | filecheck %s

// CHECK-LABEL: .visible .entry attention_causal(
// CHECK: // mask: queries from 0, keys from 0, keys < 250, key <= query + 186
// CHECK-NEXT: shl.b32
// CHECK-NEXT: sub.s32
// CHECK-NEXT: mov.f32 %f{{[0-9]+}}, 0fFF800000;
// CHECK-NOT: setp
// CHECK: // the running maximum of each row
// the last block: keys 192 to 255
// CHECK: // mask: queries from 0, keys from 192, keys < 250, key <= query + 186
// CHECK-NEXT: shl.b32 %r[[Q2:[0-9]+]], %r{{[0-9]+}}, 1;
// CHECK-NEXT: sub.s32 %r[[D:[0-9]+]], %r[[Q2]], %r{{[0-9]+}};
// CHECK-NEXT: mov.f32 %f[[HIDDEN:[0-9]+]], 0fFF800000;
// register 0: row 16w + g, column 2q: hidden where 192 + 2q > 16w + g + 186, d > -6
// CHECK-NEXT: setp.gt.s32 %p[[P0:[0-9]+]], %r[[D]], -6;
// CHECK-NEXT: selp.f32 %f{{[0-9]+}}, %f[[HIDDEN]], %f{{[0-9]+}}, %p[[P0]];
// register 1: column 2q + 1
// CHECK-NEXT: setp.gt.s32 %p[[P1:[0-9]+]], %r[[D]], -7;
// CHECK-NEXT: selp.f32
// register 2: row 16w + g + 8
// CHECK-NEXT: setp.gt.s32 %p{{[0-9]+}}, %r[[D]], 2;
// registers 28 to 31, columns 56 + 2q (+ 1): past key 250 where 2q >= 2 (>= 1)
// CHECK: setp.gt.s32 %p{{[0-9]+}}, %r[[D]], -62;
// CHECK-NEXT: selp.f32 %f[[C28:[0-9]+]], %f[[HIDDEN]], %f{{[0-9]+}}, %p{{[0-9]+}};
// CHECK-NEXT: setp.ge.s32 %p[[K28:[0-9]+]], %r[[Q2]], 2;
// CHECK-NEXT: selp.f32 %f{{[0-9]+}}, %f[[HIDDEN]], %f[[C28]], %p[[K28]];
// CHECK-NEXT: setp.gt.s32 %p{{[0-9]+}}, %r[[D]], -63;
// CHECK-NEXT: selp.f32 %f[[C29:[0-9]+]], %f[[HIDDEN]], %f{{[0-9]+}}, %p{{[0-9]+}};
// CHECK-NEXT: setp.ge.s32 %p[[K29:[0-9]+]], %r[[Q2]], 1;
// CHECK-NEXT: selp.f32 %f{{[0-9]+}}, %f[[HIDDEN]], %f[[C29]], %p[[K29]];
