// Diagnostics of the online softmax's ops, tc.acc_mask and !tc.rows, each located: an accumulator that is
// not f32 (its 64-row wgmma fragment), a scale that is not a finite number above 0, a fill
// of +inf, rows of 64 on sm_100a (its tcgen05 accumulators have 128), a !tc.rows of other than 64 rows or of another type, a mask of nothing
// or at a negative position, a log-sum-exp column that is not 64 x 1 f32.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @f16_acc(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %z = tc.acc_zero : !tc.acc<64x64xf16>
  %m = tc.rows_fill -inf : !tc.rows<64xf32>
  %m1 = tc.acc_row_max %z, %m scale 0.125 : !tc.acc<64x64xf16>, !tc.rows<64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_row_max works on a wgmma accumulator of 64 rows in f32, not 64x64xf16{{$}}

// -----

func.func @zero_scale(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %z = tc.acc_zero : !tc.acc<64x64xf32>
  %m = tc.rows_fill -inf : !tc.rows<64xf32>
  %p = tc.acc_exp %z, %m scale 0.0 : !tc.acc<64x64xf32>, !tc.rows<64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: the softmax scale is a finite number above 0, not 0.0{{$}}

// -----

func.func @plus_inf(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %m = tc.rows_fill 1.0e+39 : !tc.rows<64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:21: error: tc.rows_fill fills with -inf or a finite f32, not 1e+39 (beyond f32's largest){{$}}

// -----

func.func @blackwell(%O: memref<64x64xf32>) attributes {tc.target = "sm_100a"} {
  %m = tc.rows_fill -inf : !tc.rows<64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_fill on sm_100a: a !tc.rows has one value per row of a tcgen05 accumulator, 128 rows, not 64{{$}}

// -----

func.func @f16_div(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %z = tc.acc_zero : !tc.acc<64x64xf16>
  %l = tc.rows_fill 0.0 : !tc.rows<64xf32>
  %o = tc.acc_row_div %z, %l : !tc.acc<64x64xf16>, !tc.rows<64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_row_div works on a wgmma accumulator of 64 rows in f32, not 64x64xf16{{$}}

// -----

func.func @rows32(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %m = tc.rows_fill 0.0 : !tc.rows<32xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: !tc.rows has one value per row of a wgmma accumulator: 64 rows, or 128, 192, 256 in an attention loop (64 a warpgroup), not 32{{$}}

// -----

func.func @rows_f16(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %m = tc.rows_fill 0.0 : !tc.rows<64xf16>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: !tc.rows holds f32, not f16{{$}}

// -----

func.func @mask_nothing(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %z = tc.acc_zero : !tc.acc<64x64xf32>
  %t = tc.acc_mask %z {first_query = 0, first_key = 64} : !tc.acc<64x64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_mask masks nothing: give keys (the keys' count) or causal (the offset), or both{{$}}

// -----

func.func @mask_negative(%O: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %z = tc.acc_zero : !tc.acc<64x64xf32>
  %t = tc.acc_mask %z {first_query = 0, first_key = -64, keys = 8} : !tc.acc<64x64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: first_key is 0 to 1073741824, not -64{{$}}

// -----

func.func @lse_row(%L: memref<1x64xf32>) attributes {tc.target = "sm_90a"} {
  %l = tc.rows_fill 0.0 : !tc.rows<64xf32>
  tc.rows_store %l to %L : !tc.rows<64xf32>, memref<1x64xf32>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_store writes a 64 x 1 column, not 1x64{{$}}

// -----

func.func @lse_f16(%L: memref<64x1xf16>) attributes {tc.target = "sm_90a"} {
  %l = tc.rows_fill 0.0 : !tc.rows<64xf32>
  tc.rows_store %l to %L : !tc.rows<64xf32>, memref<64x1xf16>
  func.return
}
// CHECK: online-softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_store writes f32, not f16{{$}}
