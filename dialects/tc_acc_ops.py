"""Accumulator ops (``tc.acc_zero``, ``tc.acc_load``, ``tc.acc_store``) and the accumulator
shapes each target allows."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_kernel import enclosing_kernel, in_gemm_k_loop, in_gemm_kernel, kernel_target, lost_gemm_loop
from lower_tc.dialects.tc_types import AccType, _memref_shape, dtype_name, matrix_strides
from lower_tc.layout.gemm import WGMMA_ACCUMULATORS, gemm_valid_n, wgmma_valid_n
from lower_tc.layout.instr_desc import valid_n
from lower_tc.layout.targets import Arch


@irdl_op_definition
class AccZeroOp(IRDLOperation):
    """A zero accumulator: ``%acc = tc.acc_zero : !tc.acc<64x128xf32>``."""

    name = "tc.acc_zero"
    acc = result_def(AccType)
    assembly_format = "attr-dict `:` type($acc)"

    def __init__(self, acc_type: AccType):
        super().__init__(result_types=[acc_type])

    def verify_(self) -> None:
        _check_acc_shape(self, self.acc.type)


@irdl_op_definition
class AccLoadOp(IRDLOperation):
    """An accumulator initialised from C: ``%acc = tc.acc_load %C : memref<..> -> !tc.acc<..>``."""

    name = "tc.acc_load"
    src = operand_def(MemRefType)
    acc = result_def(AccType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($acc)"

    def verify_(self) -> None:
        _check_acc_shape(self, self.acc.type)
        _check_acc_memref(self.acc.type, self.src.type, "C")


@irdl_op_definition
class AccStoreOp(IRDLOperation):
    """Writes an accumulator to global memory: ``tc.acc_store %acc to %D : !tc.acc<..>, memref<..>``."""

    name = "tc.acc_store"
    acc = operand_def(AccType)
    dst = operand_def(MemRefType)
    assembly_format = "$acc `to` $dst attr-dict `:` type($acc) `,` type($dst)"

    def verify_(self) -> None:
        _check_acc_memref(self.acc.type, self.dst.type, "D")


def wgmma_ns(op: Operation, dtype: str, n: int) -> tuple[int, ...]:
    """The N a tc.wgmma (of `dtype` operands) or its accumulator may have where `op` is:
    one wgmma's (`wgmma_valid_n`), and in a GEMM kernel's K loop also WIDE_WGMMA_NS (several
    wgmmas a K-slice: layout/gemm.py `gemm_valid_n`). The kernel is walked only where `n`
    is past one wgmma's, so that a chain of thousands of wgmmas verifies in linear time."""
    ns = wgmma_valid_n(dtype)
    return gemm_valid_n(dtype) if n not in ns and in_gemm_k_loop(op) else ns


def _check_acc_shape(op: Operation, acc: Attribute) -> None:
    """An accumulator the kernel's tensor cores can hold: wgmma's is one warpgroup's
    M = 64 register fragment, tcgen05's M = 64 or 128 rows of tensor memory; N as the
    MMA instructions allow (the stores assume it)."""
    assert isinstance(acc, AccType)
    arch = kernel_target(op)
    if arch is None:
        return
    integer = acc.dtype == "s32"
    if arch is Arch.SM90A:
        if in_gemm_kernel(op):
            if acc.m % 64 or not 64 <= acc.m <= 256:
                raise VerifyException(
                    f"a GEMM kernel's accumulator has M = 64, 128, 192 or 256 (one warpgroup "
                    f"per 64 rows), not {acc.m}"
                )
        elif acc.m != 64:
            raise VerifyException(_wgmma_m_problem(op, acc.m))
        ok_n = wgmma_ns(op, "s8" if integer else "f16", acc.n)
    else:
        if acc.m not in (64, 128):
            raise VerifyException(f"a tcgen05 accumulator has M = 64 or 128 (tensor-memory lanes), not {acc.m}")
        ok_n = valid_n("i8" if integer else "f16")
    if acc.n not in ok_n:
        rule = "8, 16, 24, then multiples of 16" if integer else "a multiple of 8"
        more = f", or {max(ok_n)} (several wgmmas a K-slice)" if max(ok_n) > 256 else ""
        raise VerifyException(f"an accumulator's N must be {rule} from 8 to 256{more}, not {acc.n}")


def _wgmma_m_problem(op: Operation, m: int) -> str:
    """Why an sm_90a single-tile accumulator of M = `m` rows is wrong: the kernel was a
    loop-level GEMM whose loop is gone, it holds tcgen05 MMAs (sm_100a's), or M is not
    wgmma's 64."""
    kernel = enclosing_kernel(op)
    lost = lost_gemm_loop(kernel)
    if lost:
        return lost
    if kernel is not None and any(o.name == "tc.tcgen05_mma" for o in kernel.walk()):
        return ("tc.tcgen05_mma needs target sm_100a, but the kernel targets sm_90a "
                "(tcgen05 is Blackwell's; on sm_90a, tc.wgmma multiplies with M = 64)")
    return f"a wgmma accumulator has M = 64 (one warpgroup's registers), not {m}"


def _check_acc_memref(acc: Attribute, mem: Attribute, what: str) -> None:
    assert isinstance(acc, AccType)
    rows, cols = _memref_shape(mem, what)
    if (rows, cols) != (acc.m, acc.n):
        raise VerifyException(f"{what} is {rows}x{cols} but the accumulator is {acc.m}x{acc.n}")
    if matrix_strides(mem, what) != (cols, 1):
        raise VerifyException(f"{what} must be dense and row-major (the default memref layout)")
    assert isinstance(mem, MemRefType)
    if dtype_name(mem.element_type) != acc.dtype:
        raise VerifyException(
            f"{what} holds {dtype_name(mem.element_type)} but the accumulator is {acc.dtype}"
        )

#: This module's ops, in the order dialects/tc.py registers them.
ACC_OPS = [AccZeroOp, AccLoadOp, AccStoreOp]
