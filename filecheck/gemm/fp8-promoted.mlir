// fp8's promoted accumulation (`accumulation = "promoted"`, layout/fp8_accumulation.py): each
// K step's MMAs (BK = 128: four k32 K-slices) start afresh (scale-d 0 on the first), the
// step waits for them (wait_group 0), adds the fragment into a second f32 run, which the
// epilogue stores, and releases the step's own stage (nothing of it is read any more). The
// fast default keeps one group in flight, releases iteration i-1's stage, no second run.
// RUN: lower-tc %s --split-input-file -t ptx | filecheck %s

func.func @promoted(%A: memref<300x1024xf8E4M3FN>, %B: memref<1024x200xf8E4M3FN, strided<[1, 1024]>>, %D: memref<300x200xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 4> {accumulation = "promoted"} : memref<300x1024xf8E4M3FN>, memref<1024x200xf8E4M3FN, strided<[1, 1024]>>, memref<300x200xbf16>
  func.return
}
// CHECK-LABEL: .visible .entry promoted(
// the MMAs' run %f0..%f63, then the total %f64..%f127, zeroed
// CHECK: mov.f32 %f63, 0f00000000;
// CHECK-NEXT: mov.f32 %f64, 0f00000000;
// the consumer's step: stage s's "empty" barrier address, then its "full" one waited on
// CHECK: shl.b32 %r[[E8:[0-9]+]], %r[[S:[0-9]+]], 3;
// CHECK-NEXT: add.u32 %r[[EMPTY:[0-9]+]], %r1, %r[[E8]];
// CHECK-NEXT: shl.b32 %r[[F8:[0-9]+]], %r[[S]], 3;
// CHECK-NEXT: add.u32 %r[[FULL:[0-9]+]], %r1, %r[[F8]];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r[[FULL]]+131072]
// CHECK: wgmma.fence.sync.aligned;
// CHECK-NEXT: add.s64
// CHECK-NEXT: add.s64
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f0, {{.*}}, %f63},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 0,
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f0, {{.*}}, %f63},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1,
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: // promoted: this step's MMAs are done: release its stage
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT: // promoted: total += this K step's sums
// CHECK-NEXT: add.f32 %f[[S0:[0-9]+]], %f64, %f0;
// CHECK-NEXT: mov.f32 %f64, %f[[S0]];
// CHECK: add.f32 %f[[S63:[0-9]+]], %f127, %f63;
// CHECK-NEXT: mov.f32 %f127, %f[[S63]];
// stage s itself is released (empty barriers at 131104 = full's 131072 + 4 stages x 8)
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [%r[[EMPTY]]+131104];
// the epilogue converts the total
// CHECK: cvt.rn.bf16x2.f32 %r{{[0-9]+}}, %f65, %f64;

// -----

func.func @fast(%A: memref<300x1024xf8E4M3FN>, %B: memref<1024x200xf8E4M3FN, strided<[1, 1024]>>, %D: memref<300x200xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 128, bk = 128, stages = 4> : memref<300x1024xf8E4M3FN>, memref<1024x200xf8E4M3FN, strided<[1, 1024]>>, memref<300x200xbf16>
  func.return
}
// CHECK-LABEL: .visible .entry fast(
// CHECK-NOT: promoted:
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: // iteration i-1's MMAs are done: release its stage
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: add.f32
// CHECK: cvt.rn.bf16x2.f32 %r{{[0-9]+}}, %f1, %f0;
