"""Files written whole or not at all: each under a temporary name beside its place
(fsynced, with the old file's permission bits), then renamed into place once every one
is written. A failure before the renames leaves every old file as it was and no
temporary behind. Used by the artifact writer (and so the disk cache) and by the
command line's outputs."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Mapping


def mode_for(path: str) -> int | None:
    """The permission bits to give the new file: the old file's, or None for a new one
    (then the umask decides, as for any new file)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def temporary_beside(path: str, data: bytes) -> str:
    """Writes `data` to a new file in `path`'s folder (named after it) and returns its name."""
    folder, base = os.path.split(path)
    while True:
        tmp = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        mode = mode_for(path)
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def write_whole(files: Mapping[str, bytes]) -> None:
    """Writes every file under a temporary name beside it, then renames each into place.
    Raises OSError whose `filename` is the path given (not its temporary name); a folder
    in a file's place is found before anything is written. (The renames themselves,
    within one folder, fail only with the folder.)"""
    for path in files:
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    temporary: dict[str, str] = {}
    try:
        for path, data in files.items():
            try:
                temporary[path] = temporary_beside(path, data)
            except OSError as err:
                raise OSError(err.errno, err.strerror or str(err), path) from None
        for path, tmp in list(temporary.items()):
            try:
                os.replace(tmp, path)
            except OSError as err:
                raise OSError(err.errno, err.strerror or str(err), path) from None
            del temporary[path]
    finally:
        for tmp in temporary.values():
            try:
                os.unlink(tmp)
            except OSError:
                pass


__all__ = ["mode_for", "temporary_beside", "write_whole"]
