"""The text of a one-op `tc.matmul` program: what `lower_tc.matmul` compiles for the
caller's arrays and what the GEMM sweep and benchmarks compile for their cases, plain or
batched (3-d operands, `Matrix.batched`).

One writer of that text, so a program the sweep checked on the GPU is byte for byte the
program `lower_tc.matmul` compiles for the same shapes, types, strides and options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lower_tc.dialects.tc_schedule import GEMM_OPTIONS, OPTIONS_BY_NAME
from lower_tc.layout.split_k import split_k_range_problem

#: MLIR's spelling of each element type lower-tc names.
MLIR_ELEMENT = {
    "f16": "f16", "bf16": "bf16", "tf32": "tf32", "f32": "f32", "e4m3": "f8E4M3FN",
    "e5m2": "f8E5M2", "s8": "si8", "u8": "ui8", "s32": "i32",
}

#: Bytes per element of each type a GEMM matrix may have.
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "tf32": 4, "f32": 4, "e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1, "s32": 4}

#: The names `tc.matmul` takes in its attr-dict.
OPTION_NAMES = tuple(o.name for o in GEMM_OPTIONS)


def dense_ld(extent: int, dtype: str) -> int:
    """The smallest leading dimension of a multiple of 16 bytes (TMA's rule) that holds
    `extent` elements."""
    per = 16 // ELEMENT_BYTES[dtype]
    return -(-extent // per) * per


@dataclass(frozen=True)
class Matrix:
    """One matrix argument, or a batch of them: its sizes (None: known only at launch),
    element type, and layout. Row-major: element (i, j) at i * ld + j; column-major: at
    i + j * ld; matrix b of a batch `batch_stride` elements after matrix b - 1.

    A batched one (`batched`) is a 3-d memref, batch x rows x cols: `memref<BxMxKxT,
    strided<[sb, ld, 1]>>` (`strided<[sb, 1, ld]>` column-major), or with every size and
    stride `?` where the sizes are known at launch. A matrix that is the same for every
    batch of a batched GEMM is a plain (2-d) one."""

    rows: int | None
    cols: int | None
    dtype: str
    row_major: bool = True
    ld: int | None = None  # None: known at launch (dynamic), or the dense one (static)
    batched: bool = False
    batch: int | None = None  # the number of matrices (None: known at launch)
    batch_stride: int | None = None  # None: known at launch (dynamic), or the dense one (static)

    @property
    def dynamic(self) -> bool:
        return self.rows is None

    def memref(self) -> str:
        e = MLIR_ELEMENT[self.dtype]
        if self.rows is None or self.cols is None:
            sizes, matrix = "?x?", "?, 1" if self.row_major else "1, ?"
            if self.batched:
                return f"memref<?x{sizes}x{e}, strided<[?, {matrix}]>>"
            return f"memref<{sizes}x{e}, strided<[{matrix}]>>"
        extent, lines = (self.cols, self.rows) if self.row_major else (self.rows, self.cols)
        ld = self.ld if self.ld is not None else dense_ld(extent, self.dtype)
        stride = f"{ld}, 1" if self.row_major else f"1, {ld}"
        if self.batched:
            assert self.batch is not None, "a static batch has its count"
            batch_stride = self.batch_stride if self.batch_stride is not None else lines * ld
            return f"memref<{self.batch}x{self.rows}x{self.cols}x{e}, strided<[{batch_stride}, {stride}]>>"
        return f"memref<{self.rows}x{self.cols}x{e}, strided<[{stride}]>>"


def option_text(options: Mapping[str, object]) -> str:
    """`tc.matmul`'s attr-dict entries for `options` (strings quoted, booleans as
    true/false), in the declared order; an unknown name, a value of the wrong type or out
    of its range is a ValueError naming it (before any program is written)."""
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ValueError(f"unknown GEMM option {unknown[0]!r} (options: {', '.join(OPTION_NAMES)})")
    entries = []
    for name in OPTION_NAMES:
        if name not in options or options[name] is None:
            continue
        value = options[name]
        why = OPTIONS_BY_NAME[name].python_problem(value)
        if why:
            raise ValueError(f"{name}={value!r}: {why}")
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, str):
            text = f'"{value}"'
        else:
            text = str(value)
        entries.append(f"{name} = {text}")
    split_k = options.get("split_k")  # an int by now: its type was checked above
    if split_k is not None:
        why = split_k_range_problem(split_k, str(options.get("reduce") or "cluster"))
        if why:
            raise ValueError(f"split_k={split_k!r}: {why}")
    return ", ".join(entries)



def matmul_program(
    name: str,
    a: Matrix,
    b: Matrix,
    d: Matrix,
    c: Matrix | None = None,
    *,
    acc: str,
    config: tuple[int, int, int, int] | None = None,
    options: str = "",
    target: str = "sm_90a",
) -> str:
    """A module with one kernel `@name(%A, %B, %D[, %C])` holding one `tc.matmul`.
    `config` is (BM, BN, BK in elements, stages); `options` the attr-dict entries
    (`option_text`). The op's verifier and tc-expand-matmul check everything."""
    types = [a.memref(), b.memref(), d.memref()] + ([c.memref()] if c is not None else [])
    params = ", ".join(f"%{n}: {t}" for n, t in zip("ABDC", types))
    plus = " plus %C" if c is not None else ""
    tail = ""
    if config is not None:
        bm, bn, bk, stages = config
        tail = f" config #tc.gemm_config<bm = {bm}, bn = {bn}, bk = {bk}, stages = {stages}>"
    if options:
        tail += f" {{{options}}}"
    return (
        f'func.func @{name}({params}) attributes {{tc.target = "{target}"}} {{\n'
        f"  tc.matmul %A, %B to %D{plus} acc {acc}{tail} : {', '.join(types)}\n"
        "  func.return\n}\n"
    )


__all__ = ["ELEMENT_BYTES", "MLIR_ELEMENT", "Matrix", "OPTION_NAMES", "dense_ld", "matmul_program", "option_text"]
