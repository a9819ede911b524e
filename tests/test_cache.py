"""The disk cache of compiled kernels (lowering/runtime/cache.py), on a temporary folder:
where it is, what its keys depend on, entries stored and found, broken ones replaced, and
the ways to turn it off. No GPU, no compiler needed."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from lower_tc.layout.kernel_info import ArgInfo, KernelInfo
from lower_tc.lowering.backend import assembler
from lower_tc.lowering.runtime import cache
from lower_tc.lowering.runtime.artifact import Artifact, metadata_path
from lower_tc.lowering.runtime.cache import CacheKey, cache_dir, cached, compiler_identity, entry_path, store

INFO = KernelInfo(name="k", target="sm_90a", threads=128, smem_bytes=0, args=(ArgInfo("p_D", (64, 16), (16, 1), "f32", True),))
ARTIFACT = Artifact(b"\x7fELF cubin", (INFO,), "sm_90a")
KEY = CacheKey("func.func @k() {}", "sm_90a", "nvJitLink 13.5 (/lib/libnvJitLink.so.13, 1 bytes, mtime 2)")


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """Every test on its own folder, with none of the caller's settings."""
    for name in (cache.CACHE_DIR_ENV, cache.NO_CACHE_ENV, "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(tmp_path / "cache"))


# -- where -----------------------------------------------------------------------------------


def test_the_folder_comes_from_the_environment(monkeypatch, tmp_path) -> None:
    assert cache_dir() == tmp_path / "cache"
    monkeypatch.delenv(cache.CACHE_DIR_ENV)
    assert cache_dir() == tmp_path / "home" / ".cache" / "lower-tc"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "lower-tc"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/xdg")  # ignored, as the XDG spec says
    assert cache_dir() == tmp_path / "home" / ".cache" / "lower-tc"


@pytest.mark.parametrize(("name", "value", "on"), [
    (cache.CACHE_DIR_ENV, "", False),
    (cache.CACHE_DIR_ENV, "  ", False),
    (cache.NO_CACHE_ENV, "1", False),
    (cache.NO_CACHE_ENV, "yes", False),
    (cache.NO_CACHE_ENV, "0", True),
    (cache.NO_CACHE_ENV, "", True),
])
def test_the_cache_is_turned_off_by_an_empty_folder_or_no_cache(monkeypatch, tmp_path, name, value, on) -> None:
    monkeypatch.setenv(name, value)
    assert (cache_dir() is not None) == on
    assert (store(KEY, ARTIFACT) is not None) == on
    assert (cached(KEY) == ARTIFACT) == on
    if not on:
        assert entry_path(KEY) is None and not (tmp_path / "cache").exists()


# -- the keys --------------------------------------------------------------------------------


def test_every_part_of_the_key_changes_its_entry() -> None:
    digests = {
        KEY.digest(),
        replace(KEY, source=KEY.source + " ").digest(),
        replace(KEY, target="sm_100a").digest(),
        replace(KEY, assembler="ptxas Cuda compilation tools, release 13.0, V13.0.88").digest(),
        replace(KEY, compiler="lower-tc 0.2.0 (sources 0000000000000000)").digest(),
    }
    assert len(digests) == 5
    assert CacheKey(KEY.source, KEY.target, KEY.assembler).digest() == KEY.digest()  # stable
    assert len(KEY.digest()) == 64


def test_parts_are_delimited() -> None:
    """Moving text from one part to the next makes another key."""
    assert CacheKey("ab", "", "x").digest() != CacheKey("a", "b", "x").digest()


def test_the_compiler_is_its_version_and_its_sources() -> None:
    ident = compiler_identity()
    assert ident.startswith("lower-tc ") and "(sources " in ident and ident == KEY.compiler


def test_a_key_for_a_source_names_the_assembler_that_would_run(monkeypatch) -> None:
    monkeypatch.setattr(assembler, "identity", lambda: "ptxas V1 (/bin/ptxas)")
    key = CacheKey.for_source("text", "sm_90a")
    assert key == CacheKey("text", "sm_90a", "ptxas V1 (/bin/ptxas)", compiler_identity())


# -- entries ---------------------------------------------------------------------------------


def test_a_stored_entry_is_found_and_no_other(tmp_path) -> None:
    assert cached(KEY) is None
    path = store(KEY, ARTIFACT)
    digest = KEY.digest()
    assert path == tmp_path / "cache" / digest[:2] / f"{digest}.cubin" == entry_path(KEY)
    assert sorted(p.name for p in path.parent.iterdir()) == [f"{digest}.cubin", f"{digest}.cubin.json"]
    assert cached(KEY) == ARTIFACT
    assert cached(replace(KEY, target="sm_100a")) is None


def test_storing_again_replaces_the_entry() -> None:
    store(KEY, ARTIFACT)
    other = Artifact(b"\x7fELF other", (INFO,), "sm_90a")
    store(KEY, other)
    assert cached(KEY) == other


@pytest.mark.parametrize("damage", ["cut metadata", "no metadata", "replaced cubin", "no cubin", "not json"])
def test_a_broken_entry_counts_as_absent_and_is_replaced(damage) -> None:
    path = store(KEY, ARTIFACT)
    assert path is not None
    meta = Path(metadata_path(path))
    if damage == "cut metadata":
        meta.write_bytes(meta.read_bytes()[:40])
    elif damage == "no metadata":
        meta.unlink()
    elif damage == "replaced cubin":
        path.write_bytes(b"\x7fELF cut")
    elif damage == "no cubin":
        path.unlink()
    else:
        meta.write_text(json.dumps([1, 2, 3]))
    assert cached(KEY) is None
    assert store(KEY, ARTIFACT) == path
    assert cached(KEY) == ARTIFACT


def test_a_cache_that_cannot_be_written_is_a_warning(monkeypatch, tmp_path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(blocked))
    with pytest.warns(RuntimeWarning, match=f"the kernel cache cannot be written at {blocked}/"):
        assert store(KEY, ARTIFACT) is None
    assert cached(KEY) is None
    assert blocked.read_text() == "not a folder"


# -- compiling through the cache -------------------------------------------------------------


def test_a_program_is_compiled_once_then_read_from_the_cache(monkeypatch) -> None:
    from conftest import ROOT
    from lower_tc.lowering import compile as compiling
    from lower_tc.lowering.backend.ptxas import find_tool

    if find_tool("ptxas") is None and assembler.chosen() == "ptxas":
        pytest.skip("no assembler here (pip install 'lower-tc[ptxas]')")
    text = (ROOT / "examples" / "wgmma_bf16_kmajor.mlir").read_text()
    first = compiling.compile_artifact(text, "k.mlir")
    assert first.cubin[:4] == b"\x7fELF" and first.names and first.target == "sm_90a"

    def not_again(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(compiling, "compile_source", not_again)
    assert compiling.compile_artifact(text, "k.mlir") == first
    with pytest.raises(AssertionError, match="compiled again"):  # another text is compiled
        compiling.compile_artifact(text + "\n", "k.mlir")
