// fp8 attention with descaling factors (docs/attention.md, "Descaling factors"): q_descale,
// k_descale and v_descale are (batch, heads of K) f32 matrices read once per CTA at its batch
// and K head (memref.load); the scores' factor is their product times scale x log2 e, made
// NaN where it is below 0 (a negative factor would turn the row maximum into a minimum), and
// O's division by l is times v_descale. The metadata names the factors' arguments.
// RUN: lower-tc %s -p tc-expand-attention -t mlir | filecheck %s --check-prefix=LOOP
// RUN: lower-tc %s -t ptx | filecheck %s

func.func @descaled(%Q: memref<2x4x300x64xf8E4M3FN, strided<[76800, 64, 256, 1]>>, %K: memref<2x2x300x64xf8E4M3FN, strided<[38400, 64, 128, 1]>>, %V: memref<2x2x300x64xf8E4M3FN, strided<[38400, 64, 128, 1]>>, %O: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %QD: memref<2x2xf32>, %KD: memref<2x2xf32>, %VD: memref<2x2xf32, strided<[1, 2]>>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O q_descale %QD k_descale %KD v_descale %VD {causal} : memref<2x4x300x64xf8E4M3FN, strided<[76800, 64, 256, 1]>>, memref<2x2x300x64xf8E4M3FN, strided<[38400, 64, 128, 1]>>, memref<2x2x300x64xf8E4M3FN, strided<[38400, 64, 128, 1]>>, memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, memref<2x2xf32>, memref<2x2xf32>, memref<2x2xf32, strided<[1, 2]>>
  func.return
}
// LOOP: %batch = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
// LOOP: %kv_head = arith.divui %head, %group : index
// LOOP: %qd = memref.load %QD[%batch, %kv_head] : memref<2x2xf32>
// LOOP-NEXT: %kd = memref.load %KD[%batch, %kv_head] : memref<2x2xf32>
// LOOP-NEXT: %vd = memref.load %VD[%batch, %kv_head] : memref<2x2xf32, strided<[1, 2]>>
// LOOP-NEXT: %qkd = arith.mulf %qd, %kd : f32
// LOOP: tc.acc_row_max %{{.*}}, %{{.*}} scale 1.250000e-01 times %qkd :
// LOOP-NEXT: tc.acc_exp %{{.*}}, %{{.*}} scale 1.250000e-01 times %qkd :
// LOOP: tc.acc_row_div %{{.*}}, %{{.*}} times %vd :
// CHECK: // lower-tc kernel descaled: {{.*}}"attention": {"block_m": 192, "block_n": 128, "causal": 0, "k": 1, "keys": 300, "o": 3, "q": 0, "qk_descale": [4, 5], "scale": 0.125, "v": 2, "v_descale": [6]}
// K's head (the CTA's head / 2) and batch: (batch x 2 + head) x 4 bytes into QD and KD, (batch + head x 2) x 4 into VD
// CHECK: mov.u32 [[HEAD:%r[0-9]+]], %ctaid.y;
// CHECK: mov.u32 [[BATCH:%r[0-9]+]], %ctaid.z;
// CHECK: div.u32 [[KV:%r[0-9]+]], [[HEAD]], 2;
// (a unit stride is not multiplied)
// CHECK: mul.lo.s32 [[QB:%r[0-9]+]], [[BATCH]], 2;
// CHECK-NEXT: add.s32 [[QI:%r[0-9]+]], [[QB]], [[KV]];
// CHECK-NEXT: mul.wide.s32 [[QO:%rd[0-9]+]], [[QI]], 4;
// CHECK-NEXT: add.u64 [[QA:%rd[0-9]+]], %rd{{[0-9]+}}, [[QO]];
// CHECK-NEXT: // a factor known at launch
// CHECK-NEXT: ld.global.f32 [[QD:%f[0-9]+]], {{\[}}[[QA]]];
// CHECK: ld.global.f32 [[KD:%f[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: mul.lo.s32 [[VH:%r[0-9]+]], [[KV]], 2;
// CHECK-NEXT: add.s32 %r{{[0-9]+}}, [[BATCH]], [[VH]];
// CHECK: ld.global.f32 [[VD:%f[0-9]+]], [%rd{{[0-9]+}}];
// CHECK-NEXT: mul.f32 [[QKD:%f[0-9]+]], [[QD]], [[KD]];
// the scores' factor, once before the loop: scale x log2 e x q_descale x k_descale, NaN unless >= 0,
// at least the smallest normal f32 (a zero factor keeps masked scores -inf: a uniform softmax)
// CHECK: // the scores' factor: scores times 0.125 x log2 e x a factor known at launch
// CHECK-NEXT: mov.f32 [[C:%f[0-9]+]], 0f3E38AA3B;
// CHECK-NEXT: mul.f32 [[CF:%f[0-9]+]], [[C]], [[QKD]];
// CHECK-NEXT: mov.f32 [[ZERO:%f[0-9]+]], 0f00000000;
// CHECK-NEXT: setp.ge.f32 [[OK:%p[0-9]+]], [[CF]], [[ZERO]];
// CHECK-NEXT: mov.f32 [[TINY:%f[0-9]+]], 0f00800000;
// CHECK-NEXT: max.f32 [[CF0:%f[0-9]+]], [[CF]], [[TINY]];
// CHECK-NEXT: mov.f32 [[NAN:%f[0-9]+]], 0f7FC00000;
// CHECK-NEXT: selp.f32 [[FACTOR:%f[0-9]+]], [[CF0]], [[NAN]], [[OK]];
// each block's maximum and exponentials take it, with no factor of their own
// CHECK-NOT: a factor known at launch
// CHECK: max.f32
// CHECK: mul.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, [[FACTOR]];
// CHECK: ex2.approx.ftz.f32
// O over l, times v_descale
// CHECK: rcp.approx.ftz.f32 [[INV:%f[0-9]+]], %f{{[0-9]+}};
// CHECK: selp.f32 [[INV0:%f[0-9]+]], %f{{[0-9]+}}, [[INV]], %p{{[0-9]+}};
// CHECK-NEXT: mul.f32 %f{{[0-9]+}}, [[INV0]], [[VD]];
