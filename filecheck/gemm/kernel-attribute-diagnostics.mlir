// Diagnostics of the loop level's kernel attribute tc.schedule = #tc.gemm_schedule<...>
// (dialects/tc_schedule.py): unknown keys, values of the wrong type or out of range and
// options without the warp-specialised schedule are parse errors at the entry; the
// target's and the ring's rules are errors at the kernel. The old separate kernel
// attributes and any other tc. name on a kernel are refused at the kernel by tc_kernels,
// which every pass uses to find kernels (the op level's options: matmul-options.mlir,
// epilogue-tma.mlir, persistent.mlir and cluster.mlir).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @epilogue_name(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.schedule = #tc.gemm_schedule<pipelined, epilogue = fast>} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 22]]:221: error: epilogue is one of tma, registers, not fast{{$}}

// -----

func.func @depth_too_big(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, mma_depth = 3>} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 22]]:1: error: mma_depth is the number of wgmma groups left in flight, 1 to stages - 1 = 2, not 3{{$}}

// -----

func.func @depth_pipelined(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.schedule = #tc.gemm_schedule<pipelined, mma_depth = 2>} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 22]]:212: error: mma_depth is for the warp-specialised schedule (#tc.gemm_schedule<warp_specialized, mma_depth = 2>){{$}}

// -----

func.func @cluster_three(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a", tc.grid = [16, 32, 1], tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 3>} {
  %a = tc.smem_tile {stages = 3} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 3} : !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %c0 = arith.constant 0 : index
  %cK = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x256xf32>
  %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%c = %zero) -> (!tc.acc<128x256xf32>) {
    tc.window_load %A[%m0, %k] to %a as a : memref<4096x4096xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %n0] to %b as b : memref<4096x4096xbf16>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x256xf32>
    scf.yield %d : !tc.acc<128x256xf32>
  }
  tc.window_store %acc to %D[%m0, %n0] : !tc.acc<128x256xf32>, memref<4096x4096xbf16>
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 22]]:227: error: cluster is 1 or 2 (CTAs sharing B's loads), not 3{{$}}

// -----

// the key's name is checked
func.func @unknown_key(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, depth = 2>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:132: error: unknown key 'depth' of #tc.gemm_schedule (keys after the schedule: persistent, mma_depth, cluster, epilogue, l2_promotion, split_k, reduce, unsplit, stream_k, accumulation){{$}}

// -----

// raster is the op's only
func.func @raster_key(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, raster = 8>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:131: error: raster is tc.matmul's option only: at the loop level the grouped order is in the block index arithmetic and tc.grid (#tc.gemm_schedule keys: persistent, mma_depth, cluster, epilogue, l2_promotion, split_k, reduce, unsplit, stream_k, accumulation){{$}}

// -----

// the schedule comes first
func.func @schedule_first(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<persistent>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:117: error: #tc.gemm_schedule starts with its schedule, pipelined or warp_specialized, not persistent{{$}}

// -----

// wrong types
func.func @depth_type(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, mma_depth = two>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:143: error: mma_depth is an integer (the wgmma groups left in flight), not two{{$}}

// -----

func.func @epilogue_string(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, epilogue = "tma">} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:147: error: epilogue is a name (tma or registers), not "tma"{{$}}

// -----

func.func @persistent_value(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, persistent = true>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:137: error: persistent is a flag: write `persistent` or leave it out{{$}}

// -----

// values out of range
func.func @depth_range(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, mma_depth = 16>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:144: error: mma_depth is the number of wgmma groups left in flight, 1 to 15, not 16{{$}}

// -----

func.func @promotion_range(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, l2_promotion = 100>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:151: error: l2_promotion is 0, 64, 128 or 256 (bytes), not 100{{$}}

// -----

func.func @twice(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2, cluster = 2>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:139: error: cluster is given twice{{$}}

// -----

// options that need the warp-specialised schedule
func.func @persistent_pipelined(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<pipelined, persistent>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:134: error: persistent is for the warp-specialised schedule (#tc.gemm_schedule<warp_specialized, persistent>){{$}}

// -----

// the target's rule, at the kernel
func.func @depth_sm100(%A: memref<64x64xbf16>) attributes {tc.target = "sm_100a", tc.schedule = #tc.gemm_schedule<warp_specialized, mma_depth = 2>} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: mma_depth counts wgmma groups: the warp-specialised tcgen05 GEMM (sm_100a) has none{{$}}

// -----

// the old kernel attributes, each with what to write instead
func.func @schedule_string(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = "warp_specialized"} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.schedule = "warp_specialized": the GEMM options are one kernel attribute now: write tc.schedule = #tc.gemm_schedule<warp_specialized>{{$}}

// -----

func.func @old_persistent(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.persistent} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.persistent: the GEMM options are one kernel attribute now: write tc.schedule = #tc.gemm_schedule<warp_specialized, persistent>{{$}}

// -----

func.func @old_depth(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = "warp_specialized", tc.mma_depth = 2 : i64} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.schedule = "warp_specialized", tc.mma_depth = 2: the GEMM options are one kernel attribute now: write tc.schedule = #tc.gemm_schedule<warp_specialized, mma_depth = 2>{{$}}

// -----

func.func @old_cluster(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.cluster = 2 : i64} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.cluster = 2: the GEMM options are one kernel attribute now: write tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2>{{$}}

// -----

func.func @old_epilogue(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.epilogue = "registers"} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.epilogue = "registers": the GEMM options are one kernel attribute now: write tc.schedule = #tc.gemm_schedule<pipelined, epilogue = registers>{{$}}

// -----

func.func @old_promotion(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.l2_promotion = 256 : i64} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.l2_promotion = 256: the GEMM options are one kernel attribute now: write tc.schedule = #tc.gemm_schedule<pipelined, l2_promotion = 256>{{$}}

// -----

// an unknown tc. attribute (other dialects' attributes pass)
func.func @unknown_tc(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1], tc.raster = 8} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: unknown kernel attribute tc.raster (a tc kernel carries tc.target, tc.grid, tc.schedule, tc.pingpong){{$}}

// -----

// tc.schedule is a #tc.gemm_schedule
func.func @not_a_schedule(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a", tc.schedule = 1 : i64} {
  func.return
}
// CHECK: kernel-attribute-diagnostics.mlir:[[# @LINE - 3]]:1: error: tc.schedule is a #tc.gemm_schedule<...>, not 1 : i64{{$}}
