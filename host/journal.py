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
Reading stops at the first record that is cut short or fails its checksum. If no whole
record follows it and it can be a record cut short (fewer bytes than its length field
says, a length no record has aside), it is the write a crash interrupted, which was never
acknowledged, and it is dropped (``Journal.torn`` says how many bytes): a crash tears only
the last write. A bad record with whole ones after it, or bytes at the end that are no
record cut short (junk appended), is damage (a flipped bit, a bad sector, another
program), reported as ``Journal.damage`` with its offset; ``host.resume`` refuses it
unless told to accept the loss. A journal cut short in its middle reads whole: the moves
it holds are what ``host.resume`` compares with the save's checkpoint
(``host.save.ACKED_KEY``) to tell. The format is unchanged since version 1 (the checkpoint
is in the save), so every journal an older host wrote is read as before. At the end of
the game the finished table goes into the save file and the journal is deleted
(compaction); in the lobby only the save file is written.

The files are written by one thread, ``host.disk.DiskWriter``.
"""

from __future__ import annotations

import json
import shutil
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .save import SaveError, TableSave

__all__ = [
    "MAGIC",
    "MIN_FREE",
    "Damage",
    "Journal",
    "action_record",
    "check_folder",
    "frame_record",
    "header_record",
    "journal_file",
    "read_journal",
    "table_record",
]


MAGIC = b"durak-journal 1\n"
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
class Damage:
    """A record that fails its checksum (or is cut short) with whole records after it, or
    bytes at the end that are no record cut short: the file was damaged, not torn by a
    crash. ``offset`` is where the bad record starts, ``actions`` how many actions came
    before it, ``after`` the whole records after it (0: the ``junk`` bytes from ``offset``
    to the end are no record cut short)."""

    offset: int
    actions: int
    after: int
    junk: int = 0


@dataclass(frozen=True, slots=True)
class Journal:
    """A journal as read back: the table (with every action up to the first bad record in
    ``current``), how many bytes at its end were a torn record (dropped), and the damage
    if there is (then ``torn`` is 0)."""

    table: dict[str, Any]
    torn: int
    damage: Damage | None = None


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
    after = _records_after(data, end)
    if after:
        return Journal(table, 0, Damage(end, len(actions), after))
    if not _cut_short(data, end):
        return Journal(table, 0, Damage(end, len(actions), 0, len(data) - end))
    return Journal(table, len(data) - end)


def _cut_short(data: bytes, at: int) -> bool:
    """Whether the bytes from ``at`` to the end can be a record a crash cut short: nothing,
    or no more than its length field says (a write torn, or one whose bytes the file
    system never filled in), of a length a record can have."""
    tail = len(data) - at
    if tail < 8:
        return True
    size = int.from_bytes(data[at : at + 4], "big")
    return size <= MAX_RECORD and tail <= 8 + size


def _whole_record(data: bytes, at: int) -> int | None:
    """Where the whole, checksummed record at ``at`` ends (None: there is none there)."""
    if at + 8 > len(data):
        return None
    size = int.from_bytes(data[at : at + 4], "big")
    end = at + 8 + size
    if size > MAX_RECORD or end > len(data):
        return None
    if zlib.crc32(data[at + 8 : end]) != int.from_bytes(data[at + 4 : at + 8], "big"):
        return None
    return end


def _records(data: bytes, at: int) -> tuple[list[bytes], int]:
    """The whole, checksummed payloads from ``at`` on, and where the last one ended."""
    payloads = []
    while (end := _whole_record(data, at)) is not None:
        payloads.append(data[at + 8 : end])
        at = end
    return payloads, at


def _records_after(data: bytes, bad: int) -> int:
    """How many whole records follow the bad one at ``bad`` (a crash tears only the last
    write, so any is damage): the first whole record found at a later byte, and those
    after it. A checksum of random bytes matches once in 4 billion tries."""
    for at in range(bad + 1, len(data) - 8):
        if _whole_record(data, at) is not None:
            return len(_records(data, at)[0])
    return 0


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
