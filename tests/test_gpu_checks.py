"""On a GPU: the runner's checks catch what they are for. A kernel with a wrong
descriptor must FAIL (not pass by accident), a write past a buffer's end must be seen,
and a kernel that never finishes must be reported within the time limit. Skipped, with the reason, where no suitable GPU is."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT
from lower_tc.lowering.compile import compile_source

EXAMPLE = ROOT / "examples" / "wgmma_bf16_kmajor.mlir"


def _wrong_base_offset(module) -> None:
    """A's descriptors with base offset 1: wrong for data swizzled on absolute address
    bits at any start (docs/base-offset.md), so the tensor core reads other chunks."""
    from xdsl.dialects.builtin import ArrayAttr, IntAttr

    from lower_tc.dialects.tc import DescAttr, WgmmaOp

    for op in module.walk():
        if isinstance(op, WgmmaOp):
            descs = [
                DescAttr(d.k, d.start, d.lbo, d.sbo, IntAttr(1), d.swizzle, IntAttr(d.value.data | 1 << 49))
                for d in op.attributes["tc.a_descs"].data
            ]
            op.attributes["tc.a_descs"] = ArrayAttr(descs)


@pytest.mark.gpu
def test_a_wrong_descriptor_fails_on_the_gpu(require_gpu) -> None:
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    text = EXAMPLE.read_text()
    (right,) = compile_source(text, str(EXAMPLE), assemble=True)
    (wrong,) = compile_source(text, str(EXAMPLE), assemble=True, before_lowering=_wrong_base_offset)
    assert right.ptx != wrong.ptx
    assert run_kernel(right, 5).passed
    result = run_kernel(wrong, 5)
    assert not result.passed and result.mismatches > result.checked // 2, result.summary()


SPIN = """
.version 8.0
.target sm_90a
.address_size 64
.visible .entry spin(.param .u64 flag)
{
    .reg .pred %p;
    .reg .b32 %r;
    .reg .b64 %rd;
    ld.param.u64 %rd, [flag];
    cvta.to.global.u64 %rd, %rd;
$wait:
    ld.volatile.global.u32 %r, [%rd];
    setp.eq.u32 %p, %r, 0;
    @%p bra $wait;
    ret;
}
"""


@pytest.mark.gpu
def test_a_kernel_that_never_finishes_is_reported_on_the_gpu(require_gpu, tmp_path: Path) -> None:
    """Run in its own process: afterwards that process's GPU context is given up."""
    require_gpu("sm_90a")
    script = tmp_path / "spin.py"
    script.write_text(textwrap.dedent(f"""
        import time
        import numpy as np
        from lower_tc.lowering.backend.ptxas import assemble
        from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
        from lower_tc.lowering.runtime.errors import KernelError, RunError
        from lower_tc.lowering.runtime.launch import launch
        cubin = assemble({SPIN!r}, "sm_90a")
        info = KernelInfo(name="spin", target="sm_90a", threads=32, smem_bytes=0,
                          args=(ArgInfo("flag", (1, 4), (4, 1), "s32", True),))
        start = time.monotonic()
        try:
            launch(cubin, info, [np.zeros(4, np.uint32)], timeout=0.5)
        except KernelError as err:
            assert "did not finish within 0.5 s" in str(err), err
            assert time.monotonic() - start < 5
        else:
            raise SystemExit("the spinning kernel was not reported")
        try:
            launch(cubin, info, [np.ones(4, np.uint32)], timeout=0.5)
        except RunError as err:
            assert "unusable" in str(err), err
        else:
            raise SystemExit("a launch after the hung kernel was not refused")
        print("REPORTED")
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "REPORTED" in done.stdout, done.stdout + done.stderr


POKE = """
.version 8.0
.target sm_90a
.address_size 64
.visible .entry poke(.param .u64 buf)
{
    .reg .b32 %r;
    .reg .b64 %rd;
    ld.param.u64 %rd, [buf];
    cvta.to.global.u64 %rd, %rd;
    mov.b32 %r, 0x12345678;
    st.global.u32 [%rd+OFFSET], %r;
    ret;
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("offset, overrun", [(12, 0), (16, 4), (-4, 4)])
def test_a_write_past_a_buffer_lands_in_its_guard_on_the_gpu(require_gpu, offset, overrun) -> None:
    """A 16-byte buffer: a store at byte 12 is inside it, one at byte 16 is past its end,
    one at byte -4 before its start (the guard before it)."""
    import numpy as np

    from lower_tc.lowering.backend.ptxas import assemble
    from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
    from lower_tc.lowering.runtime.launch import launch

    require_gpu("sm_90a")
    cubin = assemble(POKE.replace("OFFSET", str(offset)), "sm_90a")
    info = KernelInfo(name="poke", target="sm_90a", threads=32, smem_bytes=0,
                      args=(ArgInfo("buf", (1, 4), (4, 1), "s32", True),))
    sent = np.array([1, 2, 3, 4], dtype=np.uint32)
    (back,), _, overruns = launch(cubin, info, [sent])
    assert overruns == [overrun]
    expected = sent.copy()
    if 0 <= offset < 16:
        expected[offset // 4] = 0x12345678
    assert (back == expected).all(), back
