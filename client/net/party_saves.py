"""The parties this window hosted, in its save folder (``durak party``'s: the user's data
folder, where ``durak party --resume`` finds them too): which one is unfinished, and the
organiser's way back into it.

The party host saves the night after every change (``host.party.store``:
``party-PORT.json``), with the hashes of its players' tokens, never a token. The window
that hosts a party also keeps its own player's token beside it (``party-PORT-player.json``,
written as the tables' saves are: a temporary file renamed over the old), so that, the
window closed or the machine restarted in the middle of the night, the Party menu can
take the night up again on its port and sit its organiser down as the same player: their
standing, their seat in the round in play.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from host import durable
from host.party.store import PartySaveError, PartyStore, party_file

__all__ = ["Unfinished", "keep_player", "unfinished"]


@dataclass(frozen=True, slots=True)
class Unfinished:
    """A saved night that is not over: its port, its name and round, and the window's
    player in it (``player`` and ``token``: None when the window never joined it)."""

    port: int
    name: str
    round: int
    player: str | None = None
    token: str | None = None


def player_file(save_dir: Path, port: int) -> Path:
    return save_dir / f"party-{port}-player.json"


def keep_player(save_dir: Path, port: int, name: str, token: str) -> None:
    """Remember that this window's player of the party on ``port`` is ``name``, ``token``."""
    data = json.dumps({"name": name, "token": token}).encode()
    durable.write_atomically(player_file(save_dir, port), data)


def _player(save_dir: Path, port: int) -> tuple[str | None, str | None]:
    try:
        data = json.loads(player_file(save_dir, port).read_bytes())
    except (OSError, ValueError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    name, token = data.get("name"), data.get("token")
    if not isinstance(name, str) or not isinstance(token, str):
        return None, None
    return name, token


def unfinished(save_dir: Path) -> Unfinished | None:
    """The newest night saved in ``save_dir`` that is not over (None: there is none; a
    damaged save is passed over)."""
    found: list[tuple[float, Unfinished]] = []
    for path in save_dir.glob("party-*.json"):
        digits = path.stem.removeprefix("party-")
        port = int(digits) if digits.isdecimal() else 0
        if not 0 < port < 65536 or path != party_file(save_dir, port):
            continue  # (a player file, a temporary file)
        try:
            night = PartyStore(path).load()
            when = path.stat().st_mtime
        except (PartySaveError, OSError):
            continue
        if night.status != "over":
            number = night.round.number if night.round is not None else 0
            name, token = _player(save_dir, port)
            found.append((when, Unfinished(port, night.name, number, name, token)))
    return max(found, key=lambda pair: pair[0])[1] if found else None
