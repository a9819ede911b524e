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


def test_a_column_major_out_is_one_matrix_of_static_sizes() -> None:
    """out (and c) column-major: the transpose of an N x M tensor, compiled with D^T's
    stores (the kernel's name says _dT); with dynamic=True it is refused naming out."""
    plan = plan_matmul(row("a", 200, 112), row("b", 112, 136), col("out", 200, 136, "f32", ld=208),
                       col("c", 200, 136, "f32"), target="sm_90a", options={"swap_ab": False})
    assert "memref<200x136xf32, strided<[1, 208]>>" in plan.source and plan.kernel.endswith("_NN_dT")
    (info,) = [c.info for c in compile_source(plan.source)]
    assert info.gemm is not None and not info.gemm.d_transposed and info.args[info.gemm.d].strides == (1, 208)
    with pytest.raises(ArgumentError) as err:
        plan_matmul(row("a", 200, 112), row("b", 112, 136), col("out", 200, 136, "f32", ld=208), None,
                    target="sm_90a", dynamic=True)
    assert err.value.argument == "out" and "dynamic=False" in str(err.value)


def test_a_decoding_gemm_is_swapped_unless_told_not_to() -> None:
    """M = 8 x N = 4096: the chooser's kernel computes D^T = B^T A^T (the metadata's
    d_transposed, B's argument as A); swap_ab=False keeps it."""
    a, b, out = row("a", 8, 512), col("b", 512, 4096), row("out", 8, 4096)
    info = compile_source(plan_matmul(a, b, out, None, target="sm_90a").source)[0].info
    swapped = info.gemm
    assert swapped is not None and swapped.d_transposed and (swapped.a, swapped.b) == (1, 0)
    # D is written through its view: the launcher poisons and checks it, and only it
    assert [x.output for x in info.args] == [False, False, True]
    assert (swapped.m, swapped.n, swapped.config.bm, swapped.config.bn) == (4096, 8, 64, 8)
    kept = compile_source(plan_matmul(a, b, out, None, target="sm_90a", options={"swap_ab": False}).source)[0].info.gemm
    assert kept is not None and not kept.d_transposed and (kept.m, kept.n) == (8, 4096)


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
        ((MatrixArg("a", (2, 4, 128, 64), (1, 1, 1, 1), "bf16"), row("b", 64, 128), None, None), "a", "4 dimensions"),
        ((row("a", 128, 64, "f64"), row("b", 64, 128), None, None), "a", "multiplies"),
        ((row("a", 128, 64), row("b", 64, 128, "f16"), None, None), "b", "cannot multiply bf16 by f16"),
        ((row("a", 128, 64), row("b", 64, 128), row("out", 128, 64, "f32"), None), "out", "D = a x b is 128x128"),
        ((row("a", 128, 64), row("b", 64, 128), row("out", 128, 128, "s32"), None), "out", "stored as"),
        ((MatrixArg("a", (4, 128, 64), (8192, 64, 1), "bf16"), row("b", 64, 128),
          MatrixArg("out", (4, 128, 128), (16384, 1, 128), "f32"), None), "out", "a column-major D or C is one matrix"),
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


@pytest.mark.parametrize(("options", "words"), [
    ({"split_k": 40}, "split_k=40: split_k is 1 to 32"),
    ({"split_k": 12}, "split_k = 12 with reduce = cluster"),
    ({"split_k": "4"}, "split_k is an integer"),
    ({"reduce": "tree"}, "reduce is one of cluster, global, not 'tree'"),
    ({"persistent": 1}, "persistent is true or false"),
    ({"raster": True}, "raster is an integer"),
    ({"unsplit": -1}, "unsplit is a count of tiles, 0 to"),
    ({"schedule": "fast"}, "schedule is one of pipelined, warp_specialized"),
    ({"stream_k": True}, "stream_k is an integer (groups of CTAs sharing tiles' K steps)"),
    ({"stream_k": 17}, "stream_k=17: stream_k is 0 (off) or the groups of CTAs, 1 to 16"),
])
def test_an_option_of_the_wrong_type_or_range_names_options(options: dict, words: str) -> None:
    """Each option's type and range, from the options' table, before any program is
    written (not a compile error at the op the program would hold)."""
    with pytest.raises(ArgumentError) as err:
        plan_matmul(row("a", 128, 64), row("b", 64, 128), None, None, target="sm_90a", options=options)
    assert err.value.argument == "options" and words in str(err.value), str(err.value)
    ok = plan_matmul(row("a", 128, 64), row("b", 64, 128), None, None, target="sm_90a",
                     options={"split_k": 12, "reduce": "global", "unsplit": 0, "persistent": False})
    assert 'split_k = 12, reduce = "global", unsplit = 0' in ok.source


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


