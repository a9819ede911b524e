// A batched GEMM: D[b] = A[b] x B for b = 0..7, bf16 with f32 accumulation: eight
// 1000 x 768 x 512 products sharing one 512 x 768 weight matrix B (a 2-d operand is the
// same matrix for every batch; a 3-d one names the batch first). Ragged M (1000 is not a
// multiple of 128); A's matrices sit 1024 rows apart (batch stride 1024 x 512 elements),
// as a slice of a larger buffer would. tc-expand-matmul folds the batch into the
// persistent tile walk: CTA tile t is matrix t / 24, tile t mod 24 (docs/gemm.md,
// "Batched GEMMs"). Run it: lower-tc run examples/batched_gemm.mlir
func.func @batched_gemm(%A: memref<8x1000x512xbf16, strided<[524288, 512, 1]>>, %B: memref<512x768xbf16>, %D: memref<8x1000x768xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<8x1000x512xbf16, strided<[524288, 512, 1]>>, memref<512x768xbf16>, memref<8x1000x768xbf16>
  func.return
}
