// swap_ab = true under `tc-expand-matmul{epilogue=tma}`: the pass's TMA stores cannot store
// D^T (a column-major D), so the op's request is refused at the op; left to the chooser,
// the same op is not swapped.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p 'tc-expand-matmul{epilogue=tma}' -t mlir | filecheck %s

func.func @told_tma(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK: swap-ab-pass-option.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB stores D^T from registers (the pass is told epilogue=tma){{$}}

// -----

func.func @chosen(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK-LABEL: func.func @chosen(
// CHECK-NOT: tc.transpose
// CHECK: tc.window_store %result to %D[%m0, %n0]
