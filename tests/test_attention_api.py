"""lower_tc.attention on the CPU: fake arrays over the fake driver's GPU memory
(tests/test_callable.py's), a real compile, and the fake CUDA recording the launch. The
call compiles the tc.attention program of the arrays' shapes and strides once, launches it
on the arrays (a 4-d BHSD array as its 3-d view, a BSHD one as it lies: nothing copied),
and refuses bad arguments by name before compiling or launching. The program is the op level tests/test_expand_attention.py
ties to the kernels checked on the H100."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fake_cuda import install
from test_callable import ITEMSIZE, cai
import lower_tc
from lower_tc.lowering.compile import compile_source
from lower_tc.layout.strided import dense_strides
from lower_tc.lowering.api.attention import op_source
from lower_tc.lowering.runtime.arrays import ArrayView
from lower_tc.lowering.runtime.errors import ArgumentError, DeviceError

#: The module (lower_tc.lowering.api's `attention` is its function).
attention_api = importlib.import_module("lower_tc.lowering.api.attention")


@pytest.fixture
def fake(monkeypatch, tmp_path):
    monkeypatch.setenv("LOWER_TC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LOWER_TC_ASSEMBLER", "ptxas")
    return install(monkeypatch)


def bhsd(fake, shape: tuple[int, ...], dtype: str = "bf16", strides: tuple[int, ...] | None = None, device: int = 0):
    """A dense array of `shape` in fresh fake GPU memory (or with `strides`)."""
    size = 1
    for n in shape:
        size *= n
    base = fake.gpu_memory(size * ITEMSIZE[dtype] + 64, device)
    return cai(base, shape, dtype, strides)


def test_attention_compiles_once_and_launches_on_the_arrays(fake, tmp_path) -> None:
    q, k, v, o = (bhsd(fake, (2, 4, 256, 64)) for _ in range(4))
    assert lower_tc.attention(q, k, v, o, causal=True) is o
    (launch,) = fake.called("cuLaunchKernel")
    assert len(list((tmp_path / "cache").rglob("*.cubin"))) == 1
    lower_tc.attention(q, k, v, o, causal=True)
    assert len(fake.called("cuLaunchKernel")) == 2
    assert len(fake.called("ObjectCode.from_cubin")) == 1  # one kernel, loaded once
    lower_tc.attention(q, k, v, o)  # not causal: another program
    assert len(list((tmp_path / "cache").rglob("*.cubin"))) == 2


def _view(shape: tuple[int, ...], dtype: str = "f16", strides: tuple[int, ...] | None = None) -> ArrayView:
    return ArrayView(0, shape, strides or dense_strides(shape), dtype, 0)


def test_the_program_folds_batch_and_heads_and_groups_the_kv_heads() -> None:
    q, kv = _view((8, 1000, 128)), _view((2, 1000, 128))
    text = op_source(q, kv, kv, q, True, 0.125, True)
    assert "tc.attention %Q, %K, %V to %O lse %LSE {causal, scale = 0.125}" in text
    assert "%K: memref<2x1000x128xf16>" in text and "%LSE: memref<8x1000xf32>" in text
    module = lower_tc.parse(text)
    lower_tc.run_passes(module, lower_tc.default_pipeline())
    (k,) = lower_tc.kernels(module)
    att = k.info.attention
    assert (att.q, att.k, att.v, att.o, att.lse) == (0, 1, 2, 3, 4)
    assert att.causal == 0 and att.scale == 0.125
    assert k.info.grid == (8, 8, 1)  # 1000 queries in blocks of 128, eight heads


def _programs() -> list[str]:
    return list(attention_api._kernels.entries)


@pytest.mark.parametrize(("batch", "memref", "grid_z"), [
    (2, "memref<2x4x256x64xbf16, strided<[65536, 64, 256, 1]>>", 2),  # a batch: 4-d, the batch on z
    (1, "memref<4x256x64xbf16, strided<[64, 256, 1]>>", 1),  # a batch of one: the heads side by side in a row
])
def test_bshd_arrays_are_read_where_they_lie(fake, batch, memref, grid_z) -> None:
    """(batch, sequence, heads, head dim) memory seen as (batch, heads, sequence, head dim),
    as torch's q.transpose(1, 2) is: a program for those strides, nothing copied; LSE dense."""
    shape, strides = (batch, 4, 256, 64), (256 * 4 * 64, 64, 4 * 64, 1)
    q, k, v, o = (bhsd(fake, shape, strides=strides) for _ in range(4))
    attention_api._kernels.entries.clear()
    with pytest.raises(ArgumentError) as err:  # the log-sum-exp cannot be allocated like the fake arrays
        lower_tc.attention(q, k, v, o, lse=True)
    assert err.value.argument == "out"
    assert lower_tc.attention(q, k, v, o, causal=True) is o
    (program,) = _programs()
    assert f"%Q: {memref}" in program and f"%O: {memref}" in program
    (launch,) = fake.called("cuLaunchKernel")
    kernel = attention_api._kernels.entries[program]
    assert kernel.info.grid[2] == grid_z and len(kernel.info.args[0].shape) == (4 if batch > 1 else 3)


