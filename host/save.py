"""The table saved to disk after every change, so a killed host resumes its game.

A save file is UTF-8 JSON::

    {"format": "durak-table-save", "version": 3, "checksum": "<sha256 hex>",
     "table": {"name": ..., "rules": {...}, "seats": [...], "owner": 0,
               "series": {...}, "game": 3, "current": <game log or null>,
               "last": <the last finished game's log or null>,
               "options": {"hold": 60.0, "turn_timer": null, "silence": 12.0,
                           "idle": null, "watchers": 8},
               "password": <"scrypt$..." or null>,
               "deal": <the current game's fair deal or null>,
               "journal": <the game in play in the journal beside it, or null>,
               "journal_acked": <that journal's checkpoint (moves), or null>}}

A seat is ``{"kind", "name", "level", "token_hash", "look"}`` (``look``: the badge the
player's hello chose, 0 .. ``LOOKS`` - 1, or null): neither a seat's token nor the
password is saved, only their hashes (``host.credentials``). A version 1 save (tokens in
the clear, no password) is still read; its tokens are hashed on the way in. Seats of a
version 1 or 2 save have no ``look`` (read as null); version 3 added it, so that a
resumed table's players keep their badges.

``options`` are the room's (seconds; ``idle`` null: a player may sit unready for ever;
``watchers``: how many may watch); a save of before ``idle`` and ``watchers`` has their
defaults.

``deal`` is the secret of the game in play's fair deal (docs/protocol.md section 15), kept
until the game's end so that a restarted host can still reveal it: ``{"secret": hex,
"seats": [kinds], "contributions": [[seat, hex], ...]}``. Loading checks that it gives the
current game's seed. A save without it (before the fair deal) resumes a game that is not
revealed.

``journal`` is written by ``host.disk.DiskWriter`` when a game's journal begins: the
save (still the room before that game) then names the game, so that ``--resume`` knows a
journal should be beside it, and ``journal_acked`` how many of its moves that journal held
on disk when the save was written (``host.disk``'s checkpoints: a save written by an older host has
none, and is read as before). Reading a ``TableSave`` ignores both (``host.resume`` reads
them).

``checksum`` is the SHA-256 of the canonical JSON of ``table`` (sorted keys, no spaces),
so a torn or edited file is detected. The game logs are ``engine.GameLog`` maps (rules,
seed, actions): loading replays them, so a save whose actions are illegal is refused too.
Writing goes to a temporary file beside the target, is flushed and fsynced, then renamed
over it (``os.replace``): the file on disk is always a whole save, old or new.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import GameLog, GameLogError, GameResult, Rules, RulesError, Series
from protocol import (
    LOOKS,
    MAX_MS,
    MAX_SILENCE_MS,
    MAX_WATCHERS,
    MIN_SILENCE_MS,
    SECRET_BYTES,
    SILENCE_MS,
    WATCHERS,
    DealSecret,
    is_value,
)

from . import durable
from .credentials import TOKEN_HASH_LEN, Password, hash_token

__all__ = [
    "ACKED_KEY",
    "FORMAT",
    "JOURNAL_KEY",
    "VERSION",
    "SaveError",
    "TableSave",
    "default_save_dir",
    "save_file",
]

FORMAT = "durak-table-save"
VERSION = 3
READS = (1, 2, 3)  # the versions this code reads
TOKEN_LEN = 32
# The game whose journal was begun when the save was written (or null): a save that names a
# game beyond its own ``game`` has that game in the journal beside it (see host.resume).
JOURNAL_KEY = "journal"
# That journal's checkpoint: how many of its game's moves it held durably (and so may have
# been acknowledged) when the save was written (null without a journal; absent in a save of
# an older host, which then is not checked). See host.disk and host.resume.
ACKED_KEY = "journal_acked"


def save_file(save_dir: str | Path, port: int) -> Path:
    """Where the table listening on ``port`` is saved: one file per port, so that two tables
    of one user keep their own saves, and ``--resume --port P`` finds the one on P."""
    if not 0 < port < 65536:
        raise ValueError(f"a saved table is found by its port, not {port}")
    return Path(save_dir) / f"table-{port}.json"


class SaveError(ValueError):
    """A save file that cannot be read, is torn or corrupt, or does not replay."""


def default_save_dir() -> Path:
    """The user's data folder for Durak (per platform, via platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("durak", appauthor=False))


