// RUN: lower-tc %s | filecheck %s
//
// A 128 x 320 tile, wider than one wgmma (N = 256): each consumer warpgroup issues two per
// K-slice (layout/gemm.py `wgmma_parts`), into two runs of its 160 accumulator registers. B
// row-major is an MN-major tile of five 64-column atoms (128-byte swizzle), so the parts
// start at whole atoms: 192 + 128 columns, the second's descriptor start 3 atoms of 64
// columns x 8 K-rows (1024 bytes) x 8 along K = 24576 bytes (1536 in 16-byte units) on.
func.func @wide(%A: memref<512x8192xbf16>, %B: memref<8192x10240xbf16>, %D: memref<512x10240xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 320, bk = 64, stages = 3> : memref<512x8192xbf16>, memref<8192x10240xbf16>, memref<512x10240xbf16>
  func.return
}
// CHECK: // lower-tc kernel wide: {{.*}}"grid": [128, 1, 1]
// B: five boxes of 64 columns x 64 K-rows a stage
// CHECK: "tensor_maps": [{{.*}}"box": [64, 64]
// CHECK: // wgmma m64n192k16 + m64n128k16, 4 K-slices
// CHECK: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
// CHECK-NEXT: {%f0, {{(%f[0-9]+, )+}}%f95},
// CHECK-NEXT: %rd[[A:[0-9]+]],
// CHECK-NEXT: %rd[[B:[0-9]+]],
// CHECK: add.s64 %rd[[B2:[0-9]+]], %rd[[B]], 1536;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NEXT: {%f96, {{(%f[0-9]+, )+}}%f159},
// CHECK-NEXT: %rd[[A]],
// CHECK-NEXT: %rd[[B2]],
// CHECK: wgmma.commit_group.sync.aligned;