@pytest.mark.parametrize(("shape", "words"), [
    ((1, 1, 2**30 + 1, 64), "q's sequence is 1073741825: at most 1073741824"),
    ((1, 70000, 64, 64), "q's heads is 70000: the kernel runs a CTA per head along the grid's y"),
    ((70000, 1, 64, 64), "q's batch is 70000: the kernel runs a CTA per batch along the grid's z"),
])
def test_sizes_past_the_kernels_limits_are_refused_by_name(fake, tmp_path, shape, words) -> None:
    """docs/limits.md's attention row, as ArgumentErrors naming q before anything is
    compiled (the op's verifier says the same of a program)."""
    q, k, v, o = (bhsd(fake, shape) for _ in range(4))
    _refused_before_compiling(fake, tmp_path, lambda: lower_tc.attention(q, k, v, o), "q", words)


def test_batch_times_heads_past_the_grid_is_a_4d_program(fake) -> None:
    """300 x 300 heads fold into 90000, past the grid's y: the arrays run as a 4-d program,
    the heads on y and the batch on z, each within CUDA's 65535."""
    q, k, v, o = (bhsd(fake, (300, 300, 64, 64)) for _ in range(4))
    attention_api._kernels.entries.clear()
    assert lower_tc.attention(q, k, v, o) is o
    (program,) = _programs()
    assert "%Q: memref<300x300x64x64xbf16>" in program
    kernel = attention_api._kernels.entries[program]
    assert kernel.info.grid[1:] == (300, 300)
    assert fake.called("cuLaunchKernel")


def test_a_mix_of_layouts_is_one_4d_program(fake) -> None:
    """Q BSHD with a batch (no 3-d view of it), K and V dense BHSD: every argument 4-d."""
    q, o = (bhsd(fake, (2, 4, 256, 64), strides=(256 * 4 * 64, 64, 4 * 64, 1)) for _ in range(2))
    k, v = (bhsd(fake, (2, 2, 300, 64)) for _ in range(2))
    attention_api._kernels.entries.clear()
    lower_tc.attention(q, k, v, o)
    (program,) = _programs()
    assert "%K: memref<2x2x300x64xbf16>" in program and "strided<[65536, 64, 256, 1]>" in program


