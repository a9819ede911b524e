// Attention of one tile on tcgen05 (sm_100a), the PTX pinned: S = Q K^T into tensor
// memory (columns 0-63 of a 256-column allocation), each thread's row of S loaded (two
// tcgen05.ld x32), its softmax with no shuffle (64 ex2, one rcp), P written back over S,
// reloaded, rounded to 32 bf16 pairs and stored to the A columns (128-159, after S and O),
// and O = P V's four tcgen05.mma reading A from tensor memory ([addr]), 8 columns a K-slice.
// Assembled and SASS-checked (tests/test_examples.py); not run: no Blackwell GPU here.
// RUN: lower-tc %s | filecheck %s

func.func @attention_tile_tcgen05(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<128x64xf32>
  %p = tc.acc_to_a %sm : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<128x64xf32>
  %o = tc.tcgen05_mma %p, %v, %zero2 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %o to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: // tensor memory: 256 columns
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[S:[0-9]+]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK: // softmax: this thread's row of S (64 columns of tensor memory)
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[ROW:[0-9]+]]];
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[ROW]]+32];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-NEXT: // softmax of the row of 0.125 x S: exp2 of (s - max) x 0.125 x log2 e, no shuffle
// CHECK-NOT: shfl
// CHECK-COUNT-64: ex2.approx.f32
// CHECK: rcp.approx.ftz.f32
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r[[P:[0-9]+]]], {{.*}}
// CHECK-NEXT: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r[[P]]+32], {{.*}}
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK: // A from the accumulator: this thread's row, rounded to bf16 pairs
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-COUNT-32: cvt.rn.bf16x2.f32
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r{{[0-9]+}}+128], {{.*}}
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK: add.u32 %r[[A0:[0-9]+]], %r[[BASE:[0-9]+]], 128;
// CHECK-NEXT: add.u32 %r[[A1:[0-9]+]], %r[[BASE]], 136;
// CHECK-NEXT: add.u32 %r[[A2:[0-9]+]], %r[[BASE]], 144;
// CHECK-NEXT: add.u32 %r[[A3:[0-9]+]], %r[[BASE]], 152;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[O:[0-9]+]]], [%r[[A0]]], %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r[[A1]]], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r[[A2]]], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r[[A3]]], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
