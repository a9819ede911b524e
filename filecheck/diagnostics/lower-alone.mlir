// tc-lower-to-ptx run alone on IR the earlier passes have not prepared.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p tc-lower-to-ptx -t mlir | filecheck %s

// tc-lower-to-ptx alone: the wgmma has no descriptors.
func.func @nodesc(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 8192>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 8192>>, !tc.acc<64x64xf32>
  func.return
}
// CHECK: {{.*}}lower-alone.mlir:9:3: error: 'tc.wgmma' has no descriptors at tc-lower-to-ptx: run tc-compute-descriptors first{{$}}

// -----

// ... the tcgen05.mma has no instruction descriptor.
func.func @noidesc() attributes {tc.target = "sm_100a"} {
  %a = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 16384>>
  %acc = tc.acc_zero : !tc.acc<128x64xf32>
  %d = tc.tcgen05_mma %a, %b, %acc : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = 128b, offset = 0>>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b, offset = 16384>>, !tc.acc<128x64xf32>
  func.return
}
// CHECK: {{.*}}lower-alone.mlir:21:3: error: 'tc.tcgen05_mma' has no descriptors at tc-lower-to-ptx: run tc-compute-descriptors first{{$}}

// -----

// ... a tile whose swizzle is still auto.
func.func @auto_tile() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}lower-alone.mlir:30:3: error: the tile's swizzle is still auto at tc-lower-to-ptx: run tc-choose-swizzle first{{$}}

// -----

// ... a tile that has no offset.
func.func @unplaced() attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = 128b>>
  func.return
}
// CHECK: {{.*}}lower-alone.mlir:39:3: error: the tile has no shared-memory offset at tc-lower-to-ptx: run tc-assign-smem first{{$}}
