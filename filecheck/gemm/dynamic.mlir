// Sizes known only at launch: K comes from memref.dim, the grid from D's sizes, and each
// dynamic argument has .u32 parameters that the kernel reads.
// RUN: lower-tc %examples/gemm_bf16_dynamic.mlir -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=LOOP
// RUN: lower-tc %examples/gemm_bf16_dynamic.mlir | filecheck %s

// LOOP: tc.grid = {{\[}}[2 : i64, 1 : i64, 256 : i64], [2 : i64, 0 : i64, 128 : i64], 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized>} {
// LOOP: %k_end = memref.dim %A, %{{.*}} : memref<?x?xbf16>
// LOOP: scf.for %k = %c0 to %k_end step %bk

// CHECK: // lower-tc kernel gemm_bf16_dynamic: {{.*}}"grid": [{"arg": 2, "dim": 1, "tile": 256}, {"arg": 2, "dim": 0, "tile": 128}, 1]
// CHECK-SAME: "size_params": [{"arg": 0, "param": "p_A_rows", "what": "rows"}
// CHECK-SAME: "global_dims": null, "global_strides": null
// CHECK: .param .u64 p_D,
// CHECK-NEXT: .param .u32 p_A_rows,
// CHECK-NEXT: .param .u32 p_A_cols,
// CHECK-NEXT: .param .u32 p_A_ld,
// CHECK: .param .u32 p_D_ld,
// CHECK-NEXT: .param .align 64 .b8 tmap_0[128],
// CHECK: ld.param.u32 %r[[K:[0-9]+]], [p_A_cols];
// The K steps: ceil(K / 64), counted at run time (the producer's and the consumers' loops)
// CHECK: add.s32 %r[[SPAN:[0-9]+]], %r[[K]], 63;
// CHECK: div.s32 %r[[TRIPS:[0-9]+]], %r[[SPAN]], 64;
// CHECK: $L_for_0_head:
// CHECK-NEXT: setp.ge.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, %r[[TRIPS]];
// Every store is guarded by D's rows and columns, read from its parameters
// CHECK: $L_for_0_end:
// CHECK: setp.lt.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK: st.global.b16
