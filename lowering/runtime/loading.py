"""`lower_tc.load(path)`: a kernel from the files `lower-tc k.mlir -t cubin -o k.cubin`
wrote (the cubin and `k.cubin.json`, its launch metadata), callable as `compile`'s is.
Needs no xDSL: the runtime reads the artifact (lowering/runtime/artifact.py)."""

from __future__ import annotations

import os

from lower_tc.lowering.runtime.artifact import read_artifact
from lower_tc.lowering.runtime.callable import Kernel


def load(path: str | os.PathLike[str], *, kernel: str | None = None) -> Kernel:
    """The kernel in the artifact at `path` (its `path.json` beside it); `kernel` names one
    where the file holds several. An artifact that is missing, foreign, of another
    version or inconsistent is an ArtifactError naming the file."""
    artifact = read_artifact(path)
    names = [i.name for i in artifact.infos]
    if kernel is None:
        if len(artifact.infos) != 1:
            raise ValueError(f"{os.fspath(path)} has {len(names)} kernels ({', '.join(names)}): name one with kernel=")
        return Kernel(artifact.cubin, artifact.infos[0])
    for info in artifact.infos:
        if info.name == kernel:
            return Kernel(artifact.cubin, info)
    raise ValueError(f"{os.fspath(path)} has no kernel {kernel!r} (its kernels: {', '.join(names)})")


__all__ = ["load"]
