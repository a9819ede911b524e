// Split-K (`split_k = S`, passes/to_ptx/gemm/split_k.py): S CTAs of a cluster
// (.reqnctapercluster S, 1, 1; "cluster": [S, 1, 1] in the metadata; the grid's x S times
// as long) compute one tile, rank r = block x mod S over the K tiles [r T / S, (r + 1) T / S).
// After the K loop the consumers meet, write their fragments into the partial tile (rows of
// 544 bytes for BN = 128), and the cluster meets (the producer warpgroup too); each CTA
// then reads its passes from ranks 0, 1, ..., S-1 (mapa, ld.shared::cluster.v4) in that
// order, adds them, and stores D; the kernel's last cluster barrier keeps every CTA until
// its peers have read its shared memory.
// RUN: lower-tc %s --split-input-file --verify-diagnostics | filecheck %s

func.func @long_k(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 8} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel long_k: {{.*}}"cluster": [8, 1, 1],{{.*}}"grid": [128, 1, 1],{{.*}}"smem_bytes": 131136,
// CHECK: .reqnctapercluster 8, 1, 1
// the rank and the tile (the grouped order on block x / 8), then K tiles [r 1024 / 8, (r + 1) 1024 / 8) x 64
// CHECK: mov.u32 %r[[BX:[0-9]+]], %ctaid.x;
// CHECK-NEXT: rem.u32 %r[[RANK:[0-9]+]], %r[[BX]], 8;
// CHECK-NEXT: div.u32 %r{{[0-9]+}}, %r[[BX]], 8;
// CHECK: mul.lo.s32 %r[[LO_T:[0-9]+]], %r[[RANK]], 1024;
// CHECK-NEXT: div.u32 %r[[LO_Q:[0-9]+]], %r[[LO_T]], 8;
// CHECK-NEXT: mul.lo.s32 %r[[LO:[0-9]+]], %r[[LO_Q]], 64;
// CHECK-NEXT: add.s32 %r[[NEXT:[0-9]+]], %r[[RANK]], 1;
// CHECK-NEXT: mul.lo.s32 %r[[HI_T:[0-9]+]], %r[[NEXT]], 1024;
// CHECK-NEXT: div.u32 %r[[HI_Q:[0-9]+]], %r[[HI_T]], 8;
// CHECK-NEXT: mul.lo.s32 %r[[HI:[0-9]+]], %r[[HI_Q]], 64;
// CHECK-NEXT: // the K range's steps, from its bounds
// CHECK-NEXT: sub.s32 %r[[SPAN:[0-9]+]], %r[[HI]], %r[[LO]];
// CHECK-NEXT: add.s32 %r[[SPAN1:[0-9]+]], %r[[SPAN]], 63;
// CHECK-NEXT: div.s32 %r[[TRIPS:[0-9]+]], %r[[SPAN1]], 64;
// the producer loads K step j at lo + 64 j, then meets the cluster's first barrier
// CHECK: @!%p0 bra $L_producer_done_[[PD:[0-9]+]];
// CHECK: setp.ge.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, %r[[TRIPS]];
// CHECK: mul.lo.s32 %r[[J64:[0-9]+]], %r{{[0-9]+}}, 64;
// CHECK-NEXT: add.s32 %r[[KC:[0-9]+]], %r[[J64]], %r[[LO]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r[[KC]], %r{{[0-9]+}}}]
// CHECK: $L_producer_done_[[PD]]:
// CHECK-NEXT: // split-K: every partial tile of the cluster is written
// CHECK-NEXT: barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK-NEXT: bra.uni $L_exit_[[EXIT:[0-9]+]];
// the consumers: descriptors from the address within the CTA's 256 KiB (a cluster launch)
// CHECK: and.b32 %r{{[0-9]+}}, %r1, 262143;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT: mov.u32 %r[[ONE:[0-9]+]], 1;
// CHECK-NEXT: // split-K: every wgmma has read its stage, every load landed
// CHECK-NEXT: bar.sync %r[[ONE]], 256;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK: mul.lo.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 544;
// CHECK: st.shared.v2.f32 [%r[[P:[0-9]+]]], {%f0, %f1};
// CHECK-NEXT: st.shared.v2.f32 [%r[[P]]+4352], {%f2, %f3};
// CHECK-NEXT: st.shared.v2.f32 [%r[[P]]+32], {%f4, %f5};
// CHECK: st.shared.v2.f32 [%r[[P]]+4832], {%f62, %f63};
// CHECK-NEXT: // split-K: every partial tile of the cluster is written
// CHECK-NEXT: barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK-NEXT: add.s32 %r[[T:[0-9]+]], %r0, -128;
// CHECK-NEXT: // split-K: this CTA reduces passes rank, rank + 8, ... of 16 (8 rows each)
// CHECK-NEXT: mov.u32 %r[[CRANK:[0-9]+]], %cluster_ctarank;
// CHECK: mul.lo.u32 %r{{[0-9]+}}, %r[[CRANK]], 8;
// CHECK: add.u32 %r[[LOCAL:[0-9]+]], %r1, %r{{[0-9]+}};
// CHECK-NEXT: mov.u32 %r[[R0:[0-9]+]], 0;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M0:[0-9]+]], %r[[LOCAL]], %r[[R0]];
// CHECK-NEXT: mov.u32 %r[[R1:[0-9]+]], 1;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M1:[0-9]+]], %r[[LOCAL]], %r[[R1]];
// CHECK-NEXT: mov.u32 %r[[R2:[0-9]+]], 2;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M2:[0-9]+]], %r[[LOCAL]], %r[[R2]];
// CHECK-NEXT: mov.u32 %r[[R3:[0-9]+]], 3;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M3:[0-9]+]], %r[[LOCAL]], %r[[R3]];
// CHECK-NEXT: mov.u32 %r[[R4:[0-9]+]], 4;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M4:[0-9]+]], %r[[LOCAL]], %r[[R4]];
// CHECK-NEXT: mov.u32 %r[[R5:[0-9]+]], 5;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M5:[0-9]+]], %r[[LOCAL]], %r[[R5]];
// CHECK-NEXT: mov.u32 %r[[R6:[0-9]+]], 6;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M6:[0-9]+]], %r[[LOCAL]], %r[[R6]];
// CHECK-NEXT: mov.u32 %r[[R7:[0-9]+]], 7;
// CHECK-NEXT: mapa.shared::cluster.u32 %r[[M7:[0-9]+]], %r[[LOCAL]], %r[[R7]];
// both passes' loads (rows 64 apart: 64 x 544 bytes), ranks in order, then the sums in that order
// CHECK: // rank 0's partial
// CHECK-NEXT: ld.shared::cluster.v4.f32 {%f[[A0:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%r[[M0]]];
// CHECK-NEXT: // rank 1's partial
// CHECK-NEXT: ld.shared::cluster.v4.f32 {%f[[A1:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%r[[M1]]];
// CHECK-NEXT: // rank 2's partial
// CHECK-NEXT: ld.shared::cluster.v4.f32 {%f[[A2:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%r[[M2]]];
// CHECK: // rank 7's partial
// CHECK-NEXT: ld.shared::cluster.v4.f32 {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%r[[M7]]];
// CHECK-NEXT: ld.shared::cluster.v4.f32 {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%r[[M0]]+34816];
// CHECK: ld.shared::cluster.v4.f32 {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%r[[M7]]+34816];
// CHECK-NEXT: add.f32 %f[[S1:[0-9]+]], %f[[A0]], %f[[A1]];
// CHECK: add.f32 %f{{[0-9]+}}, %f[[S1]], %f[[A2]];
// one 8-byte store of four bf16 per thread and pass, rows 64 x 1024 bytes apart
// CHECK: cvt.rn.bf16x2.f32
// CHECK: st.global.v2.b32 [%rd[[D:[0-9]+]]], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: st.global.v2.b32 [%rd[[D]]+65536], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NEXT: $L_reduced_{{[0-9]+}}:
// CHECK-NEXT: $L_exit_[[EXIT]]:
// CHECK-NEXT: // the cluster's CTAs leave together
// CHECK-NEXT: barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK-NEXT: ret;

