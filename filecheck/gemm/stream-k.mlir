// Stream-K (`stream_k = G`, layout/stream_k.py): 256 x 7168 x 16384 in 128 x 256 tiles is
// 56 tiles of 256 K steps, half a wave on 132 SMs. With stream_k = 2 the CTAs fall into two
// groups (CTA c is CTA c / 2 of group c mod 2, 66 to a group) and the tiles too (tile l 2 +
// g of the walk is tile l of group g: the grouped order puts a column's two tile rows one
// after the other, so group g is tile row g): each group's 66 CTAs share its 28 tiles' 7168
// K steps, 108 or 109 each, across tile boundaries. The loop level is the persistent
// kernel's; the lowering walks units instead of tiles, stores a unit over all of K as any
// tile and sends a partial one through the workspace (slot g (P + R) + p + t, counter g R + t
// after the slots), the tile's last unit summing its CTAs' slots in K order.
// RUN: lower-tc %s -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=WALK
// RUN: lower-tc %s | filecheck %s --check-prefix=PTX

func.func @oproj(%A: memref<256x16384xbf16>, %B: memref<16384x7168xbf16>, %D: memref<256x7168xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {stream_k = 2} : memref<256x16384xbf16>, memref<16384x7168xbf16>, memref<256x7168xbf16>
  func.return
}
// WALK: tc.grid = [56 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, persistent, stream_k = 2>
// WALK: scf.for %k = %c0 to %k_end step %bk
// WALK-NOT: reduce

// The contract: version 3, up to one CTA per K step (56 x 256), the stream-K workspace.
// PTX: // lower-tc kernel oproj: {{.*}}"grid": [{"persistent": 56, "steps": 14336}, 1, 1],{{.*}}"version": 3, "workspace": {"partial_bytes": 131072, "split_k": 1, "stream_k_groups": 2, "stream_k_tiles": 56}}
// PTX: .param .u64 p_D,
// PTX-NEXT: .param .u64 workspace,
// Once per CTA, before the roles part: the group, the CTA in it, the group's CTAs; d whole
// waves first (none here), R stream tiles, I = R Kt steps, this CTA's steps [a, e) (64-bit).
// PTX: // stream-K: the partial tiles and the tiles' counters go through the workspace
// PTX: // stream-K: 56 tiles of 256 K steps over the CTAs, in 2 group(s)
// PTX-NEXT: mov.u32 %r[[C:[0-9]+]], %nctaid.x;
// PTX-NEXT: mov.u32 %r[[CX:[0-9]+]], %ctaid.x;
// PTX-NEXT: rem.u32 %r[[G:[0-9]+]], %r[[CX]], 2;
// PTX-NEXT: div.u32 %r[[P:[0-9]+]], %r[[CX]], 2;
// PTX-NEXT: div.u32 %r[[PER:[0-9]+]], %r[[C]], 2;
// PTX-NEXT: mov.u32 %r[[LOCAL:[0-9]+]], 28;
// PTX-NEXT: div.u32 %r[[W:[0-9]+]], %r[[LOCAL]], %r[[PER]];
// PTX-NEXT: max.u32 %r[[W1:[0-9]+]], %r[[W]], 1;
// PTX-NEXT: // stream-K: whole waves of data-parallel tiles first, all but the last one or two
// PTX-NEXT: sub.u32 %r[[DP:[0-9]+]], %r[[W1]], 1;
// PTX: mul.lo.u32 %r[[I:[0-9]+]], %r{{[0-9]+}}, 256;
// PTX: mul.wide.u32 %rd{{[0-9]+}}, %r[[P]], %r[[I]];
// PTX-NEXT: div.u64
// PTX: // stream-K: this CTA's units
// The producer and the consumers walk the same units: unit j's tile (tile l of group g is
// l 2 + g), first K step and K steps.
// PTX: // producer warpgroup: TMA only, unit after unit (stream-K)
// PTX: // stream-K: unit j's tile, first K step and K steps
// PTX: mul.lo.u32 %r[[L2:[0-9]+]], %r{{[0-9]+}}, 2;
// PTX-NEXT: add.u32 %r{{[0-9]+}}, %r[[L2]], %r[[G]];
// PTX: // consumer warpgroups: the MMAs and the epilogue, unit after unit (stream-K)
// PTX: // stream-K: unit j's tile, first K step and K steps
// After the unit's MMAs: a whole unit goes to the store; a partial one into its slot, its
// K steps counted in the tile's counter (atom.add of a register), the last summing.
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: @%p{{[0-9]+}} bra $L_whole_unit_{{[0-9]+}};
// PTX: // stream-K: this unit's partial tile into slot g (P + R) + p + t (131072 bytes each)
// PTX: fence.acq_rel.gpu;
// PTX-NEXT: mov.u32 %r[[BAR:[0-9]+]], 3;
// PTX-NEXT: // stream-K: every partial of this unit is stored
// PTX-NEXT: bar.sync %r[[BAR]], 256;
// PTX: // stream-K: this unit's K steps into its tile's count; 256 completes it
// PTX-NEXT: atom.acq_rel.gpu.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX: bar.red.or.pred %p{{[0-9]+}}, 3, 256, %p{{[0-9]+}};
// PTX: // stream-K: the tile's last unit sums and stores; the others go on
// PTX: // stream-K: the counter is 0 again for the next launch
// PTX: // stream-K: the tile's CTAs, their slots consecutive from g (P + R) + p_first + t
// PTX: // split-K: rank 0's partial into the registers
// PTX: $L_whole_unit_{{[0-9]+}}:
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX: $L_stream_k_done_{{[0-9]+}}:
