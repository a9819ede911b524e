// The online softmax on accumulators (examples/attention_online.mlir, first block of keys):
// the running maximum and sum start as -inf and 0 (one register each per thread: its two
// rows share them here); tc.acc_row_max takes the max over the thread's registers of row g
// (accumulator registers 0, 1, 4, 5, ...: %f2, %f3, %f6, %f7, ...), across the quad
// (shfl.sync.bfly 1 and 2), times c = log2(e) / 8 (0f3E38AA3B), and the max with the old
// maximum; tc.acc_exp reads a maximum of -inf as 0 (setp.eq + selp) and takes exp2(s c - m);
// tc.acc_row_sum adds the row's p across the quad onto l0 x exp2(m0 - m1); tc.acc_rescale
// multiplies O by the same exp2(m0 - m1); tc.acc_row_div multiplies by rcp(l), 0 where l is 0.
// The exponentials are ex2.approx.ftz.f32: results below 2^-126 are 0, and ptxas puts no
// subnormal fix-up (an FSETP and two FMULs) around each MUFU.EX2.
// RUN: lower-tc %examples/attention_online.mlir -t ptx | filecheck %s

// CHECK-LABEL: .visible .entry attention_online(
// CHECK: // every row's value: -inf
// CHECK-NEXT: mov.f32 %f[[M0:[0-9]+]], 0fFF800000;
// CHECK: // every row's value: 0
// CHECK-NEXT: mov.f32 %f[[L0:[0-9]+]], 0f00000000;
// the first block's row maximum (row g: registers 0, 1, 4, 5, ... of S)
// CHECK: // the running maximum of each row: scores times 0.125 x log2 e
// CHECK-NEXT: mov.f32 %f[[C:[0-9]+]], 0f3E38AA3B;
// CHECK-NEXT: max.f32 %f[[X0:[0-9]+]], %f[[S0:[0-9]+]], %f[[S1:[0-9]+]];
// CHECK-NEXT: max.f32 %f{{[0-9]+}}, %f[[X0]], %f{{[0-9]+}};
// CHECK: shfl.sync.bfly.b32 %f[[B1:[0-9]+]], %f[[ROW:[0-9]+]], 1, 31, -1;
// CHECK-NEXT: max.f32 %f[[Q1:[0-9]+]], %f[[ROW]], %f[[B1]];
// CHECK-NEXT: shfl.sync.bfly.b32 %f[[B2:[0-9]+]], %f[[Q1]], 2, 31, -1;
// CHECK-NEXT: max.f32 %f[[RMAX:[0-9]+]], %f[[Q1]], %f[[B2]];
// CHECK-NEXT: mul.f32 %f[[RMAXC:[0-9]+]], %f[[RMAX]], %f[[C]];
// CHECK-NEXT: max.f32 %f[[M1:[0-9]+]], %f[[M0]], %f[[RMAXC]];
// the exponentials of row g against the new maximum, -inf read as 0
// CHECK: // exp2 of each score less its row's running maximum: scores times 0.125 x log2 e
// CHECK-NEXT: mov.f32 %f[[C2:[0-9]+]], 0f3E38AA3B;
// CHECK-NEXT: mov.f32 %f[[NINF:[0-9]+]], 0fFF800000;
// CHECK-NEXT: setp.eq.f32 %p[[BLIND:[0-9]+]], %f[[M1]], %f[[NINF]];
// CHECK-NEXT: mov.f32 %f[[ZERO:[0-9]+]], 0f00000000;
// CHECK-NEXT: selp.f32 %f[[MF:[0-9]+]], %f[[ZERO]], %f[[M1]], %p[[BLIND]];
// CHECK-NEXT: mul.f32 %f[[SC:[0-9]+]], %f[[S0]], %f[[C2]];
// CHECK-NEXT: sub.f32 %f[[T:[0-9]+]], %f[[SC]], %f[[MF]];
// CHECK-NEXT: ex2.approx.ftz.f32 %f[[P0:[0-9]+]], %f[[T]];
// the running sum: this block's p of row g across the quad, plus l0 x exp2(m0 - m1)
// CHECK: // the running sum of each row: carried to the new maximum, this block's added
// CHECK-NEXT: add.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}};
// CHECK: shfl.sync.bfly.b32 %f{{[0-9]+}}, %f{{[0-9]+}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 %f{{[0-9]+}}, %f{{[0-9]+}}, 2, 31, -1;
// CHECK-NEXT: add.f32 %f[[PSUM:[0-9]+]],
// CHECK: selp.f32 %f[[MF2:[0-9]+]], %f{{[0-9]+}}, %f[[M1]], %p{{[0-9]+}};
// CHECK-NEXT: sub.f32 %f[[D:[0-9]+]], %f[[M0]], %f[[MF2]];
// CHECK-NEXT: ex2.approx.ftz.f32 %f[[F:[0-9]+]], %f[[D]];
// CHECK-NEXT: mul.f32 %f[[CARRIED:[0-9]+]], %f[[L0]], %f[[F]];
// CHECK-NEXT: add.f32 %f{{[0-9]+}}, %f[[CARRIED]], %f[[PSUM]];
// O carried to the new maximum, then P rounded to bf16 pairs for the P V wgmma
// CHECK: // O carried to the new maximum: times exp2(old - new)
// CHECK-NEXT: sub.f32 %f[[D2:[0-9]+]], %f[[M0]], %f{{[0-9]+}};
// CHECK-NEXT: ex2.approx.ftz.f32 %f[[F2:[0-9]+]], %f[[D2]];
// CHECK-NEXT: mul.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, %f[[F2]];
// CHECK: cvt.rn.bf16x2.f32 %r[[A0:[0-9]+]], %f{{[0-9]+}}, %f{{[0-9]+}};
// CHECK-NEXT: mov.b32 %r[[R0:[0-9]+]], %r[[A0]];
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT: {%f{{[0-9, %f]+}}},
// CHECK-NEXT: {%r[[R0]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// the end: O over l, 0 where l is 0
// CHECK: // each row over its sum; 0 where the sum is 0
// CHECK-NEXT: rcp.approx.ftz.f32 %f[[INV:[0-9]+]], %f[[L:[0-9]+]];
// CHECK-NEXT: mov.f32 %f[[Z:[0-9]+]], 0f00000000;
// CHECK-NEXT: setp.eq.f32 %p[[EMPTY:[0-9]+]], %f[[L]], %f[[Z]];
// CHECK-NEXT: mov.f32 %f[[Z2:[0-9]+]], 0f00000000;
// CHECK-NEXT: selp.f32 %f[[INV2:[0-9]+]], %f[[Z2]], %f[[INV]], %p[[EMPTY]];
// CHECK-NEXT: mul.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, %f[[INV2]];
// the log-sum-exp, (m + lg2 l) ln 2 (0f3F317218), stored by each quad's first thread:
// rows 16w + g and 16w + g + 8 of the 64 x 1 column, 4 and 32 bytes apart
// CHECK: // log-sum-exp: (m + log2 l) ln 2
// CHECK-NEXT: mov.f32 %f[[LN2:[0-9]+]], 0f3F317218;
// CHECK-NEXT: lg2.approx.f32 %f[[LG:[0-9]+]], %f{{[0-9]+}};
// CHECK-NEXT: add.f32 %f[[SUM2:[0-9]+]], %f{{[0-9]+}}, %f[[LG]];
// CHECK-NEXT: mul.f32 %f[[LSE0:[0-9]+]], %f[[SUM2]], %f[[LN2]];
// CHECK: and.b32 %r[[QUAD:[0-9]+]], %r0, 3;
// CHECK-NEXT: setp.eq.u32 %p[[FIRSTQ:[0-9]+]], %r[[QUAD]], 0;
// CHECK-NEXT: @!%p[[FIRSTQ]] bra $L_rows_stored_[[RS:[0-9]+]];
// CHECK-NEXT: mul.wide.u32 %rd[[ROFF:[0-9]+]], %r{{[0-9]+}}, 4;
// CHECK-NEXT: // one f32 a row, by the quad's first thread
// CHECK-NEXT: add.u64 %rd[[AT:[0-9]+]], %rd{{[0-9]+}}, %rd[[ROFF]];
// CHECK-NEXT: st.global.f32 [%rd[[AT]]], %f[[LSE0]];
// CHECK-NEXT: st.global.f32 [%rd[[AT]]+32], %f{{[0-9]+}};
// CHECK-NEXT: $L_rows_stored_[[RS]]:
