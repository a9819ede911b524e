// Every refusal of a batched GEMM (tc.matmul on 3-d memrefs, windows with a batch index), and of
// windows into 4-d memrefs (attention's batch of batches) on a GEMM or of the wrong kind, each located at the op.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

func.func @d_not_batched(%A: memref<4x256x64xbf16>, %B: memref<64x128xbf16>, %D: memref<256x128xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4x256x64xbf16>, memref<64x128xbf16>, memref<256x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:6:3: error: A or B is a batch of matrices (3-d), so D must be one: batch x M x N{{$}}

// -----

func.func @batches_differ(%A: memref<4x256x64xbf16>, %B: memref<3x64x128xbf16>, %D: memref<4x256x128xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4x256x64xbf16>, memref<3x64x128xbf16>, memref<4x256x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:14:3: error: B has a batch of 3 but D of 4: B has D's batch, or a batch of 1 (or is 2-d) for the same matrix in every batch{{$}}

// -----

func.func @batch_zero(%A: memref<0x256x64xbf16>, %B: memref<64x128xbf16>, %D: memref<0x256x128xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<0x256x64xbf16>, memref<64x128xbf16>, memref<0x256x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:22:3: error: A's batch is 0: a GEMM's matrices have at least one row and one column, and a batch at least one matrix{{$}}

// -----

func.func @d_overlaps(%A: memref<4x256x64xbf16>, %B: memref<64x128xbf16>, %D: memref<4x256x128xbf16, strided<[16384, 128, 1]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4x256x64xbf16>, memref<64x128xbf16>, memref<4x256x128xbf16, strided<[16384, 128, 1]>>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:30:3: error: D's strides [16384, 128, 1] put two of its elements at one address: the matrices of the batch would overlap (a batch stride of at least one matrix's extent, or matrices side by side in one row, are apart){{$}}

// -----

func.func @a_stride_tma(%A: memref<4x256x64xbf16, strided<[16388, 64, 1]>>, %B: memref<64x128xbf16>, %D: memref<4x256x128xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4x256x64xbf16, strided<[16388, 64, 1]>>, memref<64x128xbf16>, memref<4x256x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:38:3: error: A's batch stride is 32776 bytes: TMA needs a multiple of 16{{$}}

// -----

func.func @d_column_major(%A: memref<4x256x64xbf16>, %B: memref<64x128xbf16>, %D: memref<4x256x128xbf16, strided<[32768, 1, 256]>>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<4x256x64xbf16>, memref<64x128xbf16>, memref<4x256x128xbf16, strided<[32768, 1, 256]>>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:46:3: error: D must be row-major (the default layout or strided<[sb, ld, 1]>) with a batch: a column-major one is a single matrix of sizes known at compile time{{$}}

// -----

func.func @z_limit(%A: memref<70000x64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<70000x64x64xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D {raster = 0} : memref<70000x64x64xbf16>, memref<64x64xbf16>, memref<70000x64x64xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:54:3: error: a batch of 70000: raster = 0 puts the batch on the grid's z, and CUDA launches at most 65535 blocks along z; a raster of 1 or more (or none given: the default) walks every tile of the batch on a 1-d grid{{$}}

// -----

func.func @tiles_limit(%A: memref<65536x65536x64xbf16>, %B: memref<64x65536xbf16>, %D: memref<65536x65536x65536xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<65536x65536x64xbf16>, memref<64x65536xbf16>, memref<65536x65536x65536xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:62:3: error: 65536 matrices of 512 x 205 tiles: the grouped order numbers every tile of the batch on the grid's x, more than the 2147483647 the kernel's 32-bit index arithmetic counts{{$}}

// -----

func.func @window_indices(%A: memref<4x128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<4x128x128xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 4]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %k] to %a as a : memref<4x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%c0, %c0, %c0] : !tc.acc<128x128xf32>, memref<4x128x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:76:5: error: the window's source is a batch of matrices: the window's indices are [batch, row, column]{{$}}

// -----

func.func @store_past_batch(%A: memref<4x128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<4x128x128xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 5]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%bz, %c0, %k] to %a as a : memref<4x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%bz, %c0, %c0] : !tc.acc<128x128xf32>, memref<4x128x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:101:3: error: the store's batch index can be 4, past D's batch of 4{{$}}

// -----

func.func @dynamic_batch_index(%A: memref<?x128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<?x128x128xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 8]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%bz, %c0, %k] to %a as a : memref<?x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%bz, %c0, %c0] : !tc.acc<128x128xf32>, memref<?x128x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:121:3: error: D's batch is known only at launch: the store's batch index is gpu.block_id z, and tc.grid's z is [2, 0, 1] (D's batch){{$}}

