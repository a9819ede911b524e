// fp8 attention at the op level with V as given (head dim contiguous, like Q and K): the
// expansion adds V's MN-major ring beside the K-major one (order = k_first: one TMA box a
// stage) and a tc.tile_transpose after V's window; V's tensor map walks the head dim first;
// the 128 x 128 tile takes a wide plan (a thread's 8 blocks as two 16-byte loads of 4 keys),
// conflict-free: 256 wavefronts for 256 warp accesses. Both the transposition and P's
// tc.acc_to_a take {accumulator_order}: V's keys stored as P's accumulator holds them, so P
// is each thread's own bytes (no shfl between the rounding and the P V wgmma).
// RUN: lower-tc %s -p tc-expand-attention -t mlir | filecheck %s --check-prefix=LOOP
// RUN: lower-tc %s -t ptx | filecheck %s
// RUN: lower-tc %s -t ptx | filecheck %s --check-prefix=NOEXCHANGE

func.func @fp8_v(%Q: memref<2x1024x128xf8E4M3FN>, %K: memref<2x1024x128xf8E4M3FN>, %V: memref<2x1024x128xf8E4M3FN>, %O: memref<2x1024x128xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<2x1024x128xf8E4M3FN>, memref<2x1024x128xf8E4M3FN>, memref<2x1024x128xf8E4M3FN>, memref<2x1024x128xbf16>
  func.return
}
// LOOP: %vs = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x128xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
// LOOP-NEXT: %v = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
// LOOP: tc.window_load %V[{{.*}}] to %vs as b : memref<2x1024x128xf8E4M3FN>, !tc.tile<128x128xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>
// LOOP-NEXT: tc.tile_transpose %vs to %v {accumulator_order} : !tc.tile<128x128xf8E4M3FN, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<128x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
// LOOP: tc.acc_to_a %{{.*}} {accumulator_order} : !tc.acc<128x128xf32> to !tc.afrag<128x128xf8E4M3FN>
// CHECK: // lower-tc kernel fp8_v: {{.*}}"attention": {"block_m": 128, "block_n": 128, "causal": 0, "k": 1, "o": 3, "q": 0, "scale": 0.0883883461356163, "v": 2}
// CHECK-SAME: {"arg": 2, "box": [128, 128, 1], "dtype": "e4m3", "global_dims": [128, 1024, 2], "global_strides": [128, 131072], "param": "tmap_2", "swizzle": "128b", "tma_swizzle_code": 3}
// CHECK: // V transposed: 8 blocks of 4 keys x 4 columns a thread (16-byte loads), 256 shared-memory wavefronts for 256 warp accesses
// CHECK-NEXT: ld.shared.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}
// CHECK: fence.proxy.async.shared::cta;
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: // O += P V: wgmma m64n128k32, 4 K-slices, P from registers
// NOEXCHANGE: // lower-tc kernel fp8_v:
// NOEXCHANGE-NOT: shfl.sync.idx
