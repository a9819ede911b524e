"""Prints a module of `ptx` dialect ops as PTX text (`-t ptx`, and the PTX that `-t cubin`
assembles).

It only prints: it names registers (by type: %p predicates, %h 16-bit, %r
32-bit, %rd 64-bit, %f f32; a register run takes consecutive names), declares
them, and asks each op for its line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, Float32Type, IntegerType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target

from lower_tc.dialects.diagnostics import error_at
from lower_tc.dialects.pass_order import LOWER_LOOPS, LOWER_TO_PTX, run_first
from lower_tc.dialects.tc_kernel import TARGET_ATTR as KERNEL_TARGET_ATTR
from lower_tc.dialects.ptx.base import COMMENT, PtxOp, RegsType, regs_list
from lower_tc.dialects.ptx.control import LabelOp
from lower_tc.dialects.ptx.kernel import PTX_VERSION, TARGET_ATTR, VERSION_ATTR, KernelOp, TableOp
from lower_tc.dialects.ptx.moves import RegOfOp

#: Comment marker before the PTX of each source op: ``// from file:line:col``.
LOC_MARK = "from"

_POOLS = {
    ("i", 1): ("pred", "%p"),
    ("i", 16): ("b16", "%h"),
    ("i", 32): ("b32", "%r"),
    ("i", 64): ("b64", "%rd"),
    ("f", 32): ("f32", "%f"),
}


def _pool(t: Attribute) -> tuple[str, str]:
    if isinstance(t, IntegerType):
        return _POOLS[("i", t.width.data)]
    if isinstance(t, Float32Type):
        return _POOLS[("f", 32)]
    raise DiagnosticException(f"no PTX register class for type {t}")


class _Registers:
    """Register names for one kernel."""

    def __init__(self) -> None:
        self.names: dict[SSAValue, str] = {}
        self.counts: dict[str, int] = {}

    def _take(self, t: Attribute, count: int) -> list[str]:
        _, prefix = _pool(t)
        start = self.counts.get(prefix, 0)
        self.counts[prefix] = start + count
        return [f"{prefix}{i}" for i in range(start, start + count)]

    def name(self, value: SSAValue) -> str:
        if value not in self.names:
            t = value.type
            if isinstance(t, RegsType):
                self.names[value] = ",".join(self._take(t.element_type, t.count.data))
            else:
                self.names[value] = self._take(t, 1)[0]
        return self.names[value]

    def declarations(self) -> list[str]:
        decl = []
        for (kind, prefix) in _POOLS.values():
            if prefix in self.counts:
                decl.append(f".reg .{kind} {prefix}<{self.counts[prefix]}>;")
        return decl


#: Where the printer says it is in a "run PASS first" error.
PRINTING = "PTX printing"


def _render(op: Operation, regs: _Registers) -> str:
    """One op's PTX line, or a located error for IR the ptx dialect cannot print
    (hand-written or built by another pass: a foreign op, an op short of operands or
    registers; the verifier refuses a wrong modifier before)."""
    if not isinstance(op, PtxOp):
        if op.dialect_name() == "scf":  # the K loop tc-lower-to-ptx keeps for ptx-lower-loops
            run_first(op, f"'{op.name}' inside ptx.kernel", LOWER_LOOPS, PRINTING)
        error_at(op, f"'{op.name}' inside ptx.kernel: only ptx ops can be printed as PTX")
    try:
        if isinstance(op, RegOfOp):  # an alias: the run's register, no name of its own
            regs.names[op.res[0]] = regs_list(regs.name, op.args[0])[op.prop("regs")]  # type: ignore[index]
        for r in op.res:
            regs.name(r)
        return op.render(regs.name)
    except DiagnosticException as err:
        error_at(op, str(err))
    except (KeyError, IndexError, AttributeError, TypeError, ValueError) as err:
        error_at(op, f"'{op.name}' is malformed and cannot be printed ({type(err).__name__}: {err})")


def print_kernel(kernel: KernelOp, out: IO[str]) -> None:
    regs = _Registers()
    body: list[str] = []
    last_loc = None
    for op in kernel.body.block.ops:
        text = _render(op, regs)
        if not text:
            continue
        loc = op.location
        if isinstance(loc, FileLineColLoc) and loc != last_loc:
            body.append(f"\t// {LOC_MARK} {loc.filename.data}:{loc.line.data}:{loc.column.data}")
            last_loc = loc
        if isinstance(op, LabelOp):
            body.append(text)
        else:
            comment = op.attributes.get(COMMENT)
            if isinstance(comment, StringAttr):
                body.append(f"\t// {comment.data}")
            body.append(f"\t{text}")
    if kernel.info is not None:
        info = json.loads(kernel.info.data)
        out.write(f"// lower-tc kernel {kernel.sym_name.data}: {json.dumps(info, sort_keys=True)}\n")
    params = ",\n".join(f"\t{p.data}" for p in kernel.params.data)
    out.write(f".visible .entry {kernel.sym_name.data}(\n{params}\n)\n")
    out.write(f".reqntid {kernel.threads.data}, 1, 1\n")
    if kernel.maxnreg is not None:
        out.write(f".maxnreg {kernel.maxnreg.data}\n")
    if kernel.cluster is not None:
        out.write(f".reqnctapercluster {kernel.cluster.data}, 1, 1\n")
    out.write("{\n")
    for line in regs.declarations():
        out.write(f"\t{line}\n")
    out.write("\n")
    for line in body:
        out.write(line + "\n")
    out.write("}\n")


def print_module(module: ModuleOp, out: IO[str]) -> None:
    """The whole PTX file of a lowered module."""
    target = module.attributes.get(TARGET_ATTR)
    if not isinstance(target, StringAttr):
        kernel = next((o for o in module.walk() if KERNEL_TARGET_ATTR in o.attributes), None)
        if kernel is not None:
            run_first(kernel, "this kernel is still tc IR", LOWER_TO_PTX, PRINTING)
        raise DiagnosticException(
            "the module has no ptx.target: lower it with tc-lower-to-ptx first (-p)"
        )
    arch = target.data
    if arch not in PTX_VERSION:
        raise DiagnosticException(f"ptx.target {arch!r} is not one lower-tc prints: {', '.join(PTX_VERSION)}")
    version = module.attributes.get(VERSION_ATTR)
    version_text = version.data if isinstance(version, StringAttr) else PTX_VERSION[arch]
    out.write("//\n// Generated by lower-tc\n//\n\n")
    out.write(f".version {version_text}\n.target {arch}\n.address_size 64\n\n")
    kernels = []
    for op in module.walk():
        if isinstance(op, TableOp):
            values = op.values.get_values()
            body = ", ".join(str(v & 0xFFFFFFFF) for v in values)
            out.write(f".global .align 16 .u32 {op.sym_name.data}[{len(values)}] = {{{body}}};\n")
        elif isinstance(op, KernelOp):
            kernels.append(op)
        elif op.name.startswith("tc."):
            raise DiagnosticException(f"'{op.name}' was not lowered to the ptx dialect")
        # anything else (host functions, a gpu.module around the kernels) is not device code
    out.write("\n.extern .shared .align 1024 .b8 smem[];\n\n")
    for kernel in kernels:
        print_kernel(kernel, out)
        out.write("\n")


@dataclass(frozen=True)
class PtxTarget(Target):
    """`-t ptx`: print the lowered module as PTX text."""

    name = "ptx"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        print_module(module, output)


@dataclass(frozen=True)
class CubinTarget(PtxTarget):
    """`-t cubin`: the driver assembles this target's PTX with ptxas."""

    name = "cubin"
