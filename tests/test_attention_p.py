"""Attention's P in registers (tc.acc_to_a, a tc.wgmma whose A is a !tc.afrag): the example
assembles with both MMAs on the tensor cores and without local memory, its reference rounds S
to bf16 before P V, and on a GPU the kernel matches float64 (docs/attention.md)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import disassemble, find_disassembler
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.reference import Round, reference, round_to

EXAMPLE = ROOT / "examples" / "attention_p_in_registers.mlir"
TILE = ROOT / "examples" / "attention_tile.mlir"
needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None or find_disassembler() is None,
                                 reason="ptxas or nvdisasm/cuobjdump not found (pip install 'lower-tc[test]')")


def _kernel(path: Path = EXAMPLE, assemble: bool = False):
    return compile_source(path.read_text(), path.name, assemble=assemble)[0]


@needs_ptxas
def test_both_mmas_run_on_the_tensor_cores_with_p_from_registers() -> None:
    """Eight HGMMA (four K-slices each), the second four reading A from registers (an R
    operand where the first read a descriptor), and no local memory."""
    sass = disassemble(_kernel(assemble=True).cubin)
    mmas = [ln for ln in sass.splitlines() if "HGMMA" in ln]
    assert len(mmas) == 8, mmas
    from_registers = [ln for ln in mmas if re.search(r"HGMMA\.\S+ R\d+, R\d+, gdesc", ln)]
    assert len(from_registers) == 4, mmas
    assert not re.search(r"\b(LDL|STL)\b", sass)


def test_the_reference_rounds_s_to_bf16_before_p_v() -> None:
    kernel = _kernel()
    steps = kernel.reference.steps
    assert [type(s).__name__ for s in steps].count("Round") == 1
    assert next(s for s in steps if isinstance(s, Round)).dtype == "bf16"
    rng = np.random.default_rng(3)
    q, k_t, v = (round_to(rng.standard_normal((64, 64)), "bf16") for _ in range(3))  # K^T: B is K x N
    out = reference(kernel.reference, {0: q, 1: k_t, 2: v, 3: np.zeros((64, 64))})
    np.testing.assert_array_equal(out.values[3], round_to(q @ k_t, "bf16") @ v)
    assert out.written[3].all()





@needs_ptxas
def test_one_tile_attention_reduces_rows_across_quads_and_keeps_both_mmas_on_the_tensor_cores() -> None:
    sass = disassemble(_kernel(TILE, assemble=True).cubin)
    mmas = [ln for ln in sass.splitlines() if "HGMMA" in ln]
    assert len(mmas) == 8 and sum(bool(re.search(r"HGMMA\.\S+ R\d+, R\d+, gdesc", ln)) for ln in mmas) == 4
    assert len(re.findall(r"SHFL\.BFLY", sass)) == 8  # max and sum, two rows, lanes 1 and 2
    assert "MUFU.EX2" in sass
    assert not re.search(r"\b(LDL|STL)\b", sass)


def test_one_tile_attentions_reference_is_float64_attention_with_p_in_bf16() -> None:
    """The runner's reference program of the example is softmax(Q K^T / 8) rounded to bf16,
    times V, and that passes the attention check (lowering/runtime/attention_check.py)."""
    from lower_tc.lowering.runtime.attention_check import check_attention
    from lower_tc.lowering.runtime.reference import softmax_rows

    kernel = _kernel(TILE)
    rng = np.random.default_rng(5)
    q, k_t, v = (round_to(rng.standard_normal((64, 64)), "bf16") for _ in range(3))
    o = reference(kernel.reference, {0: q, 1: k_t, 2: v, 3: np.zeros((64, 64))}).values[3]
    np.testing.assert_array_equal(o, round_to(softmax_rows(q @ k_t, 0.125), "bf16") @ v)
    bhsd = lambda x: x[None, None]  # noqa: E731
    result = check_attention(bhsd(q), bhsd(k_t.T), bhsd(v), bhsd(o), causal=False, scale=0.125, layout="bhsd", out_dtype="f32")
    assert result.ok, result.problems


@pytest.mark.gpu
@pytest.mark.parametrize("path", [EXAMPLE, TILE], ids=lambda p: p.stem)
def test_the_attention_examples_run_right_on_the_gpu(path, require_gpu) -> None:
    """P in registers and one-tile attention against float64, three seeds each."""
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu("sm_90a")
    kernel = _kernel(path, assemble=True)
    for seed in (1, 2, 3):
        result = run_kernel(kernel, seed)
        assert result.passed, result.summary()


def test_8_bit_rounding_clamps_as_satfinite_and_admits_one_place() -> None:
    """round_to e4m3 clamps to +-448 (cvt.rn.satfinite) instead of ml_dtypes' NaN, and the
    Round step's error scale admits one e4m3 place (2^-3 of the value) under e4m3's
    tolerance, where bf16's scale would not."""
    from lower_tc.lowering.runtime.checks import tolerance
    from lower_tc.lowering.runtime.reference import ROUND_SCALES

    assert list(round_to(np.array([1000.0, -1000.0, 1.0625]), "e4m3")) == [448.0, -448.0, 1.0]
    assert ROUND_SCALES["e4m3"] * tolerance("e4m3", "f32") >= 2.0**-3 > ROUND_SCALES["bf16"] * tolerance("e4m3", "f32")
    assert ROUND_SCALES["bf16"] * tolerance("bf16", "f32") >= 2.0**-8


