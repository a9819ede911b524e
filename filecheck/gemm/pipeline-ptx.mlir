// The PTX of the pipelined K loop (examples/gemm_bf16_loop.mlir: 128x256 tiles, BK 64,
// 3 stages, two warpgroups): barriers, prologue loads, then the loop with register TMA
// coordinates, the parity wait on the stage's "full" barrier, one wgmma group left in
// flight, the release of the previous stage and its refill.
// RUN: lower-tc %examples/gemm_bf16_loop.mlir | filecheck %s
// The loop stays structured until ptx-lower-loops: without it, an scf.for in the kernel.
// RUN: lower-tc %examples/gemm_bf16_loop.mlir -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx -t mlir | filecheck %s --check-prefix=SCF

// CHECK: // lower-tc kernel gemm_bf16_loop: {{.*}}"grid": [16, 32, 1]{{.*}}"smem_bytes": 181248{{.*}}"threads": 256, "version": 1}{{$}}
// CHECK: .reqntid 256, 1, 1
// full[s] (one arrival: thread 0's expect_tx) and empty[s] (all 256 threads) after the
// rings (3 x 16 KiB of A, 3 x 32 KiB of B)
// CHECK: mbarrier.init.shared::cta.b64 [%r[[SMEM:[0-9]+]]+147456], 1;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r[[SMEM]]+147480], 256;
// CHECK: fence.mbarrier_init.release.cluster;
// Prologue: iterations 0 and 1 (stages - 1) into stages 0 and 1: 16 KiB of A + 32 KiB of B each
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r[[SMEM]]+147456], 49152;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r[[SMEM]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r[[SMEM]]+147456];
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r[[SMEM]]+147464], 49152;
// CHECK-NOT: expect_tx
// CHECK: $L_for_0_head:
// CHECK: @%p{{[0-9]+}} bra $L_for_0_end;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+147456], %r[[PHASE:[0-9]+]];
// CHECK: wgmma.fence.sync.aligned;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: // iteration i-1's MMAs are done: release its stage
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK: mbarrier.arrive.shared::cta.b64 _, [%r[[EMPTY:[0-9]+]]+147480];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r[[EMPTY]]+147480], %r{{[0-9]+}};
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}+147456], 49152;
// CHECK-COUNT-5: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}]
// CHECK: mov.b32 %r[[PHASE]], %r{{[0-9]+}};
// CHECK: bra.uni $L_for_0_head;
// CHECK-NEXT: $L_for_0_end:
// CHECK: wgmma.wait_group.sync.aligned 0;
// The epilogue (filecheck/gemm/epilogue-tma.mlir): stmatrix into the staging pieces after
// the barriers (147504 rounded up to 148480, 2 warpgroups x 16 KiB), then TMA stores
// CHECK: cvt.rn.bf16x2.f32
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}+148480]
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK: ret;

// SCF: "ptx.kernel"() <{sym_name = "gemm_bf16_loop"
// SCF: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// SCF: "ptx.wgmma_wait_group"() <{pending = 1 : i64}>
// SCF: scf.yield
