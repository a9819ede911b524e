// fp8 attention with V as given (examples/attention_loop_e4m3_v.mlir): V's argument is read
// as it is (no "v_transposed" in the metadata), its tensor map walks the head dim first
// (global dims [head dim, keys, heads]: the MN-major tile TMA fills); each stage has a
// "ready" barrier that the producer warpgroup's 128 threads arrive on; the producer keeps 56
// registers; its threads wait for the stage's loads, transpose V (ld.shared.b32, the 8 prmt
// of layout/smem_transpose.py PRMT_STEPS, st.shared.b32 into the K-major ring), fence to the
// async proxy and arrive on ready; the consumers wait on ready before the P V wgmma.
// RUN: lower-tc %examples/attention_loop_e4m3_v.mlir -t ptx | filecheck %s

// CHECK: // lower-tc kernel attention_loop_e4m3_v: {{.*}}"attention": {"block_m": 128, "block_n": 64, "causal": 0, "k": 1, "o": 3, "q": 0, "scale": 0.125, "v": 2}
// CHECK-SAME: {"arg": 2, "box": [64, 64, 1], "dtype": "e4m3", "global_dims": [64, 1024, 2], "global_strides": [64, 65536], "param": "tmap_2", "swizzle": "64b", "tma_swizzle_code": 2}
// CHECK-LABEL: .visible .entry attention_loop_e4m3_v(
// CHECK: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}+[[READY0:[0-9]+]]], 128;
// CHECK-NEXT: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}+{{[0-9]+}}], 128;
// CHECK: setmaxnreg.dec.sync.aligned.u32 56;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: // V transposed: 2 blocks of 4 keys x 4 columns a thread
// CHECK-NEXT: ld.shared.b32
// CHECK: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 20800;
// CHECK: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 29538;
// CHECK: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 21520;
// CHECK: prmt.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 30258;
// CHECK: st.shared.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}+[[READY0]]];
// CHECK: setmaxnreg.inc.sync.aligned.u32 224;
// CHECK: // S = Q K^T: wgmma m64n64k32, 2 K-slices
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r{{[0-9]+}}+[[READY0]]]
// CHECK: // O += P V: wgmma m64n64k32, 2 K-slices, P from registers
// CHECK-NEXT: wgmma.fence.sync.aligned;
