"""How a file reaches the disk for certain, on each system the players run.

- ``full_fsync``: on macOS ``fsync`` hands the data to the drive, which may keep it in its
  own cache, where a power cut loses it; ``F_FULLFSYNC`` asks the drive to write it out
  (the call macOS documents for this; a file system without it falls back to ``fsync``).
  Elsewhere ``fsync`` is that call.
- ``replace``: ``os.replace``, tried again for a moment when it is refused. On Windows a
  virus scanner, an indexer or a backup tool opens a file just written, and renaming over
  a file that is open fails (a PermissionError) until it lets go, usually within
  milliseconds: such a refusal is no failing disk. ``unlink`` likewise.
- ``write_atomically``: a temporary file beside the target, written whole, flushed to the
  disk and renamed over it: a crash at any moment leaves the old file or the new one. The
  temporary file is made by ``tempfile.mkstemp``, readable by its owner only on POSIX
  (0600); on Windows it takes the folder's permissions, and the default folder
  (``%LOCALAPPDATA%\\durak``) is the user's own. The journal is written the same way.
"""

from __future__ import annotations

import errno
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = [
    "TRIES",
    "Write",
    "full_fsync",
    "held",
    "replace",
    "unlink",
    "write_all",
    "write_atomically",
]

TRIES = 10  # attempts at a rename or a deletion refused while another program holds it
RETRY_S = 0.02  # between two of them: 0.2 s in all
T = TypeVar("T")
Write = Callable[[int, bytes | memoryview], int]


def write_all(fd: int, data: bytes | bytearray, at: int = 0, write: Write | None = None) -> None:
    """Write every byte of ``data`` from ``at`` on (``write``: ``os.write``): a write may
    take fewer (a nearly full disk), and one that takes none is a full disk. (The views are
    released at once: a journal's bytes grow later.)"""
    write = write or os.write
    with memoryview(data) as view:
        while at < len(data):
            with view[at:] as rest:
                written = write(fd, rest)
            if written <= 0:
                raise OSError(errno.ENOSPC, "the disk took none of the bytes")
            at += written


def full_fsync(fd: int) -> None:
    """Everything written to ``fd`` is on the disk itself, not in a cache."""
    if sys.platform == "darwin":
        import fcntl

        try:
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
            return
        except OSError:  # a file system that does not know it (a network share)
            pass
    os.fsync(fd)


def held(step: Callable[[], T]) -> T:
    """``step()`` on a file, tried again while another program holds it (PermissionError,
    for 0.2 s at most); any other error at once."""
    for _ in range(TRIES - 1):
        try:
            return step()
        except PermissionError:
            time.sleep(RETRY_S)
    return step()


def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    held(lambda: os.replace(source, target))


def unlink(path: Path) -> None:
    """Delete ``path`` if it is there."""
    held(lambda: path.unlink(missing_ok=True))


def write_atomically(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    try:
        try:
            write_all(fd, data)
            full_fsync(fd)
        finally:
            os.close(fd)
        replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