@dataclass(frozen=True, slots=True)
class SavedSeat:
    kind: str  # empty | human | ai
    name: str
    level: str | None
    token_hash: str | None  # the SHA-256 of the seat's token (see host.credentials)
    look: int | None = None  # the player's badge (protocol.LOOKS of them; None: none)


@dataclass(frozen=True, slots=True)
class TableSave:
    name: str
    rules: Rules
    seats: tuple[SavedSeat, ...]
    owner: int | None
    series: Series
    game: int
    current: GameLog | None
    last: GameLog | None
    hold: float = 0.0
    turn_timer: float | None = None
    silence: float = SILENCE_MS / 1000
    idle: float | None = None  # how long a player may sit unready in the lobby (None: ever)
    watchers: int = WATCHERS
    password: str | None = None  # the password's salted hash (host.credentials.Password)
    deal: DealSecret | None = None  # the current game's fair deal (secret until its end)

    # --- writing ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        series = self.series
        return {
            "name": self.name,
            "rules": self.rules.to_dict(),
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "level": s.level,
                    "token_hash": s.token_hash,
                    "look": s.look,
                }
                for s in self.seats
            ],
            "owner": self.owner,
            "series": {
                "wins": list(series.wins),
                "losses": list(series.losses),
                "games": series.games,
                "draws": series.draws,
                "last": _result(series.last),
            },
            "game": self.game,
            "current": None if self.current is None else self.current.to_dict(),
            "last": None if self.last is None else self.last.to_dict(),
            "options": {
                "hold": self.hold,
                "turn_timer": self.turn_timer,
                "silence": self.silence,
                "idle": self.idle,
                "watchers": self.watchers,
            },
            "password": self.password,
            "deal": None if self.deal is None else _deal_to_dict(self.deal),
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        durable.write_atomically(Path(path), encode(self.to_dict()))

    # --- reading ----------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TableSave:
        """Read, verify and replay a save; ``SaveError`` naming the file and the problem."""
        name = os.fspath(path)
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise SaveError(f"{name}: cannot read the saved table ({exc.strerror})") from None
        try:
            return cls.from_dict(decode(raw))
        except SaveError as exc:
            raise SaveError(f"{name}: {exc}") from None

    @classmethod
    def from_dict(cls, data: Any) -> TableSave:
        if not isinstance(data, dict):
            raise SaveError("the saved table is not a map")
        rules = _rules(data.get("rules"))
        players = rules.players
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != players:
            raise SaveError("'seats' must list every seat")
        owner = data.get("owner")
        if owner is not None and (type(owner) is not int or not 0 <= owner < players):
            raise SaveError("'owner' must be a seat or null")
        game = data.get("game")
        if type(game) is not int or game < 0:
            raise SaveError("'game' must be a count")
        name = data.get("name")
        if not isinstance(name, str) or not 0 < len(name) <= 63:
            raise SaveError("'name' must be the table's name")
        current = _log(data.get("current"), "current")
        if current is not None and current.rules != rules:
            raise SaveError("the current game's rules are not the table's")
        deal = _deal(data.get("deal"), players)
        if deal is not None and (current is None or deal.seed(game, rules) != current.seed):
            raise SaveError("the saved deal's secret does not give the current game's seed")
        return cls(
            name=name,
            rules=rules,
            seats=tuple(_seat(s) for s in seats),
            owner=owner,
            series=_series(data.get("series"), players),
            game=game,
            current=current,
            last=_log(data.get("last"), "last"),
            **_options(data.get("options")),
            password=_password(data.get("password")),
            deal=deal,
        )


