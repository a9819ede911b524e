// The online softmax on tcgen05 (sm_100a; examples/attention_online_tcgen05.mlir, two blocks
// of keys here), the PTX pinned: tensor memory of 256 columns (O at 0, S_0 at 64, S_1 at 128,
// A at 192); each thread's row of S loaded once (two tcgen05.ld x32) for its running
// maximum with no shuffle and its exp2, P kept in registers for the row's sum and the A
// of P V (no load, and no store over S: nothing reads P in f32 from tensor memory); the
// first block's O, which no MMA wrote, is not rescaled and its MMA starts without it
// (enable-input-d 0); the second block's O is loaded, scaled by exp2(m1 - m2) and written
// back before the MMA that adds to it (enable-input-d 1); at the end O / l in tensor
// memory, and each thread stores its own row's log-sum-exp. Assembled and SASS-checked
// (tests/test_examples.py); not run: no Blackwell GPU here.
// RUN: lower-tc %s | filecheck %s

func.func @attention_online_tcgen05(%Q: memref<128x64xbf16>, %K0: memref<64x64xbf16, strided<[1, 64]>>, %K1: memref<64x64xbf16, strided<[1, 64]>>, %V0: memref<64x64xbf16>, %V1: memref<64x64xbf16>, %O: memref<128x64xf32>, %LSE: memref<128x1xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k0 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v0 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K0 to %k0 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V0 to %v0 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %k1 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v1 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K1 to %k1 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V1 to %v1 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %z0 = tc.acc_zero : !tc.acc<128x64xf32>
  %s0 = tc.tcgen05_mma %q, %k0, %z0 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m1 = tc.acc_row_max %s0, %m0 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p0 = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %l1 = tc.acc_row_sum %p0, %l0, %m0, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c0 = tc.acc_rescale %o0, %m0, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %a0 = tc.acc_to_a %p0 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %o1 = tc.tcgen05_mma %a0, %v0, %c0 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %z1 = tc.acc_zero : !tc.acc<128x64xf32>
  %s1 = tc.tcgen05_mma %q, %k1, %z1 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m2 = tc.acc_row_max %s1, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p1 = tc.acc_exp %s1, %m2 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %l2 = tc.acc_row_sum %p1, %l1, %m1, %m2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c1 = tc.acc_rescale %o1, %m1, %m2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %a1 = tc.acc_to_a %p1 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %o2 = tc.tcgen05_mma %a1, %v1, %c1 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %o = tc.acc_row_div %o2, %l2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.acc_store %o to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  %lse = tc.rows_lse %m2, %l2 : !tc.rows<128xf32>
  tc.rows_store %lse to %LSE : !tc.rows<128xf32>, memref<128x1xf32>
  func.return
}
// CHECK: // every row's value: -inf
// CHECK: // tensor memory: 256 columns
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[S0:[0-9]+]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK: // the running maximum of this thread's row (tensor memory: no shuffle): scores times 0.125 x log2 e
// CHECK: // the row of S
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[ROW:[0-9]+]]];
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[ROW]]+32];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-NOT: shfl
// CHECK: max.f32
// CHECK-NOT: shfl
// CHECK: // exp2 of each score less its row's running maximum: P, in S's place
// CHECK-NOT: tcgen05.ld
// CHECK-NOT: shfl
// CHECK: ex2.approx.ftz.f32
// the row's sum and A from the registers P is in: no store over S, no load
// CHECK-NOT: tcgen05.st
// CHECK-NOT: tcgen05.ld
// CHECK: // O carried to the new maximum: times exp2(old - new)
// CHECK-NOT: tcgen05.st
// CHECK-NOT: tcgen05.ld
// CHECK: cvt.rn.bf16x2.f32
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r{{[0-9]+}}+192], {
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[O:[0-9]+]]], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// every thread has seen P V's commit complete (a CTA barrier) before the next MMA commits
// onto the same mbarrier: it keeps one phase bit, and a thread two phases behind would wait
// for ever
// CHECK: mbarrier.try_wait.parity
// CHECK-NOT: tcgen05.mma
// CHECK: bar.sync 0;
// the second block: S_1 in its own columns, O rescaled in tensor memory before its MMA
// CHECK-NOT: bar.sync
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK: // O carried to the new maximum: times exp2(old - new)
// CHECK: ex2.approx.ftz.f32 %f[[FACTOR:[0-9]+]],
// CHECK: // O's row, to rescale in tensor memory
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK: mul.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, %f[[FACTOR]];
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32
// CHECK: tcgen05.wait::st.sync.aligned;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK: // each row over its sum; 0 where the sum is 0
// CHECK-NEXT: rcp.approx.ftz.f32
// CHECK: // O's row, to divide by its sum
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32
// CHECK: // log-sum-exp: (m + log2 l) ln 2
// CHECK: lg2.approx.f32
// CHECK: // one f32 a row, each thread its own
// CHECK: st.global.f32
