// Legacy WMMA: D[0:16, 0:16] = A[0:16, 0:32] * B[0:32, 0:16] in two k16 steps, f16 inputs,
// f32 accumulator; A row-major, B col-major (stored as N x K), stride = the memref row.
func.func @wmma_f16(%A: memref<16x32xf16>, %Bt: memref<16x32xf16>, %D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c0 = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %a0 = tc.wmma_load %A[0, 0] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b0 = tc.wmma_load %Bt[0, 0] : memref<16x32xf16> -> !tc.wmma_frag<b, m16n16k16, f16, col>
  %c1 = tc.wmma_mma %a0, %b0, %c0 : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, col>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  %a1 = tc.wmma_load %A[0, 16] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b1 = tc.wmma_load %Bt[0, 16] : memref<16x32xf16> -> !tc.wmma_frag<b, m16n16k16, f16, col>
  %c2 = tc.wmma_mma %a1, %b1, %c1 : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, col>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c2 to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
