// tc.transpose: its type, what tc-expand-matmul and the GEMM lowering take of it, each
// refusal located at the op.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @wrong_type(%A: memref<64x128xbf16>) {
  %At = tc.transpose %A : memref<64x128xbf16> to memref<128x64xbf16>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:6:3: error: the transpose of memref<64x128xbf16> is memref<128x64xbf16, strided<[1, 128]>>, not memref<128x64xbf16>

// -----

func.func @vector(%A: memref<64xbf16>) {
  %At = tc.transpose %A : memref<64xbf16> to memref<64xbf16>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:14:3: error: tc.transpose views a matrix, a batch of matrices or a batch of batches (2 to 4 dimensions), not 1

// -----

func.func @affine(%A: memref<64x128xbf16, affine_map<(i, j) -> (j, i)>>) {
  %At = tc.transpose %A : memref<64x128xbf16, affine_map<(i, j) -> (j, i)>> to memref<128x64xbf16>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:22:3: error: a memref of layout affine_map<(d0, d1) -> (d1, d0)> cannot be transposed: give it the default or a strided layout

// -----

// D may be a view (the kernel stores D^T into its argument), but a column-major D is one matrix.
func.func @view_as_d(%A: memref<2x128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<2x128x128xf32>) attributes {tc.target = "sm_90a"} {
  %Dt = tc.transpose %D : memref<2x128x128xf32> to memref<2x128x128xf32, strided<[16384, 1, 128]>>
  tc.matmul %A, %B to %Dt : memref<2x128x64xbf16>, memref<64x128xbf16>, memref<2x128x128xf32, strided<[16384, 1, 128]>>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:32:3: error: D must be row-major (the default layout or strided<[sb, ld, 1]>) with a batch: a column-major one is a single matrix of sizes known at compile time

// -----

func.func @view_of_a_view(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a"} {
  %At = tc.transpose %A : memref<128x64xbf16> to memref<64x128xbf16, strided<[1, 64]>>
  %Att = tc.transpose %At : memref<64x128xbf16, strided<[1, 64]>> to memref<128x64xbf16, strided<[64, 1]>>
  tc.matmul %Att, %B to %D : memref<128x64xbf16, strided<[64, 1]>>, memref<64x128xbf16>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:41:3: error: tc.transpose beside tc.matmul views a kernel argument (not another view)

// -----

// The loop level written by hand: its windows may read a view of an argument, not of a view.
func.func @loop_view_of_a_view(%A: memref<64x128xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xf32>) attributes {tc.target = "sm_90a", tc.grid = [1 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<pipelined>} {
  %At = tc.transpose %A : memref<64x128xbf16> to memref<128x64xbf16, strided<[1, 128]>>
  %Att = tc.transpose %At : memref<128x64xbf16, strided<[1, 128]>> to memref<64x128xbf16, strided<[128, 1]>>
  %Attt = tc.transpose %Att : memref<64x128xbf16, strided<[128, 1]>> to memref<128x64xbf16, strided<[1, 128]>>
  %a = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %b = tc.smem_tile {stages = 2 : i64} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %bm = arith.constant 128 : index
  %bn = arith.constant 128 : index
  %m0 = arith.muli %by, %bm : index
  %n0 = arith.muli %bx, %bn : index
  %c0 = arith.constant 0 : index
  %k_end = arith.constant 64 : index
  %bk = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %result = scf.for %k = %c0 to %k_end step %bk iter_args(%acc = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %Attt[%m0, %k] to %a as a : memref<128x64xbf16, strided<[1, 128]>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    tc.window_load %B[%k, %n0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %next = tc.wgmma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %next : !tc.acc<128x128xf32>
  }
  tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x128xf32>, memref<128x128xf32>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:52:3: error: tc.transpose views a kernel argument in a GEMM kernel (not another view)

// -----

// A single-tile kernel copies its arguments as they are declared.
func.func @single_tile(%A: memref<64x64xbf16>, %B: memref<64x128xbf16>, %D: memref<64x128xf32>) attributes {tc.target = "sm_90a"} {
  %At = tc.transpose %A : memref<64x64xbf16> to memref<64x64xbf16, strided<[1, 64]>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  tc.acc_store %acc to %D : !tc.acc<64x128xf32>, memref<64x128xf32>
  func.return
}
// CHECK: {{.*}}transpose-diagnostics.mlir:81:3: error: 'tc.transpose' cannot be lowered to PTX
