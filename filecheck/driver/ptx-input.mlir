// Hand-written (or foreign-built) ptx-level IR the printer cannot print is a located
// error, not a traceback.
// RUN: lower-tc %s --split-input-file --verify-diagnostics -p '' | filecheck %s

builtin.module attributes {ptx.target = "sm_80"} {
}
// CHECK: {{.*}}ptx-input.mlir: error: ptx.target 'sm_80' is not one lower-tc prints: sm_90a, sm_100a{{$}}

// -----

builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() : () -> i32
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:13:5: error: 'ptx.sreg' is malformed and cannot be printed (KeyError: 'sreg'){{$}}

// -----

builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = arith.constant 0 : i32
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:22:5: error: 'arith.constant' inside ptx.kernel: only ptx ops can be printed as PTX{{$}}

// -----

// A well-formed one prints.
builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() {sreg = "tid.x"} : () -> i32
  }) : () -> ()
}
// CHECK: .visible .entry k(
// CHECK: mov.u32 %r0, %tid.x;
