// Accumulators are checked where they are made: a wgmma accumulator is one warpgroup's
// M = 64 register fragment, a tcgen05 one M = 64 or 128 rows of tensor memory, and N is
// what the MMA instructions allow (the fragment and tensor-memory stores assume it).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

func.func @wgmma_m128(%D: memref<128x64xf32>) attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  tc.acc_store %acc to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:7:3: error: a wgmma accumulator has M = 64 (one warpgroup's registers), not 128{{$}}

// -----

// N = 12 would store columns 12-15 past each row of D.
func.func @wgmma_n12(%D: memref<64x12xf32>) attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_zero : !tc.acc<64x12xf32>
  tc.acc_store %acc to %D : !tc.acc<64x12xf32>, memref<64x12xf32>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:17:3: error: an accumulator's N must be a multiple of 8 from 8 to 256, not 12{{$}}

// -----

func.func @wgmma_s32_n40(%C: memref<64x40xi32>) attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_load %C : memref<64x40xi32> -> !tc.acc<64x40xi32>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:26:3: error: an accumulator's N must be 8, 16, 24, then multiples of 16 from 8 to 256, not 40{{$}}

// -----

// M = 32 would be laid out as layout F and written 64 rows deep.
func.func @tcgen05_m32(%D: memref<32x8xf32>) attributes {tc.target = "sm_100a"} {
  %acc = tc.acc_zero : !tc.acc<32x8xf32>
  tc.acc_store %acc to %D : !tc.acc<32x8xf32>, memref<32x8xf32>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:35:3: error: a tcgen05 accumulator has M = 64 or 128 (tensor-memory lanes), not 32{{$}}

// -----

func.func @tcgen05_f16_n4(%D: memref<128x4xf16>) attributes {tc.target = "sm_100a"} {
  %acc = tc.acc_zero : !tc.acc<128x4xf16>
  tc.acc_store %acc to %D : !tc.acc<128x4xf16>, memref<128x4xf16>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:44:3: error: an accumulator's N must be a multiple of 8 from 8 to 256, not 4{{$}}

// -----

// TMA writes shared memory at 128-byte-aligned addresses (a 16-byte-aligned destination faults).
func.func @tma_offset_16(%A: memref<64x16xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = none, offset = 16>>
  tc.copy %A to %a as a via tma : memref<64x16xbf16>, !tc.tile<64x16xbf16, #tc.layout<k, swizzle = none, offset = 16>>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:55:3: error: TMA writes shared memory at 128-byte-aligned addresses: the tile's offset 16 is not a multiple of 128 (docs/base-offset.md){{$}}

// -----

func.func @tma_stride_272(%A: memref<64x16xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = none, strides = [272, 128]>>
  tc.copy %A to %a as a via tma : memref<64x16xbf16>, !tc.tile<64x16xbf16, #tc.layout<k, swizzle = none, strides = [272, 128]>>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:64:3: error: TMA writes shared memory at 128-byte-aligned addresses: the tile's atom stride along MN 272 is not a multiple of 128 (docs/base-offset.md){{$}}

// -----

// Every kernel's target is checked, also one with WMMA ops only.
func.func @wmma_sm_103a(%D: memref<16x16xf32>) attributes {tc.target = "sm_103a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
// CHECK: {{.*}}accumulators.mlir:72:1: error: lower-tc compiles kernels for sm_90a, sm_100a; sm_103a is known to the descriptor tools (lower-tc desc) only{{$}}
