// Clusters of 2 (`cluster = 2`, passes/to_ptx/gemm/specialized.py): CTAs 2j and 2j+1 of the
// grouped order compute tiles in the same columns of D, so each loads half of B's boxes
// and multicasts them to both; lane 0 of every consumer warp releases a stage on both CTAs'
// "empty" barriers (2 CTAs x 4 warps x 2 warpgroups = 16 arrivals); the descriptors take
// the shared address & 0x3FFFF (rank 1's shared memory starts at 0x1000400); the CTAs meet
// at a cluster barrier after the barriers' initialisation and before they leave.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @paired(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {cluster = 2, persistent = true} : memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel paired: {{.*}}"cluster": [2, 1, 1],{{.*}}"grid": [{"persistent": 8}, 1, 1]
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: mov.u32 %r[[RANK:[0-9]+]], %cluster_ctarank;
// CHECK-NEXT: xor.b32 %r[[PEER:[0-9]+]], %r[[RANK]], 1;
// CHECK-NEXT: mov.b16 %h[[MASK:[0-9]+]], 3;
// CHECK-NEXT: and.b32 %r[[LANE:[0-9]+]], %r0, 31;
// CHECK-NEXT: setp.eq.u32 %p[[LEADER:[0-9]+]], %r[[LANE]], 0;
// CHECK: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}+196640], 16;
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// the producer: its own A, then boxes rank and rank + 2 of B (8192 bytes apart), to both CTAs
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+196608], 49152;
// CHECK-NEXT: mul.lo.s32
// CHECK-NEXT: mul.lo.u32
// CHECK-NEXT: add.u32
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+196608];
// CHECK: mul.lo.u32 %r{{[0-9]+}}, %r[[RANK]], 8192;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r{{[0-9]+}}+65536], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+196608], %h[[MASK]];
// CHECK-NEXT: add.s32
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r{{[0-9]+}}+81920], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+196608], %h[[MASK]];
// CHECK-NOT: cp.async.bulk.tensor.2d.shared::cluster.global
// the consumers: descriptors from the address within the CTA's 256 KiB
// CHECK: and.b32 %r[[LOW:[0-9]+]], %r{{[0-9]+}}, 262143;
// CHECK-NEXT: // the descriptors' base: the shared address within the CTA's 256 KiB
// CHECK-NEXT: shr.u32 %r{{[0-9]+}}, %r[[LOW]], 4;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-NEXT: @%p{{[0-9]+}} bra $L_no_release_[[R:[0-9]+]];
// CHECK-NEXT: @!%p[[LEADER]] bra $L_no_release_[[R]];
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+196640];
// CHECK-NEXT: add.u32 %r[[LOCAL:[0-9]+]], %r{{[0-9]+}}, 196640;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[REMOTE:[0-9]+]], %r[[LOCAL]], %r[[PEER]];
// CHECK-NEXT: mbarrier.arrive.shared::cluster.b64 _, [%r[[REMOTE]]];
// CHECK: $L_exit_{{[0-9]+}}:
// CHECK-NEXT: // the cluster's CTAs leave together
// CHECK-NEXT: barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK-NEXT: ret;

// -----

func.func @odd_rows(%A: memref<384x512xbf16>, %B: memref<512x512xbf16>, %D: memref<384x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {cluster = 2} : memref<384x512xbf16>, memref<512x512xbf16>, memref<384x512xbf16>
  func.return
}
// CHECK: cluster.mlir:[[# @LINE - 3]]:3: error: a cluster of 2 pairs CTAs in the same columns of D: it needs the warp-specialised schedule, an even raster group, sizes known at compile time and an even number of tile rows (here 3)

// -----

func.func @pipelined(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {cluster = 2, schedule = "pipelined"} : memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: cluster.mlir:[[# @LINE - 3]]:3: error: a cluster of 2 pairs CTAs in the same columns of D: it needs the warp-specialised schedule, an even raster group, sizes known at compile time and an even number of tile rows{{$}}

// -----

func.func @three(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {cluster = 3} : memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: cluster.mlir:[[# @LINE - 3]]:27: error: cluster is 1 or 2 (CTAs sharing B's loads), not 3{{$}}

// -----

// BN = 192: three boxes of 64 columns, which two CTAs cannot split evenly
func.func @odd_boxes(%A: memref<512x512xbf16>, %B: memref<512x576xbf16>, %D: memref<512x576xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 192, bk = 64, stages = 4> {cluster = 2} : memref<512x512xbf16>, memref<512x576xbf16>, memref<512x576xbf16>
  func.return
}
// CHECK: cluster.mlir:[[# @LINE - 3]]:3: error: a cluster of 2 shares B's TMA boxes between the pair: BN = 192 is 3 boxes of 64 columns, an odd number (a row-major B's BN must be a multiple of 128 columns){{$}}

// -----

// BN = 144: 288 bytes a row of B, two 128-byte boxes and a narrower one (the pair would
// have to split boxes of different swizzles)
func.func @part_box(%A: memref<512x512xbf16>, %B: memref<512x576xbf16>, %D: memref<512x576xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 144, bk = 64, stages = 4> {cluster = 2} : memref<512x512xbf16>, memref<512x576xbf16>, memref<512x576xbf16>
  func.return
}
// CHECK: cluster.mlir:[[# @LINE - 3]]:3: error: a cluster of 2 shares B's TMA boxes between the pair: BN = 144 is 288 bytes a row of B, not whole 128-byte boxes (a row-major B's BN must be a multiple of 128 columns){{$}}
