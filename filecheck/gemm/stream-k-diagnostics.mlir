// Diagnostics of stream-K (`stream_k = G`, layout/stream_k.py), each located: the op's
// option (parse errors at the entry; what does not go with it, its accumulator, its sizes
// and its target at the op) and the loop level's schedule entry. stream-k.mlir pins the
// kernel.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @range(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 17} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:27: error: stream_k is 0 (off) or the groups of CTAs, 1 to 16, not 17{{$}}

// -----

func.func @flag(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = true} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:27: error: stream_k is an integer (groups of CTAs sharing tiles' K steps), not true{{$}}

// -----

func.func @split(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 2, split_k = 2, reduce = "global"} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 2 does not go with split_k = 2: stream-K shares the K steps itself, across tiles{{$}}

// -----

func.func @cluster(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, cluster = 2} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 does not go with cluster = 2: its CTAs share K steps, not B's loads{{$}}

// -----

func.func @depth(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, mma_depth = 2} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 does not go with mma_depth = 2: a unit may be one K step, so the consumers leave one wgmma group in flight{{$}}

// -----

func.func @not_persistent(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, persistent = false} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 runs persistent CTAs, one per SM: it does not go with persistent = false{{$}}

// -----

func.func @pipelined(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, schedule = "pipelined"} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 runs a persistent walk: it needs the warp-specialised schedule, the grouped order (raster >= 1) and M, N, K and the batch known at compile time{{$}}

// -----

func.func @groups(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {stream_k = 3} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 3: group g takes tiles g, g + 3, g + 6, ..., so 3 must divide the 56 tiles{{$}}

// -----

func.func @f16_acc(%A: memref<256x16384xf16>, %B: memref<16384x7168xf16>, %D: memref<256x7168xf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f16 {stream_k = 1} : memref<256x16384xf16>, memref<16384x7168xf16>, memref<256x7168xf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k sums f32 or s32 partial tiles from the accumulator's registers through global memory; an f16 accumulator does not go with it{{$}}

// -----

func.func @dynamic(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %D: memref<?x?xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k = 1 runs a persistent walk: it needs the warp-specialised schedule, the grouped order (raster >= 1) and M, N, K and the batch known at compile time{{$}}

// -----

func.func @blackwell(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D {stream_k = 1} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: stream_k is sm_90a only for now{{$}}

// -----

func.func @swapped(%A: memref<16x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<16x4096xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {stream_k = 1, swap_ab = true} : memref<16x4096xbf16>, memref<4096x4096xbf16>, memref<16x4096xbf16>
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:3: error: swap_ab = true: swap-AB does not go with stream_k = 1 (a decoding GEMM's swapped tiles are few and short: stream-K is for tiles that leave a wave short, and the pair is not checked on the GPU){{$}}

// -----

// -- the loop level: stream-K is a persistent walk
func.func @loop(%A: memref<256x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, stream_k = 1>} {
  func.return
}
// CHECK: stream-k-diagnostics.mlir:[[# @LINE - 3]]:126: error: stream_k = 1 needs a persistent walk: one CTA per SM runs its share of the K steps, unit after unit (persistent){{$}}
