"""Sizes known at launch are checked against the kernel's limits (layout/limits.py) by
`resolve_sizes`, for every caller, and the host memory a run takes against what there is,
before anything is allocated or launched (issue 19): the index width and the .u32 size
parameters, the GEMM's tiles, TMA's dimensions and strides, CUDA's grid, host memory."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import ROOT
from fake_cuda import FakeDriver
from lower_tc.layout.kernel_info import TensorMap
from lower_tc.layout.limits import MAX_INDEX
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime import session
from lower_tc.lowering.runtime.errors import RunError, ShapeError
from lower_tc.lowering.runtime.memory import check_host_memory, host_bytes
from lower_tc.lowering.runtime.run import run_kernel
from lower_tc.lowering.runtime.sizes import check_launch_limits, resolve_sizes
from lower_tc.lowering.runtime.timing import time_kernel


@pytest.fixture(scope="module")
def dynamic():
    """The dynamic GEMM example, compiled (not assembled): 128x256 tiles, BK = 64."""
    (kernel,) = compile_source((ROOT / "examples" / "gemm_bf16_dynamic.mlir").read_text(), "dyn.mlir")
    return kernel


def gemm(m: int, n: int, k: int, lda: int | None = None) -> dict:
    return {"A": (m, k, lda), "B": (k, n, None), "D": (m, n, None)}


@pytest.mark.parametrize(("shapes", "message"), [
    (gemm(2**31, 64, 64), "kernel argument A's row count is 2147483648: lower-tc's kernels compute indices in 32-bit registers (0 to 2147483647)"),
    (gemm(64, 64, 2**32), "kernel argument A's column count is 4294967296: lower-tc's kernels compute"),
    (gemm(64, 64, 64, lda=2**31), "kernel argument A's leading dimension is 2147483648: lower-tc's kernels compute"),
    (gemm(2**64, 64, 64), "kernel argument A's row count is 18446744073709551616"),
    (gemm(0, 64, 64), "kernel argument A's row count is 0: sizes are positive"),
    (gemm(-8, 64, 64), "kernel argument A's row count is -8: sizes are positive"),
    # D's rows make grid y: 65535 tiles of 128 rows at most
    (gemm(65536 * 128, 64, 64), "kernel gemm_bf16_dynamic: the grid's y is 65536 blocks: CUDA launches 1 to 65535 along y (D is 8388608x64 in 128x256 tiles)"),
])
def test_sizes_past_a_limit_are_refused_naming_the_argument(dynamic, shapes, message) -> None:
    with pytest.raises(ShapeError) as info:
        resolve_sizes(dynamic.info, shapes)
    assert str(info.value).startswith(message)


def test_sizes_at_the_limits_are_accepted(dynamic) -> None:
    info = resolve_sizes(dynamic.info, gemm(65535 * 128, 2**20, 2**20))
    assert info.grid == (2**20 // 256, 65535, 1)
    assert [p.value for p in info.size_params][:3] == [65535 * 128, 2**20, 2**20]


def test_the_gemm_tiles_must_end_inside_the_index_width(dynamic) -> None:
    """With a tile that is not a power of two (BN = 192), N = 2^31 - 100 fits the index
    width but its last tile ends past it; with BN = 256 the same N is fine."""
    info = resolve_sizes(dynamic.info, gemm(64, 64, 64))
    n = MAX_INDEX - 99
    d = replace(info.args[info.gemm.d], shape=(64, n), strides=(n, 1))
    wide = replace(info, args=(*info.args[:2], d), grid=(1, 1, 1), gemm=replace(info.gemm, n=n))
    check_launch_limits(wide)
    narrow = replace(wide, gemm=replace(wide.gemm, config=replace(wide.gemm.config, bn=192)))
    with pytest.raises(ShapeError, match="^the last column of D's tiles is 2147483711: lower-tc's kernels compute indices"):
        check_launch_limits(narrow)


def test_tma_limits_are_checked_for_every_tensor_map(dynamic) -> None:
    """A tensor map with strides or dimensions TMA cannot take (a contract built by hand:
    resolve_sizes itself derives them from sizes the index checks already bound)."""
    info = resolve_sizes(dynamic.info, gemm(64, 64, 64))
    bad_stride = replace(info, tensor_maps=(replace(info.tensor_maps[0], global_strides=(2**40,)),))
    with pytest.raises(ShapeError, match=r"kernel argument A's TMA stride is 1099511627776 bytes: TMA takes strides below 2\^40"):
        check_launch_limits(bad_stride)
    odd = replace(info, tensor_maps=(replace(info.tensor_maps[0], global_strides=(24,)),))
    with pytest.raises(ShapeError, match="kernel argument A's TMA stride is 24 bytes: TMA needs a multiple of 16"):
        check_launch_limits(odd)
    wide: TensorMap = replace(info.tensor_maps[1], global_dims=(2**32 + 1, 64))
    with pytest.raises(ShapeError, match=r"kernel argument B's TMA dimension 0 is 4294967297 elements: TMA takes 1 to 2\^32"):
        check_launch_limits(replace(info, tensor_maps=(wide,)))


def test_host_memory_is_checked_before_anything_is_allocated(dynamic, monkeypatch) -> None:
    """More memory than there is: a RunError naming the largest argument, and not one
    driver call or host allocation made (the fake driver records every call)."""
    fake = FakeDriver()
    monkeypatch.setattr(session, "load_driver", lambda: fake)
    monkeypatch.setattr(session, "_SESSION", {})
    monkeypatch.setattr(session, "_LOST", [])
    shapes = {"A": (64, 2**31 - 128, None), "B": (2**31 - 128, 64, 2**31 - 128), "D": (64, 64, None)}
    info = resolve_sizes(dynamic.info, shapes)
    need = host_bytes(info)
    assert need > 2**62  # B spans (K - 1) x ld elements
    with pytest.raises(RunError, match=r"kernel gemm_bf16_dynamic: the run needs at least .* GiB of host memory and .* "
                                       r"GiB is available \(its largest argument, B, is 2147483520x64 bf16"):
        run_kernel(dynamic, 0, shapes=shapes)
    with pytest.raises(RunError, match="the run needs at least"):
        time_kernel(dynamic, 0, shapes=shapes)
    assert fake.calls == []
    check_host_memory(info, available=need)  # exactly enough is enough
    with pytest.raises(RunError):
        check_host_memory(info, available=need - 1)


def test_a_run_that_fits_is_not_refused(dynamic) -> None:
    info = resolve_sizes(dynamic.info, gemm(1000, 904, 1000))
    assert host_bytes(info) < 64 * 2**20
    check_host_memory(info)
    assert host_bytes(info, checked=False) < host_bytes(info)