def _canonical(table: Any) -> tuple[str, str]:
    """The canonical JSON of ``table`` (sorted keys, no spaces) and its SHA-256 checksum."""
    body = json.dumps(table, sort_keys=True, separators=(",", ":"))
    return body, hashlib.sha256(body.encode()).hexdigest()


def encode(table: dict[str, Any]) -> bytes:
    """The save file's bytes: the table with its format tag, version and checksum."""
    body, checksum = _canonical(table)
    return (
        f'{{"format":"{FORMAT}","version":{VERSION},"checksum":"{checksum}","table":{body}}}'
    ).encode()


def decode(raw: bytes) -> Any:
    """The ``table`` map of a save file, after checking tag, version and checksum."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SaveError("the saved table is torn or corrupt (not whole JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"not a saved Durak table (no '{FORMAT}' format tag)")
    version = data.get("version")
    if type(version) is not int or version not in READS:
        raise SaveError(f"save format version {version!r} is not supported (want {VERSION})")
    table = data.get("table")
    if data.get("checksum") != _canonical(table)[1]:
        raise SaveError("the saved table is corrupt (its checksum does not match)")
    return table


def _result(result: GameResult | None) -> dict[str, Any] | None:
    return None if result is None else {"places": list(result.places), "durak": result.durak}


def _rules(data: Any) -> Rules:
    try:
        return Rules.from_dict(data)
    except RulesError as exc:
        raise SaveError(f"bad rules: {exc}") from None


def _seat(data: Any) -> SavedSeat:
    if isinstance(data, dict) and set(data) == {"kind", "name", "level", "token"}:
        data = _hashed_v1(data)
    if isinstance(data, dict) and "look" not in data:
        data = {**data, "look": None}  # (a version 1 or 2 seat)
    if not isinstance(data, dict) or set(data) != {"kind", "name", "level", "token_hash", "look"}:
        raise SaveError("a seat must be a map of kind, name, level, token_hash and look")
    kind, name, level, token = data["kind"], data["name"], data["level"], data["token_hash"]
    look = data["look"]
    if kind not in ("empty", "human", "ai") or not isinstance(name, str) or len(name) > 24:
        raise SaveError("a seat's kind or name is wrong")
    if kind == "ai" and (not isinstance(level, str) or not 0 < len(level) <= 24):
        raise SaveError("an AI seat needs its level")
    if kind == "human" and not _hex(token, TOKEN_HASH_LEN):
        raise SaveError("a player's seat needs its token's hash")
    if look is not None and (type(look) is not int or not 0 <= look < LOOKS):
        raise SaveError(f"a seat's look is 0 to {LOOKS - 1} or null")
    human = kind == "human"
    return SavedSeat(
        kind,
        name,
        level if kind == "ai" else None,
        token if human else None,
        look if human else None,
    )


def _hashed_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 seat, with its token in the clear: hash it."""
    token = data["token"]
    if token is not None and not _hex(token, TOKEN_LEN):
        raise SaveError("a player's seat needs its token")
    hashed = None if token is None else hash_token(token)
    return {
        "kind": data["kind"],
        "name": data["name"],
        "level": data["level"],
        "token_hash": hashed,
    }


def _hex(value: Any, length: int) -> bool:
    return (
        isinstance(value, str)
        and len(value) == length
        and all(c in "0123456789abcdef" for c in value)
    )


def _password(data: Any) -> str | None:
    if data is None:
        return None
    try:
        if isinstance(data, str):
            return Password.from_text(data).text
    except ValueError:
        pass
    raise SaveError("'password' must be a password hash or null")


