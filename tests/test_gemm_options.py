"""The declared GEMM options (dialects/tc_schedule.py): the table and the dataclasses that
carry it agree, tc.matmul's options and #tc.gemm_schedule print back as they parse, the
reader `kernel_schedule` gives what tc-expand-matmul wrote, and `stages` is a property.
The located errors are FileCheck's (filecheck/gemm/matmul-options.mlir,
kernel-attribute-diagnostics.mlir, filecheck/diagnostics/tiles.mlir)."""

from __future__ import annotations

from dataclasses import fields
from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

import lower_tc
from lower_tc.dialects import tc
from lower_tc.dialects.tc_schedule import GEMM_OPTIONS, KERNEL_OPTIONS, GemmSchedule, GemmScheduleAttr, MatmulOptions
from lower_tc.passes.expand_matmul import ExpandMatmulPass

TYPES = "memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xbf16>"


def context() -> Context:
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    lower_tc.register_dialects(ctx)
    return ctx


def parse(text: str) -> tuple[Context, ModuleOp]:
    ctx = context()
    module = Parser(ctx, text).parse_module()
    module.verify()
    return ctx, module


def printed(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def matmul_kernel(options: str, target: str = "sm_90a") -> str:
    return (
        f'func.func @g(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %D: memref<512x512xbf16>) '
        f'attributes {{tc.target = "{target}"}} {{\n'
        f"  tc.matmul %A, %B to %D {options} : {TYPES}\n  func.return\n}}\n"
    )


def test_the_table_and_the_dataclasses_agree() -> None:
    """MatmulOptions has every option; GemmSchedule the kernel's, with the table's defaults."""
    assert [f.name for f in fields(MatmulOptions)] == [o.name for o in GEMM_OPTIONS]
    kernel = {f.name: f.default for f in fields(GemmSchedule)}
    assert list(kernel) == ["schedule", *(o.name for o in KERNEL_OPTIONS)]
    for option in GEMM_OPTIONS:
        if option.on_kernel:
            assert kernel[option.name] == option.default, option.name
    assert "raster" not in kernel  # the grid and the index arithmetic carry it


def test_matmul_options_are_properties_and_print_back() -> None:
    text = matmul_kernel('{my.note = "kept", raster = 4, schedule = "warp_specialized", persistent = false, '
                         'mma_depth = 2, epilogue = "registers", l2_promotion = 256, cluster = 2}')
    _, module = parse(text)
    mm = next(op for op in module.walk() if isinstance(op, tc.MatmulOp))
    assert mm.options == MatmulOptions("warp_specialized", 4, False, 2, 2, "registers", 256)
    assert set(mm.attributes) == {"my.note"}  # the other dialect's attribute stays discardable
    first = printed(module)
    assert '{schedule = "warp_specialized", raster = 4, persistent = false, mma_depth = 2, cluster = 2, ' in first
    _, again = parse(first)
    assert printed(again) == first


def test_an_option_set_as_a_discardable_attribute_is_refused() -> None:
    """An op built in Python with `schedule` among its attributes (not its property)."""
    _, module = parse(matmul_kernel(""))
    mm = next(op for op in module.walk() if isinstance(op, tc.MatmulOp))
    mm.attributes["schedule"] = StringAttr("pipelined")
    with pytest.raises(VerifyException, match="'schedule' is not an attribute of tc.matmul"):
        mm.verify()


def test_a_split_k_out_of_its_reductions_range_built_in_python_is_refused() -> None:
    """split_k = 12 is in the option's range (1 to 32) but not the cluster's (1 to 8): the
    parser refuses it at the entry, the verifier on an op built in Python."""
    _, module = parse(matmul_kernel("{split_k = 4}"))
    mm = next(op for op in module.walk() if isinstance(op, tc.MatmulOp))
    mm.properties["split_k"] = IntegerAttr(12, 64)
    with pytest.raises(VerifyException, match="split_k = 12 with reduce = cluster: a portable cluster has 1 to 8 CTAs"):
        mm.verify()
    mm.properties["reduce"] = StringAttr("global")
    mm.verify()


@pytest.mark.parametrize(("written", "shown", "value"), [
    ("<pipelined>", "<pipelined>", GemmSchedule()),
    ("<warp_specialized, l2_promotion = 256, cluster = 2, epilogue = tma, mma_depth = 2, persistent>",
     "<warp_specialized, persistent, mma_depth = 2, cluster = 2, epilogue = tma, l2_promotion = 256>",
     GemmSchedule("warp_specialized", True, 2, 2, "tma", 256)),
    ("<warp_specialized, mma_depth = 1, cluster = 1>", "<warp_specialized>", GemmSchedule("warp_specialized")),
])
def test_gemm_schedule_round_trip_leaves_defaults_out(written: str, shown: str, value: GemmSchedule) -> None:
    text = f'func.func @k() attributes {{tc.target = "sm_90a", tc.schedule = #tc.gemm_schedule{written}}} {{\n  func.return\n}}\n'
    _, module = parse(text)
    kernel = tc.tc_kernels(module)[0]
    assert tc.kernel_schedule(kernel) == value
    assert f"#tc.gemm_schedule{shown}" in printed(module)
    assert GemmScheduleAttr.from_schedule(value).value == value


def test_a_gemm_schedule_built_in_python_is_verified() -> None:
    with pytest.raises(VerifyException, match="mma_depth is for the warp-specialised schedule"):
        GemmScheduleAttr.from_schedule(GemmSchedule("pipelined", mma_depth=2))
    with pytest.raises(VerifyException, match="l2_promotion is 0, 64, 128 or 256"):
        GemmScheduleAttr.from_schedule(GemmSchedule("warp_specialized", l2_promotion=100))


def test_kernel_schedule_reads_what_expand_matmul_wrote() -> None:
    options = '{cluster = 2, mma_depth = 2, l2_promotion = 128, epilogue = "registers", persistent = false}'
    ctx, module = parse(matmul_kernel(options))
    ExpandMatmulPass().apply(ctx, module)
    kernel = tc.tc_kernels(module)[0]
    assert tc.kernel_schedule(kernel) == GemmSchedule("warp_specialized", False, 2, 2, "registers", 128)
    assert set(a for a in kernel.attributes if a.startswith("tc.")) == {"tc.target", "tc.grid", "tc.schedule"}
    tiles = [op for op in module.walk() if isinstance(op, tc.SmemTileOp)]
    assert [t.ring_stages for t in tiles] == [t.stages.value.data for t in tiles]
    assert all(t.ring_stages >= 2 for t in tiles) and "stages" not in tiles[0].attributes


def test_kernel_schedule_defaults_and_refusals() -> None:
    _, module = parse('func.func @k() attributes {tc.target = "sm_100a"} {\n  func.return\n}\n')
    kernel = tc.tc_kernels(module)[0]
    assert tc.kernel_schedule(kernel) == GemmSchedule()
    kernel.attributes["tc.schedule"] = GemmScheduleAttr.from_schedule(GemmSchedule("warp_specialized", mma_depth=2))
    with pytest.raises(VerifyException, match="mma_depth counts wgmma groups"):
        tc.kernel_schedule(kernel)
    kernel.attributes["tc.schedule"] = StringAttr("pipelined")
    with pytest.raises(VerifyException, match="tc.schedule is a #tc.gemm_schedule"):
        tc.kernel_schedule(kernel)


def test_a_tile_without_stages_is_one_buffer() -> None:
    _, module = parse('func.func @k() attributes {tc.target = "sm_90a"} {\n'
                      '  %a = tc.smem_tile : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>\n'
                      '  %b = tc.smem_tile {stages = 3} : !tc.tile<64x64xbf16, #tc.layout<k, swizzle = auto>>\n'
                      '  func.return\n}\n')
    a, b = [op for op in module.walk() if isinstance(op, tc.SmemTileOp)]
    assert (a.stages, a.ring_stages, b.ring_stages) == (None, 1, 3)
    assert "%b = tc.smem_tile {stages = 3 : i64} : " in printed(module)
