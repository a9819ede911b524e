// The TMA-store epilogue (passes/to_ptx/gemm/epilogue_tma.py): each consumer warpgroup
// stmatrixes its accumulator into two 64x64 staging pieces (128-byte swizzle, after the
// ring and its barriers) and one thread of it stores each piece with a TMA store; the
// register epilogue where asked for or where D does not allow TMA; every diagnostic.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @staged(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {persistent = true} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xbf16>
  func.return
}
// D's tensor map: dimension 0 along D's rows, a 64x64 box, the 128-byte swizzle; the four
// 48 KiB stages end at 196608, their barriers at 196672, the pieces start at 197632.
// CHECK: // lower-tc kernel staged: {{.*}}"smem_bytes": 230400,{{.*}}{"arg": 2, "box": [64, 64], "dtype": "bf16", "global_dims": [512, 256], "global_strides": [1024], "param": "tmap_2", "swizzle": "128b", "tma_swizzle_code": 3}
// CHECK: .param .align 64 .b8 tmap_2[128]
// CHECK: mov.b64 %rd[[MAP:[0-9]+]], tmap_2;
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: // epilogue: 128x256xf32 into D (bf16) by stmatrix and TMA stores of 64x64 pieces
// a lane's row: (lane mod 16) + 16 x warp, 128 bytes each; its chunk (lane / 16) ^ (lane mod 8) ^ 2j
// CHECK: and.b32 %r{{[0-9]+}}, %r0, 15;
// CHECK: and.b32 %r[[LO:[0-9]+]], %r0, 7;
// CHECK-NEXT: xor.b32 %r[[PH:[0-9]+]], %r{{[0-9]+}}, %r[[LO]];
// CHECK: xor.b32 %r{{[0-9]+}}, %r[[PH]], 2;
// CHECK: xor.b32 %r{{[0-9]+}}, %r[[PH]], 4;
// CHECK: xor.b32 %r{{[0-9]+}}, %r[[PH]], 6;
// CHECK: cp.async.bulk.wait_group.read 1;
// CHECK: bar.sync %r[[BAR:[0-9]+]], 128;
// CHECK: cvt.rn.bf16x2.f32
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+197632]
// CHECK-COUNT-3: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+197632]
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync %r[[BAR]], 128;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd[[MAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+197632];
// CHECK-NEXT: cp.async.bulk.commit_group;
// the second piece goes to the other buffer, 8192 bytes on
// CHECK: cp.async.bulk.wait_group.read 1;
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+205824]
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd[[MAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+205824];
// CHECK: $L_for_3_end:
// CHECK: cp.async.bulk.wait_group 0;
// CHECK-NEXT: $L_stores_done
// CHECK-NOT: st.global

// -----

// BN = 176, not a multiple of 64 (a tile as wide as makes whole waves): two 64-column
// pieces, then one of 32 columns (64-byte rows, the 64-byte swizzle) and one of 16 (the
// 32-byte swizzle), each width its own tensor map; the narrow pieces' chunks XOR the row's
// address bits from 7 up (row / 2 mod 4, row / 4 mod 2: layout/epilogue.py)
func.func @narrow(%A: memref<256x512xbf16>, %B: memref<512x352xbf16, strided<[1, 512]>>, %D: memref<256x352xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 176, bk = 64, stages = 4> {persistent = true} : memref<256x512xbf16>, memref<512x352xbf16, strided<[1, 512]>>, memref<256x352xbf16>
  func.return
}
// CHECK: // lower-tc kernel narrow: {{.*}}{"arg": 2, "box": [64, 64], "dtype": "bf16", "global_dims": [352, 256], "global_strides": [704], "param": "tmap_2", "swizzle": "128b", "tma_swizzle_code": 3}, {"arg": 2, "box": [32, 64], "dtype": "bf16", "global_dims": [352, 256], "global_strides": [704], "param": "tmap_2_32", "swizzle": "64b", "tma_swizzle_code": 2}, {"arg": 2, "box": [16, 64], "dtype": "bf16", "global_dims": [352, 256], "global_strides": [704], "param": "tmap_2_16", "swizzle": "32b", "tma_swizzle_code": 1}]
// CHECK: mov.b64 %rd[[M64:[0-9]+]], tmap_2;
// CHECK: mov.b64 %rd[[M32:[0-9]+]], tmap_2_32;
// CHECK: mov.b64 %rd[[M16:[0-9]+]], tmap_2_16;
// CHECK: // epilogue: 128x176xf32 into D (bf16) by stmatrix and TMA stores of 64-row pieces 64+64+32+16 columns wide
// CHECK: shl.b32 %r[[ROW64:[0-9]+]], %r[[ROW:[0-9]+]], 7;
// CHECK: and.b32 %r{{[0-9]+}}, %r0, 7;
// CHECK: shl.b32 %r{{[0-9]+}}, %r[[ROW]], 6;
// CHECK: shr.u32 %r[[R2:[0-9]+]], %r[[ROW]], 1;
// CHECK-NEXT: and.b32 %r{{[0-9]+}}, %r[[R2]], 3;
// CHECK: shl.b32 %r{{[0-9]+}}, %r[[ROW]], 5;
// CHECK: shr.u32 %r[[R4:[0-9]+]], %r[[ROW]], 2;
// CHECK-NEXT: and.b32 %r{{[0-9]+}}, %r[[R4]], 1;
// CHECK-COUNT-4: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+[[BUF0:[0-9]+]]]
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd[[M64]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+[[BUF0]]];
// CHECK-COUNT-4: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+[[BUF1:[0-9]+]]]
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd[[M64]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+[[BUF1]]];
// the 32-column piece: two stmatrix.x4, back in the first buffer
// CHECK: cp.async.bulk.wait_group.read 1;
// CHECK-COUNT-2: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+[[BUF0]]]
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd[[M32]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+[[BUF0]]];
// the 16-column piece: one
// CHECK: cp.async.bulk.wait_group.read 1;
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+[[BUF1]]]
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd[[M16]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}+[[BUF1]]];
// CHECK-NOT: st.global

