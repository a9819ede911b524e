// fp8 attention at the op level: e4m3 Q and K, V with its keys contiguous (V^T in memory:
// strided<[S_k D, 1, S_k]>, what fp8 wgmma's K-major B reads), a bf16 O. tc-expand-attention
// takes the fp8 blocks (layout/attention.py FP8_BLOCKS: 192 x 128 on four stages at D = 64)
// and a K-major V tile; V's tensor map walks the keys first; both MMAs are k32 e4m3.
// RUN: lower-tc %s -p 'tc-expand-attention{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s -p tc-expand-attention -t mlir | filecheck %s --check-prefix=LOOP
// RUN: lower-tc %s -t ptx | filecheck %s

func.func @fp8(%Q: memref<2x1024x64xf8E4M3FN>, %K: memref<2x1024x64xf8E4M3FN>, %V: memref<2x1024x64xf8E4M3FN, strided<[65536, 1, 1024]>>, %O: memref<2x1024x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<2x1024x64xf8E4M3FN>, memref<2x1024x64xf8E4M3FN>, memref<2x1024x64xf8E4M3FN, strided<[65536, 1, 1024]>>, memref<2x1024x64xbf16>
  func.return
}
// REMARK: op-e4m3.mlir:[[# @LINE - 3]]:3: remark: 192 queries x 128 keys a block, 4 stages, 3 consumer warpgroups and a producer, for 2 heads of 1024 x 1024 x 64
// LOOP: %k = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
// LOOP-NEXT: %v = tc.smem_tile {stages = 4 : i64} : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
// LOOP: tc.window_load %V[{{.*}}] to %{{.*}} as b : memref<2x1024x64xf8E4M3FN, strided<[65536, 1, 1024]>>, !tc.tile<64x128xf8E4M3FN, #tc.layout<k
// LOOP: tc.acc_to_a %{{.*}} : !tc.acc<192x128xf32> to !tc.afrag<192x128xf8E4M3FN>
// CHECK: // lower-tc kernel fp8: {{.*}}"attention": {"block_m": 192, "block_n": 128, "causal": 0, "k": 1, "o": 3, "q": 0, "scale": 0.125, "v": 2}
// CHECK-SAME: {"arg": 2, "box": [128, 64, 1], "dtype": "e4m3", "global_dims": [1024, 64, 2], "global_strides": [1024, 65536], "param": "tmap_2", "swizzle": "128b", "tma_swizzle_code": 3}
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f{{[0-9]+}}, {{.*}}},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
