// V's tile at head dim 128 (docs/attention.md, "The loop level"): tc-expand-attention gives
// it `order = k_first`, its 64-column swizzle atoms down the keys first, so TMA loads V in
// boxes of 64 columns x 128 keys (tensor map 2; the other order takes boxes of 8 keys, 32 a
// stage) and the P V wgmma's B descriptors (MN-major, 128-byte swizzle) read it as:
//   LBO 16384: from V's first 64 columns to its next (128 keys x 128 bytes),
//   SBO 1024: from one group of 8 keys to the next,
//   start +2048 bytes (encoded +0x80) for each K-slice of 16 keys, 8 slices of the block;
// `lower-tc desc decode --arch sm_90a 0x4000004004002000` prints these fields.
// RUN: lower-tc %s | filecheck %s

func.func @v_layout(%Q: memref<2x512x128xbf16>, %K: memref<2x512x128xbf16>, %V: memref<2x512x128xbf16>, %O: memref<2x512x128xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x512x128xbf16>, memref<2x512x128xbf16>, memref<2x512x128xbf16>, memref<2x512x128xbf16>
  func.return
}

// CHECK: "tensor_maps": [{{.*}}{"arg": 2, "box": [64, 128, 1], "dtype": "bf16", "global_dims": [128, 512, 2], "global_strides": [256, 131072], "param": "tmap_2"
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002000;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002080;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002100;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002180;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002200;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002280;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002300;
// CHECK: mov.b64 {{%rd[0-9]+}}, 0x4000004004002380;
// CHECK: // O += P V: wgmma m64n128k16, 8 K-slices, P from registers
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1;
