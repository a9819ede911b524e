"""lower_tc.lowering.backend: PTX text to machine code with NVIDIA's tools, no GPU needed.

assembler.py: the one door (`assemble`, `identity`), nvJitLink in the process where it is
installed, else ptxas ($LOWER_TC_ASSEMBLER picks); nvjitlink.py: PTX to cubin through
cuda.core's Linker; ptxas.py: find the CUDA tools, assemble PTX into a cubin with the ptxas
program, errors pointed back at the source; sass.py: disassemble a cubin and check that the
tensor-core opcodes are in it.
"""
