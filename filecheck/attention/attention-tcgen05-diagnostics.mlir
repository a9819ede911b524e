// Diagnostics of attention's ops on tcgen05 (sm_100a; attention_tile_tcgen05.mlir, pinned by
// tcgen05-tile.mlir), each located: S with another use than the softmax that writes P over
// it, P rounded to other than bf16 or f16, `a_in_tmem` on an !tc.afrag A, tc.acc_to_a of an
// accumulator no tcgen05.mma wrote, tc.acc_softmax of a 64-row accumulator; the online
// softmax's ops (tcgen05-online.mlir): S read after tc.acc_exp or tc.acc_mask wrote over it, O
// after tc.acc_rescale, rows of 64, the running maximum of an
// accumulator no tcgen05.mma wrote.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @s_used_twice(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<128x64xf32>
  tc.acc_store %s to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 4]]:3: error: tc.acc_softmax on sm_100a writes P over S in tensor memory: S may have no other use{{$}}

// -----

func.func @to_e4m3(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<128x64xf32>
  %p = tc.acc_to_a %sm : !tc.acc<128x64xf32> to !tc.afrag<128x64xf8E4M3FN>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_to_a on sm_100a rounds to bf16 or f16, not e4m3{{$}}

// -----

func.func @afrag_a_in_tmem(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<128x64xf32>
  %p = tc.acc_to_a %sm : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<128x64xf32>
  %o = tc.tcgen05_mma %p, %v, %zero2 a_in_tmem : !tc.afrag<128x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 3]]:3: error: an !tc.afrag A is read from tensor memory already: no a_in_tmem, no cta_pair{{$}}

// -----

func.func @p_not_from_mma(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %V: memref<64x64xbf16>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %zero3 = tc.acc_zero : !tc.acc<128x64xf32>
  %p = tc.acc_to_a %zero3 : !tc.acc<128x64xf32> to !tc.afrag<128x64xbf16>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_to_a on sm_100a takes an accumulator in tensor memory (a tc.tcgen05_mma's or tc.acc_softmax's result){{$}}

// -----

func.func @m64(%Q: memref<64x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %sm = tc.acc_softmax %s scale 0.125 : !tc.acc<64x64xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_softmax on sm_100a works on a tcgen05 accumulator of 128 rows in f32 (one row a thread), not 64x64xf32{{$}}

// -----

func.func @s_after_exp(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %m1 = tc.acc_row_max %s, %m0 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %p = tc.acc_exp %s, %m1 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.acc_store %s to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 4]]:3: error: tc.acc_exp on sm_100a writes its result over its accumulator in tensor memory, so the accumulator may not be used after it (by tc.acc_store){{$}}

// -----

func.func @o_after_rescale(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %m1 = tc.acc_row_max %s, %m0 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  %c = tc.acc_rescale %s, %m0, %m1 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  tc.acc_store %s to %O : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 4]]:3: error: tc.acc_rescale on sm_100a writes its result over its accumulator in tensor memory, so the accumulator may not be used after it (by tc.acc_store){{$}}

// -----

func.func @rows_of_64(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %m64 = tc.rows_fill -inf : !tc.rows<64xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.rows_fill on sm_100a: a !tc.rows has one value per row of a tcgen05 accumulator, 128 rows, not 64{{$}}

// -----

func.func @mask(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %t = tc.acc_mask %s {keys = 50} : !tc.acc<128x64xf32>
  %m1 = tc.acc_row_max %s, %m0 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 4]]:3: error: tc.acc_mask on sm_100a writes its result over its accumulator in tensor memory, so the accumulator may not be used after it (by tc.acc_row_max){{$}}

// -----

func.func @max_of_zero(%Q: memref<128x64xbf16>, %K: memref<64x64xbf16, strided<[1, 64]>>, %O: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %q = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x64xbf16, strided<[1, 64]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %s = tc.tcgen05_mma %q, %k, %zero : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  %m0 = tc.rows_fill -inf : !tc.rows<128xf32>
  %z = tc.acc_zero : !tc.acc<128x64xf32>
  %m1 = tc.acc_row_max %z, %m0 scale 0.125 : !tc.acc<128x64xf32>, !tc.rows<128xf32>
  func.return
}
// CHECK: attention-tcgen05-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_row_max on sm_100a takes an accumulator a tc.tcgen05_mma wrote (in tensor memory){{$}}
