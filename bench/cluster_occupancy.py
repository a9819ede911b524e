"""How many thread-block clusters of S CTAs (one CTA per SM: a GEMM's ring fills the SM's
shared memory) an sm_90a GPU runs at once, S = 1 to 16, as the driver reports it
(cuOccupancyMaxActiveClusters on a split-K GEMM kernel of lower-tc's with that cluster; for
S > 8, the non-portable sizes, on the unsplit kernel with the cluster given at launch and
CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED set).

A cluster's CTAs must sit in one GPC, and an H100 SXM's 132 SMs are split unevenly over its
GPCs, so 132 / S clusters do not all fit: the cost model's split-K waves
(layout/gemm_model.py `Machine.max_clusters`) come from this table.

    python bench/cluster_occupancy.py            # on the GPU machine; prints a Markdown table
"""

from __future__ import annotations

import sys

import lower_tc
from lower_tc.lowering.runtime import session
from lower_tc.lowering.runtime.launcher import load_on_device

SOURCE = """func.func @occupancy(%A: memref<512x65536xbf16>, %B: memref<65536x512xbf16>, %D: memref<512x512xbf16>) attributes {{tc.target = "sm_90a"}} {{
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {{{options}}} : memref<512x65536xbf16>, memref<65536x512xbf16>, memref<512x512xbf16>
  func.return
}}
"""


#: The largest cluster an sm_90a kernel may ask for without the non-portable attribute.
PORTABLE = 8


def max_active_clusters(size: int) -> tuple[int, int]:
    """(clusters, shared memory bytes of a CTA) for a cluster of `size` CTAs."""
    options = f"split_k = {size}" if 1 < size <= PORTABLE else "persistent = false"
    kernel = lower_tc.compile(SOURCE.format(options=options))
    info = kernel.info
    cuda = session.driver()
    loaded = load_on_device(cuda, session.load_core(), kernel._cubin, info, 0)  # noqa: SLF001 - the bench reads the cubin
    cu = cuda.cu
    if size > PORTABLE:
        cuda.call("cuFuncSetAttribute", loaded.function,
                  cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)
    config = cu.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = size * 16, 1, 1
    config.blockDimX, config.blockDimY, config.blockDimZ = info.threads, 1, 1
    config.sharedMemBytes = int(info.smem_bytes)
    attr = cu.CUlaunchAttribute()
    attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = size, 1, 1
    config.attrs = [attr]
    config.numAttrs = 1
    clusters = cuda.call("cuOccupancyMaxActiveClusters", loaded.function, config)
    return int(clusters[0] if isinstance(clusters, tuple) else clusters), int(info.smem_bytes)


def main() -> int:
    from cuda.core import Device

    dev = Device(0)
    print(f"{dev.name}, {dev.properties.multiprocessor_count} SMs")
    print("| cluster size S | clusters at once | CTAs at once | shared memory per CTA |")
    print("| --- | --- | --- | --- |")
    for size in range(1, 17):
        clusters, smem = max_active_clusters(size)
        print(f"| {size} | {clusters} | {clusters * size} | {smem} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
