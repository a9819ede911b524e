// tc-choose-swizzle: the widest mode whose row divides the contiguous extent
// (K bytes for K-major tiles, MN bytes for MN-major ones); pinned modes are kept.
// RUN: lower-tc %s -p tc-choose-swizzle -t mlir | filecheck %s
// RUN: lower-tc %s -p 'tc-choose-swizzle{max=64b}' -t mlir | filecheck %s --check-prefix=MAX64
// RUN: lower-tc %s -p 'tc-choose-swizzle{max=none}' -t mlir | filecheck %s --check-prefix=MAXNONE
// RUN: lower-tc %s -p 'tc-choose-swizzle{remarks=true}' -t mlir -o %t 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: lower-tc %s -p 'tc-choose-swizzle{max=32b remarks=true}' -t mlir -o %t 2>&1 | filecheck %s --check-prefix=REMARK32

func.func @hopper() attributes {tc.target = "sm_90a"} {
  %k64 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %k32 = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = auto>>
  %k16 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = auto>>
  %k8 = tc.smem_tile : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = auto>>
  %k128 = tc.smem_tile : !tc.tile<64x128xf16, #tc.layout<k, swizzle = auto>>
  %k48 = tc.smem_tile : !tc.tile<64x48xf16, #tc.layout<k, swizzle = auto>>
  %mn64 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = auto>>
  %mn32 = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = auto>>
  %mn16 = tc.smem_tile : !tc.tile<16x16xbf16, #tc.layout<mn, swizzle = auto>>
  %mn8 = tc.smem_tile : !tc.tile<8x16xbf16, #tc.layout<mn, swizzle = auto>>
  %tf32 = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = auto>>
  %tf16 = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<k, swizzle = auto>>
  %tf8 = tc.smem_tile : !tc.tile<64x8xtf32, #tc.layout<k, swizzle = auto>>
  %tf4 = tc.smem_tile : !tc.tile<64x4xtf32, #tc.layout<k, swizzle = auto>>
  %e128 = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %e64 = tc.smem_tile : !tc.tile<64x64xf8E5M2, #tc.layout<k, swizzle = auto>>
  %e32 = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = auto>>
  %e16 = tc.smem_tile : !tc.tile<64x16xf8E5M2, #tc.layout<k, swizzle = auto>>
  %s8 = tc.smem_tile : !tc.tile<64x96xsi8, #tc.layout<k, swizzle = auto>>
  %pin32 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 32b>>
  %pinnone = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none, order = k_first>>
  func.return
}

// CHECK-LABEL: func.func @hopper()
// CHECK-NEXT: %k64 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
// CHECK-NEXT: %k32 = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = 64b>>
// CHECK-NEXT: %k16 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = 32b>>
// CHECK-NEXT: %k8 = tc.smem_tile : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = none>>
// CHECK-NEXT: %k128 = tc.smem_tile : !tc.tile<64x128xf16, #tc.layout<k, swizzle = 128b>>
// CHECK-NEXT: %k48 = tc.smem_tile : !tc.tile<64x48xf16, #tc.layout<k, swizzle = 32b>>
// CHECK-NEXT: %mn64 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 128b>>
// CHECK-NEXT: %mn32 = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 64b>>
// CHECK-NEXT: %mn16 = tc.smem_tile : !tc.tile<16x16xbf16, #tc.layout<mn, swizzle = 32b>>
// CHECK-NEXT: %mn8 = tc.smem_tile : !tc.tile<8x16xbf16, #tc.layout<mn, swizzle = none>>
// CHECK-NEXT: %tf32 = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 128b>>
// CHECK-NEXT: %tf16 = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<k, swizzle = 64b>>
// CHECK-NEXT: %tf8 = tc.smem_tile : !tc.tile<64x8xtf32, #tc.layout<k, swizzle = 32b>>
// CHECK-NEXT: %tf4 = tc.smem_tile : !tc.tile<64x4xtf32, #tc.layout<k, swizzle = none>>
// CHECK-NEXT: %e128 = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 128b>>
// CHECK-NEXT: %e64 = tc.smem_tile : !tc.tile<64x64xf8E5M2, #tc.layout<k, swizzle = 64b>>
// CHECK-NEXT: %e32 = tc.smem_tile : !tc.tile<64x32xf8E4M3FN, #tc.layout<k, swizzle = 32b>>
// CHECK-NEXT: %e16 = tc.smem_tile : !tc.tile<64x16xf8E5M2, #tc.layout<k, swizzle = none>>
// CHECK-NEXT: %s8 = tc.smem_tile : !tc.tile<64x96xsi8, #tc.layout<k, swizzle = 32b>>
// CHECK-NEXT: %pin32 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 32b>>
// CHECK-NEXT: %pinnone = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none, order = k_first>>

// MAX64-LABEL: func.func @hopper()
// MAX64-NEXT: %k64 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 64b>>
// MAX64-NEXT: %k32 = tc.smem_tile : !tc.tile<64x32xbf16, #tc.layout<k, swizzle = 64b>>
// MAX64-NEXT: %k16 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<k, swizzle = 32b>>
// MAX64-NEXT: %k8 = tc.smem_tile : !tc.tile<64x8xbf16, #tc.layout<k, swizzle = none>>
// MAX64-NEXT: %k128 = tc.smem_tile : !tc.tile<64x128xf16, #tc.layout<k, swizzle = 64b>>
// MAX64-NEXT: %k48 = tc.smem_tile : !tc.tile<64x48xf16, #tc.layout<k, swizzle = 32b>>
// MAX64-NEXT: %mn64 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = 64b>>
// MAX64-NEXT: %mn32 = tc.smem_tile : !tc.tile<32x16xbf16, #tc.layout<mn, swizzle = 64b>>
// MAX64-NEXT: %mn16 = tc.smem_tile : !tc.tile<16x16xbf16, #tc.layout<mn, swizzle = 32b>>
// MAX64-NEXT: %mn8 = tc.smem_tile : !tc.tile<8x16xbf16, #tc.layout<mn, swizzle = none>>
// MAX64-NEXT: %tf32 = tc.smem_tile : !tc.tile<64x32xtf32, #tc.layout<k, swizzle = 64b>>
// MAX64: %e128 = tc.smem_tile : !tc.tile<64x128xf8E4M3FN, #tc.layout<k, swizzle = 64b>>
// MAX64: %pin32 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 32b>>

