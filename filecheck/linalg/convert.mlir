// convert-linalg-to-tc: each contraction form frontends emit becomes one tc.matmul kernel.
// RUN: lower-tc %s -p 'convert-linalg-to-tc{target=sm_90a}' -t mlir --split-input-file 2>&1 | filecheck %s

// linalg.matmul without a fill accumulates into D: D += A x B.
func.func @matmul(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<128x256xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x64xbf16>, memref<64x256xbf16>) outs(%D : memref<128x256xbf16>)
  func.return
}
// CHECK-LABEL: func.func @matmul(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<128x256xbf16>) attributes {tc.target = "sm_90a"} {
// CHECK-NEXT:    tc.matmul %A, %B to %D plus %D : memref<128x64xbf16>, memref<64x256xbf16>, memref<128x256xbf16>, memref<128x256xbf16>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// -----

// A zero fill right before the contraction (constants between) makes it D = A x B; the
// fill and its constant go.
func.func @fill(%A: memref<128x64xf16>, %B: memref<64x256xf16>, %D: memref<128x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%D : memref<128x256xf16>)
  %unused = arith.constant 1 : index
  linalg.matmul ins(%A, %B : memref<128x64xf16>, memref<64x256xf16>) outs(%D : memref<128x256xf16>)
  func.return
}
// CHECK-LABEL: func.func @fill(
// CHECK-NEXT:    tc.matmul %A, %B to %D : memref<128x64xf16>, memref<64x256xf16>, memref<128x256xf16>
// CHECK-NEXT:    func.return

// -----

