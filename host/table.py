"""The table: one task owns the game and the lobby; everything reaches it through one queue.

Clients' messages, their departures and the AI players' decisions are queued as they
arrive and handled one at a time, so there are no locks. AI players think in an executor
(off the event loop); a decision that arrives after the game moved on is applied if it is
still legal and otherwise thrown away and asked again.

In the lobby each player sets a ready mark; the owner's start waits until every other
human is ready (AI seats always are). Marks are cleared as a game starts, so a rematch
needs everyone ready again, and whenever a seat changes hands or the rules change.

A human who drops out mid-game is ``away``: the seat waits ``config.hold`` seconds for
them, then a stand-in AI plays it until they return with their token. The optional turn
timer makes the default move for a human seat that lets it run out. With a ``saver`` the
table is handed over for saving after every change (see ``host.save``). Once the host is
stopping (or the executor refuses work, as it does while the process exits) no AI is asked
to think again. With ``workers`` (``host.workers``) the AI seats' bots live and think in
worker processes, and the executor's threads only wait for their answers.
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from functools import partial
from typing import Protocol

from engine import (
    Action,
    Attack,
    Event,
    GameLog,
    GameState,
    Pass,
    Phase,
    Rules,
    SeatView,
    Series,
    Take,
    new_game,
    observe,
    trim,
)
from engine.ai import LEVELS, Bot, make_bot
from protocol import (
    MAX_MS,
    PROTOCOL_VERSION,
    Ack,
    Act,
    Emote,
    Emoted,
    Hello,
    Message,
    Ping,
    Pong,
    Ready,
    Rejected,
    Room,
    RoomUpdate,
    SeatInfo,
    SetOptions,
    SetRules,
    SetSeat,
    Snapshot,
    Start,
    UnplayableRules,
    Update,
    Welcome,
)

from .config import HostConfig
from .save import SavedSeat, TableSave, save_file
from .workers import Workers

__all__ = ["Gone", "Held", "Incoming", "Link", "Stop", "Table", "Thought", "TurnUp", "default_move"]

log = logging.getLogger("durak.host")


class Link(Protocol):
    """A client connection as the table sees it."""

    seat: int | None

    def send(self, message: Message) -> None: ...
    def close(self, code: str, text: str) -> None: ...
    def release(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Incoming:
    link: Link
    message: Message


@dataclass(frozen=True, slots=True)
class Gone:
    link: Link


@dataclass(frozen=True, slots=True)
class Thought:
    seat: int
    game: int
    job: int
    action: Action | None


@dataclass(frozen=True, slots=True)
class Held:
    """A dropped player's hold ran out (if they are still away, a stand-in takes over)."""

    seat: int
    game: int
    away: int  # the seat's ``away`` count when the hold began


@dataclass(frozen=True, slots=True)
class TurnUp:
    """The turn timer ran out (if nothing happened since ``seq``)."""

    game: int
    seq: int


@dataclass(frozen=True, slots=True)
class Stop:
    pass


Item = Incoming | Gone | Thought | Held | TurnUp | Stop


@dataclass(slots=True)
class Seat:
    kind: str = "empty"  # empty | human | ai
    name: str = ""
    level: str | None = None
    token: str | None = None
    link: Link | None = None
    away: int = 0  # how many times the player dropped out (tells old holds from new ones)
    ready: bool = False  # the player's ready mark (lobby only; cleared as a game starts)


@dataclass(slots=True)
class BotSlot:
    bot: Bot
    seen: int = 0  # how many of the seat's events the bot has been told
    thinking: bool = False
    job: int = 0  # the table-wide number of the job it was last given (see ``Table.jobs``)
    seq: int = -1  # the table's seq when it was last asked


def _decide(bot: Bot, events: Sequence[Event], view: SeatView) -> Action:
    """Runs in the executor: tell the bot what it missed, then let it choose."""
    for event in events:
        bot.see(event)
    return bot.decide(view)


