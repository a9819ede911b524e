"""A disk cache of compiled kernels, so a program is compiled and assembled once per machine.

An entry is an artifact (lowering/runtime/artifact.py: the cubin and its launch metadata),
found by the sha256 of everything the cubin depends on (`CacheKey`): the program's text,
the target asked for, lower-tc itself (its version and a digest of its source files, so a
changed checkout never reads what its former self compiled) and the assembler with its
version (nvJitLink and ptxas make different cubins). Use::

    key = CacheKey.for_source(text, target)
    artifact = cached(key)
    if artifact is None:
        artifact = ...compile and assemble...
        store(key, artifact)

Where: ``$LOWER_TC_CACHE_DIR``, else ``$XDG_CACHE_HOME/lower-tc``, else
``~/.cache/lower-tc``; ``LOWER_TC_CACHE_DIR=`` (set, empty) or ``LOWER_TC_NO_CACHE=1``
turns it off. Entries are written as artifacts are, each file under a temporary name and
renamed into place, so a reader in another process sees a whole entry or none. An entry that
cannot be read (cut short, edited, from another format) counts as absent, and the next
`store` replaces it. A cache that cannot be written is a warning, not an error: the kernel
was compiled anyway. Nothing is ever evicted; deleting the folder empties the cache.
Imports no xDSL.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from lower_tc.lowering.backend import assembler
from lower_tc.lowering.runtime.artifact import Artifact, ArtifactError, lower_tc_version, read_artifact, write_artifact

#: The folder of the cache (set and empty: no cache).
CACHE_DIR_ENV = "LOWER_TC_CACHE_DIR"
#: Set to anything but "" or "0": no cache.
NO_CACHE_ENV = "LOWER_TC_NO_CACHE"
#: Raised when what an entry means changes, so old entries are never read.
CACHE_FORMAT = "lower-tc-cache-1"
#: The folders (beside lowering/) whose sources make the compiler.
SOURCE_FOLDERS = ("layout", "dialects", "passes", "lowering")


@functools.cache
def compiler_identity() -> str:
    """lower-tc's version and a digest of its Python sources (as installed or checked out),
    e.g. "lower-tc 0.1.0 (sources 3f2a...)"; computed once per process (a few ms)."""
    root = Path(__file__).resolve().parents[2]  # the folder holding layout/, dialects/, ...
    digest = hashlib.sha256()
    for folder in SOURCE_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            try:
                digest.update(path.read_bytes())
            except OSError:  # unreadable: still a different compiler from a readable one
                digest.update(b"unreadable")
            digest.update(b"\0")
    return f"lower-tc {lower_tc_version()} (sources {digest.hexdigest()[:16]})"


@dataclass(frozen=True)
class CacheKey:
    """What a compiled artifact depends on; `digest` names its entry."""

    source: str  # the program's text
    target: str  # the target asked for ("" where the program names it)
    assembler: str  # the assembler and its version (lowering/backend/assembler.identity())
    compiler: str = field(default_factory=compiler_identity)

    @classmethod
    def for_source(cls, source: str, target: str = "") -> CacheKey:
        """The key for `source` compiled here, with the assembler that would run now."""
        return cls(source, target, assembler.identity())

    def digest(self) -> str:
        """sha256 (hex) of every part, each delimited (JSON), so no two keys share one."""
        parts = [CACHE_FORMAT, self.compiler, self.target, self.assembler, self.source]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def cache_dir() -> Path | None:
    """The cache's folder, or None when the cache is off (see the module's docstring)."""
    if os.environ.get(NO_CACHE_ENV, "").strip() not in ("", "0"):
        return None
    chosen = os.environ.get(CACHE_DIR_ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen.strip() else None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):  # the XDG spec: a relative path is to be ignored
        return Path(xdg) / "lower-tc"
    return Path.home() / ".cache" / "lower-tc"


def entry_path(key: CacheKey) -> Path | None:
    """Where `key`'s cubin is (its metadata beside it), or None when the cache is off."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = key.digest()
    return folder / digest[:2] / f"{digest}.cubin"


def cached(key: CacheKey) -> Artifact | None:
    """The artifact stored for `key`, or None: not stored, unreadable, or the cache is off."""
    path = entry_path(key)
    if path is None:
        return None
    try:
        return read_artifact(path)
    except (ArtifactError, OSError):  # absent or broken: compiled again, and replaced
        return None


def store(key: CacheKey, artifact: Artifact) -> Path | None:
    """Stores `artifact` as `key`'s entry (replacing a broken one); its path, or None when
    the cache is off or cannot be written (a RuntimeWarning says why)."""
    path = entry_path(key)
    if path is None:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_artifact(path, artifact.cubin, artifact.infos, artifact.target)
    except (OSError, ValueError) as err:
        warnings.warn(
            f"lower-tc: the kernel cache cannot be written at {path.parent} ({err}); set "
            f"{CACHE_DIR_ENV} to a writable folder, or {NO_CACHE_ENV}=1",
            RuntimeWarning, stacklevel=2,
        )
        return None
    return path


__all__ = [
    "CACHE_DIR_ENV", "CACHE_FORMAT", "NO_CACHE_ENV", "CacheKey", "cache_dir", "cached", "compiler_identity",
    "entry_path", "store",
]
