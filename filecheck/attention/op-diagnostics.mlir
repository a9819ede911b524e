// Diagnostics of tc.attention (docs/attention.md, "The op level"), each at the op: a head dim
// the loop level is not built for, K/V heads that do not divide Q's, mixed element types,
// a scale that is not a finite number above 0, a 2-d Q, f32 operands, V's shape not K's, a
// log-sum-exp of the wrong shape, sm_100a; of layouts: a head dim that is not contiguous, 4-d
// beside 3-d, K of another batch, a stride TMA cannot step, an O whose elements overlap, an
// offset in a strided layout; of 8-bit attention: O not bf16 or f16, an O of another 16-bit
// type than Q's, V with neither its head dim nor its keys contiguous, V's head-dim stride TMA
// cannot step, e4m3 beside e5m2; a size of 0 (the fuzzer found K/V heads of 0 dividing by
// zero in the verifier), a sequence past 2^30, heads past the grid's 65535, a row stride below
// its rows' length (the fuzzer's V^T of one key, refused before only by the expanded kernel).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @f(%Q: memref<4x256x48xbf16>, %K: memref<2x256x48xbf16>, %V: memref<2x256x48xbf16>, %O: memref<4x256x48xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<4x256x48xbf16>, memref<2x256x48xbf16>, memref<2x256x48xbf16>, memref<4x256x48xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: the head dim is 64, 128, 256, not 48{{$}}

// -----

