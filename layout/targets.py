"""Target architectures and which operand layouts each tensor-core family reads."""

from __future__ import annotations

from enum import Enum

from lower_tc.layout.errors import LayoutError


class Arch(Enum):
    """A PTX target with a tensor-core family that reads smem descriptors."""

    SM90A = "sm_90a"  # Hopper: wgmma.mma_async
    SM100A = "sm_100a"  # Blackwell: tcgen05.mma

    @classmethod
    def parse(cls, text: str) -> "Arch":
        for arch in cls:
            if arch.value == text:
                return arch
        known = ", ".join(a.value for a in cls)
        raise LayoutError(f"unknown target '{text}' (known: {known})")

    @property
    def family(self) -> str:
        return "wgmma" if self is Arch.SM90A else "tcgen05"

    def __str__(self) -> str:
        return self.value


# Element types each family reads from shared memory through a descriptor.
OPERAND_TYPES: dict[Arch, frozenset[str]] = {
    Arch.SM90A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"}),
    Arch.SM100A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "e2m1", "s8", "u8"}),
}

# Element types each family can read MN-major (transposed) from shared memory.
# wgmma transposes 16-bit types only (PTX ISA, wgmma imm-trans); tcgen05 also
# tf32, fp8 and 8-bit integers (CUTLASS UMMA::InstrDescriptor a_major_).
MN_MAJOR_TYPES: dict[Arch, frozenset[str]] = {
    Arch.SM90A: frozenset({"f16", "bf16"}),
    Arch.SM100A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"}),
}


def check_operand_type(arch: Arch, dtype_name: str, mn_major: bool) -> None:
    """Reject element types (or their MN-major form) that `arch` cannot read."""
    if dtype_name not in OPERAND_TYPES[arch]:
        raise LayoutError(
            f"{arch.family} ({arch}) does not read {dtype_name} operands from shared memory"
        )
    if mn_major and dtype_name not in MN_MAJOR_TYPES[arch]:
        allowed = ", ".join(sorted(MN_MAJOR_TYPES[arch]))
        raise LayoutError(
            f"{arch.family} ({arch}) cannot transpose {dtype_name}: MN-major operands "
            f"must be one of {allowed}; store the tile K-major"
        )
