// Batched GEMMs: the batch on the grid's z (row order) or folded into the tile walk on x
// (grouped order, persistent); 3-d TMA maps and loads for A and B with a batch, a 2-d
// one for a matrix shared by every batch; the register epilogue at the matrix's
// address (batch index x batch stride in bytes, 64-bit); the TMA-store epilogue's 3-d map.
// RUN: lower-tc %examples/batched_gemm.mlir -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=WALK
// RUN: lower-tc %examples/batched_gemm.mlir | filecheck %s --check-prefix=TMA
// RUN: lower-tc %s -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=ROWS
// RUN: lower-tc %s | filecheck %s

// The default for 8 x 1000x768x512: 128x192 tiles (the cost model), 8 x 4 = 32 a matrix,
// 256 in all: two waves, so persistent.
// WALK: tc.grid = [256 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent>
// WALK: %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// WALK-NEXT: %[[T:.*]] = arith.constant 32 : index
// WALK-NEXT: %matrix = arith.divui %bx, %[[T]] : index
// WALK-NEXT: %tile_in_matrix = arith.remui %bx, %[[T]] : index
// WALK: tc.window_load %A[%matrix, %m0, %k] to %a as a
// WALK: tc.window_load %B[%k, %n0] to %b as b
// WALK: tc.window_store %result to %D[%matrix, %m0, %n0]

// TMA: "tensor_maps": [{"arg": 0, "box": [64, 128, 1], "dtype": "bf16", "global_dims": [512, 1000, 8], "global_strides": [1024, 1048576]
// TMA-SAME: {"arg": 1, "box": [64, 64], "dtype": "bf16", "global_dims": [768, 512], "global_strides": [1536]
// TMA-SAME: {"arg": 2, "box": [64, 64, 1], "dtype": "bf16", "global_dims": [768, 1000, 8], "global_strides": [1536, 1536000]
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r[[MATRIX:[0-9]+]]}]
// TMA: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// TMA: cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]

// Row order: the batch is block z, the grid's z D's batch; A batch of 1 is matrix 0.
// ROWS-LABEL: func.func @rows
// ROWS-SAME: tc.grid = [1 : i64, 3 : i64, 6 : i64]
// ROWS: %matrix = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
// ROWS: %[[ZERO:.*]] = arith.constant 0 : index
// ROWS: tc.window_load %A[%matrix, %m0, %k]
// ROWS: tc.window_load %B[%[[ZERO]], %k, %n0]
// ROWS: tc.window_store %result to %D[%matrix, %m0, %n0] plus %C
// ROWS-LABEL: func.func @dynamic
// ROWS-SAME: tc.grid = {{\[}}[2 : i64, 2 : i64, 256 : i64], [2 : i64, 1 : i64, 128 : i64], [2 : i64, 0 : i64, 1 : i64]]
func.func @rows(%A: memref<6x300x128xf16, strided<[40960, 128, 1]>>, %B: memref<1x128x200xf16>, %D: memref<6x300x200xf32>, %C: memref<6x300x200xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {raster = 0} : memref<6x300x128xf16, strided<[40960, 128, 1]>>, memref<1x128x200xf16>, memref<6x300x200xf32>, memref<6x300x200xf32>
  func.return
}

// The register epilogue: D's and C's matrix at batch index x 240000 bytes (300 x 200 f32).
// CHECK-LABEL: // lower-tc kernel rows:
// CHECK-SAME: "global_dims": [128, 300, 6], "global_strides": [256, 81920]
// CHECK-SAME: "global_dims": [200, 128], "global_strides": [400]
// CHECK: mov.u32 %r[[Z:[0-9]+]], %ctaid.z;
// CHECK: cp.async.bulk.tensor.3d
// CHECK: mul.wide.u32 %rd[[OFF:[0-9]+]], %r[[Z]], 240000;
// CHECK-NEXT: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd[[OFF]];
// CHECK: mul.wide.u32 %rd[[COFF:[0-9]+]], %r[[Z]], 240000;

// Sizes known at launch: five .u32 parameters of each 3-d argument; the offset from the
// batch stride's parameter (in elements), shifted by the element size.
// CHECK-LABEL: // lower-tc kernel dynamic:
// CHECK: .param .u32 p_A_batch,
// CHECK-NEXT: .param .u32 p_A_batch_stride,
// CHECK: ld.param.u32 %r[[SB:[0-9]+]], [p_D_batch_stride];
// CHECK: mul.wide.u32 %rd[[DOFF:[0-9]+]], %r{{[0-9]+}}, %r[[SB]];
// CHECK-NEXT: shl.b64 %rd{{[0-9]+}}, %rd[[DOFF]], 1;
func.func @dynamic(%A: memref<?x?x?xbf16>, %B: memref<?x?x?xbf16>, %D: memref<?x?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<?x?x?xbf16>, memref<?x?x?xbf16>, memref<?x?x?xbf16>
  func.return
}
