// Diagnostics of P in registers (tc.acc_to_a and a tc.wgmma reading a !tc.afrag), each
// located: an accumulator that is not f32, a fragment whose shape is not the accumulator's,
// an 8-bit fragment of other than whole k32 slices, A's K against B's, `a_in_registers` on
// a fragment, mixed 16-bit types, sm_100a's fragment of the wrong shape (its P goes to
// tensor memory: attention-tcgen05-diagnostics.mlir); an accumulator N that is not whole k16 slices, a
// fragment of other than 64 rows, tc.acc_to_a in a loop-level GEMM kernel.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s
func.func @f16_acc(%Q: memref<64x64xf16>, %D: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xf16>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf16>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf16>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf16> to !tc.afrag<64x64xf16>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_to_a rounds an f32 accumulator, not f16{{$}}

// -----

func.func @shape(%Q: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x32xbf16>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: the accumulator is 64x64 but the fragment is 64x32: A's K columns are the accumulator's N columns{{$}}

// -----

func.func @fp8_half_slice(%Q: memref<64x16xbf16>, %K: memref<16x48xbf16, strided<[1, 16]>>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<48x16xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x16xbf16>, !tc.tile<64x16xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<16x48xbf16, strided<[1, 16]>>, !tc.tile<48x16xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x48xf32>
  %s = tc.wgmma %q, %k, %zero : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<48x16xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x48xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x48xf32> to !tc.afrag<64x48xf8E4M3FN>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: the accumulator's N = 48 is not whole 32-column K-slices of A{{$}}

// -----

func.func @k_mismatch(%Q: memref<64x64xbf16>, %V: memref<32x64xbf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<32x64xbf16>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<64x64xf32>
  %o = tc.wgmma %p, %v, %zero2 : !tc.afrag<64x64xbf16>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: A has K = 64 but B has K = 32{{$}}

// -----

func.func @both(%Q: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<64x64xf32>
  %o = tc.wgmma %p, %q, %zero2 a_in_registers : !tc.afrag<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: A is a register fragment already: `a_in_registers` loads a tile's A into registers{{$}}

// -----

func.func @f16_b(%Q: memref<64x64xbf16>, %V: memref<64x64xf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %v = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %V to %v as b : memref<64x64xf16>, !tc.tile<64x64xf16, #tc.layout<mn, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %s = tc.wgmma %q, %q, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  %zero2 = tc.acc_zero : !tc.acc<64x64xf32>
  %o = tc.wgmma %p, %v, %zero2 : !tc.afrag<64x64xbf16>, !tc.tile<64x64xf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: wgmma cannot multiply bf16 by f16{{$}}

// -----

func.func @sm100(%D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %zero = tc.acc_zero : !tc.acc<128x64xf32>
  %p = tc.acc_to_a %zero : !tc.acc<128x64xf32> to !tc.afrag<64x64xbf16>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: the accumulator is 128x64 but the fragment is 64x64: A's K columns are the accumulator's N columns{{$}}

// -----

func.func @n24(%Q: memref<64x64xbf16>, %K: memref<64x24xbf16>) attributes {tc.target = "sm_90a"} {
  %q = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<24x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %Q to %q as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %K to %k as b : memref<64x24xbf16>, !tc.tile<24x64xbf16, #tc.layout<k, swizzle = auto>>
  %zero = tc.acc_zero : !tc.acc<64x24xf32>
  %s = tc.wgmma %q, %k, %zero : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<24x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x24xf32>
  %p = tc.acc_to_a %s : !tc.acc<64x24xf32> to !tc.afrag<64x24xbf16>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: the accumulator's N = 24 is not whole 16-column K-slices of A{{$}}

// -----

func.func @rows(%D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %p = tc.acc_to_a %zero : !tc.acc<64x64xf32> to !tc.afrag<128x64xbf16>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: an A fragment is one warpgroup's 64 rows (wgmma's M), not 128{{$}}

// -----

func.func @in_loop_a(%D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
  }
  %zero = tc.acc_zero : !tc.acc<64x64xf32>
  %p = tc.acc_to_a %zero : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>
  func.return
}
// CHECK: p-in-registers-diagnostics.mlir:[[# @LINE - 3]]:3: error: tc.acc_to_a is for single-tile kernels and attention loops (a GEMM loop's accumulators are its own){{$}}