// -----

// Sizes known at launch, the pipelined schedule, S = 3, C: the grid's x is 3 ceil(N / 128);
// the first prologue load too is skipped where this rank's slice is empty; 16 passes of 8
// rows make 6 slots for 3 CTAs, the last guarded (rows 120 + 8 of rank 2 would be past
// the tile); every element guarded at D's edge and added to C once.
func.func @dynamic(%A: memref<?x?xbf16>, %B: memref<?x?xbf16, strided<[1, ?]>>, %D: memref<?x?xf32>, %C: memref<?x?xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D plus %C config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 3> {split_k = 3, schedule = "pipelined"} : memref<?x?xbf16>, memref<?x?xbf16, strided<[1, ?]>>, memref<?x?xf32>, memref<?x?xf32>
  func.return
}
// CHECK: // lower-tc kernel dynamic: {{.*}}"cluster": [3, 1, 1],{{.*}}"grid": [{"arg": 2, "dim": 1, "tile": 128, "times": 3}, {"arg": 2, "dim": 0, "tile": 128}, 1],
// CHECK: .reqnctapercluster 3, 1, 1
// K tiles from A's column count at launch: (K - 1) / 64 + 1
// CHECK: ld.param.u32 %r[[K:[0-9]+]], [p_A_cols];
// CHECK: sub.s32 %r{{[0-9]+}}, %r[[K]], 1;
// CHECK-NEXT: div.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 64;
// CHECK-NEXT: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK: div.s32 %r[[TRIPS:[0-9]+]], %r{{[0-9]+}}, 64;
// CHECK: @!%p0 bra $L_prologue_loads_[[PL:[0-9]+]];
// CHECK-NEXT: setp.le.s32 %p[[EMPTY:[0-9]+]], %r[[TRIPS]], 0;
// CHECK-NEXT: @%p[[EMPTY]] bra $L_prologue_loads_[[PL]];
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT: // split-K: every wgmma has read its stage, every load landed
// CHECK-NEXT: bar.sync 0;
// CHECK: barrier.cluster.arrive.release;
// CHECK: // split-K: this CTA reduces passes rank, rank + 3, ... of 16 (8 rows each)
// CHECK: mapa.shared::cluster.u32
// CHECK: mapa.shared::cluster.u32
// CHECK: mapa.shared::cluster.u32
// CHECK-NOT: mapa.shared::cluster.u32
// CHECK: ld.shared::cluster.v4.f32 {{.*}}+52224];
// CHECK: @!%p{{[0-9]+}} bra $L_outside_d_{{[0-9]+}};
// CHECK-NEXT: ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK-NEXT: add.f32
// CHECK-NEXT: st.global.f32 [%rd{{[0-9]+}}], %f{{[0-9]+}};
// the sixth slot: rows 120 .. 127 of rank 0 only
// CHECK: setp.lt.u32 %p[[LAST:[0-9]+]], %r{{[0-9]+}}, 8;
// CHECK-NEXT: @!%p[[LAST]] bra $L_no_pass_{{[0-9]+}};
// CHECK: ld.shared::cluster.v4.f32 {{.*}}+65280];
// CHECK: barrier.cluster.arrive.release;
// CHECK-NEXT: barrier.cluster.wait.acquire;
// CHECK-NEXT: ret;

// -----

// A batch on grid z (raster = 0): x is 4 x ceil(72 / 128) CTAs, y the tile rows, z the
// batch; the f32 D's rows and batch stride keep four floats aligned: 16-byte stores, at the
// batch's matrix, guarded at the ragged edges.
func.func @batched(%A: memref<3x129x4104xbf16>, %B: memref<3x4104x72xbf16>, %D: memref<3x129x72xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 4, raster = 0} : memref<3x129x4104xbf16>, memref<3x4104x72xbf16>, memref<3x129x72xf32>
  func.return
}
// CHECK: // lower-tc kernel batched: {{.*}}"cluster": [4, 1, 1],{{.*}}"grid": [4, 2, 3],
// CHECK: rem.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 4;
// CHECK: mov.u32 %r{{[0-9]+}}, %ctaid.z;
// CHECK: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 37152;
// CHECK: @!%p{{[0-9]+}} bra $L_outside_d_{{[0-9]+}};
// CHECK-NEXT: st.global.v4.f32 [%rd{{[0-9]+}}], {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}};
