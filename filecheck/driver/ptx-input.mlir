// Hand-written (or foreign-built) ptx-level IR the printer cannot print is a located
// error, not a traceback. A ptx op's modifiers are declared properties (<{...}>): the
// verifier refuses a missing, unknown or ill-typed one at the op, naming the modifier.
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
// CHECK: {{.*}}ptx-input.mlir:14:5: error: ptx.sreg needs the modifier 'sreg'{{$}}

// -----

builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() <{sreg = "tid.x"}> : () -> i32
    "ptx.mbarrier_init"(%0) <{offset = 0 : i64, cuont = 1 : i64}> : (i32) -> ()
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:24:5: error: ptx.mbarrier_init has no modifier 'cuont' (its modifiers: offset, count){{$}}

// -----

builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() <{sreg = "tid.x"}> : () -> i32
    %1 = "ptx.setp"(%0) <{cmp = "gte", type = "u32", imm = 0 : i64}> : (i32) -> i1
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:34:5: error: ptx.setp modifier 'cmp' must be one of "eq", "equ", "ge", "geu", "gt", "gtu", "hi", "hs", "le", "leu", "lo", "ls", "lt", "ltu", "nan", "ne", "neu", "num", not "gte"{{$}}

// -----

builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() <{sreg = "tid.x"}> : () -> i32
    "ptx.mbarrier_init"(%0) <{offset = 0 : i64, count = "128"}> : (i32) -> ()
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:44:5: error: ptx.mbarrier_init modifier 'count' must be an i64 integer, not "128"{{$}}

// -----

// A modifier that only one operand form needs: a named barrier's thread count.
builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() <{sreg = "tid.x"}> : () -> i32
    "ptx.bar_sync"(%0) : (i32) -> ()
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:55:5: error: ptx.bar_sync needs the modifier 'count'{{$}}

// -----

// Well-typed modifiers, but too few operands to print.
builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() <{sreg = "tid.x"}> : () -> i32
    %1 = "ptx.mapa"(%0) <{type = "u32"}> : (i32) -> i32
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:66:5: error: 'ptx.mapa' is malformed and cannot be printed (IndexError: tuple index out of range){{$}}

// -----

builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = arith.constant 0 : i32
  }) : () -> ()
}
// CHECK: {{.*}}ptx-input.mlir:75:5: error: 'arith.constant' inside ptx.kernel: only ptx ops can be printed as PTX{{$}}

// -----

// A well-formed one prints. (A modifier written in the attribute dictionary is taken as
// the property it declares, as MLIR does; `comment` is a discardable attribute.)
builtin.module attributes {ptx.target = "sm_90a"} {
  "ptx.kernel"() <{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}> ({
    %0 = "ptx.sreg"() <{sreg = "tid.x"}> {comment = "the thread"} : () -> i32
    %1 = "ptx.setp"(%0) {cmp = "lt", type = "u32", imm = 32 : i64} : (i32) -> i1
  }) : () -> ()
}
// CHECK: .visible .entry k(
// CHECK: // the thread
// CHECK-NEXT: mov.u32 %r0, %tid.x;
// CHECK: setp.lt.u32 %p0, %r0, 32;