// -----

// BN = 144: three pieces (64 + 64 + 16), an odd number, so a tile's last piece and the next
// tile's first both use buffer 0: the first piece waits for every store of the tile before
// (wait_group.read 0), the others for all but the last
func.func @odd_pieces(%A: memref<512x512xbf16>, %B: memref<512x1152xbf16, strided<[1, 512]>>, %D: memref<512x1152xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 144, bk = 64, stages = 4> {persistent = true} : memref<512x512xbf16>, memref<512x1152xbf16, strided<[1, 512]>>, memref<512x1152xbf16>
  func.return
}
// CHECK: // epilogue: 128x144xf32 into D (bf16) by stmatrix and TMA stores of 64-row pieces 64+64+16 columns wide
// CHECK: // piece 0: its buffer's last store has read it
// CHECK-NEXT: cp.async.bulk.wait_group.read 0;
// CHECK: // piece 1: its buffer's last store has read it
// CHECK-NEXT: cp.async.bulk.wait_group.read 1;
// CHECK: // piece 2: its buffer's last store has read it
// CHECK-NEXT: cp.async.bulk.wait_group.read 1;

// -----

func.func @registers(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {epilogue = "registers", persistent = true} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel registers: {{.*}}"smem_bytes": 196672,
// CHECK-NOT: stmatrix
// CHECK: st.global.b32

// -----

// f32 D: the register epilogue, without a word
func.func @f32_d(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {persistent = true} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xf32>
  func.return
}
// CHECK: // lower-tc kernel f32_d:
// CHECK-NOT: stmatrix
// CHECK: st.global.v2.f32

// -----

func.func @f32_d_tma(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {epilogue = "tma", persistent = true} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xf32>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: D is f32: stmatrix stores 16-bit elements (bf16 or f16)

// -----

func.func @with_c(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xbf16>, %C: memref<256x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {epilogue = "tma", persistent = true} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xbf16>, memref<256x512xbf16>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: C is added in registers (the register epilogue)

// -----

func.func @unaligned(%A: memref<256x512xbf16>, %B: memref<512x100xbf16, strided<[104, 1]>>, %D: memref<256x100xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {epilogue = "tma", persistent = true} : memref<256x512xbf16>, memref<512x100xbf16, strided<[104, 1]>>, memref<256x100xbf16>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: D's leading dimension is 200 bytes: TMA needs a multiple of 16

// -----

// D's leading dimension is aligned (208 bytes) but its rows are not: a TMA store would write
// the padding columns with the last 16-byte chunk of each row
func.func @ragged_rows(%A: memref<256x512xbf16>, %B: memref<512x100xbf16, strided<[104, 1]>>, %D: memref<256x100xbf16, strided<[104, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {epilogue = "tma", persistent = true} : memref<256x512xbf16>, memref<512x100xbf16, strided<[104, 1]>>, memref<256x100xbf16, strided<[104, 1]>>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: D's rows are 200 bytes: a TMA store writes whole 16-byte chunks at a row's end, so N x 2 must be a multiple of 16

// -----

// a column-major D (a transposed view): its columns are the contiguous runs, M = 100 of
// them 200 bytes, whatever its leading dimension (208 bytes)
func.func @ragged_columns(%A: memref<100x512xbf16>, %B: memref<512x256xbf16>, %Dt: memref<256x100xbf16, strided<[104, 1]>>) attributes {tc.target = "sm_90a"} {
  %D = tc.transpose %Dt : memref<256x100xbf16, strided<[104, 1]>> to memref<100x256xbf16, strided<[1, 104]>>
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {epilogue = "tma"} : memref<100x512xbf16>, memref<512x256xbf16>, memref<100x256xbf16, strided<[1, 104]>>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: D is column-major (a transposed view, as swap-AB stores D^T) and its columns are 200 bytes: a TMA store writes whole 16-byte chunks at a column's end, so M x 2 must be a multiple of 16

// -----

// the same without asking: the register epilogue, guarded at column 100
func.func @ragged_rows_auto(%A: memref<256x512xbf16>, %B: memref<512x100xbf16, strided<[104, 1]>>, %D: memref<256x100xbf16, strided<[104, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {persistent = true} : memref<256x512xbf16>, memref<512x100xbf16, strided<[104, 1]>>, memref<256x100xbf16, strided<[104, 1]>>
  func.return
}
// CHECK: // lower-tc kernel ragged_rows_auto:
// CHECK-NOT: stmatrix
// CHECK: st.global.b32

// -----

func.func @no_room(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 7> {epilogue = "tma"} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xbf16>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: the stages leave 2048 bytes of shared memory and the staging pieces need 32768

// -----

func.func @bad_name(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %D: memref<256x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {epilogue = "fast"} : memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xbf16>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:27: error: epilogue is one of tma, registers, not fast{{$}}

// -----

// BN = 88: a stmatrix.x4 writes 16 columns, the narrowest piece
func.func @bn88(%A: memref<256x512xbf16>, %B: memref<512x480xbf16>, %D: memref<256x480xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 88, bk = 64, stages = 4> {epilogue = "tma"} : memref<256x512xbf16>, memref<512x480xbf16>, memref<256x480xbf16>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: BN = 88: the TMA-store epilogue stores pieces of 64, 32 and 16 columns, so BN must be a multiple of 16

// -----

func.func @dynamic(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {epilogue = "tma"} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  func.return
}
// CHECK: epilogue-tma.mlir:[[# @LINE - 3]]:3: error: the TMA-store epilogue cannot store this D: D's sizes are known only at launch (the TMA store's tensor map is fixed at compile time)
