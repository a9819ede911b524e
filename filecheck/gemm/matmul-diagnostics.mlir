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
// CHECK: {{.*}}matmul-diagnostics.mlir:21:3: error: BN = 512: one warpgroup's wgmma N must be a multiple of 8 from 8 to 256{{$}}

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

func.func @d_col(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32, strided<[1, 64]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32, strided<[1, 64]>>
  func.return
}
// CHECK: {{.*}}matmul-diagnostics.mlir:109:3: error: D must be row-major (the default layout or strided<[ld, 1]>){{$}}

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
// CHECK: {{.*}}matmul-diagnostics.mlir:126:3: error: 'tc.smem_tile' beside tc.matmul: a matmul kernel holds the matmul alone{{$}}

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
