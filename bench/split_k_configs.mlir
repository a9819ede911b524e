// Split-K's timing candidates for the H100 (issue 22): each shape split-K is for, first
// without it (the default kernel), then with the configurations expected to be fast; A
// row-major, B as nn.Linear's weight (column-major), D bf16. Every kernel is checked by
// `lower-tc run bench/split_k_configs.mlir` and timed by `... --bench`.

func.func @long_k_bf16_default(%A: memref<512x65536xbf16, strided<[65536, 1]>>, %B: memref<65536x512xbf16, strided<[1, 65536]>>, %D: memref<512x512xbf16, strided<[512, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 : memref<512x65536xbf16, strided<[65536, 1]>>, memref<65536x512xbf16, strided<[1, 65536]>>, memref<512x512xbf16, strided<[512, 1]>>
  func.return
}

func.func @long_k_bf16_128x128_s8(%A: memref<512x65536xbf16, strided<[65536, 1]>>, %B: memref<65536x512xbf16, strided<[1, 65536]>>, %D: memref<512x512xbf16, strided<[512, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 8} : memref<512x65536xbf16, strided<[65536, 1]>>, memref<65536x512xbf16, strided<[1, 65536]>>, memref<512x512xbf16, strided<[512, 1]>>
  func.return
}

func.func @long_k_bf16_64x128_s4(%A: memref<512x65536xbf16, strided<[65536, 1]>>, %B: memref<65536x512xbf16, strided<[1, 65536]>>, %D: memref<512x512xbf16, strided<[512, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 4} : memref<512x65536xbf16, strided<[65536, 1]>>, memref<65536x512xbf16, strided<[1, 65536]>>, memref<512x512xbf16, strided<[512, 1]>>
  func.return
}

func.func @long_k_e4m3_128x128_s8(%A: memref<512x65536xf8E4M3FN, strided<[65536, 1]>>, %B: memref<65536x512xf8E4M3FN, strided<[1, 65536]>>, %D: memref<512x512xbf16, strided<[512, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 4> {split_k = 8} : memref<512x65536xf8E4M3FN, strided<[65536, 1]>>, memref<65536x512xf8E4M3FN, strided<[1, 65536]>>, memref<512x512xbf16, strided<[512, 1]>>
  func.return
}

func.func @decode_bf16_default(%A: memref<16x4096xbf16, strided<[4096, 1]>>, %B: memref<4096x4096xbf16, strided<[1, 4096]>>, %D: memref<16x4096xbf16, strided<[4096, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 : memref<16x4096xbf16, strided<[4096, 1]>>, memref<4096x4096xbf16, strided<[1, 4096]>>, memref<16x4096xbf16, strided<[4096, 1]>>
  func.return
}

func.func @decode_bf16_64x128_s4(%A: memref<16x4096xbf16, strided<[4096, 1]>>, %B: memref<4096x4096xbf16, strided<[1, 4096]>>, %D: memref<16x4096xbf16, strided<[4096, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 4} : memref<16x4096xbf16, strided<[4096, 1]>>, memref<4096x4096xbf16, strided<[1, 4096]>>, memref<16x4096xbf16, strided<[4096, 1]>>
  func.return
}

func.func @decode_bf16_64x64_s2(%A: memref<16x4096xbf16, strided<[4096, 1]>>, %B: memref<4096x4096xbf16, strided<[1, 4096]>>, %D: memref<16x4096xbf16, strided<[4096, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 64, bk = 64, stages = 6> {split_k = 2} : memref<16x4096xbf16, strided<[4096, 1]>>, memref<4096x4096xbf16, strided<[1, 4096]>>, memref<16x4096xbf16, strided<[4096, 1]>>
  func.return
}

func.func @decode_bf16_64x256_s8(%A: memref<16x4096xbf16, strided<[4096, 1]>>, %B: memref<4096x4096xbf16, strided<[1, 4096]>>, %D: memref<16x4096xbf16, strided<[4096, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 256, bk = 64, stages = 4> {split_k = 8} : memref<16x4096xbf16, strided<[4096, 1]>>, memref<4096x4096xbf16, strided<[1, 4096]>>, memref<16x4096xbf16, strided<[4096, 1]>>
  func.return
}

func.func @decode_e4m3_64x128_s4(%A: memref<16x4096xf8E4M3FN, strided<[4096, 1]>>, %B: memref<4096x4096xf8E4M3FN, strided<[1, 4096]>>, %D: memref<16x4096xbf16, strided<[4096, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 128, bk = 128, stages = 4> {split_k = 4} : memref<16x4096xf8E4M3FN, strided<[4096, 1]>>, memref<4096x4096xf8E4M3FN, strided<[1, 4096]>>, memref<16x4096xbf16, strided<[4096, 1]>>
  func.return
}

func.func @few_tiles_bf16_default(%A: memref<128x7168xbf16, strided<[7168, 1]>>, %B: memref<7168x1536xbf16, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 : memref<128x7168xbf16, strided<[7168, 1]>>, memref<7168x1536xbf16, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}

func.func @few_tiles_bf16_128x128_s8(%A: memref<128x7168xbf16, strided<[7168, 1]>>, %B: memref<7168x1536xbf16, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 8} : memref<128x7168xbf16, strided<[7168, 1]>>, memref<7168x1536xbf16, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}

func.func @few_tiles_bf16_64x128_s5(%A: memref<128x7168xbf16, strided<[7168, 1]>>, %B: memref<7168x1536xbf16, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 128, bk = 64, stages = 4> {split_k = 5} : memref<128x7168xbf16, strided<[7168, 1]>>, memref<7168x1536xbf16, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}

func.func @few_tiles_bf16_128x64_s5(%A: memref<128x7168xbf16, strided<[7168, 1]>>, %B: memref<7168x1536xbf16, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 64, bk = 64, stages = 4> {split_k = 5} : memref<128x7168xbf16, strided<[7168, 1]>>, memref<7168x1536xbf16, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}

func.func @few_tiles_e4m3_default(%A: memref<128x7168xf8E4M3FN, strided<[7168, 1]>>, %B: memref<7168x1536xf8E4M3FN, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 : memref<128x7168xf8E4M3FN, strided<[7168, 1]>>, memref<7168x1536xf8E4M3FN, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}

func.func @few_tiles_e4m3_128x128_s8(%A: memref<128x7168xf8E4M3FN, strided<[7168, 1]>>, %B: memref<7168x1536xf8E4M3FN, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 4> {split_k = 8} : memref<128x7168xf8E4M3FN, strided<[7168, 1]>>, memref<7168x1536xf8E4M3FN, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}

func.func @few_tiles_e4m3_64x128_s5(%A: memref<128x7168xf8E4M3FN, strided<[7168, 1]>>, %B: memref<7168x1536xf8E4M3FN, strided<[1, 7168]>>, %D: memref<128x1536xbf16, strided<[1536, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 128, bk = 128, stages = 4> {split_k = 5} : memref<128x7168xf8E4M3FN, strided<[7168, 1]>>, memref<7168x1536xf8E4M3FN, strided<[1, 7168]>>, memref<128x1536xbf16, strided<[1536, 1]>>
  func.return
}
