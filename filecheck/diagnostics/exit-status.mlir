// Without --verify-diagnostics an error goes to stderr as FILE:LINE:COL: error: MSG,
// the exit status is non-zero, nothing is printed on stdout (not even the chunks that
// compiled), and there is no Python traceback.
// RUN: not lower-tc %s --split-input-file -t mlir > %t.out 2> %t.err
// RUN: filecheck %s --input-file %t.err
// RUN: test ! -s %t.out
// The same for the default PTX output.
// RUN: not lower-tc %s --split-input-file 2>&1 | filecheck %s

// CHECK-NOT: Traceback
// CHECK-NOT: Error

// A kernel that compiles.
func.func @fine(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %d to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}

// -----

// A parse error.
func.func @parse() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 96b>>
  func.return
}
// CHECK: {{.*}}exit-status.mlir:29:68: error: unknown swizzle mode '96b' (known: none, 32b, 64b, 128b, 128b_base32b){{$}}

// -----

// A verifier error.
func.func @verify() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<40x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x48xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<40x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x48xf32>
  func.return
}
// CHECK-NEXT: {{.*}}exit-status.mlir:41:3: error: the accumulator is 64x48 but A x B is 64x40{{$}}

// -----

// A pass error.
func.func @pass() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1024>>
  func.return
}
// CHECK-NEXT: {{.*}}exit-status.mlir:51:3: error: pinned tile [1024, 9216) overlaps the tile at [0, 8192){{$}}
// CHECK-NOT: {{.}}