@pytest.mark.parametrize(("change", "argument", "words"), [
    ({n: ((2, 4, 256, 48), "bf16") for n in ("q", "k", "v", "out")}, "q", "the head dim is 64, 128, 256, not 48"),
    (dict(q=((2, 4, 256, 128), "bf16")), "k", "k's head dim 64 is not q's 128"),
    (dict(k=((2, 3, 256, 64), "bf16"), v=((2, 3, 256, 64), "bf16")), "k", "3 heads must divide q's 4"),
    (dict(v=((2, 4, 256, 64), "f16")), "v", "one type"),
    (dict(q=((2, 4, 256, 64), "f32"), k=((2, 4, 256, 64), "f32"), v=((2, 4, 256, 64), "f32")), "q", "e4m3 or e5m2, not f32"),
    (dict(q=((256, 64), "bf16")), "q", "not 2-d"),
    (dict(v=((2, 4, 128, 64), "bf16")), "v", "is not k's"),
    (dict(k=((1, 4, 256, 64), "bf16"), v=((1, 4, 256, 64), "bf16")), "k", "k's batch 1 is not q's 2"),
    (dict(out=((2, 4, 128, 64), "bf16")), "out", "out is q's shape, (2, 4, 256, 64), and bf16"),
])
def test_attention_refuses_by_name_before_compiling(fake, tmp_path, change, argument, words) -> None:
    arrays = {name: ((2, 4, 256, 64), "bf16") for name in ("q", "k", "v", "out")}
    arrays.update(change)
    made = {name: bhsd(fake, shape, dtype) for name, (shape, dtype) in arrays.items()}
    _refused_before_compiling(fake, tmp_path, lambda: lower_tc.attention(made["q"], made["k"], made["v"], made["out"]),
                              argument, words)


def _refused_before_compiling(fake, tmp_path, call, argument: str, words: str) -> None:
    """`call` raises an ArgumentError naming `argument`, its message holding `words`,
    before any kernel is compiled into the cache or launched."""
    with pytest.raises(ArgumentError) as err:
        call()
    assert err.value.argument == argument and words in str(err.value)
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").rglob("*.cubin"))
    assert not fake.called("cuLaunchKernel")


@pytest.mark.parametrize(("strides", "words"), [
    ((4 * 256 * 64, 256 * 64, 1, 256), "head dim must be contiguous"),  # (S, D) transposed
    ((4 * 256 * 72, 256 * 72, 72, 1), None),  # rows padded to 72 elements: 144 bytes, a TMA stride
    ((4 * 256 * 66, 256 * 66, 66, 1), "multiples of 8"),  # 132 bytes: not a 16-byte multiple
    ((2**39, 256 * 64, 64, 1), "below 2\\^40 bytes"),  # the batch 2^40 bytes apart
])
def test_strides_tma_cannot_step_are_refused_by_name(fake, strides, words) -> None:
    k, v, o = (bhsd(fake, (2, 4, 256, 64)) for _ in range(3))
    q = cai(fake.gpu_memory(4 * 256 * 72 * 2 * ITEMSIZE["bf16"] + 64), (2, 4, 256, 64), "bf16", strides)
    if words is None:
        lower_tc.attention(q, k, v, o)
        assert len(fake.called("cuLaunchKernel")) == 1
        return
    with pytest.raises(ArgumentError, match=words) as err:
        lower_tc.attention(q, k, v, o)
    assert err.value.argument == "q"
    assert not fake.called("cuLaunchKernel")


def test_an_out_whose_batch_lies_2_to_the_40_bytes_apart_is_refused_by_name(fake) -> None:
    """out is stored by threads, not TMA: the bound is stated as no GPU's memory, by name."""
    q, k, v = (bhsd(fake, (2, 4, 256, 64)) for _ in range(3))
    o = cai(fake.gpu_memory(4 * 256 * 64 * 2 * ITEMSIZE["bf16"] + 64), (2, 4, 256, 64), "bf16", (2**39, 256 * 64, 64, 1))
    with pytest.raises(ArgumentError, match="strides are below 2\\^40 bytes \\(no GPU holds more\\)") as err:
        lower_tc.attention(q, k, v, o)
    assert err.value.argument == "out"
    assert not fake.called("cuLaunchKernel")


def test_scale_flags_devices_and_an_overlapping_out_are_refused_by_name(fake) -> None:
    q, k, v, o = (bhsd(fake, (2, 4, 256, 64)) for _ in range(4))
    for kwargs, name in ((dict(scale=0.0), "scale"), (dict(scale=float("nan")), "scale"), (dict(causal=1), "causal"),
                         (dict(lse="yes"), "lse")):
        with pytest.raises(ArgumentError) as err:
            lower_tc.attention(q, k, v, o, **kwargs)
        assert err.value.argument == name
    with pytest.raises(DeviceError):
        lower_tc.attention(q, k, bhsd(fake, (2, 4, 256, 64), device=1), o)
    squashed = bhsd(fake, (2, 4, 256, 64), strides=(256 * 64, 8, 64, 1))  # heads 8 elements apart in 64-element rows
    with pytest.raises(ArgumentError, match="two of its elements") as err:
        lower_tc.attention(q, k, v, squashed)
    assert err.value.argument == "out"
    assert not fake.called("cuLaunchKernel")