def default_move(state: GameState, seat: int) -> Action | None:
    """The turn timer's move: the defender takes, the attacker who must lead leads its
    lowest card (the lowest non-trump, else the lowest trump), anyone else passes.

    None: the game is not waiting on the seat (nothing to do, or only cards it may throw
    in while the defender still has to beat); the timer never plays a card for it."""
    legal = state.legal_actions(seat)
    if not legal:
        return None
    if seat == state.defender and Take() in legal:
        return Take()
    if state.phase is Phase.LEAD and seat == state.attacker:
        leads = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
        if leads:
            trump = state.trump
            return min(leads, key=lambda a: (a.cards[0].suit == trump, a.cards[0].rank))
        return None
    if Pass() in legal:
        return Pass()
    return None


def _ai_name(level: str) -> str:
    return level.partition(":")[0].capitalize()


EMOTE_GAP = 2.0  # seconds: a seat's emotes closer together than this are dropped

LOBBY_TEXT = {
    "not_owner": "Only the owner of the room can do that.",
    "game_running": "Not while a game is being played.",
    "no_game": "No game is being played.",
    "seats_empty": "Every seat must be taken first.",
    "seat_taken": "A player sits there.",
    "unknown_level": "There is no such AI level.",
    "not_ready": "Every other player must be ready first.",
}


