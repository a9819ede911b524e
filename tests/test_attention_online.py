"""Attention's online softmax on wgmma accumulators (!tc.rows and the ops of
dialects/tc_rows_ops.py): the ops' rules, the PTX of examples/attention_online.mlir (every
MMA on the tensor cores, the rows reduced across quads, no local memory), and its reference
program, which must be float64 attention over all the keys with P in bf16 (and stops being
it where a step is left out). The example runs on the H100 with the other examples
(bench/device_run.sh); docs/attention.md, "The online softmax"."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import lower_tc
from conftest import ROOT
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.backend.sass import disassemble, find_disassembler
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.attention_check import check_attention
from lower_tc.lowering.runtime.reference import LOG2E, Exp, RowMax, reference, round_to

EXAMPLE = ROOT / "examples" / "attention_online.mlir"
needs_tools = pytest.mark.skipif(find_tool("ptxas") is None or find_disassembler() is None,
                                 reason="ptxas or nvdisasm/cuobjdump not found (pip install 'lower-tc[test]')")
BLOCKS = 4


def _kernel(text: str | None = None, assemble: bool = False):
    return compile_source(text if text is not None else EXAMPLE.read_text(), EXAMPLE.name, assemble=assemble)[0]


def _inputs(seed: int, big: float = 1.0) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    q = round_to(big * rng.standard_normal((64, 64)), "bf16")
    ks = [round_to(rng.standard_normal((64, 64)), "bf16") for _ in range(BLOCKS)]  # keys x head dim
    vs = [round_to(rng.standard_normal((64, 64)), "bf16") for _ in range(BLOCKS)]
    return q, ks, vs


def _run_reference(kernel, q: np.ndarray, ks: list[np.ndarray], vs: list[np.ndarray]) -> np.ndarray:
    """O of the example's reference program on these inputs (K_j's argument holds K_j^T: its
    memref is the K-contiguous view, head dim x keys)."""
    return _run_both(kernel, q, ks, vs)[0]


def _run_both(kernel, q: np.ndarray, ks: list[np.ndarray], vs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(O, the log-sum-exp as (1, 1, 64)) of the example's reference program."""
    args = {0: q, **{1 + j: ks[j].T for j in range(BLOCKS)}, **{1 + BLOCKS + j: vs[j] for j in range(BLOCKS)}}
    o_arg = 1 + 2 * BLOCKS
    args[o_arg], args[o_arg + 1] = np.zeros((64, 64)), np.zeros((64, 1))
    out = reference(kernel.reference, args)
    return out.values[o_arg], out.values[o_arg + 1].reshape(1, 1, 64)


@pytest.mark.parametrize("big", [1.0, 8.0])  # 8: scores of +-64, exp would overflow without the running maximum
def test_the_reference_is_attention_over_every_key_with_p_in_bf16(big: float) -> None:
    """Block by block with the running maximum and sum, the program computes softmax(Q K^T
    / 8) V over the 256 keys: the attention check (float64, P's bf16 rounding in the
    tolerance) passes on it."""
    q, ks, vs = _inputs(7, big)
    o, lse = _run_both(_kernel(), q, ks, vs)
    assert np.isfinite(o).all() and np.isfinite(lse).all()
    k, v = np.concatenate(ks), np.concatenate(vs)
    bhsd = lambda x: x[None, None]  # noqa: E731
    result = check_attention(bhsd(q), bhsd(k), bhsd(v), bhsd(o), causal=False, scale=0.125, layout="bhsd", out_dtype="f32", lse=lse)
    assert result.ok, result.problems
    wrong = lse.copy()
    wrong[0, 0, 5] += 0.01  # the check sees the log-sum-exp
    assert not check_attention(bhsd(q), bhsd(k), bhsd(v), bhsd(o), causal=False, scale=0.125, layout="bhsd", out_dtype="f32",
                               lse=wrong).ok


