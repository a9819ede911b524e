// tcgen05 (Blackwell), M = 64 (tensor-memory layout F: row 16w + l in lane 32w + l), an f16
// accumulator loaded from C, and A from tensor memory (moved there from its tile with
// tcgen05.st). D = C + A * B, A 64x64 f16, B 64x32 f16 N-major (an f16 accumulator needs f16 operands:
// bf16 accumulates in f32 only).
func.func @tcgen05_m64_tmem_a(%A: memref<64x64xf16>, %B: memref<64x32xf16>, %C: memref<64x32xf16>, %D: memref<64x32xf16>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<32x64xf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xf16>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x32xf16>, !tc.tile<32x64xf16, #tc.layout<mn, swizzle = auto>>
  %c = tc.acc_load %C : memref<64x32xf16> -> !tc.acc<64x32xf16>
  %d = tc.tcgen05_mma %a, %b, %c a_in_tmem : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<32x64xf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x32xf16>
  tc.acc_store %d to %D : !tc.acc<64x32xf16>, memref<64x32xf16>
  func.return
}
