"""Game logs: rules + seed + the actions in order replay a game exactly.

A log file is UTF-8 JSON::

    {"format": "durak-game-log", "version": 1,
     "rules": {...}, "seed": 7, "previous": null,
     "actions": [[0, "attack 6h"], [1, "beat 6h with 9h"], ...]}

Reading (``GameLog.from_bytes``) checks the format tag, the version, every field and then
replays every action, so a truncated, corrupt or foreign log is refused with an error
naming the problem. The engine does no I/O: whoever keeps a log in a file writes these
bytes (the host's save and the window's kept games go through ``host.durable``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .events import GameResult
from .reasons import IllegalAction
from .rules import Rules, RulesError
from .state import GameState, new_game

__all__ = ["FORMAT", "VERSION", "GameLog", "GameLogError"]

FORMAT = "durak-game-log"
VERSION = 1


class GameLogError(ValueError):
    """A game log that cannot be read or does not replay."""


@dataclass(slots=True)
class GameLog:
    """The record of one game: enough to replay it exactly."""

    rules: Rules
    seed: int
    previous: GameResult | None = None
    actions: list[tuple[int, Action]] = field(default_factory=list)

    def start(self) -> GameState:
        return new_game(self.rules, self.seed, self.previous)

    def replay(self) -> GameState:
        """The state after every logged action; ``GameLogError`` if one is illegal."""
        state = self.start()
        for number, (seat, action) in enumerate(self.actions):
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                raise GameLogError(
                    f"action {number} (seat {seat}: {action}) is illegal: {exc.reason.value}"
                ) from None
        return state

    def to_dict(self) -> dict[str, Any]:
        previous = None
        if self.previous is not None:
            previous = {"places": list(self.previous.places), "durak": self.previous.durak}
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "previous": previous,
            "actions": [[seat, str(action)] for seat, action in self.actions],
        }

    def to_bytes(self) -> bytes:
        """The log as the documented JSON, UTF-8."""
        return json.dumps(self.to_dict(), separators=(",", ":")).encode()

    @classmethod
    def from_bytes(cls, raw: bytes) -> GameLog:
        """Read and verify a log (it must replay without an illegal action)."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise GameLogError("not a game log (not UTF-8 text)") from None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # bad JSON, a number too long, nesting too deep
            raise GameLogError("not a game log (truncated or corrupt JSON)") from None
        log = cls.from_dict(data)
        log.replay()
        return log

    @classmethod
    def from_dict(cls, data: Any) -> GameLog:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameLogError("not a Durak game log (no 'durak-game-log' format tag)")
        version = data.get("version")
        if type(version) is not int or version != VERSION:
            raise GameLogError(f"log format version {version!r} is not supported (want {VERSION})")
        seed = data.get("seed")
        if type(seed) is not int:
            raise GameLogError("'seed' must be an integer")
        try:
            rules = Rules.from_dict(data.get("rules"))
        except RulesError as exc:
            raise GameLogError(f"bad rules: {exc}") from None
        previous = _previous(data.get("previous"), rules.players)
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise GameLogError("'actions' must be a list")
        parsed: list[tuple[int, Action]] = []
        for number, entry in enumerate(actions):
            if (
                not isinstance(entry, list)
                or len(entry) != 2
                or type(entry[0]) is not int
                or not isinstance(entry[1], str)
            ):
                raise GameLogError(f"action {number} is not a [seat, text] pair")
            if not 0 <= entry[0] < rules.players:
                raise GameLogError(
                    f"action {number}: seat {entry[0]} is not at a {rules.players}-player table"
                )
            try:
                parsed.append((entry[0], parse_action(entry[1])))
            except ValueError as bad:  # not ``exc``: compiled, a name keeps one type
                raise GameLogError(f"action {number}: {bad}") from None
        return cls(rules, seed, previous, parsed)


def _previous(data: Any, players: int) -> GameResult | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise GameLogError("'previous' must be a mapping or null")
    places, durak = data.get("places"), data.get("durak")
    if (
        not isinstance(places, list)
        or len(places) != players
        or any(type(p) is not int or not 0 < p <= players for p in places)
    ):
        raise GameLogError("'previous.places' must list a place for every seat")
    if durak is not None and (type(durak) is not int or not 0 <= durak < players):
        raise GameLogError("'previous.durak' must be a seat or null")
    return GameResult(tuple(places), durak)
