// Verifier errors of tiles (layout rules of the layout core), copies and accumulators.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

func.func @not_whole_atoms() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<k, swizzle = 64b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:5:23: error: K extent 48 is not a whole number of 64b K-major atoms (8x32 bf16 elements, 32 along K){{$}}

// -----

// An auto tile must still be whole atoms of the narrowest mode (8 rows of 16 bytes).
func.func @auto_not_whole_atoms() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<60x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:14:23: error: MN extent 60 is not a whole number of none K-major atoms (8x8 bf16 elements, 8 along MN){{$}}

// -----

func.func @mn_not_whole_atoms() attributes {tc.target = "sm_100a"} {
  %b = tc.smem_tile : !tc.tile<96x16xbf16, #tc.layout<mn, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:22:23: error: MN extent 96 is not a whole number of 128b MN-major atoms (64x8 bf16 elements, 64 along MN){{$}}

// -----

func.func @misaligned_swizzled() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 64>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:30:23: error: tile start 0x40 is not 128-byte aligned (swizzled tiles are read right only from 128-byte-aligned starts, see docs/base-offset.md){{$}}

// -----

func.func @misaligned_plain() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none, offset = 8>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:38:23: error: tile start 0x8 is not 16-byte aligned (descriptors address 16-byte chunks){{$}}

// -----

func.func @base32b_k_major() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b_base32b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:46:23: error: swizzle 128b_base32b (32-byte atomicity) exists only for MN-major operands{{$}}

// -----

func.func @stride_not_multiple() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, strides = [1040, 8320]>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:54:23: error: atom stride along MN (1040 bytes) must be a non-negative multiple of 128 bytes for 128b layouts{{$}}

// -----

func.func @atoms_overlap() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xbf16, #tc.layout<k, swizzle = 128b, strides = [1024, 1024]>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:62:23: error: atom strides (1024, 1024) make 1024-byte atoms overlap{{$}}

// -----

func.func @beyond_window() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<256x128xbf16, #tc.layout<k, swizzle = 128b, offset = 200704>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:70:23: error: tile ends at 0x41000, beyond the 256 KiB shared-memory window a descriptor can address{{$}}

// -----

func.func @beyond_capacity() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<256x128xbf16, #tc.layout<k, swizzle = 128b, offset = 196608>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:78:3: error: tile needs shared memory up to 262144 bytes, beyond the 232448 bytes (227 KiB) a block may use{{$}}

// -----

func.func @copy_shape_a(%A: memref<64x32xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x32xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:87:3: error: operand a reads a M x K matrix: expected memref 64x64 for a 64x64 tile, got 64x32{{$}}

// -----

// B is K x N in global memory: a 64x32 (N x K) tile reads a 32x64 matrix.
func.func @copy_shape_b(%B: memref<64x32xbf16>) attributes {tc.target = "sm_90a"} {
  %b = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x32xbf16>, !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:97:3: error: operand b reads a K x N matrix: expected memref 32x64 for a 64x32 tile, got 64x32{{$}}

// -----

func.func @copy_type(%A: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:106:3: error: element types differ: memref f16, tile bf16{{$}}

// -----

func.func @copy_f64(%A: memref<64x64xf64>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xf64>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:115:3: error: element type f64 is not a tensor-core operand or accumulator type{{$}}

// -----

func.func @copy_3d(%A: memref<64x64x1xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64x1xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:124:3: error: the copy's source must be a 2-d memref{{$}}

// -----

func.func @copy_dynamic(%A: memref<?x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<?x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:133:3: error: the copy's source needs a static shape{{$}}

// -----

// TMA copies rows as they are in global memory: a row-major A (M x K) lands K-major only.
func.func @tma_transpose_a(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a via tma : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:143:3: error: TMA cannot transpose: operand a's global matrix is contiguous along K, so its tile must be k-major for a TMA copy; store it column-major or copy via threads{{$}}

// -----

// ... and a row-major B (K x N) lands N-major only.
func.func @tma_transpose_b(%B: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b via tma : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:153:3: error: TMA cannot transpose: operand b's global matrix is contiguous along N, so its tile must be mn-major for a TMA copy; store it column-major or copy via threads{{$}}

// -----

func.func @acc_load_shape(%C: memref<64x32xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.acc_load %C : memref<64x32xf32> -> !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}tiles.mlir:161:3: error: C is 64x32 but the accumulator is 64x64{{$}}

// -----

func.func @acc_load_type(%C: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  %c = tc.acc_load %C : memref<64x64xf16> -> !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}tiles.mlir:169:3: error: C holds f16 but the accumulator is f32{{$}}

// -----

func.func @acc_store_shape(%D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.acc_zero : !tc.acc<64x32xf32>
  tc.acc_store %c to %D : !tc.acc<64x32xf32>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}tiles.mlir:178:3: error: D is 64x64 but the accumulator is 64x32{{$}}

// -----

func.func @acc_store_type(%D: memref<64x64xi32>) attributes {tc.target = "sm_90a"} {
  %c = tc.acc_zero : !tc.acc<64x64xf32>
  tc.acc_store %c to %D : !tc.acc<64x64xf32>, memref<64x64xi32>
  func.return
}
// CHECK: {{.*}}tiles.mlir:187:3: error: D holds s32 but the accumulator is f32{{$}}

// -----

func.func @acc_store_1d(%D: memref<4096xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.acc_zero : !tc.acc<64x64xf32>
  tc.acc_store %c to %D : !tc.acc<64x64xf32>, memref<4096xf32>
  func.return
}
// CHECK: {{.*}}tiles.mlir:196:3: error: D must be a 2-d memref{{$}}

// -----

// 128b_base32b has no K-major form.
func.func @base32b_k() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 128b_base32b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:205:{{[0-9]+}}: error: swizzle 128b_base32b (32-byte atomicity) exists only for MN-major operands{{$}}

// -----

// A swizzle origin counts whole 128-byte rows.
func.func @origin_unaligned() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1024, origin = 64>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:214:{{[0-9]+}}: error: swizzle origin 0x40 is not 128-byte aligned; the descriptor's base offset counts whole 128-byte rows{{$}}

// -----

// TMA writes data swizzled on absolute address bits: no origin.
func.func @tma_origin(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152, origin = 1152>>
  tc.copy %A to %a as a via tma : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152, origin = 1152>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:224:{{[0-9]+}}: error: TMA swizzles on absolute address bits: a tile with a swizzle origin must be copied via threads{{$}}

// -----

// A copy's source needs strides known at compile time.
func.func @dyn_strides(%A: memref<64x64xbf16, strided<[?, 1]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  tc.copy %A to %a as a : memref<64x64xbf16, strided<[?, 1]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:234:{{[0-9]+}}: error: the copy's source needs static strides{{$}}

// -----

// Tile shapes are positive ...
func.func @zero_shape() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<0x64xbf16, #tc.layout<k, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:243:{{[0-9]+}}: error: tile shape 0x64 must be positive{{$}}

// -----

// ... and static.
func.func @dyn_shape() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<?x64xbf16, #tc.layout<k, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:252:{{[0-9]+}}: error: the shape must be static (no '?'): descriptors are fixed at compile time{{$}}

// -----

// stages (a ring of buffers) is a declared property of tc.smem_tile: an integer, checked
// where it is parsed, from 1 to 16, checked by the verifier.
func.func @stages_range() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 17} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:[[# @LINE - 3]]:3: error: stages is an integer from 1 to 16: tc.smem_tile {stages = 4} : ...{{$}}

// -----

func.func @stages_string() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = "4"} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:[[# @LINE - 3]]:21: error: stages is an integer (the ring's buffers, 1 to 16), not "4"{{$}}

// -----

func.func @stages_bool() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = true} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tiles.mlir:[[# @LINE - 3]]:21: error: stages is an integer (the ring's buffers, 1 to 16), not true{{$}}
