// tc.attention expanded to the loop level (docs/attention.md, "The op level"): 32 heads of
// 8192 queries and keys, head dim 128, 8 K/V heads (GQA 4:1), causal, the log-sum-exp. A CTA
// per block of 128 queries and head (grid [64, 32, 1]), the last query blocks first, the
// K/V head h / 4, a 3-stage ring of 128 keys (V's atoms down the keys first: one TMA box per 64
// columns), the loop ending at the block that holds the
// CTA's last visible key, the mask at run-time positions, O / l stored, the log-sum-exp at
// the CTA's rows.
// RUN: lower-tc %s -p tc-expand-attention -t mlir | filecheck %s

func.func @attn(%Q: memref<32x8192x128xbf16>, %K: memref<8x8192x128xbf16>, %V: memref<8x8192x128xbf16>, %O: memref<32x8192x128xbf16>, %L: memref<32x8192xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L {causal} : memref<32x8192x128xbf16>, memref<8x8192x128xbf16>, memref<8x8192x128xbf16>, memref<32x8192x128xbf16>, memref<32x8192xf32>
  func.return
}

// CHECK:      func.func @attn({{.*}}) attributes {tc.target = "sm_90a", tc.grid = [64 : i64, 32 : i64, 1 : i64]} {
// CHECK-NEXT:   %q = tc.smem_tile : !tc.tile<128x128xbf16, #tc.layout<k, swizzle = auto>>
// CHECK-NEXT:   %k = tc.smem_tile {stages = 3 : i64} : !tc.tile<128x128xbf16, #tc.layout<k, swizzle = auto>>
// CHECK-NEXT:   %v = tc.smem_tile {stages = 3 : i64} : !tc.tile<128x128xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
// CHECK-NEXT:   %kt = tc.transpose %K : memref<8x8192x128xbf16> to memref<8x128x8192xbf16, strided<[1048576, 1, 128]>>
// CHECK:        %group = arith.constant 4 : index
// CHECK-NEXT:   %kv_head = arith.divui %head, %group : index
// CHECK-NEXT:   %last_block = arith.constant 63 : index
// CHECK-NEXT:   %q_block = arith.subi %last_block, %bx : index
// CHECK-NEXT:   %q0 = arith.muli %q_block, %cbm : index
// CHECK:        %keys_end = arith.minui
// CHECK-NEXT:   tc.window_load %Q[%head, %q0, %c0] to %q as a
// CHECK:        scf.for %[[J:[0-9]+]] = %c0 to %keys_end step %cbn iter_args
// CHECK-NEXT:     tc.window_load %kt[%kv_head, %c0, %[[J]]] to %k as b
// CHECK-NEXT:     tc.window_load %V[%kv_head, %[[J]], %c0] to %v as b
// CHECK:          %masked = tc.acc_mask %s at(%q0, %[[J]]) {causal = 0 : i64} : !tc.acc<128x128xf32>
// CHECK:          %pa = tc.acc_to_a %p : !tc.acc<128x128xf32> to !tc.afrag<128x128xbf16>
// CHECK:        %out = tc.acc_row_div
// CHECK-NEXT:   tc.window_store %out to %O[%head, %q0, %c0]
// CHECK-NEXT:   %lse = tc.rows_lse
// CHECK-NEXT:   tc.rows_store %lse to %L[%head, %q0] : !tc.rows<128xf32>, memref<32x8192xf32>
