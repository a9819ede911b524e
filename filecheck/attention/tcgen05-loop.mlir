// The attention loop on tcgen05 (sm_100a; examples/attention_loop_tcgen05.mlir: 128 queries
// a CTA, blocks of 64 keys, head dim 64, causal, ragged, with the log-sum-exp), the PTX
// pinned: one tensor-memory allocation (O at column 0, S at 64, P's A columns at 128); O
// zeroed there before the loop, so every P V adds to it; in each block the elected thread
// of warp 0 issues Q K^T (enable-input-d off on its first K-slice) and commits onto the
// "mma" barrier, which every thread waits on with parity 0; S's row loaded once and masked
// at run time in its registers (a block seen whole branches past the comparisons); the
// masked S and P never stored in f32; O rescaled 32 columns at a time; P rounded into the
// A columns; P V from tensor memory, committed and waited on with parity 1 (two commits a
// block: the parities are the same at every block's start); the stage released by every
// thread, and thread 0 waiting for that release in every block, so that no thread is two
// phases behind the "mma" barrier when the next Q K^T commits. After the loop O / l, the stores and the allocation freed. Assembled and
// SASS-checked (tests/test_examples.py); not run: no Blackwell GPU here.
// RUN: lower-tc %examples/attention_loop_tcgen05.mlir | filecheck %s

// CHECK: // tensor memory: O at column 0, S at 64, P at 128: 256 columns
// CHECK-NEXT: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1+{{[0-9]+}}], 256;
// CHECK: // O (128x64xf32) starts at zero in tensor memory
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r[[OLANES:[0-9]+]]], {
// CHECK-NEXT: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r[[OLANES]]+32], {
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK-NEXT: bar.sync 0;
// CHECK: $L_for_0_head:
// CHECK: // S = Q K^T: tcgen05.mma kind::f16, 4 K-slices, one elected thread
// CHECK-NEXT: @!%p{{[0-9]+}} bra $L_mma_issued_[[QK:[0-9]+]];
// CHECK-NEXT: elect.sync _|%p[[E:[0-9]+]], 0xffffffff;
// CHECK-NEXT: @!%p[[E]] bra $L_mma_issued_[[QK]];
// CHECK-NEXT: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[S:[0-9]+]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[S]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[S]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[S]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r1+[[MMA:[0-9]+]]];
// CHECK-NEXT: $L_mma_issued_[[QK]]:
// CHECK-NEXT: mov.u32 %r[[P0:[0-9]+]], 0;
// CHECK-NEXT: $L_wait_{{[0-9]+}}:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r1+[[MMA]]], %r[[P0]];
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK: // the row of S, to mask at run time
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[SROW:[0-9]+]]];
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[SROW]]+32];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK: // the block is seen whole: keys < 1000, key <= query + 0
// CHECK: @%p{{[0-9]+}} bra $L_mask_done_[[MASK:[0-9]+]];
// CHECK: selp.f32
// CHECK: $L_mask_done_[[MASK]]:
// the masked S and P stay in registers: no store and no load until O's rescale
// CHECK-NOT: tcgen05.{{ld|st}}
// CHECK: // O carried to the new maximum: times exp2(old - new)
// CHECK-NOT: tcgen05.{{ld|st}}
// CHECK: // O's row, to rescale in tensor memory
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[OROW:[0-9]+]]];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r[[OROW]]], {
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}, [%r[[OROW]]+32];
// CHECK-NEXT: tcgen05.wait::ld.sync.aligned;
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r[[OROW]]+32], {
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK: cvt.rn.bf16x2.f32
// CHECK: tcgen05.st.sync.aligned.32x32b.x32.b32 [%r{{[0-9]+}}+128], {
// CHECK-NEXT: tcgen05.wait::st.sync.aligned;
// CHECK: // O += P V: tcgen05.mma kind::f16, 4 K-slices, one elected thread
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O:[0-9]+]]], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::f16 [%r[[O]]], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, 1;
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r1+[[MMA]]];
// CHECK: mov.u32 %r[[P1:[0-9]+]], 1;
// CHECK-NEXT: $L_wait_{{[0-9]+}}:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r1+[[MMA]]], %r[[P1]];
// CHECK: // this block's K and V are read
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+[[EMPTY:[0-9]+]]];
// thread 0 waits for every thread's release before it loads or not: warp 0 cannot commit
// the next Q K^T before every thread has seen this P V complete (one phase bit)
// CHECK: setp.ge.u32 %p[[BEYOND:[0-9]+]],
// CHECK-NEXT: @!%p0 bra $L_no_load_[[NL:[0-9]+]];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+[[EMPTY]]],
// CHECK: @%p[[BEYOND]] bra $L_no_load_[[NL]];
// CHECK: cp.async.bulk.tensor
// CHECK: $L_no_load_[[NL]]:
// CHECK: bra.uni $L_for_0_head;
// CHECK: $L_for_0_end:
// CHECK: // O's row, to divide by its sum
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK: // the log-sum-exp: one f32 a row, each thread its own
// CHECK: st.global.f32
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r{{[0-9]+}}, 256;
