"""P in registers on the GPU, right and deliberately wrong: the example
examples/attention_p_in_registers.mlir as lowered, then with tc.acc_to_a packing each pair
high element first, then with each K-slice of P taken from the next slice's registers.
The right packing must pass the runner's float64 check and both wrong ones must fail it:
the check can tell the fragment layout apart (docs/attention.md).

    python bench/attention_p_mutations.py     # on an sm_90a GPU, lower-tc installed
"""
from pathlib import Path
import lower_tc.passes.to_ptx.wgmma as w
from lower_tc.layout.fragments import a_from_accumulator as right
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.run import run_kernel

def swapped(bits, s):
    return [[[e[1], e[0]] for e in regs] for regs in right(bits, s)]

def next_slice(bits, s):
    return right(bits, (s + 1) % 4)

for name, fake in (("right", right), ("lo/hi swapped", swapped), ("K-slices rotated", next_slice)):
    w.a_from_accumulator = fake
    src = Path("examples/attention_p_in_registers.mlir").read_text()
    k = compile_source(src, f"{name}.mlir", assemble=True)[0]
    r = run_kernel(k, 1)
    print(name, "PASS" if r.passed else "FAIL", r.summary().splitlines()[0][:160])
