"""Target architectures and which operand layouts each tensor-core family reads."""

from __future__ import annotations

from enum import Enum

from lower_tc.layout.errors import LayoutError
from lower_tc.layout.swizzle import Swizzle


class Arch(Enum):
    """A PTX target with a tensor-core family that reads smem descriptors."""

    SM90A = "sm_90a"  # Hopper: wgmma.mma_async
    SM100A = "sm_100a"  # Blackwell: tcgen05.mma
    # Blackwell Ultra: tcgen05 with the same descriptors, no kind::i8, and the LBO
    # absolute-address mode. Known to the descriptor tools only: lower-tc compiles
    # kernels for sm_90a and sm_100a (KERNEL_TARGETS).
    SM103A = "sm_103a"

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

    @property
    def is_tcgen05(self) -> bool:
        """Whether descriptors follow the tcgen05 format (version bits, 3-bit swizzle)."""
        return self is not Arch.SM90A

    def __str__(self) -> str:
        return self.value


#: The targets lower-tc compiles kernels for.
KERNEL_TARGETS = (Arch.SM90A, Arch.SM100A)

# Element types each family reads from shared memory through a descriptor.
# sm_103a has no kind::i8 (PTX ISA; ptxas: ".kind::i8 not supported on .target sm_103a").
OPERAND_TYPES: dict[Arch, frozenset[str]] = {
    Arch.SM90A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"}),
    Arch.SM100A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8"}),
    Arch.SM103A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1"}),
}

# Element types each family can read MN-major (transposed) from shared memory.
# wgmma transposes 16-bit types only (PTX ISA, wgmma imm-trans); tcgen05 also
# tf32, fp8 and 8-bit integers (CUTLASS UMMA::InstrDescriptor a_major_).
MN_MAJOR_TYPES: dict[Arch, frozenset[str]] = {
    Arch.SM90A: frozenset({"f16", "bf16"}),
    Arch.SM100A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"}),
    Arch.SM103A: frozenset({"f16", "bf16", "tf32", "e4m3", "e5m2"}),
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


def swizzle_rule(arch: Arch, dtype_name: str, mn_major: bool, swizzle: Swizzle) -> str | None:
    """Why `arch` cannot read this operand with `swizzle`, or None when it can.

    PTX ISA (tcgen05 "Transpose and Negate" notes): for kind::tf32 the transpose
    (MN-major) operand is read only with 128B swizzle of 32-byte atomicity, and no
    other kind transposes with that mode; it has no K-major form on any kind.
    """
    if swizzle is Swizzle.B128_BASE32B:
        if not arch.is_tcgen05:
            return "128b_base32b exists only on tcgen05 targets (sm_100a, sm_103a)"
        if not mn_major:
            return "128b_base32b exists only for MN-major operands"
        if dtype_name != "tf32":
            return "128b_base32b is for MN-major tf32 only: no other tcgen05 kind transposes with it"
    elif arch.is_tcgen05 and mn_major and dtype_name == "tf32":
        return "tcgen05 reads MN-major tf32 only with 128b_base32b (128-byte swizzle, 32-byte atomicity)"
    return None
