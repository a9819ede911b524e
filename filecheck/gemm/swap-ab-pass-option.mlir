// swap_ab = true under `tc-expand-matmul{epilogue=tma}`: swapped as asked, with as many
// stages as leave room for the staging pieces, and D^T stored in transposed pieces
// (swap-ab-tma.mlir); left to the chooser, the same op is not swapped (its decoding swap
// was sized and measured for the register epilogue), unless the op itself asks for the
// register epilogue: the op's options win over the pass's.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p 'tc-expand-matmul{epilogue=tma}' -t mlir | filecheck %s
// RUN: lower-tc %s --split-input-file -p 'tc-expand-matmul{epilogue=tma},tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,ptx-lower-loops' -t ptx | filecheck %s --check-prefix=PTX

func.func @told_tma(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK-LABEL: func.func @told_tma(
// CHECK: %D_t = tc.transpose %D
// CHECK: tc.window_store %result to %D_t[%m0, %n0]
// PTX: // lower-tc kernel told_tma: {{.*}}"d_transposed": true
// PTX: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16

// -----

func.func @chosen(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK-LABEL: func.func @chosen(
// CHECK-NOT: tc.transpose
// CHECK: tc.window_store %result to %D[%m0, %n0]

// -----

func.func @op_registers(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {epilogue = "registers"} : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK-LABEL: func.func @op_registers(
// CHECK: %D_t = tc.transpose %D
// CHECK: tc.window_store %result to %D_t[%m0, %n0]
// PTX: // lower-tc kernel op_registers: {{.*}}"d_transposed": true
// PTX-NOT: stmatrix
// PTX: st.global
