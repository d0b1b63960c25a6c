"""The table: one task owns the game and the lobby; everything reaches it through one queue.

Clients' messages, their departures and the AI players' decisions are queued as they
arrive and handled one at a time, so there are no locks. AI players think in an executor
(off the event loop); a decision that arrives after the game moved on is applied if it is
still legal and otherwise thrown away and asked again.

In the lobby each player sets a ready mark; the owner's start waits until every other
human is ready (AI seats always are). Every mark is cleared as a game starts, so a
rematch needs everyone ready again, and when the rules change; otherwise a mark goes with
its player (one who leaves takes it along, a newcomer is not ready, the others keep theirs).

Watchers (a hello with the role "watch") need no seat: up to the room's ``watchers`` (and
never more than the host's door leaves room for beside the seats, ``door_room``) watch the
table in its lobby, in a game or when it is full. They are shown the room, the game as
``observe_public`` gives it (``watch_snapshot``, ``watch_update``) and every reaction; they
may react too, and take a seat that is open in the lobby (``sit``). Anything else they ask
for is refused (``watching``); one who drops out is simply gone. A lower limit sends nobody
away: it holds back newcomers.

A hello without a token learns of a running game or a full table before its password is
looked at, and wrong passwords are throttled per address and per table
(``host.admission``; ``host.server`` asks the throttle, and checks, before the hello comes
here), so no answer tells a right password from a wrong one except a seat.

A human who drops out mid-game is ``away``: the seat waits ``config.hold`` seconds for
them, then a stand-in AI plays it until they return with their token. The optional turn
timer makes the default move for a human seat that lets it run out. Once the host is
stopping (or the executor refuses work, as it does while the process exits) no AI is asked
to think again.

With a ``disk`` (``host.disk.DiskWriter``) the lobby is saved after every change and
every action of a game is appended to the journal; what the table sends while it handles
an item is held in ``outbox`` and goes out once that item's records are on disk (a new
seat's token, a game's start and end, every action), so no client ever hears of a move a
restarted host would not know. The event loop never waits for the disk itself.

With ``workers`` (``host.workers``) the AI seats' bots live and think in worker
processes, and the executor's threads only wait for their answers.

A fair deal (docs/protocol.md section 15): a start first sends every connected player the
commitment to a fresh secret and waits (``config.fair_wait``) for their contributions; the
seed comes from the secret and the contributions. Whatever else arrives meanwhile (a
command, a newcomer, a departure) is handled right after the deal, so the seats and rules
the commitment binds cannot change under it. The secret and the contributions are kept
(and saved with the game) until its end, when every player is sent them, the seed and
every action.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Protocol

from engine import (
    Action,
    Attack,
    Card,
    Event,
    GameLog,
    GameState,
    Pass,
    Phase,
    Rules,
    SeatView,
    Series,
    Suit,
    Take,
    new_game,
    observe,
    observe_public,
    trim,
)
from engine.ai import Bot, make_bot
from protocol import (
    MAX_MS,
    MAX_REVEAL,
    MAX_SILENCE_MS,
    MAX_WATCHERS,
    MIN_SILENCE_MS,
    PROTOCOL_VERSION,
    SECRET_BYTES,
    Ack,
    Act,
    Commit,
    Contribute,
    DealSecret,
    Draw,
    Emote,
    Emoted,
    Hello,
    Kick,
    Leave,
    Message,
    Ping,
    Pong,
    Ready,
    Rejected,
    Replace,
    Reveal,
    Room,
    RoomUpdate,
    SeatInfo,
    SetOptions,
    SetRules,
    SetSeat,
    Sit,
    Snapshot,
    Start,
    UnplayableRules,
    Update,
    WatcherEmoted,
    Watching,
    WatchSnapshot,
    WatchUpdate,
    Welcome,
    commitment,
    deal_context,
    is_value,
)
from protocol.messages import MAX_NAME

from . import lobby
from .admission import PasswordThrottle, Verdict, throttled_text
from .config import HostConfig
from .credentials import Password, new_token, token_matches
from .disk import DiskWriter
from .journal import action_record, header_record, table_record
from .outbox import Outbox
from .resume import load_table
from .save import SavedSeat, TableSave, save_file
from .workers import Workers

__all__ = [
    "DealDue",
    "Gone",
    "Held",
    "Idle",
    "Incoming",
    "Link",
    "Stop",
    "Table",
    "Thought",
    "TurnUp",
    "default_move",
]

log = logging.getLogger("durak.host")


class Link(Protocol):
    """A client connection as the table sees it."""

    seat: int | None
    watching: bool  # a watcher's connection (seat None)
    address: str  # the peer's address (the password throttle counts per address)

    def send(self, message: Message) -> None: ...
    def close(self, code: str, text: str) -> None: ...
    def release(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Incoming:
    link: Link
    message: Message
    password_ok: bool | None = None  # a hello's password, checked off the loop (see below)


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
class Idle:
    """A player's idle time in the lobby ran out (if the watch ``mark`` still runs)."""

    seat: int
    mark: int


