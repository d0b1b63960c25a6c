"""A seat at a host's table through the protocol, as a ``client.net.session.Session``.

The connection (``client.net.client.NetClient``) lives in a daemon thread with its own
asyncio loop (a ``client.net.loop_link.LoopLink``); what the host says is translated into
the session's messages and put in ``inbox``, which the window drains once per frame.
``send``, ``rematch`` and ``close`` hand their work to that loop and never block the
window.

A connection lost without a goodbye is retried with the seat's token (``RECONNECT``, by
``client.net.loop_link.LoopLink``, as a party's link is): the session says
``Reconnecting`` and, once back, the host's snapshot resynchronises the game.

The connection contributes to every deal and checks it once the host reveals it
(``NetClient.witness``): ``GameOver`` carries the verdict.

With ``watch=True`` the session watches the table without a seat: it says
``Seated(WATCHING, ...)``, and the host's public views come as seat views of seat
``WATCHING`` with no hand and no legal actions (``watcher_view``), so the table screen
shows them as it shows a seat's. ``sit()`` takes a seat that is open in the lobby; the
host's welcome to it then says ``Seated`` with the seat.

``computer_game`` is how the window plays against the computer: it starts a host in its
own thread on 127.0.0.1 with AI players in the other seats and joins it like any client.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence

from client.net.client import Backoff, HostClosed, NetClient, refused
from client.net.loop_link import LoopLink
from client.net.session import (
    AI_NAMES,
    WATCHING,
    Cheered,
    Closed,
    Emoted,
    GameOver,
    Happened,
    InFlight,
    Message,
    Reconnecting,
    Rejected,
    RoomChanged,
    Seated,
    Snapshot,
)
from engine import Action, GameEnded, GameLog, GameResult, PublicView, Rules, SeatView
from protocol import (
    Ack,
    Room,
    RoomUpdate,
    Update,
    WatcherEmoted,
    Watching,
    WatchSnapshot,
    WatchUpdate,
    Welcome,
)
from protocol import Emoted as HostEmoted
from protocol import Rejected as HostRejected
from protocol import Snapshot as HostSnapshot

__all__ = ["RECONNECT", "NetSession", "computer_game", "seat_names", "watcher_view"]

RECONNECT = Backoff(first=0.5, longest=5.0, give_up=60.0)  # how a dropped game comes back


def seat_names(room: Room, ai_names: Sequence[str] = AI_NAMES) -> tuple[str, ...]:
    """The players' names; a host AI (named after its level by the host) gets a first name
    of ``ai_names`` (the window's, in the player's script)."""
    names = []
    ai = 0
    for seat in room.seats:
        if seat.kind == "ai":
            names.append(ai_names[ai % len(ai_names)])
            ai += 1
        else:
            names.append(seat.name or "Empty seat")
    return tuple(names)


def watcher_view(view: PublicView) -> SeatView:
    """A watcher's public view as the window reads a seat's: seat ``WATCHING``, no hand,
    no legal actions, no hints."""
    return SeatView(
        seat=WATCHING,
        rules=view.rules,
        phase=view.phase,
        trump=view.trump,
        trump_card=view.trump_card,
        stock_size=view.stock_size,
        discard_size=view.discard_size,
        hand=(),
        hand_sizes=view.hand_sizes,
        known=view.known,
        table=view.table,
        attacker=view.attacker,
        defender=view.defender,
        limit=view.limit,
        taking=view.taking,
        passed=view.passed,
        shown=view.shown,
        throwers=view.throwers,
        places=view.places,
        result=view.result,
        legal=(),
        hints=(),
    )


class NetSession:
    def __init__(
        self,
        address: str | Sequence[str],
        port: int,
        name: str,
        *,
        password: str | None = None,
        start: bool = False,
        on_close: Callable[[], None] | None = None,
        rooms: bool = False,
        ai_names: Sequence[str] = AI_NAMES,
        watch: bool = False,
        look: int | None = None,
        token: str | None = None,
    ) -> None:
        """``token``: the seat a host holds for us (a party's table tells it)."""
        self.token = token
        self.ai_names = tuple(ai_names)
        self.address, self.port, self.name, self.password = address, port, name, password
        self.start_game = start
        self.look = look  # our badge (``protocol.LOOKS``), for the others to see
        self.watch = watch  # watch the table without a seat (until ``sit`` is answered)
        # also report the room in the lobby (``RoomChanged``) for the room screen; during a
        # game every session reports it (the table shows each seat's status)
        self.rooms = rooms
        self.on_close = on_close
        # the finished games' logs (seeds and every action), where the player may have them:
        # a host in this process (``computer_game``)
        self.host_logs: Callable[[], Sequence[GameLog]] | None = None
        self.inflight = InFlight()  # our action being answered
        self._awaited = (0, -1)  # (game, seq): the update our action's ack named
        self._game = 0  # the game of the latest update
        self._latest: Update | None = None  # the latest update, if it came unsettled
        self._result: GameResult | None = None
        self._closing = False
        self._seated = False  # (a watcher) the host gave us a seat
        self._closer: threading.Thread | None = None
        self.link: LoopLink[NetClient, Message] = LoopLink(self, "durak-net", RECONNECT, refused)
        self.inbox: queue.Queue[Message] = self.link.inbox
        self.link.start()

    # --- the window's side ------------------------------------------------------------

    def send(self, action: Action) -> None:
        self.inflight.sent(action)
        self._call(self._act(action))

    def _act(self, action: Action) -> Callable[[NetClient], None]:
        def act(client: NetClient) -> None:
            self.inflight.ref = client.act(action)

        return act

    def rematch(self) -> None:
        self._call(lambda client: client.start())

    def emote(self, code: str) -> None:
        """A quick reaction for every seat (the host drops too many too fast)."""
        self._call(lambda client: client.emote(code))

    def start(self) -> None:
        """The owner starts the game."""
        self._call(lambda client: client.start())

    def ready(self, ready: bool = True) -> None:
        """Set (or take back) our ready mark in the room."""
        self._call(lambda client: client.ready(ready))

    def sit(self) -> None:
        """A watcher takes a seat that is open in the lobby."""
        self._call(lambda client: client.sit())

    def set_seat(self, seat: int, ai: str | None) -> None:
        """The owner fills an open seat with an AI of level ``ai``, or clears it (None)."""
        self._call(lambda client: client.set_seat(seat, ai))

    def draw(self) -> None:
        """The owner ends the game as a draw, for everyone at the table."""
        self._call(lambda client: client.draw())

    def pause(self, paused: bool) -> None:
        """Stop the game's clock, or let it run again (alone with the host's AIs only)."""
        self._call(lambda client: client.pause(paused))

    def back_soon(self, on: bool) -> None:
        """Set (or take back) our seat's "back in a minute" mark."""
        self._call(lambda client: client.back_soon(on))

    def kick(self, seat: int) -> None:
        """The owner sends the player of ``seat`` away (the seat is free, their token gone)."""
        self._call(lambda client: client.kick(seat))

    def leave(self) -> None:
        """Leave the table for good (an AI plays our seat to the game's end), then close."""
        self._call(lambda client: client.leave())
        self.close()

    def close(self) -> None:
        """Leave the table without waiting: the connection (and a host we started, which
        may first let an AI finish its thought) winds down in the background."""
        if self._closing:
            return
        self._closing = True
        self.link.stop()
        self._closer = threading.Thread(target=self._wind_down, name="durak-close", daemon=True)
        self._closer.start()

    def _wind_down(self) -> None:
        self.link.join(timeout=5)
        if self.on_close is not None:
            self.on_close()

    def join(self, timeout: float | None = None) -> bool:
        """Wait until ``close`` has finished; True if it has."""
        if self._closer is not None:
            self._closer.join(timeout)
        return self._closer is not None and not self._closer.is_alive()

    def _call(self, work: Callable[[NetClient], object]) -> None:
        self.link.call(work)

    # --- the network's side (``LoopLink``'s thread) ---------------------------------------

    async def connect(self) -> NetClient:
        return await NetClient.connect(
            self.address,
            self.port,
            self.name,
            password=self.password,
            token=self.token,
            watch=self.watch,
            look=self.look,
        )

    def joined(self, wire: NetClient) -> None:
        welcome = wire.welcome or wire.watching
        assert welcome is not None
        room = welcome.room
        seat = wire.seat if wire.welcome is not None else WATCHING
        self.inbox.put(Seated(seat, seat_names(room, self.ai_names), room.rules))
        if self.rooms:
            self.inbox.put(RoomChanged(room))
        if self.start_game:
            wire.start()

    def received(self, message: object) -> None:
        self._translate(message)

    def dropped(self) -> None:
        self.inbox.put(Reconnecting())

    def rejoined(self, welcome: object) -> None:
        self._translate(welcome)

    def ended(self, end: HostClosed | OSError, after_drop: bool) -> None:
        if isinstance(end, OSError):
            why = f"Could not reach the table: {end.strerror or end}"
            self.inbox.put(Closed(why, "unreachable"))
        elif after_drop and end.code == "bad_token":  # the seat was not held
            self.inbox.put(Closed("The connection to the table was lost.", "closed"))
        else:
            self.inbox.put(Closed(end.text, end.code))

    def _translate(self, message: object) -> None:
        inflight = self.inflight
        if isinstance(message, Ack) and message.ref == inflight.ref:
            # our action became update ``seq``: views before it do not show it yet
            if message.seq is not None:
                self._awaited = (self._game, message.seq)
            inflight.ref = None
            latest = self._latest
            if latest is not None and (latest.game, latest.seq) >= self._awaited:
                self._latest = None  # its update came first: its view is ours to act on
                self.inbox.put(Snapshot(latest.view))
        if isinstance(message, HostRejected) and message.ref == inflight.ref:
            inflight.ref = None
        if isinstance(message, Update):
            self._game = message.game
            self.inbox.put(Happened(message.events))
            settled = inflight.ref is None and (message.game, message.seq) >= self._awaited
            self._latest = None if settled else message
            self.inbox.put(Snapshot(message.view, settled))
            ended = [e for e in message.events if isinstance(e, GameEnded)]
            if ended:
                self._result = ended[0].result
        elif isinstance(message, HostSnapshot):
            # a resync: what we sent is in it or gone
            inflight.ref, self._awaited, self._game = None, (0, -1), message.game
            self.inbox.put(Snapshot(message.view))
        elif isinstance(message, WatchUpdate):
            self.inbox.put(Happened(message.events))
            self.inbox.put(Snapshot(watcher_view(message.view)))
            ended = [e for e in message.events if isinstance(e, GameEnded)]
            if ended:
                self._result = ended[0].result
        elif isinstance(message, WatchSnapshot):
            self.inbox.put(Snapshot(watcher_view(message.view)))
        elif isinstance(message, WatcherEmoted):
            self.inbox.put(Cheered(message.name, message.code))
        elif isinstance(message, Welcome) and self.watch and not self._seated:
            # a watcher sat down (not a reconnect: the seat is new)
            self._seated = True
            names = seat_names(message.room, self.ai_names)
            self.inbox.put(Seated(message.seat, names, message.room.rules))
            self.inbox.put(RoomChanged(message.room))
        elif isinstance(message, Welcome | Watching) and self.rooms:  # back after a drop
            self.inbox.put(RoomChanged(message.room))
        elif isinstance(message, HostEmoted):
            self.inbox.put(Emoted(message.seat, message.code))
        elif isinstance(message, HostRejected):
            self.inbox.put(Rejected(message.reason, message.text))
        elif isinstance(message, RoomUpdate):
            if self._result is not None and message.room.status == "lobby":
                # the room after the game: its series score includes the game just ended,
                # and the host has revealed its deal (docs/protocol.md section 15)
                client = self.link.wire
                deal = None if client is None else client.witness.verdict(self._game)
                self.inbox.put(GameOver(self._result, message.room.series, deal))
                self._result = None
            if self.rooms or message.room.status == "playing":
                # during a game the table shows each seat's status (away, stand-in...)
                self.inbox.put(RoomChanged(message.room))


def computer_game(
    rules: Rules,
    name: str,
    levels: Sequence[str],
    ai_names: Sequence[str] = AI_NAMES,
    look: int | None = None,
) -> NetSession:
    """A table of ``name`` and AI players of ``levels``, hosted in this process on 127.0.0.1."""
    from host import HostConfig, run_in_thread

    config = HostConfig(
        name=f"{name}'s table",
        bind="127.0.0.1",
        seats=rules.players,
        ai=tuple(levels),
        rules=rules,
        announce=False,
    )
    handle = run_in_thread(config)
    session = NetSession(
        "127.0.0.1",
        handle.port,
        name,
        start=True,
        on_close=handle.stop,
        ai_names=ai_names,
        look=look,
    )
    session.host_logs = lambda: handle.host.table.logs if handle.host is not None else []
    return session
