// tc.attention on BSHD tensors with a batch (docs/attention.md, "Layouts"): Q, K, V and O
// are (batch, heads, sequence, head dim) memrefs whose memory is (batch, sequence, heads,
// head dim), strided<[S*H*D, D, H*D, 1]>, as torch's q.transpose(1, 2) and FlashAttention
// keep them. The kernel reads them where they lie: 4-d tensor maps (the head dim, the
// sequence with a row pitch of H*D elements, the heads D apart, the batch S*H*D apart), one
// box of a head's rows per load, coordinates {column, row, head, batch} with the batch from
// ctaid.z (the grid is [query blocks, heads, batch]) and K/V's head h / 2 (GQA). O's store
// steps to its batch and head (153600 and 128 bytes) and then rows 512 bytes apart; the
// log-sum-exp is a dense (batch, heads, S) f32 memref: row q of head h, batch b at
// b * 1200 + h * 300 + q, the head's and batch's lines as 64-bit byte offsets (h * 1200
// and b * 4800: heads x S may pass 2^31 f32s), the row's as a wide product.
// RUN: lower-tc %s | filecheck %s

func.func @bshd(%Q: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %K: memref<2x2x300x64xbf16, strided<[38400, 64, 128, 1]>>, %V: memref<2x2x300x64xbf16, strided<[38400, 64, 128, 1]>>, %O: memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, %L: memref<2x4x300xf32>) attributes {tc.target = "sm_90a"} {
  tc.attention %Q, %K, %V to %O lse %L {causal} : memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, memref<2x2x300x64xbf16, strided<[38400, 64, 128, 1]>>, memref<2x2x300x64xbf16, strided<[38400, 64, 128, 1]>>, memref<2x4x300x64xbf16, strided<[76800, 64, 256, 1]>>, memref<2x4x300xf32>
  func.return
}

// CHECK: // lower-tc kernel bshd: {"args": [{{.*}}"shape": [2, 4, 300, 64], "strides": [76800, 64, 256, 1]}
// CHECK-SAME: "grid": [2, 4, 2]
// CHECK-SAME: "tensor_maps": [{"arg": 0, "box": [64, 192, 1, 1], "dtype": "bf16", "global_dims": [64, 300, 4, 2], "global_strides": [512, 128, 153600]
// CHECK-SAME: {"arg": 1, "box": [64, 64, 1, 1], "dtype": "bf16", "global_dims": [64, 300, 2, 2], "global_strides": [256, 128, 76800]
// CHECK: mov.u32 [[HEAD:%r[0-9]+]], %ctaid.y;
// CHECK-NEXT: mov.u32 [[BATCH:%r[0-9]+]], %ctaid.z;
// CHECK-NEXT: div.u32 [[KV:%r[0-9]+]], [[HEAD]], 2;
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, [[HEAD]], [[BATCH]]}]
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}+24576], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, [[KV]], [[BATCH]]}]
// CHECK: // the window's batch of the outer batch
// CHECK-NEXT: cvt.u64.u32 [[B64:%rd[0-9]+]], [[BATCH]];
// CHECK-NEXT: mul.lo.u64 {{%rd[0-9]+}}, [[B64]], 153600;
// CHECK: // the window's matrix of the batch
// CHECK-NEXT: mul.wide.u32 {{%rd[0-9]+}}, [[HEAD]], 128;
// CHECK: mul.wide.s32 {{%rd[0-9]+}}, {{%r[0-9]+}}, 512;
// CHECK: // the log-sum-exp: one f32 a row, by the quad's first thread
// CHECK: cvt.u64.u32 [[H64:%rd[0-9]+]], [[HEAD]];
// CHECK-NEXT: mul.lo.u64 [[HOFF:%rd[0-9]+]], [[H64]], 1200;
// CHECK-NEXT: add.u64 [[LINE:%rd[0-9]+]], {{%rd[0-9]+}}, [[HOFF]];
// CHECK-NEXT: cvt.u64.u32 [[B64L:%rd[0-9]+]], [[BATCH]];
// CHECK-NEXT: mul.lo.u64 [[BOFF:%rd[0-9]+]], [[B64L]], 4800;
// CHECK-NEXT: add.u64 [[BLINE:%rd[0-9]+]], [[LINE]], [[BOFF]];
// CHECK: mul.wide.s32 [[ROW:%rd[0-9]+]], {{%r[0-9]+}}, 4;
// CHECK-NEXT: add.u64 [[AT:%rd[0-9]+]], [[BLINE]], [[ROW]];
// CHECK-NEXT: st.global.f32 [[[AT]]], {{%f[0-9]+}};
