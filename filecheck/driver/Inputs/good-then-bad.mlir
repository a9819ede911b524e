// Input for driver tests: a chunk that compiles, then one that does not (line 12).
func.func @good(%D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}

// -----

// The K extent is not whole 64b atoms.
func.func @refused() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x48xbf16, #tc.layout<k, swizzle = 64b>>
  func.return
}
