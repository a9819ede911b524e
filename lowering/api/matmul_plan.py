"""What `lower_tc.matmul` compiles for the caller's arrays: each array's layout read from
its shape, strides and dtype, checked against what `tc.matmul` and the tensor cores take,
and the one-op program that multiplies them.

Everything here is decided from plain facts about the arrays (a `MatrixArg`), before
anything is compiled or launched, so each refusal is an ArgumentError naming the argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lower_tc.layout import Arch, LayoutError
from lower_tc.layout.gemm import STORE_TYPES, GemmConfig, accumulators, config_problem, default_accumulator, operand_pair_problem
from lower_tc.layout.limits import index_problem
from lower_tc.layout.strided import distinct_elements
from lower_tc.layout.targets import check_operand_type
from lower_tc.lowering.api.matmul_program import ELEMENT_BYTES, Matrix, matmul_program, option_text
from lower_tc.lowering.runtime.errors import ArgumentError

#: Operand types an array may have, and what the tensor cores read them as (f32 as tf32:
#: wgmma and tcgen05 read 32-bit floats with 10 mantissa bits).
OPERAND_TYPES = {"bf16": "bf16", "f16": "f16", "f32": "tf32", "e4m3": "e4m3", "e5m2": "e5m2", "s8": "s8", "u8": "u8"}

#: D's type when no `out` is given: the operands' own for 16-bit floats (as torch.matmul),
#: f32 for tf32, bf16 for fp8 (as DeepGEMM), s32 for 8-bit integers.
DEFAULT_OUT = {"bf16": "bf16", "f16": "f16", "tf32": "f32", "e4m3": "bf16", "e5m2": "bf16", "s8": "s32", "u8": "s32"}

TARGETS = {"sm_90a": Arch.SM90A, "sm_100a": Arch.SM100A}


@dataclass(frozen=True)
class MatrixArg:
    """What the plan needs of one array: its name in the call, its shape, its strides in
    elements and its dtype as lower-tc names it."""

    name: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: str


@dataclass(frozen=True)
class MatmulPlan:
    """The program for one call's arrays, and what the caller allocates when no `out` is
    given: a row-major array of `out_dtype` and shape `out_shape` (M x N, or batch x M x N
    where a or b is 3-d)."""

    source: str
    kernel: str
    m: int
    n: int
    k: int
    out_dtype: str
    out_shape: tuple[int, ...] = ()
    batch: int = 1  # matrices of D the kernel computes (1: one GEMM)


@dataclass(frozen=True)
class Batch:
    """A 3-d array's batch: `count` matrices `stride` elements apart."""

    count: int
    stride: int

    @property
    def one_matrix(self) -> bool:
        """The same matrix for every batch: a batch of 1, or an expanded view (stride 0)."""
        return self.count == 1 or self.stride == 0


def split_batch(x: MatrixArg) -> tuple[MatrixArg, Batch | None]:
    """`x`'s matrix (its last two dimensions) and its batch (None: a 2-d array)."""
    if len(x.shape) not in (2, 3) or len(x.strides) != len(x.shape):
        raise ArgumentError(f"{x.name} has {len(x.shape)} dimensions: lower_tc.matmul multiplies matrices (2-d) "
                            "or batches of them (3-d)", x.name)
    if len(x.shape) == 2:
        return x, None
    count = x.shape[0]
    if count < 1:
        raise ArgumentError(f"{x.name} is {_dims(x.shape)}: a batch of at least one matrix", x.name)
    why = index_problem(count, f"{x.name}'s batch")
    if why:
        raise ArgumentError(why, x.name)
    return MatrixArg(x.name, x.shape[1:], x.strides[1:], x.dtype), Batch(count, x.strides[0])


def _dims(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape))


def _two_d(x: MatrixArg) -> tuple[int, int]:
    if len(x.shape) != 2:
        raise ArgumentError(f"{x.name} has {len(x.shape)} dimensions: lower_tc.matmul multiplies 2-d matrices", x.name)
    rows, cols = x.shape
    if rows < 1 or cols < 1:
        raise ArgumentError(f"{x.name} is {rows}x{cols}: lower_tc.matmul multiplies matrices of at least one row and column", x.name)
    why = index_problem(max(rows, cols), f"{x.name}'s largest size")
    if why:
        raise ArgumentError(why, x.name)
    return rows, cols


