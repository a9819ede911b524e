"""The embedding API (lowering/api/embedding.py, re-exported by `lower_tc`): parsing with
locations, verifying, a pipeline of lower-tc's, xDSL's and the embedder's own passes, each
kernel's PTX, contract and cubin (assembled when first read: here by a stand-in assembler,
so no ptxas is needed), every fault in the program one CompileError with its place as
fields, remarks collected; and `lower_tc.__all__`, every name of which resolves while
`import lower_tc` alone loads no xDSL."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, StringAttr
from xdsl.passes import ModulePass

import lower_tc
from conftest import ROOT
from lower_tc.lowering.backend import assembler
from lower_tc.lowering.backend.ptxas import BackendError, ToolUnavailableError

GEMM = (ROOT / "examples" / "gemm_bf16.mlir").read_text()
TILE = (ROOT / "examples" / "wgmma_bf16_kmajor.mlir").read_text()
FULL = "tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx,ptx-lower-loops"
BAD_CONFIG = """func.func @g(%A: memref<256x128xbf16>, %B: memref<128x256xbf16>, %D: memref<256x256xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D config #tc.gemm_config<bm = 128, bn = 256, bk = 64, stages = 9> : memref<256x128xbf16>, memref<128x256xbf16>, memref<256x256xbf16>
  func.return
}
"""


@dataclass(frozen=True)
class Retarget(ModulePass):
    """An embedder's pass: every kernel to `target`."""

    name = "my-retarget"
    target: str = "sm_100a"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if "tc.target" in o.attributes:
                o.attributes["tc.target"] = StringAttr(self.target)


@dataclass(frozen=True)
class NoWideKernels(ModulePass):
    """An embedder's check, reporting at an op as lower-tc's passes do."""

    name = "my-no-wide-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if isinstance(o, func.FuncOp) and len(o.args) > 2:
                raise lower_tc.LocatedError(o, f"@{o.sym_name.data} takes {len(o.args)} arrays; we allow 2")


