// The structure of emitted tcgen05 kernels (sm_100a): tensor memory allocated by warp 0
// with its address in shared memory, one elected thread issuing the MMAs with the smem and
// instruction descriptors, tcgen05.commit to an mbarrier that every thread waits on, the
// accumulator read back lane by lane (warp w reaches lanes 32w..32w+31), and dealloc.
// RUN: lower-tc %s --split-input-file | filecheck %s

// M = 128 (layout D: row r in lane r), zero accumulator, f32.
func.func @m128(%A: memref<128x64xbf16>, %B: memref<64x64xbf16>, %D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %d to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: .version 8.6
// CHECK-NEXT: .target sm_100a
// CHECK: .visible .entry m128(
// CHECK: setp.eq.u32 [[T0:%p[0-9]+]], %r0, 0;
// CHECK-NEXT: shr.u32 [[WARP:%r[0-9]+]], %r0, 5;
// CHECK-NEXT: setp.eq.u32 [[W0:%p[0-9]+]], [[WARP]], 0;
// CHECK: // tensor memory: 64 columns
// CHECK-NEXT: @![[W0]] bra $L_tmem_ready_[[L:[0-9]+]];
// CHECK-NEXT: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [[[S:%r[0-9]+]]+[[SLOT:[0-9]+]]], 64;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK-NEXT: @![[T0]] bra $L_tmem_ready_[[L]];
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [[[S]]+[[MBAR:[0-9]+]]], 1;
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK-NEXT: $L_tmem_ready_[[L]]:
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: ld.shared.b32 [[TMEM:%r[0-9]+]], [[[S]]+[[SLOT]]];
// B (MN-major 128b, at 0x4000) and A (K-major 128b, at 0) descriptors carry version bit 46
// CHECK: mov.b64 %rd{{[0-9]+}}, 0x4000404000400400;
// CHECK: mov.b64 %rd{{[0-9]+}}, 0x4000404000010000;
// bf16 x bf16 -> f32, B MN-major (bit 16), N >> 3 = 8 at bit 17, M >> 4 = 8 at bit 24
// CHECK: mov.u32 [[IDESC:%r[0-9]+]], 135333008;
// CHECK-NEXT: // tcgen05.mma kind::f16, 4 K-slices, one elected thread
// CHECK-NEXT: @![[W0]] bra $L_mma_issued_[[M:[0-9]+]];
// CHECK-NEXT: elect.sync _|[[E:%p[0-9]+]], 0xffffffff;
// CHECK-NEXT: @![[E]] bra $L_mma_issued_[[M]];
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// the first MMA overwrites D (enable-input-d 0), the others accumulate
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [[[TMEM]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 0;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [[[TMEM]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [[[TMEM]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [[[TMEM]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 1;
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [[[S]]+[[MBAR]]];
// CHECK-NEXT: $L_mma_issued_[[M]]:
// CHECK-NEXT: $L_wait_[[WT:[0-9]+]]:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 [[DONE:%p[0-9]+]], [[[S]]+[[MBAR]]], 0;
// CHECK-NEXT: @![[DONE]] bra $L_wait_[[WT]];
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// row 32w + lane, 64 f32 = 256 bytes per row; lane base (32w) << 16
// CHECK: shl.b32 [[R:%r[0-9]+]], [[WARP]], 5;
// CHECK: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 256;
// CHECK: shl.b32 [[LB:%r[0-9]+]], [[WARP]], 21;
// CHECK-NEXT: add.u32 [[TA:%r[0-9]+]], [[TMEM]], [[LB]];
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {%f0, {{.*}}, %f31}, [[[TA]]];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-COUNT-8: st.global.v4.f32
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {%f32, {{.*}}, %f63}, [[[TA]]+32];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-COUNT-8: st.global.v4.f32
// CHECK-NEXT: // free tensor memory
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: @![[W0]] bra $L_no_dealloc_[[ND:[0-9]+]];
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: tcgen05.dealloc.cta_group::1.sync.aligned.b32 [[TMEM]], 64;
// CHECK-NEXT: $L_no_dealloc_[[ND]]:
// CHECK-NEXT: ret;

// -----

// M = 64 (layout F: row 16w + l in lane 32w + l, l < 16), f16 accumulator loaded from C,
// A from tensor memory. C and A go in with tcgen05.st, then wait::st and the fences
// around a barrier; A's columns follow D's on a 32-column boundary, 8 per K-slice.
func.func @m64_f16_c_tmem_a(%A: memref<64x32xf16>, %B: memref<32x16xf16>, %C: memref<64x16xf16>, %D: memref<64x16xf16>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<16x32xf16, #tc.layout<mn, swizzle = 32b>>
  tc.copy %A to %a as a : memref<64x32xf16>, !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  tc.copy %B to %b as b : memref<32x16xf16>, !tc.tile<16x32xf16, #tc.layout<mn, swizzle = 32b>>
  %c = tc.acc_load %C : memref<64x16xf16> -> !tc.acc<64x16xf16>
  %d = tc.tcgen05_mma %a, %b, %c a_in_tmem : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>, !tc.tile<16x32xf16, #tc.layout<mn, swizzle = 32b>>, !tc.acc<64x16xf16>
  tc.acc_store %d to %D : !tc.acc<64x16xf16>, memref<64x16xf16>
  func.return
}
// CHECK: .visible .entry m64_f16_c_tmem_a(
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r{{[0-9]+}}+{{[0-9]+}}], 64;
// CHECK: ld.shared.b32 [[TMEM:%r[0-9]+]],
// row 16w + (lane & 15)
// CHECK-NEXT: and.b32 [[LANE:%r[0-9]+]], %r0, 31;
// CHECK-NEXT: and.b32 [[L16:%r[0-9]+]], [[LANE]], 15;
// CHECK-NEXT: shl.b32 [[W16:%r[0-9]+]], %r3, 4;
// CHECK-NEXT: add.u32 [[ROW:%r[0-9]+]], [[W16]], [[L16]];
// CHECK-NEXT: // C (64x16xf16) into tensor memory
// CHECK-NEXT: mul.wide.u32 %rd{{[0-9]+}}, [[ROW]], 32;
// each f16 of C in the low half of its 32-bit column
// CHECK: ld.global.b16 [[H:%h[0-9]+]], [%rd{{[0-9]+}}];
// CHECK-NEXT: cvt.u32.u16 %r{{[0-9]+}}, [[H]];
// CHECK: tcgen05.st.sync.aligned.32x32b.x16.b32 [%r{{[0-9]+}}], {{{.*}}};
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK: // A (64x32xf16) into tensor memory, 16 columns
// CHECK-COUNT-16: ld.shared.b32
// CHECK: tcgen05.st.sync.aligned.32x32b.x16.b32 [%r{{[0-9]+}}+32], {{{.*}}};
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: add.u32 [[A0:%r[0-9]+]], [[TMEM]], 32;
// CHECK-NEXT: add.u32 [[A1:%r[0-9]+]], [[TMEM]], 40;
// f16 x f16 -> f16 (formats 0), B MN-major, N >> 3 = 2, M >> 4 = 4: C is loaded, so every
// MMA accumulates (an f16 D needs f16 operands: bf16 accumulates in f32 only)
// CHECK-NEXT: mov.u32 [[IDESC:%r[0-9]+]], 67436544;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [[[TMEM]]], [[[A0]]], %rd{{[0-9]+}}, [[IDESC]], 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [[[TMEM]]], [[[A1]]], %rd{{[0-9]+}}, [[IDESC]], 1;
// lanes 16-31 of each warp hold no row of D: they read (the load is warp-wide) but skip the stores
// CHECK: setp.ge.u32 [[UPPER:%p[0-9]+]], %r{{[0-9]+}}, 16;
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x16.b32
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK-NEXT: @[[UPPER]] bra $L_no_row_[[NR:[0-9]+]];
// CHECK-COUNT-16: cvt.u16.u32
// CHECK-NEXT: mov.b32 [[P:%r[0-9]+]], {%h{{[0-9]+}}, %h{{[0-9]+}}};
// CHECK: st.global.v4.b32 [%rd{{[0-9]+}}], {[[P]], {{.*}}};
// CHECK-NEXT: st.global.v4.b32 [%rd{{[0-9]+}}+16], {{{.*}}};
// CHECK-NEXT: $L_no_row_[[NR]]:
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 [[TMEM]], 64;

// -----

// kind::f8f6f4 with e2m1: each 16-byte chunk gets 16 packed elements (8 bytes) and 8 bytes
// of zero padding; B is column-major (K-contiguous) in global memory.
func.func @e2m1_f8f6f4(%A: memref<128x64xf4E2M1FN>, %B: memref<64x32xf4E2M1FN, strided<[1, 64]>>, %D: memref<128x32xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<32x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x64xf4E2M1FN>, !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x32xf4E2M1FN, strided<[1, 64]>>, !tc.tile<32x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x32xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.tile<32x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x32xf32>
  tc.acc_store %d to %D : !tc.acc<128x32xf32>, memref<128x32xf32>
  func.return
}
// CHECK: .visible .entry e2m1_f8f6f4(
// CHECK: // a copy by threads: 512 chunks of 16 bytes
// CHECK: ld.global.v2.b32 {[[W0:%r[0-9]+]], [[W1:%r[0-9]+]]}, [%rd{{[0-9]+}}];
// CHECK-NEXT: mov.u32 [[Z:%r[0-9]+]], 0;
// CHECK-NEXT: add.u32 [[SA:%r[0-9]+]], %r1, %r{{[0-9]+}};
// CHECK-NEXT: st.shared.v4.b32 [[[SA]]], {[[W0]], [[W1]], [[Z]], [[Z]]};
// CHECK: // b copy by threads: 128 chunks of 16 bytes
// K = 64 e2m1 in 64-byte slots: 64b swizzle, 2 K-slices of 32; formats e2m1 = 5 at bits 7 and 10
// CHECK: mov.u32 [[IDESC:%r[0-9]+]], 134747792;
// CHECK-NEXT: // tcgen05.mma kind::f8f6f4, 2 K-slices, one elected thread
// CHECK: tcgen05.mma.cta_group::1.kind::f8f6f4 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 0;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f8f6f4 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 1;

// -----

// tf32 MN-major: 128b_base32b (the only mode tcgen05 transposes tf32 with), copied by TMA
// with the 128B_ATOM_32B tensor-map swizzle (code 4) in boxes of 4-row atoms.
func.func @tf32_mn_tma(%A: memref<128x32xtf32, strided<[1, 128]>>, %B: memref<32x64xtf32>, %D: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>
  %b = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a via tma : memref<128x32xtf32, strided<[1, 128]>>, !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>
  tc.copy %B to %b as b via tma : memref<32x64xtf32>, !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %d to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: // lower-tc kernel tf32_mn_tma: {{.*}}"tensor_maps": [{"arg": 0, "box": [32, 32], "dtype": "tf32", "global_dims": [128, 32], "global_strides": [512], "param": "tmap_0", "swizzle": "128b_base32b", "tma_swizzle_code": 4}, {"arg": 1, "box": [32, 4], "dtype": "tf32", "global_dims": [64, 32], "global_strides": [256], "param": "tmap_1", "swizzle": "128b_base32b", "tma_swizzle_code": 4}]
// A in K-first order: its 8 atoms along K are contiguous, one box of 32 K rows per MN atom
// CHECK: // a copy by TMA: 4 boxes of 32x32, swizzle 128b_base32b
// B in MN-first order: atoms along K are 1024 bytes apart, one box per atom
// CHECK: // b copy by TMA: 16 boxes of 32x4, swizzle 128b_base32b
// CHECK: tcgen05.mma.cta_group::1.kind::tf32

// -----

// Two accumulators share the kernel's one allocation (a CTA may not tcgen05.alloc after
// relinquish_alloc_permit): D1 at column 0, D2 at column 64, one commit mbarrier whose phase
// alternates. D1 is stored and then accumulated into again: the warps' tcgen05.ld must be
// ordered before that MMA rewrites D1, so a fence / barrier / fence comes first.
func.func @two_accs(%A: memref<128x32xbf16>, %B: memref<32x64xbf16>, %D: memref<128x64xf32>, %E: memref<128x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x32xbf16>, !tc.tile<128x32xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<32x64xbf16>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>
  %acc1 = tc.acc_zero : !tc.acc<128x64xf32>
  %acc2 = tc.acc_zero : !tc.acc<128x64xf32>
  %d1 = tc.tcgen05_mma %a, %b, %acc1 : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %d1 to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  %e1 = tc.tcgen05_mma %a, %b, %d1 : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  %d2 = tc.tcgen05_mma %a, %b, %acc2 : !tc.tile<128x32xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x32xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %e1 to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  tc.acc_store %d2 to %E : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: .visible .entry two_accs(
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r{{[0-9]+}}+{{[0-9]+}}], 128;
// CHECK-NOT: tcgen05.alloc
// CHECK: ld.shared.b32 [[BASE:%r[0-9]+]],
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [[[BASE]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r1+[[MBAR:[0-9]+]]], 0;
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK: tcgen05.wait::ld.sync.aligned;
// the readback, then a sync before the MMA that accumulates into D1 again
// CHECK: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [[[BASE]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r1+[[MBAR]]], 1;
// the second accumulator: column 64 of the same allocation, the same mbarrier, phase 0 again
// CHECK: add.u32 [[D2:%r[0-9]+]], [[BASE]], 64;
// CHECK: tcgen05.mma.cta_group::1.kind::f16 [[[D2]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r1+[[MBAR]]], 0;
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 [[BASE]], 128;
// CHECK-NOT: tcgen05.dealloc

// -----

// kind::f8f6f4 with the 6-bit types: each 16-byte chunk gets 16 packed elements (12 bytes,
// three 4-byte loads) and 4 bytes of zero padding; formats e2m3 = 3 (A), e3m2 = 4 (B).
func.func @e2m3_x_e3m2(%A: memref<128x64xf6E2M3FN>, %B: memref<64x32xf6E3M2FN, strided<[1, 64]>>, %D: memref<128x32xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<32x64xf6E3M2FN, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x64xf6E2M3FN>, !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x32xf6E3M2FN, strided<[1, 64]>>, !tc.tile<32x64xf6E3M2FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x32xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<32x64xf6E3M2FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x32xf32>
  tc.acc_store %d to %D : !tc.acc<128x32xf32>, memref<128x32xf32>
  func.return
}
// CHECK: .visible .entry e2m3_x_e3m2(
// CHECK: // a copy by threads: 512 chunks of 16 bytes
// CHECK: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: add.u64 [[G:%rd[0-9]+]], %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK-NEXT: ld.global.b32 [[W0:%r[0-9]+]], [[[G]]];
// CHECK-NEXT: ld.global.b32 [[W1:%r[0-9]+]], [[[G]]+4];
// CHECK-NEXT: ld.global.b32 [[W2:%r[0-9]+]], [[[G]]+8];
// CHECK-NEXT: mov.u32 [[Z:%r[0-9]+]], 0;
// CHECK-NEXT: add.u32 [[SA:%r[0-9]+]], %r1, %r{{[0-9]+}};
// CHECK-NEXT: st.shared.v4.b32 [[[SA]]], {[[W0]], [[W1]], [[W2]], [[Z]]};
// CHECK: // b copy by threads: 128 chunks of 16 bytes
// D f32 (1 << 4) | e2m3 (3 << 7) | e3m2 (4 << 10) | N/8 << 17 | M/16 << 24 = 134746512
// CHECK: mov.u32 [[IDESC:%r[0-9]+]], 134746512;
// CHECK-NEXT: // tcgen05.mma kind::f8f6f4, 2 K-slices, one elected thread
// CHECK: tcgen05.mma.cta_group::1.kind::f8f6f4 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], 0;
