// Verifier errors about global operands: their memref layouts (row- or column-major with
// a leading dimension), and what TMA, accumulators and WMMA need of them.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

// A column-major B (K x N stored K-contiguous) lands K-major by TMA, and a padded
// leading dimension is fine: no error here.
func.func @tma_col_major_b(%B: memref<64x32xbf16, strided<[1, 72]>>) attributes {tc.target = "sm_90a"} {
  %b = tc.smem_tile : !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b via tma : memref<64x32xbf16, strided<[1, 72]>>, !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// The column-major B's tensor map: dimension 0 is K (contiguous), rows of 72 bf16 = 144 bytes.
// CHECK: "ptx.kernel"() <{sym_name = "tma_col_major_b"
// CHECK-SAME: \22global_dims\22: [64, 32], \22global_strides\22: [144]

// -----

// ... but not MN-major.
func.func @tma_col_major_b_mn(%B: memref<64x32xbf16, strided<[1, 64]>>) attributes {tc.target = "sm_90a"} {
  %b = tc.smem_tile : !tc.tile<32x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %B to %b as b via tma : memref<64x32xbf16, strided<[1, 64]>>, !tc.tile<32x64xbf16, #tc.layout<mn, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:21:3: error: TMA cannot transpose: operand b's global matrix is contiguous along K, so its tile must be k-major for a TMA copy; store it row-major or copy via threads{{$}}

// -----

// TMA strides are multiples of 16 bytes: a leading dimension of 68 bf16 is 136 bytes.
func.func @tma_ld_not_16(%A: memref<64x64xbf16, strided<[68, 1]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a via tma : memref<64x64xbf16, strided<[68, 1]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:31:3: error: TMA needs a leading dimension of a multiple of 16 bytes, not 136{{$}}

// -----

func.func @ld_too_small(%A: memref<64x64xbf16, strided<[32, 1]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16, strided<[32, 1]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:40:3: error: the copy's source has strides [32, 1]; it must be row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>) with a leading dimension of at least its contiguous extent{{$}}

// -----

func.func @no_unit_stride(%A: memref<64x64xbf16, strided<[128, 2]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16, strided<[128, 2]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:49:3: error: the copy's source has strides [128, 2]; it must be row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>) with a leading dimension of at least its contiguous extent{{$}}

// -----

func.func @offset(%A: memref<64x64xbf16, strided<[64, 1], offset: 8>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16, strided<[64, 1], offset: 8>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:58:3: error: the copy's source needs offset 0 in its strided layout{{$}}

// -----

func.func @affine(%A: memref<64x64xbf16, affine_map<(d0, d1) -> (d1, d0)>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16, affine_map<(d0, d1) -> (d1, d0)>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:67:3: error: the copy's source must be row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>), not affine_map<(d0, d1) -> (d1, d0)>{{$}}

// -----

// Accumulators are written row by row from the fragment: C and D are dense row-major.
func.func @acc_col_major(%D: memref<64x64xf32, strided<[1, 64]>>) attributes {tc.target = "sm_90a"} {
  %c = tc.acc_zero : !tc.acc<64x64xf32>
  tc.acc_store %c to %D : !tc.acc<64x64xf32>, memref<64x64xf32, strided<[1, 64]>>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:77:3: error: D must be dense and row-major (the default memref layout){{$}}

// -----

// WMMA's own row/col says how a fragment is stored; its memref is row-major.
func.func @wmma_col_major(%A: memref<16x16xf16, strided<[1, 16]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<16x16xf16, strided<[1, 16]>> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}global-layouts.mlir:86:3: error: the wmma load's memref must be row-major: the fragment's row/col layout says how the matrix is stored, the memref's row stride is the wmma stride{{$}}

// -----

// A padded row-major memref: the WMMA stride is its leading dimension (48), whose
// 96 bytes are a multiple of the 32-byte fragment.
func.func @wmma_padded(%A: memref<16x16xf16, strided<[48, 1]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<16x16xf16, strided<[48, 1]>> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// Each chunk's output (program or diagnostic) comes in its place, as with xdsl-opt.
// CHECK: "ptx.kernel"() <{sym_name = "wmma_padded"
// CHECK: "ptx.wmma_load"({{.*}}) <{role = "a", layout = "row", shape = "m16n16k16", type = "f16", stride = 48 : i64}>
// CHECK-NOT: error

