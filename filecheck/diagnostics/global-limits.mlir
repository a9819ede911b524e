// The limits of global operands that single-tile ops read (layout/limits.py): global memory
// only, TMA's strides, the 32-bit offsets of thread copies and WMMA strides.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// Operands live in global memory: shared memory is a tile's.
func.func @shared_source(%A: memref<64x64xbf16, 3>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16, 3>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:3: error: the copy's source is in memory space 3: lower-tc's operands are global memory (a memref with no memory space); shared memory is a tc.smem_tile's{{$}}

// -----

// Also an argument no op uses: every argument is a global pointer.
func.func @shared_argument(%x: memref<64x64xf32, 5>) attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:1: error: kernel argument p_x is in memory space 5: lower-tc's operands are global memory (a memref with no memory space); shared memory is a tc.smem_tile's{{$}}

// -----

// TMA's global strides are below 2^40 bytes (the tile pinned: the message names the source).
func.func @tma_stride(%A: memref<64x64xbf16, strided<[1099511627776, 1]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  tc.copy %A to %a as a via tma : memref<64x64xbf16, strided<[1099511627776, 1]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:3: error: the copy's source's leading dimension is 2199023255552 bytes: TMA takes strides below 2^40 bytes{{$}}

// -----

// A thread copy's table and loads hold 32-bit offsets into its source.
func.func @thread_span(%A: memref<64x64xbf16, strided<[1073741824, 1]>>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16, strided<[1073741824, 1]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:3: error: the copy's source spans 135291469952 bytes (strides [1073741824, 1]): a thread copy addresses it with 32-bit offsets (0 to 2147483647){{$}}

// -----

// wmma.load and wmma.store take the stride as a 32-bit operand.
func.func @wmma_stride(%A: memref<16x4294967296xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.wmma_load %A[0, 0] : memref<16x4294967296xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:3: error: the wmma load's stride (its memref's row stride) is 4294967296: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647){{$}}

// -----

// A ring's every stage counts against shared memory.
func.func @pinned_ring() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<256x256xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:3: error: tile (2 stages) needs shared memory up to 262144 bytes, beyond the 232448 bytes (227 KiB) a block may use{{$}}

// -----

// xDSL's constraint messages span two lines: the error is still one.
func.func @tensor_source(%A: tensor<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : tensor<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: global-limits.mlir:[[# @LINE - 3]]:3: error: operand 'src' at position 0 does not verify: tensor<64x64xbf16> should be of base attribute memref{{$}}
