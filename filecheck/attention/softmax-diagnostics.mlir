// Diagnostics of tc.acc_softmax, each located: a scale that is not a finite number above 0,
// an accumulator that is not f32 (its 64-row wgmma fragment), sm_100a's accumulator that no
// tcgen05.mma wrote (attention-tcgen05-diagnostics.mlir has the others), a loop-level GEMM
// kernel, a negative scale.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s
func.func @zero_scale(%Q: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_softmax %s scale 0.0 : !tc.acc<64x64xf32>
  func.return
}
// CHECK: softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: the softmax scale is a finite number above 0, not 0.0{{$}}

// -----

func.func @f16_acc(%Q: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xf16>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf16>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf16>
  %p = tc.acc_softmax %s scale 0.5 : !tc.acc<64x64xf16>
  func.return
}
// CHECK: softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_softmax works on a wgmma accumulator of 64 rows in f32, not 64x64xf16{{$}}

// -----

func.func @sm100(%D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %p = tc.acc_softmax %zero scale 0.5 : !tc.acc<128x64xf32>
  func.return
}
// CHECK: softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_softmax on sm_100a takes a tc.tcgen05_mma's result (S in tensor memory){{$}}

// -----

func.func @in_loop_s(%D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
  }
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %p = tc.acc_softmax %zero scale 0.5 : !tc.acc<64x64xf32>
  func.return
}
// CHECK: softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_softmax is for single-tile kernels and attention loops (whose scf.for carries a !tc.rows){{$}}

// -----

func.func @negative_scale(%D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %p = tc.acc_softmax %zero scale -0.5 : !tc.acc<64x64xf32>
  func.return
}
// CHECK: softmax-diagnostics.mlir:[[# @LINE - 3]]:3: error: the softmax scale is a finite number above 0, not -0.5{{$}}
