// Errors the passes report at the op they concern (IR the verifiers accept).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t mlir | filecheck %s
// A bad pass option is the command line's error: found before any input is read, not a
// diagnostic of the IR, so --verify-diagnostics does not turn it into a success.
// RUN: not lower-tc %s --split-input-file --verify-diagnostics -p 'tc-choose-swizzle{max=96b}' -t mlir 2>&1 | filecheck %s --check-prefix=OPTION

// tc-choose-swizzle needs the target of the kernel that holds an auto tile.
func.func @no_target() {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}passes.mlir:9:3: error: no tc.target on the enclosing kernel: cannot choose a swizzle{{$}}
// OPTION: lower-tc: error: tc-choose-swizzle: max=96b: unknown swizzle mode '96b' (known: none, 32b, 64b, 128b, 128b_base32b){{$}}
// OPTION-NOT: error

// -----

// tc-compute-descriptors: 128b_base32b is a tcgen05 mode.
func.func @base32b_on_hopper() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b_base32b>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = 128b_base32b>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}passes.mlir:21:3: error: 128b_base32b exists only on tcgen05 targets (sm_100a, sm_103a){{$}}

// -----

// tc-assign-smem: pinned tiles may not overlap.
func.func @overlap() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto, offset = 1024>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto, offset = 16384>>
  func.return
}
// CHECK: {{.*}}passes.mlir:33:3: error: pinned tile [16384, 24576) overlaps the tile at [1024, 17408){{$}}

// -----

// tc-assign-smem: auto tiles beyond 227 KiB.
func.func @exhausted() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<256x256xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<256x256xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}passes.mlir:43:3: error: shared memory exhausted: this tile would end at 262144 bytes, beyond the 232448 bytes (227 KiB) a block may use{{$}}
