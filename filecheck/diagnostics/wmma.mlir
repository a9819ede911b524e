// Verifier errors of the WMMA path: fragment types, loads, stores and tc.wmma_mma.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

func.func @shape(%A: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 0] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k32, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:5:54: error: unknown WMMA shape m16n16k32 (known: m16n16k16, m32n8k16, m8n32k16, m16n16k8){{$}}

// -----

func.func @type(%A: memref<16x32xtf32>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 0] : memref<16x32xtf32> -> !tc.wmma_frag<a, m16n16k16, tf32, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:13:55: error: wmma m16n16k16 takes f16, bf16, s8, u8 operands, not tf32{{$}}

// -----

func.func @nolayout(%A: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 0] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16>
  func.return
}
// CHECK: {{.*}}wmma.mlir:21:54: error: a and b fragments need a layout (row or col); c fragments none{{$}}

// -----

func.func @clayout() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:29:23: error: a and b fragments need a layout (row or col); c fragments none{{$}}

// -----

func.func @cbf16() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, bf16>
  func.return
}
// CHECK: {{.*}}wmma.mlir:37:23: error: wmma m16n16k16 has no bf16 c fragment{{$}}

// -----

func.func @role() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<d, m16n16k16, f32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:45:37: error: Expected one of 'a', 'b', 'c' (a WMMA fragment role){{$}}

// -----

func.func @zero_a() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:53:3: error: tc.wmma_zero makes an accumulator (c) fragment{{$}}

// -----

func.func @stride(%A: memref<16x20xf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 0] : memref<16x20xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:61:3: error: wmma stride of 20 f16 elements is 40 bytes, not a multiple of the 32-byte fragment (PTX ISA: every row start must be aligned to the fragment size){{$}}

// -----

func.func @align(%A: memref<16x48xf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 8] : memref<16x48xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:69:3: error: wmma load at [0, 8] starts at byte 16, not aligned to the 32-byte fragment{{$}}

// -----

func.func @bounds(%A: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 32] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:77:3: error: a 16x16 a fragment at [0, 32] does not fit the 16x32 memref{{$}}

// -----

func.func @offs(%A: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:85:3: error: offsets are [row, col]{{$}}

// -----

func.func @memtype(%A: memref<16x32xbf16>) attributes {tc.target = "sm_90a"} {
  %a0 = tc.wmma_load %A[0, 0] : memref<16x32xbf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:93:3: error: the memref holds bf16 but the fragment is f16{{$}}

// -----

func.func @roles(%A: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %d = tc.wmma_mma %a, %a, %c : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:103:3: error: tc.wmma_mma takes a, b and c fragments and gives a c fragment{{$}}

// -----

func.func @shapes(%A: memref<32x32xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<32x32xf16> -> !tc.wmma_frag<a, m32n8k16, f16, row>
  %b = tc.wmma_load %A[0, 0] : memref<32x32xf16> -> !tc.wmma_frag<b, m16n16k16, f16, row>
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m32n8k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, row>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:114:3: error: fragments of different shapes: m16n16k16, m32n8k16{{$}}

// -----

func.func @types(%A: memref<32x32xf16>, %B: memref<32x32xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<32x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b = tc.wmma_load %B[0, 0] : memref<32x32xbf16> -> !tc.wmma_frag<b, m16n16k16, bf16, row>
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, bf16, row>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:125:3: error: wmma cannot multiply f16 by bf16{{$}}

// -----

func.func @acc(%B: memref<32x32xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %B[0, 0] : memref<32x32xbf16> -> !tc.wmma_frag<a, m16n16k16, bf16, row>
  %b = tc.wmma_load %B[0, 0] : memref<32x32xbf16> -> !tc.wmma_frag<b, m16n16k16, bf16, row>
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f16>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m16n16k16, bf16, row>, !tc.wmma_frag<b, m16n16k16, bf16, row>, !tc.wmma_frag<c, m16n16k16, f16> -> !tc.wmma_frag<c, m16n16k16, f16>
  func.return
}
// CHECK: {{.*}}wmma.mlir:136:3: error: wmma with bf16 accumulates in f32, not f16{{$}}

// -----

func.func @res(%B: memref<32x32xsi8>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %B[0, 0] : memref<32x32xsi8> -> !tc.wmma_frag<a, m16n16k16, si8, row>
  %b = tc.wmma_load %B[0, 0] : memref<32x32xsi8> -> !tc.wmma_frag<b, m16n16k16, si8, row>
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, i32>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m16n16k16, si8, row>, !tc.wmma_frag<b, m16n16k16, si8, row>, !tc.wmma_frag<c, m16n16k16, i32> -> !tc.wmma_frag<c, m16n16k16, f32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:147:3: error: the result fragment must have the accumulator's type{{$}}

// -----

func.func @store(%D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[8, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:156:3: error: a 16x16 c fragment at [8, 0] does not fit the 16x16 memref{{$}}

// -----

func.func @storecol(%D: memref<16x8xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[0, 0] col : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x8xf32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:165:3: error: a 16x16 c fragment at [0, 0] does not fit the 16x8 memref{{$}}

// -----

func.func @neg(%D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[-1, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:174:3: error: a 16x16 c fragment at [-1, 0] does not fit the 16x16 memref{{$}}

// -----

// m16n16k8 (tf32) accumulates in f32 only: there is no f16 c fragment.
func.func @tf32_c_f16() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k8, f16>
  func.return
}
// CHECK: {{.*}}wmma.mlir:183:23: error: wmma m16n16k8 has no f16 c fragment{{$}}

// -----

// A col-layout A fragment reads its storage transposed: a 16x32 (K x M) block at [0, 32] does not fit.
func.func @col_bounds(%At: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %At[0, 32] : memref<16x32xf16> -> !tc.wmma_frag<a, m32n8k16, f16, col>
  func.return
}
// CHECK: {{.*}}wmma.mlir:192:3: error: a 16x32 a fragment at [0, 32] does not fit the 16x32 memref{{$}}

// -----

// A c fragment is loaded row-major: its 8x32 block does not fit an 8x16 memref.
func.func @c_load(%C: memref<8x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_load %C[0, 0] : memref<8x16xf32> -> !tc.wmma_frag<c, m8n32k16, f32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:201:3: error: a 8x32 c fragment at [0, 0] does not fit the 8x16 memref{{$}}

// -----

func.func @memref_1d(%A: memref<512xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<512xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: {{.*}}wmma.mlir:209:3: error: the wmma load's memref must be a 2-d memref{{$}}

// -----

// f16 inputs may accumulate in f16 or f32, and give either; nothing else.
func.func @f16_result_i32(%A: memref<16x16xf16>, %B: memref<16x16xf16>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %a = tc.wmma_load %A[0, 0] : memref<16x16xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b = tc.wmma_load %B[0, 0] : memref<16x16xf16> -> !tc.wmma_frag<b, m16n16k16, f16, col>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, col>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, i32>
  func.return
}
// CHECK: {{.*}}wmma.mlir:221:3: error: wmma with f16 gives f32 or f16 results, not s32{{$}}
