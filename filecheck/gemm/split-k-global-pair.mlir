// A split through global memory in clusters of 2 sharing B (split_k = S, reduce = global,
// cluster = 2): one rank's CTAs of two tile rows in the same columns are a pair (walk.py:
// tile (bx / 2S) 2 + bx mod 2, rank (bx / 2) mod S), B's boxes multicast to both, and the
// tile's last CTA sums every other slot. The chooser pairs the long-K shapes' global
// splits, with a 6-stage ring (layout/gemm_choice.py `paired_split`), unless the schedule
// or the raster asked for cannot pair.
// RUN: lower-tc %s --split-input-file -p 'tc-expand-matmul{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s --split-input-file -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=MLIR
// RUN: lower-tc %s --split-input-file -t ptx | filecheck %s

func.func @long_k(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// REMARK: split-k-global-pair.mlir:[[# @LINE - 3]]:3: remark: 128x128x64, 6 stages (2 warpgroup(s), warp_specialized, raster 8, split over K by 8 through global memory, paired in clusters of 2 sharing B) for 512x512x65536 (chosen)
// MLIR-LABEL: func.func @long_k(
// MLIR-SAME: tc.grid = [128 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2, split_k = 8, reduce = global>
// MLIR: %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}>
// MLIR-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// MLIR-NEXT: %[[TWO_S:.*]] = arith.constant 16 : index
// MLIR-NEXT: %split_k = arith.constant 8 : index
// MLIR-NEXT: %[[PAIRS:.*]] = arith.divui %bx, %[[TWO_S]]
// MLIR-NEXT: %[[FIRST:.*]] = arith.muli %[[PAIRS]], %[[TWO]]
// MLIR-NEXT: %pair_member = arith.remui %bx, %[[TWO]]
// MLIR-NEXT: %tile_x = arith.addi %[[FIRST]], %pair_member
// MLIR-NEXT: %[[HALF:.*]] = arith.divui %bx, %[[TWO]]
// MLIR-NEXT: %rank = arith.remui %[[HALF]], %split_k
// CHECK: // lower-tc kernel long_k: {{.*}}"cluster": [2, 1, 1]{{.*}}"config": {"bk": 64, "bm": 128, "bn": 128, "stages": 6}{{.*}}"reduce": "global", "split_k": 8
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: mov.u32 [[RANK0:%r[0-9]+]], %cluster_ctarank;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// the slot of CTA x, its rank (x / 2) mod 8 and its tile's word (x / 16) 2 + x mod 2 (8 bytes each: spread)
// CHECK: mov.u32 [[X:%r[0-9]+]], %ctaid.x;
// CHECK: shr.u32 [[H:%r[0-9]+]], [[X]], 1;
// CHECK-NEXT: // split-K in pairs sharing B: rank (x / 2) mod S, tile (x / 2S) 2 + x mod 2
// CHECK-NEXT: rem.u32 [[RANK:%r[0-9]+]], [[H]], 8;
// CHECK: mul.wide.u32 {{%rd[0-9]+}}, [[LIN:%r[0-9]+]], 65536;
// CHECK: div.u32 [[P:%r[0-9]+]], [[LIN]], 16;
// CHECK-NEXT: and.b32 [[M:%r[0-9]+]], [[LIN]], 1;
// CHECK-NEXT: shl.b32 [[P2:%r[0-9]+]], [[P]], 1;
// CHECK-NEXT: add.u32 [[TILE:%r[0-9]+]], [[P2]], [[M]];
// CHECK-NEXT: mul.wide.u32 {{%rd[0-9]+}}, [[TILE]], 8;
// the tile's slots: from x - 2 rank, every other one (2 x 65536 bytes apart)
// CHECK: shl.b32 [[BACK:%r[0-9]+]], [[RANK]], 1;
// CHECK-NEXT: sub.u32 [[FIRST_SLOT:%r[0-9]+]], [[LIN]], [[BACK]];
// CHECK-NEXT: mul.wide.u32 {{%rd[0-9]+}}, [[FIRST_SLOT]], 65536;
// (128 CTAs: the sum is spread over the tile's CTAs, split-k-global-spread.mlir; each
// CTA's slice of 2 column groups over the 8 slots in straight-line code)
// CHECK: add.s64 {{%rd[0-9]+}}, [[SLOTS:%rd[0-9]+]], 131072;
// CHECK-NEXT: // split-K: rank 1's partial added, ranks in order
// CHECK: add.s64 {{%rd[0-9]+}}, [[SLOTS]], 917504;
// CHECK-NEXT: // split-K: rank 7's partial added, ranks in order
// CHECK: barrier.cluster.arrive.release;

// -----

// asked for by hand: the given tile and ring, e4m3 (B K-major: its box cut along its rows)
func.func @given_fp8(%A: memref<256x131072xf8E4M3FN>, %W: memref<1024x131072xf8E4M3FN>, %D: memref<256x1024xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<1024x131072xf8E4M3FN> to memref<131072x1024xf8E4M3FN, strided<[1, 131072]>>
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 5> {split_k = 8, reduce = "global", cluster = 2} : memref<256x131072xf8E4M3FN>, memref<131072x1024xf8E4M3FN, strided<[1, 131072]>>, memref<256x1024xbf16>
  func.return
}
// REMARK: split-k-global-pair.mlir:[[# @LINE - 3]]:3: remark: 128x128x128, 5 stages (2 warpgroup(s), warp_specialized, raster 8, split over K by 8 through global memory, B shared by a cluster of 2) for 256x1024x131072 (given)
// CHECK: // lower-tc kernel given_fp8: {{.*}}"cluster": [2, 1, 1]
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// CHECK: split-K in pairs sharing B

// -----

// an odd raster group cannot pair: the same split unpaired, in the 4 stages a split keeps
func.func @raster3(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {raster = 3} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// REMARK: split-k-global-pair.mlir:[[# @LINE - 3]]:3: remark: 128x128x64, 4 stages (2 warpgroup(s), warp_specialized, raster 3, split over K by 8 through global memory) for 512x512x65536 (chosen)
// CHECK: // lower-tc kernel raster3:
// CHECK-NOT: "cluster"
// CHECK-NOT: reqnctapercluster
// CHECK: ret;

// -----

// nor the pipelined schedule
func.func @pipelined(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {schedule = "pipelined"} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// REMARK: split-k-global-pair.mlir:[[# @LINE - 3]]:3: remark: 128x128x64, 4 stages (2 warpgroup(s), pipelined, raster 8, split over K by 8 through global memory) for 512x512x65536 (chosen)
// CHECK: // lower-tc kernel pipelined:
// CHECK-NOT: reqnctapercluster
// CHECK: ret;
