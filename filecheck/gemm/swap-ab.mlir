// Swap-AB (passes/expand_matmul/swap_ab.py): a decoding GEMM D = x W^T (M <= 80) becomes
// D^T = W x^T: the weight is wgmma's A (64 rows of N a CTA), x^T its B (N' = M rounded up
// to 8), D^T a column-major view of D that the TMA-store epilogue stages transposed
// (swap-ab-tma.mlir) or the register epilogue stores down D's rows, and the launch
// metadata says d_transposed.
// RUN: lower-tc %s --split-input-file -p 'tc-expand-matmul{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s --split-input-file -p tc-expand-matmul -t mlir | filecheck %s
// RUN: lower-tc %s --split-input-file -t ptx | filecheck %s --check-prefix=PTX

// M = 16, W held N x K (nn.Linear's weight) and read through B's view: A' is W itself.
func.func @decode(%x: memref<16x4096xbf16>, %W: memref<6144x4096xbf16>, %D: memref<16x6144xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<6144x4096xbf16> to memref<4096x6144xbf16, strided<[1, 4096]>>
  tc.matmul %x, %B to %D : memref<16x4096xbf16>, memref<4096x6144xbf16, strided<[1, 4096]>>, memref<16x6144xbf16>
  func.return
}
// REMARK: swap-ab.mlir:13:3: remark: 64x16x128, 8 stages (1 warpgroup(s), warp_specialized, raster 8, swapped: D^T = B^T A^T) for 6144x16x4096 (chosen)
// CHECK-LABEL: func.func @decode(
// CHECK-SAME: tc.grid = [96 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
// CHECK-NEXT: %x_t = tc.transpose %x : memref<16x4096xbf16> to memref<4096x16xbf16, strided<[1, 4096]>>
// CHECK-NEXT: %D_t = tc.transpose %D : memref<16x6144xbf16> to memref<6144x16xbf16, strided<[1, 6144]>>
// CHECK-NEXT: %a = tc.smem_tile {stages = 8 : i64} : !tc.tile<64x128xbf16, #tc.layout<k, swizzle = auto>>
// CHECK-NEXT: %b = tc.smem_tile {stages = 8 : i64} : !tc.tile<16x128xbf16, #tc.layout<k, swizzle = auto>>
// CHECK:      tc.window_load %W[%m0, %k] to %a as a : memref<6144x4096xbf16>
// CHECK-NEXT: tc.window_load %x_t[%k, %n0] to %b as b : memref<4096x16xbf16, strided<[1, 4096]>>
// CHECK:      tc.window_store %result to %D_t[%m0, %n0] : !tc.acc<64x16xf32>, memref<6144x16xbf16, strided<[1, 6144]>>
// the metadata: A is argument 1 (W), B argument 0 read transposed, D argument 2 written transposed
// PTX: // lower-tc kernel decode: {{.*}}"gemm": {"a": 1, "acc": "f32", "b": 0, "b_transposed": true, "c": null, "config": {"bk": 128, "bm": 64, "bn": 16, "stages": 8}, "d": 2, "d_transposed": true, "k": 4096, "m": 6144, "n": 16}
// PTX-NEXT: .visible .entry decode(
// D^T's 16 columns are 16 of D's rows: one transposed TMA-store piece (swap-ab-tma.mlir)
// PTX: transposed pieces (stmatrix.trans) of 16 rows of D by 64 columns
// PTX: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-NOT: st.global

// -----

