// A linear layer's y = x @ W^T as a framework lowers it to linalg on memrefs: bf16 x bf16
// accumulated in f32 (the widening `arith.extf` in the body: xDSL's linalg.matmul takes one
// type only), W stored out_features x in_features, a zero fill before the contraction.
// `lower-tc` converts it first (convert-linalg-to-tc): W becomes B through a tc.transpose
// view (a K-major tile, as a K x N column-major matrix), the fill makes it D = A x B, and
// the GEMM is compiled as tc.matmul's. 2000 tokens, 1000 in, 3072 out: ragged tiles.
//   lower-tc examples/linalg_matmul.mlir -p convert-linalg-to-tc -t mlir
//   lower-tc run examples/linalg_matmul.mlir
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#y = affine_map<(m, n, k) -> (m, n)>
func.func @linear(%x: memref<2000x1000xbf16>, %W: memref<3072x1000xbf16>, %y: memref<2000x3072xf32>) attributes {tc.target = "sm_90a"} {
  %zero = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<2000x3072xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %W : memref<2000x1000xbf16>, memref<3072x1000xbf16>) outs(%y : memref<2000x3072xf32>) {
  ^bb0(%in: bf16, %in_w: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    %1 = arith.extf %in_w : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %out, %2 : f32
    linalg.yield %3 : f32
  }
  func.return
}
