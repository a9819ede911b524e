// The kernel's target: the pass option, else the function's tc.target; both, differing,
// is an error at the function; neither, a remark (an error in lower-tc's default pipeline).
// RUN: lower-tc %s -p convert-linalg-to-tc -t mlir --split-input-file 2>&1 | filecheck %s --check-prefix=NONE
// RUN: lower-tc %s -p 'convert-linalg-to-tc{target=sm_100a}' -t mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: lower-tc %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=DEFAULT
// RUN: not lower-tc %s -p 'convert-linalg-to-tc{target=sm_80}' 2>&1 | filecheck %s --check-prefix=BAD

func.func @plain(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<128x256xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x256xbf16>) outs(%D : memref<128x256xbf16>)
  func.return
}
// NONE: target.mlir:9:3: remark: 'linalg.matmul' is not converted to tc.matmul: no target: give the function tc.target = "sm_90a" (or "sm_100a"), or run convert-linalg-to-tc{target=sm_90a}
// NONE: func.func @plain(
// NONE-NEXT: linalg.matmul
// OPTION-LABEL: func.func @plain(
// OPTION-SAME: attributes {tc.target = "sm_100a"} {
// OPTION-NEXT: tc.matmul %A, %B to %D plus %D
// DEFAULT: target.mlir:9:3: error: 'linalg.matmul' is not converted to tc.matmul: no target: give the function tc.target = "sm_90a" (or "sm_100a"), or run convert-linalg-to-tc{target=sm_90a}
// BAD: lower-tc: error: convert-linalg-to-tc: target=sm_80: unknown target 'sm_80' (known: sm_90a, sm_100a)

// -----

func.func @given(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<128x256xbf16>) attributes {tc.target = "sm_100a"} {
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x256xbf16>) outs(%D : memref<128x256xbf16>)
  func.return
}
// NONE-LABEL: func.func @given(
// NONE-SAME: attributes {tc.target = "sm_100a"} {
// NONE-NEXT: tc.matmul %A, %B to %D plus %D
// OPTION-LABEL: func.func @given(
// OPTION-NEXT: tc.matmul %A, %B to %D plus %D
// DEFAULT: .target sm_100a
// DEFAULT: .entry given(
// DEFAULT: tcgen05.mma

// -----

func.func @conflict(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<128x256xbf16>) attributes {tc.target = "sm_90a"} {
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x256xbf16>) outs(%D : memref<128x256xbf16>)
  func.return
}
// OPTION: target.mlir:38:1: error: the function's tc.target is sm_90a but convert-linalg-to-tc's target is sm_100a: give one, or the same