// the register epilogue asked for: D^T stored down D's rows
func.func @decode_registers(%x: memref<16x4096xbf16>, %W: memref<6144x4096xbf16>, %D: memref<16x6144xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<6144x4096xbf16> to memref<4096x6144xbf16, strided<[1, 4096]>>
  tc.matmul %x, %B to %D {epilogue = "registers"} : memref<16x4096xbf16>, memref<4096x6144xbf16, strided<[1, 4096]>>, memref<16x6144xbf16>
  func.return
}
// REMARK: swap-ab.mlir:[[# @LINE - 3]]:3: remark: 64x16x128, 8 stages (1 warpgroup(s), warp_specialized, raster 8, swapped: D^T = B^T A^T) for 6144x16x4096 (chosen)
// PTX-LABEL: // lower-tc kernel decode_registers:
// PTX: // D^T: rows are contiguous
// PTX-NEXT: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 2;
// PTX-NEXT: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 12288;
// each thread's columns of D^T are rows of D, 6144 x 2 = 12288 bytes apart; no pairs
// PTX: st.global.b16 [%rd[[R0:[0-9]+]]], %h0;
// PTX: st.global.b16 [%rd[[R0]]+12288], %h1;
// PTX: st.global.b16 [%rd[[R1:[0-9]+]]], %h2;
// PTX: st.global.b16 [%rd[[R1]]+12288], %h3;
// PTX: st.global.b16 [%rd[[R0]]+98304], %h4;
// PTX-NOT: st.global.b32
// PTX-NOT: stmatrix

// -----

// M = 1, B row-major (K x N): A' = B^T is an MN-major view; D += x B (C is D): C' = D^T too.
// N = 10240 makes 160 tiles of 64 rows, more than a wave of 132 SMs: 128-row tiles.
func.func @gemv_plus(%x: memref<1x2048xbf16>, %B: memref<2048x10240xbf16>, %D: memref<1x10240xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %x, %B to %D plus %D : memref<1x2048xbf16>, memref<2048x10240xbf16>, memref<1x10240xf32>, memref<1x10240xf32>
  func.return
}
// REMARK: swap-ab.mlir:[[# @LINE - 3]]:3: remark: 128x8x128, 6 stages (2 warpgroup(s), warp_specialized, raster 8, swapped: D^T = B^T A^T) for 10240x1x2048 (chosen)
// CHECK-LABEL: func.func @gemv_plus(
// CHECK-NEXT: %B_t = tc.transpose %B : memref<2048x10240xbf16> to memref<10240x2048xbf16, strided<[1, 10240]>>
// CHECK-NEXT: %x_t = tc.transpose %x : memref<1x2048xbf16> to memref<2048x1xbf16, strided<[1, 2048]>>
// CHECK-NEXT: %D_t = tc.transpose %D : memref<1x10240xf32> to memref<10240x1xf32, strided<[1, 10240]>>
// CHECK-NEXT: %a = tc.smem_tile {stages = 6 : i64} : !tc.tile<128x128xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
// CHECK:      tc.window_store %result to %D_t[%m0, %n0] plus %D_t
// the one column of D^T: C read and D written where D is, each guarded at N' = 1
// PTX: // lower-tc kernel gemv_plus: {{.*}}"gemm": {"a": 1, "a_transposed": true, "acc": "f32", "b": 0, "b_transposed": true, "c": 2, "config": {"bk": 128, "bm": 128, "bn": 8, "stages": 6}, "d": 2, "d_transposed": true, "k": 2048, "m": 10240, "n": 1}
// PTX-NEXT: .visible .entry gemv_plus(
// PTX: setp.lt.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, 1;
// PTX: ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}];
// PTX: st.global.f32 [%rd{{[0-9]+}}], %f{{[0-9]+}};

// -----

// swap_ab = false keeps x as A (64-row tiles of one row each); swap_ab = true swaps any M.
func.func @kept(%x: memref<16x4096xbf16>, %B: memref<4096x6144xbf16>, %D: memref<16x6144xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %x, %B to %D {swap_ab = false} : memref<16x4096xbf16>, memref<4096x6144xbf16>, memref<16x6144xbf16>
  func.return
}
// REMARK: swap-ab.mlir:[[# @LINE - 3]]:3: remark: {{.*}}, raster {{[0-9]+}}) for 16x6144x4096 (chosen)
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: tc.transpose
// CHECK: tc.window_store %result to %D[%m0, %n0]

// -----

func.func @asked(%A: memref<512x1024xbf16>, %B: memref<1024x256xbf16>, %D: memref<512x256xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {swap_ab = true} : memref<512x1024xbf16>, memref<1024x256xbf16>, memref<512x256xf32>
  func.return
}
// the configuration given is the swapped kernel's (BM over N)
// REMARK: swap-ab.mlir:[[# @LINE - 4]]:3: remark: 128x128x64, 4 stages ({{.*}}swapped: D^T = B^T A^T) for 256x512x1024 (given)
// CHECK-LABEL: func.func @asked(
// CHECK-SAME: tc.grid = [8 : i64, 1 : i64, 1 : i64]
// CHECK: tc.window_store %result to %D_t[%m0, %n0] : !tc.acc<128x128xf32>, memref<256x512xf32, strided<[1, 256]>>

