// The structure of emitted wgmma kernels (sm_90a): copies, the proxy fence and barrier
// before the tensor core reads, one mma_async per 32-byte K-slice between wgmma.fence
// and commit/wait, and the accumulator fragment written back.
// RUN: lower-tc %s --split-input-file | filecheck %s

// A and B from shared memory, copied by the threads; zero accumulator; 2 K-slices.
func.func @smem_ab(%A: memref<64x32xf16>, %B: memref<32x8xf16>, %D: memref<64x8xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<8x32xf16, #tc.layout<k, swizzle = none>>
  tc.copy %A to %a as a : memref<64x32xf16>, !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  tc.copy %B to %b as b : memref<32x8xf16>, !tc.tile<8x32xf16, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<64x8xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>, !tc.tile<8x32xf16, #tc.layout<k, swizzle = none>>, !tc.acc<64x8xf32>
  tc.acc_store %d to %D : !tc.acc<64x8xf32>, memref<64x8xf32>
  func.return
}
// CHECK: .version 8.0
// CHECK-NEXT: .target sm_90a
// CHECK: .global .align 16 .u32 lower_tc_smem_ab_table_0[512]
// CHECK: .global .align 16 .u32 lower_tc_smem_ab_table_1[64]
// CHECK: .extern .shared .align 1024 .b8 smem[];
// CHECK: .visible .entry smem_ab(
// CHECK-NEXT: .param .u64 p_A,
// CHECK-NEXT: .param .u64 p_B,
// CHECK-NEXT: .param .u64 p_D
// CHECK-NEXT: )
// CHECK-NEXT: .reqntid 128, 1, 1
// CHECK: mov.u32 [[TID:%r[0-9]+]], %tid.x;
// CHECK-NEXT: mov.u32 [[SMEM:%r[0-9]+]], smem;
// CHECK-NEXT: shr.u32 [[S4:%r[0-9]+]], [[SMEM]], 4;
// CHECK-NEXT: cvt.u64.u32 [[SMEM16:%rd[0-9]+]], [[S4]];
// CHECK: // a copy by threads: 256 chunks of 16 bytes
// CHECK: st.shared.v4.b32
// CHECK: st.shared.v4.b32
// CHECK-NOT: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK: // b copy by threads: 32 chunks of 16 bytes
// 32 chunks for 128 threads: the threads past the end skip their store
// CHECK: setp.ge.u32 [[DONE:%p[0-9]+]], [[TID]], 32;
// CHECK-NEXT: @[[DONE]] bra $L_copy_done_[[L:[0-9]+]];
// CHECK: st.shared.v4.b32
// CHECK-NEXT: $L_copy_done_[[L]]:
// CHECK-NEXT: // make the stores visible to the tensor core
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// the zero accumulator: 4 f32 registers per thread for N = 8
// CHECK: mov.f32 %f0, 0f00000000;
// CHECK: mov.f32 %f3, 0f00000000;
// descriptors: the encoded value plus the runtime shared-memory base >> 4. B (8x32, no
// swizzle, at 0x1000): LBO = SBO = 128; its second K-slice starts two 16-byte columns on.
// A (64x32, 64B swizzle, at 0): SBO = 512, LBO encoded 1, +32 bytes per K-slice.
// CHECK: mov.b64 [[B0:%rd[0-9]+]], 0x0000000800080100;
// CHECK-NEXT: add.s64 [[B0D:%rd[0-9]+]], [[B0]], [[SMEM16]];
// CHECK-NEXT: mov.b64 [[B1:%rd[0-9]+]], 0x0000000800080110;
// CHECK-NEXT: add.s64 [[B1D:%rd[0-9]+]], [[B1]], [[SMEM16]];
// CHECK-NEXT: mov.b64 [[A0:%rd[0-9]+]], 0x8000002000010000;
// CHECK-NEXT: add.s64 [[A0D:%rd[0-9]+]], [[A0]], [[SMEM16]];
// CHECK-NEXT: mov.b64 [[A1:%rd[0-9]+]], 0x8000002000010002;
// CHECK-NEXT: add.s64 [[A1D:%rd[0-9]+]], [[A1]], [[SMEM16]];
// CHECK-NEXT: // wgmma m64n8k16, 2 K-slices
// CHECK-NEXT: wgmma.fence.sync.aligned;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
// CHECK-NEXT: {%f0, %f1, %f2, %f3},
// CHECK-NEXT: [[A0D]],
// CHECK-NEXT: [[B0D]],
// scale-d, imm-scale-a, imm-scale-b, imm-trans-a (K-major: 0), imm-trans-b (K-major: 0)
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 0,
// CHECK-NEXT: 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
// CHECK-NEXT: {%f0, %f1, %f2, %f3},
// CHECK-NEXT: [[A1D]],
// CHECK-NEXT: [[B1D]],
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// D[16w + g + 8h][2q + c]: rows 8 apart are 8 * 8 * 4 = 256 bytes apart
// CHECK: st.global.v2.f32 [[[D:%rd[0-9]+]]], {%f0, %f1};
// CHECK-NEXT: st.global.v2.f32 [[[D]]+256], {%f2, %f3};
// CHECK-NEXT: ret;

