"""The one thread that writes a table's files (its save and its journal), so that the event
loop never waits on the disk and a disk that fails loses nothing.

``DiskWriter`` is a thread that does every write in order: saves (atomic rewrites, only the
latest of several waiting ones) and journal records (every record waiting is written with
one ``write`` and one ``fsync``, so records that arrive together are batched). The event
loop never blocks on the disk: it queues work and awaits ``durable(n)``. Every ``write``
is checked (it may take fewer bytes than it was given). A write that fails loses nothing:
the thread keeps what the files should hold and tries again every ``RETRY`` seconds,
rewriting them whole, until the disk has room again; meanwhile ``problem`` says why the
table is not saved, and the table goes on. When a game's journal begins, the save file is
rewritten to name that game (``host.save.JOURNAL_KEY``), so that a journal deleted under
the host, or lost, is noticed on ``--resume`` instead of its game silently dropped.

**Checkpoints.** Every save written while a game's journal is on disk records how many of
that game's moves the journal held durably then (``host.save.ACKED_KEY``: moves that may
have been acknowledged to the clients), and during a game the save is rewritten so every
``CHECKPOINT`` seconds while the journal grows (one atomic rewrite a second at most, after
the journal's own fsync). So ``--resume`` tells a journal cut short in its middle (lost
moves: fewer than its checkpoint) from a record a crash tore at its end. Moves, not bytes:
a resumed game's journal is begun again with its moves in the header, shorter.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import durable
from .journal import MAGIC, journal_file
from .save import ACKED_KEY, JOURNAL_KEY, SaveError, TableSave, decode, encode

__all__ = ["CHECKPOINT", "RETRY", "DiskWriter"]

log = logging.getLogger("durak.host")

RETRY = 1.0  # seconds between tries to write again after a write failed
CHECKPOINT = 1.0  # seconds between two checkpoints of a growing journal (module docstring)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


class DiskWriter:
    """Writes saves and journal records in the order they were queued, off the event loop.

    ``save``, ``begin``, ``append`` and ``end`` queue work and return its number at once;
    ``durable(n)`` is an awaitable done once work ``n`` (and everything before it) is on
    disk, or has failed. Call from the event loop's thread only (except the thread itself).

    The thread keeps what the files should hold (the latest save, the whole journal of the
    game in play) and brings the disk up to it after each batch of work: so a write that
    fails (a full disk, a short ``write``) loses nothing it cannot write again. After a
    failure ``problem`` says why, ``on_problem`` is told (from the event loop), and the
    thread tries again every ``retry`` seconds, rewriting both files whole; once that
    works ``problem`` is None again and ``on_problem`` is told so. A ``problem`` given
    (the folder failed its check at start-up) is such a failure, already said. A journal
    deleted under the running host is written again whole too.
    """

    def __init__(
        self,
        save_path: Path,
        loop: asyncio.AbstractEventLoop,
        *,
        write: durable.Write = os.write,
        on_problem: Callable[[str | None], None] | None = None,
        retry: float = RETRY,
        problem: str | None = None,
        checkpoint: float = CHECKPOINT,
    ) -> None:
        self.save_path = save_path
        self.journal_path = journal_file(save_path)
        self.loop = loop
        self.problem = problem  # why the files are not up to date, while they are not
        self.writes = 0  # fsyncs of the journal (each may carry several records)
        self.on_problem = on_problem
        self.retry = retry
        self.checkpoint = checkpoint
        self._write = write
        self._work: list[tuple[int, str, Any]] = []
        self._queued = 0
        self._done = 0
        self._waiters: dict[int, asyncio.Future[None]] = {}
        self._wake = threading.Condition()
        self._closing = False
        self._fd: int | None = None
        # What the files should hold (the thread's own):
        self._journal: _Journal | None = None  # the game in play's (None: no game)
        self._ending: _Journal | None = None  # a finished game's, until its save is written
        self._written: _Journal | None = None  # the one in the file ``_fd`` has open
        self._on_disk = 0  # bytes of ``_written`` known to be in that file
        self._acked = 0  # moves of ``_written`` durable in that file
        self._marked = 0  # moves of ``_written`` the save file's checkpoint records
        self._marked_at = 0.0  # when (``time.monotonic``) that checkpoint was written
        self._save: dict[str, Any] | None = None  # the latest save's table map
        self._save_due = False  # the save file is behind ``_save`` (or its journal mark)
        self._end_due = False  # a journal file is on disk that should not be
        self._thread = threading.Thread(target=self._main, name="durak-disk", daemon=True)
        self._thread.start()

    # --- the event loop's side ----------------------------------------------------------

    def _queue(self, kind: str, data: Any) -> int:
        with self._wake:
            self._queued += 1
            self._work.append((self._queued, kind, data))
            self._wake.notify()
            return self._queued

    def save(self, saved: TableSave) -> int:
        """Rewrite the save file with ``saved`` (atomically)."""
        return self._queue("save", saved)

    def begin(self, header: bytes) -> int:
        """Start a new journal (the old one, if any, is replaced) with its header."""
        return self._queue("begin", header)

    def append(self, record: bytes) -> int:
        return self._queue("append", record)

    def end(self) -> int:
        """Delete the journal (its game is in the save file by now)."""
        return self._queue("end", None)

    def durable(self, number: int) -> Awaitable[None]:
        future = self.loop.create_future()
        if number <= self._done:
            future.set_result(None)
        else:
            self._waiters[number] = future
        return future

    def _settle(self, done: int) -> None:
        self._done = max(self._done, done)
        for number in [n for n in self._waiters if n <= self._done]:
            future = self._waiters.pop(number)
            if not future.done():
                future.set_result(None)

    def _tell(self, problem: str | None) -> None:
        if self.on_problem is not None:
            self.on_problem(problem)

    def close(self) -> None:
        """Finish the queued work and stop the thread (the journal is kept if a game is
        still being played: ``durak host --resume`` takes it up)."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join()

    # --- the thread -------------------------------------------------------------------------

    def _main(self) -> None:
        while True:
            with self._wake:
                if not self._work and not self._closing:
                    self._wake.wait(self.retry if self.problem is not None else None)
                work, self._work = self._work, []
                closing = self._closing
            try:
                for _, kind, data in work:
                    self._take(kind, data)
                if work or self.problem is not None:
                    self._sync()
            except Exception:  # a bug: still, nothing may wait on the disk for ever
                log.exception("the disk writer failed")
                self.problem = self.problem or "the disk writer failed"
            if work:
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    self.loop.call_soon_threadsafe(self._settle, work[-1][0])
            if closing and not work:
                break
        self._close_journal()

    def _take(self, kind: str, data: Any) -> None:
        """Note what the files should hold now."""
        if kind == "append":
            if self._journal is not None:
                self._journal.data += data
                self._journal.moves += data[8:9] == b"["  # (an action, not a table record)
        elif kind == "save":
            self._save, self._save_due = data.to_dict(), True
        elif kind == "begin":
            self._journal = _Journal(*_header(data), bytearray(MAGIC + data))
            self._save_due = True  # (the save then names the journal's game)
        elif kind == "end":
            self._ending = self._journal or self._ending
            self._journal, self._end_due = None, True

    def _sync(self) -> None:
        """Bring the files up to what they should hold, in an order where each step is
        safe to be the last (see ``host.resume``): a finished game's save, then its
        journal's deletion (while that save cannot be written, the finished game's journal
        is kept up to date instead); the game in play's journal; then the save, which names
        that journal's game. A step that fails does not stop the others."""
        failures: list[str] = []  # (texts: an exception kept here would keep its frames)
        if self._end_due:
            try:
                if self._save_due:
                    self._write_save()
                self._close_journal()
                durable.unlink(self.journal_path)
                self._end_due, self._ending, self._written = False, None, None
            except OSError as exc:
                failures.append(_why(exc))
                if self._ending is not None and self._journal is None:
                    failures += self._try(self._ending)
        if self._journal is not None:
            failures += self._try(self._journal)
            if self._written is self._journal:  # (the file is this game's now)
                self._end_due, self._ending = False, None
                if self._acked > self._marked and self._checkpoint_due():
                    self._save_due = True
        if self._save_due:
            try:
                self._write_save()
            except OSError as exc:
                failures.append(_why(exc))
        if failures:
            self._failed(failures[0])
        elif self.problem is not None:
            log.warning("the table is saved again (%s)", self.save_path)
            self.problem = None
            self._tell_loop(None)

    def _try(self, journal: _Journal) -> list[str]:
        """Bring ``journal`` to disk: why not, if it fails (it is then rewritten whole)."""
        try:
            self._sync_journal(journal)
        except OSError as exc:
            self._written = None
            return [_why(exc)]
        return []

    def _failed(self, why: str) -> None:
        if self.problem is None:
            self.problem = f"cannot write to {self.save_path.parent} ({why})"
            log.error(
                "the table is not saved: %s; trying again every %g s", self.problem, self.retry
            )
            self._tell_loop(self.problem)

    def _tell_loop(self, problem: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed
            self.loop.call_soon_threadsafe(self._tell, problem)

    def _sync_journal(self, journal: _Journal) -> None:
        """Append what the file lacks of ``journal``, or write it whole (a new journal, or
        after a failure, or when its file was deleted under the host)."""
        data = journal.data
        if self._written is journal and self._fd is not None and not self._journal_there(self._fd):
            log.warning("%s was deleted while its game went on: written again", self.journal_path)
            self._written = None
        if self._written is not journal or self._fd is None:
            self._close_journal()
            self._written = None
            self._replace(self.journal_path, data)
            _sync_folder(self.journal_path.parent)
            self._fd = os.open(self.journal_path, os.O_WRONLY | os.O_APPEND | _BINARY)
            self._written, self._on_disk = journal, len(data)
            self._acked, self._marked = journal.moves, 0
            return
        if self._on_disk < len(data):
            self._write_all(self._fd, data, self._on_disk)
            durable.full_fsync(self._fd)
            self._on_disk = len(data)
            self._acked = journal.moves
            self.writes += 1

    def _checkpoint_due(self) -> bool:
        return time.monotonic() - self._marked_at >= self.checkpoint

    def _write_all(self, fd: int, data: bytes | bytearray, at: int = 0) -> None:
        durable.write_all(fd, data, at, self._write)

    def _replace(self, target: Path, data: bytes | bytearray) -> None:
        """Write ``data`` to a temporary file beside ``target``, fsync it, rename it over
        (``host.durable``: on Windows too, and past a moment another program holds it): the
        file is always whole, old or new."""
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
        try:
            try:
                self._write_all(fd, data)
                durable.full_fsync(fd)
            finally:
                os.close(fd)
            durable.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def _journal_there(self, fd: int) -> bool:
        """Whether the journal's name still leads to the file being appended to."""
        try:
            return os.path.samestat(os.stat(self.journal_path), os.fstat(fd))
        except FileNotFoundError:
            return False

    def _write_save(self) -> None:
        table = self._save
        if table is None:  # (a resumed game: the save on disk is the room before it)
            table = self._save = _saved_table(self.save_path)
        if table is not None:
            written = self._written
            game = None if written is None else written.game
            acked = None if written is None else self._acked
            self._replace(self.save_path, encode({**table, JOURNAL_KEY: game, ACKED_KEY: acked}))
            self._marked, self._marked_at = self._acked, time.monotonic()
        self._save_due = False

    def _close_journal(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


@dataclass(slots=True, eq=False)
class _Journal:
    """A game's journal as the file should hold it (compared by identity: one per game)."""

    game: int | None
    moves: int  # the game's actions it holds (the header's, then one a record)
    data: bytearray


def _header(header: bytes) -> tuple[int | None, int]:
    """The game a journal header (a framed record) is for, and the moves it holds."""
    with contextlib.suppress(ValueError, TypeError, KeyError):
        table = json.loads(header[8:])
        game, actions = table["game"], table["current"]["actions"]
        if type(game) is int and type(actions) is list:
            return game, len(actions)
    return None, 0


def _saved_table(path: Path) -> dict[str, Any] | None:
    """The table map of the save file at ``path`` (None if there is none to read)."""
    try:
        table = decode(path.read_bytes())
    except (OSError, SaveError):
        return None
    return table if isinstance(table, dict) else None


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (POSIX; Windows cannot open a folder)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
