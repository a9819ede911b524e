// Split-K through global memory (`split_k = S, reduce = "global"`,
// passes/to_ptx/gemm/split_k_global.py): S consecutive CTAs along x share a tile, with no
// cluster (no .reqnctapercluster, no "cluster" in the metadata, version 2 with its
// "workspace": a slot of BM x BN x 4 bytes per CTA, then a counter per tile). After the K
// loop each consumer thread stores its fragment into its CTA's slot (16-byte stores, 2048
// bytes apart: 128 threads' groups side by side), fences, meets the consumers; the first
// consumer thread counts the CTA in the tile's counter (atom.acq_rel.gpu); bar.red.or
// tells every thread whether its CTA came last; the others leave; the last fences,
// resets the counter, sums the 8 slots rank 0 first (a loop adds ranks 1 to 7) and stores
// D from the registers (by TMA stores where D allows them, as here). That is the sum of a
// grid of more than 132 CTAs (256 here) or of S not a power of two (the pipelined case);
// smaller grids spread it over the tile's CTAs (split-k-global-spread.mlir), as the s32
// case at the end does.
// RUN: lower-tc %s --split-input-file --verify-diagnostics | filecheck %s

func.func @long_k(%A: memref<1024x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<1024x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 8, reduce = "global"} : memref<1024x65536xbf16>, memref<65536x512xbf16>, memref<1024x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel long_k: {{.*}}"reduce": "global", "split_k": 8}, "grid": [256, 1, 1],{{.*}}"version": 4, "workspace": {"partial_bytes": 65536, "split_k": 8}}
// CHECK-NOT: cluster
// CHECK: .param .u64 p_D,
// CHECK-NEXT: .param .u64 workspace,
// CHECK-NEXT: .param .align 64 .b8 tmap_0[128],
// CHECK-NOT: .reqnctapercluster
// CHECK: // split-K over 8 CTAs: their partial tiles go through the workspace
// CHECK-NEXT: ld.param.u64 %rd[[WS_RAW:[0-9]+]], [workspace];
// CHECK-NEXT: cvta.to.global.u64 %rd[[WS:[0-9]+]], %rd[[WS_RAW]];
// the consumers, after their last MMAs: the CTA's linear index, its slot and the thread's place in it
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT: // split-K: CTA x + X (y + Y z) has slot 65536 bytes there; tile's counter after the slots
// CHECK-NEXT: mov.u32 %r[[CX:[0-9]+]], %ctaid.x;
// CHECK-NEXT: mov.u32 %r[[CY:[0-9]+]], %ctaid.y;
// CHECK-NEXT: mov.u32 %r[[CZ:[0-9]+]], %ctaid.z;
// CHECK-NEXT: mov.u32 %r[[NX:[0-9]+]], %nctaid.x;
// CHECK-NEXT: mov.u32 %r[[NY:[0-9]+]], %nctaid.y;
// CHECK-NEXT: mov.u32 %r[[NZ:[0-9]+]], %nctaid.z;
// CHECK-NEXT: mul.lo.u32 %r[[T1:[0-9]+]], %r[[NY]], %r[[CZ]];
// CHECK-NEXT: add.u32 %r[[YZ:[0-9]+]], %r[[CY]], %r[[T1]];
// CHECK-NEXT: mul.lo.u32 %r[[T2:[0-9]+]], %r[[NX]], %r[[YZ]];
// CHECK-NEXT: add.u32 %r[[LIN:[0-9]+]], %r[[CX]], %r[[T2]];
// CHECK-NEXT: mul.lo.u32 %r[[T3:[0-9]+]], %r[[NX]], %r[[NY]];
// CHECK-NEXT: mul.lo.u32 %r[[CTAS:[0-9]+]], %r[[T3]], %r[[NZ]];
// CHECK-NEXT: rem.u32 %r[[RANK:[0-9]+]], %r[[CX]], 8;
// CHECK-NEXT: and.b32 %r[[T:[0-9]+]], %r0, 127;
// CHECK-NEXT: mul.lo.u32 %r[[WGOFF:[0-9]+]], %r{{[0-9]+}}, 32768;
// CHECK-NEXT: shl.b32 %r[[TOFF:[0-9]+]], %r[[T]], 4;
// CHECK-NEXT: add.u32 %r[[IN:[0-9]+]], %r[[WGOFF]], %r[[TOFF]];
// CHECK-NEXT: cvt.u64.u32 %rd[[IN64:[0-9]+]], %r[[IN]];
// CHECK-NEXT: add.s64 %rd[[BASE:[0-9]+]], %rd[[WS]], %rd[[IN64]];
// CHECK-NEXT: mul.wide.u32 %rd[[SLOT:[0-9]+]], %r[[LIN]], 65536;
// CHECK-NEXT: add.s64 %rd[[MINE:[0-9]+]], %rd[[BASE]], %rd[[SLOT]];
// CHECK-NEXT: // split-K: this CTA's partial tile into its slot
// CHECK-NEXT: st.global.v4.f32 [%rd[[MINE]]], {%f0, %f1, %f2, %f3};
// CHECK-NEXT: st.global.v4.f32 [%rd[[MINE]]+2048], {%f4, %f5, %f6, %f7};
// CHECK: st.global.v4.f32 [%rd[[MINE]]+30720], {%f60, %f61, %f62, %f63};
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NEXT: mov.u32 %r[[ONE:[0-9]+]], 1;
// CHECK-NEXT: // split-K: every partial of this CTA is stored
// CHECK-NEXT: bar.sync %r[[ONE]], 256;
// the first consumer thread (128) counts the CTA: the counters follow the 128 CTAs' slots
// CHECK-NEXT: setp.eq.u32 %p[[FIRST:[0-9]+]], %r0, 128;
// CHECK-NEXT: mul.wide.u32 %rd[[SLOTS:[0-9]+]], %r[[CTAS]], 65536;
// CHECK-NEXT: add.s64 %rd[[COUNTERS:[0-9]+]], %rd[[WS]], %rd[[SLOTS]];
// CHECK-NEXT: div.u32 %r[[TILE:[0-9]+]], %r[[LIN]], 8;
// CHECK-NEXT: mul.wide.u32 %rd[[TILE4:[0-9]+]], %r[[TILE]], 4;
// CHECK-NEXT: add.s64 %rd[[COUNTER:[0-9]+]], %rd[[COUNTERS]], %rd[[TILE4]];
// CHECK-NEXT: mov.u32 %r[[BEFORE:[0-9]+]], 0;
// CHECK-NEXT: @!%p[[FIRST]] bra $L_counted_[[C:[0-9]+]];
// CHECK-NEXT: // split-K: count this CTA in its tile's; the 8th is last
// CHECK-NEXT: atom.acq_rel.gpu.global.add.u32 %r[[OLD:[0-9]+]], [%rd[[COUNTER]]], 1;
// CHECK-NEXT: mov.u32 %r[[BEFORE]], %r[[OLD]];
// CHECK-NEXT: $L_counted_[[C]]:
// CHECK-NEXT: setp.eq.u32 %p[[CAME:[0-9]+]], %r[[BEFORE]], 7;
// CHECK-NEXT: bar.red.or.pred %p[[LAST:[0-9]+]], 1, 256, %p[[CAME]];
// CHECK-NEXT: // split-K: the tile's last CTA sums and stores; the others are done
// CHECK-NEXT: @!%p[[LAST]] bra $L_split_k_done_[[DONE:[0-9]+]];
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NEXT: @!%p[[FIRST]] bra $L_reset_[[R:[0-9]+]];
// CHECK-NEXT: mov.u32 %r[[ZERO:[0-9]+]], 0;
// CHECK-NEXT: // split-K: the counter is 0 again for the next launch
// CHECK-NEXT: st.global.u32 [%rd[[COUNTER]]], %r[[ZERO]];
// CHECK-NEXT: $L_reset_[[R]]:
// the tile's 8 slots from its first CTA's (linear index - rank): rank 0's into the
// accumulator's registers, then a loop over ranks 1 to 7 adding each in turn
// CHECK-NEXT: sub.u32 %r[[FIRSTCTA:[0-9]+]], %r[[LIN]], %r[[RANK]];
// CHECK-NEXT: mul.wide.u32 %rd[[OFF:[0-9]+]], %r[[FIRSTCTA]], 65536;
// CHECK-NEXT: add.s64 %rd[[TILESLOTS:[0-9]+]], %rd[[BASE]], %rd[[OFF]];
// CHECK-NEXT: // split-K: rank 0's partial into the registers
// CHECK-NEXT: ld.global.v4.f32 {%f[[P0:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%rd[[TILESLOTS]]];
// CHECK-NEXT: mov.f32 %f0, %f[[P0]];
// CHECK: ld.global.v4.f32 {{.*}}, [%rd[[TILESLOTS]]+30720];
// CHECK: mov.s32 %r[[ONE_:[0-9]+]], 1;
// CHECK-NEXT: mov.s32 %r[[EIGHT:[0-9]+]], 8;
// CHECK-NEXT: mov.s32 %r{{[0-9]+}}, 1;
// CHECK-NEXT: mov.b32 %r[[I:[0-9]+]], %r[[ONE_]];
// CHECK: $L_for_[[LOOP:[0-9]+]]_head:
// CHECK-NEXT: setp.ge.s32 %p{{[0-9]+}}, %r[[I]], %r[[EIGHT]];
// CHECK-NEXT: @%p{{[0-9]+}} bra $L_for_[[LOOP]]_end;
// CHECK-NEXT: mul.wide.s32 %rd[[ROFF:[0-9]+]], %r[[I]], 65536;
// CHECK-NEXT: add.s64 %rd[[RANKSLOT:[0-9]+]], %rd[[TILESLOTS]], %rd[[ROFF]];
// CHECK-NEXT: // split-K: rank i's partial added, ranks in order
// CHECK-NEXT: ld.global.v4.f32 {%f[[Q:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%rd[[RANKSLOT]]];
// CHECK-NEXT: add.f32 %f[[SUM:[0-9]+]], %f0, %f[[Q]];
// CHECK-NEXT: mov.f32 %f0, %f[[SUM]];
// CHECK: ld.global.v4.f32 {{.*}}, [%rd[[RANKSLOT]]+30720];
// CHECK: $L_for_[[LOOP]]_end:
// then D from the summed registers, through shared memory by TMA stores (D allows them),
// and the other CTAs' exit; the stores' issuers wait for them before the kernel ends
// CHECK: epilogue: 128x128xf32 into D (bf16) by stmatrix and TMA stores of 64x64 pieces
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK: $L_split_k_done_[[DONE]]:
// CHECK: cp.async.bulk.wait_group 0;
// CHECK-NEXT: $L_stores_done_{{[0-9]+}}:
// CHECK-NEXT: $L_exit_{{[0-9]+}}:
// CHECK-NEXT: ret;