class Table:
    def __init__(
        self,
        config: HostConfig,
        *,
        executor: Executor,
        on_room: Callable[[Room], None] | None = None,
        saver: Callable[[TableSave, bool], None] | None = None,
        workers: Workers | None = None,
    ) -> None:
        self.config = config
        self.workers = workers
        self.clock: Callable[[], float] = time.monotonic  # for the emote rate limit
        self._emoted: dict[int, float] = {}  # seat -> when it last emoted
        self.executor = executor
        self.on_room = on_room
        self.saver = saver
        self.queue: asyncio.Queue[Item] = asyncio.Queue()
        name = "".join(c if c.isprintable() else " " for c in config.name).strip()
        self.name = name[:63] or "Durak table"
        if any(len(level) > 24 for level in config.ai):
            raise ValueError("an AI level name is at most 24 characters")
        if len(config.ai) > config.seats:
            raise ValueError(f"{len(config.ai)} AI players do not fit {config.seats} seats")
        self.rules: Rules = replace(config.rules, players=config.seats)  # RulesError if bad
        self.seats = [Seat() for _ in range(config.seats)]
        first_ai = config.seats - len(config.ai)
        for offset, level in enumerate(config.ai):
            make_bot(level, first_ai + offset, self.rules, 0)  # ValueError for a bad level
            self.seats[first_ai + offset] = Seat("ai", _ai_name(level), level)
        self.owner: int | None = None
        self.series = Series.new(config.seats)
        self.seeds = (
            random.Random(config.seed) if config.seed is not None else random.SystemRandom()
        )
        self.game = 0
        self.seq = 0
        self.state: GameState | None = None
        self.log: GameLog | None = None
        self.logs: list[GameLog] = []  # every finished game, for replays and tests
        self.history: list[list[Event]] = []
        self.bots: dict[int, BotSlot] = {}
        # One counter for every AI job of the table: an answer is taken only from the job
        # that is current for its seat's current bot (never from an earlier stand-in's).
        self.jobs = itertools.count(1)
        self.errors = 0  # unexpected exceptions while handling an item (should stay 0)
        # The host is stopping (or its AI executor refuses work, as it does once the process
        # is exiting): no AI is asked to think any more.
        self.stopping = False
        self.hold = max(0.0, config.hold)  # the room's options (the owner may change them)
        self.turn_timer = config.turn_timer
        self._timers: set[asyncio.TimerHandle] = set()
        self._turn: asyncio.TimerHandle | None = None
        if config.resume:
            if config.save_dir is None:
                raise ValueError("resume needs save_dir")
            self._restore(TableSave.load(save_file(config.save_dir, config.port)))

    def _restore(self, saved: TableSave) -> None:
        """Take over a saved table: its seats (every player away), series and game."""
        self.name, self.rules, self.owner = saved.name, saved.rules, saved.owner
        self.seats = [Seat(s.kind, s.name, s.level, s.token) for s in saved.seats]
        self.series, self.game = saved.series, saved.game
        self.hold, self.turn_timer = saved.hold, saved.turn_timer
        if saved.last is not None:
            self.logs.append(saved.last)
        game_log = saved.current
        if game_log is None:
            for index, seat in enumerate(self.seats):
                if seat.kind == "human":
                    self.seats[index] = Seat()
            self.owner = None
            return
        state = game_log.start()
        self.history = [[trim(e, i) for e in state.opening] for i in range(len(self.seats))]
        for seat_index, action in game_log.actions:
            events = state.apply(seat_index, action)
            for i in range(len(self.seats)):
                self.history[i].extend(trim(e, i) for e in events)
        self.state, self.log, self.seq = state, game_log, len(game_log.actions)
        self.bots = self._new_bots()

    def saved(self) -> TableSave:
        """The table as it is saved (every seat, the series, the game in play)."""
        current = None
        if self.log is not None:
            current = GameLog(
                self.log.rules, self.log.seed, self.log.previous, list(self.log.actions)
            )
        return TableSave(
            name=self.name,
            rules=self.rules,
            seats=tuple(SavedSeat(s.kind, s.name, s.level, s.token) for s in self.seats),
            owner=self.owner,
            series=self.series,
            game=self.game,
            current=current,
            last=self.logs[-1] if self.logs else None,
            hold=self.hold,
            turn_timer=self.turn_timer,
        )

    def _save(self, durable: bool = False) -> None:
        """Hand the table to the saver; ``durable``: on disk before this returns (a new
        seat's token, a game's start and end), else soon (each action)."""
        if self.saver is not None:
            self.saver(self.saved(), durable)

    def close(self) -> None:
        """Cancel the timers (the table task has stopped)."""
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None

    def _later(self, delay: float, item: Item) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self.queue.put_nowait(item)

        handle = loop.call_later(delay, fire)
        self._timers.add(handle)
        return handle

    # --- the task -----------------------------------------------------------------------

    async def run(self) -> None:
        if self.state is not None:  # resumed: every player is away until they return
            for index, seat in enumerate(self.seats):
                if seat.kind == "human":
                    self._hold(index)
            self._think()
            self._arm_turn()
        self._save()
        while True:
            item = await self.queue.get()
            if isinstance(item, Stop):
                return
            try:
                self.handle(item)
            except Exception:
                self.errors += 1
                log.exception("the table failed to handle %r", item)
            finally:
                if isinstance(item, Incoming):
                    item.link.release()

    def handle(self, item: Item) -> None:
        if isinstance(item, Incoming):
            self._message(item.link, item.message)
        elif isinstance(item, Gone):
            self._gone(item.link)
        elif isinstance(item, Thought):
            self._thought(item)
        elif isinstance(item, Held):
            self._held(item)
        elif isinstance(item, TurnUp):
            self._turn_up(item)

    # --- the room -----------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.state is not None

    def _status(self, index: int) -> str:
        seat = self.seats[index]
        if seat.kind != "human":
            return seat.kind
        if seat.link is not None:
            return "connected"
        return "stand_in" if index in self.bots else "away"

    def room(self) -> Room:
        seats = tuple(
            SeatInfo(
                s.kind,
                s.name,
                s.level,
                s.kind == "ai" or (s.kind == "human" and s.link is not None),
                self._status(i),
                s.kind == "ai" or (s.kind == "human" and s.ready),
            )
            for i, s in enumerate(self.seats)
        )
        turn = self.turn_timer
        return Room(
            name=self.name,
            status="playing" if self.playing else "lobby",
            owner=self.owner,
            seats=seats,
            rules=self.rules,
            password=bool(self.config.password),
            autostart=self.config.autostart,
            series=self.series,
            game=self.game,
            hold_ms=min(round(self.hold * 1000), MAX_MS),
            turn_ms=None if turn is None else min(max(round(turn * 1000), 1), MAX_MS),
        )

    def _room_changed(self, durable: bool = False) -> None:
        """Show the room to every seat and to ``on_room``, then save (see ``_save``)."""
        room = self.room()
        self._broadcast(RoomUpdate(room))
        if self.on_room is not None:
            self.on_room(room)
        self._save(durable)

    def _broadcast(self, message: Message) -> None:
        for seat in self.seats:
            if seat.link is not None:
                seat.link.send(message)

    def _fix_owner(self) -> None:
        owner = None if self.owner is None else self.seats[self.owner]
        if owner is not None and owner.kind == "human" and (owner.link or self.playing):
            return
        self.owner = next(
            (i for i, s in enumerate(self.seats) if s.kind == "human" and s.link is not None),
            None,
        )

    def _message(self, link: Link, message: Message) -> None:
        if isinstance(message, Hello):
            self._hello(link, message)
            return
        if link.seat is None or self.seats[link.seat].link is not link:
            return  # replaced or gone meanwhile
        if isinstance(message, Act):
            self._act(link, message)
        elif isinstance(message, Ping):
            link.send(Pong(message.ref))
        elif isinstance(message, SetRules | SetSeat | SetOptions | Start):
            self._owner_command(link, message)
        elif isinstance(message, Ready):
            self._ready(link, message)
        elif isinstance(message, Emote):
            self._emote(link.seat, message.code)

    def _emote(self, index: int, code: str) -> None:
        """Relay a seat's reaction to every seat; more than one per ``EMOTE_GAP`` seconds
        from a seat is dropped without a word."""
        now = self.clock()
        last = self._emoted.get(index)
        if last is not None and now - last < EMOTE_GAP:
            return
        self._emoted[index] = now
        self._broadcast(Emoted(index, code))

    def _hello(self, link: Link, hello: Hello) -> None:
        password = self.config.password
        if password and not hmac.compare_digest((hello.password or "").encode(), password.encode()):
            link.close("bad_password", "The password is wrong.")
            return
        if hello.token is not None:
            index = next(
                (
                    i
                    for i, s in enumerate(self.seats)
                    if s.kind == "human" and s.token == hello.token
                ),
                None,
            )
            if index is None:
                link.close("bad_token", "That token holds no seat at this table.")
                return
            seat = self.seats[index]
            if seat.link is not None:
                seat.link.close("replaced", "You joined again from another connection.")
        else:
            if self.playing:
                link.close("game_in_progress", "A game is being played; join when it ends.")
                return
            index = next((i for i, s in enumerate(self.seats) if s.kind == "empty"), None)
            if index is None:
                link.close("table_full", "Every seat is taken.")
                return
            seat = self.seats[index]
            seat.kind, seat.name, seat.token = "human", hello.name, secrets.token_hex(16)
            seat.ready = False  # a new player says for themselves when they are ready
            self._save(durable=True)  # a token must not be handed out and then forgotten
        seat.link = link
        link.seat = index
        self.bots.pop(index, None)  # a returning player takes over from the stand-in
        self._fix_owner()
        assert seat.token is not None
        link.send(Welcome(PROTOCOL_VERSION, index, seat.token, self.room()))
        if self.state is not None:
            link.send(Snapshot(self.game, self.seq, observe(self.state, index)))
        self._room_changed()
        self._maybe_autostart()

    def _gone(self, link: Link) -> None:
        index = link.seat
        if index is None or self.seats[index].link is not link:
            return
        seat = self.seats[index]
        seat.link = None
        if self.state is None:
            self.seats[index] = Seat()
        else:
            self._hold(index)
        self._fix_owner()
        self._room_changed()

    def _hold(self, index: int) -> None:
        """Hold an away player's seat for ``self.hold`` seconds, then a stand-in plays."""
        seat = self.seats[index]
        seat.away += 1
        if self.hold > 0:
            self._later(self.hold, Held(index, self.game, seat.away))
        else:
            self._stand_in(index)

    def _held(self, held: Held) -> None:
        seat = self.seats[held.seat] if held.seat < len(self.seats) else None
        if (
            seat is None
            or self.state is None
            or held.game != self.game
            or seat.kind != "human"
            or seat.link is not None
            or seat.away != held.away
            or held.seat in self.bots
        ):
            return
        self._stand_in(held.seat)
        self._room_changed()

    def _stand_in(self, index: int) -> None:
        bot = self._bot(self.config.stand_in, index, self.seeds.getrandbits(32))
        self.bots[index] = BotSlot(bot)
        self._think()

    # --- the turn timer -----------------------------------------------------------------

    def _arm_turn(self) -> None:
        if self._turn is not None:
            self._turn.cancel()
            self._timers.discard(self._turn)
            self._turn = None
        if self.turn_timer is not None and self.state is not None:
            self._turn = self._later(self.turn_timer, TurnUp(self.game, self.seq))

    def _turn_up(self, turn: TurnUp) -> None:
        """Time is up: every human seat (not played by an AI) the game was waiting on gets
        its default move, the defender first. A seat that could only throw in while cards
        are unbeaten was not waited on and is left alone."""
        state = self.state
        if state is None or turn.game != self.game or turn.seq != self.seq:
            return
        due = [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and i not in self.bots and default_move(state, i) is not None
        ]
        due.sort(key=lambda i: i != state.defender)
        for index in due:
            if self.state is not state or state.result is not None:
                return
            action = default_move(state, index)  # (again: the moves before may change it)
            if action is not None:
                self._apply(index, action)

    def _reject(self, link: Link, ref: int, code: str, text: str | None = None) -> None:
        link.send(Rejected(ref, code, text or LOBBY_TEXT[code]))

    def waiting(self) -> list[int]:
        """The seats the owner's start waits for: every other human not marked ready."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and i != self.owner and not s.ready
        ]

    def _ready(self, link: Link, message: Ready) -> None:
        """A player sets or takes back their ready mark (in the lobby)."""
        if self.playing:
            self._reject(link, message.ref, "game_running")
            return
        assert link.seat is not None
        seat = self.seats[link.seat]
        changed = seat.ready != message.ready
        seat.ready = message.ready
        link.send(Ack(message.ref, None))
        if changed:
            self._room_changed()

    def _owner_command(self, link: Link, message: SetRules | SetSeat | SetOptions | Start) -> None:
        if link.seat != self.owner:
            self._reject(link, message.ref, "not_owner")
            return
        if self.playing:
            self._reject(link, message.ref, "game_running")
            return
        if isinstance(message, Start):
            if any(s.kind == "empty" for s in self.seats):
                self._reject(link, message.ref, "seats_empty")
                return
            if self.waiting():  # the owner's start is the owner's own readiness
                self._reject(link, message.ref, "not_ready")
                return
            link.send(Ack(message.ref, None))
            self._start_game()
            return
        if isinstance(message, SetOptions):
            self.hold = message.hold_ms / 1000
            self.turn_timer = None if message.turn_ms is None else message.turn_ms / 1000
        elif isinstance(message, SetRules):
            if isinstance(message.rules, UnplayableRules):  # the room keeps playable rules only
                reason = message.rules.reason
                self._reject(
                    link, message.ref, "bad_rules", f"Those rules cannot be played: {reason}."
                )
                return
            players = message.rules.players
            if any(s.kind == "human" for s in self.seats[players:]):
                self._reject(link, message.ref, "seat_taken", "A player sits in a seat to remove.")
                return
            if players != len(self.seats):
                self.seats = (self.seats + [Seat() for _ in range(players)])[:players]
                self.series = Series.new(players)
            if message.rules != self.rules:  # the players agree to play by the new rules
                for seat in self.seats:
                    seat.ready = False
            self.rules = message.rules
        else:
            if message.seat >= len(self.seats):
                self._reject(link, message.ref, "no_such_seat", "There is no such seat.")
                return
            if self.seats[message.seat].kind == "human":
                self._reject(link, message.ref, "seat_taken")
                return
            level = message.ai
            if level is None:
                self.seats[message.seat] = Seat()
            else:
                try:
                    make_bot(level, message.seat, self.rules, 0)
                except ValueError:
                    choices = ", ".join(LEVELS)
                    self._reject(
                        link,
                        message.ref,
                        "unknown_level",
                        f"There is no such AI level ({choices}).",
                    )
                    return
                self.seats[message.seat] = Seat("ai", _ai_name(level), level)
        link.send(Ack(message.ref, None))
        self._room_changed()
        self._maybe_autostart()

    def _maybe_autostart(self) -> None:
        config = self.config
        if (
            config.autostart
            and not self.playing
            and all(s.kind != "empty" for s in self.seats)
            and (config.max_games is None or self.game < config.max_games)
        ):
            self._start_game()

    # --- the game -----------------------------------------------------------------------

    def _start_game(self) -> None:
        rules, previous = self.rules, self.series.last
        seed = self.seeds.getrandbits(63)
        state = new_game(rules, seed, previous)
        self.state = state
        self.log = GameLog(rules, seed, previous)
        self.game += 1
        self.seq = 0
        self.history = [[] for _ in self.seats]
        for seat in self.seats:  # after this game, everyone says again if they want another
            seat.away, seat.ready = 0, False
        self.bots = self._new_bots()
        self._room_changed(durable=True)
        self._tell(state.opening)
        self._think()
        self._arm_turn()

    def _new_bots(self) -> dict[int, BotSlot]:
        """A bot for every AI seat, each with its own seed from the table's seeds (so a
        bot never learns the shuffle's)."""
        return {
            i: BotSlot(self._bot(s.level, i, self.seeds.getrandbits(32)))
            for i, s in enumerate(self.seats)
            if s.kind == "ai" and s.level is not None
        }

    def _bot(self, level: str, seat: int, seed: int) -> Bot:
        """A bot for an AI-played seat: in a worker process when the table has workers."""
        if self.workers is not None:
            return self.workers.bot(level, seat, self.rules, seed)
        return make_bot(level, seat, self.rules, seed)

    def _tell(self, events: Sequence[Event]) -> None:
        state = self.state
        assert state is not None
        for index, seat in enumerate(self.seats):
            trimmed = tuple(trim(e, index) for e in events)
            self.history[index].extend(trimmed)
            if seat.link is not None:
                seat.link.send(Update(self.game, self.seq, trimmed, observe(state, index)))

    def _act(self, link: Link, act: Act) -> None:
        state, index = self.state, link.seat
        assert index is not None
        if state is None:
            self._reject(link, act.ref, "no_game")
            return
        reason = state.check(index, act.action)
        if reason is not None:
            link.send(Rejected(act.ref, reason.value, reason.text))
            return
        self._apply(index, act.action, ack=(link, act.ref))

    def _apply(self, index: int, action: Action, ack: tuple[Link, int] | None = None) -> None:
        state, game_log = self.state, self.log
        assert state is not None and game_log is not None
        events = state.apply(index, action)
        game_log.actions.append((index, action))
        self.seq += 1
        if ack is not None:
            ack[0].send(Ack(ack[1], self.seq))
        self._tell(events)
        if state.result is not None:
            self._game_over(game_log, state)
        else:
            self._save()
            self._think()
            self._arm_turn()

    def _game_over(self, game_log: GameLog, state: GameState) -> None:
        assert state.result is not None
        self.series = self.series.record(state.result)
        self.logs.append(game_log)
        self.state, self.log, self.bots = None, None, {}
        self._arm_turn()
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.link is None:
                self.seats[index] = Seat()
        self._fix_owner()
        self._room_changed(durable=True)
        self._maybe_autostart()

    def _think(self) -> None:
        """Ask every AI-played seat that has something to do and is not thinking yet."""
        state = self.state
        if state is None or self.stopping:
            return
        loop = asyncio.get_running_loop()
        defender_busy = bool(state.legal_actions(state.defender))
        for index, slot in self.bots.items():
            if slot.thinking or not state.legal_actions(index):
                continue
            if defender_busy and index != state.defender:
                continue  # throw-ins wait for the defender, the order the bots play for
            history = self.history[index]
            view = observe(state, index)
            try:
                future = loop.run_in_executor(
                    self.executor, _decide, slot.bot, history[slot.seen :], view
                )
            except RuntimeError as exc:  # the executor is shut down: the host is going
                log.info("AI seats stop thinking: %s", exc)
                self.stopping = True
                return
            slot.seen = len(history)
            slot.thinking, slot.seq = True, self.seq
            slot.job = next(self.jobs)
            future.add_done_callback(partial(self._thought_done, index, self.game, slot.job))

    def _thought_done(
        self, index: int, game: int, job: int, future: asyncio.Future[Action]
    ) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            log.error("AI seat %d failed to decide: %r", index, error)
        self.queue.put_nowait(Thought(index, game, job, None if error else future.result()))

    def _thought(self, thought: Thought) -> None:
        slot = self.bots.get(thought.seat)
        if slot is None or thought.game != self.game or thought.job != slot.job:
            return
        slot.thinking = False
        state = self.state
        assert state is not None
        action = thought.action
        if action is None or state.check(thought.seat, action) is not None:
            legal = state.legal_actions(thought.seat)
            if slot.seq != self.seq or not legal:
                self._think()  # stale: ask again on the current view
                return
            # The bot failed or chose something illegal on a current view: play a legal action.
            self.errors += 1
            action = legal[self.seeds.randrange(len(legal))]
        self._apply(thought.seat, action)