@pytest.mark.parametrize(("example", "why"), [
    ("attention_p_in_registers.mlir",
     "accumulator_order is for 8-bit fragments (a bf16 one is its own registers' pairs in K order already)"),
    ("attention_p_in_registers_e4m3.mlir",
     "a fragment in accumulator_order multiplies a B whose keys are in that order: the destination of a "
     "tc.tile_transpose {accumulator_order}"),
])
def test_p_in_accumulator_order_is_refused_where_v_is_not_stored_so(example, why) -> None:
    """tc.acc_to_a {accumulator_order} (8-bit P as each thread's own bytes) is refused on a
    16-bit fragment, and on a P V whose B is an ordinary tile (its keys in natural order:
    the product would pair P and V of different keys)."""
    from xdsl.utils.exceptions import VerifyException

    text = (ROOT / "examples" / example).read_text()
    src = re.sub(r"(%\w+) = tc\.acc_to_a (%\w+)", r"\1 = tc.acc_to_a \2 {accumulator_order}", text, count=1)
    assert src != text
    with pytest.raises(VerifyException, match=re.escape(why)):
        compile_source(src, example)


def _transpose_kernel(src: str, dst: str, attrs: str = "") -> str:
    return (f'func.func @k() attributes {{tc.target = "sm_90a"}} {{\n'
            f"  %vs = tc.smem_tile {{stages = 2}} : !tc.tile<{src}, #tc.layout<mn, swizzle = auto>>\n"
            f"  %v = tc.smem_tile {{stages = 2}} : !tc.tile<{dst}, #tc.layout<k, swizzle = auto>>\n"
            f"  tc.tile_transpose %vs to %v{attrs} : !tc.tile<{src}, #tc.layout<mn, swizzle = auto>>, "
            f"!tc.tile<{dst}, #tc.layout<k, swizzle = auto>>\n  func.return\n}}\n")


@pytest.mark.parametrize(("text", "why"), [
    (_transpose_kernel("64x128xf8E4M3FN", "64x64xf8E4M3FN"), "tc.tile_transpose's tiles have one shape, not 64x128 and 64x64"),
    (_transpose_kernel("64x128xbf16", "64x128xbf16"), "the transposition moves 8-bit elements (fp8 wgmma's K-major B), not 16-bit ones"),
    (_transpose_kernel("64x192xf8E4M3FN", "64x192xf8E4M3FN"),
     "the transposition takes a tile whose K extent is 16 times a power of two, not 192"),
    (_transpose_kernel("64x128xf8E4M3FN", "64x128xf8E4M3FN", " {accumulator_ordr}"),
     "tc.tile_transpose takes {accumulator_order}, not accumulator_ordr"),
])
def test_tile_transpose_refuses_what_no_plan_moves(text, why) -> None:
    """tc.tile_transpose's verifier: tiles of two shapes, 16-bit tiles, an extent no plan
    takes (not 16 times a power of two), a misspelt option (the attr-dict would keep it)."""
    from xdsl.utils.exceptions import VerifyException

    with pytest.raises(VerifyException, match=re.escape(why)):
        compile_source(text, "k.mlir")


def test_acc_to_a_refuses_a_misspelt_option() -> None:
    from xdsl.utils.exceptions import VerifyException

    text = (ROOT / "examples" / "attention_p_in_registers_e4m3.mlir").read_text()
    src = re.sub(r"(%\w+) = tc\.acc_to_a (%\w+)", r"\1 = tc.acc_to_a \2 {accumulator_ordr}", text, count=1)
    with pytest.raises(VerifyException, match=re.escape("tc.acc_to_a takes {accumulator_order}, not accumulator_ordr")):
        compile_source(src, "p.mlir")
