"""Typed modifiers of the ptx ops: a wrong one fails when the op is built (`ptx.build`),
with a message naming the op and the modifier, and hand-written IR with a wrong one is a
located error through `lower-tc`."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerType, i32, i64

from lower_tc.dialects import ptx
from lower_tc.dialects.ptx.modifiers import declared

from conftest import EXAMPLES

LOWER_TC = Path(sys.executable).with_name("lower-tc")


@pytest.fixture
def reg():
    """An i32 register to hand to the ops built here."""
    return ptx.build(ptx.SregOp, [], [i32], sreg="tid.x").res[0]


def refused(cls, *args, **props) -> str:
    with pytest.raises(ptx.ModifierError) as err:
        ptx.build(cls, *args, **props)
    return str(err.value)


def test_unknown_modifier(reg) -> None:
    assert refused(ptx.MbarrierInitOp, [reg], offset=0, cuont=1) == (
        "ptx.mbarrier_init has no modifier 'cuont' (its modifiers: offset, count)"
    )
    assert refused(ptx.RetOp, foo=1) == "ptx.ret has no modifier 'foo' (it has none)"


def test_missing_modifier(reg) -> None:
    assert refused(ptx.MbarrierInitOp, [reg], offset=0) == "ptx.mbarrier_init needs the modifier 'count'"
    assert refused(ptx.SetpOp, [reg], [IntegerType(1)], type="u32", imm=0) == "ptx.setp needs the modifier 'cmp'"


def test_wrong_kind_of_value(reg) -> None:
    assert refused(ptx.MbarrierInitOp, [reg], offset=0, count="128") == (
        "ptx.mbarrier_init modifier 'count' must be an i64 integer, not \"128\""
    )
    assert refused(ptx.LdParamOp, [], [i32], type=32, param="p_A") == (
        "ptx.ld_param modifier 'type' must be one of \"b16\", \"b32\", \"b64\", \"b8\", \"bf16\", \"bf16x2\", "
        "\"f16\", \"f16x2\", \"f32\", \"f64\", \"pred\", \"s16\", \"s32\", \"s64\", \"s8\", \"u16\", \"u32\", "
        "\"u64\", \"u8\", not 32"
    )
    assert refused(ptx.LabelOp, label=7) == "ptx.label modifier 'label' must be a string, not 7"
    assert refused(ptx.MovImmOp, [], [i32], type="u32", value=1.5) == (
        "ptx.mov_imm modifier 'value' is an int or a str, not 1.5"
    )
    assert refused(ptx.MbarrierInitOp, [reg], offset=2**70, count=1) == (
        f"ptx.mbarrier_init modifier 'offset' must fit in an i64 integer, not {2**70}"
    )


def test_value_outside_a_closed_set(reg) -> None:
    assert refused(ptx.Tcgen05FenceOp, kind="after") == (
        "ptx.tcgen05_fence modifier 'kind' must be one of \"after_thread_sync\", \"before_thread_sync\", not \"after\""
    )
    assert refused(ptx.LdOp, [reg], [i32], space="smem", type="u32", vec=1, offset=0).startswith(
        "ptx.ld modifier 'space' must be one of \"const\", \"global\", "
    )
    assert refused(ptx.Tcgen05DeallocOp, [reg], columns=32, cta_group=3) == (
        "ptx.tcgen05_dealloc modifier 'cta_group' must be one of 1, 2, not 3"
    )
    assert refused(ptx.BraOp, [reg], label="L", negate=2) == "ptx.bra modifier 'negate' must be one of 0, 1, not 2"


def test_modifier_one_operand_form_needs(reg) -> None:
    """An immediate that takes the place of a register operand is needed without it."""
    assert refused(ptx.BarSyncOp, [reg]) == "ptx.bar_sync needs the modifier 'count'"
    ptx.build(ptx.BarSyncOp)  # bar.sync 0: no count
    assert refused(ptx.MbarrierTryWaitParityOp, [reg], [IntegerType(1)], offset=0) == (
        "ptx.mbarrier_try_wait_parity needs the modifier 'parity'"
    )
    ptx.build(ptx.MbarrierTryWaitParityOp, [reg, reg], [IntegerType(1)], offset=0)
    assert refused(ptx.CpAsyncBulkTensorOp, [reg, reg, reg], offset=0, mbar_offset=8) == (
        "ptx.cp_async_bulk_tensor needs the modifier 'c0'"
    )
    ptx.build(ptx.CpAsyncBulkTensorOp, [reg] * 5, offset=0, mbar_offset=8)
    assert refused(ptx.Tcgen05MmaOp, [reg] * 4, kind="f16") == "ptx.tcgen05_mma needs the modifier 'enable_input_d'"


def test_built_op_holds_typed_modifiers(reg) -> None:
    """Modifiers are properties with plain values through `prop`; a bool is stored as 0/1,
    None leaves a modifier out, and `comment` stays a discardable attribute."""
    op = ptx.build(ptx.BraOp, [reg], label="L", negate=True, comment="skip")
    assert op.prop("negate") == 1 and op.prop("label") == "L"
    assert set(op.properties) == {"label", "negate"} and "comment" in op.attributes
    assert ptx.build(ptx.BraOp, [reg], label="L", negate=None).has("negate") is False
    with pytest.raises(KeyError):
        ptx.build(ptx.AddOp, [reg, reg], [i32], type="u32").prop("imm")
    hex_imm = ptx.build(ptx.MovImmOp, [], [i64], type="b64", value="0x10")
    assert hex_imm.prop("value") == "0x10"
    assert ptx.build(ptx.MovImmOp, [], [i32], type="u32", value=16).prop("value") == 16
    assert ptx.build(ptx.CvtOp, [reg], [i32], type="rn.f16x2.f32").prop("type") == "rn.f16x2.f32"


@pytest.mark.parametrize("cls", [op for op in ptx.OPS if issubclass(op, ptx.PtxOp)], ids=lambda c: c.name)
def test_render_reads_only_declared_modifiers(cls) -> None:
    """Every modifier an op's PTX text reads is one it declares (else printing it would
    fail however it was built)."""
    source = inspect.getsource(cls.render)
    read = set(re.findall(r"(?:prop|has)\(\s*[\"'](\w+)[\"']", source))
    read |= {"cta_group"} if "cta_group(self)" in source else set()
    assert read <= set(declared(cls)), f"{cls.name} reads {sorted(read - set(declared(cls)))}"


def lower_tc(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LOWER_TC), *argv], input=stdin, capture_output=True, text=True, timeout=120)


KERNEL = """builtin.module attributes {{ptx.target = "sm_90a"}} {{
  "ptx.kernel"() <{{sym_name = "k", params = [], threads = #builtin.int<128>, smem_bytes = #builtin.int<0>}}> ({{
    %0 = "ptx.sreg"() <{{sreg = "tid.x"}}> : () -> i32
    {op}
  }}) : () -> ()
}}
"""


@pytest.mark.parametrize(
    ("op", "message"),
    [
        ('%1 = "ptx.setp"(%0) <{cmp = "gte", type = "u32", imm = 0 : i64}> : (i32) -> i1',
         "ptx.setp modifier 'cmp' must be one of"),
        ('"ptx.mbarrier_init"(%0) <{offset = 0 : i64, cuont = 1 : i64}> : (i32) -> ()',
         "ptx.mbarrier_init has no modifier 'cuont' (its modifiers: offset, count)"),
        ('"ptx.mbarrier_init"(%0) <{offset = 0 : i64}> : (i32) -> ()',
         "ptx.mbarrier_init needs the modifier 'count'"),
        ('"ptx.wgmma_wait_group"() <{pending = "1"}> : () -> ()',
         "ptx.wgmma_wait_group modifier 'pending' must be an i64 integer, not \"1\""),
    ],
)
def test_hand_written_ir_with_a_wrong_modifier_is_a_located_error(tmp_path: Path, op: str, message: str) -> None:
    src = tmp_path / "k.mlir"
    src.write_text(KERNEL.format(op=op))
    done = lower_tc(str(src), "-p", "")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"{src}:4:5: error: {message}"), done.stderr
    assert "Traceback" not in done.stderr


def test_lowered_ir_reads_back_to_the_same_ptx(tmp_path: Path) -> None:
    """The properties printed by -t mlir parse and verify again: printing the lowered IR
    and compiling it from there gives the same PTX (but for the `// from` locations)."""
    example = next(p for p in EXAMPLES if p.name == "gemm_bf16_loop.mlir")
    direct = lower_tc(str(example))
    ir = lower_tc(str(example), "-t", "mlir")
    assert direct.returncode == 0 and ir.returncode == 0, direct.stderr + ir.stderr
    again = lower_tc("-p", "", stdin=ir.stdout)
    assert again.returncode == 0, again.stderr

    def code(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.lstrip().startswith("// from ")]

    assert code(again.stdout) == code(direct.stdout)