@pytest.mark.parametrize("mutation", ["no rescale", "no carried sum", "stale maximum"])
def test_leaving_a_step_out_is_not_attention(mutation: str) -> None:
    """What the check would catch in a kernel: O not carried to the new maximum, the sum
    not carried, the exponentials taken against the old maximum."""
    text = EXAMPLE.read_text()
    if mutation == "no rescale":
        text = re.sub(r"%c(\d) = tc\.acc_rescale %o\1, %m\d, %m\d : ", r"%c\1 = tc.acc_row_div %o\1, %l0 : ", text)
    elif mutation == "no carried sum":
        text = re.sub(r"%l(\d) = tc\.acc_row_sum %p(\d), %l(\d), %m(\d), %m(\d)", r"%l\1 = tc.acc_row_sum %p\2, %l\3, %m\5, %m\5", text)
    else:
        text = text.replace("%p1 = tc.acc_exp %s1, %m2", "%p1 = tc.acc_exp %s1, %m1")
    kernel = _kernel(text)
    q, ks, vs = _inputs(9, 4.0)
    o = _run_reference(kernel, q, ks, vs)
    bhsd = lambda x: x[None, None]  # noqa: E731
    result = check_attention(bhsd(q), bhsd(np.concatenate(ks)), bhsd(np.concatenate(vs)), bhsd(o), causal=False, scale=0.125,
                             layout="bhsd", out_dtype="f32")
    assert not result.ok


def test_the_steps_follow_the_ops() -> None:
    steps = _kernel().reference.steps
    names = [type(s).__name__ for s in steps]
    assert names.count("RowsFill") == 2 and names.count("RowMax") == BLOCKS and names.count("Exp") == BLOCKS
    assert names.count("RowSum") == BLOCKS and names.count("Rescale") == BLOCKS and names.count("RowDiv") == 1
    assert names.count("Round") == BLOCKS and names.count("Mma") == 2 * BLOCKS
    assert names.count("Lse") == 1 and names.count("Store") == 2
    assert {s.scale for s in steps if isinstance(s, RowMax | Exp)} == {0.125}


def test_a_row_of_masked_scores_gives_zero_not_nan() -> None:
    """A row whose scores are all -inf (every key masked) keeps m = -inf: its p are 0 (not
    exp2(-inf + inf)), l stays 0 and O / l is 0, as docs/attention.md defines that row."""
    from lower_tc.lowering.runtime.reference import ReferenceProgram, RowDiv, RowSum, RowsFill, Rescale, online_step

    s = np.full((64, 8), 1.0)
    s[5] = -np.inf
    env = {0: (s, np.abs(np.where(np.isinf(s), 0, s))), 9: (np.ones((64, 8)), np.ones((64, 8)))}
    for step in (RowsFill(1, -math.inf, 64), RowsFill(2, 0.0, 64), RowMax(3, 0, 1, 0.5), Exp(4, 0, 3, 0.5),
                 RowSum(5, 4, 2, 1, 3), Rescale(6, 9, 1, 3), RowDiv(7, 6, 5)):
        env[step.value] = online_step(step, env)
    assert np.isneginf(env[3][0][5]) and (env[4][0][5] == 0).all() and env[5][0][5] == 0
    assert (env[7][0][5] == 0).all() and np.isfinite(env[7][0]).all() and np.isfinite(env[7][1]).all()
    assert env[4][0][0, 0] == pytest.approx(1.0) and env[3][0][0] == pytest.approx(0.5 * LOG2E)
    assert ReferenceProgram(()).steps == ()


@needs_tools
def test_every_mma_runs_on_the_tensor_cores_and_nothing_spills() -> None:
    """Eight HGMMA groups (S and P V for four blocks; four K-slices each), the P V ones
    reading A from registers; each block's max and sum reduced across the quad (two rows,
    lanes 1 and 2: 8 SHFL.BFLY a block); MUFU.EX2 for the exponentials; no local memory."""
    kernel = _kernel(assemble=True)
    sass = disassemble(kernel.cubin)
    mmas = [ln for ln in sass.splitlines() if "HGMMA" in ln]
    assert len(mmas) == 8 * BLOCKS, len(mmas)
    assert sum(bool(re.search(r"HGMMA\.\S+ R\d+, R\d+, gdesc", ln)) for ln in mmas) == 4 * BLOCKS
    assert len(re.findall(r"SHFL\.BFLY", sass)) == 8 * BLOCKS
    assert "MUFU.EX2" in sass and "MUFU.RCP" in sass
    assert not re.search(r"\b(LDL|STL)\b", sass)