def _layouts(x: MatrixArg, row_major_only: bool) -> list[tuple[bool, int]]:
    """(row_major, leading dimension) readings of `x`'s strides: row-major where the
    column stride is 1 (or there is one column), column-major where the row stride is 1
    (or there is one row). A size-1 dimension's stride says nothing, so its leading
    dimension is the dense one."""
    rows, cols = x.shape
    r, c = x.strides
    found = []
    if c == 1 or cols == 1:
        found.append((True, r if rows > 1 else _dense(cols, x.dtype)))
    if not row_major_only and (r == 1 or rows == 1):
        found.append((False, c if cols > 1 else _dense(rows, x.dtype)))
    return found


def _dense(extent: int, dtype: str) -> int:
    per = max(1, 16 // ELEMENT_BYTES[dtype])
    return -(-extent // per) * per


def _layout_problem(x: MatrixArg, row_major: bool, ld: int, arch: Arch, operand: str | None) -> str | None:
    """Why `x` read as (row_major, ld) is not a matrix this GEMM can take, or None."""
    rows, cols = x.shape
    extent = cols if row_major else rows
    kind = "row" if row_major else "column"
    if ld < extent:
        return f"{x.name}'s {kind} stride {ld} is below its {extent} {'columns' if row_major else 'rows'}: rows would overlap"
    nbytes = ld * ELEMENT_BYTES[x.dtype]
    if operand is not None and nbytes % 16:
        return (f"{x.name} is {kind}-major with a leading dimension of {ld} elements ({nbytes} bytes): TMA needs a "
                f"multiple of 16 bytes; pad its {'rows' if row_major else 'columns'} to {_dense(extent, x.dtype)} elements "
                f"and pass a view of the first {extent}")
    if operand is not None:
        # A is M x K: row-major is K-major; B is K x N: row-major is N-major (MN-major)
        mn_major = (not row_major) if operand == "a" else row_major
        try:
            check_operand_type(arch, OPERAND_TYPES[x.dtype], mn_major)
        except LayoutError as err:
            need = "row-major" if operand == "a" else "column-major"
            return f"{x.name} is {kind}-major: {err}; give {x.name} {need} (K contiguous)"
    return None


def read_layout(x: MatrixArg, arch: Arch, operand: str | None, column_major_out: bool = False) -> tuple[bool, int]:
    """`x`'s layout as (row_major, ld): the first reading of its strides this GEMM can
    take (A and B: either; D and C: row-major, or column-major where `column_major_out`:
    one matrix of sizes known at compile time), else an ArgumentError with the reason."""
    row_major_only = operand is None and not column_major_out
    readings = _layouts(x, row_major_only=row_major_only)
    if not readings:
        need = "row-major" if row_major_only else "row- or column-major"
        why = "; a column-major D or C is one matrix with dynamic=False" if row_major_only else ""
        raise ArgumentError(f"{x.name} has strides {x.strides}: lower_tc.matmul needs {need} matrices (one stride 1){why}; "
                                    "make it contiguous", x.name)
    problems = []
    for row_major, ld in readings:
        why = _layout_problem(x, row_major, ld, arch, operand)
        if why is None:
            return row_major, ld
        problems.append(why)
    raise ArgumentError(problems[0], x.name)


def _config(config: object) -> tuple[int, int, int, int] | None:
    if config is None:
        return None
    if isinstance(config, GemmConfig):
        return (config.bm, config.bn, config.bk, config.stages)
    if isinstance(config, Mapping):
        try:
            return (int(config["bm"]), int(config["bn"]), int(config["bk"]), int(config["stages"]))
        except (KeyError, TypeError, ValueError):
            raise ArgumentError(f"config is a GemmConfig, a (bm, bn, bk, stages) tuple or a dict of those four integers, not {config!r}", "config") from None
    if isinstance(config, tuple | list) and len(config) == 4 and all(isinstance(v, int) for v in config):
        return tuple(config)  # type: ignore[return-value]
    raise ArgumentError(f"config is a GemmConfig, a (bm, bn, bk, stages) tuple or a dict of those four integers, not {config!r}", "config")


def _batch_count(a: Batch | None, b: Batch | None) -> int:
    """The number of matrices of D: the batch of a or b (as torch.matmul broadcasts, from
    one matrix: a 2-d operand, a batch of 1, an expanded view)."""
    count = max(x.count for x in (a, b, Batch(1, 0)) if x is not None)
    if a is not None and b is not None and a.count > 1 and b.count > 1 and a.count != b.count:
        raise ArgumentError(f"b is a batch of {b.count} and a of {a.count}: batches broadcast only from one matrix "
                            "(2-d, or a batch of 1), as in torch.matmul", "b")
    if count > 1 and all(x is None or x.one_matrix for x in (a, b)):
        raise ArgumentError(f"a and b are each one matrix for all {count} batches (expanded views): multiply a[0] "
                            "and b[0] once", "b")
    return count


def _check_batch_stride(x: MatrixArg, batch: Batch, row_major: bool, ld: int, operand: str | None) -> None:
    """The matrices of out's batch must not overlap (tc.matmul's rule: it would write one
    over another), and an operand's batch stride is a TMA stride: a multiple of 16 bytes."""
    lines = x.shape[0] if row_major else x.shape[1]
    extent = lines * ld
    if batch.stride < 0:
        raise ArgumentError(f"{x.name}'s batch stride is {batch.stride}: tc.matmul steps batches forward in memory; "
                            "pass a contiguous copy", x.name)
    if x.name == "out" and not distinct_elements((batch.count, *x.shape), (batch.stride, *x.strides)):
        what = "rows" if row_major else "columns"
        raise ArgumentError(
            f"{x.name}'s batch stride is {batch.stride} elements, below one matrix's extent ({lines} {what} x ld {ld} = "
            f"{extent}) and not beside it in its rows: its matrices would overlap; pass a contiguous copy", x.name,
        )
    nbytes = batch.stride * ELEMENT_BYTES[x.dtype]
    if operand is not None and nbytes % 16:
        raise ArgumentError(
            f"{x.name}'s batch stride is {batch.stride} elements ({nbytes} bytes): TMA needs a multiple of 16 bytes; "
            f"pad its matrices to {-(-nbytes // 16) * 16 // ELEMENT_BYTES[x.dtype]} elements apart", x.name,
        )


def plan_matmul(
    a: MatrixArg,
    b: MatrixArg,
    out: MatrixArg | str | None,
    c: MatrixArg | None,
    *,
    target: str,
    acc: str | None = None,
    config: object = None,
    options: Mapping[str, object] | None = None,
    dynamic: bool = False,
) -> MatmulPlan:
    """The program multiplying these arrays: D = A x B (+ C) with D given (`out`), or its
    dtype (a str), or None (DEFAULT_OUT). With `dynamic`, sizes and leading dimensions are
    known only at launch (one kernel for every shape; every store bounds-checked); else
    they are the arrays' own (a kernel per shape, persistent and rastered, faster).

    Batches as torch.matmul takes them: a 3-d a or b (batch x rows x cols) makes D
    batch x M x N; an operand that is one matrix for every batch (2-d, a batch of 1, an
    expanded view) is a 2-d matrix of the program; out and c are batch x M x N. A batch of
    one matrix is one GEMM (D 1 x M x N)."""
    if target not in TARGETS:
        raise ArgumentError(f"target is one of {', '.join(TARGETS)}, not {target!r}", "target")
    arch = TARGETS[target]
    for x in (a, b):
        if x.dtype not in OPERAND_TYPES:
            raise ArgumentError(f"{x.name} is {x.dtype}: lower_tc.matmul multiplies {', '.join(OPERAND_TYPES)} (f32 as tf32)", x.name)
    ta, tb = OPERAND_TYPES[a.dtype], OPERAND_TYPES[b.dtype]
    why = operand_pair_problem(ta, tb, arch)
    if why:
        raise ArgumentError(f"a is {a.dtype} and b is {b.dtype}: {why}", "b")
    a, batch_a = split_batch(a)
    b, batch_b = split_batch(b)
    batched = batch_a is not None or batch_b is not None
    count = _batch_count(batch_a, batch_b) if batched else 1
    m, k = _two_d(a)
    k_b, n = _two_d(b)
    if k_b != k:
        raise ArgumentError(f"b is {k_b}x{n}: its rows must be a's columns (a is {m}x{k})", "b")
    want = _dims((count, m, n) if batched else (m, n))
    acc = acc if acc is not None else default_accumulator(ta)
    if acc not in accumulators(ta, arch):
        allowed = " or ".join(accumulators(ta, arch)) or "nothing"
        raise ArgumentError(f"{ta} operands accumulate in {allowed} on {target}, not {acc}", "acc")
    batch_out = batch_c = None
    if isinstance(out, MatrixArg):
        d_dtype = out.dtype
        whole = out.shape
        out, batch_out = split_batch(out)
        if _two_d(out) != (m, n) or (batch_out is None) == batched or (batch_out is not None and batch_out.count != count):
            raise ArgumentError(f"out is {_dims(whole)}: D = a x b is {want}", "out")
    else:
        d_dtype = out if out is not None else DEFAULT_OUT[ta]
    if d_dtype not in STORE_TYPES.get(acc, ()):
        raise ArgumentError(f"a {acc} accumulator is stored as {' or '.join(STORE_TYPES[acc])}, not {d_dtype}", "out")
    if c is not None:
        whole = c.shape
        c, batch_c = split_batch(c)
        if _two_d(c) != (m, n) or (batch_c is None) == batched or (batch_c is not None and batch_c.count != count):
            raise ArgumentError(f"c is {_dims(whole)}: it is added to D = a x b, {want}", "c")
        if c.dtype != d_dtype:
            raise ArgumentError(f"c is {c.dtype}: it has D's type, {d_dtype}", "c")
    cfg = _config(config)
    if cfg is not None:
        why = config_problem(GemmConfig(*cfg), ta, tb, acc, arch)
        if why:
            raise ArgumentError(why, "config")
    if dynamic and (options or {}).get("persistent"):
        raise ArgumentError("persistent = True walks tiles counted at compile time: it needs dynamic=False", "options")
    try:
        opts = option_text(options or {})
    except ValueError as err:
        raise ArgumentError(str(err), "options") from None

    def matrix(x: MatrixArg | None, batch: Batch | None, dtype: str, rows: int, cols: int, operand: str | None) -> Matrix:
        """The program's matrix for `x`: a batch where D has one and `x` is not one matrix
        for every batch, else a plain matrix."""
        three_d = count > 1 and (x is None or (batch is not None and not batch.one_matrix))
        if x is None:  # D allocated by the caller: dense row-major
            if dynamic:
                return Matrix(None, None, dtype, batched=three_d)
            return Matrix(rows, cols, dtype, True, cols, three_d, count if three_d else None, rows * cols if three_d else None)
        row_major, ld = read_layout(x, arch, operand, column_major_out=not dynamic and count == 1)
        if three_d:
            assert batch is not None
            _check_batch_stride(x, batch, row_major, ld, operand)
        elif count > 1 and operand is None:  # out and c: a batch of D's matrices, not one for all
            raise ArgumentError(f"{x.name}'s batch stride is 0: D's {count} matrices are each its own", x.name)
        if dynamic:
            return Matrix(None, None, dtype, row_major, batched=three_d)
        return Matrix(rows, cols, dtype, row_major, ld, three_d, count if three_d else None,
                      batch.stride if three_d and batch is not None else None)

    ma = matrix(a, batch_a, ta, m, k, "a")
    mb = matrix(b, batch_b, tb, k, n, "b")
    md = matrix(out if isinstance(out, MatrixArg) else None, batch_out, d_dtype, m, n, None)
    mc = matrix(c, batch_c, d_dtype, m, n, None) if c is not None else None
    transposes = ("N" if ma.row_major else "T") + ("N" if mb.row_major else "T")
    name = f"lower_tc_matmul_{ta}_{tb}_{acc}_{d_dtype}_{transposes}" + ("_batched" if md.batched else "") + ("" if md.row_major else "_dT")
    source = matmul_program(name, ma, mb, md, mc, acc=acc, config=cfg, options=opts, target=target)
    return MatmulPlan(source, name, m, n, k, d_dtype, (count, m, n) if batched else (m, n), count)


__all__ = ["Batch", "DEFAULT_OUT", "MatmulPlan", "MatrixArg", "OPERAND_TYPES", "plan_matmul", "read_layout", "split_batch"]
