"""The artifact on disk (lowering/runtime/artifact.py): a cubin and its launch metadata
beside it, written both or neither, read back with each refusal naming the file; and
`lower-tc k.mlir -t cubin -o g.cubin` writing both. No GPU needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.kernel_info import ArgInfo, GemmInfo, GridFromArg, KernelInfo, PersistentGrid, SizeParam, TensorMap
from lower_tc.lowering.backend.ptxas import find_tool
from lower_tc.lowering.runtime.artifact import (
    ARTIFACT_FORMAT, ARTIFACT_VERSION, Artifact, ArtifactError, artifact_metadata, metadata_path, read_artifact,
    write_artifact,
)

CUBIN = b"\x7fELF not really a cubin"

DYNAMIC = KernelInfo(
    name="gemm_dyn", target="sm_90a", threads=384, smem_bytes=230400,
    args=(
        ArgInfo("p_A", (None, None), (None, 1), "bf16", False),
        ArgInfo("p_B", (None, None), (None, 1), "bf16", False),
        ArgInfo("p_D", (None, None), (None, 1), "bf16", True),
    ),
    tensor_maps=(TensorMap("tmap_0", 0, "bf16", (64, 128), "128b", 3, None, None, l2_promotion=2),),
    grid=(GridFromArg(2, 1, 256), GridFromArg(2, 0, 128), 1),
    size_params=(SizeParam("p_A_rows", 0, "rows"), SizeParam("p_A_ld", 0, "ld")),
    gemm=GemmInfo(0, 1, 2, None, None, None, None, "f32", GemmConfig(128, 256, 64, 4)),
)
PERSISTENT = replace(DYNAMIC, name="gemm_persistent", grid=(PersistentGrid(512), 1, 1), cluster=(2, 1, 1))
SINGLE = KernelInfo(name="tile", target="sm_90a", threads=128, smem_bytes=0,
                    args=(ArgInfo("p_D", (64, 16), (16, 1), "f32", True),))

needs_ptxas = pytest.mark.skipif(find_tool("ptxas") is None, reason="ptxas not found (pip install 'lower-tc[ptxas]')")


def _written(tmp_path: Path, infos=(DYNAMIC, PERSISTENT, SINGLE), target: str = "sm_90a") -> Path:
    path = tmp_path / "g.cubin"
    write_artifact(path, CUBIN, infos, target)
    return path


def _edit(path: Path, **changes) -> None:
    """Rewrites the metadata beside `path` with top-level fields changed (None: removed)."""
    meta = Path(metadata_path(path))
    document = json.loads(meta.read_text())
    for key, value in changes.items():
        if value is None:
            document.pop(key, None)
        else:
            document[key] = value
    meta.write_text(json.dumps(document))


# -- the round trip --------------------------------------------------------------------------


def test_an_artifact_reads_back_as_written(tmp_path) -> None:
    path = _written(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cubin", "g.cubin.json"]
    back = read_artifact(path)
    assert back == Artifact(CUBIN, (DYNAMIC, PERSISTENT, SINGLE), "sm_90a")
    assert back.names == ("gemm_dyn", "gemm_persistent", "tile")
    assert read_artifact(str(path)) == back  # a str path too


def test_the_metadata_is_versioned_json_with_every_kernel(tmp_path) -> None:
    document = json.loads(Path(metadata_path(_written(tmp_path))).read_text())
    assert document["format"] == ARTIFACT_FORMAT and document["version"] == ARTIFACT_VERSION == 1
    assert document["target"] == "sm_90a" and document["lower_tc"]
    assert len(document["cubin_sha256"]) == 64
    assert [KernelInfo.from_dict(k) for k in document["kernels"]] == [DYNAMIC, PERSISTENT, SINGLE]
    assert document["kernels"][1]["grid"][0] == {"persistent": 512}


def test_a_new_artifact_replaces_the_old_pair(tmp_path) -> None:
    path = _written(tmp_path)
    write_artifact(path, b"\x7fELF another", [SINGLE], "sm_90a")
    assert read_artifact(path) == Artifact(b"\x7fELF another", (SINGLE,), "sm_90a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cubin", "g.cubin.json"]


def test_kernels_no_reader_could_use_are_not_written(tmp_path) -> None:
    with pytest.raises(ValueError, match="kernel tile is for sm_90a, the cubin for sm_100a"):
        write_artifact(tmp_path / "g.cubin", CUBIN, [SINGLE], "sm_100a")
    with pytest.raises(ValueError, match="two kernels are named tile"):
        write_artifact(tmp_path / "g.cubin", CUBIN, [SINGLE, SINGLE], "sm_90a")
    assert list(tmp_path.iterdir()) == []


# -- both or neither -------------------------------------------------------------------------


def test_a_failed_write_leaves_the_old_pair_and_no_temporary_file(tmp_path) -> None:
    path = _written(tmp_path, [SINGLE])
    os.unlink(metadata_path(path))
    os.mkdir(metadata_path(path))  # the metadata's place is taken by a folder
    with pytest.raises(IsADirectoryError) as info:
        write_artifact(path, b"\x7fELF new", [SINGLE], "sm_90a")
    assert info.value.filename == metadata_path(path)
    assert path.read_bytes() == CUBIN
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cubin", "g.cubin.json"]


def test_a_write_past_the_file_size_limit_writes_neither(tmp_path) -> None:
    """The cubin's temporary file fails (RLIMIT_FSIZE): the old pair stays, nothing else."""
    path = _written(tmp_path, [SINGLE])
    code = (
        "import resource, sys\n"
        "from lower_tc.lowering.runtime.artifact import write_artifact\n"
        "from test_artifact import SINGLE\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "try: write_artifact(sys.argv[1], bytes(10000), [SINGLE], 'sm_90a')\n"
        "except OSError as err: print(err.filename, err.strerror); sys.exit(1)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "tests")})
    assert done.returncode == 1, done.stderr
    assert done.stdout == f"{path} File too large\n"
    assert read_artifact(path) == Artifact(CUBIN, (SINGLE,), "sm_90a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cubin", "g.cubin.json"]


# -- the refusals, each naming the file ------------------------------------------------------


def test_a_cubin_without_metadata_is_refused(tmp_path) -> None:
    path = tmp_path / "g.cubin"
    path.write_bytes(CUBIN)
    with pytest.raises(ArtifactError, match=(
        f"^{path} has no launch metadata: {path}.json is missing \\(`lower-tc k.mlir -t cubin -o {path}` writes both files\\)$"
    )):
        read_artifact(path)


def test_a_missing_cubin_is_refused(tmp_path) -> None:
    with pytest.raises(ArtifactError, match=f"^cannot read the cubin {tmp_path}/none.cubin: No such file or directory$"):
        read_artifact(tmp_path / "none.cubin")


@pytest.mark.parametrize(("text", "why"), [
    ("{not json", r"not JSON \(Expecting property name"),
    ("\xff\xfe", r"not JSON"),
    ("[1, 2]", r'not lower-tc launch metadata \(it has no "format"; lower-tc writes "format": "lower-tc-artifact"\)'),
    ('{"name": "k", "version": 1}', r'not lower-tc launch metadata \(it has no "format"'),
    ('{"format": "triton-kernel", "version": 1}', r"""not lower-tc launch metadata \(its "format" is 'triton-kernel'"""),
])
def test_foreign_or_broken_metadata_is_refused(tmp_path, text, why) -> None:
    path = _written(tmp_path)
    Path(metadata_path(path)).write_bytes(text.encode("latin-1"))
    with pytest.raises(ArtifactError, match=f"^{path}.json: {why}"):
        read_artifact(path)


def test_newer_and_older_metadata_is_refused_with_the_way_out(tmp_path) -> None:
    path = _written(tmp_path)
    _edit(path, version=2, lower_tc="9.0")
    with pytest.raises(ArtifactError, match=(
        rf"^{path}.json: metadata version 2 \(written by lower-tc 9.0\) is newer than this lower-tc \(.+\) reads "
        r"\(version 1\): upgrade lower-tc, or recompile with this one$"
    )):
        read_artifact(path)
    _edit(path, version=0)
    with pytest.raises(ArtifactError, match=r"metadata version 0 \(written by lower-tc 9.0\) is older .*: recompile the kernel$"):
        read_artifact(path)


@pytest.mark.parametrize(("changes", "why"), [
    ({"version": "1"}, r"""malformed: "version" is '1', not a whole number"""),
    ({"version": True}, r'malformed: "version" is True, not a whole number'),
    ({"version": None}, r'malformed: "version" is None, not a whole number'),
    ({"target": None}, r'malformed: "target" is None, not a target such as "sm_90a"'),
    ({"kernels": {"a": 1}}, r"""malformed: "kernels" is \{'a': 1\}, not a list of kernels"""),
    ({"cubin_sha256": None}, r'malformed: "cubin_sha256" is None, not a hex digest'),
    ({"kernels": [7]}, r"malformed: kernel 0 is 7, not a kernel's launch metadata"),
    ({"kernels": [{"name": "k", "version": 1}]}, r"kernel 0 \(k\): not a kernel's launch metadata: KeyError: 'target'"),
    ({"kernels": [{"name": "k", "version": 5}]}, r"kernel 0 \(k\): kernel metadata version 5: this lower-tc reads versions 1, 2, 3 and 4"),
    ({"kernels": [SINGLE.to_dict(), SINGLE.to_dict()]}, r"malformed: two kernels are named tile"),
    ({"target": "sm_100a"}, r"malformed: kernel gemm_dyn is for sm_90a, the cubin for sm_100a"),
])
def test_malformed_metadata_is_refused(tmp_path, changes, why) -> None:
    path = _written(tmp_path)
    _edit(path, **changes)
    with pytest.raises(ArtifactError, match=f"^{path}.json: {why}"):
        read_artifact(path)


def test_metadata_of_another_cubin_is_refused(tmp_path) -> None:
    path = _written(tmp_path)
    path.write_bytes(b"\x7fELF replaced")
    with pytest.raises(ArtifactError, match=(
        rf"^{path}.json: written for another cubin than {path} \(the cubin's sha256 differs\): one of the "
        "two files was replaced without the other; recompile to write both$"
    )):
        read_artifact(path)


def test_the_runtime_reads_artifacts_without_xdsl(tmp_path) -> None:
    """A fresh interpreter reads an artifact and has imported no xDSL."""
    path = _written(tmp_path)
    code = (
        "import sys\n"
        "from lower_tc.lowering.runtime.artifact import read_artifact\n"
        f"print(read_artifact({str(path)!r}).names)\n"
        "print(sorted(m for m in sys.modules if m == 'xdsl' or m.startswith('xdsl.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["('gemm_dyn', 'gemm_persistent', 'tile')", "[]"]


# -- the command line ------------------------------------------------------------------------


def _lower_tc(*argv: str) -> int:
    from lower_tc.lowering.cli.main import main

    return main(list(argv))


@needs_ptxas
@pytest.mark.parametrize("example", ["gemm_bf16.mlir", "gemm_bf16_dynamic.mlir", "wgmma_bf16_kmajor.mlir"])
def test_the_command_writes_the_cubin_and_its_metadata(tmp_path, example) -> None:
    from lower_tc.lowering.compile import compile_source

    source = ROOT / "examples" / example
    out = tmp_path / "g.cubin"
    assert _lower_tc(str(source), "-t", "cubin", "-o", str(out)) == 0
    artifact = read_artifact(out)
    kernels = compile_source(source.read_text(), str(source))
    assert artifact.infos == tuple(k.info for k in kernels)
    assert artifact.target == kernels[0].info.target and artifact.cubin[:4] == b"\x7fELF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cubin", "g.cubin.json"]


def test_the_command_writes_neither_file_when_it_fails(tmp_path, capsys) -> None:
    """A kernel that does not compile: no cubin, no metadata, the old pair as it was."""
    out = tmp_path / "g.cubin"
    write_artifact(out, CUBIN, [SINGLE], "sm_90a")
    src = tmp_path / "bad.mlir"
    src.write_text('func.func @k() attributes {tc.target = "sm_90a"} {\n  %x = tc.nonsense\n}\n')
    assert _lower_tc(str(src), "-t", "cubin", "-o", str(out)) == 1
    assert "error" in capsys.readouterr().err
    assert read_artifact(out) == Artifact(CUBIN, (SINGLE,), "sm_90a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "g.cubin", "g.cubin.json"]


@needs_ptxas
def test_the_command_writes_neither_file_when_the_metadata_cannot_be(tmp_path, capsys) -> None:
    out = tmp_path / "g.cubin"
    out.write_bytes(b"old")
    os.mkdir(metadata_path(out))
    assert _lower_tc(str(ROOT / "examples" / "wgmma_bf16_kmajor.mlir"), "-t", "cubin", "-o", str(out)) == 1
    assert capsys.readouterr().err == f"lower-tc: error: cannot write {out}.json: Is a directory\n"
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cubin", "g.cubin.json"]


@needs_ptxas
def test_a_cubin_to_the_null_device_has_no_metadata_beside_it(capsys) -> None:
    assert _lower_tc(str(ROOT / "examples" / "wgmma_bf16_kmajor.mlir"), "-t", "cubin", "-o", os.devnull) == 0
    assert capsys.readouterr().err == ""
    assert not os.path.exists(os.devnull + ".json")
