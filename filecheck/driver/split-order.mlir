// --split-input-file --verify-diagnostics: each chunk's output, program or diagnostic,
// comes in the chunk's place, as with xdsl-opt, so CHECK-NEXT can pin the order.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-choose-swizzle -t mlir | filecheck %s

func.func @first() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}

// -----

func.func @second() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<k, swizzle = 64b>>
  func.return
}

// -----

func.func @third() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}

// CHECK:      func.func @first()
// CHECK:      // -----
// CHECK-NEXT: {{.*}}split-order.mlir:13:{{[0-9]+}}: error: {{.+}}
// CHECK-NEXT: // -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @third()