@dataclass(frozen=True, slots=True)
class DealDue:
    """The wait for the contributions to the deal of ``game`` is over: deal."""

    game: int


@dataclass(frozen=True, slots=True)
class Saving:
    """The disk began or stopped failing: the room says whether the table is saved."""


@dataclass(frozen=True, slots=True)
class Stop:
    pass


Item = Incoming | Gone | Thought | Held | TurnUp | Idle | DealDue | Saving | Stop


@dataclass(slots=True)
class Pending:
    """A deal committed to and waiting for the players' contributions."""

    game: int
    deal: DealSecret  # the secret and the seats' kinds (no contributions yet)
    waiting: frozenset[int]  # the seats that were sent the commitment
    values: dict[int, bytes] = field(default_factory=dict)  # seat -> its contribution
    deferred: list[Item] = field(default_factory=list)  # what came meanwhile, for after


def _waits(item: Item) -> bool:
    """Whether ``item`` waits until a pending deal is dealt (it could change the seats or
    the rules the commitment binds): all but contributions, pings, emotes and the deal."""
    if isinstance(item, Incoming):
        return not isinstance(item.message, Contribute | Ping | Emote)
    return isinstance(item, Gone | Held | Idle)


@dataclass(slots=True)
class Seat:
    kind: str = "empty"  # empty | human | ai
    name: str = ""
    level: str | None = None
    token_hash: str | None = None  # the player's token is never kept (host.credentials)
    link: Link | None = None
    away: int = 0  # how many times the player dropped out (tells old holds from new ones)
    ready: bool = False  # the player's ready mark (lobby only; cleared as a game starts)
    for_game: bool = False  # an AI playing a player's seat to the game's end (then empty)
    idle_mark: int = 0  # the idle watch running for the seat (0: none)


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


def _lowest_first(card: Card, trump: Suit) -> tuple[bool, int, int]:
    """Non-trumps before trumps, then by rank, then clubs, diamonds, hearts, spades."""
    return (card.suit == trump, card.rank, card.suit)


def default_move(state: GameState, seat: int) -> Action | None:
    """The turn timer's move: the defender takes, the attacker who must lead leads its
    lowest card (the lowest non-trump, else the lowest trump; of one rank, the first suit
    in the order clubs, diamonds, hearts, spades), anyone else passes.

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
            return min(leads, key=lambda a: _lowest_first(a.cards[0], trump))
        return None
    if Pass() in legal:
        return Pass()
    return None


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name 2``, ``name 3`` ... where another player at the table has it:
    two bots both called "Normal bot" must not read as one player."""
    if name not in taken:
        return name
    n = 2
    while (found := f"{name[: MAX_NAME - len(str(n)) - 1]} {n}") in taken:
        n += 1
    return found


def _ai_name(level: str) -> str:
    return level.partition(":")[0].capitalize()


EMOTE_GAP = 2.0  # seconds: a seat's emotes closer together than this are dropped


