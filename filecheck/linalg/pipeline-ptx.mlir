// lower-tc on linalg: the default pipeline converts first, then compiles the GEMM.
// RUN: lower-tc %s --split-input-file | filecheck %s

// x @ W^T: B is read through a view of W (N x K), a K-major tile; the metadata says so.
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @xwt(%x: memref<2000x1024xbf16>, %w: memref<3000x1024xbf16>, %y: memref<2000x3000xf32>) attributes {tc.target = "sm_90a"} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<2000x3000xf32>)
  linalg.generic {indexing_maps = [#a, #bt, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2000x1024xbf16>, memref<3000x1024xbf16>) outs(%y : memref<2000x3000xf32>) {
  ^bb0(%xa: bf16, %wb: bf16, %acc: f32):
    %x32 = arith.extf %xa : bf16 to f32
    %w32 = arith.extf %wb : bf16 to f32
    %p = arith.mulf %x32, %w32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: // lower-tc kernel xwt:
// CHECK-SAME: "param": "p_w", "shape": [3000, 1024], "strides": [1024, 1]
// CHECK-SAME: "gemm": {"a": 0, "acc": "f32", "b": 1, "b_transposed": true, "c": null,
// CHECK-SAME: "k": 1024, "m": 2000, "n": 3000
// CHECK-SAME: {"arg": 1, "box": [64, 192], "dtype": "bf16", "global_dims": [1024, 3000], "global_strides": [2048]
// CHECK: .entry xwt(
// CHECK: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16

// -----

// Sizes known at launch, A stored K x M: K is A's row count (p_A_rows).
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#d = affine_map<(m, n, k) -> (m, n)>
func.func @dynamic(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %D: memref<?x?xf32>) attributes {tc.target = "sm_90a"} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%D : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#at, #b, #d], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xf16>, memref<?x?xf16>) outs(%D : memref<?x?xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: // lower-tc kernel dynamic:
// CHECK-SAME: "gemm": {"a": 0, "a_transposed": true,
// CHECK: ld.param.u32 [[ROWS:%r[0-9]+]], [p_A_rows];
// CHECK: add.s32 {{%r[0-9]+}}, [[ROWS]], 63;
// CHECK-NEXT: // K steps, from the size known at launch

// -----

// No fill: D += A x B, C is D. The register epilogue reads each element of C at D's own
// address before it stores D there (the TMA-store epilogue takes no C).
func.func @accumulate(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  linalg.matmul ins(%A, %B : memref<256x64xbf16>, memref<64x256xbf16>) outs(%D : memref<256x256xbf16>)
  func.return
}
// CHECK-LABEL: // lower-tc kernel accumulate:
// CHECK-SAME: "c": 2, {{.*}}"d": 2,
// CHECK-NOT: stmatrix
// CHECK: // epilogue: 64x64xf32 into D (bf16) + C (bf16)
// CHECK: mul.wide.s32 {{%rd[0-9]+}}, [[ROW:%r[0-9]+]], 512;
// CHECK-NEXT: mul.wide.s32 {{%rd[0-9]+}}, [[COL:%r[0-9]+]], 2;
// CHECK-NEXT: add.s64
// CHECK-NEXT: add.s64 [[D0:%rd[0-9]+]], [[BASE:%rd[0-9]+]],
// CHECK: mul.wide.s32 {{%rd[0-9]+}}, [[ROW]], 512;
// CHECK-NEXT: mul.wide.s32 {{%rd[0-9]+}}, [[COL]], 2;
// CHECK-NEXT: add.s64
// CHECK-NEXT: add.s64 [[C0:%rd[0-9]+]], [[BASE]],
// CHECK-NOT: st.global
// CHECK: ld.global.b16 {{%h[0-9]+}}, {{\[}}[[C0]]];
// CHECK-NOT: st.global
// CHECK: ld.global.b16 {{%h[0-9]+}}, {{\[}}[[C0]]+2];
// CHECK: st.global.b32 {{\[}}[[D0]]],

// -----

// The same on sm_100a: each epilogue thread reads its row of C from D's row, element by
// element before the store.
func.func @accumulate_tcgen05(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_100a"} {
  linalg.matmul ins(%A, %B : memref<256x64xbf16>, memref<64x256xbf16>) outs(%D : memref<256x256xbf16>)
  func.return
}
// CHECK-LABEL: // lower-tc kernel accumulate_tcgen05:
// CHECK-SAME: "target": "sm_100a"
// CHECK: // epilogue: 128x128xf32 from tensor memory into D (bf16)
// CHECK: mul.wide.s32 {{%rd[0-9]+}}, [[ROW:%r[0-9]+]], 512;
// CHECK-NEXT: mul.wide.s32 {{%rd[0-9]+}}, [[COL:%r[0-9]+]], 2;
// CHECK-NEXT: add.s64
// CHECK-NEXT: add.s64 [[D0:%rd[0-9]+]], [[BASE:%rd[0-9]+]],
// CHECK-NEXT: mul.wide.s32 {{%rd[0-9]+}}, [[ROW]], 512;
// CHECK-NEXT: mul.wide.s32 {{%rd[0-9]+}}, [[COL]], 2;
// CHECK-NEXT: add.s64
// CHECK-NEXT: add.s64 [[C0:%rd[0-9]+]], [[BASE]],
// CHECK-NOT: st.global
// CHECK: ld.global.b16 {{%h[0-9]+}}, {{\[}}[[C0]]];
// CHECK-NOT: st.global
// CHECK: ld.global.b16 {{%h[0-9]+}}, {{\[}}[[C0]]+2];
// CHECK: st.global.b32 {{\[}}[[D0]]],
