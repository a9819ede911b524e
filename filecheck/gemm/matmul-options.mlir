// tc.matmul's options (dialects/tc_schedule.py: GEMM_OPTIONS) are declared properties: an
// unknown name and a value of the wrong type are parse errors at the attr-dict's entry, a
// value out of range is the verifier's error at the op. Other dialects' attributes
// (a dotted name, not tc.) pass through; the options print back as they were written.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p '' -t mlir | filecheck %s

// The issue's case, one error at a time: a misspelled option ...
func.func @misspelled(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {sched = "pipelined", schedule = 1, raster = "0"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: unknown option 'sched' of tc.matmul (options: schedule, raster, persistent, mma_depth, cluster, epilogue, l2_promotion, split_k, reduce, unsplit, stream_k, accumulation, swap_ab){{$}}

// -----

// ... a schedule that is not a string ...
func.func @schedule_type(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {schedule = 1, raster = "0"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: schedule is a string ("pipelined" or "warp_specialized"), not 1 : i64{{$}}

// -----

// ... and a raster that is not an integer.
func.func @raster_type(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {schedule = "pipelined", raster = "0"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:51: error: raster is an integer (a group size of tile rows), not "0"{{$}}

// -----

// A tc. name is not an option either.
func.func @tc_name(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {persistent = true, tc.persistent} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:46: error: unknown option 'tc.persistent' of tc.matmul (options: schedule, raster, persistent, mma_depth, cluster, epilogue, l2_promotion, split_k, reduce, unsplit, stream_k, accumulation, swap_ab){{$}}

// -----

func.func @twice(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {raster = 4, raster = 8} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:39: error: raster is given twice{{$}}

// -----

func.func @depth_type(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {mma_depth = true} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: mma_depth is an integer (the wgmma groups left in flight), not true{{$}}

// -----

func.func @no_name(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {4 = 2} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: expected an option or an attribute name{{$}}

// -----

// Out of range: errors at the entry too (the verifier checks an op built in Python).
func.func @raster_negative(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {raster = -1} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: raster is a group size of tile rows, 0 (none) to 2147483647, not -1{{$}}

// -----

func.func @depth_zero(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {mma_depth = 0} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: mma_depth is the number of wgmma groups left in flight, 1 to 15, not 0{{$}}

// -----

func.func @promotion(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {l2_promotion = 100} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: l2_promotion is 0, 64, 128 or 256 (bytes), not 100{{$}}

// -----

func.func @auto(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {schedule = "auto"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK: matmul-options.mlir:[[# @LINE - 3]]:27: error: schedule is one of pipelined, warp_specialized, not auto{{$}}

// -----

// Every option, and another dialect's attribute, print back in the attr-dict.
func.func @round_trip(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {l2_promotion = 256, my.note = "kept", epilogue = "registers", cluster = 1, mma_depth = 2, persistent = false, raster = 4, schedule = "warp_specialized"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
  func.return
}
// CHECK-LABEL: func.func @round_trip(
// CHECK-NEXT: tc.matmul %A, %B to %D {schedule = "warp_specialized", raster = 4, persistent = false, mma_depth = 2, cluster = 1, epilogue = "registers", l2_promotion = 256, my.note = "kept"} : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xbf16>