# -- batches ---------------------------------------------------------------------------------------


def brow(name: str, batch: int, rows: int, cols: int, dtype: str = "bf16", ld: int | None = None,
         stride: int | None = None) -> MatrixArg:
    ld = ld if ld is not None else cols
    return MatrixArg(name, (batch, rows, cols), (rows * ld if stride is None else stride, ld, 1), dtype)


def bcol(name: str, batch: int, rows: int, cols: int, dtype: str = "bf16", ld: int | None = None,
         stride: int | None = None) -> MatrixArg:
    ld = ld if ld is not None else rows
    return MatrixArg(name, (batch, rows, cols), (cols * ld if stride is None else stride, 1, ld), dtype)


def test_batched_operands_are_3d_memrefs_with_their_batch_strides() -> None:
    plan = plan_matmul(brow("a", 6, 256, 128), brow("b", 6, 128, 192, stride=128 * 192 + 64), None, None, target="sm_90a")
    assert (plan.m, plan.n, plan.k, plan.batch, plan.out_shape) == (256, 192, 128, 6, (6, 256, 192))
    assert "%A: memref<6x256x128xbf16, strided<[32768, 128, 1]>>" in plan.source
    assert "%B: memref<6x128x192xbf16, strided<[24640, 192, 1]>>" in plan.source
    assert "%D: memref<6x256x192xbf16, strided<[49152, 192, 1]>>" in plan.source  # allocated dense
    assert plan.kernel == "lower_tc_matmul_bf16_bf16_f32_bf16_NN_batched"


def test_inputs_may_overlap_from_batch_to_batch() -> None:
    """A sliding window over one buffer: A's matrices 64 elements apart (tc.matmul only
    keeps D's matrices apart)."""
    plan = plan_matmul(brow("a", 4, 128, 64, stride=64), row("b", 64, 128), None, None, target="sm_90a")
    assert "%A: memref<4x128x64xbf16, strided<[64, 64, 1]>>" in plan.source


def test_a_transposed_view_per_batch_is_column_major() -> None:
    """b.transpose(-1, -2) of a contiguous (B, N, K) weight: (B, K, N), strides (N K, 1, K)."""
    plan = plan_matmul(brow("a", 4, 200, 112), bcol("b", 4, 112, 136), brow("out", 4, 200, 136, "f32"), None, target="sm_90a")
    assert "%B: memref<4x112x136xbf16, strided<[15232, 1, 112]>>" in plan.source and plan.kernel.endswith("_NT_batched")
    assert "%D: memref<4x200x136xf32, strided<[27200, 136, 1]>>" in plan.source


@pytest.mark.parametrize("b", [row("b", 128, 192), brow("b", 1, 128, 192, stride=7), brow("b", 6, 128, 192, stride=0)],
                         ids=["2d", "batch1", "expanded"])
def test_one_b_for_every_batch_is_a_2d_memref(b: MatrixArg) -> None:
    plan = plan_matmul(brow("a", 6, 256, 128), b, None, None, target="sm_90a")
    assert "%B: memref<128x192xbf16, strided<[192, 1]>>" in plan.source
    assert "%A: memref<6x256x128xbf16" in plan.source and "%D: memref<6x256x192xbf16" in plan.source
    assert plan.out_shape == (6, 256, 192)


def test_a_2d_a_times_a_batch_of_b_and_a_batch_of_one() -> None:
    plan = plan_matmul(row("a", 256, 128), bcol("b", 3, 128, 64), None, None, target="sm_90a")
    assert "%A: memref<256x128xbf16, strided<[128, 1]>>" in plan.source and "%B: memref<3x128x64xbf16" in plan.source
    one = plan_matmul(brow("a", 1, 256, 128), brow("b", 1, 128, 64), None, None, target="sm_90a")
    assert one.out_shape == (1, 256, 64) and one.batch == 1  # one GEMM of 2-d matrices
    assert "memref<1x" not in one.source and not one.kernel.endswith("_batched") and "memref<256x128xbf16" in one.source


