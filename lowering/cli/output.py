"""Writing what the `lower-tc` command made: whole files or nothing.

A file named by `-o` is written beside itself under a temporary name and renamed into
place once complete, so a failed write (a full disk, a file-size limit) leaves the old
file as it was and no half-written one; several files (`-t svg -o DIR`) are all written
before any is renamed. Standard output that is closed, or that fails, is one error too.
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
from collections.abc import Mapping


class OutputError(Exception):
    """An output could not be written: the message names it and says why."""


class ClosedStreamError(Exception):
    """A standard stream the command needs was closed by the caller (`lower-tc k.mlir >&-`)."""


class ClosedStream:
    """Stands in for a standard stream that was closed when lower-tc started (Python then
    sets sys.stdin or sys.stdout to None): any use of it is a ClosedStreamError."""

    def __init__(self, name: str, hint: str):
        self.name = name
        self.hint = hint

    def _closed(self, *_args: object, **_kwargs: object) -> None:
        raise ClosedStreamError(f"standard {self.name} is closed: {self.hint}")

    write = read = readline = fileno = _closed

    def flush(self) -> None:
        """Nothing was written, so nothing to flush (the interpreter flushes at exit)."""

    @property
    def buffer(self) -> None:
        self._closed()


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def _mode_for(path: str) -> int | None:
    """The permission bits to give the new file: the old file's, or None for a new one
    (then the umask decides, as for any new file)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def writes_in_place(path: str) -> bool:
    """A path that is not a regular file (/dev/null, /dev/stdout, a named pipe) is written
    directly: it cannot be replaced, and a reader may be waiting on it."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _temporary_beside(path: str, data: bytes) -> str:
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
        mode = _mode_for(path)
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def write_files(files: Mapping[str, str | bytes]) -> None:
    """Writes every file (text as UTF-8), each whole or not at all: all are written under
    temporary names first, then renamed into place. A symlink is followed (its target is
    replaced). Raises OutputError naming the file that failed; nothing is left of it."""
    done: dict[str, str] = {}  # the real path -> its temporary file
    try:
        for path, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            real = os.path.realpath(path)
            try:
                if writes_in_place(real):
                    with open(real, "wb") as f:
                        f.write(data)
                    continue
                done[real] = _temporary_beside(real, data)
            except OSError as err:
                raise OutputError(f"cannot write {path}: {_reason(err)}") from None
        for real, tmp in list(done.items()):
            try:
                os.replace(tmp, real)
            except OSError as err:
                raise OutputError(f"cannot write {real}: {_reason(err)}") from None
            del done[real]
    finally:
        for tmp in done.values():
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_folder(folder: str, files: Mapping[str, str]) -> None:
    """Writes `files` (names inside `folder`), creating the folder if needed; on failure
    nothing is left, not even a folder this call created."""
    created = []  # the folders this call makes, innermost first
    path = os.path.abspath(folder)
    while not os.path.exists(path):
        created.append(path)
        path = os.path.dirname(path)
    try:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as err:
            raise OutputError(f"cannot create the folder {folder}: {_reason(err)}") from None
        write_files({os.path.join(folder, name): text for name, text in files.items()})
    except OutputError:
        for path in created:
            try:
                os.rmdir(path)
            except OSError:
                pass
        raise


def write_stdout(text: str) -> None:
    """Writes `text` to standard output and flushes it; a failure (other than a reader
    that went away, which the caller treats as success) is an OutputError, and standard
    output is then pointed at the null device so that the interpreter's own flush at exit
    does not fail a second time."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise OutputError(f"cannot write to standard output: {_reason(err)}") from None


__all__ = ["ClosedStream", "ClosedStreamError", "OutputError", "write_files", "write_folder", "write_stdout", "writes_in_place"]
