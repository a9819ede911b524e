// fuzz: {"target": "ptx"} | [parser] hang: compile_source and lower-tc: no answer in 60 s (an unclosed string literal: xDSL's lexer backtracks exponentially)
"// L] = A[0:16, 0:32] * B[0:32, 0:16] in two k16 steps, f16 inputs,
func.func @wmma_f16(%A: memref<16x32xf16>) attributes {tc.target = "sm_90a"} {
  func.return
}
