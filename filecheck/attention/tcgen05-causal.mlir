// The causal mask on tcgen05 (sm_100a; examples/attention_causal_tcgen05.mlir, 128 queries
// over 250 keys in four blocks of 64, key j seen by query i where j <= i + 122), the PTX
// pinned: block 0 is seen whole by every row, so its mask emits nothing (no load, no store);
// in block 1 only keys 123 to 127 (columns 59 to 63) hide rows 0 to 4, one comparison of
// the thread's row with 1 to 5 each; in block 3 the keys past 249 (columns 58 to 63) are
// -inf for every row with no comparison. A mask leaves the masked row in the registers it
// was loaded into (nothing reads it from tensor memory: no store), where the running
// maximum and the exp2 read it. Assembled and SASS-checked
// (tests/test_examples.py); not run: no Blackwell GPU here.
// RUN: lower-tc %examples/attention_causal_tcgen05.mlir | filecheck %s

// CHECK-NOT: // mask: queries from 0, keys from 0,
// CHECK: // mask: queries from 0, keys from 64, keys < 250, key <= query + 122
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-NOT: setp.lt.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW:[0-9]+]], 1;
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW]], 2;
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW]], 3;
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW]], 4;
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW]], 5;
// CHECK-NOT: setp.lt.s32
// CHECK-NOT: tcgen05.st
// CHECK: // the running maximum of this thread's row (tensor memory: no shuffle)
// CHECK-NOT: tcgen05.ld
// CHECK: // exp2 of each score less its row's running maximum: P, in S's place
// CHECK: // mask: queries from 0, keys from 128, keys < 250, key <= query + 122
// block 3: columns 0 to 57 against rows 70 to 127; 58 to 63 hidden for every row
// CHECK: // mask: queries from 0, keys from 192, keys < 250, key <= query + 122
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW3:[0-9]+]], 70;
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r[[ROW3]], 127;
// CHECK-NOT: setp.lt.s32
// CHECK-NOT: tcgen05.st
// CHECK: // the running maximum of this thread's row (tensor memory: no shuffle)
