"""The kernel's dynamic shared memory, taken part by part in a fixed order: the ring
tiles (placed by tc-assign-smem), the stages' barriers, the TMA-store epilogue's staging
pieces, the tcgen05 barriers and tensor-memory slot. The order is the layout: a part
that took its bytes earlier or later would move every offset after it."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from lower_tc.dialects.diagnostics import error_at
from lower_tc.layout.limits import SMEM_CAPACITY


@dataclass
class SharedMemory:
    """Where the kernel's dynamic shared memory is free: after the ring tiles, the
    barriers and whatever else the parts take, in the order they take it."""

    end: int

    def take(self, size: int, align: int) -> int:
        """The offset of `size` bytes at the next multiple of `align`."""
        offset = -(-self.end // align) * align
        self.end = offset + size
        return offset

    def total(self, kernel: Operation) -> int:
        """The dynamic shared memory to launch with (16-byte multiple), at most 227 KiB."""
        smem_bytes = -(-self.end // 16) * 16
        if smem_bytes > SMEM_CAPACITY:
            error_at(kernel, f"the kernel needs {smem_bytes} bytes of shared memory, beyond 227 KiB")
        return smem_bytes
