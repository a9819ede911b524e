"""The SASS check: proof that the tensor-core instruction survived ptxas.

ptxas accepting a kernel does not mean the MMA is in it: a wgmma that ptxas could not
keep asynchronous gets serialised, code that is unreachable is dropped. Disassembling
the cubin and looking for the tensor-core opcodes (HGMMA, UTCHMMA, ...) settles it
without a GPU.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from lower_tc.lowering.backend.ptxas import BackendError, ToolUnavailableError, find_tool, run_tool

#: SASS opcodes that prove each MMA family / kind (or TMA) is really in the cubin.
#: Observed with nvdisasm 13.2 on cubins from ptxas 13.0.
EXPECTED_SASS: dict[str, tuple[str, ...]] = {
    # Hopper warpgroup MMA (sm_90a)
    "wgmma.f16": ("HGMMA",),
    "wgmma.bf16": ("HGMMA",),
    "wgmma.tf32": ("HGMMA",),
    "wgmma.e4m3": ("QGMMA",),
    "wgmma.e5m2": ("QGMMA",),
    "wgmma.s8": ("IGMMA",),
    "wgmma.u8": ("IGMMA",),
    # warp-level WMMA
    "wmma.f16": ("HMMA",),
    "wmma.bf16": ("HMMA",),
    "wmma.tf32": ("HMMA",),
    "wmma.s8": ("IMMA",),
    "wmma.u8": ("IMMA",),
    # Blackwell tcgen05.mma (sm_100a), by kind
    "tcgen05.f16": ("UTCHMMA",),
    "tcgen05.tf32": ("UTCHMMA",),
    "tcgen05.f8f6f4": ("UTCQMMA",),
    "tcgen05.i8": ("UTCIMMA",),
    # TMA tile load (cp.async.bulk.tensor ... global -> shared)
    "tma": ("UTMALDG",),
    # a tile transposed in shared memory by threads (tc.tile_transpose): byte permutes, and
    # the generic-to-async proxy fence before wgmma reads what they stored
    "smem_transpose": ("PRMT", "FENCE.VIEW.ASYNC.S"),
}

INSTALL_HINT = (
    "Install NVIDIA's disassembler with `pip install nvidia-cuda-nvdisasm` (it comes with "
    "`pip install 'lower-tc[test]'`), or put a CUDA toolkit's nvdisasm or cuobjdump on PATH."
)

#: Optional address comment, brace, predicate, then the opcode with its dotted modifiers.
_INSTR = re.compile(
    r"^\s*(?:/\*[0-9a-fA-F]+\*/)?\s*\{?\s*(?:@!?\w+\s+)?"
    r"(?P<op>[A-Z][A-Z0-9_]*(?:\.[A-Za-z0-9_]+)*)(?=[\s;]|$)"
)


def find_disassembler(*, extra_roots: Iterable[Path | str] = ()) -> Path | None:
    """nvdisasm (preferred: it takes a bare cubin and prints plain SASS), else cuobjdump,
    else None. A copy that exists but is not executable raises BackendError unless the
    other tool is usable."""
    roots = list(extra_roots)
    broken: BackendError | None = None
    for name in ("nvdisasm", "cuobjdump"):
        try:
            found = find_tool(name, extra_roots=roots)
        except BackendError as err:
            broken = broken or err
            continue
        if found is not None:
            return found
    if broken is not None:
        raise broken
    return None


def disassemble(cubin: bytes, *, tool: Path | None = None) -> str:
    """The SASS text of a cubin (``nvdisasm -c`` or ``cuobjdump -sass``)."""
    tool = tool or find_disassembler()
    if tool is None:
        raise ToolUnavailableError(f"no SASS disassembler found (nvdisasm or cuobjdump). {INSTALL_HINT}")
    flag = "-sass" if tool.name.startswith("cuobjdump") else "-c"
    with tempfile.TemporaryDirectory(prefix="lower-tc-sass-") as tmp:
        path = Path(tmp) / "kernel.cubin"
        path.write_bytes(cubin)
        proc = run_tool([str(tool), flag, str(path)], what=tool.name)
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip() or "(no output)"
        raise BackendError(f"{tool.name} could not disassemble the cubin (exit status {proc.returncode}): {detail}")
    return proc.stdout


def sass_opcodes(sass_text: str) -> list[str]:
    """Each instruction's full opcode (``HGMMA.64x16x16.F32.BF16``), in order."""
    ops = []
    for line in sass_text.splitlines():
        m = _INSTR.match(line)
        if m:
            ops.append(m.group("op"))
    return ops


def check_sass(sass_text: str, mnemonics: Iterable[str]) -> list[str]:
    """The expected mnemonics that no instruction has. A mnemonic matches an opcode
    whole or up to a dot: "HGMMA" matches ``HGMMA.64x128x16.F32.BF16``, and "HMMA"
    does not match ``HGMMA``."""
    ops = set(sass_opcodes(sass_text))
    return [
        m for m in mnemonics
        if not any(op == m or op.startswith(m + ".") for op in ops)
    ]
