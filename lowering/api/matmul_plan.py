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
    given (an M x N row-major array of `out_dtype`)."""

    source: str
    kernel: str
    m: int
    n: int
    k: int
    out_dtype: str


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


def read_layout(x: MatrixArg, arch: Arch, operand: str | None) -> tuple[bool, int]:
    """`x`'s layout as (row_major, ld): the first reading of its strides this GEMM can
    take (A and B: either; D and C: row-major), else an ArgumentError with the reason."""
    readings = _layouts(x, row_major_only=operand is None)
    if not readings:
        need = "row-major" if operand is None else "row- or column-major"
        raise ArgumentError(f"{x.name} has strides {x.strides}: lower_tc.matmul needs {need} matrices (one stride 1); "
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
    they are the arrays' own (a kernel per shape, persistent and rastered, faster)."""
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
    m, k = _two_d(a)
    k_b, n = _two_d(b)
    if k_b != k:
        raise ArgumentError(f"b is {k_b}x{n}: its rows must be a's columns (a is {m}x{k})", "b")
    acc = acc if acc is not None else default_accumulator(ta)
    if acc not in accumulators(ta, arch):
        allowed = " or ".join(accumulators(ta, arch)) or "nothing"
        raise ArgumentError(f"{ta} operands accumulate in {allowed} on {target}, not {acc}", "acc")
    if isinstance(out, MatrixArg):
        d_dtype = out.dtype
        if _two_d(out) != (m, n):
            raise ArgumentError(f"out is {out.shape[0]}x{out.shape[1]}: D = a x b is {m}x{n}", "out")
    else:
        d_dtype = out if out is not None else DEFAULT_OUT[ta]
    if d_dtype not in STORE_TYPES.get(acc, ()):
        raise ArgumentError(f"a {acc} accumulator is stored as {' or '.join(STORE_TYPES[acc])}, not {d_dtype}", "out")
    if c is not None:
        if _two_d(c) != (m, n):
            raise ArgumentError(f"c is {c.shape[0]}x{c.shape[1]}: it is added to D = a x b, {m}x{n}", "c")
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

    def matrix(x: MatrixArg | None, dtype: str, rows: int, cols: int, operand: str | None) -> Matrix:
        if x is None:  # D allocated by the caller: dense row-major
            return Matrix(None, None, dtype) if dynamic else Matrix(rows, cols, dtype)
        row_major, ld = read_layout(x, arch, operand)
        if dynamic:
            return Matrix(None, None, dtype, row_major)
        return Matrix(rows, cols, dtype, row_major, ld)

    ma = matrix(a, ta, m, k, "a")
    mb = matrix(b, tb, k, n, "b")
    md = matrix(out if isinstance(out, MatrixArg) else None, d_dtype, m, n, None)
    mc = matrix(c, d_dtype, m, n, None) if c is not None else None
    if not isinstance(out, MatrixArg) and not dynamic:
        md = Matrix(m, n, d_dtype, True, n)  # the caller allocates it dense
    transposes = ("N" if ma.row_major else "T") + ("N" if mb.row_major else "T")
    name = f"lower_tc_matmul_{ta}_{tb}_{acc}_{d_dtype}_{transposes}"
    source = matmul_program(name, ma, mb, md, mc, acc=acc, config=cfg, options=opts, target=target)
    return MatmulPlan(source, name, m, n, k, d_dtype)


__all__ = ["DEFAULT_OUT", "MatmulPlan", "MatrixArg", "OPERAND_TYPES", "plan_matmul", "read_layout"]