func.func @f(%Q: memref<4x256x64xbf16>, %K: memref<3x256x64xbf16>, %V: memref<3x256x64xbf16>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<4x256x64xbf16>, memref<3x256x64xbf16>, memref<3x256x64xbf16>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: K/V's 3 heads must divide Q's 4 (grouped-query attention){{$}}

// -----

func.func @f(%Q: memref<4x256x64xbf16>, %K: memref<2x256x64xbf16>, %V: memref<2x256x64xf16>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<4x256x64xbf16>, memref<2x256x64xbf16>, memref<2x256x64xf16>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q, K and V have one element type, not bf16, f16{{$}}

// -----

func.func @f(%Q: memref<4x256x64xbf16>, %K: memref<2x256x64xbf16>, %V: memref<2x256x64xbf16>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {scale = -1.0} : memref<4x256x64xbf16>, memref<2x256x64xbf16>, memref<2x256x64xbf16>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: the softmax scale is a finite number above 0, not -1.0{{$}}

// -----

func.func @f(%Q: memref<256x64xbf16>, %K: memref<256x64xbf16>, %V: memref<256x64xbf16>, %O: memref<256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q is (batch, heads, sequence, head dim) or (heads, sequence, head dim), not 2-d{{$}}

// -----

func.func @f(%Q: memref<4x256x64xf32>, %K: memref<2x256x64xf32>, %V: memref<2x256x64xf32>, %O: memref<4x256x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<4x256x64xf32>, memref<2x256x64xf32>, memref<2x256x64xf32>, memref<4x256x64xf32>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q is bf16, f16, e4m3 or e5m2, not f32{{$}}

// -----

func.func @f(%Q: memref<4x256x64xbf16>, %K: memref<2x300x64xbf16>, %V: memref<2x256x64xbf16>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O {causal} : memref<4x256x64xbf16>, memref<2x300x64xbf16>, memref<2x256x64xbf16>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: V's shape [2, 256, 64] is not K's [2, 300, 64]{{$}}

// -----

func.func @f(%Q: memref<4x256x64xbf16>, %K: memref<2x256x64xbf16>, %V: memref<2x256x64xbf16>, %O: memref<4x256x64xbf16>, %L: memref<4x255xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L : memref<4x256x64xbf16>, memref<2x256x64xbf16>, memref<2x256x64xbf16>, memref<4x256x64xbf16>, memref<4x255xf32>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: the log-sum-exp is a dense f32 (heads, sequence) = 4x256xf32, not memref<4x255xf32>{{$}}

// -----

func.func @f(%Q: memref<4x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_100a"} {
  tc.attention %Q, %K, %V to %O : memref<4x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: 8-bit attention is built for sm_90a (wgmma); on sm_100a (tcgen05) Q, K and V are bf16 or f16{{$}}

// -----

func.func @f(%Q: memref<2x4x256x64xbf16, strided<[65536, 16384, 1, 256]>>, %K: memref<2x4x256x64xbf16>, %V: memref<2x4x256x64xbf16>, %O: memref<2x4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x4x256x64xbf16, strided<[65536, 16384, 1, 256]>>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q's head dim is contiguous (its stride 1), not strides [65536, 16384, 1, 256]{{$}}

// -----

func.func @f(%Q: memref<2x4x256x64xbf16>, %K: memref<4x256x64xbf16>, %V: memref<4x256x64xbf16>, %O: memref<2x4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x4x256x64xbf16>, memref<4x256x64xbf16>, memref<4x256x64xbf16>, memref<2x4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q, K, V and O are all 4-d (batch, heads, sequence, head dim) or all 3-d (heads, sequence, head dim){{$}}

// -----

func.func @f(%Q: memref<2x4x256x64xbf16>, %K: memref<1x4x256x64xbf16>, %V: memref<1x4x256x64xbf16>, %O: memref<2x4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x4x256x64xbf16>, memref<1x4x256x64xbf16>, memref<1x4x256x64xbf16>, memref<2x4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: K's batch 1 is not Q's 2{{$}}

// -----

func.func @f(%Q: memref<2x4x256x64xbf16, strided<[65536, 16384, 66, 1]>>, %K: memref<2x4x256x64xbf16>, %V: memref<2x4x256x64xbf16>, %O: memref<2x4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x4x256x64xbf16, strided<[65536, 16384, 66, 1]>>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q's sequence stride 66 is not a positive multiple of 16 bytes (TMA's rule): strides [65536, 16384, 66, 1]{{$}}

// -----

func.func @f(%Q: memref<2x4x256x64xbf16>, %K: memref<2x4x256x64xbf16>, %V: memref<2x4x256x64xbf16>, %O: memref<2x4x256x64xbf16, strided<[16384, 8, 64, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16, strided<[16384, 8, 64, 1]>>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: O's strides [16384, 8, 64, 1] put two of its elements at one address{{$}}

// -----

func.func @f(%Q: memref<2x4x256x64xbf16, strided<[65536, 16384, 64, 1], offset: 64>>, %K: memref<2x4x256x64xbf16>, %V: memref<2x4x256x64xbf16>, %O: memref<2x4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x4x256x64xbf16, strided<[65536, 16384, 64, 1], offset: 64>>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>, memref<2x4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q has the default layout or a strided one of offset 0, not strided<[65536, 16384, 64, 1], offset: 64>{{$}}

// -----

func.func @f(%Q: memref<4x256x64xbf16>, %K: memref<2x256x64xbf16>, %V: memref<2x256x64xbf16>, %O: memref<4x256x64xf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<4x256x64xbf16>, memref<2x256x64xbf16>, memref<2x256x64xbf16>, memref<4x256x64xf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q, K, V and O have one element type, not bf16, f16{{$}}

// -----

func.func @f(%Q: memref<4x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN, strided<[16384, 1, 256]>>, %O: memref<4x256x64xf8E4M3FN>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<4x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN, strided<[16384, 1, 256]>>, memref<4x256x64xf8E4M3FN>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: O of an 8-bit attention is bf16 or f16, not e4m3{{$}}

// -----

func.func @f(%Q: memref<4x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN, strided<[32768, 128, 2]>>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<4x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN, strided<[32768, 128, 2]>>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: an 8-bit V has its head dim contiguous (transposed in shared memory) or its keys (V^T in memory, strides [..., 1, S_k]), not strides [32768, 128, 2]{{$}}

// -----

func.func @f(%Q: memref<4x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E4M3FN, strided<[16896, 1, 264]>>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<4x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN, strided<[16896, 1, 264]>>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: V's head dim stride 264 is not a positive multiple of 16 bytes (TMA's rule): strides [16896, 1, 264]{{$}}

// -----

func.func @f(%Q: memref<4x256x64xf8E4M3FN>, %K: memref<2x256x64xf8E4M3FN>, %V: memref<2x256x64xf8E5M2, strided<[16384, 1, 256]>>, %O: memref<4x256x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<4x256x64xf8E4M3FN>, memref<2x256x64xf8E4M3FN>, memref<2x256x64xf8E5M2, strided<[16384, 1, 256]>>, memref<4x256x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q, K and V have one element type, not e4m3, e5m2{{$}}

// -----

func.func @f(%Q: memref<1x64x64xbf16>, %K: memref<0x64x64xbf16>, %V: memref<0x64x64xbf16>, %O: memref<1x64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<1x64x64xbf16>, memref<0x64x64xbf16>, memref<0x64x64xbf16>, memref<1x64x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: K's heads is 0: an attention's tensors have at least one of each{{$}}

// -----

func.func @f(%Q: memref<1x1073741825x64xbf16>, %K: memref<1x64x64xbf16>, %V: memref<1x64x64xbf16>, %O: memref<1x1073741825x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<1x1073741825x64xbf16>, memref<1x64x64xbf16>, memref<1x64x64xbf16>, memref<1x1073741825x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q's sequence is 1073741825: at most 1073741824 (2^30; the kernel's positions and its mask's are 32-bit numbers, with room for a block past the end){{$}}

// -----

func.func @f(%Q: memref<70000x64x64xbf16>, %K: memref<1x64x64xbf16>, %V: memref<1x64x64xbf16>, %O: memref<70000x64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<70000x64x64xbf16>, memref<1x64x64xbf16>, memref<1x64x64xbf16>, memref<70000x64x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: Q's heads is 70000: the kernel runs a CTA per head along the grid's y, which CUDA launches up to 65535{{$}}

// -----

func.func @f(%Q: memref<1x64x64xf8E4M3FN>, %K: memref<1x1x64xf8E4M3FN>, %V: memref<1x1x64xf8E4M3FN, strided<[64, 1, 1]>>, %O: memref<1x64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<1x64x64xf8E4M3FN>, memref<1x1x64xf8E4M3FN>, memref<1x1x64xf8E4M3FN, strided<[64, 1, 1]>>, memref<1x64x64xbf16>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: V's row stride 1 is less than its rows' length 64: TMA reads whole rows (strides [64, 1, 1]){{$}}

// -----

func.func @f(%Q: memref<2x64x64xbf16>, %K: memref<2x64x64xbf16>, %V: memref<2x64x64xbf16>, %O: memref<2x64x64xbf16, strided<[1099511627776, 64, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O : memref<2x64x64xbf16>, memref<2x64x64xbf16>, memref<2x64x64xbf16>, memref<2x64x64xbf16, strided<[1099511627776, 64, 1]>>
  func.return
}
// CHECK: op-diagnostics.mlir:[[# @LINE - 3]]:3: error: O's heads stride 1099511627776 is 2199023255552 bytes: strides are below 2^40 bytes (no GPU holds more){{$}}
