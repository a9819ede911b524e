// Parse and verify errors the driver reports on one line at their place (issue 19): a
// symbol defined twice (at the second definition), nesting deeper than the parser reads, a
// chunk with nothing in it, xDSL's messages with a placeholder left unfilled or a missing
// head, and a verifier reason that xDSL puts on a second line.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

func.func @t() attributes {tc.target = "sm_90a"} {
  func.return
}
func.func @t() attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: {{.*}}parse-errors.mlir:10:1: error: redefinition of symbol "t" (first defined at {{.*}}parse-errors.mlir:7:1){{$}}

// -----

func.func @deep() attributes {tc.target = "sm_90a", x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} {
  func.return
}
// CHECK: {{.*}}parse-errors.mlir:17:120: error: nested too deeply: lower-tc reads at most 64 levels of attributes, types and regions inside each other{{$}}

// -----

// Only a comment in this chunk.
// CHECK: {{.*}}parse-errors.mlir:22:1: error: nothing to compile: the input holds only comments or white space; lower-tc expects a module with a kernel: a func.func with tc.target = "sm_90a" or "sm_100a" (see examples/){{$}}

// -----

func.func @lone_percent(% : memref<4xf32>) attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: {{.*}}parse-errors.mlir:29:25: error: expected a name after '%': digits, or a letter or one of $ . _ - followed by letters, digits and $ . _ -{{$}}

// -----

func.func @options_after_types(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<128x64xbf16>, memref<64x128xbf16>, memref<128x128xf32> {raster = 2}
  func.return
}
// CHECK: {{.*}}parse-errors.mlir:37:90: error: expected an operation or a block label (^name:) here: a '{{[{]}}' after an operation opens its region{{$}}

// -----

func.func @tensor_operand(%A: tensor<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : tensor<128x64xbf16>, memref<64x128xbf16>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}parse-errors.mlir:45:28: error: A is tensor<128x64xbf16>: tc.matmul's operands are memrefs (global memory){{$}}
// CHECK-NOT: {{^}}tensor<128x64xbf16>