def test_out_must_be_given_or_allocatable(fake) -> None:
    """The fake arrays are neither torch nor CuPy: O cannot be allocated like q."""
    q, k, v = (bhsd(fake, (4, 256, 64)) for _ in range(3))
    with pytest.raises(ArgumentError) as err:
        lower_tc.attention(q, k, v)
    assert err.value.argument == "out"
    assert not fake.called("cuLaunchKernel")


def test_a_compiled_4d_kernel_refuses_arrays_of_other_strides_by_name(fake) -> None:
    """A 4-d argument is compiled for its strides exactly: a BHSD array for a BSHD kernel is
    refused, naming it, before the launch."""
    bshd = (256 * 4 * 64, 64, 4 * 64, 1)
    views = [_view((2, 4, 256, 64), "bf16", bshd) for _ in range(4)]
    kernel = lower_tc.compile(op_source(*views, False, 0.125, False))
    q, k, v, o = (bhsd(fake, (2, 4, 256, 64), strides=bshd) for _ in range(4))
    kernel(q, k, v, o)
    assert len(fake.called("cuLaunchKernel")) == 1
    with pytest.raises(ArgumentError, match=r"compiled for a leading dimension of 256") as err:
        kernel(bhsd(fake, (2, 4, 256, 64)), k, v, o)  # BHSD: rows 64 apart
    assert err.value.argument == "Q"
    padded = cai(fake.gpu_memory(2 * 131072 * ITEMSIZE["bf16"] + 64), (2, 4, 256, 64), "bf16", (131072, 64, 256, 1))
    with pytest.raises(ArgumentError, match=r"compiled for strides \(65536, 64, 256, 1\)") as err:
        kernel(q, k, v, padded)  # its batches twice as far apart
    assert err.value.argument == "O"
    assert len(fake.called("cuLaunchKernel")) == 1


def _e4m3(fake, shape: tuple[int, ...], strides: tuple[int, ...] | None = None):
    """An e4m3 array as CuPy would pass it: uint8 bits, reinterpreted."""
    from lower_tc.lowering.runtime.arrays import reinterpret
    from test_callable import CaiArray

    size = 1
    for n in shape:
        size *= n
    return reinterpret(CaiArray(fake.gpu_memory(size + 64), shape, "u8", strides), "e4m3")


def test_fp8_attention_reads_v_with_its_keys_contiguous_and_writes_a_bf16_o(fake) -> None:
    """e4m3 q and k, v as vt.transpose(-1, -2) of a dense (batch, heads, D, S_k) vt, a bf16
    out: one program of f8E4M3FN memrefs, V's keys contiguous, folded to 3-d."""
    q, k = (_e4m3(fake, (2, 4, 256, 64)) for _ in range(2))
    v = _e4m3(fake, (2, 4, 256, 64), strides=(4 * 64 * 256, 64 * 256, 1, 256))
    o = bhsd(fake, (2, 4, 256, 64), "bf16")
    attention_api._kernels.entries.clear()
    assert lower_tc.attention(q, k, v, o, causal=True) is o
    (program,) = _programs()
    assert "%Q: memref<8x256x64xf8E4M3FN>" in program and "%O: memref<8x256x64xbf16>" in program
    assert "%V: memref<8x256x64xf8E4M3FN, strided<[16384, 1, 256]>>" in program
    assert len(fake.called("cuLaunchKernel")) == 1
    att = attention_api._kernels.entries[program].info.attention
    assert (att.block_m, att.block_n) == (192, 128)  # the fp8 blocks (layout/attention.py FP8_BLOCKS)


