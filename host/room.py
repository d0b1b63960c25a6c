"""The room: who sits where, who owns it, and the rules, options and series they play by.

A ``Roster`` owns what a table keeps from one game to the next: the seats (and who is
connected to each), the owner, the rules, the series, and the room's options (the hold,
the turn timer, the heartbeat's silence, the lobby's idle time, the watchers' limit). It
answers the questions the table asks of the room (who holds a token, whether a newcomer
has a seat, whom the deal waits for, whether an autostart table is full) and changes it,
returning what came of a change (``Freed``: whose connection the table must close, and
why). It never sends anything and sets no timer: the table does both with what it returns.

Ready marks: in the lobby each player sets one; the owner's start waits until every other
human is ready (AI seats always are). Every mark is cleared as a game starts, so a
rematch needs everyone ready again, and when the rules change; otherwise a mark goes with
its player (one who leaves takes it along, a newcomer is not ready, the others keep theirs).

A room always has an owner who can act, so that nobody's absence can stall it (issue 23):
the first human to sit down owns it, and it passes on when the owner leaves (``leave``,
or the owner's seat is kicked or replaced), drops out of the lobby, or stays away from a
game past the hold (when the stand-in takes the seat over). It passes to the connected
human who has sat at the table longest, since they are the one the others have played
with longest (seats taken before a ``--resume`` count as taken at once, the lower seat
first); with nobody connected the room has no owner until someone comes. An owner who
comes back after the room passed on does not take it back: the new owner may already be
running it. Everyone learns who it is from the ``room`` update that follows (``owner``).

A game never waits for ever on one person either: without a turn timer the table keeps a
``PATIENCE`` of 60 seconds, the hold ``durak host`` gives a dropped player, so a player
who walked off without dropping is covered after the same minute as one whose Wi-Fi did.
When nothing has happened for that long, every human seat the game is waiting on gets the
turn timer's default move (the defender takes, a leader leads its lowest card, anyone else
passes). A minute is longer than a thinking player needs for a move and about as long as
a party waits before it asks where someone went; ``room.turn_ms`` stays nil.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from engine import GameResult, Rules, Series
from engine.ai import make_bot
from protocol import (
    MAX_MS,
    MAX_SILENCE_MS,
    MAX_WATCHERS,
    MIN_SILENCE_MS,
    Hello,
    Kick,
    Leave,
    Replace,
    Room,
    SetOptions,
    SetRules,
    SetSeat,
    UnplayableRules,
)
from protocol.names import numbered, refusal

from .config import HostConfig
from .credentials import new_token, token_matches
from .entry import WRONG, Gate, Refusal
from .items import Idle, Link
from .room_state import Seat, first_empty, human_names, seat_infos
from .save import SavedSeat, TableSave

__all__ = ["PATIENCE", "Freed", "Roster"]

PATIENCE = 60.0  # seconds a game waits on a seat when the room has no turn timer


@dataclass(frozen=True, slots=True)
class Freed:
    """A seat was freed: the connection there (if any) goes with this goodbye."""

    index: int
    link: Link | None
    code: str
    text: str


BAD_TOKEN = Refusal("bad_token", "That token holds no seat at this table.")
FULL = Refusal("table_full", "Every seat is taken.")
RUNNING = Refusal("game_in_progress", "A game is being played; join when it ends.")


def bad_name(name: str) -> Refusal | None:
    """Why a newcomer's name is refused (``protocol.names``: one that shows nothing or
    reads as a seat no person plays), if it is."""
    text = refusal(name)
    return None if text is None else Refusal("bad_name", text)


class Roster:
    def __init__(self, config: HostConfig) -> None:
        """The room ``config`` opens with (``ValueError``, ``RulesError`` if it cannot)."""
        if any(len(level) > 24 for level in config.ai):
            raise ValueError("an AI level name is at most 24 characters")
        if not 0 <= config.watchers <= MAX_WATCHERS:
            raise ValueError(f"a table takes 0 to {MAX_WATCHERS} watchers")
        if len(config.ai) > config.seats:
            raise ValueError(f"{len(config.ai)} AI players do not fit {config.seats} seats")
        self.rules: Rules = replace(config.rules, players=config.seats)  # RulesError if bad
        self.seats = [Seat() for _ in range(config.seats)]
        first_ai = config.seats - len(config.ai)
        for offset, level in enumerate(config.ai):
            make_bot(level, first_ai + offset, self.rules, 0)  # ValueError for a bad level
            self.seats[first_ai + offset] = Seat.ai(level)
        self.owner: int | None = None
        self.series = Series.new(config.seats)
        self.stand_in = config.stand_in  # the level that plays a seat its player left
        self.autostart = config.autostart  # (no ready marks, so no idle watch)
        self.hold = max(0.0, config.hold)  # the room's options (the owner may change them)
        self.turn_timer = config.turn_timer
        self.silence = config.silence
        self.idle = config.idle
        self.watchers = config.watchers  # how many may watch
        self.marks = itertools.count(1)  # the idle watches' marks
        self.arrivals = itertools.count(1)  # the order the players sat down in

    def restore(self, saved: TableSave) -> None:
        """The room of a saved table: its rules, seats (with their badges), owner, series
        and options."""
        self.rules, self.owner, self.series = saved.rules, saved.owner, saved.series
        self.seats = [Seat(s.kind, s.name, s.level, s.token_hash, look=s.look) for s in saved.seats]
        self.hold, self.turn_timer, self.silence = saved.hold, saved.turn_timer, saved.silence
        self.idle, self.watchers = saved.idle, saved.watchers

    def saved(self) -> dict[str, Any]:
        """The room's fields of a ``TableSave``."""
        return {
            "rules": self.rules,
            "seats": tuple(
                SavedSeat(s.kind, s.name, s.level, s.token_hash, s.look) for s in self.seats
            ),
            "owner": self.owner,
            "series": self.series,
            "hold": self.hold,
            "turn_timer": self.turn_timer,
            "silence": self.silence,
            "idle": self.idle,
            "watchers": self.watchers,
        }

    def room(
        self,
        name: str,
        *,
        playing: bool,
        stand_ins: Collection[int],
        password: bool,
        game: int,
        watching: tuple[str, ...],
        unsaved: bool,
        paused: bool = False,
        run_by: str = "owner",
    ) -> Room:
        """The room every client is shown (``stand_ins``: the seats an AI plays for now;
        ``run_by``: who runs it, ``host.policy``)."""
        turn, idle = self.turn_timer, self.idle
        return Room(
            name=name,
            status="playing" if playing else "lobby",
            owner=self.owner,
            seats=seat_infos(self.seats, stand_ins),
            rules=self.rules,
            password=password,
            autostart=self.autostart,
            series=self.series,
            game=game,
            hold_ms=min(round(self.hold * 1000), MAX_MS),
            turn_ms=None if turn is None else min(max(round(turn * 1000), 1), MAX_MS),
            silence_ms=min(max(round(self.silence * 1000), MIN_SILENCE_MS), MAX_SILENCE_MS),
            idle_ms=None if idle is None else min(max(round(idle * 1000), 1), MAX_MS),
            watchers=self.watchers,
            watching=watching,
            unsaved=unsaved,
            paused=paused,
            run_by=run_by,
        )

    # --- who sits where ---------------------------------------------------------------

    def holder(self, token: str) -> int | None:
        """The seat ``token`` holds, if any."""
        return next(
            (
                i
                for i, s in enumerate(self.seats)
                if s.kind == "human" and token_matches(token, s.token_hash)
            ),
            None,
        )

    def admit(
        self, hello: Hello, gate: Gate, address: str, playing: bool, checked: bool | None
    ) -> Refusal | int | None:
        """Whether a player's ``hello`` from ``address`` is let in: why not, the seat its
        token holds, or None for a newcomer who may sit down (``checked``: its password
        checked off the loop). Without a token a running game or a full table is said
        before the password is looked at, and a password from an address still waiting
        after wrong ones is not looked at (``Gate``): so no answer tells a right password
        from a wrong one but a seat."""
        if hello.token is not None:
            index = self.holder(hello.token)
            if index is None:
                return BAD_TOKEN
            return index if gate.right(hello.password, checked) else WRONG
        return (
            self.no_seat(playing)
            or bad_name(hello.name)
            or gate.newcomer(address, hello.password, checked)
        )

    def no_seat(self, playing: bool) -> Refusal | None:
        """Why a newcomer (no token) gets no seat, if not: a game runs, or the table is
        full (both said before any password is looked at)."""
        if playing:
            return RUNNING
        return FULL if first_empty(self.seats) is None else None

    def sit_down(self, name: str, look: int | None = None) -> tuple[int, str]:
        """A newcomer takes the first empty seat (``no_seat`` said there is one): the seat
        and its token (never kept: the seat keeps its hash)."""
        index = first_empty(self.seats)
        assert index is not None
        seat = self.seats[index]
        token, seat.token_hash = new_token()
        # two bots both called "Normal bot" must not read as one player
        seat.kind, seat.name = "human", numbered(name, human_names(self.seats))
        seat.look, seat.back_soon = look, False
        seat.ready = False  # a new player says for themselves when they are ready
        seat.since = next(self.arrivals)
        return index, token

    def set_look(self, index: int, look: int | None) -> None:
        """A returning player's hello chose their badge afresh."""
        self.seats[index].look = look

    def set_back_soon(self, index: int, on: bool) -> bool:
        """Seat ``index``'s "back in a minute" mark: True when it changed."""
        seat = self.seats[index]
        changed, seat.back_soon = seat.back_soon != on, on
        return changed

    def alone(self, index: int) -> bool:
        """Whether seat ``index``'s player is the table's only human (every other seat is
        an AI's or empty): only then may they stop the game's clock (``host.pause``)."""
        return all(s.kind != "human" for i, s in enumerate(self.seats) if i != index)

    def free(
        self, index: int, playing: bool, code: str, text: str, level: str | None = None
    ) -> Freed:
        """Whoever sits at ``index`` goes (their token with the seat; a player is told
        ``text``): an AI of ``level`` takes it; without one it is empty in the lobby, and
        in a game the stand-in plays it to the game's end."""
        link = self.seats[index].link
        if level is not None:
            self.seats[index] = Seat.ai(level)
        elif playing:
            self.seats[index] = Seat.ai(self.stand_in, for_game=True)
        else:
            self.seats[index] = Seat()
        return Freed(index, link, code, text)

    def fix_owner(self, playing: bool, stand_ins: Collection[int]) -> bool:
        """The owner stays while their seat is a connected human's, or in a game is held
        for them (not yet played by a stand-in, ``stand_ins``); otherwise the connected
        human seated longest owns the room (None: nobody). True when the owner changed."""
        index = self.owner
        if index is not None:
            seat = self.seats[index]
            held = playing and index not in stand_ins
            if seat.kind == "human" and (seat.link is not None or held):
                return False
        connected = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.link]
        self.owner = min(connected, key=lambda i: (self.seats[i].since, i), default=None)
        return self.owner != index

    @property
    def turn_limit(self) -> float:
        """How long a game waits on its human seats before their default moves: the turn
        timer, or without one the table's ``PATIENCE``."""
        return PATIENCE if self.turn_timer is None else self.turn_timer

    # --- the owner's commands and the ready marks ---------------------------------------

    def set_ready(self, index: int, ready: bool) -> bool:
        """Seat ``index``'s ready mark: True when it changed."""
        seat = self.seats[index]
        changed, seat.ready = seat.ready != ready, ready
        return changed

    def carry_out(
        self,
        index: int,
        message: SetOptions | SetRules | SetSeat | Leave | Kick | Replace,
        playing: bool,
    ) -> Freed | None:
        """A room command of seat ``index`` that ``host.lobby`` let through: the seat it
        freed and its goodbye, if it freed one."""
        if isinstance(message, SetOptions):
            self._set_options(message)
        elif isinstance(message, SetRules):
            self._set_rules(message.rules)
        elif isinstance(message, SetSeat):
            level = message.ai
            self.seats[message.seat] = Seat() if level is None else Seat.ai(level)
        elif isinstance(message, Leave) or message.seat == index:
            level = message.ai if isinstance(message, Replace) else None
            return self.free(index, playing, "left", "You left the table.", level)
        elif isinstance(message, Kick):
            text = "The owner sent you away from the table."
            return self.free(message.seat, playing, "kicked", text)
        else:
            text = "The owner gave your seat to an AI player."
            return self.free(message.seat, playing, "kicked", text, message.ai)
        return None

    def _set_options(self, message: SetOptions) -> None:
        self.hold = message.hold_ms / 1000
        self.turn_timer = None if message.turn_ms is None else message.turn_ms / 1000
        self.idle = None if message.idle_ms is None else message.idle_ms / 1000
        self.silence = message.silence_ms / 1000
        self.watchers = message.watchers
        for seat in self.seats:  # the idle watch starts again with the new time
            seat.idle_mark = 0

    def _set_rules(self, rules: Rules | UnplayableRules) -> None:
        assert isinstance(rules, Rules)  # (``lobby.check`` refused unplayable rules)
        players = rules.players
        if players != len(self.seats):
            self.seats = (self.seats + [Seat() for _ in range(players)])[:players]
            self.series = Series.new(players)
        if rules != self.rules:  # the players agree to play by the new rules
            for seat in self.seats:
                seat.ready = False
        self.rules = rules

    # --- the lobby's idle watch ----------------------------------------------------------

    def idle_watches(self, playing: bool) -> list[Idle]:
        """Start the idle watch of every player who sits unready in the lobby (not the
        owner, whose start is their readiness; not at an autostart table, which needs no
        marks) and stop it for everyone else: the watches started, for the table to time."""
        started = []
        for index, seat in enumerate(self.seats):
            due = (
                self.idle is not None
                and not playing
                and not self.autostart
                and seat.kind == "human"
                and seat.link is not None
                and not seat.ready
                and index != self.owner
            )
            if not due:
                seat.idle_mark = 0
            elif not seat.idle_mark:
                seat.idle_mark = next(self.marks)
                started.append(Idle(index, seat.idle_mark))
        return started

    def idle_up(self, idle: Idle, playing: bool) -> Freed | None:
        """The watch ``idle`` ran out: its seat is freed if it still ran (its player was not
        ready meanwhile, nor gone, and the watch did not start again)."""
        seat = self.seats[idle.seat] if idle.seat < len(self.seats) else None
        if seat is None or not idle.mark or seat.idle_mark != idle.mark:
            return None
        text = "You were not ready in time; the seat is free again."
        return self.free(idle.seat, playing, "idle", text)

    # --- games ------------------------------------------------------------------------

    @property
    def full(self) -> bool:
        """Every seat taken, and every human there connected (an autostart table starts)."""
        return all(s.kind != "empty" for s in self.seats) and all(
            s.link is not None for s in self.seats if s.kind == "human"
        )

    def connected(self) -> frozenset[int]:
        """The seats whose player is connected now."""
        return frozenset(i for i, s in enumerate(self.seats) if s.link is not None)

    def ai_levels(self) -> dict[int, str]:
        """The AI seats' levels, by seat."""
        return {
            i: s.level for i, s in enumerate(self.seats) if s.kind == "ai" and s.level is not None
        }

    def dealt(self) -> None:
        """A game is dealt: after it, everyone says again if they want another."""
        for seat in self.seats:
            seat.away, seat.ready = 0, False

    def record(self, result: GameResult) -> None:
        """A game ended with ``result``: the series counts it (what becomes of the seats is
        ``host.seat_life``'s)."""
        self.series = self.series.record(result)
