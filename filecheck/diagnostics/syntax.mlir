// Errors in the syntax of #tc.layout and of the tc types, reported at the offending
// token. --parsing-diagnostics and --verify-diagnostics both print them.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s
// RUN: lower-tc %s --split-input-file --parsing-diagnostics -t mlir | filecheck %s

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 96b>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:7:68: error: unknown swizzle mode '96b' (known: none, 32b, 64b, 128b, 128b_base32b){{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128bytes>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:15:68: error: unknown swizzle mode '128bytes' (known: none, 32b, 64b, 128b, 128b_base32b){{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128, offset = 0>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:23:71: error: identifier expected (a swizzle unit: b or b_base32b){{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = wide>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:31:68: error: Expected integer literal (a swizzle: auto, none, 32b, ...){{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<km, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:39:55: error: Expected one of 'k', 'mn' (the major-ness: k or mn){{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, swizzle = 64b>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:47:74: error: 'swizzle' given twice{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, order = k_first, strides = [1024, 8192]>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:55:97: error: give either an atom order or explicit strides, not both{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, colour = 1>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:63:58: error: Expected one of 'offset', 'order', 'origin', 'strides', 'swizzle'{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, order = diagonal>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:71:66: error: Expected one of 'k_first', 'mn_first'{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, strides = [1024]>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:79:44: error: strides takes two byte strides: [along MN, along K]{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, offset = -1024>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:87:58: error: offset must be a non-negative byte offset{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64x2xbf16, #tc.layout<k>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:95:44: error: expected a 2-d shape, got 3 dimensions{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, 128>
  func.return
}
// CHECK: {{.*}}syntax.mlir:103:47: error: expected a #tc.layout<...> attribute{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xf32, #tc.layout<k>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:111:23: error: f32 is an accumulator type, not a tile element type{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xf64, #tc.layout<k>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:119:23: error: element type f64 is not a tensor-core operand or accumulator type{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_zero : !tc.acc<64x64xbf16>
  func.return
}
// CHECK: {{.*}}syntax.mlir:127:24: error: accumulators are f32, f16 or s32 (i32), not bf16{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_zero : !tc.acc<64x64xi16>
  func.return
}
// CHECK: {{.*}}syntax.mlir:135:24: error: element type i16 is not a tensor-core operand or accumulator type{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_zero : !tc.acc<64xf32>
  func.return
}
// CHECK: {{.*}}syntax.mlir:143:38: error: expected a 2-d shape, got 1 dimensions{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<d, m16n16k16, f32>
  func.return
}
// CHECK: {{.*}}syntax.mlir:151:37: error: Expected one of 'a', 'b', 'c' (a WMMA fragment role){{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32, diagonal>
  func.return
}
// CHECK: {{.*}}syntax.mlir:159:56: error: Expected one of 'col', 'row'{{$}}

// -----

// -1 is how the IR marks "not assigned yet" internally; written, it is an error.
func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, offset = -1>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:168:58: error: offset must be a non-negative byte offset{{$}}

// -----

func.func @k() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, origin = -128>>
  func.return
}
// CHECK: {{.*}}syntax.mlir:176:74: error: origin must be a non-negative byte offset{{$}}
