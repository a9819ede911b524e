// A split through global memory whose grid one H100/H200 runs at once (at most 132 CTAs,
// sizes known, S a power of two: passes/to_ptx/gemm/split_k_global.py `spread_reduce`):
// the tile's 8 CTAs each sum a slice of its columns (2 of the 16 8-column groups) once
// every partial is stored, and store it from registers. The first consumer thread counts
// the CTA in the tile's counter, which no launch resets (a launch adds 8): this launch ends
// at the next multiple of 8, E. The CTA whose add makes E is the last; the others wait for
// the counter to reach E, at most 20 us by %globaltimer, then write E (theirs) or E + 1
// (given up) into their slice's claim word. Every CTA that has a slice sums it over ranks
// 0 to 7 in order (the same bits as the last CTA's sum of the whole tile); the last then
// polls the other slices' words until each is decided and sums the ones given up.
// RUN: lower-tc %s | filecheck %s

func.func @spread(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 8, reduce = "global"} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel spread: {{.*}}"grid": [128, 1, 1],{{.*}}"workspace": {"partial_bytes": 65536, "split_k": 8}}
// the partial into the slot, then the count: the counter after the 128 slots, the claims after the 16 counters
// CHECK: // split-K: this CTA's partial tile into its slot
// CHECK: st.global.v4.f32 [%rd{{[0-9]+}}+30720], {%f60, %f61, %f62, %f63};
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK: setp.eq.u32 %p[[FIRST:[0-9]+]], %r0, 128;
// CHECK-NEXT: mul.wide.u32 %rd{{[0-9]+}}, %r[[CTAS:[0-9]+]], 65536;
// CHECK-NEXT: add.s64 %rd[[COUNTERS:[0-9]+]], %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK: add.s64 %rd[[COUNTER:[0-9]+]], %rd[[COUNTERS]], %rd{{[0-9]+}};
// CHECK: atom.acq_rel.gpu.global.add.u32 %r[[OLD:[0-9]+]], [%rd[[COUNTER]]], 1;
// CHECK-NEXT: mov.u32 %r[[BEFORE:[0-9]+]], %r[[OLD]];
// E = (before / 8 + 1) x 8; the last's add made E; E + 1 says "given up"
// CHECK: div.u32 %r[[Q:[0-9]+]], %r[[BEFORE]], 8;
// CHECK-NEXT: add.u32 %r[[Q1:[0-9]+]], %r[[Q]], 1;
// CHECK-NEXT: // spread split-K: this launch's counts end at the next multiple of S
// CHECK-NEXT: mul.lo.u32 %r[[END:[0-9]+]], %r[[Q1]], 8;
// CHECK-NEXT: add.u32 %r[[AFTER:[0-9]+]], %r[[BEFORE]], 1;
// CHECK-NEXT: setp.eq.u32 %p[[LASTP:[0-9]+]], %r[[AFTER]], %r[[END]];
// CHECK-NEXT: add.u32 %r[[GAVE:[0-9]+]], %r[[END]], 1;
// CHECK-NEXT: div.u32 %r{{[0-9]+}}, %r[[CTAS]], 8;
// CHECK-NEXT: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 4;
// CHECK-NEXT: // spread split-K: the tiles' slice claims after the counters, S words a tile
// CHECK-NEXT: add.s64 %rd{{[0-9]+}}, %rd[[COUNTERS]], %rd{{[0-9]+}};
// CHECK-NEXT: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 32;
// CHECK-NEXT: add.s64 %rd[[CLAIMS:[0-9]+]], %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK-NEXT: mul.wide.u32 %rd{{[0-9]+}}, %r[[RANK:[0-9]+]], 4;
// CHECK-NEXT: add.s64 %rd[[OWN:[0-9]+]], %rd[[CLAIMS]], %rd{{[0-9]+}};
// the others' bounded wait, and their claim: E (theirs) or E + 1 (given up)
// CHECK: $L_spread_helper_{{[0-9]+}}:
// CHECK-NEXT: // spread split-K: wait for the tile's last partial, at most 20000 ns
// CHECK-NEXT: mov.u64 %rd[[START:[0-9]+]], %globaltimer;
// CHECK-NEXT: $L_spread_wait_[[W:[0-9]+]]:
// CHECK-NEXT: ld.acquire.gpu.global.u32 %r[[NOW:[0-9]+]], [%rd[[COUNTER]]];
// CHECK-NEXT: sub.s32 %r[[D:[0-9]+]], %r[[NOW]], %r[[END]];
// CHECK-NEXT: setp.ge.s32 %p[[ALL:[0-9]+]], %r[[D]], 0;
// CHECK-NEXT: @%p[[ALL]] bra $L_spread_seen_[[SEEN:[0-9]+]];
// CHECK-NEXT: mov.u64 %rd[[T:[0-9]+]], %globaltimer;
// CHECK-NEXT: sub.s64 %rd[[WAITED:[0-9]+]], %rd[[T]], %rd[[START]];
// CHECK-NEXT: setp.gt.s64 %p[[LATE:[0-9]+]], %rd[[WAITED]], 20000;
// CHECK-NEXT: @!%p[[LATE]] bra $L_spread_wait_[[W]];
// CHECK-NEXT: // spread split-K: out of time; the last sums this slice
// CHECK-NEXT: st.relaxed.gpu.global.u32 [%rd[[OWN]]], %r[[GAVE]];
// CHECK: $L_spread_seen_[[SEEN]]:
// CHECK-NEXT: // spread split-K: every partial is stored; this CTA sums its slice
// CHECK-NEXT: st.relaxed.gpu.global.u32 [%rd[[OWN]]], %r[[END]];
// rank 0's slice: groups 0 and 1 of the 8 slots in order, straight-line, then its 16 columns of D
// CHECK: setp.eq.u32 %p{{[0-9]+}}, %r[[RANK]], 0;
// CHECK-NEXT: @!%p{{[0-9]+}} bra $L_spread_not_0_{{[0-9]+}};
// CHECK-NEXT: // split-K: rank 0's partial into the registers
// CHECK-NEXT: ld.global.v4.f32 {{.*}}, [%rd[[SLOTS:[0-9]+]]];
// CHECK: ld.global.v4.f32 {{.*}}, [%rd[[SLOTS]]+2048];
// CHECK-NOT: +4096]
// CHECK: add.s64 %rd{{[0-9]+}}, %rd[[SLOTS]], 458752;
// CHECK-NEXT: // split-K: rank 7's partial added, ranks in order
// CHECK: // epilogue: 128x128xf32 into D (bf16)
// CHECK: st.global.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK: st.global.b32 [%rd{{[0-9]+}}+16], %r{{[0-9]+}};
// CHECK: bra.uni $L_spread_own_[[OWNDONE:[0-9]+]];
// rank 7's slice: groups 14 and 15
// CHECK: setp.eq.u32 %p{{[0-9]+}}, %r[[RANK]], 7;
// CHECK: ld.global.v4.f32 {{.*}}, [%rd[[SLOTS]]+28672];
// the last polls the 8 claim words until every other one is E or E + 1, then sums the given-up slices
// CHECK: $L_spread_own_[[OWNDONE]]:
// CHECK-NEXT: // spread split-K: only the last sums slices given up
// CHECK: $L_spread_poll_[[POLL:[0-9]+]]:
// CHECK: ld.acquire.gpu.global.u32 %r{{[0-9]+}}, [%rd[[CLAIMS]]];
// CHECK: setp.eq.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, %r[[GAVE]];
// CHECK: ld.acquire.gpu.global.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK: @%p{{[0-9]+}} bra $L_spread_poll_[[POLL]];
// CHECK: bar.red.or.pred %p[[TAKE:[0-9]+]], 1, 256, %p{{[0-9]+}};
// CHECK-NEXT: @!%p[[TAKE]] bra $L_spread_left_0_{{[0-9]+}};
// CHECK: $L_spread_left_7_{{[0-9]+}}:
// CHECK-NEXT: $L_spread_done_
// no counter reset: each launch adds 8
// CHECK-NOT: st.global.u32
// CHECK: ret;
