"""lower_tc.lowering.backend: PTX text to machine code with NVIDIA's tools, no GPU needed.

ptxas.py: find the CUDA tools, assemble PTX into a cubin with errors pointed back at the
source; sass.py: disassemble a cubin and check that the tensor-core opcodes are in it.
"""
