// What convert-linalg-to-tc leaves as it is, each with a located remark saying why (the
// IR printed after the remarks keeps the linalg op); with strict=true, each is an
// error, as in lower-tc's default pipeline.
// RUN: lower-tc %s -p 'convert-linalg-to-tc{target=sm_90a}' -t mlir --split-input-file -o %t.mlir 2>&1 | filecheck %s
// RUN: filecheck %s --check-prefix=KEPT < %t.mlir
// RUN: not lower-tc %s -p 'convert-linalg-to-tc{target=sm_90a strict=true}' -t mlir --split-input-file 2>&1 | filecheck %s --check-prefix=STRICT

#id = affine_map<(m, n) -> (m, n)>
func.func @elementwise(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A, %B : memref<128x128xbf16>, memref<128x128xbf16>) outs(%D : memref<128x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %d: bf16):
    %s = arith.addf %a, %b : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK: remarks.mlir:10:3: remark: 'linalg.generic' is not converted to tc.matmul: its iterators are (parallel, parallel): a contraction has parallel dimensions and one reduction
// STRICT: remarks.mlir:10:3: error: 'linalg.generic' is not converted to tc.matmul: its iterators are (parallel, parallel): a contraction has parallel dimensions and one reduction
// KEPT: linalg.generic

// -----

func.func @named(%A: memref<128x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.copy ins(%A : memref<128x128xbf16>) outs(%D : memref<128x128xbf16>)
  func.return
}
// CHECK: remarks.mlir:25:3: remark: 'linalg.copy' is not converted to tc.matmul: 'linalg.copy' is not a contraction: convert-linalg-to-tc converts linalg.matmul and linalg.generic contractions

// -----

