"""The kernel's first instructions: the registers every thread computes (its thread
index, the shared-memory base, its warpgroup), each global operand's address, and the
sizes known only at launch (one .u32 parameter per rows, cols and leading dimension).
A `tc.transpose` view of an argument is that argument's address with the view's
geometry (`read_views`): it emits nothing."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import i1, i64
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.tc_gemm import Matrix, matrix
from lower_tc.layout.kernel_info import SizeParam
from lower_tc.passes.to_ptx.emit import param_name
from lower_tc.passes.to_ptx.emit import PtxBuilder

#: The .u32 parameters of an argument whose sizes are known at launch (a batch of
#: matrices has the last two as well).
SIZE_PARAMS = ("rows", "cols", "ld")
BATCH_SIZE_PARAMS = ("batch", "batch_stride")


def dim_names(geometry: Matrix) -> tuple[str, ...]:
    """What each dimension of the argument's memref is (for memref.dim and tc.grid)."""
    return ("batch", "rows", "cols") if geometry.batched else ("rows", "cols")


@dataclass(frozen=True)
class Prologue:
    """What every thread computes first."""

    tid: SSAValue
    smem: SSAValue  # the dynamic shared memory's address
    smem16: SSAValue  # smem >> 4: what a descriptor's start field adds
    is_thread0: SSAValue
    wg: SSAValue  # tid / 128: the thread's warpgroup


@dataclass
class KernelArgs:
    """The kernel's global operands: address registers, geometry, run-time sizes."""

    values: list[SSAValue]
    address: dict[SSAValue, SSAValue] = field(default_factory=dict)
    geometry: dict[SSAValue, Matrix] = field(default_factory=dict)
    sizes: dict[tuple[SSAValue, str], SSAValue] = field(default_factory=dict)  # registers of launch-time sizes
    size_params: list[SizeParam] = field(default_factory=list)
    views: dict[SSAValue, SSAValue] = field(default_factory=dict)  # a tc.transpose view -> its argument

    def size(self, arg: SSAValue, what: str) -> int | SSAValue:
        """An argument's rows, cols, ld, batch or batch_stride: a number, or the register
        of its parameter."""
        value = getattr(self.geometry[arg], what)
        return value if value is not None else self.sizes[(arg, what)]

    def index(self, arg: SSAValue) -> int:
        """The argument's position (its entry in the launch metadata); a view's is its
        argument's."""
        return self.values.index(self.views.get(arg, arg))


def waits_first(ops: list[Operation]) -> bool:
    """Whether a kernel's first emitted instruction is read_operands's griddepcontrol.wait
    (what KernelInfo.dependent_launch promises a launcher)."""
    return bool(ops) and isinstance(ops[0], ptx.GriddepWaitOp)


def read_operands(b: PtxBuilder, kernel: Operation) -> tuple[Prologue, KernelArgs]:
    """Emits the prologue: thread registers, operand addresses, launch-time sizes. It
    starts with griddepcontrol.wait, before anything reads or writes global memory: the
    kernel may be launched while the one before it in the stream finishes (programmatic
    dependent launch, KernelInfo.dependent_launch), and waits here until that one's
    memory is visible."""
    block = tc.kernel_body(kernel)
    b.emit(ptx.GriddepWaitOp, comment="prologue: the kernel before in the stream has finished (dependent launch)")
    tid = b.val(ptx.SregOp, sreg="tid.x", comment="prologue")
    smem = b.val(ptx.SymAddrOp, type="u32", symbol="smem")
    smem16 = b.val(ptx.ShrOp, [smem], type="u32", imm=4)
    args = KernelArgs(list(block.args))
    for arg in block.args:
        raw = b.val(ptx.LdParamOp, result=i64, type="u64", param=param_name(arg))
        args.address[arg] = b.val(ptx.CvtaToGlobalOp, [raw], i64, type="u64")
    for arg in block.args:
        try:
            geometry = matrix(arg.type, f"kernel argument {param_name(arg)}", batched=True, nested=True)
        except VerifyException as err:
            error_at(kernel, str(err))
        args.geometry[arg] = geometry
        if not geometry.static:
            for what in SIZE_PARAMS + (BATCH_SIZE_PARAMS if geometry.batched else ()):
                name = f"{param_name(arg)}_{what}"
                args.size_params.append(SizeParam(name, arg.index, what))  # type: ignore[attr-defined]
                args.sizes[(arg, what)] = b.val(ptx.LdParamOp, type="u32", param=name)
    read_views(kernel, args)
    is_thread0 = b.val(ptx.SetpOp, [tid], i1, cmp="eq", type="u32", imm=0)
    wg = b.val(ptx.ShrOp, [tid], type="u32", imm=7)
    return Prologue(tid, smem, smem16, is_thread0, wg), args


#: A view's sizes from its argument's: rows and columns swap, the leading dimension and
#: the batch stay.
TRANSPOSED_SIZES = {"rows": "cols", "cols": "rows", "ld": "ld", "batch": "batch", "batch_stride": "batch_stride"}


def read_views(kernel: Operation, args: KernelArgs) -> None:
    """Each tc.transpose of a kernel argument in the kernel's body: the argument's address
    and launch-time size registers (rows and columns swapped), the view's own geometry
    (the windows read it as a matrix of the other major-ness; a store into D's view writes
    D^T: swap-AB). Located errors for a view of anything but an argument."""
    for op in tc.kernel_body(kernel).ops:
        if not isinstance(op, tc.TransposeOp):
            continue
        arg = op.source
        if arg not in args.values:
            error_at(op, "tc.transpose views a kernel argument in a GEMM kernel (not another view)")
        try:
            args.geometry[op.result] = matrix(op.result.type, f"the transpose of {param_name(arg)}", batched=True, nested=True)
        except VerifyException as err:
            error_at(op, str(err))
        args.views[op.result] = arg
        args.address[op.result] = args.address[arg]
        for what, theirs in TRANSPOSED_SIZES.items():
            if (arg, theirs) in args.sizes:
                args.sizes[(op.result, what)] = args.sizes[(arg, theirs)]
