"""A compiled module on disk: the cubin, and beside it (``PATH.json``) what launching it needs.

`lower-tc k.mlir -t cubin -o g.cubin` and `write_artifact` write both files; `read_artifact`
reads them back, so a cubin can be loaded and called without the source, xDSL or a
compiler (`lower_tc.load`). The metadata is versioned JSON::

    {"format": "lower-tc-artifact", "version": 1, "lower_tc": "0.1.0", "target": "sm_90a",
     "cubin_sha256": "...", "kernels": [<each kernel's KernelInfo JSON>, ...]}

Each kernel's entry is its launch contract (layout/kernel_info.py, with its own version;
docs/gemm.md, "Launching"). `cubin_sha256` ties the two files together: a cubin replaced
without its metadata (or the other way round) is refused rather than launched with another
kernel's grid and tensor maps. Both files are written under temporary names beside their
places and renamed into place only when both are complete, so a failed write leaves the old
pair as it was. `read_artifact` refuses a missing, foreign, newer, older or malformed
metadata file with an ArtifactError naming it. Imports no xDSL and no CUDA.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from lower_tc.layout.kernel_info import KernelInfo, KernelInfoError
from lower_tc.lowering.runtime.files import write_whole

#: The metadata's "format": what tells it from any other JSON file.
ARTIFACT_FORMAT = "lower-tc-artifact"
#: The metadata's "version", raised when its meaning changes.
ARTIFACT_VERSION = 1
#: The metadata file is the cubin's path with this appended.
METADATA_SUFFIX = ".json"


class ArtifactError(ValueError):
    """An artifact that cannot be read: the message names the file and says why."""


@dataclass(frozen=True)
class Artifact:
    """A cubin and the launch contract of each kernel in it, for one target."""

    cubin: bytes
    infos: tuple[KernelInfo, ...]
    target: str  # "sm_90a" or "sm_100a"

    @property
    def names(self) -> tuple[str, ...]:
        """The kernels' names, in the order of the metadata."""
        return tuple(i.name for i in self.infos)


def lower_tc_version() -> str:
    """The installed lower-tc's version (what the metadata records), read without importing
    the lower_tc package; "unknown" when it is not installed (run from a bare checkout)."""
    try:
        return metadata.version("lower-tc")
    except metadata.PackageNotFoundError:
        return "unknown"


def metadata_path(path: str | os.PathLike[str]) -> str:
    """Where the metadata of the cubin at `path` lives: ``PATH.json``."""
    return os.fspath(path) + METADATA_SUFFIX


def artifact_metadata(cubin: bytes, infos: Iterable[KernelInfo], target: str) -> str:
    """The metadata file's text for `cubin` and its kernels (ValueError for kernels of
    another target or two of one name: no reader could use them)."""
    infos = tuple(infos)
    _check_kernels(infos, target, ValueError)
    head = {
        "format": ARTIFACT_FORMAT,
        "version": ARTIFACT_VERSION,
        "lower_tc": lower_tc_version(),
        "target": target,
        "cubin_sha256": hashlib.sha256(cubin).hexdigest(),
    }
    # one line per field and per kernel: readable, and a diff shows which kernel changed
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    kernels = ",\n".join(f"    {i.to_json()}" for i in infos)
    return "{\n" + "\n".join(lines) + '\n  "kernels": [' + (f"\n{kernels}\n  " if infos else "") + "]\n}\n"


def artifact_files(path: str | os.PathLike[str], cubin: bytes, infos: Iterable[KernelInfo], target: str) -> dict[str, bytes]:
    """The two files of an artifact: {path: cubin, path + ".json": metadata} (for a writer
    that writes files whole, such as the command line's)."""
    return {os.fspath(path): bytes(cubin), metadata_path(path): artifact_metadata(cubin, infos, target).encode()}


def write_artifact(path: str | os.PathLike[str], cubin: bytes, infos: Iterable[KernelInfo], target: str) -> None:
    """Writes the cubin to `path` and its metadata to ``path + ".json"``, both or neither:
    each under a temporary name beside its place, renamed into place once both are written.
    Raises OSError naming the file (its `filename`) when either cannot be written; nothing
    is left of the new files then."""
    write_whole(artifact_files(path, cubin, infos, target))


