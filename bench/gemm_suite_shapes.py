"""The GEMM suite of issue 22: the shapes lower-tc's default kernel is measured on, beside
cuBLAS and JAX Mosaic GPU (bench/gemm_suite.py). Plain data, importable without torch,
JAX or xDSL.

D (M x N) = A (M x K) x B (K x N). For an LLM layer, A is the activations (M = tokens: 1 to
64 is decoding, memory-bound; 128 to 512 a small batch; 1024 and up a prefill) and B the
layer's weight (N = output features, K = input features; nn.Linear keeps it N x K). The
widths are those of published models (hidden, intermediate, fused projections):

- Llama-3.2-1B: hidden 2048, MLP 8192.
- Llama-2-7B: hidden 4096, MLP 11008, fused QKV 12288.
- Llama-3-8B: hidden 4096, MLP 14336, QKV 6144 (8 KV heads of 128).
- Llama-2-13B: hidden 5120, MLP 13824.
- Llama-3-70B: hidden 8192, MLP 28672, QKV 10240.
- DeepSeek-V3: hidden 7168, dense MLP 18432, expert MLP 2048, q_a_proj 1536, o_proj 16384 in.

Categories (each is a name the suite's `--category` filter takes):
- `decode`: LLM layers at M <= 64 (memory-bound: reported in GB/s as well).
- `batch`: LLM layers at M = 128 to 512 (a few dozen CTAs of 128 x 256 on 132 SMs).
- `prefill`: LLM layers at M = 1024 to 16384.
- `square`: 512 to 16384, powers of two and not (768, 1536, 3072, 5120, 6144, 8000, 12288).
- `long-k`: K much larger than M and N (K / max(M, N) >= 8).
- `ragged`: sizes that are not multiples of the tiles (M odd; N or K not multiples of 64, some
  not of 8: their operands get padded leading dimensions, bench/gemm_suite.py).
"""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ("decode", "batch", "prefill", "square", "long-k", "ragged")
#: Operand types, and bytes per element (D is bf16 in every case: 2 bytes).
DTYPES = {"bf16": 2, "e4m3": 1}
#: B's layouts: `linear` is nn.Linear's weight, W (N x K, K contiguous) with D = A W^T
#: (torch.nn.functional.linear; B = W.T is column-major); `rowmajor` is B (K x N, N
#: contiguous) with D = A B (torch.matmul). A is row-major in both.
LAYOUTS = ("linear", "rowmajor")
#: Combinations no contender runs, and why (the suite leaves them out).
NOT_RUN = {
    ("e4m3", "rowmajor"): "Hopper's fp8 wgmma reads B only K-major, and cuBLAS's fp8 (torch._scaled_mm) takes B "
                          "only column-major: fp8 runs with B as nn.Linear's weight",
}
#: Bytes of D's elements.
D_BYTES = 2
#: A small case's launches rotate through identical copies of its arrays, as many as make
#: ROTATE_BYTES of least traffic (2.5 x the H100's 50 MB L2, 2.1 x the H200's 60 MB), at most MAX_COPIES (under
#: lower_tc.matmul's cache of 64 prepared launches): so no launch finds its operands in L2
#: from its last one, as a model's next layer would not.
ROTATE_BYTES = 128 * 2**20
MAX_COPIES = 48


@dataclass(frozen=True)
class Shape:
    """One GEMM of the suite: its name (unique; the `--shapes` filter matches substrings of
    it), category, and sizes."""

    name: str
    category: str
    m: int
    n: int
    k: int

    @property
    def flops(self) -> float:
        return 2.0 * self.m * self.n * self.k

    @property
    def memory_bound(self) -> bool:
        """Issue 22 reports GB/s against the HBM peak where M <= 64."""
        return self.m <= 64


