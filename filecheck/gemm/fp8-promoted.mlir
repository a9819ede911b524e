// fp8's promoted accumulation (`accumulation = "promoted"`, layout/fp8_accumulation.py): each
// K step's MMAs (BK = 128: four k32 K-slices) start afresh (scale-d 0 on the first) and their
// sums are added into a second f32 run, which the epilogue stores. Serially (@promoted: a
// tile too wide for a third run) the step waits for its MMAs (wait_group 0), adds them and
// releases its own stage. Overlapped (@overlapped: 64 x BN <= 128, K known) the steps
// alternate between two runs in groups of four: a step issues its MMAs, waits for the step
// before's (wait_group 1), releases that stage and adds its sums while its own run; the
// group's last step is waited for (wait_group 0), so no group is in flight where the loop
// turns. The fast default keeps one group in flight, releases iteration i-1's stage, no
// second run.
// RUN: lower-tc %s --split-input-file -t ptx | filecheck %s

func.func @promoted(%A: memref<300x1024xf8E4M3FN>, %B: memref<1024x200xf8E4M3FN, strided<[1, 1024]>>, %D: memref<300x200xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 192, bk = 128, stages = 4> {accumulation = "promoted"} : memref<300x1024xf8E4M3FN>, memref<1024x200xf8E4M3FN, strided<[1, 1024]>>, memref<300x200xbf16>
  func.return
}
// CHECK-LABEL: .visible .entry promoted(
// the MMAs' run %f0..%f95, then the total %f96..%f191, zeroed; no third run
// CHECK: mov.f32 %f95, 0f00000000;
// CHECK-NEXT: mov.f32 %f96, 0f00000000;
// CHECK-NOT: overlapped promotion
// the consumer's step: stage s's "empty" barrier address, then its "full" one waited on
// CHECK: shl.b32 %r[[E8:[0-9]+]], %r[[S:[0-9]+]], 3;
// CHECK-NEXT: add.u32 %r[[EMPTY:[0-9]+]], %r1, %r[[E8]];
// CHECK-NEXT: shl.b32 %r[[F8:[0-9]+]], %r[[S]], 3;
// CHECK-NEXT: add.u32 %r[[FULL:[0-9]+]], %r1, %r[[F8]];
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 %p{{[0-9]+}}, [%r[[FULL]]+163840]
// CHECK: wgmma.fence.sync.aligned;
// CHECK-NEXT: add.s64
// CHECK-NEXT: add.s64
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f0, {{.*}}, %f95},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 0,
// CHECK: wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f0, {{.*}}, %f95},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: %rd{{[0-9]+}},
// CHECK-NEXT: 1,
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: // promoted: this step's MMAs are done: release its stage
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT: // promoted: total += this K step's sums
// CHECK-NEXT: add.f32 %f[[S0:[0-9]+]], %f96, %f0;
// CHECK-NEXT: mov.f32 %f96, %f[[S0]];
// CHECK: add.f32 %f[[S95:[0-9]+]], %f191, %f95;
// CHECK-NEXT: mov.f32 %f191, %f[[S95]];
// stage s itself is released (empty barriers at 163872 = full's 163840 + 4 stages x 8)
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [%r[[EMPTY]]+163872];
// the epilogue converts the total
// CHECK: cvt.rn.bf16x2.f32 %r{{[0-9]+}}, %f97, %f96;

// -----

func.func @overlapped(%A: memref<200x1024xf8E4M3FN>, %B: memref<1024x136xf8E4M3FN, strided<[1, 1024]>>, %D: memref<200x136xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 64, bn = 128, bk = 128, stages = 6> {accumulation = "promoted"} : memref<200x1024xf8E4M3FN>, memref<1024x136xf8E4M3FN, strided<[1, 1024]>>, memref<200x136xbf16>
  func.return
}
// CHECK-LABEL: .visible .entry overlapped(
// three runs: the MMAs' %f0..%f63 (even steps), the total %f64..%f127, the odd steps' %f128..%f191
// CHECK: mov.f32 %f127, 0f00000000;
// CHECK-NEXT: mov.f32 %f128, 0f00000000;
// a group of four steps (K = 1024: 8 steps, two turns of the loop)
// CHECK: $L_for_[[G:[0-9]+]]_head:
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f0, {{.*}}, %f63},
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NOT: wait_group
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f128, {{.*}}, %f191},
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: // overlapped promotion: the step before's MMAs are done: release its stage, add its sums while this step's run
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK-NEXT: mbarrier.arrive.shared::cta.b64
// CHECK-NEXT: // promoted: total += this K step's sums
// CHECK-NEXT: add.f32 %f{{[0-9]+}}, %f64, %f0;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f0, {{.*}}, %f63},
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: add.f32 %f{{[0-9]+}}, %f64, %f128;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK-NEXT: {%f128, {{.*}}, %f191},
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: add.f32 %f{{[0-9]+}}, %f64, %f0;
// the group's last step: waited for, its stage released, its sums added before the turn
// CHECK: // overlapped promotion: the group's last MMAs are done
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared::cta.b64
// CHECK-NEXT: // promoted: total += this K step's sums
// CHECK-NEXT: add.f32 %f{{[0-9]+}}, %f64, %f128;
// CHECK-NOT: wgmma.
// CHECK: bra.uni $L_for_[[G]]_head;
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
