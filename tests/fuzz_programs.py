"""Hypothesis strategies for the fuzzer (tests/test_fuzz.py, bench/fuzz.py): programs a
user could hand lower-tc, valid and not.

Five families, each a strategy of `Program` (the text and what it was made from):

* `matmul_programs`: one `tc.matmul` kernel, coherent (a type pair, accumulator and
  layout the hardware has, options in range: many are accepted, and their launch
  metadata is checked) with at most one thing made odd: a size (0, 1, primes, past 2^31,
  2^32, 2^40; static or known at launch, `?`), the layout, a leading dimension (also past
  TMA's stride limit), an offset, a memory space, the type pair (the 4- and 6-bit ones
  too), the accumulator, D's type, C, the configuration (outside the valid space), an
  option (dialects/tc_schedule.py, GEMM_OPTIONS: out of range or of the wrong type), the
  kernel's name, the target (both targets otherwise), a kernel attribute, the shapes.
* `loop_programs`: the loop level `tc-expand-matmul` writes for a coherent matmul, then
  mutated: the grid, a constant, a coordinate, D's shape, the #tc.gemm_schedule
  attribute, a line dropped or repeated.
* `tile_programs`: single-tile kernels as bench/sweep.py writes them (wgmma, tcgen05,
  wmma), from the valid space and with any field out of it, some with kernel attributes
  a single-tile kernel has no use for (tc.grid, tc.schedule).
* `attention_programs`: one `tc.attention` kernel, coherent with at most one thing made
  odd: a length, batch or head count at an edge, the head dim, the types, the layout, a
  stride, an offset, a size known only at launch, the scale, the log-sum-exp, a
  descaling factor, the target, an op beside it.
* `mutated_programs`: bytes of a valid program (an example or a generated one) with
  deletions, duplications, number and identifier swaps, truncation, invalid UTF-8 and
  deep nesting.

Strategies only build text; tests/fuzz_promise.py runs it and checks the promise.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import sweep  # noqa: E402  (bench/sweep.py writes the valid single-tile programs)

from lower_tc.layout import Arch, LayoutError  # noqa: E402
from lower_tc.layout.gemm import GemmConfig, config_problem, gemm_valid_n  # noqa: E402

TARGETS = ("sm_90a", "sm_100a")


@dataclass(frozen=True)
class Program:
    """A generated input: its text (bytes for the mutated family, which may not be
    UTF-8), the family, and a short note of what it was made from (shown on failure)."""

    family: str
    data: bytes
    note: str = ""
    #: Facts a compiled kernel must agree with (GEMM sizes, known when static).
    expect: dict = field(default_factory=dict, compare=False, hash=False)
    #: A single-tile kernel with a kernel attribute it has no use for, and the text without it.
    unused_attr: tuple[str, str] | None = None

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example
        return f"Program({self.family}, {self.note!r},\n{self.data.decode('utf-8', 'backslashreplace')})"


# -- numbers ---------------------------------------------------------------------------------

#: Sizes at the edges of what lower-tc's kernels compute with: 32-bit indices (2^31 - 1),
#: .u32 size parameters (2^32 - 1), TMA's dimensions (2^32) and strides (2^40 bytes).
EDGE_SIZES = (
    0, 1, 2, 3, 5, 7, 8, 13, 15, 16, 17, 31, 61, 63, 64, 65, 127, 128, 129, 251, 255, 256, 257,
    1009, 4093, 4096, 65535, 65536, 65537, 8388736,
    2**31 - 1, 2**31, 2**31 + 64, 2**32 - 1, 2**32, 2**32 + 64, 2**40, 2**40 + 64, 2**62, 2**63 - 1,
)
#: Integers for options, configurations and constants: the edges of every width.
EDGE_INTS = (
    -(2**63), -(2**31), -1, 0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 24, 32, 48, 64, 96, 128, 192, 256,
    512, 1024, 65535, 65536, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**40, 2**63 - 1, 2**64,
)


def sizes() -> st.SearchStrategy[int]:
    """A matrix size: mostly ordinary (so programs are accepted), sometimes an edge."""
    return st.one_of(
        st.sampled_from((64, 128, 256, 512, 1024, 2048, 4096)),
        st.integers(1, 4096),
        st.integers(1, 600).map(lambda n: 16 * n),
        st.sampled_from(EDGE_SIZES),
    )


def edge_ints() -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(EDGE_INTS), st.integers(-300, 300))


# -- tc.matmul -------------------------------------------------------------------------------

#: Element type names in MLIR text -> lower-tc's names (None: not a tensor-core type).
ELEMENT_TEXT = {
    "bf16": "bf16", "f16": "f16", "tf32": "tf32", "f32": "f32",
    "f8E4M3FN": "e4m3", "f8E5M2": "e5m2", "f6E2M3FN": "e2m3", "f6E3M2FN": "e3m2", "f4E2M1FN": "e2m1",
    "i8": "s8", "si8": "s8", "ui8": "u8", "i32": "s32", "si32": "s32",
    "f64": None, "i16": None, "i1": None, "index": None, "f8E4M3FNUZ": None,
}
#: Bits of each operand type in global memory (4/6-bit types packed).
BITS = {"bf16": 16, "f16": 16, "tf32": 32, "f32": 32, "e4m3": 8, "e5m2": 8, "e2m3": 6, "e3m2": 6,
        "e2m1": 4, "s8": 8, "u8": 8, "s32": 32}
TEXT_OF = {"bf16": "bf16", "f16": "f16", "tf32": "tf32", "f32": "f32", "e4m3": "f8E4M3FN",
           "e5m2": "f8E5M2", "e2m3": "f6E2M3FN", "e3m2": "f6E3M2FN", "e2m1": "f4E2M1FN",
           "s8": "i8", "u8": "ui8", "s32": "i32"}

#: Coherent (A, B, accumulators) per target: what each tensor core multiplies.
PAIRS = {
    "sm_90a": (
        ("bf16", "bf16", ("f32",)), ("f16", "f16", ("f32", "f16")), ("tf32", "tf32", ("f32",)),
        ("e4m3", "e4m3", ("f32", "f16")), ("e5m2", "e5m2", ("f32", "f16")), ("e4m3", "e5m2", ("f32",)),
        ("e5m2", "e4m3", ("f16",)), ("s8", "s8", ("s32",)), ("u8", "u8", ("s32",)), ("s8", "u8", ("s32",)),
    ),
    "sm_100a": (
        ("bf16", "bf16", ("f32",)), ("f16", "f16", ("f32", "f16")), ("tf32", "tf32", ("f32",)),
        ("e4m3", "e4m3", ("f32", "f16")), ("e5m2", "e4m3", ("f32",)), ("s8", "s8", ("s32",)),
        ("u8", "s8", ("s32",)),
    ),
}
#: The 4- and 6-bit pairs the tcgen05 tensor core has; tc.matmul refuses them at the op
#: (issue 19: end to end or refused), so they are drawn as an odd type pair.
NARROW_PAIRS = (("e2m1", "e2m1"), ("e2m3", "e2m3"), ("e3m2", "e3m2"), ("e2m1", "e4m3"))
D_TYPES = ("f32", "f16", "bf16", "i32", "si32", "f8E4M3FN", "f64", "i8")


@dataclass(frozen=True)
class MatrixSpec:
    """One global matrix: rows x cols of `element`, row- or column-major, its leading
    dimension `ld` (elements), each size static or `?`, an optional offset and memory space."""

    rows: int
    cols: int
    element: str
    row_major: bool = True
    ld: int | None = None  # None: dense
    dyn_rows: bool = False
    dyn_cols: bool = False
    dyn_ld: bool = False
    offset: int | None = None
    space: int | None = None

    def type(self) -> str:
        dims = f"{'?' if self.dyn_rows else self.rows}x{'?' if self.dyn_cols else self.cols}x{self.element}"
        extra = ""
        ld_given = self.ld is not None or self.dyn_ld or self.offset is not None
        if ld_given or not self.row_major:
            dense = self.cols if self.row_major else self.rows
            ld = "?" if self.dyn_ld else str(self.ld if self.ld is not None else dense)
            strides = f"[{ld}, 1]" if self.row_major else f"[1, {ld}]"
            off = f", offset: {self.offset}" if self.offset is not None else ""
            extra = f", strided<{strides}{off}>"
        space = f", {self.space}" if self.space is not None else ""
        return f"memref<{dims}{extra}{space}>"


def ordinary_sizes() -> st.SearchStrategy[int]:
    """A size a GEMM is usually given: from 1 to a few thousand."""
    return st.one_of(st.sampled_from((64, 128, 256, 512, 1024, 2048, 4096)), st.integers(1, 3000),
                     st.integers(1, 200).map(lambda n: 16 * n))


def _aligned_ld(dense: int, bits: int) -> int | None:
    """The leading dimension that makes rows of `dense` elements 16-byte aligned (None:
    they are already)."""
    if (dense * bits) % 128 == 0:
        return None
    step = 128 // math.gcd(128, bits)  # elements per whole number of 16 bytes
    return -(-dense // step) * step


@st.composite
def matrices(draw, rows: int, cols: int, dtype: str, k_rows: bool, odd: str = "") -> MatrixSpec:
    """A matrix of `dtype` in a layout the hardware reads: K-contiguous (the layout every
    type takes; `k_rows`: K runs along the rows), either way for 16-bit types; rows
    padded to 16 bytes; some sizes known only at launch. `odd` names one thing to get
    wrong: "layout" (any major-ness), "ld" (an odd or huge leading dimension), "offset",
    "space" (a memory space)."""
    element = TEXT_OF.get(dtype, dtype)
    bits = BITS.get(dtype, 8)
    row_major = not k_rows
    if bits == 16 or odd == "layout":
        row_major = draw(st.booleans())
    dense = cols if row_major else rows
    ld = _aligned_ld(dense, bits)
    if draw(st.integers(0, 5)) == 0:  # padded by whole 16-byte steps: still aligned
        ld = (ld or dense) + (128 // math.gcd(128, bits)) * draw(st.sampled_from((1, 4, 8)))
    if odd == "ld":
        ld = draw(st.sampled_from((0, 1, dense - 1, dense + 1, 2**31 - 1, 2**31, 2**32, 2**37, 2**40, 2**40 + 64)))
    dyn = draw(st.sampled_from(("", "", "", "", "rows", "cols", "both", "all")))
    return MatrixSpec(
        rows, cols, element, row_major, ld,
        dyn_rows=dyn in ("rows", "both", "all"), dyn_cols=dyn in ("cols", "both", "all"),
        dyn_ld=dyn == "all" and draw(st.booleans()),
        offset=draw(st.sampled_from((0, 8, 5, 2**31))) if odd == "offset" else None,
        space=draw(st.sampled_from((1, 3, 4, 5))) if odd == "space" else None,
    )


CONFIG_SPACE = {
    "sm_90a": dict(bm=(64, 128, 192, 256), bn=tuple(range(8, 257, 8)), bk=(16, 32, 64, 128, 256)),
    "sm_100a": dict(bm=(128,), bn=tuple(range(16, 257, 16)), bk=(16, 32, 64, 128, 256)),
}


@st.composite
def configs(draw, target: str, odd: bool, a: str = "bf16", b: str = "bf16", acc: str = "f32") -> GemmConfig | None:
    """A configuration: none (the chooser's) or one the types can run (BN the MMA's N or
    320, two wgmmas; BK whole K-slices, as many stages as fit shared memory); with `odd`,
    any four integers."""
    if odd:
        return GemmConfig(*(draw(edge_ints()) for _ in range(4)))
    if draw(st.booleans()):
        return None
    space = CONFIG_SPACE.get(target, CONFIG_SPACE["sm_90a"])
    bm = draw(st.sampled_from(space["bm"]))
    bn = draw(st.sampled_from(gemm_valid_n(a) if target == "sm_90a" else space["bn"]))  # 320: two wgmmas
    slice_elems = 256 // BITS.get(a, 8)  # a K-slice is 32 bytes
    bk = draw(st.sampled_from([k for k in space["bk"] if k % slice_elems == 0] or [slice_elems]))
    config = GemmConfig(bm, bn, bk, draw(st.integers(2, 6)))
    arch = Arch.SM100A if target == "sm_100a" else Arch.SM90A
    try:  # fewer stages, then a shorter BK, until they fit
        while config_problem(config, a, b, acc, arch) is not None and (config.stages > 2 or config.bk > slice_elems):
            smaller = (config.stages - 1, config.bk) if config.stages > 2 else (2, config.bk // 2)
            config = GemmConfig(bm, bn, smaller[1], smaller[0])
    except LayoutError:  # not a tensor-core type (an odd type pair): the op refuses it
        pass
    return config


def config_text(c: GemmConfig) -> str:
    return f"#tc.gemm_config<bm = {c.bm}, bn = {c.bn}, bk = {c.bk}, stages = {c.stages}>"


#: Each GEMM option's values as written: (in range, out of range or of the wrong type).
#: (A bare `persistent` is a unit attribute: tc.matmul's attr-dict says `persistent = true`.)
OPTION_VALUES = {
    "schedule": (('"pipelined"', '"warp_specialized"'), ('"stream_k"', '""', "1", "true")),
    "raster": (("0", "1", "4", "8", "16"), ("-1", "2147483648", "1099511627776", "18446744073709551616", '"8"', "true")),
    "persistent": (("true", "false"), ("1", '"yes"', None)),
    "mma_depth": (("1", "2", "3"), ("0", "15", "16", "-1", "true")),
    "cluster": (("1", "2"), ("0", "3", "4", "8", "true")),
    "epilogue": (('"tma"', '"registers"'), ('"smem"', "1")),
    "l2_promotion": (("0", "64", "128", "256"), ("32", "512", '"256"')),
}


@dataclass(frozen=True)
class ProblemFacts:
    """What the options in range depend on: the sizes known at compile time, the
    configuration's tile rows and stages (None: the chooser's)."""

    static: bool = True  # M and N known at compile time
    d_static: bool = True  # D's sizes too (the TMA-store epilogue's tensor map is built at compile time)
    k_static: bool = True
    tile_rows: int | None = None
    stages: int | None = None


@st.composite
def option_dicts(draw, odd: bool, target: str = "sm_90a", facts: ProblemFacts = ProblemFacts()) -> str:
    """tc.matmul's attr-dict: a few options with values in range for the program
    (warp-specialised where an option needs it; persistent and clusters only where the
    sizes are known; the TMA-store epilogue and mma_depth on sm_90a only); with `odd`, one
    value out of range or of the wrong type, an unknown name, or another dialect's attribute."""
    wgmma = target != "sm_100a"
    known = ["l2_promotion", "raster", "schedule"]
    known += ["epilogue"] + (["mma_depth"] if wgmma and (facts.stages or 3) > 2 else [])
    if facts.static and (facts.k_static or not wgmma):
        known.append("persistent")
    if facts.static and facts.tile_rows is not None and facts.tile_rows % 2 == 0:
        known.append("cluster")
    names = draw(st.lists(st.sampled_from(sorted(known)), max_size=3, unique=True))
    entries = {}
    for name in names:
        values = OPTION_VALUES[name][0]
        if name == "epilogue" and not (wgmma and facts.d_static):
            values = ('"registers"',)  # TMA stores need D's sizes; the tcgen05 GEMM stores from tensor memory
        elif name == "mma_depth":
            values = values[: (facts.stages or 3) - 1]  # 1 to stages - 1
        entries[name] = f"{name} = {draw(st.sampled_from(values))}"
    if {"persistent", "mma_depth", "cluster"} & set(names):
        entries["schedule"] = 'schedule = "warp_specialized"'
    if entries.get("persistent") == "persistent = true" or entries.get("cluster") == "cluster = 2":
        # a persistent kernel walks the tiles in groups; a cluster pairs rows of a group
        entries["raster"] = "raster = 8"
    if odd:
        kind = draw(st.sampled_from(("value", "value", "name")))
        if kind == "value":
            name = draw(st.sampled_from(sorted(OPTION_VALUES)))
            value = draw(st.sampled_from(OPTION_VALUES[name][1]))
            entries[name] = name if value is None else f"{name} = {value}"
        else:
            extra = draw(st.sampled_from(("foo.bar = 1", "sched = 1", "tc.raster = 2", "persistent = true, persistent = false")))
            entries[extra] = extra
    return "{" + ", ".join(entries.values()) + "}" if entries else ""


