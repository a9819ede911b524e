// tc-lower-to-ptx pipelines a loop-level GEMM's K loop, an scf.for in the kernel's body:
// passes that unroll loops or turn them into branches go after ptx-lower-loops (which makes
// the kernels' branches), and before tc-lower-to-ptx they get an error that says so
// (rather than one about single-tile accumulators).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx -p tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,convert-scf-to-cf,tc-lower-to-ptx,ptx-lower-loops | filecheck %s --check-prefix=CF
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx -p tc-expand-matmul,tc-choose-swizzle,scf-for-loop-unroll,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,ptx-lower-loops | filecheck %s --check-prefix=UNROLL
// After ptx-lower-loops they change nothing in the kernels:
// RUN: lower-tc %s --split-input-file -t ptx -p tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,ptx-lower-loops,convert-scf-to-cf,scf-for-loop-unroll | filecheck %s --check-prefix=AFTER

// sm_90a: the accumulator's verifier finds the loop gone (M = 128 is a GEMM's, not a single tile's).
func.func @gemm_sm90(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %D: memref<512x512xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> : memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xf32>
  func.return
}
// CF: loop-order-diagnostics.mlir:[[# @LINE - 3]]:3: error: this kernel is a loop-level GEMM (it has tc.window_load/tc.window_store) whose K loop is no longer an scf.for in its body: tc-lower-to-ptx pipelines that scf.for, so run scf-for-loop-unroll or convert-scf-to-cf after ptx-lower-loops, not before{{$}}
// UNROLL: loop-order-diagnostics.mlir:[[# @LINE - 4]]:3: error: this kernel is a loop-level GEMM (it has tc.window_load/tc.window_store) whose K loop is no longer an scf.for in its body: tc-lower-to-ptx pipelines that scf.for, so run scf-for-loop-unroll or convert-scf-to-cf after ptx-lower-loops, not before{{$}}
// AFTER: .visible .entry gemm_sm90(

// -----

// sm_100a: a loop gone is found at the kernel (its M = 128 accumulator is also a single tile's).
func.func @gemm_sm100(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %D: memref<512x512xf32>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D : memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xf32>
  func.return
}
// CF: loop-order-diagnostics.mlir:[[# @LINE - 4]]:1: error: @gemm_sm100 carries tc.target but its body has 4 blocks: a kernel's body is one block, its loops scf.for (run scf-for-loop-unroll or convert-scf-to-cf after ptx-lower-loops, not before){{$}}
// UNROLL: loop-order-diagnostics.mlir:[[# @LINE - 5]]:1: error: this kernel is a loop-level GEMM (it has tc.window_load/tc.window_store) whose K loop is no longer an scf.for in its body: tc-lower-to-ptx pipelines that scf.for, so run scf-for-loop-unroll or convert-scf-to-cf after ptx-lower-loops, not before{{$}}
// AFTER: .visible .entry gemm_sm100(