def read_artifact(path: str | os.PathLike[str]) -> Artifact:
    """The cubin at `path` and the metadata beside it (``path + ".json"``).

    Raises ArtifactError, naming the file, for a cubin or metadata file that is missing or
    unreadable, metadata that is not JSON, not lower-tc's (no "format": "lower-tc-artifact"),
    of a newer or older version, malformed (a kernel's contract included), or written for
    another cubin (its sha256 differs)."""
    cubin_path, meta_path = os.fspath(path), metadata_path(path)
    try:
        with open(cubin_path, "rb") as f:
            cubin = f.read()
    except OSError as err:
        raise ArtifactError(f"cannot read the cubin {cubin_path}: {err.strerror or err}") from None
    try:
        with open(meta_path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise ArtifactError(
            f"{cubin_path} has no launch metadata: {meta_path} is missing (`lower-tc k.mlir -t cubin "
            f"-o {cubin_path}` writes both files)"
        ) from None
    except OSError as err:
        raise ArtifactError(f"cannot read the launch metadata {meta_path}: {err.strerror or err}") from None
    return parse_metadata(raw, cubin, meta_path, cubin_path)


def parse_metadata(raw: bytes | str, cubin: bytes, meta_path: str, cubin_path: str = "the cubin") -> Artifact:
    """The artifact from the metadata file's content (see read_artifact for the refusals);
    `meta_path` and `cubin_path` name the files in errors."""

    def refuse(why: str) -> ArtifactError:
        return ArtifactError(f"{meta_path}: {why}")

    try:
        document = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise refuse(f"not JSON ({err})") from None
    if not isinstance(document, dict) or document.get("format") != ARTIFACT_FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        what = f'its "format" is {found!r}' if found is not None else 'it has no "format"'
        raise refuse(f'not lower-tc launch metadata ({what}; lower-tc writes "format": "{ARTIFACT_FORMAT}")')
    version = document.get("version")
    if type(version) is not int:
        raise refuse(f'malformed: "version" is {version!r}, not a whole number')
    if version != ARTIFACT_VERSION:
        writer = document.get("lower_tc", "an unknown lower-tc")
        if version > ARTIFACT_VERSION:
            raise refuse(
                f"metadata version {version} (written by lower-tc {writer}) is newer than this lower-tc "
                f"({lower_tc_version()}) reads (version {ARTIFACT_VERSION}): upgrade lower-tc, or recompile with this one"
            )
        raise refuse(
            f"metadata version {version} (written by lower-tc {writer}) is older than this lower-tc "
            f"({lower_tc_version()}) reads (version {ARTIFACT_VERSION}): recompile the kernel"
        )
    target = document.get("target")
    kernels = document.get("kernels")
    digest = document.get("cubin_sha256")
    if not isinstance(target, str) or not target:
        raise refuse(f'malformed: "target" is {target!r}, not a target such as "sm_90a"')
    if not isinstance(kernels, list):
        raise refuse(f'malformed: "kernels" is {_short(kernels)}, not a list of kernels')
    if not isinstance(digest, str):
        raise refuse(f'malformed: "cubin_sha256" is {_short(digest)}, not a hex digest')
    infos = []
    for i, entry in enumerate(kernels):
        if not isinstance(entry, dict):
            raise refuse(f"malformed: kernel {i} is {_short(entry)}, not a kernel's launch metadata")
        try:
            infos.append(KernelInfo.from_dict(entry))
        except KernelInfoError as err:
            raise refuse(f"kernel {i} ({entry.get('name', 'unnamed')}): {err}") from None
    _check_kernels(infos, target, lambda msg: refuse(f"malformed: {msg}"))
    if hashlib.sha256(cubin).hexdigest() != digest.lower():
        raise refuse(
            f"written for another cubin than {cubin_path} (the cubin's sha256 differs): one of the two "
            "files was replaced without the other; recompile to write both"
        )
    return Artifact(cubin, tuple(infos), target)


def _check_kernels(infos: Iterable[KernelInfo], target: str, error: Callable[[str], Exception]) -> None:
    """Each kernel once, all for `target`; `error(message)` makes the exception to raise."""
    seen: set[str] = set()
    for info in infos:
        if info.name in seen:
            raise error(f"two kernels are named {info.name}")
        seen.add(info.name)
        if info.target != target:
            raise error(f"kernel {info.name} is for {info.target}, the cubin for {target}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = [
    "ARTIFACT_FORMAT", "ARTIFACT_VERSION", "METADATA_SUFFIX", "Artifact", "ArtifactError",
    "artifact_files", "artifact_metadata", "lower_tc_version", "metadata_path", "parse_metadata",
    "read_artifact", "write_artifact",
]
