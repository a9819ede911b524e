// A pipeline that lacks a pass: the first pass (or the PTX printer) that cannot work on
// what it finds names the pass to add, at the op that shows it
// (dialects/pass_order.py). Each RUN line leaves out another pass.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-lower-to-ptx -t mlir | filecheck %s --check-prefix=LOWER
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-expand-matmul,tc-compute-descriptors -t mlir | filecheck %s --check-prefix=DESCS
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-lower-to-ptx -t mlir | filecheck %s --check-prefix=NODESCS
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx | filecheck %s --check-prefix=LOOPS
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors | filecheck %s --check-prefix=UNLOWERED
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=EXPAND

// A whole GEMM.
func.func @gemm(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<256x128xbf16>, memref<128x256xbf16>, memref<256x256xbf16>
  func.return
}
// tc-lower-to-ptx alone: tc.matmul is still there.
// LOWER: {{.*}}missing-pass.mlir:[[# @LINE - 4]]:3: error: 'tc.matmul' is not expanded to the loop level at tc-lower-to-ptx: run tc-expand-matmul first{{$}}
// tc-expand-matmul made the loop level, whose rings' swizzles are still auto.
// DESCS: {{.*}}missing-pass.mlir:[[# @LINE - 6]]:3: error: the tile's swizzle is still auto at tc-compute-descriptors: run tc-choose-swizzle first{{$}}
// The rings are placed, the loop's MMA has no descriptors.
// NODESCS: {{.*}}missing-pass.mlir:[[# @LINE - 8]]:3: error: 'tc.wgmma' has no descriptors at tc-lower-to-ptx: run tc-compute-descriptors first{{$}}
// Lowered, but the K loop is still an scf.for when the PTX is printed.
// LOOPS: {{.*}}missing-pass.mlir:[[# @LINE - 10]]:3: error: 'scf.for' inside ptx.kernel at PTX printing: run ptx-lower-loops first{{$}}
// Not lowered at all when the PTX is printed: at the kernel.
// UNLOWERED: {{.*}}missing-pass.mlir:[[# @LINE - 13]]:1: error: this kernel is still tc IR at PTX printing: run tc-lower-to-ptx first{{$}}
// EXPAND: scf.for

// -----

// Two kernels: the first lacks only its descriptors, the second a swizzle. The error names
// the pass that comes first in the pipeline (tc-choose-swizzle), though its op comes later.
func.func @placed(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 8192>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 8192>>, !tc.acc<64x64xf32>
  func.return
}
func.func @unchosen() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// LOWER: {{.*}}missing-pass.mlir:[[# @LINE - 3]]:3: error: the tile's swizzle is still auto at tc-lower-to-ptx: run tc-choose-swizzle first{{$}}

// -----

// A linalg contraction inside a kernel reaches lower-tc's passes unconverted.
func.func @linalg(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %D: memref<128x128xf16>) attributes {tc.target = "sm_90a"} {
  linalg.matmul ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%D : memref<128x128xf16>)
  func.return
}
// LOWER: {{.*}}missing-pass.mlir:[[# @LINE - 3]]:3: error: 'linalg.matmul' in a kernel at tc-lower-to-ptx: run convert-linalg-to-tc first (it converts linalg contractions to tc.matmul, and says in a remark why it leaves one){{$}}
// EXPAND: {{.*}}missing-pass.mlir:[[# @LINE - 4]]:3: error: 'linalg.matmul' in a kernel at tc-expand-matmul: run convert-linalg-to-tc first (it converts linalg contractions to tc.matmul, and says in a remark why it leaves one){{$}}

// -----

// linalg outside every kernel (host code) is not lower-tc's: the passes leave it alone.
func.func @host(%A: memref<4x4xf32>, %B: memref<4x4xf32>, %D: memref<4x4xf32>) {
  linalg.matmul ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) outs(%D : memref<4x4xf32>)
  func.return
}
// EXPAND-LABEL: func.func @host
// EXPAND-NEXT: linalg.matmul
