// Verifier errors of tc.tcgen05_mma (sm_100a), one per kernel.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s

func.func @n_264(%acc: !tc.acc<128x264xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<264x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<264x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x264xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:7:3: error: tcgen05.mma kind::f16 needs N a multiple of 8 from 8 to 256, not 264{{$}}

// -----

// MN-major tf32 can be 4 elements wide: N = 12 gets past the tile, not the MMA.
func.func @n_12(%acc: !tc.acc<128x12xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<12x16xtf32, #tc.layout<mn, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xtf32, #tc.layout<k, swizzle = auto>>, !tc.tile<12x16xtf32, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x12xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:18:3: error: tcgen05.mma kind::tf32 needs N a multiple of 8 from 8 to 256, not 12{{$}}

// -----

// kind::i8: N is 8, 16, 24, 32, then multiples of 16
func.func @i8_n40(%acc: !tc.acc<128x40xi32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xsi8, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<40x64xsi8, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.tile<40x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.acc<128x40xi32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:29:3: error: tcgen05.mma kind::i8 needs N 8, 16, 24, 32, then multiples of 16 up to 256, not 40{{$}}

// -----

func.func @m_32(%acc: !tc.acc<32x64xf32>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<32x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<32x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:39:3: error: tcgen05.mma needs M = 64 or 128 (cta_group::1) or 256 (cta_group::2, a CTA pair), not 32{{$}}

// -----

func.func @k_not_whole_slices() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x8xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x8xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:50:3: error: K = 8 is not a whole number of 16-element (32-byte) instruction K-slices{{$}}

// -----

// K is compared in elements (both are 128 bytes here)
func.func @k_mismatch() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:62:3: error: A has K = 64 but B has K = 128{{$}}

// -----

func.func @acc_shape() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:73:3: error: the accumulator is 128x128 but A x B is 128x64{{$}}

// -----

func.func @kinds_differ() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:84:3: error: A (bf16) and B (e4m3) need the same tcgen05 kind{{$}}

// -----

func.func @f16_bf16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:95:3: error: kind::f16 needs A and B of the same type (f16 or bf16){{$}}

// -----

func.func @tf32_acc_f16() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf16>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xtf32, #tc.layout<k, swizzle = auto>>, !tc.tile<64x32xtf32, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf16>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:106:3: error: kind::tf32 accumulates in f32, not f16{{$}}

// -----

func.func @i8_acc_f32() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xui8, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xui8, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xsi8, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:117:3: error: kind::i8 accumulates in s32, not f32{{$}}

// -----

func.func @e2m1_mn_major() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x128xf4E2M1FN, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x128xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x128xf4E2M1FN, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:128:3: error: tcgen05 (sm_100a) cannot transpose e2m1: MN-major operands must be one of bf16, e4m3, e5m2, f16, s8, tf32, u8; store the tile K-major{{$}}

// -----

func.func @tmem_mn_major() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc a_in_tmem : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:139:3: error: tcgen05.mma with A in tensor memory needs a K-major A tile{{$}}

// -----

// wrong target
func.func @on_sm90(%acc: !tc.acc<128x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:150:3: error: tc.tcgen05_mma needs target sm_100a, but the kernel targets sm_90a{{$}}

// -----

func.func @unknown_target() attributes {tc.target = "sm_100"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:158:3: error: unknown target 'sm_100' (known: sm_90a, sm_100a){{$}}

// -----

// sm_103a is known to the descriptor tools (for its LBO absolute-address mode), not a kernel target.
func.func @sm103a_kernel() attributes {tc.target = "sm_103a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:170:3: error: lower-tc compiles kernels for sm_90a, sm_100a; sm_103a is known to the descriptor tools (lower-tc desc) only{{$}}

// -----

// e2m1 (padded 4-bit) tiles: TMA would need the 16U4_ALIGN16B tensor-map type.
func.func @e2m1_tma(%A: memref<128x64xf4E2M1FN>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a via tma : memref<128x64xf4E2M1FN>, !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:183:3: error: TMA copies of e2m1 tiles need the padded 16U4_ALIGN16B tensor-map type, which lower-tc does not emit yet: copy via threads{{$}}

// -----

// ... and the threads read 16 packed elements per chunk: K must be contiguous in global memory.
func.func @e2m1_col_major_a(%A: memref<128x64xf4E2M1FN, strided<[1, 128]>>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<128x64xf4E2M1FN, strided<[1, 128]>>, !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:193:3: error: thread copies of e2m1 read 16 packed elements per chunk: the global matrix must be contiguous along K with rows starting on whole bytes (a leading dimension times 4 bits a multiple of 8){{$}}

// -----

func.func @e2m1_a_in_tmem() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc a_in_tmem : !tc.tile<128x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xf4E2M1FN, #tc.layout<k, swizzle = auto>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:204:3: error: A from tensor memory holds e2m1 in 8-bit containers (tcgen05.cp expansion), which lower-tc does not emit: keep A in shared memory{{$}}

// -----

func.func @tmem_a_n24() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<24x64xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc a_in_tmem : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<24x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:215:3: error: tcgen05.mma with A in tensor memory and M = 128 needs N a multiple of 16, not 24 (CUTLASS's UMMA TS atoms; lower-tc keeps their rule){{$}}

// -----

// An MN-major 8-bit B needs N in steps of 16 (its atoms are 16 elements along N or more);
// 16-element chunks already say so at the tile.
func.func @mn_major_e4m3_b_n24() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x32xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<24x32xf8E4M3FN, #tc.layout<mn, swizzle = none>>
  %acc = tc.acc_zero : !tc.acc<128x24xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x32xf8E4M3FN, #tc.layout<k, swizzle = auto>>, !tc.tile<24x32xf8E4M3FN, #tc.layout<mn, swizzle = none>>, !tc.acc<128x24xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:226:23: error: MN extent 24 is not a whole number of none MN-major atoms (16x8 e4m3 elements, 16 along MN){{$}}

// -----

// tcgen05 transposes tf32 only with 128b_base32b: a pinned 128b is refused at the tile.
func.func @tf32_mn_128b() attributes {tc.target = "sm_100a"} {
  %b = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<mn, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:237:3: error: tcgen05 reads MN-major tf32 only with 128b_base32b (128-byte swizzle, 32-byte atomicity){{$}}

// -----

// A swizzled tcgen05 tile off its pattern boundary: proven on Hopper only.
func.func @off_pattern() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 1152>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:249:3: error: tcgen05 (sm_100a): the tile's start 0x480 is not a multiple of the 1024-byte 128b pattern; tiles off their pattern boundary are proven on Hopper only (docs/base-offset.md){{$}}

// -----

// kind::f16 accumulates bf16 in f32 only (ISA shape table).
func.func @bf16_f16acc() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf16>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf16>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:261:{{[0-9]+}}: error: kind::f16 accumulates bf16 in f32 only, not f16{{$}}

// -----

// Tensor memory has 512 columns: three 256-column accumulators do not fit.
func.func @tmem768() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b>>
  %b = tc.smem_tile : !tc.tile<256x16xbf16, #tc.layout<k, swizzle = 32b>>
  %acc = tc.acc_zero : !tc.acc<128x256xf32>
  %acc2 = tc.acc_zero : !tc.acc<128x256xf32>
  %acc3 = tc.acc_zero : !tc.acc<128x256xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.tile<256x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x256xf32>
  %d2 = tc.tcgen05_mma %a, %b, %acc2 : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.tile<256x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x256xf32>
  %d3 = tc.tcgen05_mma %a, %b, %acc3 : !tc.tile<128x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.tile<256x16xbf16, #tc.layout<k, swizzle = 32b>>, !tc.acc<128x256xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:275:{{[0-9]+}}: error: the kernel's accumulators and A need 768 tensor-memory columns, more than 512{{$}}

// -----

// tcgen05: a swizzle origin off the pattern boundary is refused (measured on Hopper only).
func.func @tc5_origin() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 2048, origin = 1152>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 2048, origin = 1152>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:289:{{[0-9]+}}: error: tcgen05 (sm_100a): the tile's swizzle origin 0x480 is not a multiple of the 1024-byte 128b pattern; tiles off their pattern boundary are proven on Hopper only (docs/base-offset.md){{$}}

// -----

// tcgen05: so is an atom stride off it.
func.func @tc5_strides() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, strides = [1152, 18432]>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, strides = [1152, 18432]>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:301:{{[0-9]+}}: error: tcgen05 (sm_100a): the tile's atom stride along MN 0x480 is not a multiple of the 1024-byte 128b pattern; tiles off their pattern boundary are proven on Hopper only (docs/base-offset.md){{$}}

// -----

// 6-bit types cannot be transposed (only 8-, 16- and 32-bit kinds have MN-major forms).
func.func @e2m3_mn() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>
  %b = tc.smem_tile : !tc.tile<128x64xf6E2M3FN, #tc.layout<mn, swizzle = 128b>>
  %acc = tc.acc_zero : !tc.acc<128x128xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>, !tc.tile<128x64xf6E2M3FN, #tc.layout<mn, swizzle = 128b>>, !tc.acc<128x128xf32>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:313:{{[0-9]+}}: error: tcgen05 (sm_100a) cannot transpose e2m3: MN-major operands must be one of bf16, e4m3, e5m2, f16, s8, tf32, u8; store the tile K-major{{$}}

// -----

// Packed 6-bit rows start on whole bytes: a leading dimension of 66 puts row 1 at bit 396.
func.func @e3m2_ld(%A: memref<128x64xf6E3M2FN, strided<[66, 1]>>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf6E3M2FN, #tc.layout<k, swizzle = 64b>>
  tc.copy %A to %a as a : memref<128x64xf6E3M2FN, strided<[66, 1]>>, !tc.tile<128x64xf6E3M2FN, #tc.layout<k, swizzle = 64b>>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:323:{{[0-9]+}}: error: thread copies of e3m2 read 16 packed elements per chunk: the global matrix must be contiguous along K with rows starting on whole bytes (a leading dimension times 6 bits a multiple of 8){{$}}

// -----

// TMA would need the padded 16U6_ALIGN16B tensor-map type.
func.func @e2m3_tma(%A: memref<128x64xf6E2M3FN>) attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>
  tc.copy %A to %a as a via tma : memref<128x64xf6E2M3FN>, !tc.tile<128x64xf6E2M3FN, #tc.layout<k, swizzle = 64b>>
  func.return
}
// CHECK: {{.*}}tcgen05.mlir:333:{{[0-9]+}}: error: TMA copies of e2m3 tiles need the padded 16U6_ALIGN16B tensor-map type, which lower-tc does not emit yet: copy via threads{{$}}

// -----

// An M = 128 accumulator on sm_90a: the accumulator's verifier, which runs first, names
// the tcgen05 MMA's target rather than wgmma's M = 64.
func.func @m128_on_sm90(%D: memref<128x64xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<128x64xf32>
  tc.acc_store %d to %D : !tc.acc<128x64xf32>, memref<128x64xf32>
  func.return
}
// CHECK: tcgen05.mlir:[[# @LINE - 5]]:3: error: tc.tcgen05_mma needs target sm_100a, but the kernel targets sm_90a (tcgen05 is Blackwell's; on sm_90a, tc.wgmma multiplies with M = 64){{$}}
