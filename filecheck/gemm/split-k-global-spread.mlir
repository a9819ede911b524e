// A split through global memory whose grid one H100/H200 runs at once (at most 132 CTAs,
// sizes known, S a power of two: passes/to_ptx/gemm/split_k_global.py `spread_reduce`):
// the tile's 8 CTAs each sum a slice of its columns (2 of the 16 8-column groups) once
// every partial is stored, and store it from registers. The first consumer thread counts
// the CTA in the high half of the tile's 64-bit word, which no launch resets (a launch adds
// 8): this launch ends at the next multiple of 8, E. The CTA whose add makes E is the last;
// the others wait for the count to reach E, at most 20 us by %globaltimer, then sum their
// slice, or, out of time, set their rank's bit in the word's low half with a cas against
// the word they read (so only before the last counts). Every CTA that has a slice sums it
// over ranks 0 to 7 in order (the same bits as the last CTA's sum of the whole tile); the
// last clears the bits its own add returned and sums the slices they name: it waits on no one.
// RUN: lower-tc %s | filecheck %s

func.func @spread(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {split_k = 8, reduce = "global"} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}
// CHECK: // lower-tc kernel spread: {{.*}}"grid": [128, 1, 1],{{.*}}"workspace": {"partial_bytes": 65536, "split_k": 8}}
// every CTA: its partial into its slot, fenced; the first consumer thread counts it in the tile's word (8 bytes a tile)
// CHECK: // split-K: this CTA's partial tile into its slot
// CHECK: st.global.v4.f32 [%rd{{[0-9]+}}+30720], {%f60, %f61, %f62, %f63};
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK: setp.eq.u32 %p[[FIRST:[0-9]+]], %r0, 128;
// CHECK: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 8;
// CHECK-NEXT: add.s64 %rd[[WORD:[0-9]+]], %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK-NEXT: mov.u64 %rd[[OLD:[0-9]+]], 0;
// CHECK-NEXT: @!%p[[FIRST]] bra $L_counted_{{[0-9]+}};
// CHECK-NEXT: // spread split-K: count this CTA in its tile's word (the high half)
// CHECK-NEXT: atom.acq_rel.gpu.global.add.u64 %rd[[GOT:[0-9]+]], [%rd[[WORD]]], 4294967296;
// CHECK-NEXT: mov.b64 %rd[[OLD]], %rd[[GOT]];
// E: the count before, rounded up to the next multiple of 8; the last is the CTA whose add makes E
// CHECK: shr.b64 %rd[[HI:[0-9]+]], %rd[[OLD]], 32;
// CHECK-NEXT: cvt.u32.u64 %r[[BEFORE:[0-9]+]], %rd[[HI]];
// CHECK-NEXT: div.u32 %r[[Q:[0-9]+]], %r[[BEFORE]], 8;
// CHECK-NEXT: add.u32 %r[[Q1:[0-9]+]], %r[[Q]], 1;
// CHECK-NEXT: // spread split-K: this launch's counts end at the next multiple of S
// CHECK-NEXT: mul.lo.u32 %r[[END:[0-9]+]], %r[[Q1]], 8;
// CHECK-NEXT: add.u32 %r[[AFTER:[0-9]+]], %r[[BEFORE]], 1;
// CHECK-NEXT: setp.eq.u32 %p[[LASTP:[0-9]+]], %r[[AFTER]], %r[[END]];
// CHECK-NEXT: // spread split-K: the ranks that gave up before the last counted
// CHECK-NEXT: cvt.u32.u64 %r[[GIVEN:[0-9]+]], %rd[[OLD]];
// a helper: waits at most 20 us for the count; out of time, sets its bit unless the word moved
// CHECK: $L_spread_helper_{{[0-9]+}}:
// CHECK: mov.u64 %rd[[START:[0-9]+]], %globaltimer;
// CHECK: shl.b64 %rd[[BIT:[0-9]+]], %rd{{[0-9]+}}, %r[[RANK:[0-9]+]];
// CHECK-NEXT: $L_spread_wait_[[W:[0-9]+]]:
// CHECK-NEXT: ld.acquire.gpu.global.u64 %rd[[NOW:[0-9]+]], [%rd[[WORD]]];
// CHECK-NEXT: shr.b64 %rd[[NOWHI:[0-9]+]], %rd[[NOW]], 32;
// CHECK-NEXT: cvt.u32.u64 %r[[COUNT:[0-9]+]], %rd[[NOWHI]];
// CHECK-NEXT: sub.s32 %r[[D:[0-9]+]], %r[[COUNT]], %r[[END]];
// CHECK-NEXT: setp.ge.s32 %p[[ALL:[0-9]+]], %r[[D]], 0;
// CHECK-NEXT: @%p[[ALL]] bra $L_spread_seen_[[SEEN:[0-9]+]];
// CHECK-NEXT: mov.u64 %rd[[T:[0-9]+]], %globaltimer;
// CHECK-NEXT: sub.s64 %rd[[WAITED:[0-9]+]], %rd[[T]], %rd[[START]];
// CHECK-NEXT: setp.gt.s64 %p[[LATE:[0-9]+]], %rd[[WAITED]], 20000;
// CHECK-NEXT: @!%p[[LATE]] bra $L_spread_wait_[[W]];
// CHECK-NEXT: or.b64 %rd[[MARKED:[0-9]+]], %rd[[NOW]], %rd[[BIT]];
// CHECK-NEXT: // spread split-K: out of time; give the slice up unless the word moved (the last may have counted)
// CHECK-NEXT: atom.acq_rel.gpu.global.cas.b64 %rd[[WAS:[0-9]+]], [%rd[[WORD]]], %rd[[NOW]], %rd[[MARKED]];
// CHECK-NEXT: setp.ne.b64 %p[[MOVED:[0-9]+]], %rd[[WAS]], %rd[[NOW]];
// CHECK-NEXT: @%p[[MOVED]] bra $L_spread_wait_[[W]];
// CHECK: $L_spread_seen_[[SEEN]]:
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
// the last clears the bits (its add's word plus its count, low half 0) and sums the slices its add found given up
// CHECK: $L_spread_own_[[OWNDONE]]:
// CHECK-NEXT: // spread split-K: only the last sums slices given up
// CHECK-NEXT: @!%p{{[0-9]+}} bra $L_spread_done_[[DONE:[0-9]+]];
// CHECK-NEXT: @!%p[[FIRST]] bra $L_spread_cleared_{{[0-9]+}};
// CHECK-NEXT: add.u64 %rd[[NEXT:[0-9]+]], %rd[[OLD]], 4294967296;
// CHECK-NEXT: and.b64 %rd[[CLEAR:[0-9]+]], %rd[[NEXT]], -4294967296;
// CHECK-NEXT: // spread split-K: the bits cleared for the next launch
// CHECK-NEXT: st.relaxed.gpu.global.u64 [%rd[[WORD]]], %rd[[CLEAR]];
// CHECK: and.b32 %r{{[0-9]+}}, %r[[GIVEN]], 1;
// CHECK: bar.red.or.pred %p[[TAKE:[0-9]+]], 1, 256, %p{{[0-9]+}};
// CHECK-NEXT: @!%p[[TAKE]] bra $L_spread_left_0_{{[0-9]+}};
// CHECK: and.b32 %r{{[0-9]+}}, %r[[GIVEN]], 128;
// CHECK: $L_spread_left_7_{{[0-9]+}}:
// CHECK-NEXT: $L_spread_done_[[DONE]]:
// no poll of other CTAs' words, no counter reset: each launch adds 8
// CHECK-NOT: ld.acquire
// CHECK-NOT: st.global.u32
// CHECK: ret;
