// Errors of tc-lower-to-ptx (default pipeline), at the op or kernel they concern.
// RUN: lower-tc %s --split-input-file --verify-diagnostics --allow-unregistered-dialect -t mlir | filecheck %s

// No func.func carries tc.target: nothing to lower (reported without a location).
func.func @nokernel() {
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir: error: no kernel to lower: mark a func.func or gpu.func with tc.target = "sm_90a" or "sm_100a"{{$}}

// -----

// One PTX module has one .target.
func.func @k90() attributes {tc.target = "sm_90a"} {
  func.return
}
func.func @k100() attributes {tc.target = "sm_100a"} {
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:16:1: error: one PTX module has one target; kernels target sm_100a, sm_90a{{$}}

// -----

// Kernel arguments are global memrefs.
func.func @notmemref(%x: i32) attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:24:1: error: kernel argument p_x must be a memref{{$}}

// -----

// Ops outside the tc dialect are not lowered.
func.func @cannot() attributes {tc.target = "sm_90a"} {
  %c = arith.constant 0 : i32
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:33:3: error: 'arith.constant' cannot be lowered to PTX{{$}}

// -----

func.func @regions() attributes {tc.target = "sm_90a"} {
  scf.execute_region {
    scf.yield
  }
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:41:3: error: 'scf.execute_region' with regions is not lowered yet: keep the tile program flat{{$}}

// -----

// A tile passed in as an argument has no shared memory.
func.func @tilearg(%A: memref<64x64xbf16>, %a: !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>) attributes {tc.target = "sm_90a"} {
  tc.copy %A to %a as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:52:3: error: the tile must come from tc.smem_tile in this kernel{{$}}

// -----

// An accumulator passed in as an argument.
func.func @accarg(%D: memref<64x64xf32>, %acc: !tc.acc<64x64xf32>) attributes {tc.target = "sm_90a"} {
  tc.acc_store %acc to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:61:3: error: the accumulator must come from tc.acc_zero, tc.acc_load or an MMA in this kernel{{$}}

// -----

// A register accumulator (sm_90a) is one warpgroup: 64 rows (refused where it is made).
func.func @acc128(%D: memref<128x64xf32>) attributes {tc.target = "sm_90a"} {
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  tc.acc_store %acc to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:70:3: error: a wgmma accumulator has M = 64 (one warpgroup's registers), not 128{{$}}

// -----

// Tiles fit, but the TMA mbarrier after them does not.
func.func @smemfull(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 224256>>
  tc.copy %A to %a as a via tma : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 224256>>
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:79:1: error: the kernel needs 232464 bytes of shared memory, beyond 227 KiB{{$}}

// -----

// tc.target is a string.
func.func @target_int() attributes {tc.target = 90 : i32} {
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:89:1: error: tc.target is a string such as "sm_90a", not 90 : i32{{$}}

// -----

// A kernel argument of an element type no tensor core reads, reported at the kernel.
func.func @f64arg(%X: memref<4x4xf64>) attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:97:{{[0-9]+}}: error: kernel argument p_X: element type f64 is not a tensor-core operand or accumulator type{{$}}

// -----

// An unregistered op is not lowered silently (it is not a terminator).
func.func @unregistered() attributes {tc.target = "sm_90a"} {
  "foo.bar"() : () -> ()
  func.return
}
// CHECK: {{.*}}lower-to-ptx.mlir:106:{{[0-9]+}}: error: 'foo.bar' cannot be lowered to PTX{{$}}
