"""lower_tc.matmul's plan: layouts read from shapes and strides, every refusal an
ArgumentError naming the argument, and programs that compile (CPU only)."""

from __future__ import annotations

import pytest

from lower_tc.lowering.api.matmul_plan import MatrixArg, plan_matmul
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.errors import ArgumentError, LaunchError


def row(name: str, rows: int, cols: int, dtype: str = "bf16", ld: int | None = None) -> MatrixArg:
    return MatrixArg(name, (rows, cols), (ld if ld is not None else cols, 1), dtype)


def col(name: str, rows: int, cols: int, dtype: str = "bf16", ld: int | None = None) -> MatrixArg:
    return MatrixArg(name, (rows, cols), (1, ld if ld is not None else rows), dtype)


def test_row_major_operands_give_an_nn_program_that_compiles() -> None:
    plan = plan_matmul(row("a", 256, 128), row("b", 128, 192), None, None, target="sm_90a")
    assert (plan.m, plan.n, plan.k, plan.out_dtype) == (256, 192, 128, "bf16")
    assert "memref<256x128xbf16, strided<[128, 1]>>" in plan.source
    assert "memref<128x192xbf16, strided<[192, 1]>>" in plan.source
    assert plan.kernel.endswith("_NN")
    [k] = compile_source(plan.source)
    assert k.name == plan.kernel and k.info.gemm is not None
    assert (k.info.gemm.m, k.info.gemm.n, k.info.gemm.k) == (256, 192, 128)


def test_transposed_views_are_read_as_column_major_with_their_leading_dimension() -> None:
    # a.T of a 128x320 row-major array: 320x128 with strides (1, 320)
    plan = plan_matmul(col("a", 320, 128, ld=320), col("b", 128, 64), row("out", 320, 64, "f32"), None, target="sm_90a")
    assert "strided<[1, 320]>" in plan.source and plan.kernel.endswith("_TT")
    assert compile_source(plan.source)


def test_f32_operands_are_multiplied_as_tf32_and_fp8_needs_k_major() -> None:
    plan = plan_matmul(row("a", 128, 64, "f32"), col("b", 64, 128, "f32"), None, None, target="sm_90a")
    assert "xtf32" in plan.source and plan.out_dtype == "f32"
    with pytest.raises(ArgumentError) as err:
        plan_matmul(row("a", 128, 64, "e4m3"), row("b", 64, 128, "e4m3"), None, None, target="sm_90a")
    assert err.value.argument == "b" and "column-major" in str(err.value)


@pytest.mark.parametrize(
    ("args", "argument", "words"),
    [
        ((row("a", 128, 64), row("b", 32, 128), None, None), "b", "its rows must be a's columns"),
        ((row("a", 128, 100), row("b", 100, 128), None, None), "a", "multiple of 16 bytes"),
        ((MatrixArg("a", (128, 64), (128, 2), "bf16"), row("b", 64, 128), None, None), "a", "one stride 1"),
        ((MatrixArg("a", (4, 128, 64), (1, 1, 1), "bf16"), row("b", 64, 128), None, None), "a", "3 dimensions"),
        ((row("a", 128, 64, "f64"), row("b", 64, 128), None, None), "a", "multiplies"),
        ((row("a", 128, 64), row("b", 64, 128, "f16"), None, None), "b", "cannot multiply bf16 by f16"),
        ((row("a", 128, 64), row("b", 64, 128), row("out", 128, 64, "f32"), None), "out", "D = a x b is 128x128"),
        ((row("a", 128, 64), row("b", 64, 128), row("out", 128, 128, "s32"), None), "out", "stored as"),
        ((row("a", 128, 64), row("b", 64, 128), col("out", 128, 128, "f32"), None), "out", "row-major"),
        ((row("a", 128, 64), row("b", 64, 128), row("out", 128, 128, "f32"), row("c", 128, 128, "bf16")), "c", "D's type"),
        ((row("a", 0, 64), row("b", 64, 128), None, None), "a", "at least one row"),
        ((row("a", 2**31, 1024), row("b", 1024, 128), None, None), "a", "32-bit registers"),
    ],
)
def test_each_bad_argument_is_refused_naming_it(args: tuple, argument: str, words: str) -> None:
    with pytest.raises(ArgumentError) as err:
        plan_matmul(*args, target="sm_90a")
    assert err.value.argument == argument and words in str(err.value)
    assert isinstance(err.value, LaunchError) and isinstance(err.value, ValueError)


def test_options_config_acc_and_target_are_checked_before_compiling() -> None:
    a, b = row("a", 128, 64), row("b", 64, 128)
    for kwargs, argument in (
        (dict(acc="f16"), "acc"),
        (dict(config=(128, 100, 64, 4)), "config"),
        (dict(config="big"), "config"),
        (dict(options={"sched": "pipelined"}), "options"),
        (dict(target="sm_80"), "target"),
        (dict(options={"persistent": True}, dynamic=True), "options"),
    ):
        kwargs.setdefault("target", "sm_90a")
        with pytest.raises(ArgumentError) as err:
            plan_matmul(a, b, None, None, **kwargs)
        assert err.value.argument == argument


def test_options_config_and_dynamic_sizes_reach_the_program() -> None:
    a, b = row("a", 1000, 512), col("b", 512, 768)
    plan = plan_matmul(a, b, None, row("c", 1000, 768), target="sm_90a", config={"bm": 128, "bn": 128, "bk": 64, "stages": 4},
                       options={"schedule": "pipelined", "raster": 0}, dynamic=True)
    assert "memref<?x?xbf16, strided<[?, 1]>>" in plan.source and "plus %C" in plan.source
    assert 'config #tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4> {schedule = "pipelined", raster = 0}' in plan.source
    [k] = compile_source(plan.source)
    assert k.info.gemm is not None and k.info.gemm.m is None  # sizes at launch


def test_a_size_one_dimension_reads_either_way() -> None:
    # an M x 1 column (K = 1 is no TMA row, but N = 1 is): b 64x1 contiguous, strides (1, 1)
    plan = plan_matmul(row("a", 128, 64), MatrixArg("b", (64, 1), (1, 1), "bf16"), None, None, target="sm_90a")
    assert compile_source(plan.source)
