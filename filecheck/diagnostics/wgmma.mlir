// Verifier errors of tc.wgmma (sm_90a), one per kernel.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

// wgmma is M = 64 only
func.func @m_not_64(%acc: !tc.acc<128x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:8:3: error: wgmma has M = 64: the A tile is 128x64{{$}}

// -----

func.func @n_264(%acc: !tc.acc<64x264xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<264x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<264x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x264xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:18:3: error: wgmma N must be a multiple of 8 from 8 to 256, not 264{{$}}

// -----

// For wgmma an N that is not a multiple of 8 cannot get past the tile (8-row atoms).
func.func @n_not_multiple_of_8() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<12x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x12xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<12x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x12xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:28:23: error: MN extent 12 is not a whole number of none K-major atoms (8x8 bf16 elements, 8 along MN){{$}}

// -----

// 8-bit integers: N is 8, 16, 24, then multiples of 16
func.func @s8_n40(%acc: !tc.acc<64x40xi32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<40x64xsi8, #tc.layout<k, swizzle = auto>>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.tile<40x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.acc<64x40xi32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:41:3: error: wgmma N must be 8, 16, 24, then multiples of 16 from 8 to 256, not 40{{$}}

// -----

// K = 8 bf16 is one 16-byte atom, half an instruction
func.func @k_not_whole_slices() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:53:3: error: K = 8 is not a whole number of 16-element (32-byte) instruction K-slices{{$}}

// -----

func.func @k_mismatch() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:64:3: error: A has K = 64 but B has K = 32{{$}}

// -----

func.func @acc_shape() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x128xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:75:3: error: the accumulator is 64x128 but A x B is 64x64{{$}}

// -----

// bf16 accumulates in f32 only
func.func @acc_type_bf16() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf16>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf16>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:87:3: error: wgmma with bf16 accumulates in f32, not f16{{$}}

// -----

func.func @acc_type_s8() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:98:3: error: wgmma with s8 accumulates in s32, not f32{{$}}

// -----

func.func @acc_type_f16() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x32xf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xi32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x32xf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xi32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:109:3: error: wgmma with f16 accumulates in f32 or f16, not s32{{$}}

// -----

func.func @mixed_types() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:120:3: error: wgmma cannot multiply bf16 by f16{{$}}

// -----

func.func @mixed_float_int() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x128xsi8, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x128xsi8, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:131:3: error: wgmma cannot multiply e4m3 by s8{{$}}

// -----

// wgmma transposes 16-bit types only
func.func @fp8_mn_major() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:143:3: error: wgmma (sm_90a) cannot transpose e4m3: MN-major operands must be one of bf16, f16; store the tile K-major{{$}}

// -----

func.func @tf32_mn_major() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x32xtf32, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x32xtf32, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:154:3: error: wgmma (sm_90a) cannot transpose tf32: MN-major operands must be one of bf16, f16; store the tile K-major{{$}}

// -----

func.func @e2m1() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:165:3: error: wgmma (sm_90a) does not read e2m1 operands from shared memory{{$}}

// -----

// the register form reads A K-major
func.func @regs_mn_major() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc a_in_registers : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:177:3: error: wgmma with A in registers needs a K-major A tile{{$}}

// -----

// wrong target
func.func @on_sm100() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:189:3: error: tc.wgmma needs target sm_90a, but the kernel targets sm_100a{{$}}

// -----

// an unknown target string, reported where the target is first needed
func.func @unknown_target() attributes {tc.target = "sm_80"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:198:3: error: unknown target 'sm_80' (known: sm_90a, sm_100a){{$}}

// -----

// An MMA updates its accumulator in place: the input value is gone afterwards. Storing
// it, or feeding it to a second MMA, would silently read the updated registers.
func.func @acc_used_after_mma(%D: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x64xf32>
  tc.acc_store %acc to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:214:3: error: the accumulator is used again after this MMA (by tc.acc_store), but the MMA updates it in place: use the MMA's result instead{{$}}

// -----

// Hopper: swizzled atom strides are whole patterns (only those were measured, docs/base-offset.md).
func.func @padded_off_pattern() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, strides = [1152, 9216]>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, strides = [1152, 9216]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:227:{{[0-9]+}}: error: wgmma (sm_90a): the tile's atom stride along MN 0x480 is not a multiple of the 1024-byte 128b pattern; only strides of whole patterns were measured (docs/base-offset.md){{$}}

// -----

// a single tile's wgmma is one instruction: 320 is for a GEMM kernel's K loop (two a K-slice)
func.func @n_320(%acc: !tc.acc<64x320xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<320x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<320x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x320xf32>
  func.return
}
// CHECK: {{.*}}wgmma.mlir:[[# @LINE - 3]]:3: error: wgmma N must be a multiple of 8 from 8 to 256, not 320{{$}}

// -----

// Chaining through the results is the way to accumulate; storing before the MMA is fine.
func.func @acc_chained(%D: memref<64x64xf32>, %E: memref<64x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  tc.acc_store %acc to %E : !tc.acc<64x64xf32>, memref<64x64xf32>
  %d1 = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x64xf32>
  %d2 = tc.wgmma %a, %b, %d1 : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<64x64xf32>
  tc.acc_store %d2 to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
// CHECK: "ptx.kernel"() <{sym_name = "acc_chained"
// CHECK-NOT: error

