// Errors of the CTA pair's tc.tcgen05_mma (cta_pair, cta_group::2) and of the kernels
// that may hold it, one per kernel, each located.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// the pair's accumulator has 128 rows in each CTA
func.func @pair_m64(%acc: !tc.acc<64x128xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc cta_pair : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 3]]:3: error: a CTA pair's tcgen05.mma (cta_group::2, M = 256) holds 128 accumulator rows in each CTA, not 64{{$}}

// -----

// B's tile is this CTA's half of the accumulator's columns
func.func @pair_b_whole(%acc: !tc.acc<128x128xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc cta_pair : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 3]]:3: error: the accumulator is 128x128 but A x B is 128x(2x128) (B's columns shared by the CTA pair){{$}}

// -----

// A in tensor memory is not lowered for the pair
func.func @pair_a_tmem(%acc: !tc.acc<128x128xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc a_in_tmem cta_pair : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 3]]:3: error: lower-tc's CTA-pair tcgen05.mma reads A from shared memory, not tensor memory{{$}}

// -----

// M = 256 on one CTA is not an MMA: it is the pair's
func.func @m256_single(%acc: !tc.acc<256x128xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<256x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<256x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<256x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 3]]:3: error: tcgen05.mma with M = 256 spans a CTA pair (cta_group::2): mark it cta_pair, with 128 accumulator rows in each CTA{{$}}

// -----

// a single-tile kernel has no cluster for the pair
func.func @pair_single_tile(%D: memref<128x128xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %zero cta_pair : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x128xf32>
  tc.acc_store %d to %D : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05-pair.mlir:[[# @LINE - 4]]:3: error: a CTA pair's tcgen05.mma (cta_pair) needs a cluster of two CTAs: it belongs in a GEMM kernel (tc.matmul with cluster = 2), not a single-tile kernel{{$}}