#: Kernel names: ordinary, and some that are not PTX identifiers or are PTX's words.
ODD_NAMES = ('"a-b"', '"1x"', '"a.b"', "entry", "_", "$x", '"\\u00e9"', "k" * 300, "ret", "reg", '"a b"', '""')
#: What one perturbation of a coherent matmul changes.
ODDITIES = ("size", "size", "size", "layout", "ld", "offset", "space", "types", "acc", "d_type", "c", "config",
            "option", "name", "target", "attr", "shape")


@st.composite
def matmul_programs(draw, odd: str | None = None) -> Program:
    """One tc.matmul kernel: coherent (a type pair, accumulator and layout the hardware
    has, sizes of 1 to a few thousand, options in range) with at most one thing made odd
    (`odd`, or drawn): a size at an edge (0, 1, primes, past 2^31, 2^32, 2^40), the layout,
    the leading dimension, an offset, a memory space, the types, the accumulator, D's
    type, C, the configuration, an option, the kernel's name, the target, a kernel
    attribute, the shapes' agreement."""
    if odd is None:
        odd = draw(st.sampled_from(("",) * 5 + ODDITIES))
    target = draw(st.sampled_from(TARGETS))
    sizes_of = lambda: draw(sizes()) if odd == "size" else draw(ordinary_sizes())  # noqa: E731
    m, n, k = sizes_of(), sizes_of(), sizes_of()
    a, b, accs = draw(st.sampled_from(PAIRS[target]))
    acc = draw(st.sampled_from(accs))
    d = {"f32": draw(st.sampled_from(("f32", "f32", "bf16", "f16"))), "f16": "f16", "s32": "i32"}[acc]
    acc_kw = draw(st.sampled_from((None, acc)))
    if odd == "types" and draw(st.booleans()):
        a, b = draw(st.sampled_from(NARROW_PAIRS))
    elif odd == "types":
        a = ELEMENT_TEXT[draw(st.sampled_from(sorted(ELEMENT_TEXT)))] or draw(st.sampled_from(("f64", "i16", "index")))
        b = a if draw(st.booleans()) else (ELEMENT_TEXT[draw(st.sampled_from(sorted(ELEMENT_TEXT)))] or "f64")
    elif odd == "acc":
        acc_kw = draw(st.sampled_from(("f32", "f16", "s32", "bf16", "i32", "tf32", "f64", "e4m3")))
    elif odd == "d_type":
        d = draw(st.sampled_from(D_TYPES))
    layout_odd = odd if odd in ("layout", "ld", "offset", "space") else ""
    which = draw(st.sampled_from("ABD")) if layout_odd else ""
    A = draw(matrices(m, k, a, k_rows=False, odd=layout_odd if which == "A" else ""))
    B = draw(matrices(k, n, b, k_rows=True, odd=layout_odd if which == "B" else ""))
    D = draw(matrices(m, n, d, k_rows=False, odd=layout_odd if which == "D" else ""))
    if which != "D" or odd != "layout":
        D = MatrixSpec(D.rows, D.cols, D.element, True, _aligned_ld(n, BITS.get(ELEMENT_TEXT.get(d) or "", 32)),
                       D.dyn_rows, D.dyn_cols, False, D.offset, D.space)
    if odd == "shape":
        which_shape = draw(st.sampled_from(("A", "B", "D")))
        other = draw(ordinary_sizes())
        if which_shape == "A":
            A = MatrixSpec(A.rows, other, A.element, A.row_major, A.ld)
        elif which_shape == "B":
            B = MatrixSpec(other, B.cols, B.element, B.row_major, B.ld)
        else:
            D = MatrixSpec(other, D.cols, D.element, True, D.ld)
    C = None
    if draw(st.integers(0, 3)) == 0 or odd == "c":
        c_type = draw(st.sampled_from(("f32", d, "f16", "i32"))) if odd == "c" else d
        rows = draw(ordinary_sizes()) if odd == "c" and draw(st.booleans()) else m
        C = MatrixSpec(rows, n, c_type, True, D.ld, D.dyn_rows, D.dyn_cols)
    acc_name = acc_kw if acc_kw in ("f32", "f16", "s32") else acc
    cfg = draw(configs(target, odd == "config", a, b, acc_name))
    config = config_text(cfg) if cfg is not None else None
    facts = ProblemFacts(
        static=not (A.dyn_rows or B.dyn_cols or D.dyn_rows or D.dyn_cols),
        d_static=not (D.dyn_rows or D.dyn_cols),
        k_static=not (A.dyn_cols or B.dyn_rows),
        tile_rows=-(-m // cfg.bm) if cfg is not None and cfg.bm > 0 else None,
        stages=cfg.stages if cfg is not None else None,
    )
    options = draw(option_dicts(odd == "option", target, facts))
    name = draw(st.sampled_from(ODD_NAMES)) if odd == "name" else "g"
    target_text = f'"{target}"'
    if odd == "target":
        target_text = draw(st.sampled_from(('"sm_80"', "90", '"sm_90"', '"sm_100a "', '"SM_90A"', "[]")))
    attrs = f"tc.target = {target_text}"
    if odd == "attr":
        attrs += draw(st.sampled_from((", tc.grid = [1, 1, 1]", ", tc.grid = [2, 70000, 1]",
                                       ", tc.schedule = #tc.gemm_schedule<pipelined>", ", tc.cluster = 2", ", foo.bar")))
    args = [f"%A: {A.type()}", f"%B: {B.type()}", f"%D: {D.type()}"] + ([f"%C: {C.type()}"] if C else [])
    types = [A.type(), B.type(), D.type()] + ([C.type()] if C else [])
    op = "tc.matmul %A, %B to %D"
    if C:
        op += " plus %C"
    if acc_kw:
        op += f" acc {acc_kw}"
    if config:
        op += f" config {config}"
    if options:
        op += f" {options}"
    text = (
        f"func.func @{name}({', '.join(args)}) attributes {{{attrs}}} {{\n"
        f"  {op} : {', '.join(types)}\n"
        "  func.return\n}\n"
    )
    expect = {"m": None if A.dyn_rows else A.rows, "n": None if B.dyn_cols else B.cols, "k": None if A.dyn_cols else A.cols}
    # NVPTX's address spaces: 1 global, 3 shared, 4 constant, 5 local (0: generic)
    spaces = [f"{x} in memory space {spec.space}" for x, spec in (("A", A), ("B", B), ("D", D)) if spec.space in (3, 4, 5)]
    if spaces:
        expect["refused"] = f"{spaces[0]}: a kernel argument is global memory"
    note = f"matmul {target} {a}x{b}->{d} M={m} N={n} K={k}" + (f", odd {odd}" if odd else "")
    return Program("matmul", text.encode(), note, expect=expect)


# -- tc.attention ----------------------------------------------------------------------------

#: What one perturbation of a coherent attention changes.
ATTENTION_ODDITIES = ("size", "size", "heads", "head_dim", "types", "o_type", "layout", "stride", "offset", "dynamic",
                      "space", "scale", "lse", "descale", "target", "beside", "shapes")
#: Sizes at the edges of the attention kernel's grid (y and z up to 65535) and 32-bit indices.
ATTENTION_EDGES = (0, 1, 63, 65, 127, 129, 4097, 65535, 65536, 70000, 2**30, 2**30 + 1, 2**31 - 1, 2**31, 2**32)


@dataclass(frozen=True)
class AttentionTensor:
    """One (batch, heads, sequence, head dim) tensor of tc.attention (3-d without the batch):
    BHSD dense, BSHD (`strided<[S*H*D, D, H*D, 1]>`), or V^T in memory (its keys
    contiguous, 8-bit V); `strides` given replaces the layout's, `dynamic` the dims that
    are `?`."""

    dims: tuple[int, ...]
    element: str
    layout: str = "bhsd"  # bhsd | bshd | keys
    strides: tuple[int | None, ...] | None = None
    dynamic: tuple[int, ...] = ()
    offset: int | None = None
    space: int | None = None

    def layout_strides(self) -> tuple[int, ...]:
        *outer, s, d = self.dims
        h = outer[-1]
        if self.layout == "bshd":
            inner = (d, h * d, 1)
        elif self.layout == "keys":  # V^T, its rows (the keys) padded to 16 bytes as TMA needs
            bits = 8 if self.element.startswith("f8") else 16
            sp = -(-s * bits // 128) * 128 // bits
            inner = (sp * d, 1, sp)
        else:
            inner = (s * d, d, 1)
        return ((s * h * d,) if len(outer) == 2 else ()) + inner

    def type(self) -> str:
        dims = "x".join("?" if i in self.dynamic else str(n) for i, n in enumerate(self.dims))
        extra = ""
        strides = self.strides if self.strides is not None else (
            None if self.layout == "bhsd" and self.offset is None else self.layout_strides())
        if strides is not None:
            shown = ", ".join("?" if x is None else str(x) for x in strides)
            off = f", offset: {self.offset}" if self.offset is not None else ""
            extra = f", strided<[{shown}]{off}>"
        space = f", {self.space}" if self.space is not None else ""
        return f"memref<{dims}x{self.element}{extra}{space}>"


@st.composite
def attention_programs(draw, odd: str | None = None) -> Program:
    """One tc.attention kernel (docs/attention.md, "The op level"): coherent (bf16, f16 or
    8-bit Q, K, V; head dims 64, 128, 256; K/V heads dividing Q's; BHSD or BSHD; causal
    or not, a scale, the log-sum-exp, fp8's descaling factors) with at most one thing made
    odd (`odd`, or drawn): a sequence length, batch or head count at an edge (0, ragged,
    past the grid's 65535, past 2^31), the head dim, the types, O's type, the layout, a
    stride (not 16-byte aligned, the head dim not contiguous), an offset, a size known
    only at launch, a memory space, the scale (0, negative, inf, nan), the log-sum-exp's
    shape, a descaling factor, the target, an op beside it, the shapes' agreement."""
    if odd is None:
        odd = draw(st.sampled_from(("",) * 6 + ATTENTION_ODDITIES))
    rank4 = draw(st.booleans())
    ordinary = lambda: draw(st.one_of(st.sampled_from((64, 128, 256, 1000, 4096)), st.integers(1, 3000)))  # noqa: E731
    sq, sk = ordinary(), ordinary()
    if odd == "size":
        if draw(st.booleans()):
            sq = draw(st.sampled_from(ATTENTION_EDGES))
        else:
            sk = draw(st.sampled_from(ATTENTION_EDGES))
    batch = draw(st.integers(1, 4)) if rank4 else 1
    heads = draw(st.sampled_from((1, 2, 4, 8, 12, 16, 32)))
    group = draw(st.sampled_from([g for g in (1, 2, 4, 8) if heads % g == 0]))
    kv_heads = heads // group
    if odd == "heads":
        which = draw(st.sampled_from(("heads", "kv", "batch") if rank4 else ("heads", "kv")))
        if which == "heads":
            heads = draw(st.sampled_from(ATTENTION_EDGES[1:]))
            kv_heads = draw(st.sampled_from((1, heads)))
        elif which == "kv":
            kv_heads = draw(st.sampled_from((3, 5, heads + 1, 0, 65536)))
        else:
            batch = draw(st.sampled_from(ATTENTION_EDGES[1:]))
    d = draw(st.sampled_from((64, 128, 256)))
    if odd == "head_dim":
        d = draw(st.sampled_from((0, 1, 16, 32, 48, 80, 96, 192, 512)))
    dtype = draw(st.sampled_from(("bf16", "bf16", "f16", "f8E4M3FN", "f8E5M2")))
    fp8 = dtype.startswith("f8")
    o_type = draw(st.sampled_from(("bf16", "f16"))) if fp8 else dtype
    k_type = v_type = dtype
    if odd == "types":
        k_type = draw(st.sampled_from(("bf16", "f16", "f32", "f8E4M3FN", "f8E5M2", "i8", "f64")))
        if draw(st.booleans()):
            dtype = k_type = v_type = draw(st.sampled_from(("f32", "i8", "tf32", "f6E2M3FN", "f4E2M1FN", "f8E4M3FNUZ")))
    elif odd == "o_type":
        o_type = draw(st.sampled_from(("f32", "f8E4M3FN", "bf16", "f16", "i8")))
    layout = draw(st.sampled_from(("bhsd", "bshd")))
    v_layout = draw(st.sampled_from((layout, "keys"))) if fp8 else layout
    if odd == "layout":
        v_layout = "keys"  # V^T for 16-bit types: refused
        if draw(st.booleans()):
            layout = v_layout = "keys"
    q_dims = ((batch,) if rank4 else ()) + (heads, sq, d)
    kv_dims = ((batch,) if rank4 else ()) + (kv_heads, sk, d)
    Q = AttentionTensor(q_dims, dtype, layout)
    K = AttentionTensor(kv_dims, k_type, layout)
    V = AttentionTensor(kv_dims, v_type, v_layout)
    O = AttentionTensor(q_dims, o_type, layout)
    tensors = {"Q": Q, "K": K, "V": V, "O": O}
    which = draw(st.sampled_from(sorted(tensors)))
    t = tensors[which]
    if odd == "stride":
        strides = list(t.layout_strides())
        i = draw(st.integers(0, len(strides) - 1))
        strides[i] = draw(st.sampled_from((1, 3, strides[i] + 1, strides[i] * 2, 0, -strides[i] or -1, 2**40, 2**41)))
        tensors[which] = AttentionTensor(t.dims, t.element, t.layout, tuple(strides))
    elif odd == "offset":
        tensors[which] = AttentionTensor(t.dims, t.element, t.layout, offset=draw(st.sampled_from((8, 64, 1))))
    elif odd == "dynamic":
        dims = draw(st.lists(st.integers(0, len(t.dims) - 1), min_size=1, max_size=2, unique=True))
        tensors[which] = AttentionTensor(t.dims, t.element, t.layout, dynamic=tuple(dims))
    elif odd == "space":
        tensors[which] = AttentionTensor(t.dims, t.element, t.layout, space=draw(st.sampled_from((1, 3, 4, 5))))
    elif odd == "shapes":
        dims = list(t.dims)
        i = draw(st.integers(0, len(dims) - 1))
        dims[i] = dims[i] + draw(st.sampled_from((1, -1, 64))) or 2
        tensors[which] = AttentionTensor(tuple(dims), t.element, t.layout)
        if draw(st.integers(0, 3)) == 0:  # a rank of its own
            tensors[which] = AttentionTensor(tuple(dims[1:]) if len(dims) == 4 else (1, *dims), t.element, t.layout)
    Q, K, V, O = (tensors[w] for w in ("Q", "K", "V", "O"))
    causal = draw(st.booleans())
    scale = draw(st.sampled_from((None, None, "0.125", "0.0883883")))  # MLIR float literals (a point, an exponent)
    if odd == "scale":
        scale = draw(st.sampled_from(("0.0", "-0.125", "1.0e+38", "1.0e-38", "0x7F800000", "0x7FC00000", "0xFF800000")))
    lse = None
    if draw(st.integers(0, 2)) == 0 or odd == "lse":
        want = ((batch,) if rank4 else ()) + (heads, sq)
        lse = "memref<" + "x".join(map(str, want)) + "xf32>"
        if odd == "lse":
            lse = draw(st.sampled_from((
                "memref<" + "x".join(map(str, want[:-1] + (sq + 1,))) + "xf32>",
                "memref<" + "x".join(map(str, want)) + "xbf16>",
                "memref<" + "x".join(map(str, want)) + "xf32, strided<[" + ", ".join(["?"] * len(want)) + "]>>",
                f"memref<{sq}xf32>")))
    descale: dict[str, str] = {}
    if fp8 and draw(st.booleans()) or odd == "descale":
        want = f"memref<{batch}x{kv_heads}xf32>"
        for w in sorted(draw(st.lists(st.sampled_from(("q", "k", "v")), min_size=1, max_size=3, unique=True)), key="qkv".index):
            descale[w] = want
        if odd == "descale":
            w = next(iter(descale))
            descale[w] = draw(st.sampled_from((f"memref<{batch}x{heads + 1}xf32>", f"memref<{batch}x{kv_heads}xbf16>",
                                               f"memref<{kv_heads}xf32>", want)))
    target = draw(st.sampled_from(('"sm_90a"', '"sm_90a"', '"sm_100a"')))  # sm_100a: the tcgen05 loop (8-bit refused)
    if odd == "target":
        target = draw(st.sampled_from(('"sm_80"', '"sm_90"', '"sm_100"')))
    args = [f"%Q: {Q.type()}", f"%K: {K.type()}", f"%V: {V.type()}", f"%O: {O.type()}"]
    types = [Q.type(), K.type(), V.type(), O.type()]
    op = "tc.attention %Q, %K, %V to %O"
    if lse is not None:
        args.append(f"%L: {lse}")
        types.append(lse)
        op += " lse %L"
    for w, ty in descale.items():
        args.append(f"%{w.upper()}D: {ty}")
        types.append(ty)
        op += f" {w}_descale %{w.upper()}D"
    props = (["causal"] if causal else []) + ([f"scale = {scale} : f32"] if scale is not None else [])
    if props:
        op += " {" + ", ".join(props) + "}"
    body = f"  {op} : {', '.join(types)}\n"
    if odd == "beside":
        body += draw(st.sampled_from(("  %c0 = arith.constant 0 : index\n",
                                      "  tc.attention %Q, %K, %V to %O : " + ", ".join(types[:4]) + "\n")))
    text = (f"func.func @attn({', '.join(args)}) attributes {{tc.target = {target}}} {{\n"
            f"{body}  func.return\n}}\n")
    expect: dict = {}
    spaces = [f"{w} in memory space {x.space}" for w, x in (("Q", Q), ("K", K), ("V", V), ("O", O)) if x.space in (3, 4, 5)]
    if spaces:
        expect["refused"] = f"{spaces[0]}: a kernel argument is global memory"
    note = (f"attention {target.strip(chr(34))} {dtype}->{o_type} {'B=%d ' % batch if rank4 else ''}H={heads}/{kv_heads} Sq={sq} Sk={sk} D={d} "
            f"{layout}/{v_layout}{' causal' if causal else ''}" + (f", odd {odd} ({which})" if odd else ""))
    return Program("attention", text.encode(), note, expect=expect)


# -- the loop level --------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def expand(text: str) -> str | None:
    """The loop level tc-expand-matmul writes for `text`, or None where it refuses it."""
    from lower_tc.lowering.parse import parse, verify
    from lower_tc.passes import available_passes

    try:
        ctx, module = parse(text, "matmul.mlir")
        available_passes()["tc-expand-matmul"]()().apply(ctx, module)
        verify(module)
    except Exception:  # noqa: BLE001 - a refused matmul is simply not a seed (test_fuzz checks those)
        return None
    return str(module)


LOOP_EXAMPLE = (ROOT / "examples" / "gemm_bf16_loop.mlir").read_text()


def _grid_text(draw) -> str:
    kind = draw(st.integers(0, 5))
    if kind == 0:
        entries = [str(draw(edge_ints())) for _ in range(draw(st.sampled_from((0, 1, 2, 4))))]
    elif kind == 1:
        entries = [f"[{draw(st.integers(0, 3))}, {draw(st.integers(-1, 2))}, {draw(edge_ints())}]"] + ["1", "1"]
    else:
        entries = [str(draw(st.one_of(st.integers(1, 40), st.sampled_from(EDGE_SIZES)))) for _ in range(3)]
    return "[" + ", ".join(entries) + "]"


def _schedule_text(draw) -> str:
    parts = [draw(st.sampled_from(("pipelined", "warp_specialized", "warp_specialized", "stream_k")))]
    for key, values in (("persistent", (None,)), ("mma_depth", (1, 2, 3, 0, 15, 16)), ("cluster", (1, 2, 3)),
                        ("epilogue", ("tma", "registers", "smem")), ("l2_promotion", (0, 64, 256, 100))):
        if draw(st.integers(0, 2)) == 0:
            value = draw(st.sampled_from(values))
            parts.append(key if value is None else f"{key} = {value}")
    return f"#tc.gemm_schedule<{', '.join(parts)}>"


@st.composite
def loop_programs(draw) -> Program:
    """A loop-level GEMM (expanded from a coherent matmul, or the hand-written example)
    with one to three mutations."""
    seed = draw(matmul_programs(odd=draw(st.sampled_from(("", "", "", "size")))))
    text = expand(seed.text) if draw(st.integers(0, 3)) else None
    note = "loop from " + seed.note if text else "loop from examples/gemm_bf16_loop.mlir"
    if text is None:
        text = LOOP_EXAMPLE
        if draw(st.booleans()):  # D in f32: stored from registers (bf16 goes by TMA, which clips at D's edge)
            text = re.sub(r"%D: memref<4096x4096xbf16>|(?<=, )memref<4096x4096xbf16>$", lambda m: m.group().replace("bf16", "f32"),
                          text, flags=re.M)
            note += ", D in f32"
    lines = text.split("\n")
    done = []
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(("grid", "grid", "grid+1", "constant", "coordinate", "d_shape", "schedule", "drop",
                                     "repeat", "bounds")))
        body = [i for i, line in enumerate(lines) if line.startswith("    ") or line.startswith("  %") or line.startswith("  tc.")]
        if what == "grid":
            grid = _grid_text(draw)
            head = next(i for i, line in enumerate(lines) if "func.func" in line)
            if "tc.grid = " in lines[head]:
                lines[head] = re.sub(r"tc\.grid = \[(?:[^\[\]]|\[[^\]]*\])*\]", f"tc.grid = {grid}", lines[head])
            else:
                lines[head] = lines[head].replace('tc.target = "', f'tc.grid = {grid}, tc.target = "', 1)
            done.append(f"grid {grid}")
        elif what == "grid+1":  # one CTA row or column more than D has (issue 19's [16, 33, 1])
            head = next(i for i, line in enumerate(lines) if "func.func" in line)
            m = re.search(r"tc\.grid = \[(\d+)(?: : i64)?, (\d+)(?: : i64)?, (\d+)(?: : i64)?\]", lines[head])
            if m:
                axis = draw(st.integers(0, 1))
                grid = [int(g) for g in m.groups()]
                grid[axis] += 1
                lines[head] = lines[head][: m.start()] + f"tc.grid = [{grid[0]}, {grid[1]}, {grid[2]}]" + lines[head][m.end():]
                done.append(f"grid {grid}")
        elif what == "constant":
            consts = [i for i, line in enumerate(lines) if "arith.constant" in line and ": index" in line]
            if consts:
                i = draw(st.sampled_from(consts))
                value = draw(st.one_of(st.sampled_from(EDGE_SIZES), edge_ints()))
                lines[i] = re.sub(r"arith\.constant -?\d+", f"arith.constant {value}", lines[i])
                done.append(f"constant line {i + 1} = {value}")
        elif what == "coordinate":
            windows = [i for i, line in enumerate(lines) if "tc.window_" in line]
            names = sorted(set(re.findall(r"(%[A-Za-z_][\w]*|%\d+) = (?:arith|\"gpu)", text)))
            if windows and names:
                i = draw(st.sampled_from(windows))
                new = draw(st.sampled_from(names))
                slot = draw(st.integers(0, 1))
                m = re.search(r"\[([^,\]]+), ([^\]]+)\]", lines[i])
                if m:
                    parts = [m.group(1), m.group(2)]
                    parts[slot] = new
                    lines[i] = lines[i][: m.start()] + f"[{parts[0]}, {parts[1]}]" + lines[i][m.end():]
                    done.append(f"coordinate {slot} of line {i + 1} = {new}")
        elif what == "d_shape":
            m = re.search(r"%D: (memref<[^>]*(?:<[^>]*>[^>]*)?>)", lines[next(i for i, ln in enumerate(lines) if "func.func" in ln)])
            if m:
                old = m.group(1)
                rows, cols = draw(sizes()), draw(sizes())
                new = re.sub(r"memref<[^x]+x[^x]+x", f"memref<{rows}x{cols}x", old, count=1)
                lines = [line.replace(old, new) for line in lines]
                done.append(f"D {new}")
        elif what == "schedule":
            sched = _schedule_text(draw)
            head = next(i for i, line in enumerate(lines) if "func.func" in line)
            if "tc.schedule = " in lines[head]:
                lines[head] = re.sub(r"tc\.schedule = #tc\.gemm_schedule<[^>]*>", f"tc.schedule = {sched}", lines[head])
            else:
                lines[head] = lines[head].replace('tc.target = "', f'tc.schedule = {sched}, tc.target = "', 1)
            done.append(f"schedule {sched}")
        elif what in ("drop", "repeat") and body:
            i = draw(st.sampled_from(body))
            if what == "drop":
                done.append(f"dropped line {i + 1}: {lines[i].strip()}")
                del lines[i]
            else:
                lines.insert(i, lines[i])
                done.append(f"repeated line {i + 1}")
        elif what == "bounds":
            fors = [i for i, line in enumerate(lines) if "scf.for" in line]
            names = sorted(set(re.findall(r"(%[A-Za-z_][\w]*|%\d+) = arith.constant", text)))
            if fors and names:
                i = draw(st.sampled_from(fors))
                slot = draw(st.sampled_from(("lb", "ub", "step")))
                new = draw(st.sampled_from(names))
                m = re.search(r"= (%\S+) to (%\S+) step (%\S+)", lines[i])
                if m:
                    lb, ub, step = m.groups()
                    lb, ub, step = {"lb": (new, ub, step), "ub": (lb, new, step), "step": (lb, ub, new)}[slot]
                    lines[i] = lines[i][: m.start()] + f"= {lb} to {ub} step {step}" + lines[i][m.end():]
                    done.append(f"for {slot} = {new}")
    return Program("loop", "\n".join(lines).encode(), note + ("; " + "; ".join(done) if done else ""))


# -- single-tile kernels ---------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _valid_tiles() -> tuple:
    """Every configuration bench/sweep.py's sweeps run (valid by construction)."""
    return (tuple(sweep.all_configs()) + tuple(sweep.offset_configs()), tuple(sweep.tc5_configs()), tuple(sweep.WMMA_CASES))


@st.composite
def _wgmma_any(draw) -> str:
    """A wgmma tile program with any field drawn, legal or not."""
    dtype = draw(st.sampled_from(sorted(sweep.ELEMENT)))
    c = sweep.Config(
        dtype, draw(st.sampled_from(("k", "mn"))), draw(st.sampled_from(("k", "mn"))),
        draw(st.sampled_from(sweep.SWIZZLES + ("128b_base32b",))),
        draw(st.one_of(st.sampled_from(sweep.N_VALUES), st.integers(0, 300), st.sampled_from((512, 2**31, 2**32)))),
        draw(st.one_of(st.integers(1, 4), st.sampled_from((0, 5, 16, 2**20)))),
        draw(st.sampled_from(("mn_first", "k_first"))), draw(st.sampled_from(("threads", "tma"))),
        draw(st.booleans()), draw(st.sampled_from(sorted(sweep.ACC_ELEMENT))),
        b_dtype=draw(st.sampled_from(("",) * 6 + tuple(sorted(sweep.ELEMENT)))),
        a_offset=draw(st.sampled_from((-1,) * 6 + (0, 8, 128, 1024 + 128, 232448, 2**31))),
        b_offset=draw(st.sampled_from((-1, 24576, 16, 2**20))),
        relative=draw(st.booleans()),
        a_global=draw(st.sampled_from(("row", "col"))), b_global=draw(st.sampled_from(("row", "col"))),
        pad=draw(st.sampled_from((0,) * 4 + (4, 8, 64, 2**31, 2**40))),
    )
    if c.a_offset < 0:
        c = sweep.Config(**{**c.__dict__, "b_offset": -1})
    return sweep.program(c)


@st.composite
def _tc5_any(draw) -> str:
    dtype = draw(st.sampled_from(sorted(sweep.TC5_ELEMENT)))
    c = sweep.Tc5Config(
        dtype, draw(st.sampled_from((dtype,) * 3 + tuple(sorted(sweep.TC5_ELEMENT)))),
        draw(st.sampled_from((64, 128, 128, 256, 32, 0))),
        draw(st.sampled_from(("k", "mn"))), draw(st.sampled_from(("k", "mn"))),
        draw(st.sampled_from(sweep.TC5_SWIZZLES)),
        draw(st.one_of(st.sampled_from((8, 16, 24, 64, 256)), st.integers(0, 300))),
        draw(st.one_of(st.integers(1, 4), st.sampled_from((0, 8)))),
        draw(st.sampled_from(("threads", "tma"))), draw(st.booleans()),
        draw(st.sampled_from(("f32", "f16", "s32"))), draw(st.booleans()),
    )
    return sweep.tc5_program(c)


#: Kernel attributes a single-tile kernel has no use for: accepted, they must change the
#: PTX, or be refused (issue 19, "options that do nothing").
#: (Defaults such as tc.grid = [1, 1, 1] are left out: they may well change nothing.)
UNUSED_ATTRS = (
    "tc.grid = [2, 1, 1]", "tc.grid = [1, 4, 1]",
    "tc.schedule = #tc.gemm_schedule<warp_specialized, cluster = 2>",
    "tc.schedule = #tc.gemm_schedule<warp_specialized, persistent, mma_depth = 2>",
    "tc.schedule = #tc.gemm_schedule<pipelined, epilogue = registers>",
)


@st.composite
def tile_programs(draw) -> Program:
    """A single-tile kernel: a valid sweep configuration (half the time), or one with
    any field drawn; sometimes with a kernel attribute added."""
    wgmma, tc5, wmma = _valid_tiles()
    kind = draw(st.sampled_from(("wgmma", "wgmma", "tc5", "wmma", "wgmma_any", "tc5_any")))
    if kind == "wgmma":
        c = draw(st.sampled_from(wgmma))
        text, note = sweep.program(c), c.key
    elif kind == "tc5":
        c = draw(st.sampled_from(tc5))
        text, note = sweep.tc5_program(c), c.key
    elif kind == "wmma":
        case = draw(st.sampled_from(wmma))
        text, note = sweep.wmma_program(*case), "wmma-" + "-".join(case)
    elif kind == "wgmma_any":
        text, note = draw(_wgmma_any()), "wgmma, any fields"
    else:
        text, note = draw(_tc5_any()), "tcgen05, any fields"
    unused = None
    if draw(st.integers(0, 5)) == 0:
        attr = draw(st.sampled_from(UNUSED_ATTRS))
        with_attr = text.replace("attributes {", "attributes {" + attr + ", ", 1)
        unused = (attr, text)
        text, note = with_attr, f"{note} + {attr}"
    return Program("tile", text.encode(), note, unused_attr=unused)


# -- mutated text ----------------------------------------------------------------------------

EXAMPLES = tuple(sorted((ROOT / "examples").glob("*.mlir")))
#: Words a mutation swaps in: the syntax's keywords and names (and a few that are not).
WORDS = (
    "tc.matmul", "tc.wgmma", "tc.tcgen05_mma", "tc.copy", "tc.smem_tile", "tc.acc_zero", "tc.acc_store",
    "tc.window_load", "tc.window_store", "func.func", "func.return", "scf.for", "scf.yield", "arith.constant",
    "memref", "tile", "layout", "acc", "to", "as", "via", "tma", "plus", "config", "k", "mn", "a", "b",
    "swizzle", "auto", "none", "128b", "order", "k_first", "offset", "origin", "stages", "index", "bf16",
    "f16", "f32", "tf32", "i8", "f8E4M3FN", "f4E2M1FN", "sm_90a", "sm_100a", "tc.target", "tc.grid",
    "tc.schedule", "warp_specialized", "persistent", "a_in_registers", "a_in_tmem", "gpu.module", "%A", "%B",
    "%D", "%acc", "%k", "@k", "strided", "?", "attributes", "builtin.module", "x",
)
NESTING = ("[" * 200 + "]" * 200, "<" * 200 + ">" * 200, "{" * 200 + "}" * 200, "(" * 300 + ")" * 300,
           "array<i32: " * 150, "!tc.tile<" * 150)
JUNK = (b"\xff", b"\xc3\x28", b"\xe2\x82", b"\x00", b"\xed\xa0\x80", b"\xf0\x9f\x98\x80", b"\r", b"\t",
        b"\\", b'"', b"//", b"#", b"^bb0:", b"\xef\xbb\xbf", b"\x1b[31m")


@st.composite
def seed_texts(draw) -> tuple[bytes, str]:
    """A valid program to mutate: an example, or a generated coherent matmul or tile."""
    kind = draw(st.integers(0, 3))
    if kind <= 1:
        path = draw(st.sampled_from(EXAMPLES))
        return path.read_bytes(), f"examples/{path.name}"
    if kind == 2:
        p = draw(matmul_programs(odd=""))
        return p.data, p.note
    p = draw(tile_programs())
    return p.data, p.note


_TOKEN = re.compile(rb"-?\d+|[A-Za-z_%@#!^][\w.$]*|\S")


@st.composite
def mutated_programs(draw) -> Program:
    """A valid program's bytes with one to four mutations."""
    data, origin = draw(seed_texts())
    done = []
    for _ in range(draw(st.integers(1, 4))):
        what = draw(st.sampled_from(("delete", "duplicate", "number", "number", "word", "word", "truncate",
                                     "junk", "nest", "nest_attr", "swap_tokens")))
        if not data:
            break
        tokens = list(_TOKEN.finditer(data))
        if what == "delete":
            i = draw(st.integers(0, len(data) - 1))
            n = draw(st.integers(1, 40))
            data = data[:i] + data[i + n:]
        elif what == "duplicate":
            i = draw(st.integers(0, len(data) - 1))
            n = draw(st.integers(1, 120))
            data = data[: i + n] + data[i: i + n] + data[i + n:]
        elif what == "truncate":
            i = draw(st.integers(0, len(data) - 1))
            data = data[:i]
        elif what == "junk":
            i = draw(st.integers(0, len(data)))
            data = data[:i] + draw(st.sampled_from(JUNK)) + data[i:]
        elif what == "nest":
            i = draw(st.integers(0, len(data)))
            data = data[:i] + draw(st.sampled_from(NESTING)).encode() + data[i:]
        elif what == "nest_attr":  # deep nesting where an attribute is parsed
            depth = draw(st.sampled_from((50, 150, 400)))
            nested = draw(st.sampled_from(("[" * depth + "]" * depth, "[" * depth + "1" + "]" * depth,
                                           "{a = " * depth + "1" + "}" * depth)))
            data = data.replace(b"attributes {", b"attributes {foo.nest = " + nested.encode() + b", ", 1)
        elif what == "number":
            numbers = [t for t in tokens if re.fullmatch(rb"-?\d+", t.group())]
            if numbers:
                t = draw(st.sampled_from(numbers))
                new = str(draw(st.one_of(st.sampled_from(EDGE_SIZES), edge_ints()))).encode()
                data = data[: t.start()] + new + data[t.end():]
        elif what == "word":
            words = [t for t in tokens if re.fullmatch(rb"[A-Za-z_%@#!^][\w.$]*", t.group())]
            if words:
                t = draw(st.sampled_from(words))
                data = data[: t.start()] + draw(st.sampled_from(WORDS)).encode() + data[t.end():]
        elif what == "swap_tokens" and len(tokens) > 2:
            i, j = sorted(draw(st.lists(st.integers(0, len(tokens) - 1), min_size=2, max_size=2, unique=True)))
            ti, tj = tokens[i], tokens[j]
            data = data[: ti.start()] + tj.group() + data[ti.end(): tj.start()] + ti.group() + data[tj.end():]
        done.append(what)
    return Program("mutated", data, f"{origin} + {', '.join(done)}")


# -- whole modules ---------------------------------------------------------------------------

_DECLARATION = 'func.func private @decl(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"}\n'
_TWO_BLOCKS = (
    'func.func @two(%A: memref<64x64xbf16>) attributes {tc.target = "sm_90a"} {\n'
    "  cf.br ^bb1\n^bb1:\n  func.return\n}\n"
)
_PLAIN = "func.func @plain(%x: index) -> index {\n  func.return %x : index\n}\n"
_NOT_A_FUNCTION = '"test.op"() {tc.target = "sm_90a"} : () -> ()\n'


@st.composite
def module_programs(draw) -> Program:
    """A file of several pieces: kernels (some of one name), a declaration or a two-block
    function with tc.target, plain functions, comments, kernels in a gpu.module or a
    nested module; or an empty or comment-only file."""
    pieces, notes = [], []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(("matmul", "tile", "same name", "declaration", "two blocks", "plain",
                                     "comment", "gpu.module", "nested module", "not a function")))
        if kind in ("matmul", "tile", "same name", "gpu.module", "nested module"):
            if kind == "same name" and pieces:
                text = pieces[-1]
            else:
                p = draw(matmul_programs(odd="") if kind == "matmul" or draw(st.booleans()) else tile_programs())
                text = p.text
            if kind == "gpu.module":
                text = "gpu.module @m {\n" + text.replace("func.func", "gpu.func", 1).replace("func.return", "gpu.return") + "}\n"
            elif kind == "nested module":
                text = "builtin.module {\n" + text + "}\n"
        else:
            text = {"declaration": _DECLARATION, "two blocks": _TWO_BLOCKS, "plain": _PLAIN,
                    "comment": "// only a comment\n", "not a function": _NOT_A_FUNCTION}[kind]
        pieces.append(text)
        notes.append(kind)
    text = "".join(pieces)
    if draw(st.integers(0, 4)) == 0:
        text = "builtin.module {\n" + text + "}\n"
        notes.append("in a module")
    return Program("module", text.encode(), ", ".join(notes) or "empty file")