def test_fp8_attention_transposes_a_v_given_with_its_head_dim_contiguous(fake) -> None:
    """e4m3 q, k and v all (batch, heads, S, D) dense: V goes to the kernel as it is and
    the kernel transposes its tiles in shared memory (tc.tile_transpose; the metadata's
    v_transposed is false, so the runner reads V as given)."""
    q, k, v = (_e4m3(fake, (2, 4, 256, 64)) for _ in range(3))
    o = bhsd(fake, (2, 4, 256, 64), "bf16")
    attention_api._kernels.entries.clear()
    assert lower_tc.attention(q, k, v, o, causal=True) is o
    (program,) = _programs()
    assert "%V: memref<8x256x64xf8E4M3FN>" in program
    assert attention_api._kernels.entries[program].info.attention.v_transposed is False
    (compiled,) = compile_source(program)
    assert "V transposed" in compiled.ptx and "fence.proxy.async.shared::cta" in compiled.ptx
    assert len(fake.called("cuLaunchKernel")) == 1


@pytest.mark.parametrize(("what", "argument", "words"), [
    ("v neither contiguous", "v", "an 8-bit v has its head dim contiguous (stride 1) or its keys"),
    ("k bf16", "k", "one type"),
    ("out e4m3", "out", "out is q's shape, (2, 4, 256, 64), and bf16 or f16, not (2, 4, 256, 64) e4m3"),
    ("v keys padded", "v", "multiples of 16 (16 bytes: TMA's rule) outside the sequence"),
])
def test_fp8_attention_refuses_by_name_before_compiling(fake, tmp_path, what, argument, words) -> None:
    q, k = (_e4m3(fake, (2, 4, 256, 64)) for _ in range(2))
    v = _e4m3(fake, (2, 4, 256, 64), strides=(4 * 64 * 256, 64 * 256, 1, 256))
    o = bhsd(fake, (2, 4, 256, 64), "bf16")
    if what == "v neither contiguous":
        v = _e4m3(fake, (2, 4, 256, 64), strides=(4 * 256 * 128, 256 * 128, 128, 2))
    elif what == "k bf16":
        k = bhsd(fake, (2, 4, 256, 64), "bf16")
    elif what == "out e4m3":
        o = _e4m3(fake, (2, 4, 256, 64))
    else:
        v = _e4m3(fake, (2, 4, 256, 64), strides=(4 * 64 * 264, 64 * 264, 1, 264))
    _refused_before_compiling(fake, tmp_path, lambda: lower_tc.attention(q, k, v, o), argument, words)


def _factor(fake, shape: tuple[int, ...], strides: tuple[int, ...] | None = None, dtype: str = "f32"):
    """A descaling factor's f32 array in fresh fake GPU memory."""
    return bhsd(fake, shape, dtype, strides)


def test_fp8_attention_takes_descaling_factors_of_each_batch_and_kv_head(fake) -> None:
    """q_descale, k_descale, v_descale of (batch, heads of k): the program reads them with
    the batch and heads folded ((1, batch x heads of k), as k's heads fold), they follow
    the arrays in the launch, and the metadata names them (the scores' pair, V's)."""
    q = _e4m3(fake, (2, 4, 256, 64))
    k, v = (_e4m3(fake, (2, 2, 256, 64)) for _ in range(2))
    qd, kd, vd = (_factor(fake, (2, 2)) for _ in range(3))
    attention_api._kernels.entries.clear()
    o = bhsd(fake, (2, 4, 256, 64), "bf16")
    assert lower_tc.attention(q, k, v, o, q_descale=qd, k_descale=kd, v_descale=vd, causal=True) is o
    (program,) = _programs()
    assert "q_descale %QD k_descale %KD v_descale %VD" in program
    assert "%K: memref<4x256x64xf8E4M3FN>" in program and "%QD: memref<1x4xf32>" in program
    att = attention_api._kernels.entries[program].info.attention
    assert (att.qk_descale, att.v_descale) == ((4, 5), (6,))
    assert len(fake.called("cuLaunchKernel")) == 1


