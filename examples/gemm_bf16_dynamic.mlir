// A GEMM whose sizes are known only at launch: memref<?x?xbf16> operands, dense
// row-major. Each dynamic argument gets .u32 parameters (rows, cols, ld), the K loop
// counts its steps at run time, the grid is [ceil(N / BN), ceil(M / BM), 1] from D's
// sizes, and every store is bounds-checked. Run it with the sizes given:
//   lower-tc run examples/gemm_bf16_dynamic.mlir --shape A=1000x1000 --shape B=1000x1000 --shape D=1000x1000
func.func @gemm_bf16_dynamic(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  func.return
}
