// Every diagnostic of tc.matmul and tc-expand-matmul, each located at the op.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @smem(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 256, bn = 256, bk = 64, stages = 4> : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:5:3: error: 4 stages of 256x64 + 256x64 tiles need 262208 bytes of shared memory, more than the 232448 (227 KiB) a block may use{{$}}

// -----

func.func @bm(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 96, bn = 128, bk = 64, stages = 4> : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:13:3: error: BM = 96: wgmma is m64, so BM must be 64, 128, 192 or 256 (one warpgroup per 64 rows){{$}}

// -----

func.func @bn(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 512, bk = 64, stages = 2> : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:21:3: error: BN = 512: one warpgroup's wgmma N must be a multiple of 8 from 8 to 256, or 320 (several wgmmas){{$}}

// -----

func.func @bk(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 24, stages = 4> : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:29:3: error: BK = 24 is not a whole number of 16-element (32-byte) K-slices of bf16{{$}}

// -----

func.func @stages(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 1> : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:37:3: error: 1 stage(s): the pipeline needs at least 2 (one loading while one is read){{$}}

// -----

func.func @ld(%A: memref<64x100xbf16>, %B: memref<100x64xbf16>, %D: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x100xbf16>, memref<100x64xbf16>, memref<64x64xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:45:3: error: A's leading dimension is 200 bytes: TMA needs a multiple of 16{{$}}

// -----

func.func @ldb(%A: memref<64x96xbf16>, %B: memref<96x60xbf16>, %D: memref<64x60xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x96xbf16>, memref<96x60xbf16>, memref<64x60xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:53:3: error: B's leading dimension is 120 bytes: TMA needs a multiple of 16{{$}}

// -----

func.func @acc(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f16 : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:61:3: error: bf16 x bf16 accumulates in f32, not f16{{$}}

// -----

func.func @fp8_mn(%A: memref<64x64xf8E4M3FN>, %B: memref<64x64xf8E4M3FN>, %D: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>, memref<64x64xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:69:3: error: wgmma (sm_90a) cannot transpose e4m3: MN-major operands must be one of bf16, f16; store the tile K-major (B is row-major, so its tiles would be MN-major){{$}}

// -----

func.func @k(%A: memref<64x64xbf16>, %B: memref<32x64xbf16>, %D: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<32x64xbf16>, memref<64x64xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:77:3: error: A is 64x64 but B is 32x64: their K differ{{$}}

// -----

func.func @dtype(%A: memref<64x64xsi8>, %B: memref<64x64xsi8, strided<[1, 64]>>, %D: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xsi8>, memref<64x64xsi8, strided<[1, 64]>>, memref<64x64xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:85:3: error: an s32 accumulator is stored as s32, not bf16 (D){{$}}

// -----

func.func @mixed(%A: memref<64x64xbf16>, %B: memref<64x64xf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xf16>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:93:3: error: wgmma cannot multiply bf16 by f16{{$}}

// -----

func.func @c_shape(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>, %C: memref<64x32xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>, memref<64x32xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:101:3: error: C must have D's shape{{$}}

// -----

func.func @d_col(%A: memref<?x64xbf16>, %B: memref<64x64xbf16>, %D: memref<?x64xf32, strided<[1, ?]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<?x64xbf16>, memref<64x64xbf16>, memref<?x64xf32, strided<[1, ?]>>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:109:3: error: D must be row-major (the default layout or strided<[ld, 1]>) with sizes or a leading dimension known only at launch: a column-major one is a single matrix of sizes known at compile time{{$}}

// -----

func.func @two(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:118:3: error: one tc.matmul per kernel: each matmul is a kernel of its own{{$}}

// -----

func.func @beside(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:126:3: error: 'tc.smem_tile' beside tc.matmul: a matmul kernel holds the matmul alone (and tc.transpose views of its arguments){{$}}

// -----

func.func @types(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:136:3: error: expected 3 types (A, B, D){{$}}

// -----

func.func @badcfg(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.layout<k> : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:143:47: error: expected #tc.gemm_config<bm = .., bn = .., bk = .., stages = ..>{{$}}

// -----

func.func @sm100(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 2> : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:151:3: error: BM = 64: the tcgen05 GEMM runs one M = 128 MMA per K-slice, so BM is 128{{$}}

// -----

func.func @short_ld(%A: memref<64x64xbf16, strided<[32, 1]>>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16, strided<[32, 1]>>, memref<64x64xbf16>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:159:3: error: A has a leading dimension of 32, less than its contiguous extent 64{{$}}

// -----

func.func @dyn_ld(%A: memref<?x?xbf16, strided<[?, 2]>>, %B: memref<?x?xbf16>, %D: memref<?x?xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<?x?xbf16, strided<[?, 2]>>, memref<?x?xbf16>, memref<?x?xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:167:3: error: A has strides [?, 2]; it must be row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>){{$}}

// -----

// Sizes: each of M, N and K at least 1, each size and every coordinate the kernel computes
// within its 32-bit registers (layout/limits.py MAX_INDEX).
func.func @m_zero(%A: memref<0x64xbf16>, %B: memref<64x64xbf16>, %D: memref<0x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<0x64xbf16>, memref<64x64xbf16>, memref<0x64xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: M is 0: tc.matmul multiplies matrices of at least one row, column and K element (M, N, K >= 1){{$}}

// -----

func.func @n_zero(%A: memref<64x64xbf16>, %B: memref<64x0xbf16>, %D: memref<64x0xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x0xbf16>, memref<64x0xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: N is 0: tc.matmul multiplies matrices of at least one row, column and K element (M, N, K >= 1){{$}}

// -----

func.func @k_past_32_bits(%A: memref<128x4294967296xbf16>, %B: memref<4294967296x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x4294967296xbf16>, memref<4294967296x128xbf16>, memref<128x128xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: A's column count is 4294967296: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

func.func @m_past_32_bits(%A: memref<4294967296x128xbf16>, %B: memref<128x128xbf16>, %D: memref<4294967296x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4294967296x128xbf16>, memref<128x128xbf16>, memref<4294967296x128xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: A's row count is 4294967296: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// M fits, but the last tile's rows run past 2^31 - 1 (tc-expand-matmul, with the configuration).
func.func @m_tiles_past_32_bits(%A: memref<2147483647x128xbf16>, %B: memref<128x128xbf16>, %D: memref<2147483647x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> : memref<2147483647x128xbf16>, memref<128x128xbf16>, memref<2147483647x128xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: M = 2147483647 rounded up to whole 128-element tiles is 2147483648: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// D's rows are stepped by its leading dimension in bytes, a 32-bit immediate.
func.func @d_pitch(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %D: memref<128x128xf32, strided<[536870912, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x128xbf16>, memref<128x128xbf16>, memref<128x128xf32, strided<[536870912, 1]>>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: D's row pitch (536870912 elements) in bytes is 2147483648: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// TMA's global strides are below 2^40 bytes.
func.func @ld_past_tma(%A: memref<256x256xbf16, strided<[1099511627776, 1]>>, %B: memref<256x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<256x256xbf16, strided<[1099511627776, 1]>>, memref<256x256xbf16>, memref<256x256xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: A's leading dimension is 2199023255552 bytes: TMA takes strides below 2^40 bytes{{$}}

// -----

func.func @shared_space(%A: memref<256x256xbf16, 3>, %B: memref<256x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<256x256xbf16, 3>, memref<256x256xbf16>, memref<256x256xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: A is in memory space 3: lower-tc's operands are global memory (a memref with no memory space); shared memory is a tc.smem_tile's{{$}}

// -----

// raster: at most 2^31 - 1 (at the entry), and a group's tiles must be countable in 32 bits.
func.func @raster_past_32_bits(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {raster = 1099511627776} : memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:27: error: raster is a group size of tile rows, 0 (none) to 2147483647, not 1099511627776{{$}}

// -----

func.func @raster_group_past_32_bits(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {raster = 2147483647} : memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: raster = 2147483647 makes groups of 2147483647 x 16 tiles, more than the 2147483647 the kernel's 32-bit index arithmetic counts; a raster of 32 (every tile row) already makes one group{{$}}

// -----

// Operand types: f32 is read as tf32, which the memrefs say.
func.func @f32_operands(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x128xf32>, memref<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: the tensor cores read f32 operands as tf32 (10 mantissa bits): declare A and B as tf32 memrefs (memref<...xtf32>, the same 4-byte elements) to multiply them so{{$}}

// -----

func.func @s32_operands(%A: memref<128x128xi32>, %B: memref<128x128xi32>, %D: memref<128x128xi32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x128xi32>, memref<128x128xi32>, memref<128x128xi32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.matmul multiplies f16, bf16, tf32, e4m3, e5m2, s8, u8, not s32{{$}}

// -----

// 4- and 6-bit types: TMA would need a padded tensor-map type lower-tc does not emit
// (with a configuration or without: the chooser's choices fail too).
func.func @e2m1(%A: memref<256x256xf4E2M1FN>, %B: memref<256x256xf4E2M1FN, strided<[1, 256]>>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 64, bk = 128, stages = 2> : memref<256x256xf4E2M1FN>, memref<256x256xf4E2M1FN, strided<[1, 256]>>, memref<256x256xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.matmul does not take e2m1: its tiles are TMA loads, and TMA copies of e2m1 tiles need the padded 16U4_ALIGN16B tensor-map type, which lower-tc does not emit yet; multiply 4- and 6-bit types in a single-tile tcgen05 kernel whose tiles are filled by thread copies (examples/tcgen05_e2m1.mlir){{$}}

// -----

func.func @e2m3(%A: memref<256x256xf6E2M3FN>, %B: memref<256x256xf6E2M3FN, strided<[1, 256]>>, %D: memref<256x256xf32>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D : memref<256x256xf6E2M3FN>, memref<256x256xf6E2M3FN, strided<[1, 256]>>, memref<256x256xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.matmul does not take e2m3: its tiles are TMA loads, and TMA copies of e2m3 tiles need the padded 16U6_ALIGN16B tensor-map type, which lower-tc does not emit yet; multiply 4- and 6-bit types in a single-tile tcgen05 kernel whose tiles are filled by thread copies (examples/tcgen05_e2m1.mlir){{$}}

// -----

// Operands are memrefs: a tensor is refused at its type.
func.func @tensor_operand(%A: tensor<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : tensor<256x256xbf16>, memref<256x256xbf16>, memref<256x256xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:28: error: A is tensor<256x256xbf16>: tc.matmul's operands are memrefs (global memory){{$}}

// -----

// CUDA's grid: row order (raster = 0) puts the tile rows on y, at most 65535 blocks.
func.func @raster0_grid_y(%A: memref<8388736x64xbf16>, %B: memref<64x64xbf16>, %D: memref<8388736x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {raster = 0} : memref<8388736x64xbf16>, memref<64x64xbf16>, memref<8388736x64xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: raster = 0 puts the 65537 tile rows (M = 8388736 in 128-row tiles) on the grid's y, and CUDA launches at most 65535 blocks along y; a raster of 1 or more (or none given: the default) walks the tiles on a 1-d grid{{$}}

// -----

// The grouped order numbers every tile on x (and in a 32-bit register).
func.func @grouped_grid_x(%A: memref<1073741824x64xbf16>, %B: memref<64x268435456xbf16>, %D: memref<1073741824x268435456xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> : memref<1073741824x64xbf16>, memref<64x268435456xbf16>, memref<1073741824x268435456xf32>
  func.return
}
// CHECK: matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: 8388608 x 1048576 = 8796093022208 tiles: the grouped order numbers every tile on the grid's x, and CUDA launches (and the kernel counts) at most 2147483647{{$}}

// -----

// A column-major D's columns are added to a row's address as 32-bit immediates: 64 columns
// 2^28 bytes apart are past them.
func.func @d_col_wide(%A: memref<200x256xbf16>, %B: memref<256x136xbf16>, %D: memref<200x136xf32, strided<[1, 67108864]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 64, bn = 64, bk = 64, stages = 4> {swap_ab = false} : memref<200x256xbf16>, memref<256x136xbf16>, memref<200x136xf32, strided<[1, 67108864]>>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: a column-major D or C whose columns are 268435456 bytes apart: 64 of them are past a store's 32-bit offset{{$}}

// -----

// a 320-wide tile is two wgmmas of 160 accumulator registers: four consumer warpgroups of
// it would not fit the SM's registers
func.func @bn_320_bm_256(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 256, bn = 320, bk = 64, stages = 2> : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: BN = 320 holds 160 accumulator registers a thread: at most 2 consumer warpgroups (BM <= 128), not 4{{$}}

// -----

// four consumer warpgroups (BM = 256) leave each thread 96 registers under the
// warp-specialised kernel's cap at entry; an m64n192 wgmma holds 96 and ptxas needs 122
// (the fuzzer found ptxas refusing it: an s8 GEMM, seed 101)
func.func @registers_ws(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 256, bn = 192, bk = 64, stages = 2> {schedule = "warp_specialized"} : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: BM = 256 and BN = 192 (warp-specialised: ptxas compiles it under the cap at entry): 4 consumer warpgroups leave each thread 96 registers, and a wgmma of 96 accumulator registers needs about 122 (ptxas); take BN at most 128, or fewer rows{{$}}

// -----

// the one-loop kernel: 512 threads leave each 128 registers; m64n256 needs 154
func.func @registers_pipelined(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %D: memref<1024x1024xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 256, bn = 256, bk = 64, stages = 2> {schedule = "pipelined"} : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xf32>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:[[# @LINE - 3]]:3: error: BM = 256 and BN = 256 (pipelined: the SM's registers over its threads): 4 consumer warpgroups leave each thread 128 registers, and a wgmma of 128 accumulator registers needs about 154 (ptxas); take BN at most 192, or fewer rows{{$}}