// MAXNONE-LABEL: func.func @hopper()
// MAXNONE-NEXT: %k64 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = none>>
// MAXNONE: %mn64 = tc.smem_tile : !tc.tile<64x16xbf16, #tc.layout<mn, swizzle = none>>
// MAXNONE: %pin32 = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 32b>>

// REMARK: {{.*}}choose-swizzle.mlir:10:3: remark: 128b: the K extent is 128 bytes (64 x bf16){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:11:3: remark: 64b: the K extent is 64 bytes (32 x bf16){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:12:3: remark: 32b: the K extent is 32 bytes (16 x bf16){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:13:3: remark: none: the K extent is 16 bytes (8 x bf16), not a multiple of 32 bytes{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:14:3: remark: 128b: the K extent is 256 bytes (128 x f16), a multiple of the 128-byte row{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:15:3: remark: 32b: the K extent is 96 bytes (48 x f16), a multiple of the 32-byte row{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:16:3: remark: 128b: the MN extent is 128 bytes (64 x bf16){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:17:3: remark: 64b: the MN extent is 64 bytes (32 x bf16){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:18:3: remark: 32b: the MN extent is 32 bytes (16 x bf16){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:19:3: remark: none: the MN extent is 16 bytes (8 x bf16), not a multiple of 32 bytes{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:20:3: remark: 128b: the K extent is 128 bytes (32 x tf32){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:21:3: remark: 64b: the K extent is 64 bytes (16 x tf32){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:22:3: remark: 32b: the K extent is 32 bytes (8 x tf32){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:23:3: remark: none: the K extent is 16 bytes (4 x tf32), not a multiple of 32 bytes{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:24:3: remark: 128b: the K extent is 128 bytes (128 x e4m3){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:25:3: remark: 64b: the K extent is 64 bytes (64 x e5m2){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:26:3: remark: 32b: the K extent is 32 bytes (32 x e4m3){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:27:3: remark: none: the K extent is 16 bytes (16 x e5m2), not a multiple of 32 bytes{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:28:3: remark: 32b: the K extent is 96 bytes (96 x s8), a multiple of the 32-byte row{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:29:3: remark: 32b: pinned{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:30:3: remark: none: pinned{{$}}

// With a cap, the reason says when the cap (not the extent) decided.
// REMARK32: {{.*}}choose-swizzle.mlir:10:3: remark: 32b: capped by the maximum 32b (the K extent is 128 bytes (64 x bf16)){{$}}
// REMARK32-NEXT: {{.*}}choose-swizzle.mlir:11:3: remark: 32b: capped by the maximum 32b (the K extent is 64 bytes (32 x bf16)){{$}}
// REMARK32-NEXT: {{.*}}choose-swizzle.mlir:12:3: remark: 32b: the K extent is 32 bytes (16 x bf16){{$}}
// REMARK32-NEXT: {{.*}}choose-swizzle.mlir:13:3: remark: none: the K extent is 16 bytes (8 x bf16), not a multiple of 32 bytes{{$}}


// Blackwell: 128b_base32b is for MN-major tf32 only (choose-swizzle-tcgen05.mlir); a pinned one is kept.
func.func @blackwell() attributes {tc.target = "sm_100a"} {
  %mn = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = auto>>
  %mn8 = tc.smem_tile : !tc.tile<128x32xf8E4M3FN, #tc.layout<mn, swizzle = auto>>
  %pinned = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
  %k = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto, offset = 2048>>
  func.return
}
// CHECK-LABEL: func.func @blackwell()
// CHECK-NEXT: %mn = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 128b>>
// CHECK-NEXT: %mn8 = tc.smem_tile : !tc.tile<128x32xf8E4M3FN, #tc.layout<mn, swizzle = 128b>>
// CHECK-NEXT: %pinned = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
// CHECK-NEXT: %k = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 2048>>
// MAX64-LABEL: func.func @blackwell()
// MAX64-NEXT: %mn = tc.smem_tile : !tc.tile<128x16xbf16, #tc.layout<mn, swizzle = 64b>>
// MAX64-NEXT: %mn8 = tc.smem_tile : !tc.tile<128x32xf8E4M3FN, #tc.layout<mn, swizzle = 64b>>
// MAX64-NEXT: %pinned = tc.smem_tile : !tc.tile<64x16xtf32, #tc.layout<mn, swizzle = 128b_base32b>>
// REMARK: {{.*}}choose-swizzle.mlir:108:3: remark: 128b: the MN extent is 256 bytes (128 x bf16), a multiple of the 128-byte row{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:109:3: remark: 128b: the MN extent is 128 bytes (128 x e4m3){{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:110:3: remark: 128b_base32b: pinned{{$}}
// REMARK-NEXT: {{.*}}choose-swizzle.mlir:111:3: remark: 128b: the K extent is 128 bytes (64 x bf16){{$}}