// -----

// A in registers (loaded from its tile), B by TMA, C loaded into the accumulator.
func.func @regs_a_tma_b(%A: memref<64x32xbf16>, %B: memref<32x16xbf16>, %C: memref<64x16xf32>, %D: memref<64x16xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = 32b>>
  tc.copy %A to %a as a : memref<64x32xbf16>, !tc.tile<64x32xbf16, #tc.layout<k, swizzle = 64b>>
  tc.copy %B to %b as b via tma : memref<32x16xbf16>, !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = 32b>>
  %c = tc.acc_load %C : memref<64x16xf32> -> !tc.acc<64x16xf32>
  %d = tc.wgmma %a, %b, %c a_in_registers : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = 64b>>, !tc.tile<16x32xbf16, #tc.layout<mn, swizzle = 32b>>, !tc.acc<64x16xf32>
  tc.acc_store %d to %D : !tc.acc<64x16xf32>, memref<64x16xf32>
  func.return
}
// CHECK: .visible .entry regs_a_tma_b(
// CHECK: .param .u64 p_D,
// the tensor map is a 64-byte-aligned kernel parameter
// CHECK-NEXT: .param .align 64 .b8 tmap_0[128]
// CHECK: // b copy by TMA: 1 boxes of 16x32, swizzle 32b
// CHECK-NEXT: mov.b64 [[TMAP:%rd[0-9]+]], tmap_0;
// CHECK-NEXT: cvta.param.u64 [[TMAP]], [[TMAP]];
// CHECK-NEXT: @!%p0 bra $L_mbarrier_ready_[[L1:[0-9]+]];
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [[[S:%r[0-9]+]]+[[MBAR:[0-9]+]]], 1;
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK-NEXT: $L_mbarrier_ready_[[L1]]:
// CHECK-NEXT: bar.sync 0;
// one thread arms the barrier with the box's bytes (16 x 32 bf16 = 1024) and issues the copy
// CHECK-NEXT: @!%p0 bra $L_tma_issued_[[L2:[0-9]+]];
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64 _, [[[S]]+[[MBAR]]], 1024;
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [[[S]]+4096], [[[TMAP]], {0, 0}], [[[S]]+[[MBAR]]];
// CHECK-NEXT: $L_tma_issued_[[L2]]:
// CHECK-NEXT: $L_wait_[[L3:[0-9]+]]:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 [[READY:%p[0-9]+]], [[[S]]+[[MBAR]]], 0;
// CHECK-NEXT: @![[READY]] bra $L_wait_[[L3]];
// CHECK-NEXT: bar.sync 0;
// C: four v2 loads per thread at the fragment's offsets (+8 rows = 512 B, +8 columns = 32 B)
// CHECK: ld.global.v2.f32 {%f0, %f1}, [[[C:%rd[0-9]+]]];
// CHECK-NEXT: ld.global.v2.f32 {%f2, %f3}, [[[C]]+512];
// CHECK-NEXT: ld.global.v2.f32 {%f4, %f5}, [[[C]]+32];
// CHECK-NEXT: ld.global.v2.f32 {%f6, %f7}, [[[C]]+544];
// CHECK: // A fragments from the A tile
// CHECK-COUNT-8: ld.shared.b32
// CHECK: wgmma.fence.sync.aligned;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// CHECK-NEXT: {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7},
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// register A: scale-d, imm-scale-a, imm-scale-b, imm-trans-b (MN-major B: 1), no trans-a
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK-COUNT-4: st.global.v2.f32
// CHECK-NEXT: ret;

// -----

