// tc-lower-to-ptx: every tc kernel becomes a ptx.kernel of one-to-one PTX ops; the
// copy tables the layout computes become ptx.table globals; the module records the
// target and the PTX ISA version the kernels need. Host code is left alone.
// RUN: lower-tc %s -p tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx -t mlir | filecheck %s

func.func @host(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}

func.func @k(%A: memref<64x32xf16>, %B: memref<32x8xf16>, %D: memref<64x8xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<8x32xf16, #tc.layout<k, swizzle = none>>
  tc.copy %A to %a as a : memref<64x32xf16>, !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>
  tc.copy %B to %b as b : memref<32x8xf16>, !tc.tile<8x32xf16, #tc.layout<k, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<64x8xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf16, #tc.layout<k, swizzle = 64b>>, !tc.tile<8x32xf16, #tc.layout<k, swizzle = none>>, !tc.acc<64x8xf32>
  tc.acc_store %d to %D : !tc.acc<64x8xf32>, memref<64x8xf32>
  func.return
}

// CHECK: builtin.module attributes {ptx.target = "sm_90a", ptx.version = "8.0"} {
// (shared offset, global element) per 16-byte chunk, in global order. A (64B swizzle):
// rows 0 and 1 (bytes 0-127) are not XORed; row 2 at byte 128 swaps chunks 0 and 1.
// CHECK-NEXT: "ptx.table"() <{sym_name = "lower_tc_k_table_0"
// CHECK-SAME: values = array<i32: 0, 0, 16, 8, 32, 16, 48, 24, 64, 32, 80, 40, 96, 48, 112, 56, 144, 64, 128, 72,
// B (K-major, no swizzle, at 4096) gathers 8 elements of K per chunk: global elements n + 8k
// CHECK-NEXT: "ptx.table"() <{sym_name = "lower_tc_k_table_1", values = array<i32: 4096, 0, 4112, 1,
// CHECK: func.func @host(%x: i32) -> i32 {
// CHECK-NEXT: %y = arith.addi %x, %x : i32
// CHECK: "ptx.kernel"() <{sym_name = "k", params = [".param .u64 p_A", ".param .u64 p_B", ".param .u64 p_D"], threads = #builtin.int<128>, smem_bytes = #builtin.int<4608>
// CHECK: "ptx.fence_proxy_async"()
// CHECK-NEXT: "ptx.bar_sync"()
// CHECK: = "ptx.regs"() {comment = "accumulator 64x8xf32"} : () -> !ptx.regs<4xf32>
// CHECK: "ptx.wgmma_fence"()
// CHECK-NEXT: "ptx.wgmma_mma_async"({{.*}}) <{shape = "m64n8k16", dtype = "f32", atype = "f16", btype = "f16", scale_d = 1 : i64, scale = 1 : i64, trans_a = 0 : i64, trans_b = 0 : i64}> : (!ptx.regs<4xf32>, i64, i64) -> ()
// CHECK-NEXT: "ptx.wgmma_mma_async"
// CHECK-NEXT: "ptx.wgmma_commit_group"() : () -> ()
// CHECK-NEXT: "ptx.wgmma_wait_group"() <{pending = 0 : i64}> : () -> ()
// CHECK-NOT: tc.
