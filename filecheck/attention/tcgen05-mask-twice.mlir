// Two masks of one block on tcgen05 (sm_100a; examples/attention_causal_tcgen05.mlir with
// a second mask, of the keys' count only, after block 1's causal one): the second sees the
// block whole and emits nothing, but its result is the first mask's, whose row is in
// registers only (nothing reads it from tensor memory, so it was never stored there). The
// running maximum reads those registers, not S's columns: a reload would lose the causal
// mask. Found by review; assembled only.
// RUN: lower-tc %s | filecheck %s

func.func @mask_twice(%Q: memref<128x64xbf16>, %K0: memref<64x64xbf16, strided<[1, 64]>>, %K1: memref<64x64xbf16, strided<[1, 64]>>, %K2: memref<64x64xbf16, strided<[1, 64]>>, %K3: memref<64x64xbf16, strided<[1, 64]>>, %V0: memref<64x64xbf16>, %V1: memref<64x64xbf16>, %V2: memref<64x64xbf16>, %V3: memref<64x64xbf16>, %O: memref<128x64xf32>, %LSE: memref<128x1xf32>) attributes {tc.target = "sm_100a"} {
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
  %k2 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v2 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K2 to %k2 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V2 to %v2 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %k3 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v3 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %K3 to %k3 as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V3 to %v3 as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<128xf32>
  %o0 = tc.acc_zero : !tc.acc<128x64xf32>
  %z0 = tc.acc_zero : !tc.acc<128x64xf32>
  %s0 = tc.tcgen05_mma %q, %k0, %z0 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %t0 = tc.acc_mask %s0 {first_query = 0, first_key = 0, keys = 250, causal = 122} : !tc.acc<128x64xf32>
  %m1 = tc.acc_row_max %t0, %m0 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p0 = tc.acc_exp %t0, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %l1 = tc.acc_row_sum %p0, %l0, %m0, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c0 = tc.acc_rescale %o0, %m0, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %a0 = tc.acc_to_a %p0 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %o1 = tc.tcgen05_mma %a0, %v0, %c0 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %z1 = tc.acc_zero : !tc.acc<128x64xf32>
  %s1 = tc.tcgen05_mma %q, %k1, %z1 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %t1x = tc.acc_mask %s1 {first_query = 0, first_key = 64, keys = 250, causal = 122} : !tc.acc<128x64xf32>
  %t1 = tc.acc_mask %t1x {first_query = 0, first_key = 64, keys = 250} : !tc.acc<128x64xf32>
  %m2 = tc.acc_row_max %t1, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p1 = tc.acc_exp %t1, %m2 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %l2 = tc.acc_row_sum %p1, %l1, %m1, %m2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c1 = tc.acc_rescale %o1, %m1, %m2 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %a1 = tc.acc_to_a %p1 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %o2 = tc.tcgen05_mma %a1, %v1, %c1 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %z2 = tc.acc_zero : !tc.acc<128x64xf32>
  %s2 = tc.tcgen05_mma %q, %k2, %z2 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %t2 = tc.acc_mask %s2 {first_query = 0, first_key = 128, keys = 250, causal = 122} : !tc.acc<128x64xf32>
  %m3 = tc.acc_row_max %t2, %m2 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p2 = tc.acc_exp %t2, %m3 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %l3 = tc.acc_row_sum %p2, %l2, %m2, %m3 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c2 = tc.acc_rescale %o2, %m2, %m3 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %a2 = tc.acc_to_a %p2 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %o3 = tc.tcgen05_mma %a2, %v2, %c2 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %z3 = tc.acc_zero : !tc.acc<128x64xf32>
  %s3 = tc.tcgen05_mma %q, %k3, %z3 : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %t3 = tc.acc_mask %s3 {first_query = 0, first_key = 192, keys = 250, causal = 122} : !tc.acc<128x64xf32>
  %m4 = tc.acc_row_max %t3, %m3 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p3 = tc.acc_exp %t3, %m4 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %l4 = tc.acc_row_sum %p3, %l3, %m3, %m4 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c3 = tc.acc_rescale %o3, %m3, %m4 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %a3 = tc.acc_to_a %p3 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %o4 = tc.tcgen05_mma %a3, %v3, %c3 : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %o = tc.acc_row_div %o4, %l4 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.acc_store %o to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  %lse = tc.rows_lse %m4, %l4 : !tc.rows<128xf32>
  tc.rows_store %lse to %LSE : !tc.rows<128xf32>, memref<128x1xf32>
  func.return
}
// CHECK: // mask: queries from 0, keys from 64, keys < 250, key <= query + 122
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK: setp.lt.s32
// CHECK-NOT: tcgen05.ld
// CHECK: // the running maximum of this thread's row
// CHECK-NOT: tcgen05.ld
// CHECK: // exp2 of each score less its row's running maximum
