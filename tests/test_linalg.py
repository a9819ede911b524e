"""linalg in, PTX out: every contraction form convert-linalg-to-tc converts compiles
through the default pipeline and assembles for its target; a transposed operand compiles
to the very kernel of an argument declared with the transposed layout; the runner's
float64 reference reads A and B through the transposes and C = D as D's start (checked on
the CPU with a stand-in for the kernel); on a GPU each form computes the right product."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pytest

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import GemmInfo, KernelInfo
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.compile import compile_source
from lower_tc.lowering.runtime.inputs import flat_indices

#: MLIR element types of the layout core's names.
MLIR_TYPES = {"bf16": "bf16", "f16": "f16", "e4m3": "f8E4M3FN", "s8": "i8", "u8": "i8", "f32": "f32", "s32": "i32"}


@dataclass(frozen=True)
class Form:
    """A linalg contraction D (+)= A x B as frontends write it: which operands are stored
    transposed, the types (A, B, D), whether a zero fill comes first, sizes known at launch."""

    name: str
    a_t: bool = False
    b_t: bool = False
    d_t: bool = False
    types: tuple[str, str, str] = ("bf16", "bf16", "f32")
    fill: bool = True
    dynamic: bool = False
    named: bool = False  # linalg.matmul (one type throughout) instead of linalg.generic
    batch: int = 0  # matrices of a batched contraction (0: none)
    b_broadcast: bool = False  # batched, with B the same matrix for every batch (2-d)
    m: int = 272
    n: int = 208
    k: int = 144

    def shapes(self) -> dict[str, tuple[int, ...]]:
        m, n, k = self.m, self.n, self.k
        out = {"A": (k, m) if self.a_t else (m, k), "B": (n, k) if self.b_t else (k, n), "D": (n, m) if self.d_t else (m, n)}
        batched = ("A", "D") if self.b_broadcast else ("A", "B", "D")
        return {x: ((self.batch, *s) if self.batch and x in batched else s) for x, s in out.items()}

    def memref(self, which: str) -> str:
        shape = self.shapes()[which]
        dims = "x".join("?" if self.dynamic else str(d) for d in shape)
        return f"memref<{dims}x{MLIR_TYPES[self.types['ABD'.index(which)]]}>"

    def source(self, target: str) -> str:
        a, b, d = (self.memref(x) for x in "ABD")
        ta, tb, td = (MLIR_TYPES[t] for t in self.types)
        head = f'func.func @{self.name}(%A: {a}, %B: {b}, %D: {d}) attributes {{tc.target = "{target}"}} {{\n'
        fill = f"  %zero = arith.constant {'0' if td == 'i32' else '0.0'} : {td}\n  linalg.fill ins(%zero : {td}) outs(%D : {d})\n" if self.fill else ""
        if self.named:
            return head + fill + f"  linalg.matmul ins(%A, %B : {a}, {b}) outs(%D : {d})\n  func.return\n}}\n"
        maps = ["k, m" if self.a_t else "m, k", "n, k" if self.b_t else "k, n", "n, m" if self.d_t else "m, n"]
        if self.batch:
            maps = [mp if (i == 1 and self.b_broadcast) else f"b, {mp}" for i, mp in enumerate(maps)]
        loops = "b, m, n, k" if self.batch else "m, n, k"
        maps_text = ", ".join(f"affine_map<({loops}) -> ({mp})>" for mp in maps)
        iterators = ", ".join(['"parallel"'] * (3 if self.batch else 2) + ['"reduction"'])
        integer = td == "i32"
        lines = []
        for name, t, kind in (("a", ta, self.types[0]), ("b", tb, self.types[1])):
            if t == td:  # no widening
                continue
            op = "extf" if not integer else ("extui" if kind == "u8" else "extsi")
            lines.append(f"    %{name}w = arith.{op} %{name} : {t} to {td}")
        aw = "%aw" if ta != td else "%a"
        bw = "%bw" if tb != td else "%b"
        mul, add = ("muli", "addi") if integer else ("mulf", "addf")
        body = "\n".join(lines + [f"    %p = arith.{mul} {aw}, {bw} : {td}", f"    %s = arith.{add} %acc, %p : {td}", f"    linalg.yield %s : {td}"])
        return (head + fill
                + f'  linalg.generic {{indexing_maps = [{maps_text}], iterator_types = [{iterators}]}}\n'
                + f"      ins(%A, %B : {a}, {b}) outs(%D : {d}) {{\n  ^bb0(%a: {ta}, %b: {tb}, %acc: {td}):\n{body}\n  }}\n"
                + "  func.return\n}\n")

    def launch_shapes(self) -> dict[str, tuple[int, int, None]] | None:
        if not self.dynamic:
            return None
        return {name: (*shape, None) for name, shape in self.shapes().items()}


FORMS = [
    Form("matmul", types=("bf16", "bf16", "bf16"), named=True, fill=False),
    Form("b_transposed", b_t=True),
    Form("a_transposed", a_t=True, types=("f16", "f16", "f32")),
    Form("d_transposed", d_t=True, fill=False),
    Form("both_transposed", a_t=True, b_t=True, types=("bf16", "bf16", "bf16")),
    Form("s8", b_t=True, types=("s8", "s8", "s32")),
    Form("u8", b_t=True, types=("u8", "u8", "s32"), fill=False),
    Form("e4m3_dynamic", b_t=True, types=("e4m3", "e4m3", "f32"), dynamic=True),
    Form("batched_b_transposed", b_t=True, batch=3),
    Form("batched_broadcast", b_t=True, batch=3, b_broadcast=True, types=("bf16", "bf16", "bf16"), fill=False),
    Form("batched_d_transposed", a_t=True, d_t=True, batch=2, types=("f16", "f16", "f32")),
]
#: (form, target) pairs compiled and assembled: every form on sm_90a, four on sm_100a.
CASES = [(f, "sm_90a") for f in FORMS] + [
    (f, "sm_100a") for f in FORMS if f.name in ("b_transposed", "d_transposed", "s8", "batched_b_transposed")]


def _compile(form: Form, target: str, assemble: bool = False):
    kernels = compile_source(form.source(target), f"{form.name}.mlir", assemble=assemble)
    assert len(kernels) == 1
    return kernels[0]


def test_the_forms_are_what_they_say() -> None:
    """The generated linalg parses and converts: one tc.matmul per form, a view per
    transposed operand (the check that the generator means what the cases claim)."""
    from lower_tc.lowering.parse import parse
    from lower_tc.passes import PASSES

    for form in FORMS:
        ctx, module = parse(form.source("sm_90a"), form.name)
        PASSES["convert-linalg-to-tc"]()(strict=True).apply(ctx, module)
        names = [op.name for op in module.walk()]
        views = names.count("tc.transpose")
        assert names.count("tc.matmul") == 1 and "linalg.generic" not in names and "linalg.matmul" not in names
        # D^T = B^T A^T: a transposed D turns both operands around
        want = (form.a_t != form.d_t) + (form.b_t != form.d_t)
        assert views == want, form


@pytest.mark.parametrize(("form", "target"), CASES, ids=lambda x: x.name if isinstance(x, Form) else x)
def test_each_form_compiles_with_its_facts(form: Form, target: str) -> None:
    k = _compile(form, target)
    gemm = k.info.gemm
    assert gemm is not None and k.info.target == target
    assert f".entry {form.name}(" in k.ptx
    # A is the input holding D's rows: with D transposed, the second one (B), transposed
    # unless B was stored N x K already
    a_t, b_t = (not form.b_t, not form.a_t) if form.d_t else (form.a_t, form.b_t)
    assert (gemm.a, gemm.b, gemm.d) == ((1, 0, 2) if form.d_t else (0, 1, 2))
    assert (gemm.a_transposed, gemm.b_transposed) == (a_t, b_t)
    assert gemm.c == (None if form.fill else 2)
    m, n = (form.n, form.m) if form.d_t else (form.m, form.n)
    assert (gemm.m, gemm.n, gemm.k) == ((None, None, None) if form.dynamic else (m, n, form.k))
    assert (gemm.batched, gemm.batch) == ((True, form.batch) if form.batch else (False, 1))
    if form.types[0] == "u8":
        assert k.info.args[0].dtype == "u8" and k.info.args[1].dtype == "u8"


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
@pytest.mark.parametrize(("form", "target"), CASES, ids=lambda x: x.name if isinstance(x, Form) else x)
def test_each_form_assembles(form: Form, target: str) -> None:
    k = _compile(form, target, assemble=True)
    assert k.cubin is not None and k.cubin[:4] == b"\x7fELF"


#: The code of a kernel: its PTX less the metadata comment and the source locations.
_NOT_CODE = re.compile(r"^\s*// (lower-tc kernel|from ).*\n", re.MULTILINE)


def test_a_view_compiles_to_the_kernel_of_the_strided_argument() -> None:
    """x @ W^T with W stored N x K reads W through tc.transpose: the kernel is the one of
    tc.matmul on W declared K x N column-major (the same bytes), only its metadata says
    which argument holds what."""
    form = Form("xwt", b_t=True)
    viewed = _compile(form, "sm_90a")
    strided = "memref<144x208xbf16, strided<[1, 144]>>"
    direct = compile_source(
        f'func.func @xwt(%A: memref<272x144xbf16>, %B: {strided}, %D: memref<272x208xf32>) attributes {{tc.target = "sm_90a"}} {{\n'
        f"  tc.matmul %A, %B to %D : memref<272x144xbf16>, {strided}, memref<272x208xf32>\n  func.return\n}}\n", "direct.mlir")[0]
    assert _NOT_CODE.sub("", viewed.ptx) == _NOT_CODE.sub("", direct.ptx)
    assert viewed.info.tensor_maps == direct.info.tensor_maps
    assert viewed.info.args[1].shape == (208, 144) and direct.info.args[1].shape == (144, 208)


def test_launch_sizes_of_a_transposed_argument_are_its_own() -> None:
    """Sizes known at launch are given as the arguments are (B: N x K); the GEMM's K and
    N come from B's columns and rows, and a B that does not fit is named as transposed."""
    from lower_tc.lowering.runtime.errors import ShapeError
    from lower_tc.lowering.runtime.sizes import resolve_sizes

    form = Form("dyn", b_t=True, types=("e4m3", "e4m3", "f32"), dynamic=True)
    info = _compile(form, "sm_90a").info
    got = resolve_sizes(info, form.launch_shapes())
    assert (got.gemm.m, got.gemm.n, got.gemm.k) == (272, 208, 144)
    b_map = next(t for t in got.tensor_maps if t.arg == 1)
    assert b_map.global_dims == (144, 208) and b_map.global_strides == (144,)
    with pytest.raises(ShapeError, match=r"B 144x200 \(its argument transposed\)"):
        resolve_sizes(info, {**form.launch_shapes(), "B": (200, 144, None)})