def _series(data: Any, players: int) -> Series:
    if not isinstance(data, dict):
        raise SaveError("'series' must be a map")

    def counts(key: str) -> tuple[int, ...]:
        items = data.get(key)
        if (
            not isinstance(items, list)
            or len(items) != players
            or any(type(x) is not int or x < 0 for x in items)
        ):
            raise SaveError(f"'series.{key}' must count every seat")
        return tuple(items)

    games, draws = data.get("games"), data.get("draws")
    if type(games) is not int or type(draws) is not int or games < 0 or draws < 0:
        raise SaveError("'series.games' and 'series.draws' must be counts")
    last = data.get("last")
    result = None
    if last is not None:
        places = last.get("places") if isinstance(last, dict) else None
        durak = last.get("durak") if isinstance(last, dict) else None
        if (
            not isinstance(places, list)
            or len(places) != players
            or any(type(p) is not int or not 0 < p <= players for p in places)
            or (durak is not None and (type(durak) is not int or not 0 <= durak < players))
        ):
            raise SaveError("'series.last' must be a result for every seat")
        result = GameResult(tuple(places), durak)
    return Series(counts("wins"), counts("losses"), games, draws, result)


def _options(data: Any) -> dict[str, Any]:
    later = {"silence", "idle", "watchers"}  # (not in saves of before them: the defaults)
    if not isinstance(data, dict) or set(data) - later != {"hold", "turn_timer"}:
        raise SaveError("'options' must be a map of hold, turn_timer, silence, idle and watchers")
    hold, turn = data["hold"], data["turn_timer"]
    idle, watchers = data.get("idle"), data.get("watchers", WATCHERS)
    if idle is not None and (type(idle) not in (int, float) or not 0 < idle * 1000 <= MAX_MS):
        raise SaveError("'options.idle' must be seconds or null")
    if type(watchers) is not int or not 0 <= watchers <= MAX_WATCHERS:
        raise SaveError(f"'options.watchers' must be a number from 0 to {MAX_WATCHERS}")
    silence = data.get("silence", SILENCE_MS / 1000)  # (a save of before the heartbeat)
    if type(silence) not in (int, float) or not MIN_SILENCE_MS <= silence * 1000 <= MAX_SILENCE_MS:
        raise SaveError("'options.silence' must be seconds")
    if type(hold) not in (int, float) or not 0 <= hold <= 86400:
        raise SaveError("'options.hold' must be seconds")
    if turn is not None and (type(turn) not in (int, float) or not 0 < turn <= 86400):
        raise SaveError("'options.turn_timer' must be seconds or null")
    return {
        "hold": float(hold),
        "turn_timer": None if turn is None else float(turn),
        "silence": float(silence),
        "idle": None if idle is None else float(idle),
        "watchers": watchers,
    }


def _deal_to_dict(deal: DealSecret) -> dict[str, Any]:
    return {
        "secret": deal.secret.hex(),
        "seats": list(deal.seats),
        "contributions": [[seat, value.hex()] for seat, value in deal.contributions],
    }


def _deal(data: Any, players: int) -> DealSecret | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"secret", "seats", "contributions"}:
        raise SaveError("'deal' must be a map of secret, seats and contributions")
    secret, seats, values = data["secret"], data["seats"], data["contributions"]
    if not is_value(secret, SECRET_BYTES):
        raise SaveError("'deal.secret' must be 64 hex digits")
    if (
        not isinstance(seats, list)
        or len(seats) != players
        or not all(s in ("human", "ai") for s in seats)
    ):
        raise SaveError("'deal.seats' must give every seat's kind")
    if (
        not isinstance(values, list)
        or not all(isinstance(v, list) and len(v) == 2 for v in values)
        or not all(type(s) is int and 0 <= s < players and is_value(x) for s, x in values)
        or len({s for s, _ in values}) != len(values)
    ):
        raise SaveError("'deal.contributions' must be [seat, 64 hex digits] pairs")
    contributions = tuple(sorted((s, bytes.fromhex(x)) for s, x in values))
    return DealSecret(bytes.fromhex(secret), tuple(seats), contributions)


def _log(data: Any, what: str) -> GameLog | None:
    if data is None:
        return None
    try:
        log = GameLog.from_dict(data)
        log.replay()
    except GameLogError as exc:
        raise SaveError(f"the {what} game does not replay: {exc}") from None
    return log
