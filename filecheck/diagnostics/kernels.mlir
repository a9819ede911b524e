// What makes an op with tc.target a kernel, and what a kernel's name and attributes may be:
// errors at the kernel, from the first pass that finds the kernels (tc_kernels).
// RUN: lower-tc %s --split-input-file --verify-diagnostics -t ptx | filecheck %s

// A declaration has no body to lower.
func.func private @declared(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"}
// CHECK: kernels.mlir:[[# @LINE - 1]]:1: error: @declared carries tc.target but has no body: a declaration is not a kernel{{$}}

// -----

// A kernel's body is one block (structured loops: scf.for).
func.func @two_blocks(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  cf.br ^next
^next:
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 5]]:1: error: @two_blocks carries tc.target but its body has 2 blocks: a kernel's body is one block, its loops scf.for (run scf-for-loop-unroll or convert-scf-to-cf after ptx-lower-loops, not before){{$}}

// -----

// tc.target goes on each kernel, not on the module that holds them.
builtin.module attributes {tc.target = "sm_90a"} {
  func.func @k() {
    func.return
  }
}
// CHECK: kernels.mlir:[[# @LINE - 5]]:1: error: 'builtin.module' carries tc.target, which marks a kernel: put it on each kernel function, not on a module{{$}}

// -----

// tc.target is a string naming a target.
func.func @target_int() attributes {tc.target = 90} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 3]]:1: error: tc.target is a string such as "sm_90a", not 90{{$}}

// -----

// The kernel becomes the PTX entry of its name: a PTX identifier.
func.func @"a-b"() attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 3]]:1: error: the kernel's name 'a-b' is not a PTX identifier ([a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+): it becomes the PTX entry's name{{$}}

// -----

// A lone _ is not one either ([_$%] needs a character after it).
func.func @_() attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 3]]:1: error: the kernel's name '_' is not a PTX identifier ([a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+): it becomes the PTX entry's name{{$}}

// -----

// PTX predefines WARP_SZ.
func.func @WARP_SZ() attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 3]]:1: error: the kernel's name 'WARP_SZ' is predefined in PTX: it becomes the PTX entry's name{{$}}

// -----

// The PTX module's dynamic shared memory is `smem`.
func.func @smem() attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 3]]:1: error: a kernel cannot be named smem: the PTX module names its dynamic shared memory so{{$}}

// -----

// Two kernels of one name (one a gpu.func in a gpu.module, its own symbol table): one PTX module.
func.func @twice() attributes {tc.target = "sm_90a"} {
  func.return
}
"gpu.module"() <{sym_name = "kernels"}> ({
  "gpu.func"() <{function_type = () -> (), kernel}> ({
    "gpu.return"() : () -> ()
  }) {sym_name = "twice", tc.target = "sm_90a"} : () -> ()
}) : () -> ()
// CHECK: kernels.mlir:[[# @LINE - 4]]:3: error: two kernels are named twice: each becomes the PTX entry of its name{{$}}

// -----

// Arguments become parameters p_<name>, their names' other characters replaced by _.
func.func @params(%A_: memref<64x64xbf16>, %A$: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 3]]:1: error: %A_ and %A$ both become the PTX parameter p_A_: rename one{{$}}

// -----

// tc.grid and tc.schedule are a loop-level GEMM's: a single-tile kernel runs one CTA.
func.func @grid(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a", tc.grid = [2, 1, 1]} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %d to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 10]]:1: error: tc.grid is for a loop-level GEMM kernel (an scf.for over K): this single-tile kernel runs one CTA; leave it out{{$}}

// -----

func.func @schedule(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %D: memref<64x64xf32>) attributes {tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2>} {
  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<64x64xbf16>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x64xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<64x64xbf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x64xf32>
  tc.acc_store %d to %D : !tc.acc<64x64xf32>, memref<64x64xf32>
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 10]]:1: error: tc.schedule is for a loop-level GEMM kernel (an scf.for over K): this single-tile kernel runs one CTA; leave it out{{$}}

// -----

// A tc op outside every kernel would be left out of the PTX.
func.func @host(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %D: memref<256x256xf32>) {
  tc.matmul %A, %B to %D : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xf32>
  func.return
}
func.func @kernel() attributes {tc.target = "sm_90a"} {
  func.return
}
// CHECK: kernels.mlir:[[# @LINE - 6]]:3: error: 'tc.matmul' is outside every kernel: tc ops are lowered in a function marked tc.target{{$}}