class Table:
    def __init__(
        self,
        config: HostConfig,
        *,
        executor: Executor,
        on_room: Callable[[Room], None] | None = None,
        workers: Workers | None = None,
    ) -> None:
        self.config = config
        self.workers = workers
        self.clock: Callable[[], float] = time.monotonic  # emotes' and passwords' clock
        self.throttle = PasswordThrottle(lambda: self.clock())
        self._emoted: dict[int | Link, float] = {}  # seat or watcher -> when it last emoted
        self.executor = executor
        self.on_room = on_room
        self.disk: DiskWriter | None = None  # set by the host once it knows the save file
        self.outbox = Outbox()
        self._journaled: int | None = None  # the game the journal is for
        self._journal_key: tuple[object, ...] = ()  # the table as the journal last said it
        self._wait = 0  # what the disk must have written before the held sends go out
        self.torn = 0  # bytes of a torn journal record dropped on resuming
        self.notes: tuple[str, ...] = ()  # what resuming found (host.resume.Loaded.notes)
        self.queue: asyncio.Queue[Item] = asyncio.Queue()
        name = "".join(c if c.isprintable() else " " for c in config.name).strip()
        self.name = name[:63] or "Durak table"
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
        self.pending: Pending | None = None  # a deal waiting for contributions
        self.deal: DealSecret | None = None  # the game in play's secret, revealed at its end
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
        self.silence = config.silence
        self.password = Password.of(config.password) if config.password else None
        self.idle = config.idle
        self.watchers = config.watchers  # how many may watch (the room's option)
        self.door_room: int | None = None  # watchers the host's door has room for (None: any)
        self.audience: dict[Link, str] = {}  # the watchers' connections and names
        self.marks = itertools.count(1)  # the idle watches' marks, table-wide
        self._timers: set[asyncio.TimerHandle] = set()
        self._turn: asyncio.TimerHandle | None = None
        if config.resume:
            if config.save_dir is None:
                raise ValueError("resume needs save_dir")
            path = save_file(config.save_dir, config.port)
            loaded = load_table(path, config.accept_loss)
            self.torn, self.notes = loaded.torn, loaded.notes
            self._restore(loaded.table)

    def _restore(self, saved: TableSave) -> None:
        """Take over a saved table: its seats (every player away: held for them, in the
        lobby too, see ``run``), series and game."""
        self.name, self.rules, self.owner = saved.name, saved.rules, saved.owner
        self.seats = [Seat(s.kind, s.name, s.level, s.token_hash) for s in saved.seats]
        if saved.password is not None and self.config.password is None:
            self.password = Password.from_text(saved.password)  # --resume keeps it
        self.series, self.game = saved.series, saved.game
        self.hold, self.turn_timer, self.silence = saved.hold, saved.turn_timer, saved.silence
        self.idle, self.watchers = saved.idle, saved.watchers
        if saved.last is not None:
            self.logs.append(saved.last)
        game_log = saved.current
        if game_log is None:
            return
        self.deal = saved.deal
        state = game_log.start()
        self.history = [[trim(e, i) for e in state.opening] for i in range(len(self.seats))]
        for seat_index, action in game_log.actions:
            events = state.apply(seat_index, action)
            for i in range(len(self.seats)):
                self.history[i].extend(trim(e, i) for e in events)
        self.state, self.log, self.seq = state, game_log, len(game_log.actions)
        self.bots = self._new_bots()

    def saved(self, game: bool = True) -> TableSave:
        """The table as it is saved (every seat, the series and, with ``game``, the game in
        play with every action so far)."""
        current = None
        if self.log is not None and game:
            current = GameLog(
                self.log.rules, self.log.seed, self.log.previous, list(self.log.actions)
            )
        return TableSave(
            name=self.name,
            rules=self.rules,
            seats=tuple(SavedSeat(s.kind, s.name, s.level, s.token_hash) for s in self.seats),
            owner=self.owner,
            series=self.series,
            game=self.game,
            current=current,
            last=self.logs[-1] if self.logs else None,
            deal=self.deal if current is not None else None,
            hold=self.hold,
            turn_timer=self.turn_timer,
            silence=self.silence,
            idle=self.idle,
            watchers=self.watchers,
            password=None if self.password is None else self.password.text,
        )

    def _save(self, durable: bool = False) -> None:
        """Hand the table to the disk: in the lobby the save file is rewritten (``durable``:
        before anything more is sent); a game's start begins its journal (a resumed game's
        is written again whole); a change of the table during a game is a journal record
        when it is one the journal keeps (see ``_key``)."""
        disk = self.disk
        if disk is None:
            return
        if self.state is None:
            number = disk.save(self.saved())
            if self._journaled is not None:  # the game is in the save: compact the journal
                number, self._journaled = disk.end(), None
            if durable:
                self._wait = number
        elif self._journaled != self.game:
            self._journaled, self._journal_key = self.game, self._key()
            self._wait = disk.begin(header_record(self.saved()))
        elif self._key() != self._journal_key:
            self._journal_key = self._key()
            self._wait = disk.append(table_record(self.saved(game=False)))

    def _key(self) -> tuple[object, ...]:
        """What of the table a journal keeps beside the actions (cheap to compare)."""
        seats = tuple((s.kind, s.name, s.level, s.token_hash) for s in self.seats)
        return seats, self.owner, self.name

    def _durable(self) -> Awaitable[None] | None:
        """What the sends held while handling an item wait for (None: nothing)."""
        if not self._wait or self.disk is None:
            return None
        number, self._wait = self._wait, 0
        return self.disk.durable(number)

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
        self._save()
        for index, seat in enumerate(self.seats):  # resumed: every player is away until back
            if seat.kind == "human" and seat.link is None:
                self._hold(index)
        if self.state is not None:
            self._think()
            self._arm_turn()
            self._end_resumed()
        while True:
            item = await self.queue.get()
            if isinstance(item, Stop):
                return
            with self.outbox.holding() as sends:
                try:
                    self.handle(item)
                except Exception:
                    self.errors += 1
                    log.exception("the table failed to handle %r", item)
                finally:
                    if isinstance(item, Incoming):
                        item.link.release()
            self.outbox.release(sends, self._durable())

    def handle(self, item: Item) -> None:
        if self.pending is not None and _waits(item):
            self.pending.deferred.append(item)
        elif isinstance(item, Incoming):
            self._message(item.link, item.message, item.password_ok)
        elif isinstance(item, Gone):
            self._gone(item.link)
        elif isinstance(item, Thought):
            self._thought(item)
        elif isinstance(item, Held):
            self._held(item)
        elif isinstance(item, TurnUp):
            self._turn_up(item)
        elif isinstance(item, Idle):
            self._idle_up(item)
        elif isinstance(item, DealDue) and self.pending and self.pending.game == item.game:
            self._deal()
        elif isinstance(item, Saving):
            self._room_changed()

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
        turn, idle = self.turn_timer, self.idle
        return Room(
            name=self.name,
            status="playing" if self.playing else "lobby",
            owner=self.owner,
            seats=seats,
            rules=self.rules,
            password=self.password is not None,
            autostart=self.config.autostart,
            series=self.series,
            game=self.game,
            hold_ms=min(round(self.hold * 1000), MAX_MS),
            turn_ms=None if turn is None else min(max(round(turn * 1000), 1), MAX_MS),
            silence_ms=min(max(round(self.silence * 1000), MIN_SILENCE_MS), MAX_SILENCE_MS),
            idle_ms=None if idle is None else min(max(round(idle * 1000), 1), MAX_MS),
            watchers=self.watchers,
            watching=tuple(self.audience.values()),
            unsaved=self.disk is not None and self.disk.problem is not None,
        )

    def _room_changed(self, durable: bool = False) -> None:
        """Show the room to every seat and to ``on_room``, then save (see ``_save``)."""
        self._watch_idle()
        room = self.room()
        self._broadcast(RoomUpdate(room))
        if self.on_room is not None:
            self.on_room(room)
        self._save(durable)

    def _broadcast(self, message: Message) -> None:
        for seat in self.seats:
            if seat.link is not None:
                seat.link.send(message)
        for link in self.audience:
            link.send(message)

    def _fix_owner(self) -> None:
        owner = None if self.owner is None else self.seats[self.owner]
        if owner is not None and owner.kind == "human" and (owner.link or self.playing):
            return
        self.owner = next(
            (i for i, s in enumerate(self.seats) if s.kind == "human" and s.link is not None),
            None,
        )

    def _message(self, link: Link, message: Message, password_ok: bool | None = None) -> None:
        if isinstance(message, Hello):
            if message.role == "watch":
                self._watch(link, message, password_ok)
            else:
                self._hello(link, message, password_ok)
            return
        if link in self.audience:
            self._watcher_message(link, message)
            return
        if link.seat is None or self.seats[link.seat].link is not link:
            return  # replaced or gone meanwhile
        if isinstance(message, Act):
            self._act(link, message)
        elif isinstance(message, Ping):
            link.send(Pong(message.ref))
        elif isinstance(message, lobby.COMMANDS):
            self._command(link, message)
        elif isinstance(message, Emote):
            self._emote(link.seat, message.code)
        elif isinstance(message, Contribute):
            self._contribute(link, message)

    def _emote(self, index: int, code: str) -> None:
        """Relay a seat's reaction to every seat and watcher; more than one per
        ``EMOTE_GAP`` seconds from a seat is dropped without a word."""
        if self._emote_due(index):
            self._broadcast(Emoted(index, code))

    def _emote_due(self, sender: int | Link) -> bool:
        now = self.clock()
        last = self._emoted.get(sender)
        if last is not None and now - last < EMOTE_GAP:
            return False
        self._emoted[sender] = now
        return True

    # --- watchers -----------------------------------------------------------------------

    def _watch(self, link: Link, hello: Hello, password_ok: bool | None) -> None:
        """Let a watcher in (the limit and the password first), in the lobby, in a game or
        at a full table: the room, and the game so far as anyone may see it."""
        limit = self.watchers if self.door_room is None else min(self.watchers, self.door_room)
        if hello.token is not None:
            link.close("bad_token", "A watcher has no seat token.")
            return
        if len(self.audience) >= limit:
            text = "This table takes no watchers." if limit == 0 else "Enough people watch already."
            link.close("watchers_full", text)
            return
        if not self._password_checked(link, hello, password_ok):
            return
        taken = {s.name for s in self.seats if s.kind == "human"} | set(self.audience.values())
        self.audience[link] = unique_name(hello.name, taken)
        link.watching = True
        link.send(Watching(PROTOCOL_VERSION, self.room()))
        if self.state is not None:
            link.send(WatchSnapshot(self.game, self.seq, observe_public(self.state)))
        self._room_changed()

    def _watcher_message(self, link: Link, message: Message) -> None:
        """What a watcher may send: reactions, pings, a seat, leaving; anything else is
        refused with ``watching`` and changes nothing."""
        if isinstance(message, Emote):
            if self._emote_due(link):
                self._broadcast(WatcherEmoted(self.audience[link], message.code))
        elif isinstance(message, Ping):
            link.send(Pong(message.ref))
        elif isinstance(message, Sit):
            self._sit(link, message)
        elif isinstance(message, Leave):
            link.send(Ack(message.ref, None))
            self._unwatch(link)
            link.close("left", "You stopped watching.")
        elif isinstance(message, (Act, *lobby.COMMANDS)):
            self._reject(link, message.ref, "watching")

    def _sit(self, link: Link, sit: Sit) -> None:
        """A watcher takes the first open seat of the lobby and becomes a player."""
        if self.playing:
            self._reject(link, sit.ref, "game_running")
            return
        index = next((i for i, s in enumerate(self.seats) if s.kind == "empty"), None)
        if index is None:
            self._reject(link, sit.ref, "no_open_seat")
            return
        name = self.audience.pop(link)
        self._emoted.pop(link, None)
        link.watching = False
        link.send(Ack(sit.ref, None))
        self._welcome(link, index, self._new_player(index, name))

    def _unwatch(self, link: Link) -> None:
        if self.audience.pop(link, None) is not None:
            self._emoted.pop(link, None)
            self._room_changed()

    def seat_of(self, token: str) -> int | None:
        """The human seat ``token`` holds (None: none)."""
        seats = enumerate(self.seats)
        return next(
            (i for i, s in seats if s.kind == "human" and token_matches(token, s.token_hash)), None
        )

    @property
    def takes_newcomers(self) -> bool:
        """Whether a hello without a token could get a seat now (else it is refused before
        its password is looked at)."""
        return not self.playing and any(s.kind == "empty" for s in self.seats)

    def _password_right(self, hello: Hello, checked: bool | None) -> bool:
        """Whether a hello carries the table's password (``checked``: the answer worked out
        off the loop, where the check is slow)."""
        if self.password is None:
            return True
        if checked is not None:
            return checked
        return self.password.check(hello.password or "")

    def _hello(self, link: Link, hello: Hello, password_ok: bool | None = None) -> None:
        """Seat a returning player (by token) or a new one. Without a token, a running game
        or a full table is said before the password is looked at, and a password from an
        address still waiting after wrong ones is not looked at (``PasswordThrottle``): so
        no answer tells a right password from a wrong one but a seat."""
        token = hello.token
        if token is not None:
            index = self.seat_of(token)
            if index is None:
                link.close("bad_token", "That token holds no seat at this table.")
                return
            if not self._password_right(hello, password_ok):
                link.close("bad_password", "The password is wrong.")
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
            if not self._password_checked(link, hello, password_ok):
                return
            token = self._new_player(index, hello.name)
        self._welcome(link, index, token)

    def _password_checked(self, link: Link, hello: Hello, password_ok: bool | None) -> bool:
        """A newcomer's password (``password_ok``: checked and throttled by the host before
        the hello came, else here): False once ``link`` is told why it is not let in."""
        password = self.password
        if password is None:
            return True
        if password_ok is None:
            verdict = self.throttle.check(link.address, hello.password, password.check)
        else:
            verdict = Verdict(password_ok)
        if verdict.wait > 0:
            link.close("throttled", throttled_text(verdict.wait))
            return False
        if not verdict.ok:
            link.close("bad_password", "The password is wrong.")
        return verdict.ok

    def _new_player(self, index: int, name: str) -> str:
        """A newcomer sits down at the empty seat ``index``: their token, saved first."""
        seat = self.seats[index]
        token, seat.token_hash = new_token()
        taken = {s.name for s in self.seats if s.kind == "human"}
        seat.kind, seat.name = "human", unique_name(name, taken)
        seat.ready = False  # a new player says for themselves when they are ready
        self._save(durable=True)  # a token must not be handed out and then forgotten
        return token

    def _welcome(self, link: Link, index: int, token: str) -> None:
        """``link`` plays seat ``index`` now: its welcome, the game so far, the room."""
        seat = self.seats[index]
        seat.link = link
        link.seat = index
        self.bots.pop(index, None)  # a returning player takes over from the stand-in
        self._fix_owner()
        link.send(Welcome(PROTOCOL_VERSION, index, token, self.room()))
        if self.state is not None:
            link.send(Snapshot(self.game, self.seq, observe(self.state, index)))
        self._room_changed()
        self._maybe_autostart()
        self._end_resumed()

    def _end_resumed(self) -> None:
        """A game resumed after its last action (the host died before it saved the end)
        ends once each of its players is back or stood in: so they see the end, its reveal,
        and keep their seats."""
        state, game_log = self.state, self.log
        if state is None or game_log is None or state.result is None:
            return
        seats = enumerate(self.seats)
        if all(s.kind != "human" or s.link is not None or i in self.bots for i, s in seats):
            self._game_over(game_log, state)

    def _gone(self, link: Link) -> None:
        if link in self.audience:
            self._unwatch(link)
            return
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
        """Hold an away player's seat for ``self.hold`` seconds, then a stand-in plays (in
        a resumed lobby: the seat is freed)."""
        seat = self.seats[index]
        seat.away += 1
        if self.hold > 0:
            self._later(self.hold, Held(index, self.game, seat.away))
        elif self.state is None:
            self._vacate(index)
        else:
            self._stand_in(index)

    def _vacate(self, index: int) -> None:
        """A held seat whose player did not come back to a resumed lobby is free again."""
        self.seats[index] = Seat()
        self._fix_owner()
        self._room_changed()

    def _held(self, held: Held) -> None:
        seat = self.seats[held.seat] if held.seat < len(self.seats) else None
        if (
            seat is None
            or held.game != self.game
            or seat.kind != "human"
            or seat.link is not None
            or seat.away != held.away
            or held.seat in self.bots
        ):
            return
        if self.state is None:  # a resumed lobby: the player did not come back
            self._vacate(held.seat)
            return
        self._stand_in(held.seat)
        self._room_changed()
        self._end_resumed()

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
        link.send(Rejected(ref, code, text or lobby.REFUSALS[code]))

    # --- room commands: checked by ``host.lobby``, carried out here -------------------------

    def _command(self, link: Link, message: lobby.Command) -> None:
        assert link.seat is not None
        reason = lobby.check(self.room(), link.seat, message)
        if reason is not None:
            self._reject(link, message.ref, reason, lobby.refusal_text(reason, message))
            return
        link.send(Ack(message.ref, None))
        if isinstance(message, Start):
            self._start_game()
        elif isinstance(message, Ready):
            if self.seats[link.seat].ready != message.ready:
                self.seats[link.seat].ready = message.ready
                self._room_changed()
        elif isinstance(message, Draw):
            self._draw()
        else:
            if isinstance(message, SetOptions):
                self._set_options(message)
            elif isinstance(message, SetRules):
                self._set_rules(message.rules)
            elif isinstance(message, SetSeat):
                level = message.ai
                self.seats[message.seat] = Seat() if level is None else self._ai_seat(level)
            elif isinstance(message, Leave) or message.seat == link.seat:
                level = message.ai if isinstance(message, Replace) else None
                self._free(link.seat, "left", "You left the table.", level)
            elif isinstance(message, Kick):
                self._free(message.seat, "kicked", "The owner sent you away from the table.")
            else:
                text = "The owner gave your seat to an AI player."
                self._free(message.seat, "kicked", text, message.ai)
            self._room_changed(durable=isinstance(message, Kick | Replace | Leave))
            self._maybe_autostart()

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

    def _ai_seat(self, level: str, for_game: bool = False) -> Seat:
        return Seat("ai", _ai_name(level), level, for_game=for_game)

    def _free(self, index: int, code: str, text: str, level: str | None = None) -> None:
        """Whoever sits at ``index`` goes (a player is told why, and their token is gone
        with the seat). An AI of ``level`` takes the seat; without one the seat is empty in
        the lobby, and in a game the stand-in AI plays it to the game's end."""
        link = self.seats[index].link
        if level is not None:
            self.seats[index] = self._ai_seat(level)
        elif self.playing:
            self.seats[index] = self._ai_seat(self.config.stand_in, for_game=True)
        else:
            self.seats[index] = Seat()
        if self.playing:
            self.bots.pop(index, None)
            self.bots.update(self._new_bots(only=index))
            self._think()
        if link is not None:
            link.close(code, text)
        self._fix_owner()

    def _draw(self) -> None:
        """The owner ends the game as a draw: an update with its end to everyone."""
        state, game_log = self.state, self.log
        assert state is not None and game_log is not None
        events = state.declare_draw()
        self.seq += 1
        self._tell(events)
        self._game_over(game_log, state, drawn=True)

    def _watch_idle(self) -> None:
        """Start the idle watch of every player who sits unready in the lobby (not the
        owner, whose start is their readiness; not at an autostart table, which needs no
        marks); stop it for everyone else."""
        for index, seat in enumerate(self.seats):
            due = (
                self.idle is not None
                and not self.playing
                and not self.config.autostart
                and seat.kind == "human"
                and seat.link is not None
                and not seat.ready
                and index != self.owner
            )
            if not due:
                seat.idle_mark = 0
            elif not seat.idle_mark:
                assert self.idle is not None
                seat.idle_mark = next(self.marks)
                self._later(self.idle, Idle(index, seat.idle_mark))

    def _idle_up(self, idle: Idle) -> None:
        seat = self.seats[idle.seat] if idle.seat < len(self.seats) else None
        if seat is None or not idle.mark or seat.idle_mark != idle.mark:
            return  # ready meanwhile, or gone, or the watch started again
        self._free(idle.seat, "idle", "You were not ready in time; the seat is free again.")
        self._room_changed()

    def _maybe_autostart(self) -> None:
        config = self.config
        if (
            config.autostart
            and not self.playing
            and self.pending is None
            and all(s.kind != "empty" for s in self.seats)
            and all(s.link is not None for s in self.seats if s.kind == "human")
            and (config.max_games is None or self.game < config.max_games)
        ):
            self._start_game()

    # --- the game -----------------------------------------------------------------------

    def _start_game(self) -> None:
        """Commit to the next deal: every connected player is sent the commitment to a
        fresh secret, and the table deals once each has contributed or ``fair_wait`` is up
        (at once when nobody is asked)."""
        game = self.game + 1
        kinds = tuple(s.kind for s in self.seats)
        deal = DealSecret(self.seeds.randbytes(SECRET_BYTES), kinds, ())
        commit = commitment(deal.secret, deal_context(game, self.rules, kinds))
        waiting = frozenset(
            i for i, s in enumerate(self.seats) if s.kind == "human" and s.link is not None
        )
        self.pending = Pending(game, deal, waiting)
        wait = max(0.0, self.config.fair_wait)
        for index in sorted(waiting):
            link = self.seats[index].link
            assert link is not None
            link.send(Commit(game, commit, min(round(wait * 1000), MAX_MS)))
        if not waiting or wait == 0:
            self._deal()
        else:
            self._later(wait, DealDue(game))

    def _contribute(self, link: Link, message: Contribute) -> None:
        """A player's contribution to the pending deal: taken once per seat, if it is 32
        bytes as 64 hex digits; the deal follows as soon as every seat asked has sent one."""
        pending, index = self.pending, link.seat
        if pending is None or message.game != pending.game or index not in pending.waiting:
            self._reject(link, message.ref, "no_commitment")
        elif not is_value(message.value):
            self._reject(link, message.ref, "bad_contribution")
        elif index in pending.values:
            self._reject(link, message.ref, "contributed")
        else:
            assert isinstance(message.value, str)
            pending.values[index] = bytes.fromhex(message.value)
            link.send(Ack(message.ref, None))
            if pending.waiting <= pending.values.keys():
                self._deal()

    def _deal(self) -> None:
        """Deal the pending game from the seed its secret and contributions give, then
        handle what waited for the deal."""
        pending = self.pending
        assert pending is not None
        self.pending = None
        self.deal = replace(pending.deal, contributions=tuple(sorted(pending.values.items())))
        rules, previous = self.rules, self.series.last
        seed = self.deal.seed(pending.game, rules)
        state = new_game(rules, seed, previous)
        self.state = state
        self.log = GameLog(rules, seed, previous)
        self.game = pending.game
        self.seq = 0
        self.history = [[] for _ in self.seats]
        for seat in self.seats:  # after this game, everyone says again if they want another
            seat.away, seat.ready = 0, False
        self.bots = self._new_bots()
        self._room_changed(durable=True)
        self._tell(state.opening)
        self._think()
        self._arm_turn()
        for item in pending.deferred:
            self.handle(item)

    def _new_bots(self, only: int | None = None) -> dict[int, BotSlot]:
        """A bot for every AI seat (or seat ``only``), each with its own seed from the
        table's seeds (so a bot never learns the shuffle's). A bot that takes a seat in the
        middle of a game is told the seat's events so far when it first thinks."""
        return {
            i: BotSlot(self._bot(s.level, i, self.seeds.getrandbits(32)))
            for i, s in enumerate(self.seats)
            if s.kind == "ai" and s.level is not None and only in (None, i)
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
        if self.audience:
            public = tuple(trim(e, None) for e in events)
            update = WatchUpdate(self.game, self.seq, public, observe_public(state))
            for link in self.audience:
                link.send(update)

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
        if self.disk is not None:
            self._wait = self.disk.append(action_record(index, action))
        self.seq += 1
        if ack is not None:
            ack[0].send(Ack(ack[1], self.seq))
        self._tell(events)
        if state.result is not None:
            self._game_over(game_log, state)
        else:
            self._think()
            self._arm_turn()

    def _game_over(self, game_log: GameLog, state: GameState, drawn: bool = False) -> None:
        assert state.result is not None
        self._reveal(game_log, drawn)
        self.series = self.series.record(state.result)
        self.logs.append(game_log)
        self.state, self.log, self.bots, self.deal = None, None, {}, None
        self._arm_turn()
        for index, seat in enumerate(self.seats):
            if (seat.kind == "human" and seat.link is None) or seat.for_game:
                self.seats[index] = Seat()
        self._fix_owner()
        self._room_changed(durable=True)
        self._maybe_autostart()

    def _reveal(self, game_log: GameLog, drawn: bool) -> None:
        """The game is over: tell every player its secret, the contributions, the seed and
        every action (``MAX_REVEAL`` actions a message), so each can check the deal."""
        deal = self.deal
        if deal is None:  # (a game resumed from a save of before the fair deal)
            return
        values = tuple((seat, value.hex()) for seat, value in deal.contributions)
        actions = game_log.actions
        starts = range(0, max(len(actions), 1), MAX_REVEAL)
        parts = [
            Reveal(
                self.game,
                deal.secret.hex(),
                values,
                game_log.seed,
                start,
                tuple(actions[start : start + MAX_REVEAL]),
                drawn,
                start == starts[-1],
            )
            for start in starts
        ]
        for seat in self.seats:
            if seat.link is not None:
                for part in parts:
                    seat.link.send(part)

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
