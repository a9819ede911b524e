"""lower_tc.lowering.cli: the `lower-tc` command.

main.py: the entry point, which dispatches to a sub-tool; driver.py: the compiler (an
xdsl-opt with lower-tc's dialects, passes and targets); desc.py: `lower-tc desc` (starts
without xDSL); run.py: `lower-tc run` (compile, run on the GPU, check or time); output.py:
files written whole or not at all, and closed standard streams.
"""