class Assembler:
    """A stand-in for nvJitLink/ptxas that counts its calls."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.calls: list[tuple[str, str]] = []
        self.fail = fail

    def __call__(self, ptx: str, target: str, *, kernel_locations=None) -> bytes:
        self.calls.append((ptx, target))
        if self.fail is not None:
            raise self.fail
        return b"\x7fELF stand-in"


# -- parse and verify --------------------------------------------------------------------


def test_parse_stamps_every_op_with_its_file_line_and_column() -> None:
    module = lower_tc.parse(TILE, "tile.mlir")
    ops = [op for op in module.walk() if op is not module]
    assert ops and all(isinstance(op.location, FileLineColLoc) for op in ops)
    places = {(op.name, op.location.line.data, op.location.column.data) for op in ops}  # type: ignore[union-attr]
    assert ("func.func", 3, 1) in places and ("tc.wgmma", 9, 3) in places
    assert {op.location.filename.data for op in ops} == {"tile.mlir"}  # type: ignore[union-attr]


def test_a_parse_error_is_a_compile_error_with_its_place() -> None:
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.parse(TILE.replace("tc.wgmma %a", "tc.wgmma %q"), "tile.mlir")
    e = err.value
    assert e.message == "tile.mlir:13:1: error: values used but not defined: [%q]"
    assert (e.file, e.line, e.column) == ("tile.mlir", 13, 1)
    assert isinstance(e.diagnostic, lower_tc.Diagnostic) and e.diagnostic.message == "values used but not defined: [%q]"
    assert e.__cause__ is not None


def test_a_bad_matmul_config_is_located_not_a_bare_verify_exception() -> None:
    expected = ("cfg.mlir:2:3: error: 9 stages of 128x64 + 256x64 tiles need 442512 bytes of shared memory, "
                "more than the 232448 (227 KiB) a block may use")
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.parse(BAD_CONFIG, "cfg.mlir")
    assert err.value.message == expected and (err.value.line, err.value.column) == (2, 3)
    module = lower_tc.parse(BAD_CONFIG, "cfg.mlir", verify=False)  # the same, verified later
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.verify(module)
    assert err.value.message == expected


def test_parse_takes_the_embedders_context_and_adds_tc_and_ptx() -> None:
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func

    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    module = lower_tc.parse(TILE, "tile.mlir", ctx)
    assert {"tc", "ptx"} <= set(ctx.registered_dialect_names)
    assert any(op.name == "tc.wgmma" for op in module.walk())
    lower_tc.parse(TILE, "again.mlir", ctx)  # registering twice is harmless


# -- run_passes ----------------------------------------------------------------------------


def test_run_passes_mixes_the_embedders_xdsls_and_lower_tcs_passes() -> None:
    module = lower_tc.parse(GEMM, "gemm.mlir")
    lower_tc.run_passes(module, [Retarget("sm_100a"), *lower_tc.default_pipeline()])
    (k,) = lower_tc.kernels(module)
    assert k.info.target == "sm_100a" and "tcgen05.mma" in k.ptx  # ours ran first: a tcgen05 GEMM
    module = lower_tc.parse(TILE, "tile.mlir")
    lower_tc.run_passes(module, "my-retarget{target=sm_90a},canonicalize," + FULL, registry={"my-retarget": lambda: Retarget})
    assert lower_tc.kernels(module)[0].info.target == "sm_90a"


def test_run_passes_without_passes_runs_the_default_pipeline() -> None:
    module = lower_tc.parse(GEMM, "gemm.mlir")
    lower_tc.run_passes(module)
    (k,) = lower_tc.kernels(module)
    assert k.name == "gemm_bf16" and k.info.gemm is not None and k.location == "gemm.mlir:3:1"


def test_run_passes_refuses_the_callers_mistakes_as_they_are() -> None:
    module = lower_tc.parse(TILE, "tile.mlir")
    with pytest.raises(ValueError, match="Unrecognized passes: \\['my-retarget'\\]"):
        lower_tc.run_passes(module, "my-retarget")
    with pytest.raises(TypeError, match="ModulePass instances or a pipeline spec, not str"):
        lower_tc.run_passes(module, ["tc-choose-swizzle"])  # type: ignore[list-item]


def test_a_missing_pass_is_a_compile_error_naming_it_at_its_op() -> None:
    module = lower_tc.parse(GEMM, "gemm.mlir")
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(module, "tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx")
    assert err.value.message == ("gemm.mlir:4:3: error: 'tc.matmul' is not expanded to the loop level at "
                                 "tc-lower-to-ptx: run tc-expand-matmul first")
    assert isinstance(err.value.__cause__, lower_tc.LocatedError)


def test_the_embedders_own_located_error_arrives_as_a_compile_error() -> None:
    module = lower_tc.parse(GEMM, "gemm.mlir")
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(module, [NoWideKernels(), *lower_tc.default_pipeline()])
    assert err.value.message == "gemm.mlir:3:1: error: @gemm_bf16 takes 3 arrays; we allow 2"


def test_a_verifier_failure_after_a_pass_is_reported_at_its_op() -> None:
    @dataclass(frozen=True)
    class Breaks(ModulePass):
        name = "my-breaks"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            for o in op.walk():
                if o.name == "tc.matmul":
                    o.attributes["config"] = StringAttr("not a config")

    module = lower_tc.parse(GEMM, "gemm.mlir")
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(module, [Breaks()])
    assert err.value.message == ("gemm.mlir:4:3: error: 'config' is not an attribute of tc.matmul: "
                                 "its options are properties (tc_schedule.GEMM_OPTIONS)")


def test_errors_in_a_module_built_in_memory_are_put_at_module() -> None:
    module = ModuleOp([])
    with pytest.raises(lower_tc.CompileError, match="^<module>: error: no kernel to lower") as err:
        lower_tc.run_passes(module, "tc-lower-to-ptx")
    assert (err.value.file, err.value.line, err.value.column) == ("<module>", None, None)


# -- remarks -------------------------------------------------------------------------------


def test_remarks_are_located_on_stderr_or_collected(capsys) -> None:
    module = lower_tc.parse(TILE, "tile.mlir")
    lower_tc.run_passes(module, "tc-choose-swizzle{remarks=true}")
    assert capsys.readouterr().err.splitlines()[0] == "tile.mlir:4:3: remark: 128b: the K extent is 128 bytes (64 x bf16)"
    module = lower_tc.parse(TILE, "tile.mlir")
    with lower_tc.remarks() as got:
        lower_tc.run_passes(module, "tc-choose-swizzle{remarks=true}")
    assert capsys.readouterr().err == ""
    assert [(r.file, r.line, r.column, r.severity) for r in got] == [("tile.mlir", 4, 3, "remark"), ("tile.mlir", 5, 3, "remark")]
    assert str(got[0]) == "tile.mlir:4:3: remark: 128b: the K extent is 128 bytes (64 x bf16)"


# -- kernels -------------------------------------------------------------------------------


def two_kernels() -> ModuleOp:
    module = lower_tc.parse(TILE + TILE.replace("@wgmma_bf16_kmajor", "@second"), "two.mlir")
    lower_tc.run_passes(module)
    return module


def test_kernels_share_one_ptx_module_assembled_once_when_first_read(monkeypatch) -> None:
    stand_in = Assembler()
    monkeypatch.setattr(assembler, "assemble", stand_in)
    first, second = lower_tc.kernels(two_kernels())
    assert (first.name, second.name) == ("wgmma_bf16_kmajor", "second")
    assert first.ptx == second.ptx and ".visible .entry second(" in first.ptx
    assert isinstance(first.info, lower_tc.contracts.KernelInfo) and first.location == "two.mlir:3:1"
    assert stand_in.calls == [] and not first.assembled
    assert first.cubin == second.cubin == b"\x7fELF stand-in"
    assert stand_in.calls == [(first.ptx, "sm_90a")]  # once for both
    k = second.kernel()
    assert isinstance(k, lower_tc.Kernel) and k.name == "second" and k.info == second.info


@pytest.mark.parametrize("failure, message", [
    (BackendError("ptxas (x) rejected the PTX for sm_90a with exit status 255 (1 error):\n"
                  "two.mlir:9:3: error: ptxas: Unknown modifier\n    kernel second, PTX line 40: wgmma"),
     "two.mlir", ),
    (ToolUnavailableError("ptxas not found: looked on PATH"), None),
])
def test_a_failure_to_assemble_is_a_compile_error(monkeypatch, failure, message) -> None:
    monkeypatch.setattr(assembler, "assemble", Assembler(fail=failure))
    (k, _) = lower_tc.kernels(two_kernels())
    with pytest.raises(lower_tc.CompileError) as err:
        k.cubin
    assert err.value.__cause__ is failure
    if message:  # ptxas's error, pointed back at the op, is the place
        assert (err.value.file, err.value.line, err.value.column) == ("two.mlir", 9, 3)
    else:
        assert err.value.message == "two.mlir: error: ptxas not found: looked on PATH" and err.value.line is None


def test_kernels_of_a_module_not_lowered_name_the_pass() -> None:
    module = lower_tc.parse(GEMM, "gemm.mlir")
    lower_tc.run_passes(module, "tc-expand-matmul,tc-choose-swizzle,tc-assign-smem,tc-compute-descriptors,tc-lower-to-ptx")
    with pytest.raises(lower_tc.CompileError, match="^gemm.mlir:4:3: error: 'scf.for' inside ptx.kernel at PTX printing: run ptx-lower-loops first$"):
        lower_tc.kernels(module)
    module = lower_tc.parse(GEMM, "gemm.mlir")
    with pytest.raises(lower_tc.CompileError, match="^gemm.mlir:3:1: error: this kernel is still tc IR at PTX printing: run tc-lower-to-ptx first$"):
        lower_tc.print_ptx(module)


def test_the_command_line_prints_the_message_the_api_raises(tmp_path, capsys) -> None:
    from lower_tc.lowering.cli.main import main

    path = tmp_path / "gemm.mlir"
    path.write_text(GEMM)
    assert main([str(path), "-p", "tc-expand-matmul,tc-lower-to-ptx"]) == 1
    printed = capsys.readouterr().err.strip()
    with pytest.raises(lower_tc.CompileError) as err:
        lower_tc.run_passes(lower_tc.parse(GEMM, str(path)), "tc-expand-matmul,tc-lower-to-ptx")
    assert printed == err.value.message


# -- lower_tc.__all__ ----------------------------------------------------------------------


def test_every_name_in_all_resolves_and_every_export_is_in_all() -> None:
    for name in lower_tc.__all__:
        assert getattr(lower_tc, name) is not None, name
    exports = set(lower_tc._EXPORTS) | set(lower_tc._SUBMODULES) | {"__version__"}
    assert exports == set(lower_tc.__all__)
    from lower_tc.layout.kernel_info import KernelInfo

    assert lower_tc.contracts.KernelInfo is KernelInfo  # the one class, re-exported
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        lower_tc.nope  # noqa: B018


def test_import_lower_tc_and_its_contracts_load_no_xdsl() -> None:
    probe = ("import sys, lower_tc\nlower_tc.__all__\nlower_tc.contracts.KernelInfo, lower_tc.contracts.KERNEL_INFO_VERSION\n"
             "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    loaded = done.stdout.split()
    assert "lower_tc.contracts" in loaded
    assert not any(m == "xdsl" or m.startswith(("xdsl.", "cuda")) for m in loaded)
