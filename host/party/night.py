"""A party night's state, apart from any socket: its players, its setup, its rounds and
every game's result; what a request changes and why one is refused.

The party's host (``host.party.server``) owns the connections and the tables and asks
this object; it returns what happened (a refusal code, a new player and their token, the
seating of the next round, whether a round ended) and never sends or waits. So the
round flow is tested without a table or a clock (tests/host/test_party_night.py), and
the state saved to disk is one plain map (``to_dict``, ``from_dict``): what
``durak party --resume`` takes up (``host.party.store``).

Times are wall-clock seconds (``time.time()``, passed in as ``now``): they are saved and
must mean the same after a restart. A table token is derived from the party's secret
(HMAC-SHA256 of the round, the table and the player), so a resumed party hands a player
the same token for the same seat without ever saving a token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from engine import GameResult, Rules
from engine.ai import make_bot
from protocol import (
    MAX_PLAYERS,
    LongestGame,
    Night,
    Party,
    PartyFigures,
    PartyPlayer,
    RoundTable,
    UnplayableRules,
)
from protocol.names import refusal, seen

from ..credentials import new_token, token_matches
from .seating import Seating, seat_round, table_sizes
from .standings import Game, figures, standings

__all__ = ["Night", "NightState", "Player", "Round", "TableSlot"]

BREAK = 30.0  # seconds between two rounds, unless the organiser starts the next one sooner


@dataclass(slots=True)
class Player:
    id: int
    name: str
    token_hash: str
    left: bool = False


@dataclass(slots=True)
class TableSlot:
    """A table of the round: where it listens, who sits where, its game once done."""

    index: int
    port: int
    seats: tuple[int | None, ...]
    game: Game | None = None


@dataclass(slots=True)
class Round:
    number: int
    final: bool
    began: float
    tables: list[TableSlot] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return all(table.game is not None for table in self.tables)


class NightState:
    """The night. ``status``: gathering, playing, break or over (the protocol's)."""

    def __init__(self, name: str, setup: Night, seed: int, break_s: float = BREAK) -> None:
        self.name = name
        self.setup = setup
        self.seed = seed
        self.break_s = break_s
        self.secret = secrets.token_hex(32)
        self.players: list[Player] = []
        self.games: list[Game] = []
        self.round: Round | None = None
        self.status = "gathering"
        self.started: float | None = None  # when round 1 began
        self.next_at: float | None = None  # when the break ends
        self.longest = 0.0  # seconds of the longest round so far

    # --- players ----------------------------------------------------------------------

    def join(self, name: str) -> tuple[Player, str] | str:
        """A new player and their token, or why not (``bad_name``: ``protocol.names``
        refuses it; ``name_taken``: a player's name reads as it; ``party_full``)."""
        if refusal(name) is not None:
            return "bad_name"
        if any(seen(player.name) == seen(name) for player in self.players):
            return "name_taken"
        if len(self.players) >= MAX_PLAYERS:
            return "party_full"
        token, token_hash = new_token()
        player = Player(len(self.players), name, token_hash)
        self.players.append(player)
        return player, token

    def unjoin(self, player: Player) -> None:
        """Undo the join of ``player``, the one who joined last (their join could not be
        saved: they were told so, and hold no token)."""
        assert self.players[-1] is player
        self.players.pop()

    def holder(self, token: str) -> Player | None:
        return next((p for p in self.players if token_matches(token, p.token_hash)), None)

    def organiser(self, here: Collection[int]) -> int | None:
        """The player who joined first among those connected now."""
        return min((p.id for p in self.players if p.id in here and not p.left), default=None)

    def table_token(self, round_number: int, table: int, player: int) -> str:
        message = f"{round_number}:{table}:{player}".encode()
        return hmac.new(bytes.fromhex(self.secret), message, hashlib.sha256).hexdigest()[:32]

    # --- the organiser's requests -----------------------------------------------------

    def set_up(
        self,
        rules: Rules | UnplayableRules,
        rounds: int | None,
        minutes: int | None,
        fill: bool,
        ai: str,
    ) -> str | None:
        """The organiser's setup, or why it is refused."""
        if self.status != "gathering":
            return "started"
        if isinstance(rules, UnplayableRules):
            return "bad_rules"
        try:
            make_bot(ai, 0, rules, 0)
        except ValueError:
            return "unknown_level"
        self.setup = Night(rules, rounds, minutes, fill, ai)
        return None

    def start_refusal(self) -> tuple[str, str] | None:
        """Why the next round cannot start now (code and text), if not."""
        if self.status == "over":
            return "over", "The night is over."
        if self.status == "playing":
            return "round_running", "A round is being played."
        try:
            table_sizes(len(self.seated()), self.setup.rules.players, self.setup.fill)
        except ValueError as exc:
            return "too_few", f"Too few players: {exc}."
        return None

    # --- rounds -----------------------------------------------------------------------

    def seated(self) -> list[int]:
        """The players of the next round, best standing first."""
        here = {p.id for p in self.players if not p.left}
        return [int(s.player) for s in self.standings() if int(s.player) in here]

    def next_is_final(self, now: float) -> bool:
        setup, number = self.setup, self.round.number + 1 if self.round else 1
        if setup.rounds is not None:
            return setup.rounds > 1 and number == setup.rounds
        if self.started is None or setup.minutes is None:
            return False
        left = self.started + setup.minutes * 60 - now
        return number > 1 and left < self.longest

    def seat_next(self, now: float) -> Seating:
        """The next round's seating (``start_refusal`` said it can start)."""
        number = self.round.number + 1 if self.round else 1
        ranked = [str(p) for p in self.seated()]
        setup = self.setup
        return seat_round(
            ranked,
            self.games,
            number,
            setup.rules.players,
            fill=setup.fill,
            seed=self.seed,
            final=self.next_is_final(now),
        )

    def open_round(self, seating: Seating, ports: list[int], now: float) -> Round:
        """The round of ``seating`` begins, its tables on ``ports``."""
        tables = [
            TableSlot(index, port, tuple(None if who is None else int(who) for who in seats))
            for index, (seats, port) in enumerate(zip(seating.tables, ports, strict=True))
        ]
        self.round = Round(seating.round, self.next_is_final(now), now, tables)
        self.status, self.next_at = "playing", None
        if self.started is None:
            self.started = now
        return self.round

    def record(
        self,
        table: int,
        result: GameResult,
        actions: int,
        seconds: float,
        out_after: tuple[int | None, ...],
        now: float,
    ) -> bool:
        """Table ``table`` of the round in play finished its game: True when the round is
        over with it (a result already recorded changes nothing)."""
        current = self.round
        if current is None or not 0 <= table < len(current.tables):
            return False
        slot = current.tables[table]
        if slot.game is not None or len(result.places) != len(slot.seats):
            return False
        seats = tuple(None if who is None else str(who) for who in slot.seats)
        game = Game(current.number, table, seats, result, actions, seconds, out_after)
        slot.game = game
        self.games.append(game)
        if not current.done:
            return False
        self.longest = max(self.longest, now - current.began)
        if self._night_over(now):
            self.status, self.next_at = "over", None
        else:
            self.status, self.next_at = "break", now + self.break_s
        return True

    def _night_over(self, now: float) -> bool:
        setup, current = self.setup, self.round
        assert current is not None
        if setup.rounds is not None:
            return current.number >= setup.rounds
        assert self.started is not None and setup.minutes is not None
        return current.final or now >= self.started + setup.minutes * 60

    def table_of(self, player: int) -> TableSlot | None:
        """The player's table in the round in play, while its game is being played."""
        if self.round is None:
            return None
        return next((t for t in self.round.tables if t.game is None and player in t.seats), None)

    # --- what everyone is shown -------------------------------------------------------

    def standings(self) -> tuple[Any, ...]:
        return standings([str(p.id) for p in self.players], self.games)

    def view(self, now: float, here: Collection[int]) -> Party:
        table_of = {
            who: slot.index
            for slot in (self.round.tables if self.round else [])
            for who in slot.seats
            if who is not None
        }
        players = []
        for standing in self.standings():
            player = self.players[int(standing.player)]
            status = "left" if player.left else "here" if player.id in here else "away"
            players.append(
                PartyPlayer(
                    player.id,
                    player.name,
                    status,
                    standing.rank,
                    standing.games,
                    standing.wins,
                    standing.losses,
                    round(standing.place * 1000),
                    standing.opponents,
                    table_of.get(player.id),
                )
            )
        current, setup = self.round, self.setup
        tables = tuple(
            RoundTable(
                slot.index,
                slot.port,
                slot.seats,
                "playing" if slot.game is None else "done",
                None if slot.game is None else slot.game.result.places,
                None if slot.game is None else slot.game.result.durak,
            )
            for slot in (current.tables if current else [])
        )
        left = None
        if setup.minutes is not None and self.started is not None:
            left = max(0, round((self.started + setup.minutes * 60 - now) * 1000))
        return Party(
            name=self.name,
            status=self.status,
            organiser=self.organiser(here),
            setup=setup,
            round=current.number if current else 0,
            final=current.final if current else False,
            round_ms=None if current is None else max(0, round((now - current.began) * 1000)),
            left_ms=left,
            next_ms=None if self.next_at is None else max(0, round((self.next_at - now) * 1000)),
            players=tuple(players),
            tables=tables,
            figures=self._figures(),
        )

    def _figures(self) -> PartyFigures:
        found = figures(self.games)
        longest = found.longest
        return PartyFigures(
            tuple(int(who) for who in found.most_durak),
            found.durak_times,
            None if longest is None else LongestGame(longest.round, longest.table, longest.actions),
            None if found.fastest is None else (int(found.fastest[0]), found.fastest[1]),
        )

    # --- saved ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        current = self.round
        return {
            "name": self.name,
            "setup": {
                "rules": self.setup.rules.to_dict(),
                "rounds": self.setup.rounds,
                "minutes": self.setup.minutes,
                "fill": self.setup.fill,
                "ai": self.setup.ai,
            },
            "seed": self.seed,
            "break": self.break_s,
            "secret": self.secret,
            "players": [[p.name, p.token_hash, p.left] for p in self.players],
            "games": [_game_to_dict(game) for game in self.games],
            "round": None
            if current is None
            else {
                "number": current.number,
                "final": current.final,
                "began": current.began,
                "tables": [[t.index, t.port, list(t.seats)] for t in current.tables],
            },
            "status": self.status,
            "started": self.started,
            "next_at": self.next_at,
            "longest": self.longest,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NightState:
        """The night of a saved map (``KeyError``, ``TypeError``, ``ValueError``,
        ``RulesError`` for one that does not hold together)."""
        setup = data["setup"]
        rules = Rules.from_dict(setup["rules"])
        night = cls(
            str(data["name"]),
            Night(rules, setup["rounds"], setup["minutes"], bool(setup["fill"]), setup["ai"]),
            int(data["seed"]),
            float(data["break"]),
        )
        night.secret = bytes.fromhex(data["secret"]).hex()
        night.players = [
            Player(index, str(name), str(token_hash), bool(left))
            for index, (name, token_hash, left) in enumerate(data["players"])
        ]
        night.games = [_game_from_dict(game) for game in data["games"]]
        saved = data["round"]
        if saved is not None:
            night.round = Round(int(saved["number"]), bool(saved["final"]), float(saved["began"]))
            for index, port, seats in saved["tables"]:
                slot = TableSlot(int(index), int(port), tuple(seats))
                slot.game = next(
                    (g for g in night.games if (g.round, g.table) == (night.round.number, index)),
                    None,
                )
                night.round.tables.append(slot)
        if data["status"] not in ("gathering", "playing", "break", "over"):
            raise ValueError(f"no such party status {data['status']!r}")
        night.status = data["status"]
        night.started, night.next_at = data["started"], data["next_at"]
        night.longest = float(data["longest"])
        known = {str(p.id) for p in night.players}
        if any(who not in known for g in night.games for who in g.seats if who is not None):
            raise ValueError("a saved game names a player the party does not have")
        return night


def _game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "round": game.round,
        "table": game.table,
        "seats": list(game.seats),
        "places": list(game.result.places),
        "durak": game.result.durak,
        "actions": game.actions,
        "seconds": game.seconds,
        "out_after": list(game.out_after),
    }


def _game_from_dict(data: dict[str, Any]) -> Game:
    return Game(
        int(data["round"]),
        int(data["table"]),
        tuple(data["seats"]),
        GameResult(tuple(data["places"]), data["durak"]),
        int(data["actions"]),
        float(data["seconds"]),
        tuple(data["out_after"]),
    )