@dataclass(frozen=True)
class Case:
    """One measurement: a shape, its operands' type and B's layout."""

    shape: Shape
    dtype: str
    layout: str

    @property
    def min_bytes(self) -> int:
        """The least traffic a GEMM can make: A and B read once, D written once."""
        s, e = self.shape, DTYPES[self.dtype]
        return s.m * s.k * e + s.k * s.n * e + s.m * s.n * D_BYTES

    @property
    def copies(self) -> int:
        """How many identical sets of arrays the launches rotate through (ROTATE_BYTES)."""
        return max(1, min(MAX_COPIES, -(-ROTATE_BYTES // self.min_bytes)))

    def operands(self) -> dict[str, tuple[tuple[int, int], tuple[int, int], int]]:
        """Each array lower-tc and cuBLAS get, as (shape, strides in elements, rows of its
        storage): A (M x K, row-major), B (K x N: `linear`, the transposed view W.T of the
        N x K weight, strides (1, ld); `rowmajor`, strides (ld, 1)) and D (M x N, dense).
        An operand's leading dimension is padded to a multiple of 16 bytes (TMA's rule, which
        lower-tc's operands must keep) and the array is a view of its first columns: both
        libraries get the same views."""
        s, e = self.shape, DTYPES[self.dtype]
        a = ((s.m, s.k), (padded_ld(s.k, e), 1), s.m)
        if self.layout == "linear":
            b = ((s.k, s.n), (1, padded_ld(s.k, e)), s.n)
        else:
            b = ((s.k, s.n), (padded_ld(s.n, e), 1), s.k)
        return {"a": a, "b": b, "out": ((s.m, s.n), (s.n, 1), s.m)}

    @property
    def padded(self) -> bool:
        """Whether an operand's rows are padded (its view is not contiguous)."""
        ops = self.operands()
        return any(max(strides) != (shape[1] if strides[1] == 1 else shape[0])
                   for shape, strides, _ in (ops["a"], ops["b"]))

    @property
    def mosaic_skip(self) -> str | None:
        """Why JAX Mosaic GPU's Hopper matmul (issue 22's configuration: 128 x 128 per
        warpgroup, two warpgroups along N, tile_k 64) does not take this case, or None."""
        s = self.shape
        if self.dtype != "bf16":
            return "bf16 only (the issue's comparison)"
        if self.layout != "rowmajor":
            return "its kernel reads B as K x N row-major; a weight N x K would need a transposed copy"
        if s.m % MOSAIC_TILE[0] or s.n % MOSAIC_TILE[1] or s.k % MOSAIC_TILE[2]:
            return f"sizes not multiples of its tiles (M % {MOSAIC_TILE[0]}, N % {MOSAIC_TILE[1]}, K % {MOSAIC_TILE[2]})"
        return None


#: Mosaic GPU's CTA tile (M, N) and K step in issue 22's configuration: its kernel raises
#: a ValueError for sizes that are not multiples of them.
MOSAIC_TILE = (128, 256, 64)


def padded_ld(extent: int, element_bytes: int) -> int:
    """The least leading dimension of a multiple of 16 bytes holding `extent` elements."""
    per = 16 // element_bytes
    return -(-extent // per) * per


def cases(shapes: list[Shape], dtypes: list[str] | None = None, layouts: list[str] | None = None) -> list[Case]:
    """Every (shape, dtype, layout) asked for, in the order dtype, layout, shape (so a
    chunk of the run is one table), without the combinations NOT_RUN lists."""
    dtypes = dtypes or list(DTYPES)
    layouts = layouts or list(LAYOUTS)
    for what, given, known in (("dtype", dtypes, DTYPES), ("layout", layouts, LAYOUTS)):
        bad = [g for g in given if g not in known]
        if bad:
            raise ValueError(f"unknown {what} {', '.join(bad)}: the suite has {', '.join(known)}")
    return [Case(s, d, lay) for d in dtypes for lay in layouts if (d, lay) not in NOT_RUN for s in shapes]


def _llm(model: str, layer: str, m: int, n: int, k: int) -> Shape:
    category = "decode" if m <= 64 else "batch" if m <= 512 else "prefill"
    return Shape(f"{model} {layer}, M={m}", category, m, n, k)


def _square(s: int) -> Shape:
    return Shape(f"square {s}^3", "square", s, s, s)


def _sized(category: str, m: int, n: int, k: int) -> Shape:
    return Shape(f"{category} {m}x{n}x{k}", category, m, n, k)


SUITE: tuple[Shape, ...] = (
    # decoding: M = 1 to 64, memory-bound (the weight is most of the traffic)
    _llm("llama-3-8b", "qkv", 1, 6144, 4096),
    _llm("llama-2-7b", "mlp down", 1, 4096, 11008),
    _llm("llama-3-70b", "mlp gate", 1, 28672, 8192),
    _llm("llama-3.2-1b", "mlp up", 4, 8192, 2048),
    _llm("llama-3-8b", "mlp gate", 8, 14336, 4096),
    _llm("llama-3-8b", "o_proj", 16, 4096, 4096),
    _llm("llama-3-70b", "qkv", 16, 10240, 8192),
    _llm("deepseek-v3", "mlp down", 16, 7168, 18432),
    _llm("deepseek-v3", "expert gate_up", 32, 4096, 7168),
    _llm("llama-2-13b", "mlp down", 32, 5120, 13824),
    _llm("llama-3-8b", "mlp down", 64, 4096, 14336),
    _llm("llama-3-70b", "o_proj", 64, 8192, 8192),
    # small batches: M = 128 to 512
    _llm("deepseek-v3", "q_a_proj", 128, 1536, 7168),
    _llm("llama-3-70b", "mlp down", 128, 8192, 28672),
    _llm("llama-3-8b", "mlp gate_up", 128, 28672, 4096),
    _llm("llama-2-7b", "qkv", 256, 12288, 4096),
    _llm("deepseek-v3", "o_proj", 256, 7168, 16384),
    _llm("llama-2-13b", "mlp gate_up", 256, 27648, 5120),
    _llm("llama-3-70b", "qkv", 512, 10240, 8192),
    # prefill: M = 1024 to 16384
    _llm("llama-2-7b", "mlp up", 1024, 11008, 4096),
    _llm("llama-3-8b", "qkv", 2048, 6144, 4096),
    _llm("llama-2-13b", "o_proj", 2048, 5120, 5120),
    _llm("deepseek-v3", "expert down", 2048, 7168, 2048),
    _llm("llama-3-8b", "mlp gate", 4096, 14336, 4096),
    _llm("llama-3-8b", "mlp down", 4096, 4096, 14336),
    _llm("llama-3-70b", "mlp gate", 4096, 28672, 8192),
    _llm("llama-2-7b", "mlp down", 8192, 4096, 11008),
    _llm("llama-3-70b", "qkv", 8192, 10240, 8192),
    _llm("deepseek-v3", "mlp up", 8192, 18432, 7168),
    _llm("llama-3.2-1b", "mlp down", 16384, 2048, 8192),
    _llm("llama-3-70b", "mlp down", 16384, 8192, 28672),
    # squares, 512 to 16384
    *(_square(s) for s in (512, 768, 1024, 1536, 2048, 3072, 4096, 5120, 6144, 8000, 8192, 12288, 16384)),
    # K much larger than M and N
    _sized("long-k", 256, 1024, 131072),
    _sized("long-k", 512, 512, 65536),
    _sized("long-k", 1024, 1024, 32768),
    _sized("long-k", 2048, 2048, 16384),
    # ragged: not multiples of the tiles; 2049 and 8191 not of 8 either
    _sized("ragged", 77, 4096, 4096),
    _sized("ragged", 127, 11008, 4096),
    _sized("ragged", 1000, 904, 512),
    _sized("ragged", 2049, 2049, 2049),
    _sized("ragged", 3000, 5000, 4000),
    _sized("ragged", 8191, 8191, 8191),
)


def select(shapes: tuple[Shape, ...] = SUITE, names: list[str] | None = None, categories: list[str] | None = None) -> list[Shape]:
    """The shapes whose name contains any of `names` (substrings, case ignored; names hold
    commas, so each substring is its own item; one starting with "=" is a whole name) and
    whose category is one of `categories` (each item may be a comma-separated list); None
    or empty: all."""
    wanted = [w.lower() for w in names or [] if w]
    cats = [c.strip() for item in categories or [] for c in item.split(",") if c.strip()]
    unknown = sorted(set(cats) - set(CATEGORIES))
    if unknown:
        raise ValueError(f"unknown categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}: the suite has {', '.join(CATEGORIES)}")
    return [s for s in shapes
            if (not wanted or any(_matches(w, s.name.lower()) for w in wanted)) and (not cats or s.category in cats)]


def _matches(wanted: str, name: str) -> bool:
    return wanted[1:] == name if wanted.startswith("=") else wanted in name


__all__ = ["CATEGORIES", "D_BYTES", "DTYPES", "LAYOUTS", "MAX_COPIES", "MOSAIC_TILE", "NOT_RUN", "ROTATE_BYTES", "SUITE", "Case", "Shape", "cases", "padded_ld", "select"]
