"""Writing what the `lower-tc` command made: whole files or nothing.

A file named by `-o` is written beside itself under a temporary name and renamed into
place once complete, so a failed write (a full disk, a file-size limit) leaves the old
file as it was and no half-written one; several files (`-t svg -o DIR`) are all written
before any is renamed. Standard output that is closed, or that fails, is one error too.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Mapping

from lower_tc.lowering.runtime.files import write_whole


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


def writes_in_place(path: str) -> bool:
    """A path that is not a regular file (/dev/null, /dev/stdout, a named pipe) is written
    directly: it cannot be replaced, and a reader may be waiting on it."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def write_files(files: Mapping[str, str | bytes]) -> None:
    """Writes every file (text as UTF-8), each whole or not at all: all are written under
    temporary names first, then renamed into place (lowering/runtime/files.py). A symlink
    is followed (its target is replaced); a path that is not a regular file is written
    directly. Raises OutputError naming the file that failed; nothing is left of it."""
    whole: dict[str, bytes] = {}
    given: dict[str, str] = {}  # the real path -> the path as given, for the message
    for path, content in files.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        real = os.path.realpath(path)
        if writes_in_place(real):
            try:
                with open(real, "wb") as f:
                    f.write(data)
            except OSError as err:
                raise OutputError(f"cannot write {path}: {_reason(err)}") from None
            continue
        whole[real] = data
        given[real] = path
    try:
        write_whole(whole)
    except OSError as err:
        raise OutputError(f"cannot write {given.get(err.filename, err.filename)}: {_reason(err)}") from None


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
