// The default's cluster of 2 (layout/gemm_choice.py `prefer_multicast`): B row-major (16-bit,
// MN-major tiles) whose rows are not whole 128-byte L2 lines (here 5000 x 2 = 10000 bytes,
// 16 past a line) gets pairs of CTAs sharing B's boxes, with the rule's 128 x 256 tiles; the
// same GEMM with whole lines (5120 columns), B as nn.Linear's weight (K-major: a cluster does
// not share it), a configuration or `cluster = 1` given, a batch, sizes known at launch, or
// a few-tile GEMM (under a wave of 128 x 256 tiles) keeps one CTA per cluster.
// RUN: lower-tc %s --split-input-file -p 'tc-expand-matmul{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s --split-input-file -t ptx | filecheck %s

// (D in f32: with a 16-bit D the chooser computes this GEMM swapped, swap-ab-tma.mlir)
func.func @off_lines(%A: memref<3000x4000xbf16>, %B: memref<4000x5000xbf16>, %D: memref<3000x5000xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<3000x4000xbf16>, memref<4000x5000xbf16>, memref<3000x5000xf32>
  func.return
}
// REMARK: cluster-default.mlir:[[# @LINE - 3]]:3: remark: 128x256x64, 4 stages (2 warpgroup(s), warp_specialized, raster 8, B shared by a cluster of 2 (its rows are not whole L2 lines)) for 3000x5000x4000 (chosen)
// CHECK: // lower-tc kernel off_lines: {{.*}}"cluster": [2, 1, 1],
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster

// -----

// a padded B whose leading dimension is off the lines too
func.func @padded_off_lines(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16, strided<[4104, 1]>>, %D: memref<4096x4096xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4096x4096xf16>, memref<4096x4096xf16, strided<[4104, 1]>>, memref<4096x4096xf16>
  func.return
}
// REMARK: cluster-default.mlir:[[# @LINE - 3]]:3: remark: 128x256x64, 4 stages ({{.*}}B shared by a cluster of 2{{.*}}) for 4096x4096x4096 (chosen)
// CHECK: // lower-tc kernel padded_off_lines: {{.*}}"cluster": [2, 1, 1],

// -----

func.func @whole_lines(%A: memref<3000x4000xbf16>, %B: memref<4000x5120xbf16>, %D: memref<3000x5120xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<3000x4000xbf16>, memref<4000x5120xbf16>, memref<3000x5120xf32>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: {{.*}} for 3000x5120x4000 (chosen)
// CHECK: // lower-tc kernel whole_lines:
// CHECK-NOT: "cluster"
// CHECK-NOT: .reqnctapercluster

// -----

func.func @weight(%A: memref<3000x4000xbf16>, %W: memref<5000x4000xbf16>, %D: memref<3000x5000xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<5000x4000xbf16> to memref<4000x5000xbf16, strided<[1, 4000]>>
  tc.matmul %A, %B to %D : memref<3000x4000xbf16>, memref<4000x5000xbf16, strided<[1, 4000]>>, memref<3000x5000xbf16>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: {{.*}} for 3000x5000x4000 (chosen)
// CHECK: // lower-tc kernel weight:
// CHECK-NOT: .reqnctapercluster

// -----

func.func @asked_not(%A: memref<3000x4000xbf16>, %B: memref<4000x5000xbf16>, %D: memref<3000x5000xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {cluster = 1} : memref<3000x4000xbf16>, memref<4000x5000xbf16>, memref<3000x5000xf32>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: 128x320x64, 3 stages {{.*}} for 3000x5000x4000 (chosen)
// CHECK: // lower-tc kernel asked_not:
// CHECK-NOT: .reqnctapercluster

// -----

func.func @configured(%A: memref<3000x4000xbf16>, %B: memref<4000x5000xbf16>, %D: memref<3000x5000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> : memref<3000x4000xbf16>, memref<4000x5000xbf16>, memref<3000x5000xbf16>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: 128x256x64, 4 stages {{.*}} (given)
// CHECK: // lower-tc kernel configured:
// CHECK-NOT: .reqnctapercluster

// -----

// few tiles: 8 x 4 tiles of 128 x 256 are under a wave; the cost model's tile stays (computed
// swapped: its 64 x 128 tiles of D^T are 120 CTAs where D's are 128)
func.func @few_tiles(%A: memref<1000x512xbf16>, %B: memref<512x904xbf16>, %D: memref<1000x904xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<1000x512xbf16>, memref<512x904xbf16>, memref<1000x904xbf16>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: 64x128x64, 8 stages {{.*}} swapped: D^T = B^T A^T) for 904x1000x512 (chosen)
// CHECK: // lower-tc kernel few_tiles:
// CHECK-NOT: .reqnctapercluster

// -----

// sizes known at launch: the pairs need the tile rows' count
func.func @dynamic(%A: memref<?x4000xbf16>, %B: memref<4000x5000xbf16>, %D: memref<?x5000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<?x4000xbf16>, memref<4000x5000xbf16>, memref<?x5000xbf16>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: {{.*}} for ?x5000x4000 (chosen)
// CHECK: // lower-tc kernel dynamic:
// CHECK-NOT: .reqnctapercluster

// -----

// a batch (the grid's z): not paired
func.func @batched(%A: memref<4x3000x4000xbf16>, %B: memref<4x4000x5000xbf16>, %D: memref<4x3000x5000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4x3000x4000xbf16>, memref<4x4000x5000xbf16>, memref<4x3000x5000xbf16>
  func.return
}
// REMARK-NOT: B shared
// REMARK: remark: {{.*}} for 4 x 3000x5000x4000 (chosen)
// CHECK: // lower-tc kernel batched:
// CHECK-NOT: .reqnctapercluster
