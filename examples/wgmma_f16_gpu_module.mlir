// wgmma, f16 x f16 -> f32, written the way another compiler holds kernels: a gpu.func
// tile kernel in a gpu.module, beside a host function that uses scf, arith and memref
// (generic form for gpu.module and gpu.func: xDSL has no custom syntax for them).
// tests/test_embedding.py also runs it through a separate minimal compiler.
builtin.module attributes {gpu.container_module} {
  func.func @host_sum(%buf: memref<16xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.000000e+00 : f32
    %unused = arith.addi %c0, %c0 : index
    %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %buf[%i] : memref<16xf32>
      %next = arith.addf %acc, %x : f32
      scf.yield %next : f32
    }
    func.return %sum : f32
  }
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (memref<64x64xf16>, memref<64x32xf16>, memref<64x32xf32>) -> (), kernel}> ({
    ^bb0(%A: memref<64x64xf16>, %B: memref<64x32xf16>, %D: memref<64x32xf32>):
      %a = tc.smem_tile : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
      %b = tc.smem_tile : !tc.tile<32x64xf16, #tc.layout<mn, swizzle = auto>>
      tc.copy %A to %a as a : memref<64x64xf16>, !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>
      tc.copy %B to %b as b : memref<64x32xf16>, !tc.tile<32x64xf16, #tc.layout<mn, swizzle = auto>>
      %acc = tc.acc_zero : !tc.acc<64x32xf32>
      %d = tc.wgmma %a, %b, %acc : !tc.tile<64x64xf16, #tc.layout<k, swizzle = auto>>, !tc.tile<32x64xf16, #tc.layout<mn, swizzle = auto>>, !tc.acc<64x32xf32>
      tc.acc_store %d to %D : !tc.acc<64x32xf32>, memref<64x32xf32>
      "gpu.return"() : () -> ()
    }) {sym_name = "embedded_wgmma", tc.target = "sm_90a"} : () -> ()
  }) : () -> ()
}
