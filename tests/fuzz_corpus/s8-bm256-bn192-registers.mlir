// fuzz: {"assemble": true, "cli": "subprocess", "target": "ptx"} | [PTX dialect/printer or lowering] ptxas rejects accepted PTX: ptxas (/usr/local/bin/ptxas) rejected the PTX for sm_90a with exit status 255 (1 error): | in.mlir:2:3: fatal: ptxas: (C7602) Insufficient registers (96) to compile instruction at line 268 in function g. Try to compile with register target of 122 or higher. | kernel g, PTX line 268: 1;
func.func @g(%A: memref<64x64xi8, strided<[80, 1]>>, %B: memref<64x64xi8, strided<[1, 64]>>, %D: memref<?x?xi32>, %C: memref<?x?xi32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C config #tc.gemm_config<bm = 256, bn = 192, bk = 32, stages = 2> {schedule = "warp_specialized"} : memref<64x64xi8, strided<[80, 1]>>, memref<64x64xi8, strided<[1, 64]>>, memref<?x?xi32>, memref<?x?xi32>
  func.return
}