// fp8 with mixed operand types and an f16 accumulator: k32 per instruction, no
// transpose or negate immediates for 8-bit types, f16 pairs packed in b32 registers.
func.func @fp8_mixed(%A: memref<64x32xf8E4M3FN>, %B: memref<32x16xf8E5M2>, %D: memref<64x16xf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<16x32xf8E5M2, #tc.layout<k, swizzle = 32b>>
  tc.copy %A to %a as a : memref<64x32xf8E4M3FN>, !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>
  tc.copy %B to %b as b : memref<32x16xf8E5M2>, !tc.tile<16x32xf8E5M2, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<64x16xf16>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>, !tc.tile<16x32xf8E5M2, #tc.layout<k, swizzle = 32b>>, !tc.acc<64x16xf16>
  tc.acc_store %d to %D : !tc.acc<64x16xf16>, memref<64x16xf16>
  func.return
}
// CHECK: .visible .entry fp8_mixed(
// CHECK: // wgmma m64n16k32, 1 K-slices
// CHECK-NEXT: wgmma.fence.sync.aligned;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n16k32.f16.e4m3.e5m2
// CHECK-NEXT: {%r[[R0:[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1;
// CHECK-NEXT: wgmma.commit_group.sync.aligned;
// f16 fragment: register j holds row 16w + g + 8(j & 1), columns 8(j >> 1) + 2q + {0, 1}
// CHECK: st.global.b32 [[[D:%rd[0-9]+]]], %r[[R0]];
// CHECK-NEXT: st.global.b32 [[[D]]+256], %r{{[0-9]+}};
// CHECK-NEXT: st.global.b32 [[[D]]+16], %r{{[0-9]+}};
// CHECK-NEXT: st.global.b32 [[[D]]+272], %r{{[0-9]+}};
// CHECK-NEXT: ret;

// -----

// s8 x u8 -> s32 needs PTX ISA 8.4 (ptxas rejects mixed integer wgmma below it);
// integer wgmma takes only scale-d.
func.func @s8_u8(%A: memref<64x32xsi8>, %B: memref<32x16xui8>, %D: memref<64x16xi32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xsi8, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<16x32xui8, #tc.layout<k, swizzle = 32b>>
  tc.copy %A to %a as a : memref<64x32xsi8>, !tc.tile<64x32xsi8, #tc.layout<k, swizzle = 32b>>
  tc.copy %B to %b as b : memref<32x16xui8>, !tc.tile<16x32xui8, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<64x16xi32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xsi8, #tc.layout<k, swizzle = 32b>>, !tc.tile<16x32xui8, #tc.layout<k, swizzle = 32b>>, !tc.acc<64x16xi32>
  tc.acc_store %d to %D : !tc.acc<64x16xi32>, memref<64x16xi32>
  func.return
}
// CHECK: .version 8.4
// CHECK: .visible .entry s8_u8(
// CHECK: wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.u8
// CHECK-NEXT: {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1;
// CHECK-COUNT-4: st.global.v2.s32

// -----

// A padded global B whose rows (20 f16 = 40 bytes) are not 16-byte aligned: its chunks are
// contiguous but cannot be loaded 16 bytes at a time, so the threads load them element by
// element; A's rows (64 bytes) still get one 16-byte load per chunk.
func.func @misaligned_rows(%A: memref<64x32xf16>, %B: memref<32x16xf16, strided<[20, 1]>>, %D: memref<64x16xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<16x32xf16, #tc.layout<mn, swizzle = 32b>>
  tc.copy %A to %a as a : memref<64x32xf16>, !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  tc.copy %B to %b as b : memref<32x16xf16, strided<[20, 1]>>, !tc.tile<16x32xf16, #tc.layout<mn, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<64x16xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>, !tc.tile<16x32xf16, #tc.layout<mn, swizzle = 32b>>, !tc.acc<64x16xf32>
  tc.acc_store %d to %D : !tc.acc<64x16xf32>, memref<64x16xf32>
  func.return
}
// CHECK: .visible .entry misaligned_rows(
// CHECK: // a copy by threads: 256 chunks of 16 bytes
// CHECK: ld.global.v4.b32
// CHECK: // b copy by threads: 64 chunks of 16 bytes
// CHECK-NOT: ld.global.v4.b32
// CHECK-COUNT-8: ld.global.b16 %h{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// CHECK-NOT: ld.global.v4.b32
// CHECK: wgmma.fence.sync.aligned;
