// The last wave's tiles split after whole ones (`split_k = S, reduce = "global", unsplit
// = F`, layout/split_k.py): 512 x 10240 in 128 x 256 tiles is 160 tiles, one wave of 132
// and 28 left. The first 132 tiles take one CTA each over all of K; the other 28 take 4
// CTAs each over a quarter of K, so the grid is 132 + 4 x 28 = 244 CTAs along x. The walk
// (tc-expand-matmul) finds the tile and the K slice from block x with min/sub/div; the
// lowering sends CTAs x < 132 straight to the store and gives CTA x >= 132 slot x - 132
// and counter (x - 132) / 4; the contract's workspace counts the split CTAs only.
// RUN: lower-tc %s -p tc-expand-matmul -t mlir | filecheck %s --check-prefix=WALK
// RUN: lower-tc %s | filecheck %s --check-prefix=PTX

func.func @qkv(%A: memref<512x8192xbf16>, %B: memref<8192x10240xbf16>, %D: memref<512x10240xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 4> {split_k = 4, reduce = "global", unsplit = 132} : memref<512x8192xbf16>, memref<8192x10240xbf16>, memref<512x10240xbf16>
  func.return
}
// WALK: tc.grid = [244 : i64, 1 : i64, 1 : i64], tc.schedule = #tc.gemm_schedule<warp_specialized, split_k = 4, reduce = global, unsplit = 132>
// WALK: %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// WALK-NEXT: %split_k = arith.constant 4 : index
// WALK-NEXT: %unsplit = arith.constant 132 : index
// WALK-NEXT: %[[ONE:[0-9]+]] = arith.constant 1 : index
// WALK-NEXT: %[[THREE:[0-9]+]] = arith.constant 3 : index
// xf = min(bx, F), d = bx - xf: 0 for a whole tile's CTA
// WALK-NEXT: %[[XF:[0-9]+]] = arith.minui %bx, %unsplit : index
// WALK-NEXT: %split_cta = arith.subi %bx, %[[XF]] : index
// WALK-NEXT: %[[Q:[0-9]+]] = arith.divui %split_cta, %split_k : index
// WALK-NEXT: %tile_x = arith.addi %[[XF]], %[[Q]] : index
// WALK-NEXT: %rank = arith.remui %split_cta, %split_k : index
// ways = 1 + 3 min(bx + 1 - min(bx + 1, F), 1): 1 for x < F, 4 after
// WALK-NEXT: %[[X1:[0-9]+]] = arith.addi %bx, %[[ONE]] : index
// WALK-NEXT: %[[M1:[0-9]+]] = arith.minui %[[X1]], %unsplit : index
// WALK-NEXT: %[[E:[0-9]+]] = arith.subi %[[X1]], %[[M1]] : index
// WALK-NEXT: %is_split = arith.minui %[[E]], %[[ONE]] : index
// WALK-NEXT: %[[EXTRA:[0-9]+]] = arith.muli %is_split, %[[THREE]] : index
// WALK-NEXT: %ways = arith.addi %[[EXTRA]], %[[ONE]] : index
// the grouped walk runs on the tile, then the rank's K range divides by ways
// WALK: %group = arith.divui %tile_x, %{{[0-9]+}} : index
// WALK: %k_tiles = arith.constant 128 : index
// WALK: %[[LO_T:[0-9]+]] = arith.muli %rank, %k_tiles : index
// WALK-NEXT: %[[LO_Q:[0-9]+]] = arith.divui %[[LO_T]], %ways : index
// WALK-NEXT: %k_lo = arith.muli %[[LO_Q]], %bk : index
// WALK: %[[HI_Q:[0-9]+]] = arith.divui %{{[0-9]+}}, %ways : index
// WALK-NEXT: %k_hi = arith.muli %[[HI_Q]], %bk : index
// WALK: tc.window_store %result to %D[%m0, %n0] reduce global

// PTX: // lower-tc kernel qkv: {{.*}}"grid": [244, 1, 1],{{.*}}"version": 4, "workspace": {"partial_bytes": 131072, "split_k": 4, "unsplit": 132}}
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-NEXT: // split-K: CTAs x < 132 have a tile each; CTA x - 132 of the others has slot 131072 bytes there; tile's counter after the slots
// PTX-NEXT: mov.u32 %r[[CX:[0-9]+]], %ctaid.x;
// PTX-NEXT: setp.lt.u32 %p[[ALONE:[0-9]+]], %r[[CX]], 132;
// PTX-NEXT: // split-K: an unsplit tile is stored as it is
// PTX-NEXT: @%p[[ALONE]] bra $L_unsplit_store_[[W:[0-9]+]];
// PTX-NEXT: sub.u32 %r[[LIN:[0-9]+]], %r[[CX]], 132;
// PTX-NEXT: mov.u32 %r[[NX:[0-9]+]], %nctaid.x;
// PTX-NEXT: sub.u32 %r[[CTAS:[0-9]+]], %r[[NX]], 132;
// PTX-NEXT: rem.u32 %r[[RANK:[0-9]+]], %r[[LIN]], 4;
// PTX: mul.wide.u32 %rd{{[0-9]+}}, %r[[LIN]], 131072;
// PTX: st.global.v4.f32 [%rd{{[0-9]+}}+63488], {%f124, %f125, %f126, %f127};
// PTX-NEXT: fence.acq_rel.gpu;
// the counters follow the 112 split CTAs' slots; the tile's is (x - 132) / 4
// PTX: mul.wide.u32 %rd{{[0-9]+}}, %r[[CTAS]], 131072;
// PTX: div.u32 %r{{[0-9]+}}, %r[[LIN]], 4;
// PTX: atom.acq_rel.gpu.global.add.u32
// PTX: bar.red.or.pred %p[[LAST:[0-9]+]], 1, 256, %p{{[0-9]+}};
// PTX: @!%p[[LAST]] bra $L_split_k_done_[[DONE:[0-9]+]];
// PTX: sub.u32 %r{{[0-9]+}}, %r[[LIN]], %r[[RANK]];
// PTX: // split-K: rank 0's partial into the registers
// PTX: // split-K: rank i's partial added, ranks in order
// the whole tiles' CTAs join here: both store D from their registers by TMA stores
// PTX: $L_unsplit_store_[[W]]:
// PTX-NEXT: // epilogue: 128x256xf32 into D (bf16) by stmatrix and TMA stores of 64x64 pieces
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX: $L_split_k_done_[[DONE]]:
// PTX: cp.async.bulk.wait_group 0;
// PTX: ret;
