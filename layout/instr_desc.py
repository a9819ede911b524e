"""The 32-bit tcgen05 instruction descriptor (dense MMA, kinds f16/tf32/f8f6f4/i8).

Bit layout (PTX ISA "Instruction descriptor"; CUTLASS UMMA::InstrDescriptor):
0-1 sparsity selector, 2 sparsity, 3 saturate, 4-5 D format (F16 0, F32 1,
S32 2), 7-9 A format, 10-12 B format, 13 negate A, 14 negate B, 15 A major
(1 = MN), 16 B major, 17-22 N >> 3, 24-28 M >> 4, 30-31 max shift (.ws only). Only dense, non-.ws
descriptors are built here.
"""

from __future__ import annotations

from dataclasses import dataclass

from lower_tc.layout.errors import LayoutError
from lower_tc.layout.targets import MN_MAJOR_TYPES, Arch

#: Per kind: operand formats (3-bit codes) and accumulator formats it allows.
KIND_FORMATS: dict[str, dict[str, int]] = {
    "f16": {"f16": 0, "bf16": 1},
    "tf32": {"tf32": 2},
    "f8f6f4": {"e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5},
    "i8": {"u8": 0, "s8": 1},
}
KIND_ACCUMULATORS: dict[str, tuple[str, ...]] = {
    "f16": ("f16", "f32"),
    "tf32": ("f32",),
    "f8f6f4": ("f16", "f32"),
    "i8": ("s32",),
}
D_FORMATS = {"f16": 0, "f32": 1, "s32": 2}


def kind_of(dtype: str) -> str:
    """The tcgen05 `.kind` that reads operands of `dtype`."""
    for kind, formats in KIND_FORMATS.items():
        if dtype in formats:
            return kind
    raise LayoutError(f"tcgen05.mma has no kind for {dtype} operands")


def valid_n(kind: str) -> tuple[int, ...]:
    """N values of a dense cta_group::1 MMA (PTX ISA "Various combinations of .kind
    and shapes"): multiples of 8 up to 256; kind::i8 steps by 16 after N = 32.
    Older CUTLASS releases also required N % 16 == 0 for M = 128; the current
    ISA table and CUTLASS do not."""
    if kind == "i8":
        return (8, 16, 24, 32) + tuple(range(48, 257, 16))
    return tuple(range(8, 257, 8))


def valid_pair_n(kind: str) -> tuple[int, ...]:
    """N values of the M = 256 MMA of a CTA pair (cta_group::2), each CTA holding N/2 of
    B's columns: multiples of 16 from 16 for kinds f16 and tf32, of 32 from 32 for
    f8f6f4 and i8 (CUTLASS's SM100_MMA_*_2x1SM_SS atoms; the ISA's table lists the pair's
    shapes beside the single CTA's)."""
    step = 32 if kind in ("f8f6f4", "i8") else 16
    return tuple(range(step, 257, step))


def check_mma_shape(kind: str, m: int, n: int) -> None:
    """Reject an M x N that tcgen05.mma (dense) does not define: M = 64 or 128 on one CTA
    (cta_group::1), M = 256 across a CTA pair (cta_group::2, 128 rows in each CTA)."""
    if m == 256:
        if n not in valid_pair_n(kind):
            step = valid_pair_n(kind)[0]
            raise LayoutError(f"tcgen05.mma.cta_group::2 kind::{kind} with M = 256 needs N a multiple of {step} from {step} to 256, not {n}")
        return
    if m not in (64, 128):
        raise LayoutError(f"tcgen05.mma needs M = 64 or 128 (cta_group::1) or 256 (cta_group::2, a CTA pair), not {m}")
    if n not in valid_n(kind):
        rule = "8, 16, 24, 32, then multiples of 16 up to 256" if kind == "i8" else (
            "a multiple of 8 from 8 to 256")
        raise LayoutError(f"tcgen05.mma kind::{kind} needs N {rule}, not {n}")


@dataclass(frozen=True)
class InstrDescriptor:
    """The fields of a dense tcgen05.mma instruction descriptor."""

    a_type: str
    b_type: str
    d_type: str
    m: int
    n: int
    a_mn_major: bool = False
    b_mn_major: bool = False
    negate_a: bool = False
    negate_b: bool = False
    saturate: bool = False

    @property
    def kind(self) -> str:
        return kind_of(self.a_type)

    @property
    def cta_group(self) -> int:
        """2 for the M = 256 MMA of a CTA pair, else 1: the descriptor holds only M."""
        return 2 if self.m == 256 else 1

    def check(self) -> None:
        """Reject what the ISA does not define, with the reason."""
        kind = self.kind
        if kind_of(self.b_type) != kind:
            raise LayoutError(
                f"A ({self.a_type}) and B ({self.b_type}) need the same tcgen05 kind"
            )
        if kind == "f16" and self.a_type != self.b_type:
            raise LayoutError("kind::f16 needs A and B of the same type (f16 or bf16)")
        if self.d_type not in KIND_ACCUMULATORS[kind]:
            allowed = ", ".join(KIND_ACCUMULATORS[kind])
            raise LayoutError(f"kind::{kind} accumulates in {allowed}, not {self.d_type}")
        if kind == "f16" and self.a_type == "bf16" and self.d_type != "f32":
            # ISA shape table: dtype .f16 only with atype/btype .f16
            raise LayoutError(f"kind::f16 accumulates bf16 in f32 only, not {self.d_type}")
        check_mma_shape(kind, self.m, self.n)
        if self.b_mn_major and kind in ("f8f6f4", "i8") and self.n % 16:
            # An MN-major 8-bit B tile is whole atoms of 16 or more elements along N, so the
            # layout already implies this; the ISA's shape table (9.3) lists "steps of 16"
            # for f8f6f4 beside "steps of 8" without naming the case. Checked here so the
            # instruction descriptor alone is never built for it.
            raise LayoutError(
                f"tcgen05.mma (cta_group::1) with an MN-major 8-bit B needs N a multiple of "
                f"16, not {self.n} (its atoms are at least 16 elements along N)"
            )
        for name, dtype, mn_major in (
            ("A", self.a_type, self.a_mn_major),
            ("B", self.b_type, self.b_mn_major),
        ):
            if mn_major and dtype not in MN_MAJOR_TYPES[Arch.SM100A]:
                raise LayoutError(f"tcgen05 cannot read {name} ({dtype}) MN-major")
        if (self.negate_a or self.negate_b) and kind == "i8":
            raise LayoutError("negation is defined only for floating-point kinds")
        if self.saturate and kind != "i8":
            raise LayoutError("saturation is defined only for kind::i8")

    def encode(self) -> int:
        self.check()
        kind = self.kind
        return (
            int(self.saturate) << 3
            | D_FORMATS[self.d_type] << 4
            | KIND_FORMATS[kind][self.a_type] << 7
            | KIND_FORMATS[kind][self.b_type] << 10
            | int(self.negate_a) << 13
            | int(self.negate_b) << 14
            | int(self.a_mn_major) << 15
            | int(self.b_mn_major) << 16
            | (self.n >> 3) << 17
            | (self.m >> 4) << 24
        )

    @classmethod
    def decode(cls, value: int, kind: str) -> "InstrDescriptor":
        """Read a 32-bit value back; the kind says how to read the format codes."""
        if not 0 <= value < 1 << 32:
            raise LayoutError(f"instruction descriptor {value:#x} is not a 32-bit value")
        if value & 0b111:
            raise LayoutError("sparse instruction descriptors are not supported")
        if kind not in KIND_FORMATS:
            raise LayoutError(f"unknown tcgen05 kind '{kind}'")
        by_code = {code: name for name, code in KIND_FORMATS[kind].items()}
        d_by_code = {code: name for name, code in D_FORMATS.items()}
        try:
            a_type = by_code[(value >> 7) & 7]
            b_type = by_code[(value >> 10) & 7]
            d_type = d_by_code[(value >> 4) & 3]
        except KeyError:
            raise LayoutError(f"{value:#x} holds a format code kind::{kind} does not define") from None
        desc = cls(
            a_type,
            b_type,
            d_type,
            m=((value >> 24) & 0x1F) << 4,
            n=((value >> 17) & 0x3F) << 3,
            a_mn_major=bool(value >> 15 & 1),
            b_mn_major=bool(value >> 16 & 1),
            negate_a=bool(value >> 13 & 1),
            negate_b=bool(value >> 14 & 1),
            saturate=bool(value >> 3 & 1),
        )
        desc.check()
        return desc
