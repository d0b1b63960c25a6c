"""The write-ahead journal of the game in play, and the one thread that writes to disk.

While a game is played the table is not rewritten after each move: the journal
``table-P.journal`` (beside the save ``table-P.json``, see ``host.save``) gets one small
record per action, appended and ``fsync``'d before anything about that action is sent to
any client (``host.outbox`` holds the messages until then). So the cost of a move is the
same at move 10 and at move 10,000, and a host killed at any moment resumes from the last
action any client can have heard of.

The file is ``MAGIC`` and then records, each framed as::

    4-byte big-endian length | 4-byte big-endian CRC-32 of the payload | payload

The payload is compact UTF-8 JSON. The first record is the game's header: the table as
``TableSave.to_dict`` gives it (name, rules, seats with their token hashes, owner, series,
options, the game's number), with the game's rules, seed and previous result as
``current`` and no actions, and the game's fair deal as ``deal`` (its secret, kept until the
game's end); it is written once per game. Then one record per action,
``[seat, "action text"]`` as in ``engine.GameLog``. A change of the table during the game
(rare: who owns the room) is a ``{"table": ...}`` record that replaces the header's table.
Reading stops at the first record that is cut short or fails its checksum: that is a write
the crash interrupted, which was never acknowledged, and it is dropped (``Journal.torn``
says how many bytes). At the end of the game the finished table goes into the save file
and the journal is deleted (compaction); in the lobby only the save file is written.

``DiskWriter`` is a thread that does every write in order: saves (atomic rewrites, only the
latest of several waiting ones) and journal records (every record waiting is written with
one ``write`` and one ``fsync``, so records that arrive together are batched). The event
loop never blocks on the disk: it queues work and awaits ``durable(n)``. After a write
fails the table goes on unsaved; the writer says so once (``problem``) and stops writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import threading
import zlib
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.log import write_atomically

from .save import SaveError, TableSave

__all__ = [
    "MAGIC",
    "MIN_FREE",
    "DiskWriter",
    "Journal",
    "action_record",
    "check_folder",
    "frame_record",
    "header_record",
    "journal_file",
    "load_table",
    "read_journal",
    "table_record",
]

log = logging.getLogger("durak.host")

MAGIC = b"durak-journal 1\n"
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
MAX_RECORD = 1 << 20  # bytes; a header is a few kilobytes, an action a few dozen bytes
MIN_FREE = 16 << 20  # bytes a save folder should have free to be used


def journal_file(save_path: Path) -> Path:
    """The journal beside a save file (``table-P.json`` -> ``table-P.journal``)."""
    return save_path.with_suffix(".journal")


# --- records -----------------------------------------------------------------------------


def frame_record(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big") + payload


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def header_record(saved: TableSave) -> bytes:
    """The game's first record: the table (no last game) with the game's start as
    ``current``."""
    table = saved.to_dict()
    table["last"] = None
    return frame_record(_json(table))


def table_record(saved: TableSave) -> bytes:
    """A change of the table during the game (its actions are the journal's own)."""
    table = saved.to_dict()
    table["last"] = table["current"] = table["deal"] = None
    return frame_record(_json({"table": table}))


def action_record(seat: int, action: object) -> bytes:
    return frame_record(_json([seat, str(action)]))


@dataclass(frozen=True, slots=True)
class Journal:
    """A journal as read back: the table (with every action in ``current``) and how many
    bytes at its end were a torn record, dropped."""

    table: dict[str, Any]
    torn: int


def read_journal(path: Path) -> Journal:
    """Read a journal; ``SaveError`` if it is not one or its header is unreadable."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the journal ({exc.strerror})") from None
    if not data.startswith(MAGIC):
        raise SaveError(f"{path}: not a Durak journal")
    payloads, end = _records(data, len(MAGIC))
    if not payloads:
        raise SaveError(f"{path}: the journal has no whole header")
    try:
        table = json.loads(payloads[0])
        actions = table["current"]["actions"]
        for payload in payloads[1:]:
            record = json.loads(payload)
            if isinstance(record, dict):  # the table changed: keep the game as it is
                game = table["current"], table.get("deal")
                table = record["table"]
                table["current"], table["deal"] = game
            else:
                actions.append(record)
    except (ValueError, KeyError, TypeError):
        raise SaveError(f"{path}: a journal record is not what it should be") from None
    return Journal(table, len(data) - end)


def _records(data: bytes, at: int) -> tuple[list[bytes], int]:
    """The whole, checksummed payloads from ``at`` on, and where the last one ended."""
    payloads = []
    while at + 8 <= len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        crc = int.from_bytes(data[at + 4 : at + 8], "big")
        payload = data[at + 8 : at + 8 + size]
        if size > MAX_RECORD or len(payload) != size or zlib.crc32(payload) != crc:
            break
        payloads.append(payload)
        at += 8 + size
    return payloads, at


def load_table(save_path: Path) -> tuple[TableSave, int]:
    """The table to resume: the game in the journal if there is one, else the save file;
    and the bytes of a torn last record that were dropped. ``SaveError`` if neither can
    be read."""
    journal_path = journal_file(save_path)
    if not journal_path.exists():
        return TableSave.load(save_path), 0
    journal = read_journal(journal_path)
    last = None
    if save_path.exists():  # the game before this one lives in the save file
        saved = TableSave.load(save_path)
        if saved.game < journal.table.get("game", 0):
            last = saved.last
    try:
        table = TableSave.from_dict(journal.table)
    except SaveError as exc:
        raise SaveError(f"{journal_path}: {exc}") from None
    return TableSave(**{**_fields(table), "last": last}), journal.torn


def _fields(saved: TableSave) -> dict[str, Any]:
    return {name: getattr(saved, name) for name in TableSave.__dataclass_fields__}


def check_folder(folder: Path) -> str | None:
    """Why the table cannot be saved in ``folder`` (None: it can): it cannot be made, is
    not writable, or has less than ``MIN_FREE`` bytes free."""
    probe = folder / ".durak-write-test"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"durak")
        probe.unlink()
    except OSError as exc:
        return f"cannot write to {folder} ({exc.strerror or exc})"
    free = shutil.disk_usage(folder).free
    if free < MIN_FREE:
        return f"only {free // 1024} KiB are free in {folder}"
    return None


# --- the writer thread ----------------------------------------------------------------------


class DiskWriter:
    """Writes saves and journal records in the order they were queued, off the event loop.

    ``save``, ``begin``, ``append`` and ``end`` queue work and return its number at once;
    ``durable(n)`` is an awaitable done once work ``n`` (and everything before it) is on
    disk, or has failed. Call from the event loop's thread only (except the thread itself).
    """

    def __init__(self, save_path: Path, loop: asyncio.AbstractEventLoop) -> None:
        self.save_path = save_path
        self.journal_path = journal_file(save_path)
        self.loop = loop
        self.problem: str | None = None  # why nothing is written any more
        self.writes = 0  # fsyncs of the journal (each may carry several records)
        self._work: list[tuple[int, str, Any]] = []
        self._queued = 0
        self._done = 0
        self._waiters: dict[int, asyncio.Future[None]] = {}
        self._wake = threading.Condition()
        self._closing = False
        self._fd: int | None = None
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
                while not self._work and not self._closing:
                    self._wake.wait()
                work, self._work = self._work, []
                closing = self._closing
            if work:
                self._do(work)
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    self.loop.call_soon_threadsafe(self._settle, work[-1][0])
            if closing and not work:
                break
        if self._fd is not None:
            os.close(self._fd)

    def _do(self, work: list[tuple[int, str, Any]]) -> None:
        if self.problem is not None:
            return
        pending = bytearray()
        try:
            for index, (_, kind, data) in enumerate(work):
                if kind == "append":
                    pending += data
                    continue
                self._flush(pending)
                if kind == "save" and not _saved_again(work, index):
                    data.save(self.save_path)
                elif kind == "begin":
                    self._begin(data)
                elif kind == "end":
                    self._end()
            self._flush(pending)
        except OSError as exc:
            self.problem = f"cannot write to {self.save_path.parent} ({exc.strerror or exc})"
            log.error("the table will not be saved any more: %s", self.problem)

    def _flush(self, pending: bytearray) -> None:
        if pending and self._fd is not None:
            os.write(self._fd, pending)
            os.fsync(self._fd)
            self.writes += 1
        pending.clear()

    def _begin(self, header: bytes) -> None:
        """A new journal replaces the old one atomically (a resumed game's journal is
        written again whole, without the torn record it may have ended with)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        write_atomically(self.journal_path, MAGIC + header)
        _sync_folder(self.journal_path.parent)
        self._fd = os.open(self.journal_path, os.O_WRONLY | os.O_APPEND | _BINARY)

    def _end(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.journal_path.unlink(missing_ok=True)


def _saved_again(work: list[tuple[int, str, Any]], index: int) -> bool:
    """Whether a later save in ``work`` makes the one at ``index`` needless: one follows
    before the journal is begun or ended (a save before ``end`` must be written, or the
    game it finishes could be lost with the journal)."""
    for _, kind, _ in work[index + 1 :]:
        if kind == "save":
            return True
        if kind != "append":
            return False
    return False


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (POSIX; Windows cannot open a folder)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