// -----

func.func @batch_of_one_index(%A: memref<4x128x64xbf16>, %B: memref<1x64x128xbf16>, %D: memref<4x128x128xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 4]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%bz, %c0, %k] to %a as a : memref<4x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%bz, %k, %c0] to %b as b : memref<1x64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%bz, %c0, %c0] : !tc.acc<128x128xf32>, memref<4x128x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:137:5: error: the window's source is a batch of 1 matrix: its batch index is 0{{$}}

// -----

func.func @gemm_4d_window(%A: memref<2x4x128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<4x128x128xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 4]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%c0, %bz, %c0, %k] to %a as a : memref<2x4x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%bz, %c0, %c0] : !tc.acc<128x128xf32>, memref<4x128x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:156:5: error: a GEMM kernel's windows are into matrices or batches of matrices (2-d or 3-d): a batch of batches (4-d) is an attention kernel's{{$}}

// -----

func.func @indices_4d(%A: memref<2x4x128x64xbf16>, %B: memref<64x128xbf16>, %D: memref<4x128x128xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 4]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
  %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = tc.acc_zero : !tc.acc<128x128xf32>
  %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (!tc.acc<128x128xf32>) {
    tc.window_load %A[%bz, %c0, %k] to %a as a : memref<2x4x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
    tc.window_load %B[%k, %c0] to %b as b : memref<64x128xbf16>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>
    %d = tc.wgmma %a, %b, %c : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<128x64xbf16, #tc.layout<mn, swizzle = auto, order = k_first>>, !tc.acc<128x128xf32>
    scf.yield %d : !tc.acc<128x128xf32>
  }
  tc.window_store %acc to %D[%bz, %c0, %c0] : !tc.acc<128x128xf32>, memref<4x128x128xbf16>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:176:5: error: the window's source is a batch of batches of matrices: the window's indices are [outer batch, batch, row, column]{{$}}

// -----

func.func @w(%A: memref<2x4x?x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %c0 = arith.constant 0 : index
  tc.window_load %A[%c0, %c0, %c0, %c0] to %a as a : memref<2x4x?x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:191:3: error: the window's source is a 4-d memref (a batch of batches): its sizes must be known at compile time{{$}}

// -----

func.func @w(%A: memref<2x2x4x128x64xbf16>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %c0 = arith.constant 0 : index
  tc.window_load %A[%c0, %c0, %c0, %c0] to %a as a : memref<2x2x4x128x64xbf16>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:201:3: error: the window's source must be a 2-d memref, a 3-d one (a batch of matrices) or a 4-d one (a batch of batches){{$}}

// -----

func.func @w(%A: memref<2x4x128x64xbf16, strided<[0, 8192, 64, 1]>>) attributes {tc.target = "sm_90a", tc.grid = [1, 1, 1]} {
  %a = tc.smem_tile {stages = 2} : !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  %c0 = arith.constant 0 : index
  tc.window_load %A[%c0, %c0, %c0, %c0] to %a as a : memref<2x4x128x64xbf16, strided<[0, 8192, 64, 1]>>, !tc.tile<128x64xbf16, #tc.layout<k, swizzle = auto>>
  func.return
}
// CHECK: {{.*}}batched-diagnostics.mlir:211:3: error: the window's source has an outer stride of 0: its batches are at least one element apart{{$}}
