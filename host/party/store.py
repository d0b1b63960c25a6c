"""The party saved to disk after every change, so that a ``kill -9`` loses nothing and
``durak party --resume`` takes the night up where it was.

One file per party port, ``party-PORT.json`` in the save folder (its tables' saves and
journals beside it in ``party-PORT-tables/``, one per table port, ``host.save``'s)::

    {"format": "durak-party-save", "version": 1, "generation": 17,
     "checksum": "<sha256 hex>", "party": {...}}

``party`` is ``NightState.to_dict()``: the setup, the players (their names and the hashes
of their tokens, never a token), every game's result, the round in play with its tables'
ports, the break. ``generation`` counts the writes of this party: each write is the next
one, so a file from another run, or one put back by hand, is told from the newest
(``load`` says which generation it took up). ``checksum`` is the SHA-256 of the canonical
JSON of ``party`` (sorted keys, no spaces): a torn or edited file is refused, never read
as if it were whole. Written as the tables' saves are (``host.durable``: a temporary
file, fsynced, renamed over the old), in a thread of its own, one write at a time, in the
order they were asked for, so the loop never waits on the disk and the newest state is
the last written.

A game that ended after the party's last write is not lost either: its table's own save
has it (the game's log, its ``last``), and the resumed party scores it from there
(``host.party.server``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from engine import RulesError

from .. import durable
from .night import NightState

__all__ = ["FORMAT", "PartySaveError", "PartyStore", "party_file", "tables_folder"]

FORMAT = "durak-party-save"
VERSION = 1


class PartySaveError(ValueError):
    """A party save that cannot be read, is torn or corrupt, or does not hold together."""


def party_file(save_dir: str | Path, port: int) -> Path:
    if not 0 < port < 65536:
        raise ValueError(f"a saved party is found by its port, not {port}")
    return Path(save_dir) / f"party-{port}.json"


def tables_folder(save_dir: str | Path, port: int) -> Path:
    """Where the party on ``port`` keeps its tables' saves."""
    return Path(save_dir) / f"party-{port}-tables"


def _canonical(party: dict[str, Any]) -> tuple[str, str]:
    body = json.dumps(party, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return body, hashlib.sha256(body.encode()).hexdigest()


def encode(party: dict[str, Any], generation: int) -> bytes:
    body, checksum = _canonical(party)
    head = f'{{"format":"{FORMAT}","version":{VERSION},"generation":{generation},'
    return f'{head}"checksum":"{checksum}","party":{body}}}'.encode()


def decode(raw: bytes) -> tuple[NightState, int]:
    """The night of a save file's bytes and its generation; ``PartySaveError`` if not."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise PartySaveError("it is not a party save (not JSON)") from None
    if type(data) is not dict or data.get("format") != FORMAT:
        raise PartySaveError("it is not a party save")
    if data.get("version") != VERSION:
        raise PartySaveError(f"it is a party save of version {data.get('version')!r}")
    party, generation = data.get("party"), data.get("generation")
    if type(party) is not dict or type(generation) is not int:
        raise PartySaveError("it is damaged (no party or no generation)")
    if data.get("checksum") != _canonical(party)[1]:
        raise PartySaveError("it is damaged or was edited (its checksum does not match)")
    try:
        return NightState.from_dict(party), generation
    except (KeyError, TypeError, ValueError, IndexError, RulesError) as exc:
        raise PartySaveError(f"it does not hold together ({exc})") from None


class PartyStore:
    """Writes the party, one generation after another, off the event loop."""

    def __init__(self, path: Path, generation: int = 0) -> None:
        self.path = path
        self.generation = generation
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="durak-party-save")
        self.problem: str | None = None  # why the last write failed (None: it worked)

    def load(self) -> NightState:
        """The saved night (``PartySaveError`` naming the file if it cannot be)."""
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise PartySaveError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        try:
            night, self.generation = decode(raw)
        except PartySaveError as exc:
            raise PartySaveError(f"{self.path}: {exc}") from None
        return night

    def save(self, night: NightState) -> asyncio.Future[None]:
        """Write the night as it is now (the map is taken at once); done once on disk."""
        self.generation += 1
        data = encode(night.to_dict(), self.generation)
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._thread, self._write, data)

    def _write(self, data: bytes) -> None:
        try:
            durable.write_atomically(self.path, data)
            self.problem = None
        except OSError as exc:
            self.problem = f"cannot save the party in {self.path.parent}: {exc.strerror or exc}"
            raise

    def close(self) -> None:
        self._thread.shutdown(wait=True)