// -----

// The pipelined schedule: every thread is a consumer (bar.sync 0, bar.red.or 0), thread 0 counts.
func.func @pipelined(%A: memref<300x5000xbf16>, %B: memref<5000x520xbf16>, %D: memref<300x520xf32>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 3, reduce = "global", schedule = "pipelined"} : memref<300x5000xbf16>, memref<5000x520xbf16>, memref<300x520xf32>
  func.return
}
// CHECK: // lower-tc kernel pipelined: {{.*}}"grid": [45, 1, 1],{{.*}}"version": 4, "workspace": {"partial_bytes": 65536, "split_k": 3}}
// CHECK: rem.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 3;
// CHECK: fence.acq_rel.gpu;
// CHECK-NEXT: // split-K: every partial of this CTA is stored
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: setp.eq.u32 %p[[FIRST:[0-9]+]], %r0, 0;
// CHECK: atom.acq_rel.gpu.global.add.u32
// CHECK: setp.eq.u32 %p[[CAME:[0-9]+]], %r{{[0-9]+}}, 2;
// CHECK-NEXT: bar.red.or.pred %p{{[0-9]+}}, 0, %p[[CAME]];
// CHECK: // split-K: rank 0's partial into the registers
// CHECK: mov.s32 %r{{[0-9]+}}, 1;
// CHECK-NEXT: mov.s32 %r{{[0-9]+}}, 3;
// CHECK: // split-K: rank i's partial added, ranks in order

// -----

// s32: the partials are integers, summed with add.s32
func.func @integers(%A: memref<200x2048xi8>, %B: memref<136x2048xi8>, %D: memref<200x136xi32>) attributes {tc.target = "sm_90a"} {
  %Bt = tc.transpose %B : memref<136x2048xi8> to memref<2048x136xi8, strided<[1, 2048]>>
  tc.matmul %A, %Bt to %D acc s32 config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 4> {split_k = 2, reduce = "global"} : memref<200x2048xi8>, memref<2048x136xi8, strided<[1, 2048]>>, memref<200x136xi32>
  func.return
}
// CHECK: // lower-tc kernel integers:
// CHECK: st.global.v4.s32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: // split-K: rank {{i|1}}'s partial added, ranks in order
// CHECK-NEXT: ld.global.v4.s32 {%r[[Q1:[0-9]+]], {{.*}}}
// CHECK-NEXT: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r[[Q1]];
