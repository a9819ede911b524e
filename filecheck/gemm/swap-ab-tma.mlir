// Swap-AB with the TMA-store epilogue (passes/to_ptx/gemm/epilogue_tma.py): the kernel
// computes D^T = B^T A^T, a column-major view of D, and stages it transposed. Each consumer
// warpgroup's 64 fragment rows are 64 contiguous columns of D: its pieces are 64 (32, 16)
// of D's rows by those 64 columns, 128-byte rows with the 128-byte swizzle, written by
// stmatrix.x4.trans (layout/epilogue.py `stmatrix_trans_offset`) and stored by TMA boxes
// of 64 x rows whose dimension 0 runs along D's rows.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p 'tc-expand-matmul{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK

// The default (layout/gemm_choice.py `wide_swap`): a row-major 16-bit B whose unswapped
// tiles the model prices slower (MN-major B: only whole-swizzle-row widths) is swapped where
// the TMA-store epilogue can store D^T: 1536^3 in 132 tiles of 128 x 144 (12 x 11)
func.func @default_wide(%A: memref<1536x1536xbf16>, %B: memref<1536x1536xbf16>, %D: memref<1536x1536xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x144x64, 5 stages (2 warpgroup(s), warp_specialized, raster 8, swapped: D^T = B^T A^T) for 1536x1536x1536 (chosen)
// CHECK: // lower-tc kernel default_wide: {{.*}}"d_transposed": true{{.*}}"grid": [132, 1, 1]
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16

// -----

// B as nn.Linear's weight (K-major): not swapped, its own 128 x 144 tiles
func.func @default_linear(%A: memref<1536x1536xbf16>, %W: memref<1536x1536xbf16>, %D: memref<1536x1536xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<1536x1536xbf16> to memref<1536x1536xbf16, strided<[1, 1536]>>
  tc.matmul %A, %B to %D : memref<1536x1536xbf16>, memref<1536x1536xbf16, strided<[1, 1536]>>, memref<1536x1536xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x144x64, 5 stages (2 warpgroup(s), warp_specialized, raster 8) for 1536x1536x1536 (chosen)

// -----

// the same with what rules the swap out: D in f32, C added, the register epilogue asked for,
// a D whose rows are not whole 16-byte chunks (N = 1540 is, 1538 is not), swap_ab = false
func.func @kept_f32(%A: memref<1536x1536xbf16>, %B: memref<1536x1536xbf16>, %D: memref<1536x1536xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xf32>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x192x64, 4 stages (2 warpgroup(s), warp_specialized, raster 8) for 1536x1536x1536 (chosen)

// -----

func.func @kept_c(%A: memref<1536x1536xbf16>, %B: memref<1536x1536xbf16>, %D: memref<1536x1536xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %D : memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x192x64, 4 stages (2 warpgroup(s), warp_specialized, raster 8) for 1536x1536x1536 (chosen)

// -----

func.func @kept_registers(%A: memref<1536x1536xbf16>, %B: memref<1536x1536xbf16>, %D: memref<1536x1536xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {epilogue = "registers"} : memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x192x64, 4 stages (2 warpgroup(s), warp_specialized, raster 8) for 1536x1536x1536 (chosen)

// -----

func.func @kept_ragged_rows(%A: memref<1536x1536xbf16>, %B: memref<1536x1538xbf16, strided<[1544, 1]>>, %D: memref<1536x1538xbf16, strided<[1544, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<1536x1536xbf16>, memref<1536x1538xbf16, strided<[1544, 1]>>, memref<1536x1538xbf16, strided<[1544, 1]>>
  func.return
}
// REMARK-NOT: swapped
// REMARK: swap-ab-tma.mlir:[[# @LINE - 4]]:3: remark: {{.*}} for 1536x1538x1536 (chosen)

// -----

func.func @kept_asked(%A: memref<1536x1536xbf16>, %B: memref<1536x1536xbf16>, %D: memref<1536x1536xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = false} : memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x192x64, 4 stages (2 warpgroup(s), warp_specialized, raster 8) for 1536x1536x1536 (chosen)

// -----

// rows not whole L2 lines (5000 x 2 bytes): swapped (98% of cuBLAS on the H200, the
// unswapped cluster of 2 95%), the swap before the cluster
func.func @off_lines(%A: memref<3000x4000xbf16>, %B: memref<4000x5000xbf16>, %D: memref<3000x5000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<3000x4000xbf16>, memref<4000x5000xbf16>, memref<3000x5000xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x240x64, 4 stages (2 warpgroup(s), warp_specialized, raster 8, swapped: D^T = B^T A^T) for 5000x3000x4000 (chosen)
// CHECK: // lower-tc kernel off_lines:
// CHECK-NOT: "cluster"
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16

// -----

// 1536^3 with B row-major: swapped, 128 rows of N by 144 of M (12 x 11 = 132 tiles)
func.func @wide(%A: memref<1536x1536xbf16>, %B: memref<1536x1536xbf16>, %D: memref<1536x1536xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 144, bk = 64, stages = 5> {swap_ab = true} : memref<1536x1536xbf16>, memref<1536x1536xbf16>, memref<1536x1536xbf16>
  func.return
}
// D's two tensor maps: dimension 0 along D's rows (N = 1536), boxes of 64 columns by 64
// and by 16 of D's rows (144 = 64 + 64 + 16), the 128-byte swizzle
// CHECK: // lower-tc kernel wide: {{.*}}"d_transposed": true
// CHECK-SAME: {"arg": 2, "box": [64, 64], "dtype": "bf16", "global_dims": [1536, 1536], "global_strides": [3072], "param": "tmap_2", "swizzle": "128b", "tma_swizzle_code": 3}
// CHECK-SAME: {"arg": 2, "box": [64, 16], "dtype": "bf16", "global_dims": [1536, 1536], "global_strides": [3072], "param": "tmap_2_16", "swizzle": "128b", "tma_swizzle_code": 3}
// CHECK: epilogue: 128x144xf32 into D (bf16) by stmatrix and TMA stores of transposed pieces (stmatrix.trans) of 64+64+16 rows of D by 64 columns
// the lane's address: ((8 (lane / 16) + lane mod 8) x 128) + ((2 warp + lane / 8 mod 2) ^ lane mod 8) x 16
// CHECK: shr.u32 %[[WARP:r[0-9]+]], %{{r[0-9]+}}, 5;
// CHECK-NEXT: and.b32 %[[LANE:r[0-9]+]], %r0, 31;
// CHECK: and.b32 %[[R:r[0-9]+]], %[[LANE]], 7;
// CHECK-NEXT: shl.b32 %[[R7:r[0-9]+]], %[[R]], 7;
// CHECK-NEXT: and.b32 %[[HI:r[0-9]+]], %[[LANE]], 16;
// CHECK-NEXT: shl.b32 %[[HI6:r[0-9]+]], %[[HI]], 6;
// CHECK-NEXT: or.b32 %[[ROW:r[0-9]+]], %[[R7]], %[[HI6]];
// CHECK-NEXT: shl.b32 %[[W2:r[0-9]+]], %[[WARP]], 1;
// CHECK-NEXT: shr.u32 %[[L3:r[0-9]+]], %[[LANE]], 3;
// CHECK-NEXT: and.b32 %[[LO:r[0-9]+]], %[[L3]], 1;
// CHECK-NEXT: or.b32 %[[C:r[0-9]+]], %[[W2]], %[[LO]];
// CHECK-NEXT: xor.b32 %[[CX:r[0-9]+]], %[[C]], %[[R]];
// CHECK-NEXT: shl.b32 %[[C16:r[0-9]+]], %[[CX]], 4;
// CHECK-NEXT: add.u32 %[[OFF:r[0-9]+]], %[[ROW]], %[[C16]];
// CHECK-NEXT: add.u32 %[[ADDR:r[0-9]+]], %[[OFF]], %{{r[0-9]+}};
// three pieces, an odd number: the first waits for every store (its buffer's and the other's)
// CHECK: cp.async.bulk.wait_group.read 0;
// the j-th 16 rows of a piece are 2048 bytes on, from one address; the pieces start after
// the five 34 KiB stages and their barriers, at 175104
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%[[ADDR]]+175104], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%[[ADDR]]+177152]
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%[[ADDR]]+179200]
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%[[ADDR]]+181248]
// the box at (the warpgroup's first row of D^T = D's column, the tile's column of D^T = D's row)
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%{{rd[0-9]+}}, {%[[COL:r[0-9]+]], %{{r[0-9]+}}}], [%{{r[0-9]+}}+175104];
// CHECK: cp.async.bulk.wait_group.read 1;
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%[[ADDR]]+183296]
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%{{rd[0-9]+}}, {%[[COL]], %{{r[0-9]+}}}], [%{{r[0-9]+}}+183296];
// the 16-row piece: one stmatrix, its own map
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%[[ADDR]]+175104]
// CHECK-NOT: stmatrix
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%{{rd[0-9]+}}, {%[[COL]], %{{r[0-9]+}}}], [%{{r[0-9]+}}+175104];
// CHECK-NOT: st.global

