// Errors of -t svg and -t html: located, exit status 1, nothing written.
// RUN: rm -rf %t.dir %t.html
// RUN: not lower-tc %s -t svg -o %t.dir 2>&1 | filecheck %s --check-prefix=BIG
// RUN: not lower-tc %s -t html -o %t.html 2>&1 | filecheck %s --check-prefix=BIG
// RUN: test ! -e %t.dir && test ! -e %t.html
// RUN: not lower-tc %s -t svg 2>&1 | filecheck %s --check-prefix=NODIR
// RUN: not lower-tc %s -t svg -o %t.dir -p tc-choose-swizzle 2>&1 | filecheck %s --check-prefix=UNPLACED
// RUN: not lower-tc %s -t html -p tc-choose-swizzle,tc-assign-smem,tc-lower-to-ptx 2>&1 | filecheck %s --check-prefix=LOWERED
// RUN: test ! -e %t.dir

func.func @big(%A: memref<512x64xbf16>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<512x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<512x64xbf16>, !tc.tile<512x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}

// BIG: {{.*}}errors.mlir:12:3: error: tile 512x64 is too large to draw: pictures show at most 256 x 256 elements{{$}}
// BIG-EMPTY:
// NODIR: lower-tc: error: -t svg writes one file per tile: give -o DIR{{$}}
// UNPLACED: {{.*}}errors.mlir:12:3: error: pictures show placed tiles: run tc-choose-swizzle and tc-assign-smem first{{$}}
// LOWERED: lower-tc: error: -t html draws tc tiles, which tc-lower-to-ptx removes: leave it out of -p{{$}}