// -----

// fp8 with the promoted accumulation: swapped too (the second accumulator is 64 x 16)
func.func @promoted(%x: memref<16x4096xf8E4M3FN>, %W: memref<6144x4096xf8E4M3FN>, %D: memref<16x6144xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<6144x4096xf8E4M3FN> to memref<4096x6144xf8E4M3FN, strided<[1, 4096]>>
  tc.matmul %x, %B to %D {accumulation = "promoted"} : memref<16x4096xf8E4M3FN>, memref<4096x6144xf8E4M3FN, strided<[1, 4096]>>, memref<16x6144xbf16>
  func.return
}
// REMARK: swap-ab.mlir:[[# @LINE - 3]]:3: remark: 64x16x128, 16 stages (1 warpgroup(s), warp_specialized, raster 8, promoted accumulation, swapped: D^T = B^T A^T) for 6144x16x4096 (chosen)
// CHECK-LABEL: func.func @promoted(
// CHECK-SAME: tc.schedule = #tc.gemm_schedule<warp_specialized, accumulation = promoted>} {
// CHECK: tc.window_store %result to %D_t[%m0, %n0] : !tc.acc<64x16xf32>, memref<6144x16xbf16, strided<[1, 6144]>>

// -----

// A column-major D (and C) as a kernel argument, not a swap: tcgen05's epilogue (sm_100a,
// assembled only) stores each thread's row of D down its columns, 208 x 4 = 832 bytes apart.
func.func @d_column_major_sm100(%A: memref<200x256xbf16>, %B: memref<256x136xbf16>, %D: memref<200x136xf32, strided<[1, 208]>>) attributes {tc.target = "sm_100a"} {
  tc.matmul %A, %B to %D : memref<200x256xbf16>, memref<256x136xbf16>, memref<200x136xf32, strided<[1, 208]>>
  func.return
}
// REMARK: swap-ab.mlir:[[# @LINE - 3]]:3: remark: {{.*}}tcgen05{{.*}} for 200x136x256 (chosen)
// CHECK-LABEL: func.func @d_column_major_sm100(
// CHECK-NOT: tc.transpose
// CHECK: tc.window_store %result to %D[%m0, %n0] : !tc.acc<128x{{[0-9]+}}xf32>, memref<200x136xf32, strided<[1, 208]>>
// PTX-LABEL: .visible .entry d_column_major_sm100(
// PTX: st.global.f32 [%rd[[R:[0-9]+]]], %f{{[0-9]+}};
// PTX: st.global.f32 [%rd[[R]]+832], %f{{[0-9]+}};
// PTX: st.global.f32 [%rd[[R]]+1664], %f{{[0-9]+}};

// -----

// swap_ab with split_k = 2 and K = 104: two 128-byte rows of K a step would leave one K step
// for two CTAs, so the swapped tile keeps one-row steps (found by review after 083c8da)
func.func @split_short_k(%x: memref<16x104xbf16>, %W: memref<4096x104xbf16>, %D: memref<16x4096xbf16>) attributes {tc.target = "sm_90a"} {
  %B = tc.transpose %W : memref<4096x104xbf16> to memref<104x4096xbf16, strided<[1, 104]>>
  tc.matmul %x, %B to %D {swap_ab = true, split_k = 2} : memref<16x104xbf16>, memref<104x4096xbf16, strided<[1, 104]>>, memref<16x4096xbf16>
  func.return
}
// REMARK: swap-ab.mlir:[[# @LINE - 3]]:3: remark: 64x16x64, 16 stages (1 warpgroup(s), warp_specialized, raster 8, split over K by 2, swapped: D^T = B^T A^T) for 4096x16x104 (chosen)
// CHECK-LABEL: func.func @split_short_k(
// PTX-LABEL: // lower-tc kernel split_short_k: {{.*}}"config": {"bk": 64, "bm": 64, "bn": 16, "stages": 16}