def test_fp8_attention_takes_any_of_the_factors(fake) -> None:
    """v_descale alone: the scores take no factor, O its; a 3-d q takes (heads of k,)."""
    q, k, v = (_e4m3(fake, (4, 256, 64)) for _ in range(3))
    attention_api._kernels.entries.clear()
    lower_tc.attention(q, k, v, bhsd(fake, (4, 256, 64), "bf16"), v_descale=_factor(fake, (4,)))
    (program,) = _programs()
    assert "v_descale %VD" in program and "q_descale" not in program and "%VD: memref<1x4xf32>" in program
    att = attention_api._kernels.entries[program].info.attention
    assert (att.qk_descale, att.v_descale) == ((), (4,))


def test_factors_that_do_not_fold_make_a_4d_program(fake) -> None:
    """A column-major (batch, heads of k) factor cannot be read as (1, batch x heads): q,
    k, v and the factors go to the kernel 4-d, as they lie."""
    q, k, v = (_e4m3(fake, (2, 2, 256, 64)) for _ in range(3))
    attention_api._kernels.entries.clear()
    lower_tc.attention(q, k, v, bhsd(fake, (2, 2, 256, 64), "bf16"), k_descale=_factor(fake, (2, 2), strides=(1, 2)))
    (program,) = _programs()
    assert "%Q: memref<2x2x256x64xf8E4M3FN>" in program and "%KD: memref<2x2xf32, strided<[1, 2]>>" in program


@pytest.mark.parametrize(("what", "argument", "words"), [
    ("bf16 q", "q_descale", "q_descale is for 8-bit q, k and v (descaling factors), not bf16"),
    ("shape", "k_descale", "k_descale is an f32 array of (batch, heads of k) = (2, 2), not (2, 4) f32"),
    ("f16", "v_descale", "not (2, 2) f16"),
    ("broadcast", "k_descale", "pass a contiguous copy (a broadcast of one value: .expand(...).contiguous())"),
])
def test_descaling_factors_are_refused_by_name_before_compiling(fake, tmp_path, what, argument, words) -> None:
    q, k, v = (_e4m3(fake, (2, 2, 256, 64)) for _ in range(3))
    factors = {}
    if what == "bf16 q":
        q, k, v = (bhsd(fake, (2, 2, 256, 64)) for _ in range(3))
        factors["q_descale"] = _factor(fake, (2, 2))
    elif what == "shape":
        factors["k_descale"] = _factor(fake, (2, 4))
    elif what == "f16":
        factors["v_descale"] = _factor(fake, (2, 2), dtype="f16")
    else:
        factors["k_descale"] = _factor(fake, (2, 2), strides=(0, 0))
    o = bhsd(fake, (2, 2, 256, 64), "bf16")
    _refused_before_compiling(fake, tmp_path, lambda: lower_tc.attention(q, k, v, o, **factors), argument, words)


@given(b=st.integers(1, 5), h=st.integers(1, 6), order=st.sampled_from(["row", "column"]), pad=st.integers(0, 3))
@settings(max_examples=200, deadline=None)
def test_a_folded_factor_reads_each_batch_and_kv_head_where_it_lies(b: int, h: int, order: str, pad: int) -> None:
    """Where q, k and v fold into (batch x heads, S, D), a (batch, heads of k) factor goes
    to the kernel as (1, batch x heads of k), read at [0, batch x heads + head]: the
    element it names is the factor's own [batch, head], for row- and column-major factors
    with padded leading dimensions; one whose elements do not line up so is not folded
    (the program is then 4-d)."""
    strides = (h + pad, 1) if order == "row" else (1, b + pad)
    view = attention_api._descale(_view((b, h), "f32", strides), "k_descale", b, h)
    folded = attention_api._fold_descale(view)
    for bi in range(b):  # the kernel's view of the factor names the caller's elements
        for hi in range(h):
            assert bi * view.strides[0] + hi * view.strides[1] == bi * strides[0] + hi * strides[1]
    if folded is None:
        assert b > 1 and h > 1 and strides[0] != h * strides[1]
        return
    assert folded.shape == (1, b * h) and attention_api._matrix_strides(folded.shape, folded.strides) == folded.strides
    for bi in range(b):
        for hi in range(h):
            assert (bi * h + hi) * folded.strides[1] == bi * strides[0] + hi * strides[1]


