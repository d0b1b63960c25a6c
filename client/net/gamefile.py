"""Game files: every finished game the window plays, kept to watch again and to review.

A game file is what one seat saw of one game, gzip-compressed UTF-8 JSON::

    {"format": "durak-game", "version": 1, "ended": "2026-12-01T09:41:07Z",
     "where": "computer" | "lan", "rules": {...}, "seat": 0, "names": [...],
     "result": {...} | null,
     "steps": [{"events": [...], "view": {...} | null}, ...],
     "log": {"seed": 7, "previous": null, "actions": [[0, "attack 6h"], ...]} | null}

``steps`` are the seat's trimmed events as the host told them, one step per action (the
deal first), each with the seat's view after it, in the protocol's wire form
(``protocol.event_to_wire``, ``view_to_wire``). ``log`` is the seed and every seat's
actions: kept only where the player may have them — after the game, when the host reveals
them with its deal (protocol 4, docs/protocol.md section 15), at a LAN table too, once the
deal is verified; and after a game against the computer, whose host runs in the window's
own process. A game of which neither replays to what the seat saw keeps no log.

Reading checks the format tag, the version (a file from a newer version says so), every
field through the protocol's decoders, and that the log, if any, replays to the events
the seat saw; anything else is a ``GameFileError`` naming the problem. The folder keeps the
newest ``KEEP`` files: saving one more deletes the oldest. A file that cannot be read is
reported by ``GameStore.listing`` and skipped, never fatal.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from client.net.session import WATCHING, GameOver, Happened, Message, Seated, Snapshot
from engine import (
    Dealt,
    Event,
    GameLog,
    GameLogError,
    GameResult,
    IllegalAction,
    Rules,
    SeatView,
    observe,
    trim,
)
from host.durable import write_atomically
from protocol import (
    ProtocolError,
    event_from_wire,
    event_to_wire,
    rules_from_wire,
    rules_to_wire,
    view_from_wire,
    view_to_wire,
)
from protocol.wire import result_from_wire, result_to_wire

__all__ = [
    "FORMAT",
    "KEEP",
    "VERSION",
    "GameFile",
    "GameFileError",
    "GameRecorder",
    "GameStore",
    "Listing",
    "Step",
    "Summary",
    "default_games_dir",
    "seen_from_log",
    "steps_from_log",
]

FORMAT = "durak-game"
VERSION = 1
KEEP = 200  # game files kept; the oldest roll off
SUFFIX = ".durakgame"
MAX_FILE = 4 * 1024 * 1024  # bytes on disk; a game file is tens of kilobytes
MAX_JSON = 32 * 1024 * 1024  # bytes once unpacked (a bigger one is refused, not inflated)
MAX_STEPS = 20_000
NAME_MAX = 64
GZIP_WBITS = 31  # zlib's window bits for a gzip stream
REPLAY_PIECE = 25  # actions replayed in one piece of the work of keeping a game
WHERE = ("computer", "lan")


class GameFileError(ValueError):
    """A game file that cannot be read: missing, truncated, corrupt, foreign or too new."""


def default_games_dir() -> Path:
    """Where the window keeps its games: ``DURAK_GAMES`` if set, else the user's data
    folder (per platform, via platformdirs)."""
    if "DURAK_GAMES" in os.environ:
        return Path(os.environ["DURAK_GAMES"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("durak", appauthor=False)) / "games"


@dataclass(frozen=True, slots=True)
class Step:
    """What one action (or the deal) showed the seat, and its view after it."""

    events: tuple[Event, ...]
    view: SeatView | None


@dataclass(frozen=True, slots=True)
class Summary:
    """What a list of games shows of one, read without replaying it."""

    rules: Rules
    seat: int
    names: tuple[str, ...]
    result: GameResult | None
    ended: str
    where: str
    has_log: bool

    @classmethod
    def from_dict(cls, data: Any) -> Summary:
        ended, where = _header(data)
        try:
            rules = rules_from_wire(data.get("rules"))
            seat, names = _seat_and_names(data, rules.players)
            result = data.get("result")
            result = None if result is None else result_from_wire(result, rules.players)
        except ProtocolError as exc:
            raise GameFileError(f"corrupt game file: {exc.text}") from None
        return cls(rules, seat, names, result, ended, where, data.get("log") is not None)

    @classmethod
    def load(cls, path: Path) -> Summary:
        return cls.from_dict(_read(path))

    @property
    def opponents(self) -> tuple[str, ...]:
        return tuple(n for s, n in enumerate(self.names) if s != self.seat)


@dataclass(frozen=True, slots=True)
class GameFile:
    rules: Rules
    seat: int
    names: tuple[str, ...]
    steps: tuple[Step, ...]
    result: GameResult | None
    ended: str  # ISO 8601, UTC
    where: str  # "computer" or "lan"
    log: GameLog | None = None  # seed and every action, where the player may have them

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "steps": [_step_to_wire(s) for s in self.steps], "log": self._log()}

    def _head(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "ended": self.ended,
            "where": self.where,
            "rules": rules_to_wire(self.rules),
            "seat": self.seat,
            "names": list(self.names),
            "result": None if self.result is None else result_to_wire(self.result),
        }

    def _log(self) -> dict[str, Any] | None:
        if self.log is None:
            return None
        whole = self.log.to_dict()
        return {key: whole[key] for key in ("seed", "previous", "actions")}

    def to_bytes(self) -> bytes:
        return b"".join(self.packed())

    def packed(self) -> Iterator[bytes]:
        """The file's bytes (``to_dict`` as compact JSON, gzip-compressed) in pieces, one
        step of the game each, so that a window can make them between its frames."""
        pack = zlib.compressobj(6, zlib.DEFLATED, GZIP_WBITS)
        head = _json(self._head())
        yield pack.compress(f'{head[:-1]},"steps":['.encode())
        for number, step in enumerate(self.steps):
            text = _json(_step_to_wire(step))
            yield pack.compress((f",{text}" if number else text).encode())
        yield pack.compress(f'],"log":{_json(self._log())}}}'.encode())
        yield pack.flush()

    @classmethod
    def from_bytes(cls, raw: bytes) -> GameFile:
        return cls.from_dict(_unpack(raw))

    @classmethod
    def load(cls, path: Path) -> GameFile:
        data = _read(path)
        try:
            return cls.from_dict(data)
        except GameFileError as exc:
            raise GameFileError(f"{path.name}: {exc}") from None

    @classmethod
    def from_dict(cls, data: Any) -> GameFile:
        head = Summary.from_dict(data)
        try:
            steps = _steps(data.get("steps"))
        except ProtocolError as exc:
            raise GameFileError(f"corrupt game file: {exc.text}") from None
        log = _log(data.get("log"), head.rules)
        game = cls(
            head.rules, head.seat, head.names, steps, head.result, head.ended, head.where, log
        )
        if log is not None:
            game.check_log()
        return game

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def opponents(self) -> tuple[str, ...]:
        return tuple(n for s, n in enumerate(self.names) if s != self.seat)

    def check_log(self) -> None:
        """The log must replay to exactly the events the seat saw (``GameFileError``)."""
        assert self.log is not None
        try:
            state = self.log.replay()
        except GameLogError as exc:
            raise GameFileError(f"its log does not replay: {exc}") from None
        if state.result != self.result:
            raise GameFileError("its log ends differently from the game it records")
        if seen_from_log(self.log, self.seat) != [s.events for s in self.steps]:
            raise GameFileError("its log is not the game the seat saw")


def _step_to_wire(step: Step) -> dict[str, Any]:
    return {
        "events": [event_to_wire(e) for e in step.events],
        "view": None if step.view is None else view_to_wire(step.view),
    }


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def steps_from_log(log: GameLog, seat: int) -> tuple[Step, ...]:
    """The steps ``seat`` would have been told in a game replayed from ``log`` (the
    engine plays it again: trimmed events and the seat's view after each action)."""
    state = log.start()
    steps = [Step(tuple(trim(e, seat) for e in state.opening), observe(state, seat))]
    for actor, action in log.actions:
        events = state.apply(actor, action)
        steps.append(Step(tuple(trim(e, seat) for e in events), observe(state, seat)))
    return tuple(steps)


def seen_from_log(log: GameLog, seat: int) -> list[tuple[Event, ...]]:
    """The trimmed events ``seat`` is told by a game replayed from ``log``: the deal, then
    one step per action."""
    return list(_told(log, seat))


def _told(log: GameLog, seat: int) -> Iterator[tuple[Event, ...]]:
    """``seen_from_log``, one step at a time (the engine replays as it is asked)."""
    state = log.start()
    yield tuple(trim(e, seat) for e in state.opening)
    for actor, action in log.actions:
        yield tuple(trim(e, seat) for e in state.apply(actor, action))


def _read(path: Path) -> Any:
    """The JSON data of the file at ``path`` (``GameFileError`` naming the file)."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_FILE + 1)
    except OSError as exc:
        raise GameFileError(f"{path.name}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE:
        raise GameFileError(f"{path.name}: too big for a game file")
    try:
        return _unpack(raw)
    except GameFileError as exc:
        raise GameFileError(f"{path.name}: {exc}") from None


def _unpack(raw: bytes) -> Any:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unpacked:
            text = unpacked.read(MAX_JSON + 1)
    except (OSError, EOFError, zlib.error):
        raise GameFileError("not a game file, or cut short (not a complete gzip stream)") from None
    if len(text) > MAX_JSON:
        raise GameFileError("too big for a game file once unpacked")
    try:
        return json.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise GameFileError("not a game file (not UTF-8 text)") from None
    except (ValueError, RecursionError):
        raise GameFileError("not a game file (corrupt JSON)") from None


def _header(data: Any) -> tuple[str, str]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError("not a Durak game file (no 'durak-game' format tag)")
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise GameFileError(f"game file version {version!r} is not a version")
    if version > VERSION:
        raise GameFileError(
            f"made by a newer Durak (file version {version}; this one reads up to {VERSION})"
        )
    ended, where = data.get("ended"), data.get("where")
    if not isinstance(ended, str) or len(ended) > 40:
        raise GameFileError("'ended' must be a date and time")
    try:
        datetime.fromisoformat(ended)
    except ValueError:
        raise GameFileError("'ended' must be a date and time") from None
    if where not in WHERE:
        raise GameFileError("'where' must be 'computer' or 'lan'")
    return ended, where


def _seat_and_names(data: dict[str, Any], players: int) -> tuple[int, tuple[str, ...]]:
    seat, names = data.get("seat"), data.get("names")
    if type(seat) is not int or not 0 <= seat < players:
        raise GameFileError(f"'seat' must be a seat of the {players}-player table")
    if (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(n, str) and len(n) <= NAME_MAX for n in names)
    ):
        raise GameFileError("'names' must name every seat")
    return seat, tuple(names)


def _steps(value: Any) -> tuple[Step, ...]:
    if not isinstance(value, list) or len(value) > MAX_STEPS:
        raise GameFileError("'steps' must be a list")
    steps = []
    for number, step in enumerate(value):
        if not isinstance(step, dict) or set(step) != {"events", "view"}:
            raise GameFileError(f"step {number} must hold 'events' and 'view'")
        events = step["events"]
        if not isinstance(events, list):
            raise GameFileError(f"step {number}: 'events' must be a list")
        view = step["view"]
        steps.append(
            Step(
                tuple(event_from_wire(e) for e in events),
                None if view is None else view_from_wire(view),
            )
        )
    return tuple(steps)


def _log(value: Any, rules: Rules) -> GameLog | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise GameFileError("'log' must be a mapping or null")
    whole = {
        "format": "durak-game-log",
        "version": 1,
        "rules": rules.to_dict(),
        **{k: value.get(k) for k in ("seed", "previous", "actions")},
    }
    try:
        return GameLog.from_dict(whole)
    except GameLogError as exc:
        raise GameFileError(f"bad log: {exc}") from None


# --- the folder ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listing:
    """The games of a folder, newest first, and the files that could not be read (a
    file whose header reads but whose steps do not is found out when it is opened)."""

    games: tuple[tuple[Path, Summary], ...]
    problems: tuple[str, ...]


class GameStore:
    def __init__(self, folder: Path, keep: int = KEEP) -> None:
        self.folder = folder
        self.keep = keep

    def paths(self) -> list[Path]:
        """The game files, oldest first (their names sort by the time they were saved)."""
        try:
            found = [p for p in self.folder.iterdir() if p.name.endswith(SUFFIX)]
        except OSError:
            return []
        return sorted(found, key=lambda p: p.name)

    def save(self, game: GameFile) -> Path:
        """Write ``game`` as a new file (in one step) and delete the oldest beyond ``keep``."""
        return self.write(game.to_bytes())

    def write(self, raw: bytes) -> Path:
        """Write a game file's bytes ``raw`` as ``save`` does."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        path = self.folder / f"game-{stamp}-{secrets.token_hex(2)}{SUFFIX}"
        write_atomically(path, raw)
        paths = self.paths()
        for old in paths[: max(0, len(paths) - self.keep)]:
            old.unlink(missing_ok=True)
        return path

    def listing(self) -> Listing:
        games: list[tuple[Path, Summary]] = []
        problems: list[str] = []
        for path in reversed(self.paths()):
            try:
                games.append((path, Summary.load(path)))
            except GameFileError as exc:
                problems.append(str(exc))
        return Listing(tuple(games), tuple(problems))


# --- recording what the window is told --------------------------------------------------


@dataclass
class GameRecorder:
    """Keeps the game the table screen is shown: give it every session message in order
    (``take``); at each game's end it saves a game file to ``store``.

    ``logs``, where the player may have them (a host in this process), gives the host's
    finished games; the one that replays to what the seat saw is kept with the file.
    A game that could not be saved is noted in ``problems`` and play goes on. ``later``
    (the window's ``Chores.add``) is given the work of keeping a game, a short piece at a
    time, to do between frames, and the file is then written in a thread of its own (the
    disk may be slow; ``wait_written`` waits for those writes); without it a game is kept
    at once. ``last``: the game just ended as kept (what the end of the game's Review goes
    over), until the next game starts.
    """

    store: GameStore
    where: str
    logs: Callable[[], Sequence[GameLog]] | None = None
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    saved: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    later: Callable[[Iterator[object]], None] | None = None
    last: GameFile | None = None
    _seated: Seated | None = None
    _steps: list[Step] = field(default_factory=list)
    _ended: bool = False
    _writers: list[threading.Thread] = field(default_factory=list)

    def take(self, message: Message) -> None:
        if isinstance(message, Seated):
            self._seated, self._steps, self._ended, self.last = message, [], False, None
        elif isinstance(message, Happened):
            if self._ended or (self._steps and any(isinstance(e, Dealt) for e in message.events)):
                self._steps, self._ended, self.last = [], False, None  # the next game's deal
            self._steps.append(Step(message.events, None))
        elif isinstance(message, Snapshot):
            if self._steps and self._steps[-1].view is None:
                self._steps[-1] = Step(self._steps[-1].events, message.view)
            elif self._steps:  # a resynchronisation (after a reconnect)
                self._steps.append(Step((), message.view))
        elif isinstance(message, GameOver) and not self._ended:
            self._ended = True
            revealed = None if message.deal is None else message.deal.log
            self._save(message.result, revealed)

    def _save(self, result: GameResult, revealed: GameLog | None) -> None:
        seated = self._seated
        if seated is None or seated.seat == WATCHING or not self._steps:
            return  # (a watched game is nobody's to keep)
        game = GameFile(
            seated.rules,
            seated.seat,
            seated.names,
            tuple(self._steps),
            result,
            self.clock().strftime("%Y-%m-%dT%H:%M:%SZ"),
            self.where,
        )
        self.last = game
        keeping = self._keep(game, revealed)
        if self.later is None:
            for _ in keeping:
                pass
        else:
            self.later(keeping)

    def _keep(self, game: GameFile, revealed: GameLog | None) -> Iterator[None]:
        """Match the log, make the file's bytes, write them: a piece at a time."""
        kept = replace(game, log=(yield from self._log_for(game, revealed)))
        if self.last is game:  # still the game just ended (not yet the next one)
            self.last = kept
        pieces = []
        for piece in kept.packed():
            pieces.append(piece)
            yield
        raw = b"".join(pieces)
        if self.later is None:
            self._write(raw)
        else:
            writer = threading.Thread(target=self._write, args=(raw,), name="durak-keep")
            self._writers = [w for w in self._writers if w.is_alive()] + [writer]
            writer.start()

    def wait_written(self, timeout: float | None = None) -> bool:
        """Wait until every game file whose write has begun is written (or noted in
        ``problems``), at most ``timeout`` seconds in all; whether they all are. With
        ``later``, a game's write begins once its chore has run to the end: finish the
        chores first. Several games kept in a row may be writing at once; all are waited
        for."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for writer in list(self._writers):
            writer.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not any(w.is_alive() for w in self._writers)

    def _write(self, raw: bytes) -> None:
        try:
            self.saved.append(self.store.write(raw))
        except OSError as exc:
            self.problems.append(f"could not keep the game in {self.store.folder}: {exc}")

    def _log_for(
        self, game: GameFile, revealed: GameLog | None
    ) -> Generator[None, None, GameLog | None]:
        """The log of ``game``: the one its host revealed, or one of ``logs``, whichever
        replays to what the seat saw."""
        logs = [] if self.logs is None else list(reversed(self.logs()))
        if revealed is not None:
            logs.insert(0, revealed)
        seen = [s.events for s in game.steps]
        for log in logs:
            if log.rules != game.rules:
                continue
            try:
                if (yield from _replays_to(log, game.seat, seen)):
                    return GameLog(log.rules, log.seed, log.previous, list(log.actions))
            except IllegalAction:  # a log that does not replay is not this game's
                continue
        return None


def _replays_to(
    log: GameLog, seat: int, seen: list[tuple[Event, ...]]
) -> Generator[None, None, bool]:
    """Whether ``log`` replays to what ``seat`` saw (``seen_from_log(log, seat) == seen``),
    ``REPLAY_PIECE`` actions at a time."""
    if len(seen) != len(log.actions) + 1:
        return False
    for number, (told, step) in enumerate(zip(_told(log, seat), seen, strict=True)):
        if told != step:
            return False
        if number % REPLAY_PIECE == 0:
            yield
    return True