@pytest.mark.parametrize(("line", "why"), [
    ("%m = tc.rows_fill 0.0 : !tc.rows<32xf32>", "one value per row of a wgmma accumulator: 64 rows, or 128, 192, 256 in an attention loop (64 a warpgroup), not 32"),
    ("%m = tc.rows_fill 0.0 : !tc.rows<64xf16>", "!tc.rows holds f32, not f16"),
    ("%z = tc.acc_zero : !tc.acc<64x64xf16>\n  %m = tc.rows_fill -inf : !tc.rows<64xf32>\n"
     "  %m1 = tc.acc_row_max %z, %m scale 0.125 : !tc.acc<64x64xf16>, !tc.rows<64xf32>",
     "tc.acc_row_max works on a wgmma accumulator of 64 rows in f32, not 64x64xf16"),
    ("%z = tc.acc_zero : !tc.acc<64x64xf32>\n  %m = tc.rows_fill -inf : !tc.rows<64xf32>\n"
     "  %p = tc.acc_exp %z, %m scale 0.0 : !tc.acc<64x64xf32>, !tc.rows<64xf32>",
     "the softmax scale is a finite number above 0, not 0.0"),
])
def test_the_ops_refuse_what_they_cannot_hold(line: str, why: str) -> None:
    text = (f'func.func @f(%O: memref<64x64xf32>) attributes {{tc.target = "sm_90a"}} {{\n  {line}\n  func.return\n}}\n')
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(lower_tc.parse(text, "f.mlir"), lower_tc.default_pipeline())
    assert why in str(err.value) and re.match(r"f\.mlir:\d+:\d+: error: ", str(err.value)), str(err.value)


# -- masks (tc.acc_mask) -------------------------------------------------------------------

CAUSAL = ROOT / "examples" / "attention_causal.mlir"


def causal_variant(keys: int, causal: int | None) -> str:
    """examples/attention_causal.mlir with another key count and causal offset."""
    text = CAUSAL.read_text()
    new = f"keys = {keys}" + (f", causal = {causal}" if causal is not None else "")
    return text.replace("keys = 250, causal = 186", new)


@pytest.mark.parametrize(("keys", "causal"), [(250, 186), (256, 192), (256, None), (250, None), (44, -20), (1, None), (130, 66)],
                         ids=["ragged-causal", "causal", "full", "ragged", "rows-that-see-nothing", "one-key", "two-blocks"])
def test_the_masked_reference_is_causal_attention_over_the_keys(keys: int, causal: int | None) -> None:
    """The key count and the offset as FlashAttention aligns them (the last query sees the
    last key: offset = keys - 64): the program's float64 reference passes the attention
    check against the first `keys` keys, causal where an offset is given. With 44 keys and
    offset -20, queries 0 to 19 see none: their O is 0 and nothing is NaN."""
    kernel = _kernel(causal_variant(keys, causal))
    q, ks, vs = _inputs(11, 4.0)
    o, lse = _run_both(kernel, q, ks, vs)
    assert np.isfinite(o).all()
    k, v = np.concatenate(ks)[:keys], np.concatenate(vs)[:keys]
    if causal is not None:
        assert causal == keys - 64
    bhsd = lambda x: x[None, None]  # noqa: E731
    result = check_attention(bhsd(q), bhsd(k), bhsd(v), bhsd(o), causal=causal is not None, scale=0.125, layout="bhsd",
                             out_dtype="f32", lse=lse)
    assert result.ok, result.problems
    if keys == 44:
        assert (o[:20] == 0).all() and (np.abs(o[20:]).sum(axis=1) > 0).all()
        assert np.isneginf(lse[0, 0, :20]).all() and np.isfinite(lse[0, 0, 20:]).all()


