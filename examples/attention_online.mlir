// Attention of 64 queries against 256 keys in four blocks of 64 (head dim 64, bf16), with
// the online softmax (docs/attention.md, "The online softmax"): for each block j of keys,
// S = Q K_j^T into f32 registers; the running maximum m of each row (tc.acc_row_max, in
// units of S x scale x log2 e); P = exp2(S x scale x log2 e - m) (tc.acc_exp); the running
// sum l carried to the new maximum and P's rows added (tc.acc_row_sum); O carried to the
// new maximum (tc.acc_rescale) and O += P V_j with P rounded to bf16 in registers
// (tc.acc_to_a, wgmma's A in registers). At the end O / l (tc.acc_row_div), and each row's
// log-sum-exp (m + log2 l) ln 2 into LSE (tc.rows_lse, tc.rows_store). Q and V are
// row-major (tokens x head dim); each K_j is a K-contiguous view of K's rows. The runner
// checks O and LSE against the same steps in float64 (P rounded to bf16 where the kernel
// rounds it); tests/test_attention_online.py ties them to softmax(Q K^T / 8) V.
func.func @attention_online(%Q: memref<64x64xbf16>, %K0: memref<64x64xbf16, strided<[1, 64]>>, %K1: memref<64x64xbf16, strided<[1, 64]>>, %K2: memref<64x64xbf16, strided<[1, 64]>>, %K3: memref<64x64xbf16, strided<[1, 64]>>, %V0: memref<64x64xbf16>, %V1: memref<64x64xbf16>, %V2: memref<64x64xbf16>, %V3: memref<64x64xbf16>, %O: memref<64x64xf32>, %LSE: memref<64x1xf32>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
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
  %m0 = tc.rows_fill -inf : !tc.rows<64xf32>
  %l0 = tc.rows_fill 0.0 : !tc.rows<64xf32>
  %o0 = tc.acc_zero : !tc.acc<64x64xf32>
  %z0 = tc.acc_zero : !tc.acc<64x64xf32>
  %s0 = tc.wgmma %q, %k0, %z0 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m1 = tc.acc_row_max %s0, %m0 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p0 = tc.acc_exp %s0, %m1 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l1 = tc.acc_row_sum %p0, %l0, %m0, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c0 = tc.acc_rescale %o0, %m0, %m1 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a0 = tc.acc_to_a %p0 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o1 = tc.wgmma %a0, %v0, %c0 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %z1 = tc.acc_zero : !tc.acc<64x64xf32>
  %s1 = tc.wgmma %q, %k1, %z1 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m2 = tc.acc_row_max %s1, %m1 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p1 = tc.acc_exp %s1, %m2 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l2 = tc.acc_row_sum %p1, %l1, %m1, %m2 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c1 = tc.acc_rescale %o1, %m1, %m2 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a1 = tc.acc_to_a %p1 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o2 = tc.wgmma %a1, %v1, %c1 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %z2 = tc.acc_zero : !tc.acc<64x64xf32>
  %s2 = tc.wgmma %q, %k2, %z2 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m3 = tc.acc_row_max %s2, %m2 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p2 = tc.acc_exp %s2, %m3 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l3 = tc.acc_row_sum %p2, %l2, %m2, %m3 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c2 = tc.acc_rescale %o2, %m2, %m3 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a2 = tc.acc_to_a %p2 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o3 = tc.wgmma %a2, %v2, %c2 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %z3 = tc.acc_zero : !tc.acc<64x64xf32>
  %s3 = tc.wgmma %q, %k3, %z3 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %m4 = tc.acc_row_max %s3, %m3 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %p3 = tc.acc_exp %s3, %m4 scale 0.125 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %l4 = tc.acc_row_sum %p3, %l3, %m3, %m4 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %c3 = tc.acc_rescale %o3, %m3, %m4 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  %a3 = tc.acc_to_a %p3 : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %o4 = tc.wgmma %a3, %v3, %c3 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  %o = tc.acc_row_div %o4, %l4 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  tc.acc_store %o to %O : !tc.acc<64x64xf32>, memref<64x64xf32>
  %lse = tc.rows_lse %m4, %l4 : !tc.rows<64xf32>
  tc.rows_store %lse to %LSE : !tc.rows<64xf32>, memref<64x1xf32>
  func.return
}
