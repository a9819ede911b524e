// `lower-tc -t svg` and `-t html` on a program: one picture per placed tile, named
// KERNEL.TILE.svg; the page holds the shared-memory map and each MMA's descriptors.
// RUN: rm -rf %t && lower-tc %s -t svg -o %t
// RUN: ls %t | filecheck %s --check-prefix=FILES
// RUN: filecheck %s --input-file %t/pic.a.svg --check-prefix=SVGA
// RUN: filecheck %s --input-file %t/pic.b.svg --check-prefix=SVGB
// RUN: lower-tc %s -t html -o %t.html
// RUN: filecheck %s --input-file %t.html --check-prefix=HTML

func.func @pic(%A: memref<64x64xbf16>, %B: memref<64x128xbf16>, %D: memref<64x128xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b via tma : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x128xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x128xf32>
  tc.acc_store %d to %D : !tc.acc<64x128xf32>, memref<64x128xf32>
  func.return
}

// FILES: pic.a.svg
// FILES-NEXT: pic.b.svg

// A is K-major 128B at offset 0 (tc-assign-smem), copied by threads from a row-major A:
// A[3,17] sits in row 3, chunk 2 XOR 3 = 1: 3*128 + 16 + 2 = 0x192.
// SVGA: <svg {{.*}} data-name="A" data-tile-mn="64" data-tile-k="64" data-dtype="bf16" data-major="k" data-swizzle="128b" data-start="0">
// SVGA: <g class="logical" data-view="logical">
// SVGA: data-mn="3" data-k="17" data-byte="402"><title>A[3,17] @ 0x0192, bank 4</title>
// SVGA: <g class="smem" data-view="smem">
// SVGA: data-mn="3" data-k="17" data-byte="402"><title>A[3,17] @ 0x0192, bank 4</title>
// SVGA: <g class="kslice" data-slice-k="16" data-start="32" data-lbo="16" data-sbo="1024" data-base-offset="0" data-swizzle="128b" data-desc="0x4000004000010002">
// SVGA: <g class="banks" data-phases="64" data-conflict-phases="0" data-max-ways="1">

// B is N-major 128B after A (8192), atoms MN-first: B[3,17] is in atom (0, 2) at
// 8192 + 2 * 2048, K row 1, byte 6, chunk 0 XOR 1: 0x3096.
// SVGB: <svg {{.*}} data-name="B" data-tile-mn="128" data-tile-k="64" data-dtype="bf16" data-major="mn" data-swizzle="128b" data-start="8192">
// SVGB: data-mn="3" data-k="17" data-byte="4246"><title>B[3,17] @ 0x3096, bank 5</title>
// SVGB: data-mn="3" data-k="17" data-byte="4246"><title>B[3,17] @ 0x3096, bank 5</title>
// SVGB: <g class="kslice" data-slice-k="0" data-start="8192" data-lbo="1024" data-sbo="2048" data-base-offset="0" data-swizzle="128b" data-desc="0x4000008000400200">
// SVGB: class="arrow lbo" {{.*}} data-from="8192" data-to="9216" data-bytes="1024"
// SVGB: class="arrow sbo" {{.*}} data-from="8192" data-to="10240" data-bytes="2048"
// SVGB: this tile is filled by TMA (no thread stores)

// HTML: <!DOCTYPE html>
// HTML: <section id="kernel-pic" class="kernel" data-kernel="pic">
// HTML: <g class="smem-tile" data-tile="a" data-start="0" data-end="8192" data-stages="1">
// HTML: <g class="smem-tile" data-tile="b" data-start="8192" data-end="24576" data-stages="1">
// HTML: <g class="smem-scratch" data-start="24576">
// HTML: <tr data-operand="A" data-slice-k="0" data-start="0" data-lbo="16" data-sbo="1024" data-base-offset="0" data-swizzle="128b" data-desc="0x4000004000010000">
// HTML: <tr data-operand="B" data-slice-k="48" data-start="20480" data-lbo="1024" data-sbo="2048" data-base-offset="0" data-swizzle="128b" data-desc="0x4000008000400500">
// HTML: <figure id="tile-pic-a" data-tile="a">
// HTML: <figure id="tile-pic-b" data-tile="b">
// HTML-NOT: src=
