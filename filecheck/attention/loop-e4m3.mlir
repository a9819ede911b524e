// fp8 attention at the loop level (examples/attention_loop_e4m3.mlir): the launch metadata
// says V's argument is V^T ("v_transposed", read through a tc.transpose view), whose tensor
// map walks keys first (global dims [keys, head dim, heads]: a K-major B for the P V wgmma,
// the only B fp8 wgmma reads); both MMAs are m64n64k32 e4m3 (two K-slices each: head dim 64
// for S, 64 keys for P V); S reads Q and K by descriptors, P V reads P's four words a slice
// from registers after the quad exchange (cvt.rn.satfinite.e4m3x2.f32, shfl.sync.idx, prmt).
// RUN: lower-tc %examples/attention_loop_e4m3.mlir -t ptx | filecheck %s

// CHECK: // lower-tc kernel attention_loop_e4m3: {{.*}}"attention": {"block_m": 128, "block_n": 64, "causal": 0, "k": 1, "o": 3, "q": 0, "scale": 0.125, "v": 2, "v_transposed": true}
// CHECK-SAME: {"arg": 2, "box": [64, 64, 1], "dtype": "e4m3", "global_dims": [1024, 64, 2], "global_strides": [1024, 65536], "param": "tmap_2", "swizzle": "64b", "tma_swizzle_code": 2}
// CHECK-LABEL: .visible .entry attention_loop_e4m3(
// CHECK: // S = Q K^T: wgmma m64n64k32, 2 K-slices
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f{{[0-9]+}}, {{.*}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: shfl.sync.idx.b32
// CHECK: prmt.b32
// CHECK: // O += P V: wgmma m64n64k32, 2 K-slices, P from registers
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f{{[0-9]+}}, {{.*}}},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f{{[0-9]+}}, {{.*}}},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