func.func @tensors(%A: tensor<128x64xbf16>, %B: tensor<64x128xbf16>, %D: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  %r = linalg.matmul ins(%A, %B : tensor<128x64xbf16>, tensor<64x128xbf16>) outs(%D : tensor<128x128xbf16>) -> tensor<128x128xbf16>
  func.return %r : tensor<128x128xbf16>
}
// CHECK: remarks.mlir:33:3: remark: 'linalg.matmul' is not converted to tc.matmul: it works on tensors: convert-linalg-to-tc converts contractions on memrefs (bufferize first)

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @max_body(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %d: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.maximumf %d, %p : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK: remarks.mlir:44:3: remark: 'linalg.generic' is not converted to tc.matmul: its body does not end in an addition (arith.addf or arith.addi) of the product to the output

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @scaled_body(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %d: bf16):
    %two = arith.constant 2.0 : bf16
    %a2 = arith.mulf %a, %two : bf16
    %p = arith.mulf %a2, %b : bf16
    %s = arith.addf %d, %p : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK: remarks.mlir:61:3: remark: 'linalg.generic' is not converted to tc.matmul: its body multiplies something other than the two inputs' elements (each optionally widened by arith.extf, extsi or extui)

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @extra_body(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %d: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %d, %p : bf16
    %unused = arith.negf %s : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK: remarks.mlir:80:3: remark: 'linalg.generic' is not converted to tc.matmul: its body does more than multiply and add ('arith.negf')

// -----

#a = affine_map<(m, n, k) -> (m, k floordiv 2)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @not_a_permutation(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %d: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %d, %p : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK: remarks.mlir:98:3: remark: 'linalg.generic' is not converted to tc.matmul: the first input's indexing map (d0, d1, d2) -> (d0, (d2 floordiv 2)) is not a projected permutation (each result a loop dimension)

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, m)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @same_rows(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %d: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %d, %p : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK: remarks.mlir:115:3: remark: 'linalg.generic' is not converted to tc.matmul: both inputs hold the same dimension of the output: one must hold its rows, the other its columns

// -----

// f32 x f32: the tensor cores read f32 as tf32, which the memref must say.
func.func @f32(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %D: memref<128x128xf32>) {
  linalg.matmul ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%D : memref<128x128xf32>)
  func.return
}
// CHECK: remarks.mlir:130:3: remark: 'linalg.matmul' is not converted to tc.matmul: tc.matmul refuses it: the tensor cores read f32 operands as tf32 (10 mantissa bits): declare A and B as tf32 memrefs (memref<...xtf32>, the same 4-byte elements) to multiply them so

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @mixed_types(%A: memref<128x64xbf16>, %B: memref<64x128xf16>, %D: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x128xf16>) outs(%D : memref<128x128xf32>) {
  ^bb0(%a: bf16, %b: f16, %d: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %d, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK: remarks.mlir:141:3: remark: 'linalg.generic' is not converted to tc.matmul: tc.matmul refuses it: wgmma cannot multiply bf16 by f16

// -----

// K = 100 bf16: A's rows are 200 bytes apart, and TMA steps in 16.
func.func @leading_dimension(%A: memref<128x100xbf16>, %B: memref<100x128xbf16>, %D: memref<128x128xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x100xbf16>, memref<100x128xbf16>) outs(%D : memref<128x128xbf16>)
  func.return
}
// CHECK: remarks.mlir:158:3: remark: 'linalg.matmul' is not converted to tc.matmul: tc.matmul refuses it: A's leading dimension is 200 bytes: TMA needs a multiple of 16

// -----

// e4m3 B stored K x N would be an MN-major tile, which wgmma does not read for fp8.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @fp8_mn_major(%A: memref<128x64xf8E4M3FN>, %B: memref<64x128xf8E4M3FN>, %D: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xf8E4M3FN>, memref<64x128xf8E4M3FN>) outs(%D : memref<128x128xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %d: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %d, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK: remarks.mlir:170:3: remark: 'linalg.generic' is not converted to tc.matmul: tc.matmul refuses it: wgmma (sm_90a) cannot transpose e4m3: MN-major operands must be one of bf16, f16; store the tile K-major (B is row-major, so its tiles would be MN-major)

// -----

func.func @strides(%A: memref<?x?xbf16, strided<[?, ?]>>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) {
  linalg.matmul ins(%A, %B : memref<?x?xbf16, strided<[?, ?]>>, memref<?x?xbf16>) outs(%D : memref<?x?xbf16>)
  func.return
}
// CHECK: remarks.mlir:186:3: remark: 'linalg.matmul' is not converted to tc.matmul: tc.matmul refuses it: A has strides [?, ?]; it must be row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>)

// -----

func.func @not_an_argument(%A: memref<128x64xbf16>, %D: memref<128x128xbf16>) {
  %B = memref.alloc() : memref<64x128xbf16>
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>)
  func.return
}
// CHECK: remarks.mlir:195:3: remark: 'linalg.matmul' is not converted to tc.matmul: an input is not an argument of the function: a kernel reads and writes its arguments

// -----

func.func @two(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>, %E: memref<128x128xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>)
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%E : memref<128x128xbf16>)
  func.return
}
// CHECK: remarks.mlir:203:3: remark: 'linalg.matmul' is not converted to tc.matmul: its function holds 'linalg.matmul' (at {{.*}}remarks.mlir:204:3) too: a tc.matmul kernel is one GEMM alone (a function of its own, with a linalg.fill of zero into its output at most)
// CHECK: remarks.mlir:204:3: remark: 'linalg.matmul' is not converted to tc.matmul: its function holds 'linalg.matmul' (at {{.*}}remarks.mlir:203:3) too

// -----

func.func @in_place(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x128xbf16>, memref<128x128xbf16>) outs(%A : memref<128x128xbf16>)
  func.return
}
// CHECK: remarks.mlir:213:3: remark: 'linalg.matmul' is not converted to tc.matmul: its output is also an input

// -----

func.func @fill_one(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  %one = arith.constant 1.0 : bf16
  linalg.fill ins(%one : bf16) outs(%D : memref<128x128xbf16>)
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>)
  func.return
}
// CHECK: remarks.mlir:223:3: remark: 'linalg.matmul' is not converted to tc.matmul: its output is filled with a value other than a constant zero (1.0) before it: tc.matmul computes D = A x B or D = A x B + D
// CHECK: remarks.mlir:222:3: remark: 'linalg.fill' is not converted to tc.matmul: a linalg.fill is converted only with a contraction into the same buffer right after it

// -----

func.func @in_a_loop(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<128x128xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%D : memref<128x128xbf16>)
  }
  func.return
}
// CHECK: remarks.mlir:235:5: remark: 'linalg.matmul' is not converted to tc.matmul: it is not in the body of a func.func of one block (a tc kernel is such a function)