# -- pipelines -------------------------------------------------------------------------------

TC_PASSES = ("tc-expand-matmul", "tc-choose-swizzle", "tc-assign-smem", "tc-compute-descriptors",
             "tc-lower-to-ptx", "ptx-lower-loops")
PASS_OPTIONS = ("", "", "", "{remarks=true}", "{max=64b}", "{max=7b}", "{bogus=1}", "{remarks=maybe}", "{max=64b", "{", "}")
XDSL_PASSES = ("canonicalize", "cse", "dce", "convert-scf-to-cf", "scf-for-loop-unroll", "licm")


@st.composite
def pipelines(draw) -> str:
    """A -p pipeline: the default's passes, some left out, repeated or reordered, a few
    of xDSL's passes in between, some with options."""
    passes = list(TC_PASSES)
    for _ in range(draw(st.integers(1, 3))):
        what = draw(st.sampled_from(("drop", "swap", "insert", "option", "repeat")))
        i = draw(st.integers(0, len(passes) - 1)) if passes else 0
        if what == "drop" and passes:
            del passes[i]
        elif what == "swap" and len(passes) > 1:
            j = draw(st.integers(0, len(passes) - 1))
            passes[i], passes[j] = passes[j], passes[i]
        elif what == "insert":
            passes.insert(i, draw(st.sampled_from(XDSL_PASSES)))
        elif what == "option" and passes:
            passes[i] += draw(st.sampled_from(PASS_OPTIONS))
        elif what == "repeat" and passes:
            passes.insert(i, passes[i])
    return ",".join(passes)


__all__ = [
    "EDGE_SIZES", "Program", "expand", "loop_programs", "matmul_programs", "module_programs", "mutated_programs", "pipelines",
    "tile_programs",
]
