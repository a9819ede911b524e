"""lower_tc.lowering.runtime: running compiled kernels on the GPU. Imports no xDSL.

==============  ===============================================================
session.py      the CUDA bindings (optional), checked driver calls, the device
launcher.py     the one launch path: module per device, tensor maps, grid, parameters, enqueue
callable.py     Kernel: a compiled kernel called on the caller's arrays and stream
arrays.py       a caller's array (DLPack, __cuda_array_interface__) as an ArrayView
arguments.py    the arrays checked against the kernel's arguments before launching
streams.py      the stream a call launches on (given, or the framework's current one)
launch.py       the runner's launch: buffers and guards, the launch path, wait, copy back
inputs.py       random inputs, poison, the bytes the device holds, matrix views
sizes.py        --shape and resolve_sizes (sizes known only at launch, checked against the limits)
memory.py       the host memory a run takes, checked against what is available
reference.py    the float64 reference: evaluates a kernel's reference program
checks.py       tolerances, stray writes
gemm_check.py   a whole GEMM's D = A x B (+ C), sampled beyond 1024^3
run.py          run_kernel and RunResult: inputs, launch, checks
timing.py       time_kernel: CUDA-event timing
errors.py       RunError, ShapeError, KernelError, KernelHung; LaunchError and its subclasses
artifact.py     a cubin and its launch metadata on disk (write_artifact, read_artifact)
cache.py        the disk cache of compiled kernels (CacheKey, cached, store)
loading.py      lower_tc.load(path): a Kernel from an artifact, without xDSL
files.py        files written whole or not at all (temporary beside, then renamed)
==============  ===============================================================

It reads a kernel's launch contract (`lower_tc.layout.kernel_info.KernelInfo`) and its
reference program (plain data); the IR stays on the compile side (lowering/compile.py).
"""
