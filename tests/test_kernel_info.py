"""The launch contract (layout/kernel_info.py): the JSON at the boundary is exactly what
the lowering has always written, both shapes of it, and it reads back into equal data."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from conftest import EXAMPLES, ROOT
from lower_tc.layout.kernel_info import (
    BASE_VERSION,
    KERNEL_INFO_VERSION,
    SPLIT_K_CLAIMS_VERSION,
    WorkspaceInfo,
    GemmInfo,
    GridFromArg,
    KernelInfo,
    KernelInfoError,
    PersistentGrid,
)
from lower_tc.lowering.compile import compile_source

#: The metadata comment above each kernel in the PTX (what bench/ptx_hashes.py hashes).
INFO_LINE = re.compile(r"^// lower-tc kernel [^:]+: (\{.*\})$", re.M)
SINGLE_TILE_KEYS = {"version", "name", "target", "threads", "smem_bytes", "args", "tensor_maps"}
GEMM_KEYS = SINGLE_TILE_KEYS | {"grid", "size_params", "gemm", "dependent_launch"}
ATTENTION_KEYS = SINGLE_TILE_KEYS | {"grid", "size_params", "attention", "dependent_launch"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_json_reads_back_into_the_same_json(path) -> None:
    """Each kernel's metadata line parses into a KernelInfo that writes it again byte for
    byte, and equals the one compile_source returns."""
    kernels = compile_source(path.read_text(), path.name)
    lines = INFO_LINE.findall(kernels[0].ptx)
    assert len(lines) == len(kernels)
    for kernel, line in zip(kernels, lines):
        info = KernelInfo.from_json(line)
        assert info == kernel.info
        assert info.to_json() == line
        keys = set(json.loads(line))
        if info.attention is not None:  # a loop-level attention kernel
            assert keys == ATTENTION_KEYS
            continue
        assert keys == (GEMM_KEYS | ({"cluster", "workspace"} & keys) if info.gemm is not None else SINGLE_TILE_KEYS)
        assert not {"cluster", "workspace"} <= keys  # a split through a cluster or through the workspace


def test_a_gemm_with_sizes_known_at_launch_keeps_its_nulls() -> None:
    (kernel,) = compile_source((ROOT / "examples" / "gemm_bf16_dynamic.mlir").read_text(), "dyn.mlir")
    info = kernel.info
    assert isinstance(info.gemm, GemmInfo) and (info.gemm.m, info.gemm.n, info.gemm.k) == (None, None, None)
    assert isinstance(info.grid[0], GridFromArg) and info.tensor_maps[0].global_dims is None
    data = json.loads(info.to_json())
    assert data["gemm"]["m"] is None and data["tensor_maps"][0]["global_dims"] is None
    assert data["grid"][0] == {"arg": 2, "dim": 1, "tile": 256}
    assert "value" not in data["size_params"][0]  # filled in by resolve_sizes, never compiled


def test_the_persistent_grid_and_the_cluster_round_trip() -> None:
    (kernel,) = compile_source((ROOT / "examples" / "gemm_bf16.mlir").read_text(), "g.mlir")
    clustered = replace(kernel.info, grid=(PersistentGrid(132), 1, 1), cluster=(2, 1, 1))
    data = json.loads(clustered.to_json())
    assert data["grid"] == [{"persistent": 132}, 1, 1] and data["cluster"] == [2, 1, 1]
    assert KernelInfo.from_json(clustered.to_json()) == clustered
    assert clustered.cluster_size == 2 and kernel.info.cluster_size == 1


def test_the_version_is_written_and_checked() -> None:
    """The metadata carries the contract's version: 1 for a kernel without a workspace
    (what a reader of version 1 launches), 2 with one; JSON of a version this lower-tc does
    not read, or none, or a workspace in version 1, is refused by name."""
    (kernel,) = compile_source((EXAMPLES[0]).read_text(), EXAMPLES[0].name)
    versioned = kernel.info.to_json()
    assert kernel.info.version == BASE_VERSION == 1 == json.loads(versioned)["version"]
    assert KernelInfo.from_json(versioned) == kernel.info
    with pytest.raises(KernelInfoError, match="version 99: this lower-tc reads versions 1, 2, 3 and 4"):
        KernelInfo.from_json(versioned.replace(f'"version": {BASE_VERSION}', '"version": 99'))
    unversioned = json.loads(versioned)
    del unversioned["version"]
    with pytest.raises(KernelInfoError, match="it has no version"):
        KernelInfo.from_json(json.dumps(unversioned))
    (split,) = compile_source((ROOT / "examples" / "gemm_bf16_split_k_global_loop.mlir").read_text(), "g.mlir")
    data = json.loads(split.info.to_json())
    assert split.info.version == SPLIT_K_CLAIMS_VERSION == 4 == data["version"] and KERNEL_INFO_VERSION == 2
    assert data["workspace"] == {"partial_bytes": 128 * 128 * 4, "split_k": 8}
    data["version"] = 1
    with pytest.raises(KernelInfoError, match="version 1 has no workspace"):
        KernelInfo.from_dict(data)
    data["version"], data["workspace"] = 2, {"partial_bytes": 65536, "split_k": 1}
    with pytest.raises(KernelInfoError, match="split_k >= 2"):
        KernelInfo.from_dict(data)


def test_the_workspace_fits_the_grid() -> None:
    """A slot per CTA of the launched grid, then a counter per tile, then S slice claims
    per tile (a spread sum's), in whole 16 bytes."""
    ws = WorkspaceInfo(partial_bytes=65536, split_k=8)
    assert ws.bytes(128) == 128 * 65536 + 16 * 4 + 16 * 8 * 4
    assert ws.bytes(12) == 12 * 65536 + 80  # two tiles' counters and 16 claims (72 bytes), rounded up to 16 bytes
    assert WorkspaceInfo(100, 3).bytes(3) == 320  # 300 bytes of slots, one counter, three claims
    assert WorkspaceInfo(100, 3).bytes(6) == 640  # 600 + two counters + six claims
    assert WorkspaceInfo(100, 2).bytes(6) == 640  # 600 + three counters + six claims, rounded up to 16


def test_json_that_is_not_a_kernel_contract_is_refused() -> None:
    with pytest.raises(KernelInfoError, match="not a kernel's launch metadata"):
        KernelInfo.from_json('{"name": "k", "target": "sm_90a"}')
    with pytest.raises(KernelInfoError, match="^a grid entry is a count"):
        KernelInfo.from_json(json.dumps({
            "version": KERNEL_INFO_VERSION, "name": "k", "target": "sm_90a", "threads": 128, "smem_bytes": 0, "args": [],
            "tensor_maps": [], "grid": ["x", 1, 1],
        }))
