// -o FILE writes the output there (and nothing on stdout); when compilation fails it
// writes nothing at all: no partial or empty file is left behind.
// RUN: rm -f %t.ptx %t.bad
// RUN: lower-tc %s -o %t.ptx > %t.stdout
// RUN: filecheck %s --input-file %t.ptx
// RUN: test ! -s %t.stdout
// RUN: lower-tc %s -t mlir -o %t.mlir
// RUN: filecheck %s --input-file %t.mlir --check-prefix=IR
// RUN: not lower-tc %S/Inputs/bad.mlir -o %t.bad 2>&1 | filecheck %s --check-prefix=BAD
// RUN: test ! -e %t.bad
// A failing chunk spoils the whole file: the good chunk is not written either.
// RUN: not lower-tc %S/Inputs/good-then-bad.mlir --split-input-file -o %t.bad 2>&1 | filecheck %s --check-prefix=MIXED
// RUN: test ! -e %t.bad
// An existing output file is left as it was.
// RUN: not lower-tc %S/Inputs/bad.mlir -o %t.ptx
// RUN: filecheck %s --input-file %t.ptx

func.func @written(%D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
// CHECK: .version 8.0
// CHECK: .target sm_90a
// CHECK: .visible .entry written(
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.global.f32
// IR: "ptx.kernel"() <{sym_name = "written"
// BAD: {{.*}}bad.mlir:4:3: error: a wgmma accumulator has M = 64 (one warpgroup's registers), not 32{{$}}
// BAD-NOT: Traceback

// MIXED: {{.*}}good-then-bad.mlir:12:23: error: K extent 48 is not a whole number of 64b K-major atoms (8x32 bf16 elements, 32 along K){{$}}