@st.composite
def _calls(draw) -> dict:
    """A call of lower_tc.attention: coherent shapes, types and layouts mostly, with one
    thing odd at times (a head dim, K/V heads that do not divide, a length of 0, a type, a
    stride: padded, not 16 bytes, the head dim not contiguous, a broadcast; out's shape;
    the scale; causal and lse flags)."""
    odd = draw(st.sampled_from(("", "", "", "d", "kv", "zero", "dtype", "stride", "out", "scale", "flag")))
    rank4 = draw(st.booleans())
    b, h = draw(st.integers(1, 3)), draw(st.sampled_from((1, 2, 4)))
    kvh = draw(st.sampled_from([g for g in (1, 2, 4) if h % g == 0])) if odd != "kv" else 3
    sq, sk = draw(st.integers(1, 300)), draw(st.integers(1, 300))
    if odd == "zero":
        sq = 0
    d = draw(st.sampled_from((64, 128))) if odd != "d" else draw(st.sampled_from((32, 80, 512)))
    dtype = draw(st.sampled_from(("bf16", "f16")))
    layout = draw(st.sampled_from(("bhsd", "bshd")))

    def dims(heads: int, s: int) -> tuple[int, ...]:
        return (b, heads, s, d) if rank4 else (heads, s, d)

    def strides_of(shape: tuple[int, ...]) -> tuple[int, ...]:
        if layout == "bhsd" or not rank4:
            return dense_strides(shape)
        bb, hh, s, dd = shape
        return (s * hh * dd, dd, hh * dd, 1)

    shapes = {"q": dims(h, sq), "k": dims(kvh, sk), "v": dims(kvh, sk), "out": dims(h, sq)}
    dtypes = dict.fromkeys(shapes, dtype)
    strides = {name: strides_of(shape) for name, shape in shapes.items()}
    which = draw(st.sampled_from(sorted(shapes)))
    if odd == "dtype":
        dtypes[which] = draw(st.sampled_from(("f32", "bf16" if dtype == "f16" else "f16", "u16")))
    elif odd == "stride":
        s = list(strides[which])
        i = draw(st.integers(0, len(s) - 1))
        s[i] = draw(st.sampled_from((0, 1, s[i] + 3, s[i] + 8, 2 * s[i])))
        strides[which] = tuple(s)
    elif odd == "out":
        shapes["out"] = dims(h, sq + 1)
        strides["out"] = strides_of(shapes["out"])
    scale = draw(st.sampled_from((None, 0.125))) if odd != "scale" else draw(st.sampled_from((0.0, -1.0, float("nan"), "x", True)))
    causal = draw(st.booleans()) if odd != "flag" else draw(st.sampled_from((1, "yes", None)))
    return {"shapes": shapes, "dtypes": dtypes, "strides": strides, "scale": scale, "causal": causal}


@given(call=_calls())
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
def test_every_call_runs_or_is_refused_by_name_before_launching(call: dict, tmp_path_factory) -> None:
    """lower_tc.attention on generated arguments (fake driver): it launches once, or
    raises an ArgumentError naming one of its arguments, or a DeviceError, with nothing
    launched; never another exception (a refusal its checks did not foresee)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LOWER_TC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "attention-calls-cache"))
        mp.setenv("LOWER_TC_ASSEMBLER", "ptxas")
        fake = install(mp)
        made = {}
        for name, shape in call["shapes"].items():
            extent = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, call["strides"][name])) if 0 not in shape else 1
            base = fake.gpu_memory(extent * ITEMSIZE.get(call["dtypes"][name], 4) + 64)
            made[name] = cai(base, shape, call["dtypes"][name], call["strides"][name])
        try:
            result = lower_tc.attention(made["q"], made["k"], made["v"], made["out"], causal=call["causal"], scale=call["scale"])
        except (ArgumentError, DeviceError) as err:
            assert getattr(err, "argument", "q") in ("q", "k", "v", "out", "scale", "causal", "lse")
            assert not fake.called("cuLaunchKernel")
            return
        assert result is made["out"] and len(fake.called("cuLaunchKernel")) == 1