def _perfect_kernel(info: KernelInfo, transposes: bool = True):
    """A stand-in for launch(): computes D = A x B (+ C) in float64 from the bytes it is
    given, reading A and B as the metadata says (`transposes=False`: as if there were no
    views), writing D by its strides."""

    def launch(cubin, sized: KernelInfo, host, timeout):
        g = sized.gemm
        mats = [buf[flat_indices(a)].astype(np.float64) for buf, a in zip(host, sized.args)]
        a = mats[g.a].T if g.a_transposed and transposes else mats[g.a]
        b = mats[g.b].T if g.b_transposed and transposes else mats[g.b]
        d = a @ b if a.shape[1] == b.shape[0] else np.zeros(sized.args[g.d].shape)
        if g.c is not None:
            d = d + mats[g.c]
        out = [h.copy() for h in host]
        out[g.d][flat_indices(sized.args[g.d])] = d.astype(out[g.d].dtype)
        return out, "stand-in", [0] * len(host)

    return launch


@pytest.mark.parametrize("form", [f for f in FORMS if f.name in ("b_transposed", "d_transposed", "both_transposed", "u8")], ids=lambda f: f.name)
def test_the_reference_reads_views_and_c_equal_to_d(form: Form, monkeypatch) -> None:
    """The runner's reference against a kernel that computes exactly: it passes; against
    one that ignores the transposes (square, so that the shapes still fit), it fails; with
    C = D (no fill), D starts random and the product is added to it."""
    import lower_tc.lowering.runtime.run as run

    square = Form(form.name, form.a_t, form.b_t, form.d_t, form.types, form.fill, m=144, n=144, k=144)
    k = _compile(square, "sm_90a")
    monkeypatch.setattr(run, "launch", _perfect_kernel(k.info))
    result = run.run_kernel(k, seed=5)
    assert result.passed, result.summary()
    monkeypatch.setattr(run, "launch", _perfect_kernel(k.info, transposes=False))
    assert not run.run_kernel(k, seed=5).passed


