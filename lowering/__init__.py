"""lower_tc.lowering: what comes after the IR, in rooms by role.

=======================  ===========================================================
parse.py                 the located parser, a context with every dialect, verify
compile.py               the Python API: compile_source -> CompiledKernel (plain data)
reference_program.py     a single-tile kernel's tc ops as a plain reference program
descriptor_report.py     what `lower-tc desc` reports (shared with the pictures)
backend/                 ptxas and the SASS check
runtime/                 launching and checking on the GPU (imports no xDSL)
pictures/                tile SVGs, a program's pictures and HTML page
cli/                     the `lower-tc` command: dispatcher, driver, desc, run
=======================  ===========================================================
"""
