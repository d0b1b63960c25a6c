"""The table: one task owns the game and the lobby; everything reaches it through one queue.

Clients' messages, their departures and the AI players' decisions are queued as they
arrive and handled one at a time, so there are no locks. AI players think off the table's
task (the scheduler's executor); a decision that arrives after the game moved on is
applied if it is still legal and otherwise thrown away and asked again.

The table's parts own their state and return what happened; the table owns the
connections, the queue and the ``Scheduler`` (``host.scheduler``: timers, AI jobs) and
applies what they return. The room (seats, owner, rules, series, options, ready marks) is
``host.room``'s ``Roster``; the games (the fair deal waiting for contributions, while what
else arrives waits, and the game in play) are ``host.dealer``'s ``Dealer``; the watchers
are ``host.audience``'s; who may come in is ``host.entry``'s (``host.server`` throttles
and checks a hello's password before it comes here).

A seat's life (connected, away, held, stood in for, back; kept or freed after a game) is
decided by ``host.seat_life``'s ``SeatLife``: a human who drops out mid-game is held for
the room's ``hold`` seconds, then a stand-in AI plays the seat until they return with their
token (and an owner away that long hands the room on, ``host.room``). The turn timer
(without one, the room's patience) makes the default move for a human seat that lets it run
out. Once the host is stopping (or the executor refuses work, as it does while the process
exits) no AI is asked to think again. A player alone with the AIs may pause the game: its
clock stops (``host.pause``); at a table with others a player can only say "back in a minute".

With a ``disk`` (``host.disk.DiskWriter``) the lobby is saved after every change and
every action of a game is appended to the journal; what the table sends while it handles
an item is held in ``outbox`` and goes out once that item's records are on disk (a new
seat's token, a game's start and end, every action), so no client ever hears of a move a
restarted host would not know. The event loop never waits for the disk itself. With
``workers`` (``host.workers``) the AI seats' bots think in worker processes.

Who runs the table is its ``policy`` (``host.policy``): its owner, or a party, which holds
the seats for its players, deals after a gathering time, keeps a seat through the lobby,
has nobody own the room and is told each game's result.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine
from functools import partial

from engine import GameLog, GameState, Rules, Series
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    BackSoon,
    Contribute,
    DealSecret,
    Draw,
    Emote,
    Emoted,
    Hello,
    Kick,
    Leave,
    Message,
    Pause,
    Ping,
    Pong,
    Ready,
    Rejected,
    Replace,
    Room,
    RoomUpdate,
    Sit,
    Start,
    Watching,
    Welcome,
)

from . import lobby
from .admission import PasswordThrottle
from .audience import SHOW_AFTER, Audience
from .config import HostConfig
from .credentials import Password
from .deal import Deal, waits
from .dealer import Dealer
from .disk import DiskWriter
from .entry import Gate, Refusal
from .game import BotSlot, Game, Resources
from .items import (
    Begin,
    DealDue,
    Gone,
    Held,
    Idle,
    Incoming,
    Item,
    Link,
    Show,
    Stop,
    Thought,
    TurnUp,
)
from .keeper import Keeper
from .outbox import Outbox
from .parts import Part
from .pause import Pausing, Turn
from .policy import OWNER_RUNS, Finished, TablePolicy, went_out
from .resume import load_table
from .room import Roster
from .room_state import Seat, human_names
from .save import TableSave, save_file
from .scheduler import Handle, Scheduler, Timers
from .seat_life import SeatLife
from .workers import Workers

__all__ = ["Gone", "Incoming", "Seat", "Show", "Stop", "Table", "Thought", "TurnUp"]

log = logging.getLogger("durak.host")


class Table:
    def __init__(
        self,
        config: HostConfig,
        *,
        scheduler: Scheduler,
        on_room: Callable[[Room], None] | None = None,
        workers: Workers | None = None,
        door_room: int | None = None,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        policy: TablePolicy = OWNER_RUNS,
    ) -> None:
        """``entropy``: the secure random source of the deals' secrets (``host.dealer``;
        a test that replays a table exactly gives a seeded one); ``policy``: who runs the
        table (``host.policy``)."""
        self.config = config
        self.policy = policy
        self.scheduler = scheduler  # the timers and the AI players' executor
        self.clock: Callable[[], float] = scheduler.now  # emotes' and passwords' clock
        self.on_room = on_room
        self.keeper = Keeper()  # the save and the journal, once ``run`` is given a disk
        self.outbox = Outbox()
        self.torn = 0  # bytes of a torn journal record dropped on resuming
        self.notes: tuple[str, ...] = ()  # what resuming found (host.resume.Loaded.notes)
        self.queue: asyncio.Queue[Item] = asyncio.Queue()
        self.timers = Timers(scheduler, self.queue.put_nowait)  # the table's own timers
        name = "".join(c if c.isprintable() else " " for c in config.name).strip()
        self.name = name[:63] or "Durak table"
        self.roster = Roster(config)  # the seats, the owner, the rules, the options
        show = partial(self.timers.later, SHOW_AFTER, Show(save=False))  # the watchers' update
        self.audience = Audience(lambda: self.clock(), show, door_room)  # the watchers
        self.faults = 0  # unexpected exceptions while handling an item (should stay 0)
        post = self.queue.put_nowait
        self.dealer = Dealer(
            config,
            self.roster,
            self.audience,
            scheduler,
            post,
            workers,
            self.keeper.record,
            lambda stood_in: self.seat_life.ended(stood_in),
            entropy,
        )
        self.seat_life = SeatLife(self.roster, self.dealer, policy, self._later)
        password = Password.of(config.password) if config.password else None
        self.gate = Gate(password, lambda: self.clock())  # the password, the throttle
        self.pause = Pausing(self.roster)  # a game its one player stopped (``host.pause``)
        if config.resume:
            if config.save_dir is None:
                raise ValueError("resume needs save_dir")
            loaded = load_table(save_file(config.save_dir, config.port), config.accept_loss)
            self.torn, self.notes = loaded.torn, loaded.notes
            self._restore(loaded.table)
        else:
            for index, reserved in enumerate(policy.reserved):
                if reserved is not None:
                    self.seats[index] = Seat("human", reserved.name, None, reserved.token_hash)
        self.opened = self.clock()  # (a game's length, as a party counts it)
        self.reported = False  # the result went to ``policy.on_result``

    def _restore(self, saved: TableSave) -> None:
        """Take over a saved table: its seats (every player away: held for them, in the
        lobby too, see ``run``), series and game."""
        self.name = saved.name
        self.roster.restore(saved)
        self.dealer.restore(saved)
        if saved.password is not None and self.config.password is None:
            self.gate.password = Password.from_text(saved.password)  # --resume keeps it

    def saved(self, game: bool = True) -> TableSave:
        """The table as it is saved (every seat, the series and, with ``game``, the game in
        play with every action so far)."""
        password = None if self.gate.password is None else self.gate.password.text
        return TableSave(
            name=self.name, password=password, **self.roster.saved(), **self.dealer.saved(game)
        )

    def _save(self, durable: bool = False) -> None:
        """Hand the table to the disk (``host.keeper``: the save in the lobby, the journal
        in a game; ``durable``: nothing more is sent before it is written)."""
        game = None if self.play is None else self.game
        self.keeper.keep(self.saved, game, self._key(), durable)

    def _key(self) -> tuple[object, ...]:
        """What of the table a journal keeps beside the actions (cheap to compare)."""
        seats = tuple((s.kind, s.name, s.level, s.token_hash, s.look) for s in self.seats)
        return seats, self.owner, self.name

    def close(self) -> None:
        """Cancel the timers (the table task has stopped)."""
        self.timers.cancel()
        if self.play is not None:
            self.play.stop_turn()

    def _later(self, delay: float, item: Item) -> Handle:
        """Queue ``item`` for the table ``delay`` seconds from now."""
        return self.timers.later(delay, item)

    # --- the task -----------------------------------------------------------------------

    def stop_thinking(self) -> None:
        """The host is stopping: no AI is asked to think again."""
        self.dealer.stopping = True

    def run(self, disk: DiskWriter | None = None) -> Coroutine[None, None, None]:
        """The table's task, to be run: it handles what is queued until ``Stop``. With
        ``disk`` (from now on) the table is saved (``host.journal``); an autostart table
        with every seat taken starts."""
        self.keeper.disk = disk
        return self._run()

    def open(self) -> None:
        """The table opens (its task calls this first): saved as it is; a resumed table's
        players are away until they return, its game goes on (``_end_resumed``); an
        autostart table with every seat taken (all AI) starts its first game."""
        self._save()
        self.seat_life.opened()
        if self.play is not None:
            self.dealer.carry_on()
            self._end_resumed()
        self._maybe_autostart()
        if self.policy.gather is not None and self.game == 0 and not self.playing:
            self._later(self.policy.gather, Begin())
        self._report()

    async def _run(self) -> None:
        self.open()
        while True:
            item = await self.queue.get()
            if isinstance(item, Stop):
                return
            with self.outbox.holding() as sends:
                try:
                    self.handle(item)
                except Exception:
                    self.faults += 1
                    log.exception("the table failed to handle %r", item)
                finally:
                    if isinstance(item, Incoming):
                        item.link.release()
            self.outbox.release(sends, self.keeper.durable())

    def handle(self, item: Item) -> None:
        if self.pause.hold(item):
            return
        if self.pending is not None and waits(item):
            self.pending.deferred.append(item)
        elif isinstance(item, Incoming):
            self._message(item.link, item.message, item.password_ok)
        elif isinstance(item, Gone):
            self._gone(item.link)
        elif isinstance(item, Thought):
            self._ended(self.dealer.thought(item))
        elif isinstance(item, Held):
            if self.seat_life.held(item):
                self._fix_owner()  # an owner away past the hold hands the room on
                self._room_changed()
                self._end_resumed()
        elif isinstance(item, TurnUp):
            self._ended(self.dealer.turn_up(item))
        elif isinstance(item, Idle):
            if self.seat_life.idle_up(item):
                self._fix_owner()
                self._room_changed()
        elif isinstance(item, DealDue) and self.pending and self.pending.game == item.game:
            self._deal(self.pending)
        elif isinstance(item, Begin):
            self._begin()
        elif isinstance(item, Show):
            if not item.save:  # the watchers' update that was asked for
                self.audience.due = False
            self._room_changed(save=item.save)

    # --- the room -----------------------------------------------------------------------

    throttle: Part[PasswordThrottle] = Part("gate")
    disk: Part[DiskWriter | None] = Part("keeper")

    @property
    def playing(self) -> bool:
        return self.play is not None

    # (the room's and the games' state as the host's tests and tools read it)
    seats: Part[list[Seat]] = Part("roster")
    owner: Part[int | None] = Part("roster")
    rules: Part[Rules] = Part("roster")
    series: Part[Series] = Part("roster")
    hold: Part[float] = Part("roster")
    turn_timer: Part[float | None] = Part("roster")
    silence: Part[float] = Part("roster")
    idle: Part[float | None] = Part("roster")
    watchers: Part[int] = Part("roster")
    play: Part[Game | None] = Part("dealer")
    game: Part[int] = Part("dealer")
    logs: Part[list[GameLog]] = Part("dealer")
    pending: Part[Deal | None] = Part("dealer")
    uses: Part[Resources] = Part("dealer")
    stopping: Part[bool] = Part("dealer")
    state: Part[GameState | None] = Part("dealer")
    log: Part[GameLog | None] = Part("dealer")
    seq: Part[int] = Part("dealer")
    bots: Part[dict[int, BotSlot]] = Part("dealer")

    deal: Part[DealSecret | None] = Part("dealer")

    @property
    def errors(self) -> int:
        """Unexpected exceptions and failed AI answers so far (should stay 0)."""
        return self.faults + self.dealer.failed

    def room(self) -> Room:
        return self.roster.room(
            self.name,
            playing=self.playing,
            stand_ins=self.bots,
            password=self.gate.password is not None,
            game=self.game,
            watching=tuple(self.audience.names.values()),
            unsaved=self.disk is not None and self.disk.problem is not None,
            paused=self.pause.on,
            run_by=self.policy.run_by,
        )

    def _room_changed(self, durable: bool = False, save: bool = True) -> None:
        """Show the room to every seat and to ``on_room``, then save (see ``_save``)."""
        if self.pause.over(self.playing):
            self._resume()
        self.seat_life.watch_idle()
        room = self.room()
        self._broadcast(RoomUpdate(room))
        if self.on_room is not None:
            self.on_room(room)
        if save:  # (not for watchers: the save holds none)
            self._save(durable)

    def _broadcast(self, message: Message) -> None:
        for seat in self.seats:
            if seat.link is not None:
                seat.link.send(message)
        for link in self.audience:
            link.send(message)

    def _message(self, link: Link, message: Message, password_ok: bool | None = None) -> None:
        if isinstance(message, Hello):
            if message.role == "watch":
                self._watch(link, message, password_ok)
            else:
                self._hello(link, message, password_ok)
            return
        if link in self.audience:
            asked = self.audience.message(link, message)
            if isinstance(asked, Sit):
                self._sit(link, asked)
            elif asked is not None:
                self._broadcast(asked)
            return
        if link.seat is None or self.seats[link.seat].link is not link:
            return  # replaced or gone meanwhile
        if isinstance(message, Act) and self.pause.on:
            self._reject(link, message.ref, "paused")
        elif isinstance(message, Act):
            if self.roster.set_back_soon(link.seat, False):  # the player is back
                self._room_changed(save=False)
            self._ended(self.dealer.act(link, message))
        elif isinstance(message, Pause | BackSoon):
            self._pause_message(link, message)
        elif isinstance(message, Ping):
            link.send(Pong(message.ref))
        elif isinstance(message, lobby.COMMANDS):
            self._command(link, message)
        elif isinstance(message, Emote):
            self._emote(link.seat, message.code)
        elif isinstance(message, Contribute) and self.dealer.contribute(link, message):
            assert self.pending is not None
            self._deal(self.pending)
        elif isinstance(message, Sit):
            self._reject(link, message.ref, "seated")

    def _emote(self, index: int, code: str) -> None:
        """Relay a seat's reaction to every seat and watcher (see ``host.audience``)."""
        if self.audience.emote_due(index):
            self._broadcast(Emoted(index, code))

    # --- watchers -----------------------------------------------------------------------

    def _watch(self, link: Link, hello: Hello, password_ok: bool | None) -> None:
        """Let a watcher in (``host.audience``), in the lobby, in a game or at a full
        table: the room, and the game so far as anyone may see it."""
        taken = human_names(self.seats)
        if self.audience.let_in(link, hello, self.watchers, self.gate, password_ok, taken):
            link.send(Watching(PROTOCOL_VERSION, self.room()))
            if self.play is not None:
                link.send(self.play.watch_snapshot())

    def _sit(self, link: Link, sit: Sit) -> None:
        """A watcher takes the first open seat of the lobby and becomes a player, wearing
        the badge its hello chose."""
        if self.roster.no_seat(self.playing) is not None:
            self._reject(link, sit.ref, "game_running" if self.playing else "no_open_seat")
            return
        look = self.audience.looks.get(link)
        name = self.audience.remove(link)
        assert name is not None
        link.watching = False
        link.send(Ack(sit.ref, None))
        self._welcome(link, *self._new_player(name, look))

    def _hello(self, link: Link, hello: Hello, password_ok: bool | None = None) -> None:
        """Seat a returning player (by token) or a new one (``Roster.admit`` says if)."""
        admitted = self.roster.admit(hello, self.gate, link.address, self.playing, password_ok)
        if isinstance(admitted, Refusal):
            link.close(admitted.code, admitted.text)
        elif admitted is None:
            self._welcome(link, *self._new_player(hello.name, hello.look))
        else:
            assert hello.token is not None
            self.roster.set_look(admitted, hello.look)
            self._welcome(link, admitted, hello.token)

    def _new_player(self, name: str, look: int | None = None) -> tuple[int, str]:
        """A newcomer sits down at the first empty seat: the seat and its token, saved
        first (a token must not be handed out and then forgotten)."""
        index, token = self.roster.sit_down(name, look)
        self._save(durable=True)
        return index, token

    def _welcome(self, link: Link, index: int, token: str) -> None:
        """``link`` plays seat ``index`` now: its welcome, the game so far, the room."""
        old = self.seat_life.back(index, link)
        if old is not None:
            old.close("replaced", "You joined again from another connection.")
        self._fix_owner()
        link.send(Welcome(PROTOCOL_VERSION, index, token, self.room()))
        if self.play is not None:
            link.send(self.play.snapshot(index))
        self._room_changed()
        self._maybe_autostart()
        self._end_resumed()

    def _end_resumed(self) -> None:
        """A game resumed after its last action (the host died before saving its end) ends
        once its players are back or stood in: they see the end and reveal, seats kept."""
        play = self.play
        if play is not None and play.over and self.seat_life.all_back():
            self.dealer.end(play)
            self._ended()

    def _gone(self, link: Link) -> None:
        if link in self.audience:
            self.audience.remove(link)  # (the others' room update follows)
            return
        index = link.seat
        if index is None or self.seats[index].link is not link:
            return
        self.seat_life.gone(index)
        self._fix_owner()
        self._room_changed()

    def _fix_owner(self) -> None:
        """The room passes on if its owner cannot act (``Roster.fix_owner``); a room a
        party runs has no owner."""
        if self.policy.run_by != "owner":
            return
        if self.roster.fix_owner(self.playing, self.bots) and self.owner is not None:
            log.info("the room passes to seat %d (%s)", self.owner, self.seats[self.owner].name)

    def _reject(self, link: Link, ref: int, code: str, text: str | None = None) -> None:
        link.send(Rejected(ref, code, text or lobby.REFUSALS[code]))

    # --- the pause and the "back in a minute" mark (``host.pause``) -----------------------

    def _pause_message(self, link: Link, message: Pause | BackSoon) -> None:
        """A player pauses the game or lets it run again, or sets their mark."""
        assert link.seat is not None
        turn = self.pause.ask(link.seat, message, self.room())
        if not isinstance(turn, Turn):
            self._reject(link, message.ref, turn)
            return
        link.send(Ack(message.ref, None))
        if turn is Turn.PAUSED and self.play is not None:
            self.play.stop_turn()
        elif turn is Turn.RESUMED:
            self._resume()
        if turn is not Turn.SAME:
            self._room_changed(save=False)

    def _resume(self) -> None:
        """The game runs again from where it stood: what was held back is handled, the
        AI players are asked and the turn timer starts afresh."""
        for item in self.pause.end():
            self.handle(item)
        self.dealer.carry_on()

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
            if self.roster.set_ready(link.seat, message.ready):
                self._room_changed()
        elif isinstance(message, Draw):
            self.dealer.draw()
            self._ended()
        else:
            freed = self.roster.carry_out(link.seat, message, self.playing)
            if freed is not None:
                self.seat_life.freed(freed)
                self._fix_owner()
            self._room_changed(durable=isinstance(message, Kick | Replace | Leave))
            self._maybe_autostart()

    def _maybe_autostart(self) -> None:
        config, idle = self.config, not self.playing and self.pending is None
        more = config.max_games is None or self.game < config.max_games
        if config.autostart and idle and more and self.roster.full:
            self._start_game()

    # --- the games: carried out by ``host.dealer``, the room's part here ------------------

    def _start_game(self) -> None:
        """The owner's start (or autostart): the deal is committed to, and follows once
        the players have contributed or ``fair_wait`` is up (at once when nobody is asked)."""
        wait = self.dealer.start()
        assert self.pending is not None
        if wait is None:
            self._deal(self.pending)
        else:
            self._later(wait, DealDue(self.pending.game))

    def _begin(self) -> None:
        """The gathering time is up: deal, a seat freed in the lobby played by a stand-in
        for the game."""
        if self.playing or self.pending is not None or self.game > 0:
            return
        for index, seat in enumerate(self.seats):
            if seat.kind == "empty":
                self.seats[index] = Seat.ai(self.config.stand_in, for_game=True)
        self._start_game()

    def _deal(self, pending: Deal) -> None:
        """Deal: the room shows the game before its first update; then what waited for the
        deal is handled. A seat kept for a player who is not there is held
        (``SeatLife.dealt``)."""
        play = self.dealer.dealt(pending)
        self.seat_life.dealt()
        self._room_changed(durable=True)
        self.dealer.opening(play)
        for item in pending.deferred:
            self.handle(item)

    def _ended(self, ended: bool = True) -> None:
        """After a game ended (if it did): the room passes on if it must, everyone is
        shown it, and an autostart table starts the next game."""
        if ended:
            self._fix_owner()
            self._room_changed(durable=True)
            self._maybe_autostart()
            self._report()

    def _report(self) -> None:
        """The game's result to ``policy.on_result``, once: through the outbox, so that it
        is told once the table's journal has the end and its players were sent it, never
        before (a kill -9 between the two would otherwise tell a result the resumed table
        plays differently). A table resumed after its game ended reports as it opens."""
        report = self.policy.on_result
        if report is None or self.reported or self.playing or not self.logs or self.game < 1:
            return
        self.reported = True
        log = self.logs[-1]
        actions, out_after = went_out(log)
        result = log.replay().result or self.series.last  # (a draw declared: no action ends it)
        assert result is not None
        finished = Finished(result, actions, self.clock() - self.opened, out_after)
        self.outbox.send(partial(report, finished))
