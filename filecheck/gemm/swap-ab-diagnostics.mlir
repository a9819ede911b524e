// swap_ab = true where the swapped kernel cannot be built: each refusal at the op.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-expand-matmul -t mlir | filecheck %s

func.func @batch(%A: memref<4x16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<4x16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<4x16x256xbf16>, memref<256x1024xbf16>, memref<4x16x1024xbf16>
  func.return
}
// CHECK: swap-ab-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB takes one matrix (D^T of a batch is not a view the epilogue stores){{$}}

// -----

func.func @dynamic(%A: memref<?x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<?x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<?x256xbf16>, memref<256x1024xbf16>, memref<?x1024xbf16>
  func.return
}
// CHECK: swap-ab-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB needs M, N and K known at compile time (D^T is stored with its leading dimension as an immediate){{$}}

// -----

func.func @pair(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true, schedule = "warp_specialized", cluster = 2} : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK: swap-ab-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB does not go with cluster = 2 (the pairs share B's loads, which swapped are the activations){{$}}

// -----

func.func @sm100(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16>
  func.return
}
// CHECK: swap-ab-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB is built for sm_90a's wgmma kernels{{$}}

// -----

// sizes known, D's leading dimension not: D^T would be a column-major D known only at launch
func.func @dynamic_ld(%A: memref<16x256xbf16>, %B: memref<256x1024xbf16>, %D: memref<16x1024xbf16, strided<[?, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {swap_ab = true} : memref<16x256xbf16>, memref<256x1024xbf16>, memref<16x1024xbf16, strided<[?, 1]>>
  func.return
}
// CHECK: swap-ab-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: the swapped op D^T = B^T A^T does not verify: D must be row-major (the default layout or strided<[ld, 1]>) with sizes or a leading dimension known only at launch: a column-major one is a single matrix of sizes known at compile time{{$}}

// -----

// a view beside tc.matmul that something else reads
func.func @view_used(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %Dt = tc.transpose %D : memref<128x128xf32> to memref<128x128xf32, strided<[1, 128]>>
  %c0 = arith.constant 0 : index
  %n = memref.dim %Dt, %c0 : memref<128x128xf32, strided<[1, 128]>>
  tc.matmul %A, %B to %D : memref<128x64xbf16>, memref<64x128xbf16>, memref<128x128xf32>
  func.return
}
// CHECK: swap-ab-diagnostics.mlir:[[# @LINE - 4]]:3: error: a tc.transpose view beside tc.matmul is one of its operands{{$}}
