// The structure of emitted WMMA kernels: one warp, fragments loaded from global memory
// with the layout and the stride (the memref's row length, in elements), mma with both
// layouts in its name, and the store with its own layout.
// RUN: lower-tc %s --split-input-file | filecheck %s

func.func @f16_row_col(%A: memref<16x32xf16>, %Bt: memref<16x32xf16>, %D: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c0 = tc.wmma_zero : !tc.wmma_frag<c, m16n16k16, f32>
  %a1 = tc.wmma_load %A[0, 16] : memref<16x32xf16> -> !tc.wmma_frag<a, m16n16k16, f16, row>
  %b1 = tc.wmma_load %Bt[0, 16] : memref<16x32xf16> -> !tc.wmma_frag<b, m16n16k16, f16, col>
  %c1 = tc.wmma_mma %a1, %b1, %c0 : !tc.wmma_frag<a, m16n16k16, f16, row>, !tc.wmma_frag<b, m16n16k16, f16, col>, !tc.wmma_frag<c, m16n16k16, f32> -> !tc.wmma_frag<c, m16n16k16, f32>
  tc.wmma_store %c1 to %D[0, 0] row : !tc.wmma_frag<c, m16n16k16, f32>, memref<16x16xf32>
  func.return
}
// CHECK: .visible .entry f16_row_col(
// CHECK: .reqntid 32, 1, 1
// CHECK-COUNT-8: mov.f32 %f{{[0-9]+}}, 0f00000000;
// element offset [0, 16] of a 32-wide f16 row: 32 bytes
// CHECK: add.u64 [[PA:%rd[0-9]+]], %rd{{[0-9]+}}, 32;
// CHECK-NEXT: wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {[[A0:%r[0-9]+]], {{.*}}}, [[[PA]]], 32;
// CHECK: add.u64 [[PB:%rd[0-9]+]], %rd{{[0-9]+}}, 32;
// CHECK-NEXT: wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {[[B0:%r[0-9]+]], {{.*}}}, [[[PB]]], 32;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CHECK-NEXT: {[[D0:%f[0-9]+]], {{.*}}},
// CHECK-NEXT: {[[A0]], {{.*}}},
// CHECK-NEXT: {[[B0]], {{.*}}},
// CHECK-NEXT: {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd{{[0-9]+}}], {[[D0]], {{.*}}}, 16;
// CHECK-NEXT: ret;

// -----

// bf16 (m32n8k16), integer (m8n32k16) and tf32 (m16n16k8) name all four types; an
// accumulator loaded from C; a col-major store with a padded stride.
func.func @types(%A: memref<32x16xbf16>, %B: memref<16x8xbf16>, %C: memref<32x8xf32>, %D: memref<8x32xf32>,
                 %X: memref<8x16xsi8>, %Y: memref<32x16xsi8>, %Z: memref<8x32xi32>,
                 %T: memref<16x8xtf32>, %U: memref<8x16xtf32>, %V: memref<16x16xf32>) attributes {tc.target = "sm_90a"} {
  %c = tc.wmma_load %C[0, 0] : memref<32x8xf32> -> !tc.wmma_frag<c, m32n8k16, f32>
  %a = tc.wmma_load %A[0, 0] : memref<32x16xbf16> -> !tc.wmma_frag<a, m32n8k16, bf16, row>
  %b = tc.wmma_load %B[0, 0] : memref<16x8xbf16> -> !tc.wmma_frag<b, m32n8k16, bf16, row>
  %d = tc.wmma_mma %a, %b, %c : !tc.wmma_frag<a, m32n8k16, bf16, row>, !tc.wmma_frag<b, m32n8k16, bf16, row>, !tc.wmma_frag<c, m32n8k16, f32> -> !tc.wmma_frag<c, m32n8k16, f32>
  tc.wmma_store %d to %D[0, 0] col : !tc.wmma_frag<c, m32n8k16, f32>, memref<8x32xf32>
  %zi = tc.wmma_zero : !tc.wmma_frag<c, m8n32k16, i32>
  %x = tc.wmma_load %X[0, 0] : memref<8x16xsi8> -> !tc.wmma_frag<a, m8n32k16, si8, row>
  %y = tc.wmma_load %Y[0, 0] : memref<32x16xsi8> -> !tc.wmma_frag<b, m8n32k16, si8, col>
  %z = tc.wmma_mma %x, %y, %zi : !tc.wmma_frag<a, m8n32k16, si8, row>, !tc.wmma_frag<b, m8n32k16, si8, col>, !tc.wmma_frag<c, m8n32k16, i32> -> !tc.wmma_frag<c, m8n32k16, i32>
  tc.wmma_store %z to %Z[0, 0] row : !tc.wmma_frag<c, m8n32k16, i32>, memref<8x32xi32>
  %zt = tc.wmma_zero : !tc.wmma_frag<c, m16n16k8, f32>
  %t = tc.wmma_load %T[0, 0] : memref<16x8xtf32> -> !tc.wmma_frag<a, m16n16k8, tf32, row>
  %u = tc.wmma_load %U[0, 0] : memref<8x16xtf32> -> !tc.wmma_frag<b, m16n16k8, tf32, row>
  %v = tc.wmma_mma %t, %u, %zt : !tc.wmma_frag<a, m16n16k8, tf32, row>, !tc.wmma_frag<b, m16n16k8, tf32, row>, !tc.wmma_frag<c, m16n16k8, f32> -> !tc.wmma_frag<c, m16n16k8, f32>
  tc.wmma_store %v to %V[0, 0] row : !tc.wmma_frag<c, m16n16k8, f32>, memref<16x16xf32>
  func.return
}
// CHECK: .visible .entry types(
// CHECK: wmma.load.c.sync.aligned.row.m32n8k16.global.f32 {{{.*}}}, [%rd{{[0-9]+}}], 8;
// bf16 A of m32n8k16 is 8 registers, B is 2
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.load.a.sync.aligned.row.m32n8k16.global.bf16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.load.b.sync.aligned.row.m32n8k16.global.bf16 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], 8;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.mma.sync.aligned.row.row.m32n8k16.f32.bf16.bf16.f32
// CHECK: wmma.store.d.sync.aligned.col.m32n8k16.global.f32 [%rd{{[0-9]+}}], {{{.*}}}, 32;
// CHECK: wmma.load.a.sync.aligned.row.m8n32k16.global.s8 {%r{{[0-9]+}}}, [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.load.b.sync.aligned.col.m8n32k16.global.s8 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32
// CHECK: wmma.store.d.sync.aligned.row.m8n32k16.global.s32 [%rd{{[0-9]+}}], {{{.*}}}, 32;
// CHECK: wmma.load.a.sync.aligned.row.m16n16k8.global.tf32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], 8;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.load.b.sync.aligned.row.m16n16k8.global.tf32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: // from
// CHECK-NEXT: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32
// CHECK: wmma.store.d.sync.aligned.row.m16n16k8.global.f32 [%rd{{[0-9]+}}], {{{.*}}}, 16;
// CHECK-NEXT: ret;
