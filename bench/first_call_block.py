"""Does a Kernel's first call block the host behind work already queued on its stream?
A stream is held busy by a ~100 ms spin kernel (torch.cuda._sleep), then a fresh Kernel of
tests/test_callable_gpu.py's first case is called on it: how long the call took on the host
and whether D was still unwritten right after. Two forms of the same PTX: without
griddepcontrol.wait, launched plainly, and as lower-tc compiles and launches it (the wait
first, a dependent launch). Then a second call of each, its module loaded.

    python bench/first_call_block.py

torch is its dependency (the device's)."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main() -> int:
    import torch

    from lower_tc.lowering.backend.assembler import assemble
    from lower_tc.lowering.compile import compile_source
    from lower_tc.lowering.runtime.callable import Kernel
    from test_callable_gpu import matmul_source

    ck = compile_source(matmul_source("bf16", "bf16", "f32", "bf16", True, True), "first_call")[0]
    plain = ck.ptx.replace("\tgriddepcontrol.wait;\n", "", 1)
    m, n, k = 200, 136, 112
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    assert torch.isnan(torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16).float()).all().item()
    for label, ptx, dependent in (("plain, no griddepcontrol", plain, False), ("dependent launch", ck.ptx, True)):
        kernel = Kernel(assemble(ptx, "sm_90a"), dataclasses.replace(ck.info, dependent_launch=dependent))
        for call in ("first", "second"):
            s = torch.cuda.Stream()
            d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            torch.cuda.synchronize()
            with torch.cuda.stream(s):
                torch.cuda._sleep(200_000_000)
            t0 = time.perf_counter()
            kernel(a, b, d, stream=s)
            host_ms = (time.perf_counter() - t0) * 1e3
            unwritten = torch.isnan(d.float()).all().item()
            print(f"{label}, {call} call: {host_ms:.2f} ms on the host, D unwritten right after: {unwritten}", flush=True)
            s.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
