// tc-expand-matmul: tc.matmul becomes the loop level, then the descriptor passes give
// every stage's K-slices (stage-major, then each warpgroup's 64-row block, then K).
// RUN: lower-tc %s -p tc-expand-matmul -t mlir | filecheck %s
// RUN: lower-tc %s -p 'tc-expand-matmul{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s -p tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors -t mlir | filecheck %s --check-prefix=DESC

// bf16, A row-major (K-major tiles), B row-major (N-major tiles), 128x128x64 with 4
// stages, one loop, CTAs in row order; a ragged 1000 x 1000 x 1000 problem.
func.func @auto(%A: memref<1000x1000xbf16, strided<[1008, 1]>>, %B: memref<1000x1000xbf16, strided<[1008, 1]>>, %D: memref<1000x1000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {schedule = "pipelined", raster = 0} : memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16>
  func.return
}
// REMARK: expand-matmul.mlir:10:3: remark: 128x128x64, 4 stages (2 warpgroup(s), pipelined, raster 0) for 1000x1000x1000 (given)
// CHECK-LABEL: func.func @auto(
// CHECK-SAME: tc.grid = [8 : i64, 8 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<pipelined>} {
// CHECK-NEXT: %a = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
// CHECK-NEXT: %b = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
// CHECK-NEXT: %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT: %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
// CHECK:      %m0 = arith.muli %by, %bm : index
// CHECK-NEXT: %n0 = arith.muli %bx, %bn : index
// CHECK:      %k_end = arith.constant 1000 : index
// CHECK-NEXT: %bk = arith.constant 64 : index
// CHECK-NEXT: %zero = tc.acc_zero : !tc.acc<128x128xf32>
// CHECK-NEXT: %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
// CHECK-NEXT:   tc.window_load %A[%m0, %k] to %a as a
// CHECK-NEXT:   tc.window_load %B[%k, %n0] to %b as b
// CHECK-NEXT:   %next = tc.wgmma %a, %b, %acc
// CHECK-NEXT:   scf.yield %next : !tc.acc<128x128xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<1000x1000xbf16>

// The ring of A: 4 stages of 16 KiB, 128B swizzle; each stage 0x4000 further on, the
// second warpgroup's rows 0x2000 into it; K-slices 32 bytes apart.
// DESC-LABEL: func.func @auto(
// DESC: %a = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
// DESC: %b = tc.smem_tile {stages = 4 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 65536>>
// DESC: tc.wgmma %a, %b, %acc {tc.a_descs = [
// DESC-SAME: #tc.desc<k = 0, start = 0x0, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010000>,
// DESC-SAME: #tc.desc<k = 48, start = 0x60, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010006>,
// DESC-SAME: #tc.desc<k = 0, start = 0x2000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010200>,
// DESC-SAME: #tc.desc<k = 0, start = 0x4000, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010400>,
// DESC-SAME: #tc.desc<k = 48, start = 0xe060, lbo = 16, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004000010e06>]
// The ring of B (N-major, atoms along K first): LBO steps the 64-wide N atoms (8 KiB),
// SBO the 8-row K groups (1 KiB); a 16-row K-slice is two atoms (0x800) on.
// DESC-SAME: tc.b_descs = [
// DESC-SAME: #tc.desc<k = 0, start = 0x10000, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004002001000>,
// DESC-SAME: #tc.desc<k = 16, start = 0x10800, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004002001080>,
// DESC-SAME: #tc.desc<k = 48, start = 0x1d800, lbo = 8192, sbo = 1024, base_offset = 0, swizzle = 128b, value = 0x4000004002001d80>]

// -----

// Every transpose: A column-major gives MN-major A tiles; B column-major K-major B
// tiles; C added; an f16 accumulator; the configuration given.
func.func @given(%A: memref<256x512xf16, strided<[1, 256]>>, %B: memref<512x192xf16, strided<[1, 512]>>, %D: memref<256x192xf16>, %C: memref<256x192xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C acc f16 config #tc.gemm_config<bm = 64, bn = 64, bk = 128, stages = 2> : memref<256x512xf16, strided<[1, 256]>>, memref<512x192xf16, strided<[1, 512]>>, memref<256x192xf16>, memref<256x192xf16>
  func.return
}
// REMARK: expand-matmul.mlir:56:3: remark: 64x64x128, 2 stages (1 warpgroup(s), warp_specialized, raster 8) for 256x192x512 (given)
// CHECK-LABEL: func.func @given(
// 12 tiles, one wave: not persistent (layout/gemm_choice.py prefer_persistent).
// CHECK-SAME: tc.grid = [12 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
// CHECK-NEXT: %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x128xf16, #tc.layout<mn, swizzle = auto, order = k_first>>
// CHECK-NEXT: %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x128xf16, #tc.layout<k, swizzle = auto>>
// CHECK: tc.window_store %result to %D[%m0, %n0] plus %C : !tc.acc<64x64xf16>, memref<256x192xf16>, memref<256x192xf16>
// DESC-LABEL: func.func @given(
// DESC: %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x128xf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 0>>
// DESC: %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<64x128xf16, #tc.layout<k, swizzle = 128b, offset = 32768>>

// -----

// No configuration, no options: the defaults (docs/performance.md). The cost model's tile
// (layout/gemm_choice.py): at 1000^3, 128 CTAs of 64x128 with 8 stages fill one wave of the
// H100's 132 SMs; a warp-specialised kernel, CTAs walking 8 tile rows at a time, and not
// persistent (one wave).
func.func @defaults(%A: memref<1000x1000xbf16, strided<[1008, 1]>>, %B: memref<1000x1000xbf16, strided<[1008, 1]>>, %D: memref<1000x1000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16, strided<[1008, 1]>>, memref<1000x1000xbf16>
  func.return
}
// REMARK: expand-matmul.mlir:77:3: remark: 64x128x64, 8 stages (1 warpgroup(s), warp_specialized, raster 8) for 1000x1000x1000 (chosen)
// The grouped order: 16 x 8 tiles, 8 tile rows a group, so 128 CTAs in one dimension.
// CHECK-LABEL: func.func @defaults(
// CHECK-SAME: tc.grid = [128 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
// CHECK: %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK: %group = arith.divui %bx, %{{.*}} : index
// CHECK-NEXT: %first_row = arith.muli %group, %{{.*}} : index
// CHECK-NEXT: %{{.*}} = arith.subi %{{.*}}, %first_row : index
// CHECK-NEXT: %rows = arith.minui %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %in_group = arith.remui %bx, %{{.*}} : index
// CHECK-NEXT: %{{.*}} = arith.remui %in_group, %rows : index
// CHECK-NEXT: %tile_row = arith.addi %first_row, %{{.*}} : index
// CHECK-NEXT: %tile_col = arith.divui %in_group, %rows : index
// CHECK-NEXT: %m0 = arith.muli %tile_row, %bm : index
// CHECK-NEXT: %n0 = arith.muli %tile_col, %bn : index
// DESC-LABEL: func.func @defaults(
// DESC: %b = tc.smem_tile {stages = 8 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = 128b, order = k_first, offset = 65536>>