def test_a_mask_that_hides_nothing_or_everything_emits_no_comparison() -> None:
    """In examples/attention_causal.mlir every query sees the first two blocks whole (no
    comparison), a few rows of the third are cut by the causal bound, and the last block is
    compared element by element; a block wholly past the keys' count is -inf without one."""
    ptx = _kernel(CAUSAL.read_text()).ptx
    blocks = ptx.split("// mask: ")[1:]
    compares = [len(re.findall(r"setp\.(gt|ge)\.s32", b.split("exp2 of each score")[0])) for b in blocks]
    assert compares[0] == compares[1] == 0 and 0 < compares[2] < compares[3], compares
    past = _kernel(causal_variant(100, None)).ptx.split("// mask: ")[1:]  # keys 100: blocks 2 and 3 past the count
    assert [len(re.findall(r"setp\.(gt|ge)\.s32", b.split("exp2 of each score")[0])) for b in past][2:] == [0, 0]


def test_the_mask_follows_the_fragment_layout() -> None:
    """The mask reference (lowering/runtime/reference.py `hidden`) and the lowering's rule:
    for every thread and register of an m64n64 fragment, element (16w + g + 8h, 8(i / 4) +
    2q + i % 2) is hidden exactly where the lowering's comparison with its constant says."""
    from lower_tc.layout.fragments import accumulator_position
    from lower_tc.lowering.runtime.reference import hidden

    for first_query, first_key, keys, causal in ((0, 192, 250, 186), (64, 0, None, -3), (5, 70, 100, 0)):
        h = hidden((64, 64), first_query, first_key, keys, causal)
        for t in range(128):
            w, lane = t // 32, t % 32
            g, q = lane // 4, lane % 4
            d, q2 = 2 * q - (16 * w + g), 2 * q
            for i in range(32):
                row, col = accumulator_position(t, i)
                assert (row, col) == (16 * w + g + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * q + i % 2)
                c, hh = 8 * (i // 4) + i % 2, (i % 4) // 2
                masked = (causal is not None and d > first_query + 8 * hh + causal - first_key - c) or \
                         (keys is not None and q2 >= keys - first_key - c)
                assert masked == h[row, col], (t, i)


@pytest.mark.parametrize(("props", "why"), [
    ("{first_query = 0, first_key = 0}", "tc.acc_mask masks nothing: give keys"),
    ("{first_query = -1, first_key = 0, keys = 5}", "first_query is 0 to 1073741824, not -1"),
    ("{first_query = 0, first_key = 0, causal = -2000000000}", "causal is -1073741824 to 1073741824, not -2000000000"),
])
def test_the_mask_refuses_what_it_cannot_compare(props: str, why: str) -> None:
    text = (f'func.func @f(%O: memref<64x64xf32>) attributes {{tc.target = "sm_90a"}} {{\n'
            f"  %z = tc.acc_zero : !tc.acc<64x64xf32>\n  %t = tc.acc_mask %z {props} : !tc.acc<64x64xf32>\n  func.return\n}}\n")
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(lower_tc.parse(text, "f.mlir"), lower_tc.default_pipeline())
    assert why in str(err.value) and str(err.value).startswith("f.mlir:3:"), str(err.value)


def test_a_fill_built_in_python_is_checked_too() -> None:
    """The parser refuses a fill past f32 at its token; an op built in Python with +inf or
    NaN is refused by the verifier."""
    from xdsl.utils.exceptions import VerifyException

    from lower_tc.dialects import tc

    for value in (math.inf, math.nan):
        with pytest.raises(VerifyException, match="tc.rows_fill fills with -inf or a finite number"):
            tc.RowsFillOp(value).verify()
    tc.RowsFillOp(-math.inf).verify()
