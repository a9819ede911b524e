// Attention at the op level on tcgen05 (sm_100a): 8 heads of 1000 queries over 2 K/V heads
// (GQA), head dim 128, bf16, causal, with the log-sum-exp. tc-expand-attention takes the
// tcgen05 blocks (layout/attention.py TCGEN05_BLOCKS: 128 queries x 128 keys on three
// stages at D = 128) and writes the loop of sm_90a's expansion with tc.tcgen05_mma for
// tc.wgmma; the lowering gives it one warpgroup and S, P and O in 512 columns of tensor
// memory. Assembled only (tests/test_expand_attention.py): no Blackwell GPU here.
// RUN: lower-tc %s -p 'tc-expand-attention{remarks=true}' -t mlir -o %t.mlir 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s -p tc-expand-attention -t mlir | filecheck %s --check-prefix=LOOP
// RUN: lower-tc %s -t ptx | filecheck %s

func.func @gqa(%Q: memref<8x1000x128xbf16>, %K: memref<2x1000x128xbf16>, %V: memref<2x1000x128xbf16>, %O: memref<8x1000x128xbf16>, %L: memref<8x1000xf32>) attributes {tc.target = "sm_100a"} {
  tc.attention %Q, %K, %V to %O lse %L {causal} : memref<8x1000x128xbf16>, memref<2x1000x128xbf16>, memref<2x1000x128xbf16>, memref<8x1000x128xbf16>, memref<8x1000xf32>
  func.return
}
// REMARK: op-tcgen05.mlir:[[# @LINE - 3]]:3: remark: 128 queries x 128 keys a block, 3 stages, one warpgroup, S, P and O in tensor memory, for 8 heads of 1000 x 1000 x 128

// LOOP: tc.grid = [8 : i64, 8 : i64, 1 : i64]
// LOOP: tc.smem_tile : !tc.tile<128x128xbf16, #tc.layout<k, swizzle = auto>>
// LOOP: tc.smem_tile {stages = 3 : i64} : !tc.tile<128x128xbf16, #tc.layout<k, swizzle = auto>>
// LOOP: scf.for
// LOOP: tc.tcgen05_mma %q, %k, %zero
// LOOP: tc.acc_mask %s at(%q0,
// LOOP: tc.acc_to_a %p : !tc.acc<128x128xf32> to !tc.afrag<128x128xbf16>
// LOOP: tc.tcgen05_mma %pa, %v, %carried
// LOOP-NOT: tc.wgmma

// CHECK: .target sm_100a
// CHECK: .reqntid 128, 1, 1
// CHECK: // tensor memory: O at column 0, S at 128, P at 256: 512 columns
// CHECK: // S = Q K^T: tcgen05.mma kind::f16, 8 K-slices, one elected thread
// CHECK: // O += P V: tcgen05.mma kind::f16, 8 K-slices, one elected thread
// CHECK: // the log-sum-exp: one f32 a row, each thread its own
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r{{[0-9]+}}, 512;
