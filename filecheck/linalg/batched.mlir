// Batched contractions (b, m, n, k): the batch first in the output and in each 3-d input;
// a 2-d input is the same matrix for every batch. What tc.matmul refuses of a batch stays
// linalg, with its reason.
// RUN: lower-tc %s -p 'convert-linalg-to-tc{target=sm_90a}' -t mlir --split-input-file 2>/dev/null | filecheck %s
// RUN: lower-tc %s -p 'convert-linalg-to-tc{target=sm_90a}' -t mlir --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p 'convert-linalg-to-tc{target=sm_90a strict=true},tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,ptx-lower-loops' | filecheck %s --check-prefix=PTX

// Attention's Q K^T: K stored (batch, keys, dim) is read through a 3-d view.
#q = affine_map<(b, m, n, k) -> (b, m, k)>
#kt = affine_map<(b, m, n, k) -> (b, n, k)>
#s = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @qk(%q: memref<8x200x64xbf16>, %k: memref<8x300x64xbf16>, %s: memref<8x200x300xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<8x200x300xf32>)
  linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<8x200x64xbf16>, memref<8x300x64xbf16>) outs(%s : memref<8x200x300xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
// CHECK-LABEL: func.func @qk(
// CHECK-NEXT:    %k_t = tc.transpose %k : memref<8x300x64xbf16> to memref<8x64x300xbf16, strided<[19200, 1, 64]>>
// CHECK-NEXT:    tc.matmul %q, %k_t to %s : memref<8x200x64xbf16>, memref<8x64x300xbf16, strided<[19200, 1, 64]>>, memref<8x200x300xf32>
// PTX-LABEL: // lower-tc kernel qk:
// PTX-SAME: "b": 1, "b_transposed": true, "batch": 8,
// PTX-SAME: {"arg": 1, "box": [64, 256, 1], "dtype": "bf16", "global_dims": [64, 300, 8], "global_strides": [128, 38400]

// -----

// A linear layer over a batch: W (out x in) is the same for every batch, read transposed.
#x = affine_map<(b, m, n, k) -> (b, m, k)>
#w = affine_map<(b, m, n, k) -> (n, k)>
#y = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @broadcast(%x: memref<3x200x128xbf16>, %W: memref<96x128xbf16>, %y: memref<3x200x96xbf16>) {
  linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %W : memref<3x200x128xbf16>, memref<96x128xbf16>) outs(%y : memref<3x200x96xbf16>) {
  ^bb0(%p: bf16, %q: bf16, %acc: bf16):
    %r = arith.mulf %p, %q : bf16
    %s = arith.addf %acc, %r : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK-LABEL: func.func @broadcast(
// CHECK-NEXT:    %W_t = tc.transpose %W : memref<96x128xbf16> to memref<128x96xbf16, strided<[1, 128]>>
// CHECK-NEXT:    tc.matmul %x, %W_t to %y plus %y : memref<3x200x128xbf16>, memref<128x96xbf16, strided<[1, 128]>>, memref<3x200x96xbf16>, memref<3x200x96xbf16>
// PTX-LABEL: // lower-tc kernel broadcast:
// PTX-SAME: "b_transposed": true, "batch": 3, "c": 2,

// -----

// D stored (batch, N, M): the inputs swap roles, each read as it is stored.
#a = affine_map<(b, m, n, k) -> (b, k, m)>
#bt = affine_map<(b, m, n, k) -> (b, n, k)>
#dt = affine_map<(b, m, n, k) -> (b, n, m)>
func.func @d_transposed(%A: memref<2x64x128xf16>, %B: memref<2x256x64xf16>, %D: memref<2x256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%D : memref<2x256x128xf32>)
  linalg.generic {indexing_maps = [#a, #bt, #dt], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x64x128xf16>, memref<2x256x64xf16>) outs(%D : memref<2x256x128xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %p32 = arith.extf %p : f16 to f32
    %q32 = arith.extf %q : f16 to f32
    %r = arith.mulf %p32, %q32 : f32
    %s = arith.addf %acc, %r : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @d_transposed(
// CHECK-NEXT:    tc.matmul %B, %A to %D : memref<2x256x64xf16>, memref<2x64x128xf16>, memref<2x256x128xf32>
// PTX-LABEL: // lower-tc kernel d_transposed:
// PTX-SAME: "gemm": {"a": 1, "acc": "f32", "b": 0, "batch": 2,

// -----

// Sizes known at launch, batch included: the view's are its argument's, rows and columns swapped.
#q = affine_map<(b, m, n, k) -> (b, m, k)>
#kt = affine_map<(b, m, n, k) -> (b, n, k)>
#s = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @dynamic(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %s: memref<?x?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%s : memref<?x?x?xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %k_t = tc.transpose %k : memref<?x?x?xbf16> to memref<?x?x?xbf16, strided<[?, 1, ?]>>
// CHECK-NEXT:    tc.matmul %q, %k_t to %s : memref<?x?x?xbf16>, memref<?x?x?xbf16, strided<[?, 1, ?]>>, memref<?x?x?xf32>
// PTX-LABEL: // lower-tc kernel dynamic:
// PTX-SAME: "b_transposed": true, "batch": null,

// -----

#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#d = affine_map<(b, m, n, k) -> (m, n)>
func.func @no_output_batch(%A: memref<4x128x64xbf16>, %B: memref<4x64x256xbf16>, %D: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#a, #bb, #d], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x128x64xbf16>, memref<4x64x256xbf16>) outs(%D : memref<128x256xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
// REMARK: batched.mlir:[[# @LINE - 11]]:3: remark: 'linalg.generic' is not converted to tc.matmul: the output does not hold exactly the parallel dimensions
// PTX: batched.mlir:[[# @LINE - 12]]:3: error: 'linalg.generic' is not converted to tc.matmul: the output does not hold exactly the parallel dimensions

// -----

#a = affine_map<(b, m, n, k) -> (m, b, k)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#d = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_inside(%A: memref<128x4x64xbf16>, %B: memref<4x64x256xbf16>, %D: memref<4x128x256xf32>) {
  linalg.generic {indexing_maps = [#a, #bb, #d], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x4x64xbf16>, memref<4x64x256xbf16>) outs(%D : memref<4x128x256xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
// REMARK: batched.mlir:[[# @LINE - 11]]:3: remark: 'linalg.generic' is not converted to tc.matmul: the first input's first dimension is not the output's batch: a batched operand holds the batch first

// -----

// Both inputs the same for every batch: every matrix of D is the one product.
#a = affine_map<(b, m, n, k) -> (m, k)>
#bb = affine_map<(b, m, n, k) -> (k, n)>
#d = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @both_broadcast(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<4x128x256xf32>) {
  linalg.generic {indexing_maps = [#a, #bb, #d], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x256xbf16>) outs(%D : memref<4x128x256xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
// CHECK-LABEL: func.func @both_broadcast(
// CHECK-NEXT:    tc.matmul %A, %B to %D plus %D : memref<128x64xbf16>, memref<64x256xbf16>, memref<4x128x256xf32>, memref<4x128x256xf32>

// -----

// A batch tc.matmul does not take: D's matrices overlap (its batch stride is less than a matrix).
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#d = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @overlapping_d(%A: memref<4x128x64xbf16>, %B: memref<4x64x256xbf16>, %D: memref<4x128x256xf32, strided<[256, 256, 1]>>) {
  linalg.generic {indexing_maps = [#a, #bb, #d], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x128x64xbf16>, memref<4x64x256xbf16>) outs(%D : memref<4x128x256xf32, strided<[256, 256, 1]>>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
// REMARK: batched.mlir:[[# @LINE - 11]]:3: remark: 'linalg.generic' is not converted to tc.matmul: tc.matmul refuses it: D's strides [256, 256, 1] put two of its elements at one address: the matrices of the batch would overlap