// -----

// a decoding GEMM swapped as asked with TMA stores asked for: the chooser's swapped tile
// (128 rows: 64-row tiles would make 160 CTAs) with as many stages as leave room for two
// warpgroups' staging pieces: 5 of two 128-byte rows of K, where the register epilogue's kernel has 6
func.func @decode_tma(%x: memref<16x8192xbf16>, %W: memref<10240x8192xbf16>, %D: memref<16x10240xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<10240x8192xbf16> to memref<8192x10240xbf16, strided<[1, 8192]>>
  tc.matmul %x, %B to %D {swap_ab = true, epilogue = "tma"} : memref<16x8192xbf16>, memref<8192x10240xbf16, strided<[1, 8192]>>, memref<16x10240xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x16x128, 5 stages (2 warpgroup(s), warp_specialized, raster 8, swapped: D^T = B^T A^T) for 10240x16x8192 (chosen)
// CHECK: // lower-tc kernel decode_tma: {{.*}}"d_transposed": true
// CHECK: transposed pieces (stmatrix.trans) of 16 rows of D by 64 columns
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: stmatrix
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK-NOT: st.global

// -----

// M = 7 with TMA stores asked for: the swapped tile is 16 columns of D^T (not the 8 that
// M needs), the narrowest transposed piece
func.func @narrow(%A: memref<7x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<7x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true, epilogue = "tma"} : memref<7x256xbf16>, memref<256x1024xbf16>, memref<7x1024xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 64x16x128, {{[0-9]+}} stages
// CHECK: // lower-tc kernel narrow: {{.*}}"d_transposed": true
// CHECK: transposed pieces (stmatrix.trans) of 16 rows of D by 64 columns
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group

// -----

// a given 8-column swapped tile is too narrow for the narrowest piece: the error says BN
// is M rounded up
func.func @too_narrow(%A: memref<7x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<7x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 8, bk = 64, stages = 4> {swap_ab = true, epilogue = "tma"} : memref<7x256xbf16>, memref<256x1024xbf16>, memref<7x1024xbf16>
  func.return
}
// CHECK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: BN = 8 (the tile's width along D's rows: swapped, M = 7 rounded up to a wgmma width): the transposed pieces hold 64, 32 and 16 of D's rows, so BN must be a multiple of 16

// -----

// D^T's contiguous extent is D's row: N = 1000 columns of bf16 are 2000 bytes, a whole
// number of 16-byte chunks; C is added in registers: the register epilogue
func.func @with_c(%A: memref<300x1000xbf16>, %B: memref<1000x1000xbf16>, %D: memref<300x1000xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %D config #tc.gemm_config<bm = 128, bn = 144, bk = 64, stages = 4> {swap_ab = true} : memref<300x1000xbf16>, memref<1000x1000xbf16>, memref<300x1000xbf16>, memref<300x1000xbf16>
  func.return
}
// CHECK: // lower-tc kernel with_c: {{.*}}"d_transposed": true
// CHECK-NOT: stmatrix
// CHECK: st.global.b16

// -----

// swap_ab = true without a configuration past a decoding M: the swapped problem's own
// best tile (11008 x 127: 128 x 128 in the 6 stages that leave room for the staging), not
// the decoding swap's 10-stage ring, and D^T stored by TMA
func.func @wide_given(%A: memref<127x4096xbf16>, %B: memref<4096x11008xbf16>, %D: memref<127x11008xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<127x4096xbf16>, memref<4096x11008xbf16>, memref<127x11008xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x128x64, 6 stages (2 warpgroup(s), warp_specialized, raster {{[0-9]+}}, swapped: D^T = B^T A^T) for 11008x127x4096 (chosen)
// CHECK: // lower-tc kernel wide_given: {{.*}}"d_transposed": true
// CHECK: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: st.global

// -----

// the same asking for the register epilogue: the swapped problem's tile, D^T stored from registers
func.func @wide_given_registers(%A: memref<127x4096xbf16>, %B: memref<4096x11008xbf16>, %D: memref<127x11008xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true, epilogue = "registers"} : memref<127x4096xbf16>, memref<4096x11008xbf16>, memref<127x11008xbf16>
  func.return
}
// REMARK: swap-ab-tma.mlir:[[# @LINE - 3]]:3: remark: 128x{{[0-9]+}}x64, {{[0-9]+}} stages (2 warpgroup(s), warp_specialized, raster {{[0-9]+}}, swapped: D^T = B^T A^T) for 11008x127x4096 (chosen)
// CHECK: // lower-tc kernel wide_given_registers: {{.*}}"d_transposed": true
// CHECK-NOT: stmatrix
// CHECK: st.global