def test_transposes_are_in_the_json_only_where_true() -> None:
    base = GemmInfo(0, 1, 2, None, 8, 8, 8, "f32", GemmConfig(128, 128, 64, 4))
    assert "b_transposed" not in base.to_dict() and "a_transposed" not in base.to_dict()
    flagged = GemmInfo.from_dict({**base.to_dict(), "b_transposed": True})
    assert flagged.b_transposed and not flagged.a_transposed
    assert GemmInfo.from_dict(flagged.to_dict()) == flagged


@pytest.mark.gpu
@pytest.mark.parametrize(("form", "target"), CASES, ids=lambda x: x.name if isinstance(x, Form) else x)
def test_each_form_runs_right_on_the_gpu(form: Form, target: str, require_gpu) -> None:
    from lower_tc.lowering.runtime.run import run_kernel

    require_gpu(target)
    k = _compile(form, target, assemble=True)
    for seed in (1, 2):
        result = run_kernel(k, seed, shapes=form.launch_shapes())
        assert result.passed, result.summary()


@pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")
def test_the_api_gives_a_linalg_function_its_target() -> None:
    """lower_tc.compile(target=...) is convert-linalg-to-tc's target for a function without
    tc.target; without one, the compiler says what is missing, located."""
    import lower_tc

    text = Form("linear", b_t=True).source("sm_90a").replace(' attributes {tc.target = "sm_90a"}', "")
    kernel = lower_tc.compile(text, target="sm_100a")
    assert kernel.info.target == "sm_100a" and kernel.info.gemm.b_transposed
    with pytest.raises(lower_tc.CompileError, match=r"<source>:\d+:\d+: error: 'linalg.generic' is not converted to tc.matmul: no target"):
        lower_tc.compile(text)
    with pytest.raises(lower_tc.CompileError, match="the function's tc.target is sm_90a but convert-linalg-to-tc's target is sm_100a"):
        lower_tc.compile(Form("linear", b_t=True).source("sm_90a"), target="sm_100a")
