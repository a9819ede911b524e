// tc-choose-swizzle on tcgen05: MN-major tf32 is read only with 128b_base32b (128-byte
// swizzle of 32-byte atomicity), which no other operand may use (PTX ISA, tcgen05
// transpose notes). The chooser picks it; a cap below 128 bytes leaves no mode.
// RUN: lower-tc %s --split-input-file -p tc-choose-swizzle -t mlir --verify-diagnostics | filecheck %s
// RUN: lower-tc %s --split-input-file -p 'tc-choose-swizzle{max=64b}' -t mlir --verify-diagnostics | filecheck %s --check-prefix=MAX64
// RUN: lower-tc %s --split-input-file -p 'tc-choose-swizzle{remarks=true}' -t mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=REMARK

func.func @tf32_mn() attributes {tc.target = "sm_100a"} {
  %mn = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<mn, swizzle = auto>>
  %k = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<k, swizzle = auto>>
  func.return
}
// MAX64: {{.*}}choose-swizzle-tcgen05.mlir:9:3: error: no swizzle fits (the MN extent is 256 bytes (64 x tf32)): 128b, 64b, 32b, none: tcgen05 reads MN-major tf32 only with 128b_base32b (128-byte swizzle, 32-byte atomicity); 128b_base32b: wider than the maximum 64b{{$}}
// REMARK: {{.*}}choose-swizzle-tcgen05.mlir:9:3: remark: 128b_base32b: the only mode tcgen05 reads MN-major tf32 with (the MN extent is 256 bytes (64 x tf32)){{$}}
// REMARK: {{.*}}choose-swizzle-tcgen05.mlir:10:3: remark: 64b: the K extent is 64 bytes (16 x tf32){{$}}
// CHECK-LABEL: func.func @tf32_mn()
// CHECK-NEXT: %mn = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
// CHECK-NEXT: %k = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<k, swizzle = 64b>>

// -----

// An MN extent that is not a whole 128-byte row leaves no mode at all.
func.func @tf32_mn_narrow() attributes {tc.target = "sm_100a"} {
  %mn = tc.smem_tile : !tc.tile<16x16xtf32, #tc.layout<mn, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}choose-swizzle-tcgen05.mlir:24:3: error: no swizzle fits (the MN extent is 64 bytes (16 x tf32)): 128b, 64b, 32b, none: tcgen05 reads MN-major tf32 only with 128b_base32b (128-byte swizzle, 32-byte atomicity); 128b_base32b: the extent is not a multiple of its 128-byte row{{$}}


// -----

// A pinned offset off the pattern boundary: tcgen05 reads swizzled tiles only on it
// (nothing off it is measured), so auto steps down to the widest mode whose pattern
// the offset starts: 0x8200 is a multiple of 512 (64b) but not of 1024 (128b).
func.func @pinned_off_boundary() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto, offset = 33280>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto, offset = 32896>>
  func.return
}
// CHECK-LABEL: func.func @pinned_off_boundary()
// CHECK-NEXT: %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 64b, offset = 33280>>
// CHECK-NEXT: %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = none, offset = 32896>>
// REMARK: {{.*}}choose-swizzle-tcgen05.mlir:[[# @LINE - 7]]:3: remark: 64b: the widest mode its placement allows (128b: tcgen05 (sm_100a): the tile's start 0x8200 is not a multiple of the 1024-byte 128b pattern; tiles off their pattern boundary are proven on Hopper only (docs/base-offset.md)){{$}}
