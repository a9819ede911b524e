// tcgen05 kind::f8f6f4 with 4-bit e2m1 operands: in shared memory each 16-byte chunk holds
// 16 packed elements and 8 bytes of padding (PTX ISA), so the tile has the geometry of an
// 8-bit one (K = 32 per instruction). B is stored column-major, K-contiguous.
func.func @tcgen05_e2m1(%A: memref<128x128xf4E2M1FN>, %B: memref<128x64xf4E2M1FN, strided<[1, 128]>>, %D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x128xf4E2M1FN>, !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<128x64xf4E2M1FN, strided<[1, 128]>>, !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %d to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