def test_dynamic_batches_are_question_marks_and_c_is_a_batch() -> None:
    plan = plan_matmul(brow("a", 6, 1000, 512), row("b", 512, 768), None, brow("c", 6, 1000, 768), target="sm_90a",
                       dynamic=True)
    assert "%A: memref<?x?x?xbf16, strided<[?, ?, 1]>>" in plan.source
    assert "%B: memref<?x?xbf16, strided<[?, 1]>>" in plan.source
    assert "%D: memref<?x?x?xbf16, strided<[?, ?, 1]>>" in plan.source and "%C: memref<?x?x?xbf16, strided<[?, ?, 1]>>" in plan.source
    col_b = plan_matmul(brow("a", 6, 1000, 512), bcol("b", 6, 512, 768), None, None, target="sm_90a", dynamic=True)
    assert "%B: memref<?x?x?xbf16, strided<[?, 1, ?]>>" in col_b.source


@pytest.mark.parametrize(
    ("args", "argument", "words"),
    [
        ((brow("a", 4, 128, 64), brow("b", 3, 64, 128), None, None), "b", "b is a batch of 3 and a of 4"),
        ((brow("a", 3, 128, 64), brow("b", 4, 64, 128), None, None), "b", "b is a batch of 4 and a of 3"),
        ((brow("a", 4, 128, 64, stride=0), brow("b", 4, 64, 128, stride=0), None, None), "b", "multiply a[0] and b[0] once"),
        ((brow("a", 4, 128, 64), row("b", 64, 128), row("out", 128, 128, "bf16"), None), "out", "out is 128x128: D = a x b is 4x128x128"),
        ((brow("a", 4, 128, 64), row("b", 64, 128), brow("out", 3, 128, 128, "bf16"), None), "out", "D = a x b is 4x128x128"),
        ((row("a", 128, 64), row("b", 64, 128), brow("out", 1, 128, 128, "bf16"), None), "out", "out is 1x128x128: D = a x b is 128x128"),
        ((brow("a", 4, 128, 64), row("b", 64, 128), brow("out", 4, 128, 128, "bf16", stride=128 * 100), None), "out",
         "out's batch stride is 12800 elements, below one matrix's extent (128 rows x ld 128 = 16384)"),
        ((brow("a", 4, 128, 64), row("b", 64, 128), brow("out", 4, 128, 128, "bf16", stride=0), None), "out", "out's batch stride is 0"),
        ((brow("a", 4, 128, 64), row("b", 64, 128), None, row("c", 128, 128)), "c", "c is 128x128: it is added to D = a x b, 4x128x128"),
        ((brow("a", 4, 128, 64), row("b", 64, 128), None, brow("c", 4, 128, 128, stride=0)), "c", "c's batch stride is 0"),
        ((brow("a", 4, 128, 64, stride=128 * 64 + 4), row("b", 64, 128), None, None), "a", "(16392 bytes): TMA needs a multiple of 16"),
        ((brow("a", 4, 128, 64, stride=-64), row("b", 64, 128), None, None), "a", "a's batch stride is -64"),
        ((brow("a", 0, 128, 64), row("b", 64, 128), None, None), "a", "a batch of at least one matrix"),
        ((bcol("a", 4, 128, 64, "e4m3"), bcol("b", 4, 64, 128, "e4m3"), None, None), "a", "give a row-major"),
    ],
)
def test_each_bad_batched_argument_is_refused_naming_it(args: tuple, argument: str, words: str) -> None:
    with pytest.raises(ArgumentError) as err:
        plan_matmul(*args, target="sm_90a")
    assert err.value.argument == argument and words in str(err.value), str(err.value)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(("b", "b_rank"), [(bcol("b", 6, 128, 192), 3), (row("b", 128, 192), 2), (brow("b", 1, 128, 192), 2)],
                         ids=["batch", "2d", "batch1"])
def test_batched_programs_compile_to_a_batched_contract(b: MatrixArg, b_rank: int, dynamic: bool) -> None:
    plan = plan_matmul(brow("a", 6, 256, 128, stride=256 * 128 + 64), b, brow("out", 6, 256, 192, "f32", stride=256 * 200),
                       None, target="sm_90a", dynamic=dynamic)
    [k] = compile_source(plan.source)
    gemm = k.info.gemm
    assert gemm.batched and gemm.batch == (None if dynamic else 6)
    assert [len(a.shape) for a in k.info.args] == [3, b_rank, 3]  # B one matrix for every batch: 2-d
    if not dynamic:
        assert k.info.args[2].strides == (256 * 200, 192, 1) and k.info.args[0].strides == (256 * 128 + 64, 128, 1)