// x @ W^T in mixed precision, as a framework emits it: B is stored N x K, so tc.matmul
// reads a tc.transpose view of it (K x N, column-major: K-major tiles).
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @b_transposed(%x: memref<2000x1024xbf16>, %w: memref<3000x1024xbf16>, %y: memref<2000x3000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<2000x3000xf32>)
  linalg.generic {indexing_maps = [#a, #bt, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2000x1024xbf16>, memref<3000x1024xbf16>) outs(%y : memref<2000x3000xf32>) {
  ^bb0(%xa: bf16, %wb: bf16, %acc: f32):
    %x32 = arith.extf %xa : bf16 to f32
    %w32 = arith.extf %wb : bf16 to f32
    %p = arith.mulf %x32, %w32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @b_transposed(
// CHECK-SAME:  attributes {tc.target = "sm_90a"} {
// CHECK-NEXT:    %w_t = tc.transpose %w : memref<3000x1024xbf16> to memref<1024x3000xbf16, strided<[1, 1024]>>
// CHECK-NEXT:    tc.matmul %x, %w_t to %y : memref<2000x1024xbf16>, memref<1024x3000xbf16, strided<[1, 1024]>>, memref<2000x3000xf32>
// CHECK-NEXT:    func.return

// -----

// A stored K x M: A^T x B; the product and the sum in either order.
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @a_transposed(%A: memref<64x128xf16>, %B: memref<64x256xf16>, %D: memref<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%D : memref<128x256xf32>)
  linalg.generic {indexing_maps = [#at, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x128xf16>, memref<64x256xf16>) outs(%D : memref<128x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %b32 = arith.extf %b : f16 to f32
    %a32 = arith.extf %a : f16 to f32
    %p = arith.mulf %b32, %a32 : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @a_transposed(
// CHECK-NEXT:    %A_t = tc.transpose %A : memref<64x128xf16> to memref<128x64xf16, strided<[1, 128]>>
// CHECK-NEXT:    tc.matmul %A_t, %B to %D : memref<128x64xf16, strided<[1, 128]>>, memref<64x256xf16>, memref<128x256xf32>

// -----

// D stored N x M: D^T = B^T A^T, so the second input becomes A (read transposed, N x K)
// and the first B (read transposed, K x M). No fill: it accumulates.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#dt = affine_map<(m, n, k) -> (n, m)>
func.func @d_transposed(%A: memref<128x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x128xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #dt], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x64xbf16>, memref<64x256xbf16>) outs(%D : memref<256x128xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @d_transposed(
// CHECK-NEXT:    %B_t = tc.transpose %B : memref<64x256xbf16> to memref<256x64xbf16, strided<[1, 256]>>
// CHECK-NEXT:    %A_t = tc.transpose %A : memref<128x64xbf16> to memref<64x128xbf16, strided<[1, 64]>>
// CHECK-NEXT:    tc.matmul %B_t, %A_t to %D plus %D : memref<256x64xbf16, strided<[1, 256]>>, memref<64x128xbf16, strided<[1, 64]>>, memref<256x128xf32>, memref<256x128xf32>

// -----

// Loops in another order: (k, n, m) with A and B both transposed into a row-major D.
#at = affine_map<(k, n, m) -> (k, m)>
#bt = affine_map<(k, n, m) -> (n, k)>
#d = affine_map<(k, n, m) -> (m, n)>
func.func @loop_order(%A: memref<64x128xbf16>, %B: memref<256x64xbf16>, %D: memref<128x256xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%D : memref<128x256xbf16>)
  linalg.generic {indexing_maps = [#at, #bt, #d], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%A, %B : memref<64x128xbf16>, memref<256x64xbf16>) outs(%D : memref<128x256xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %acc: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %acc, %p : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK-LABEL: func.func @loop_order(
// CHECK-NEXT:    %A_t = tc.transpose %A
// CHECK-NEXT:    %B_t = tc.transpose %B
// CHECK-NEXT:    tc.matmul %A_t, %B_t to %D :

// -----

// s8 x s8 into i32 (arith.extsi): the arguments stay i8, read as s8.
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @s8(%A: memref<128x128xi8>, %B: memref<256x128xi8>, %D: memref<128x256xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%D : memref<128x256xi32>)
  linalg.generic {indexing_maps = [#a, #bt, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x128xi8>, memref<256x128xi8>) outs(%D : memref<128x256xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %a32 = arith.extsi %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %p = arith.muli %a32, %b32 : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}
// CHECK-LABEL: func.func @s8(%A: memref<128x128xi8>, %B: memref<256x128xi8>, %D: memref<128x256xi32>)
// CHECK-NEXT:    %B_t = tc.transpose %B : memref<256x128xi8> to memref<128x256xi8, strided<[1, 128]>>
// CHECK-NEXT:    tc.matmul %A, %B_t to %D : memref<128x128xi8>, memref<128x256xi8, strided<[1, 128]>>, memref<128x256xi32>

// -----

// u8 x s8 (arith.extui of A): A's argument says u8 (ui8, the same bytes).
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @u8(%A: memref<128x128xi8>, %B: memref<256x128xi8>, %D: memref<128x256xi32>) {
  linalg.generic {indexing_maps = [#a, #bt, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<128x128xi8>, memref<256x128xi8>) outs(%D : memref<128x256xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %a32 = arith.extui %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %p = arith.muli %a32, %b32 : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}
// CHECK-LABEL: func.func @u8(%A: memref<128x128xui8>, %B: memref<256x128xi8>, %D: memref<128x256xi32>)
// CHECK-NEXT:    %B_t = tc.transpose %B
// CHECK-NEXT:    tc.matmul %A, %B_t to %D plus %D : memref<128x128xui8>,

// -----

// e4m3 x e4m3 into f32, sizes known at launch.
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @e4m3_dynamic(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %D: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%D : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#a, #bt, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%D : memref<?x?xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %acc: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @e4m3_dynamic(
// CHECK-NEXT:    %B_t = tc.transpose %B : memref<?x?xf8E4M3FN> to memref<?x?xf8E4M3FN, strided<[1, ?]>>
// CHECK-NEXT:    tc.matmul %A, %B_t to %D : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN, strided<[1, ?]>>, memref<?x?xf32>
