"""``durak conformance HOST:PORT``: check that a host does what docs/protocol.md says.

It connects to the host as several clients (raw frames, so that it can also send what a
good client never would) and checks, one by one, the framing and decoding rules, the
handshake, every lobby command and its refusals, the ready marks, emotes, watchers (no
hand, no action, the limit), a whole game (the order of messages, seq numbers, trimmed
events, the bout limit, transfers, the end), the fair deal (a commitment before each deal,
refused malformed contributions, the reveal after the game, and a deal every seat
verifies) and drops, returns, stand-ins and the turn timer. Each check prints one line;
the last line is ``N passed, M failed``. Exit status 0 only if every check passed.

The host must be fresh: a table in the lobby with nobody seated, no autostart, no
password (or give it with ``--password``), and the host AI level ``random``, as a plain
``durak host --bind 127.0.0.1 --no-announce --no-save`` is. The suite changes that
table's rules and options and plays games at it: do not point it at a table in use.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import random
import secrets
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO, TypeVar

import msgpack  # type: ignore[import-untyped]

from client.cli.options import PASSWORD_HELP, password_option, positive_int
from client.net.client import parse_address
from engine import (
    CARDS,
    Action,
    Attack,
    Attacked,
    BoutStarted,
    Card,
    Covered,
    Dealt,
    Discarded,
    Drew,
    FirstAttacker,
    GameEnded,
    GameResult,
    Pass,
    Passed,
    Phase,
    PickedUp,
    PublicView,
    Rules,
    SeatView,
    Series,
    Taking,
    ThrewIn,
    ThrowIn,
    ThrowInRule,
    Transferred,
    TrumpTurned,
    WentOut,
)
from host import Host, HostConfig
from protocol import (
    PROTOCOL_VERSION,
    VALUE_BYTES,
    Ack,
    Act,
    ClientMessage,
    Commit,
    Connection,
    Contribute,
    DealWitness,
    Emote,
    Emoted,
    Goodbye,
    Hello,
    Message,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Rejected,
    Reveal,
    Role,
    Room,
    RoomUpdate,
    SetOptions,
    SetRules,
    SetSeat,
    Sit,
    Snapshot,
    Start,
    Update,
    WatcherEmoted,
    Watching,
    WatchSnapshot,
    WatchUpdate,
    Welcome,
    action_to_wire,
    encode,
    event_to_wire,
    frame,
    is_value,
)

__all__ = ["Check", "ClientCheck", "Suite", "add_arguments", "run"]

T = TypeVar("T")
WAIT = 5.0  # seconds to wait for an answer the document promises
GAME_REASONS = frozenset(  # section 6
    (
        "game_over",
        "not_your_turn",
        "player_out",
        "not_defender",
        "not_attacker",
        "must_lead_first",
        "bout_in_progress",
        "card_not_in_hand",
        "not_same_rank",
        "rank_not_on_table",
        "table_full",
        "defender_hand_limit",
        "neighbours_only",
        "nothing_to_beat",
        "already_beaten",
        "does_not_beat",
        "wrong_suit",
        "trump_beats_only_higher",
        "already_taking",
        "transfer_not_allowed",
        "transfer_after_beat",
        "next_player_too_few_cards",
        "not_a_trump",
        "already_shown",
        "not_all_beaten",
        "already_passed",
    )
)
VERBS = ("attack", "throw", "beat", "transfer", "show", "take", "pass")  # section 2
EVENT_KINDS = (  # section 4
    "dealt", "trump_turned", "first_attacker", "bout_started", "attacked", "threw_in",
    "covered", "transferred", "taking", "passed", "discarded", "picked_up", "drew",
    "went_out", "game_ended",
)  # fmt: skip
LEVEL = "random"  # a host AI level every host of this document knows
SKIPPED = "the checks after it did not run"
ACK_GAP = 0.02  # seconds the client check holds back what follows an ack
MAX_SEQ = 20_000  # a game this long has not ended (every game ends: see docs/rules.md)


class Failed(Exception):
    """A check that cannot go on (no answer, the wrong message): the text says why."""


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    passed: bool
    detail: str = ""


BURST = 60  # new connections one address may open at once (section 13)
REFILL = 3.5  # seconds until that count has recovered
RATE = 20  # new connections a second that count refills by
RESERVE = 32  # connections beyond the count the host keeps (its newest) for a seat's token


class Peer:
    """One connection to the host: frames out, the host's messages in, each decoded and
    checked by the protocol's own strict codec (a message that fails it is recorded)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.conn = Connection(Role.CLIENT)
        self.inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self.invalid: list[str] = []  # host messages the document does not allow
        self.refs = itertools.count(1)
        self.seat = -1
        self.token = ""
        self.room: Room | None = None  # the last room the host sent (as it arrived)
        self.hook: Callable[[Message], None] | None = None  # sees each message taken
        self.witness = DealWitness()  # what this seat saw of each deal (section 15)
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, host: str, port: int) -> Peer:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), WAIT)
        return cls(reader, writer)

    async def _read(self) -> None:
        try:
            while data := await self.reader.read(65536):
                self.conn.receive_data(data)
                while (message := self.conn.next_message()) is not None:
                    if isinstance(message, RoomUpdate | Welcome | Watching):
                        self.room = message.room
                    self.inbox.put_nowait(message)
        except ProtocolError as exc:
            self.invalid.append(exc.text)
        except (ConnectionError, OSError):
            pass
        self.inbox.put_nowait(None)

    def raw(self, data: bytes) -> None:
        self.writer.write(data)

    def send(self, message: ClientMessage) -> None:
        self.writer.write(encode(message))

    def send_map(self, data: Any) -> None:
        self.writer.write(frame(msgpack.packb(data, use_bin_type=True)))

    def ref(self) -> int:
        return next(self.refs)

    def deliver(self, message: Message | None) -> Message | None:
        """A message taken from the inbox, shown to the deal's witness and ``hook`` first."""
        if message is not None:
            self.witness.see(message)
            if self.hook is not None:
                self.hook(message)
        return message

    def contribute(self, game: int) -> int:
        """Our random contribution to the deal of ``game``; its ref."""
        value = secrets.token_hex(VALUE_BYTES)
        ref = self.ref()
        self.witness.contributed(game, value)
        self.send(Contribute(ref, game, value))
        return ref

    async def next(self, timeout: float = WAIT) -> Message | None:
        """The next message; None once the host closed the connection."""
        try:
            return self.deliver(await asyncio.wait_for(self.inbox.get(), timeout))
        except TimeoutError:
            raise Failed(f"no message from the host within {timeout:g} s") from None

    async def wait_for(
        self, kind: type[T], test: Callable[[T], bool] = lambda _: True, timeout: float = WAIT
    ) -> T:
        """Skip messages until one of ``kind`` that passes ``test``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.next(max(0.0, end - loop.time()))
            if message is None:
                raise Failed(f"the host closed the connection while we waited for {kind.__name__}")
            if isinstance(message, kind) and test(message):
                return message

    async def sync(self) -> list[Message]:
        """Ping, and every message that came before the pong (section 5: an answer comes
        after every message caused by earlier requests)."""
        ref = self.ref()
        self.send(Ping(ref))
        seen: list[Message] = []
        while True:
            message = await self.next()
            if message is None:
                raise Failed("the host closed the connection")
            if isinstance(message, Pong) and message.ref == ref:
                return seen
            seen.append(message)

    async def ask(self, make: Callable[[int], ClientMessage]) -> list[Message]:
        """Send a request with a fresh ref; every message up to a ping after it (what came
        before the request is read and left out first)."""
        await self.sync()
        self.send(make(self.ref()))
        return await self.sync()

    async def end(self, timeout: float = WAIT) -> Goodbye | None:
        """Read until the host's goodbye (None: it closed without one)."""
        loop = asyncio.get_running_loop()
        limit = loop.time() + timeout
        while (message := await self.next(max(0.0, limit - loop.time()))) is not None:
            if isinstance(message, Goodbye):
                return message
        return None

    async def hello(self, name: str, password: str | None, token: str | None = None) -> Welcome:
        self.send(Hello(PROTOCOL_VERSION, name, password, token))
        first = await self.next()
        if isinstance(first, Goodbye):
            raise Failed(f"hello was refused: {first.code} ({first.text})")
        if not isinstance(first, Welcome):
            raise Failed(f"the first answer to hello was {type(first).__name__}, not welcome")
        self.seat, self.token = first.seat, first.token
        return first

    async def watch(self, name: str, password: str | None) -> Watching:
        """Say hello as a watcher (section 16): the host's ``watching``."""
        self.send(Hello(PROTOCOL_VERSION, name, password, None, "watch"))
        first = await self.next()
        if isinstance(first, Goodbye):
            raise Failed(f"the watcher's hello was refused: {first.code} ({first.text})")
        if not isinstance(first, Watching):
            raise Failed(f"the first answer to a watcher was {type(first).__name__}")
        return first

    async def close(self) -> None:
        """Leave without a goodbye (a client just closes)."""
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, WAIT)
        self.task.cancel()


def kinds(messages: Iterable[Message | None]) -> str:
    """The messages' types, leaving out game updates (they come whenever an AI acts)."""
    return ", ".join(type(m).__name__ for m in messages if not isinstance(m, Update))


def answers(messages: Iterable[Message]) -> list[Message]:
    return [m for m in messages if not isinstance(m, Update)]


@dataclass(slots=True)
class Player:
    """What the game checks know of one of our seats."""

    peer: Peer
    seq: int = -1
    game: int = 0
    view: SeatView | None = None
    ended: GameEnded | None = None
    first_bout: bool = True
    bout_max: int = 0  # the bout's most attack cards (0: not known, joined mid-bout)
    revealed: bool = False  # the game's last reveal came


@dataclass(slots=True)
class Public:
    """What every seat knows of a game, followed event by event (section 4's events),
    to hold each view against: the events of an update must explain its view."""

    sizes: list[int]
    stock: int
    places: list[int]
    discard: int = 0
    table: list[tuple[Card, Card | None]] = field(default_factory=list)
    attacker: int = 0
    defender: int = 0
    phase: Phase = Phase.LEAD
    taking: bool = False
    passed: set[int] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)

    @classmethod
    def before_deal(cls, rules: Rules) -> Public:
        return cls([0] * rules.players, rules.deck_size, [0] * rules.players)

    @classmethod
    def of(cls, view: SeatView) -> Public:
        return cls(
            list(view.hand_sizes), view.stock_size, list(view.places), view.discard_size,
            list(view.table), view.attacker, view.defender, view.phase, view.taking,
            set(view.passed), set(view.shown),
        )  # fmt: skip

    def apply(self, event: Any) -> None:
        if isinstance(event, Dealt | Drew):
            self.sizes[event.seat] += event.count
            self.stock -= event.count
        elif isinstance(event, BoutStarted):
            self.attacker, self.defender = event.attacker, event.defender
            self.table, self.phase, self.taking = [], Phase.LEAD, False
            self.passed, self.shown = set(), set()
        elif isinstance(event, Attacked):
            self.put(event.seat, *event.cards)
            self.phase = Phase.OPEN
        elif isinstance(event, ThrewIn):
            self.put(event.seat, event.card)
        elif isinstance(event, Covered):
            self.sizes[event.seat] -= 1
            self.table = [(a, event.card if a == event.target else d) for a, d in self.table]
            self.passed = set()
        elif isinstance(event, Transferred):
            if event.shown:
                self.shown.add(event.seat)
            else:
                self.put(event.seat, event.card)
            self.attacker, self.defender, self.passed = event.seat, event.to, set()
        elif isinstance(event, Taking):
            self.taking, self.passed = True, set()
        elif isinstance(event, Passed):
            self.passed.add(event.seat)
        elif isinstance(event, Discarded):
            self.discard += len(event.cards)
            self.table = []
        elif isinstance(event, PickedUp):
            self.sizes[event.seat] += len(event.cards)
            self.table = []
        elif isinstance(event, WentOut):
            self.places[event.seat] = event.place
        elif isinstance(event, GameEnded):
            self.places, self.phase = list(event.result.places), Phase.OVER

    def put(self, seat: int, *cards: Card) -> None:
        self.sizes[seat] -= len(cards)
        self.table += [(card, None) for card in cards]
        self.passed = set()

    def differences(self, view: SeatView | PublicView) -> list[str]:
        """The fields of ``view`` that the events do not explain."""
        mine = {
            "hand_sizes": (tuple(self.sizes), view.hand_sizes),
            "stock": (self.stock, view.stock_size),
            "discard": (self.discard, view.discard_size),
            "table": (tuple(self.table), view.table),
            "phase": (self.phase, view.phase),
            "places": (tuple(self.places), view.places),
        }
        if view.phase is not Phase.OVER:  # who would attack a bout that never began
            mine |= {
                "attacker": (self.attacker, view.attacker),
                "defender": (self.defender, view.defender),
                "taking": (self.taking, view.taking),
                "passed": (self.passed, set(view.passed)),
                "shown": (self.shown, set(view.shown)),
            }
        return [f"{k} {v!r}, the events say {e!r}" for k, (e, v) in mine.items() if e != v]


class Suite:
    """The checks, run in order against one host. ``results`` holds each outcome."""

    def __init__(
        self,
        host: str,
        port: int,
        password: str | None = None,
        out: TextIO | None = None,
        *,
        timeouts: bool = False,
    ) -> None:
        self.host, self.port, self.password = host, port, password
        self.out = out
        self.timeouts = timeouts  # also wait out the 10 s handshake timeout
        self.results: list[Check] = []
        self.peers: list[Peer] = []
        self.rng = random.Random(17)
        self.series = Series.new(2)  # the series as the game being played began
        self.seen: set[str] = set()  # the event kinds and verbs the games showed
        self.violations: dict[str, str] = {}  # game-long invariants: the first breach
        self.counted: dict[str, int] = {}  # how often each invariant was checked
        self.contributions_checked = False  # the refusals of bad contributions (once)

    # --- recording -----------------------------------------------------------------------

    def check(self, name: str, passed: bool, detail: str = "") -> bool:
        self.results.append(Check(name, passed, "" if passed else detail))
        if self.out is not None:
            print(
                f"{'ok  ' if passed else 'FAIL'} {name}{'' if passed else ': ' + detail}",
                file=self.out,
                flush=True,
            )
        return passed

    def invariant(self, name: str, holds: bool, detail: str) -> None:
        """One more instance of a game-long rule; reported once, after the games."""
        self.counted[name] = self.counted.get(name, 0) + 1
        if not holds and name not in self.violations:
            self.violations[name] = detail

    async def peer(self) -> Peer:
        peer = await Peer.open(self.host, self.port)
        self.peers.append(peer)
        return peer

    async def join(self, name: str) -> Peer:
        peer = await self.peer()
        await peer.hello(name, self.password)
        return peer

    async def run(self) -> list[Check]:
        """Every check in order; ``OSError`` if the host cannot be reached at all."""
        _, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), WAIT)
        writer.close()
        sections = (
            ("framing", self.framing),
            ("handshake", self.handshake),
            ("lobby", self.lobby),
            ("watching", self.watching),
            ("game", self.game),
            ("drops", self.drops),
            ("leaving", self.leaving),
        )
        for name, section in sections:
            try:
                await section()
            except Failed as exc:
                self.check(f"{name}: every step was answered", False, f"{exc}; {SKIPPED}")
                break
            except (ConnectionError, OSError) as exc:
                self.check(f"{name}: the host stayed reachable", False, f"{exc}; {SKIPPED}")
                break
        for name, count in self.counted.items():
            self.check(
                f"{name} ({count} times)",
                name not in self.violations,
                self.violations.get(name, ""),
            )
        invalid = [text for p in self.peers for text in p.invalid]
        self.check(
            "every message of the host is valid under sections 1, 2 and 4",
            not invalid,
            "; ".join(invalid[:3]),
        )
        for peer in self.peers:
            await peer.close()
        if self.out is not None:
            missing = sorted((set(EVENT_KINDS) | set(VERBS)) - self.seen)
            print(f"note: the games did not show {', '.join(missing) or 'nothing'}", file=self.out)
        return self.results

    # --- 1, 7: framing and decoding ------------------------------------------------------

    async def refused(
        self,
        name: str,
        data: bytes,
        code: str,
        *,
        greet: bool = False,
        eof: bool = False,
        text: Iterable[str] = (),
    ) -> None:
        """On a fresh connection (greeted first if ``greet``) send ``data``: the host must
        answer goodbye ``code`` and close."""
        peer = await self.peer()
        try:
            if greet:
                await peer.hello("Probe", self.password)
            peer.raw(data)
            if eof:
                peer.writer.write_eof()
            goodbye = await peer.end()
        finally:
            await peer.close()
        got = "no goodbye" if goodbye is None else f"{goodbye.code} ({goodbye.text})"
        ok = goodbye is not None and goodbye.code == code
        if ok and goodbye is not None:
            ok = all(t in goodbye.text for t in text)
        self.check(name, ok, f"expected goodbye {code}, got {got}")

    def hello_map(self, **fields: Any) -> dict[str, Any]:
        data = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": "Probe",
            "password": self.password,
            "token": None,
            "role": "play",
        }
        data.update(fields)
        return data

    def packed(self, data: Any) -> bytes:
        return frame(msgpack.packb(data, use_bin_type=True))

    async def framing(self) -> None:
        ping = b"\xa4type\xa4ping\xa3ref\x01"
        await self.refused(
            "a length over 65536 is frame_too_large at once",
            (65537).to_bytes(4, "big"),
            "frame_too_large",
        )
        await self.refused("an empty frame is bad_frame", bytes(4), "bad_frame")
        await self.refused("bytes that are not msgpack are bad_frame", frame(b"\xc1"), "bad_frame")
        await self.refused(
            "trailing bytes after the object are bad_frame",
            frame(b"\x82" + ping + b"\xc0"),
            "bad_frame",
        )
        await self.refused(
            "an object cut short inside its frame is bad_frame", frame(b"\x83" + ping), "bad_frame"
        )
        await self.refused(
            "a string that is not UTF-8 is bad_frame",
            frame(b"\x81\xa4type\xa2\xff\xfe"),
            "bad_frame",
        )
        await self.refused(
            "the stream ending inside a frame is bad_frame",
            (100).to_bytes(4, "big") + b"\x82",
            "bad_frame",
            eof=True,
        )
        await self.refused(
            "a first message that is not hello is hello_expected",
            self.packed({"type": "ping", "ref": 1}),
            "hello_expected",
        )
        for what, payload in (
            ("an integer map key", b"\x83" + ping + b"\x01\x02"),
            ("a key twice", b"\x83" + ping + b"\xa3ref\x02"),
            ("a float", b"\x82\xa4type\xa4ping\xa3ref\xcb?\xf0" + bytes(6)),
            ("a binary value", b"\x82\xa4type\xa4ping\xa3ref\xc4\x01\x01"),
            ("an extension value", b"\x82\xa4type\xa4ping\xa3ref\xd4\x05\x01"),
        ):
            await self.refused(f"{what} is bad_message", frame(payload), "bad_message", greet=True)
        hello = self.packed(self.hello_map(version=99, extra=1))
        await self.refused(
            "another integer version is version_mismatch, naming both",
            hello,
            "version_mismatch",
            text=(f"version {PROTOCOL_VERSION}", "version 99"),
        )
        for version in (str(PROTOCOL_VERSION), True, None, float(PROTOCOL_VERSION), -1):
            await self.refused(
                f"hello.version {version!r} is bad_message",
                self.packed(self.hello_map(version=version)),
                "bad_message",
            )
        missing = self.hello_map()
        del missing["token"]
        await self.refused(
            "a hello without a field is bad_message", self.packed(missing), "bad_message"
        )
        await self.refused(
            "a hello with an extra field is bad_message",
            self.packed(self.hello_map(seat=0)),
            "bad_message",
        )
        twice = self.hello_map()
        name_pair = msgpack.packb("name") + msgpack.packb("Probe")
        body = b"".join(msgpack.packb(k) + msgpack.packb(v) for k, v in twice.items())
        await self.refused(
            "a hello with name twice is bad_message",
            frame(bytes([0x80 | (len(twice) + 1)]) + body + name_pair),
            "bad_message",
        )
        for name in ("", " Anna", "x" * 25, "a\nb"):
            await self.refused(
                f"the name {name!r} is bad_message",
                self.packed(self.hello_map(name=name)),
                "bad_message",
            )
        await self.refused(
            "a token that is not 32 hex digits is bad_message",
            self.packed(self.hello_map(token="XYZ")),
            "bad_message",
        )
        await self.refused(
            "a token that holds no seat is bad_token",
            self.packed(self.hello_map(token="0" * 32)),
            "bad_token",
        )

    # --- 3: the handshake ----------------------------------------------------------------

    async def handshake(self) -> None:
        self.anna = anna = await self.peer()
        welcome = await anna.hello("Anna", self.password)
        room = welcome.room
        self.check(
            "welcome names this protocol version",
            welcome.version == PROTOCOL_VERSION,
            f"version {welcome.version}",
        )
        self.check(
            "the first player gets seat 0 of an empty lobby and owns the room",
            welcome.seat == 0 and room.owner == 0 and room.status == "lobby",
            f"seat {welcome.seat}, owner {room.owner}, status {room.status}",
        )
        self.check(
            "room.password says whether hello needs one",
            room.password == (self.password is not None),
            f"password {room.password}",
        )
        me = room.seats[welcome.seat]
        self.check(
            "the welcome's room shows the seat connected and not ready",
            (me.kind, me.name, me.status, me.connected, me.ready)
            == ("human", "Anna", "connected", True, False),
            repr(me),
        )
        first = await anna.next()
        self.check(
            "a room message follows the welcome",
            isinstance(first, RoomUpdate),
            kinds([first] if first else []),
        )
        await anna.sync()
        seen = await anna.sync()
        self.check("ping is answered pong with its ref, and nothing else", seen == [], kinds(seen))
        anna.send(Ping(2**31 - 1))
        pong = await anna.next()
        self.check("the largest ref comes back", pong == Pong(2**31 - 1), repr(pong))
        await self.refused(
            "a ref of 2**31 is bad_message",
            self.packed({"type": "ping", "ref": 2**31}),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "an unknown message type is bad_message",
            self.packed({"type": "teleport", "ref": 1}),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "a host message sent to the host is bad_message",
            encode(Pong(1)),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "a second hello is bad_message",
            encode(Hello(PROTOCOL_VERSION, "Again", self.password)),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "an unknown emote is bad_message",
            self.packed({"type": "emote", "code": "wave"}),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "set_rules with players 7 is bad_message",
            self.packed(
                {"type": "set_rules", "ref": 1, "rules": {**Rules().to_dict(), "players": 7}}
            ),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "set_options with turn_ms 0 is bad_message",
            self.packed({"type": "set_options", "ref": 1, "hold_ms": 0, "turn_ms": 0}),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "set_seat of seat 6 is bad_message",
            self.packed({"type": "set_seat", "ref": 1, "seat": 6, "ai": None}),
            "bad_message",
            greet=True,
        )
        await self.refused(
            "an act with an unknown verb is bad_message",
            self.packed({"type": "act", "ref": 1, "action": {"verb": "steal"}}),
            "bad_message",
            greet=True,
        )
        if self.password is not None:
            for wrong in (None, self.password + "x"):
                await self.refused(
                    f"a hello with the password {wrong!r} is bad_password",
                    self.packed(self.hello_map(password=wrong)),
                    "bad_password",
                )
        await self.busy(anna)
        if self.timeouts:
            await self.handshake_timeout()
        burst = encode(Hello(PROTOCOL_VERSION, "Flood", self.password)) + encode(Ping(1)) * 2000
        await self.refused("2000 pings at once are rate_limited", burst, "rate_limited")
        await self.settle(anna, lambda r: all(s.kind != "human" for s in r.seats[1:]))

    async def busy(self, anna: Peer) -> None:
        """More new connections from one address than the host takes at once (60): the
        ones beyond come in the reserve, where a hello without a token is told busy; once
        the burst is over, a new player gets in again (section 13)."""
        await asyncio.sleep(REFILL)  # this address's count of new connections recovers
        # the count refills while they are opened (a busy machine opens them slowly): open
        # as many more as it has refilled by, so the last one is beyond it too
        loop = asyncio.get_running_loop()
        started, strangers = loop.time(), list[Peer]()
        while len(strangers) < min(
            BURST + 2 + math.ceil((loop.time() - started) * RATE), BURST + RESERVE
        ):
            strangers.append(await Peer.open(self.host, self.port))
        try:
            beyond = strangers[-1]
            beyond.send(Hello(PROTOCOL_VERSION, "Beyond", self.password))
            goodbye = await beyond.end()
            self.check(
                f"beyond {BURST} new connections at once, a hello without a token is told busy",
                goodbye is not None and goodbye.code == "busy",
                repr(goodbye),
            )
        finally:
            for peer in strangers:
                await peer.close()
        await asyncio.sleep(REFILL)
        newest = await self.peer()
        try:
            welcome = await newest.hello("Newest", self.password)
            self.check("once the burst is over a new player joins", welcome.seat >= 0, "")
        finally:
            await newest.close()
        await self.settle(anna, lambda r: all(s.kind != "human" for s in r.seats[1:]))

    async def handshake_timeout(self) -> None:
        peer = await self.peer()
        try:
            goodbye = await peer.end(timeout=12)
        except Failed:
            goodbye = None
        finally:
            await peer.close()
        self.check(
            "a connection without hello is told handshake_timeout within 10 s",
            goodbye is not None and goodbye.code == "handshake_timeout",
            repr(goodbye),
        )

    async def settle(self, peer: Peer, test: Callable[[Room], bool]) -> None:
        """Wait until the room ``peer`` last heard passes ``test``, then drain to a pong."""
        if peer.room is None or not test(peer.room):
            await peer.wait_for(RoomUpdate, lambda m: test(m.room))
        await peer.sync()

    # --- 4: lobby commands ---------------------------------------------------------------

    async def lobby(self) -> None:
        anna = self.anna
        assert anna.room is not None
        for index, info in enumerate(anna.room.seats):  # a table used before may have some
            if info.kind == "ai":
                await anna.ask(partial(clear_seat, index))
        rules = Rules(players=4)
        seen = await anna.ask(lambda r: SetRules(r, rules))
        ack, update = [*seen, None, None][:2]
        self.check(
            "set_rules is ack (seq nil), then room with the rules and seats",
            kinds(seen) == "Ack, RoomUpdate"
            and isinstance(ack, Ack)
            and ack.seq is None
            and isinstance(update, RoomUpdate)
            and update.room.rules == rules
            and len(update.room.seats) == 4,
            kinds(seen),
        )
        for what, options in (
            ("24 cards for 6 players", {"players": 6, "deck_size": 24}),
            ("show trump without transfer", {"transfer_show_trump": True}),
        ):
            wire = {**rules.to_dict(), **options}
            ref = anna.ref()
            anna.send_map({"type": "set_rules", "ref": ref, "rules": wire})
            seen = await anna.sync()
            self.check(
                f"set_rules with {what} is rejected bad_rules and changes nothing",
                len(seen) == 1
                and isinstance(seen[0], Rejected)
                and seen[0].reason == "bad_rules"
                and seen[0].ref == ref,
                kinds(seen),
            )
        self.boris = boris = await self.join("Boris")
        self.check("the second player gets the next seat", boris.seat == 1, f"seat {boris.seat}")
        await self.settle(anna, lambda r: r.seats[1].name == "Boris")
        self.check("everyone is sent the room when a player joins", True)
        for what, make in (
            ("set_rules", lambda r: SetRules(r, rules)),
            ("set_seat", lambda r: SetSeat(r, 2, LEVEL)),
            ("set_options", lambda r: SetOptions(r, 1000, None)),
            ("start", Start),
        ):
            await self.refusal(
                boris, f"{what} from a player who is not the owner", make, "not_owner"
            )
        await self.refusal(
            anna, "set_seat of a seat with a player", lambda r: SetSeat(r, 1, LEVEL), "seat_taken"
        )
        await self.refusal(
            anna,
            "set_seat of seat 5 at a 4-seat table",
            lambda r: SetSeat(r, 5, LEVEL),
            "no_such_seat",
        )
        await self.refusal(
            anna,
            "set_seat with an unknown level",
            lambda r: SetSeat(r, 2, "grandmaster"),
            "unknown_level",
        )
        seen = await anna.ask(lambda r: SetSeat(r, 2, LEVEL))
        seat = anna.room.seats[2] if anna.room else None
        self.check(
            "set_seat with a level seats an AI: ack, room with an ai seat, always ready",
            kinds(seen) == "Ack, RoomUpdate"
            and seat is not None
            and (seat.kind, seat.status, seat.ready, seat.level) == ("ai", "ai", True, LEVEL),
            f"{kinds(seen)} {seat!r}",
        )
        seen = await anna.ask(lambda r: SetSeat(r, 2, None))
        seat = anna.room.seats[2] if anna.room else None
        self.check(
            "set_seat with ai nil clears the seat",
            kinds(seen) == "Ack, RoomUpdate"
            and seat is not None
            and (seat.kind, seat.status, seat.ready) == ("empty", "empty", False),
            repr(seat),
        )
        cleo = await self.join("Cleo")
        await self.refusal(
            anna,
            "set_rules that would remove a player's seat",
            lambda r: SetRules(r, Rules(players=2)),
            "seat_taken",
        )
        await cleo.close()
        await self.settle(anna, lambda r: r.seats[2].kind == "empty")
        self.check("a player leaving the lobby frees the seat", True)
        seen = await anna.ask(lambda r: SetOptions(r, 60000, None))
        room = anna.room
        self.check(
            "set_options is ack, then room with hold_ms and turn_ms",
            kinds(seen) == "Ack, RoomUpdate"
            and room is not None
            and (room.hold_ms, room.turn_ms) == (60000, None),
            kinds(seen),
        )
        await self.refusal(anna, "start with an empty seat", Start, "seats_empty")
        await self.refusal(anna, "act in the lobby", lambda r: Act(r, Pass()), "no_game")
        good = "ab" * VALUE_BYTES
        game = (anna.room.game if anna.room else 0) + 1
        await self.refusal(
            anna,
            "a contribution before any commitment",
            lambda r: Contribute(r, game, good),
            "no_commitment",
        )
        await self.ready_marks(anna, boris)
        await self.emotes(anna, boris)

    async def refusal(
        self, peer: Peer, what: str, make: Callable[[int], ClientMessage], code: str
    ) -> None:
        seen = await peer.ask(make)
        got = [getattr(m, "reason", type(m).__name__) for m in answers(seen)]
        self.check(f"{what} is rejected {code} and changes nothing", got == [code], repr(got))

    async def ready_marks(self, anna: Peer, boris: Peer) -> None:
        await anna.ask(lambda r: SetRules(r, Rules(players=3)))
        await anna.ask(lambda r: SetSeat(r, 2, LEVEL))
        await boris.sync()
        await self.refusal(anna, "start while another player is not ready", Start, "not_ready")
        seen = await boris.ask(lambda r: Ready(r, True))
        mark = boris.room.seats[1].ready if boris.room else None
        self.check(
            "ready is ack (seq nil), then room with the mark, to everyone",
            kinds(seen) == "Ack, RoomUpdate" and mark is True,
            kinds(seen),
        )
        await self.settle(anna, lambda r: r.seats[1].ready)
        seen = await boris.ask(lambda r: Ready(r, True))
        self.check("ready that changes no mark is ack alone", kinds(seen) == "Ack", kinds(seen))
        await anna.ask(lambda r: SetOptions(r, 30000, None))
        await self.settle(boris, lambda r: r.hold_ms == 30000)
        self.check(
            "set_options keeps the ready marks",
            bool(boris.room and boris.room.seats[1].ready),
            "Boris's mark was cleared",
        )
        await anna.ask(lambda r: SetRules(r, Rules(players=3, transfer=True)))
        await self.settle(boris, lambda r: r.rules.transfer)
        self.check(
            "set_rules with new rules clears the ready marks",
            bool(boris.room and not boris.room.seats[1].ready),
            "Boris is still ready",
        )

    async def emotes(self, anna: Peer, boris: Peer) -> None:
        anna.send(Emote("nice"))
        seen = await anna.sync()
        self.check(
            "an emote is relayed to the sender as emoted, without an answer",
            seen == [Emoted(0, "nice")],
            kinds(seen),
        )
        got = await boris.wait_for(Emoted)
        self.check("an emote is relayed to every seat", got == Emoted(0, "nice"), repr(got))
        anna.send(Emote("ha"))
        seen = await anna.sync()
        self.check(
            "a second emote within 2 seconds is dropped without a word", seen == [], kinds(seen)
        )

    # --- 4, 5: a game --------------------------------------------------------------------

    async def start_game(self, players: list[Player]) -> None:
        anna = players[0].peer
        for p in players[1:]:
            await p.peer.ask(lambda r: Ready(r, True))
        await self.settle(anna, lambda r: all(s.ready for s in r.seats[1:]))
        for p in players:
            p.seq, p.ended, p.first_bout, p.view, p.revealed = -1, None, True, None, False
            p.peer.hook = lambda m, p=p: self.observe(p, m)
        if anna.room is None:
            raise Failed("no room before the start")
        self.series = anna.room.series
        previous, game = self.series.last, anna.room.game + 1
        ref = anna.ref()
        anna.send(Start(ref))
        seen = [await anna.next() for _ in range(2)]
        commit = seen[1]
        self.check(
            "start is ack (seq nil), then the commitment to the next game's deal",
            seen[0] == Ack(ref, None) and isinstance(commit, Commit) and commit.game == game,
            kinds(m for m in seen if m),
        )
        if not isinstance(commit, Commit):
            raise Failed("no commitment before the deal")
        if not self.contributions_checked:
            self.contributions_checked = True
            await self.bad_contributions(anna, game)
        else:
            anna.contribute(game)
            await anna.wait_for(Ack)
        for p in players[1:]:  # (an update before its commit fails the wait)
            await p.peer.wait_for(Commit, lambda m: m.game == game)
            p.peer.contribute(game)
        seen = [await anna.next() for _ in range(2)]
        self.check(
            "once every seat contributed: room playing, then update seq 0",
            isinstance(seen[0], RoomUpdate)
            and seen[0].room.status == "playing"
            and isinstance(seen[1], Update)
            and seen[1].seq == 0,
            kinds(m for m in seen if m),
        )
        first = seen[1]
        if not isinstance(first, Update):
            raise Failed("no game started")
        self.opening(players[0], first)
        self.first_attacker(first, previous)

    async def bad_contributions(self, anna: Peer, game: int) -> None:
        """Malformed contributions are refused and change nothing (section 15); then one
        good one is taken, and the same seat's second one refused."""
        refs = [anna.ref() for _ in range(4)]
        good = "cd" * VALUE_BYTES
        anna.send(Contribute(refs[0], game, "ab" * 3))
        anna.send_map({"type": "contribute", "ref": refs[1], "game": game, "value": 7})
        anna.send(Contribute(refs[2], game + 1, good))
        anna.send(Contribute(refs[3], game, "AB" * VALUE_BYTES))
        got = [await anna.wait_for(Rejected) for _ in refs]  # (answered in order)
        codes = ["bad_contribution", "bad_contribution", "no_commitment", "bad_contribution"]
        self.check(
            "a contribution that is not 64 lower-case hex digits, or for another game, is "
            "rejected bad_contribution or no_commitment",
            [(m.ref, m.reason) for m in got] == list(zip(refs, codes, strict=True)),
            repr([m.reason for m in got]),
        )
        ref = anna.contribute(game)
        again = anna.ref()
        anna.send(Contribute(again, game, good))
        first = await anna.next()
        second = await anna.next()
        self.check(
            "a good contribution is ack'd (seq nil); a second one of the seat is contributed",
            first == Ack(ref, None)
            and isinstance(second, Rejected)
            and (second.ref, second.reason) == (again, "contributed"),
            kinds([first, second]),
        )

    def first_attacker(self, update: Update, previous: GameResult | None) -> None:
        """Who leads the first bout (rules.md, "Who leads"), as far as one seat can tell."""
        view, n = update.view, update.view.rules.players
        lead = next((e for e in update.events if isinstance(e, FirstAttacker)), None)
        if lead is None:
            return
        trumps = sorted(c.rank for c in view.hand if c.suit == view.trump)
        if view.rules.durak_defends_first and previous is not None and previous.durak is not None:
            ok = lead.shown is None and lead.seat == (previous.durak - 1) % n
            what = "under durak_defends_first the previous Durak's right neighbour leads"
        elif lead.shown is None:
            dealer = n - 1 if previous is None or previous.durak is None else previous.durak
            ok = not trumps and lead.seat == (dealer + 1) % n
            what = "with no trump shown, nobody holds one and the dealer's left neighbour leads"
        else:
            lowest = lead.shown.rank
            ok = lead.shown.suit == view.trump and (
                trumps[0] == lowest if lead.seat == view.seat else not trumps or trumps[0] > lowest
            )
            what = "the first attacker shows the lowest trump"
        self.check(f"first_attacker: {what}", ok, f"{lead!r}, our trumps {trumps}")

    def opening(self, player: Player, update: Update) -> None:
        view = update.view
        events = update.events
        n = view.rules.players
        dealt = [e for e in events if isinstance(e, Dealt)]
        mine = next((e for e in dealt if e.seat == view.seat), None)
        self.check(
            "the opening deals 6 cards to each seat, showing only one's own",
            [e.seat for e in dealt] == list(range(n))
            and all(e.count == 6 for e in dealt)
            and mine is not None
            and set(mine.cards or ()) == set(view.hand),
            repr(dealt[:2]),
        )
        kinds_ = [type(e) for e in events[len(dealt) :]]
        self.check(
            "the opening goes on trump_turned, first_attacker, bout_started",
            kinds_ == [TrumpTurned, FirstAttacker, BoutStarted],
            repr(kinds_),
        )
        lead = next((e for e in events if isinstance(e, FirstAttacker)), None)
        bout = next((e for e in events if isinstance(e, BoutStarted)), None)
        if lead is not None and bout is not None:
            shown_ok = lead.shown is None or (
                lead.shown.suit == view.trump
                and (lead.seat == view.seat or lead.shown in view.known[lead.seat])
            )
            self.check(
                "first_attacker leads the first bout; a shown trump is a trump, known",
                lead.seat == bout.attacker and shown_ok,
                f"{lead!r} {bout!r}",
            )
            most = 5 if view.rules.first_bout_five else 6
            self.check(
                "the first bout's limit is the defender's 6 cards, 5 under first_bout_five",
                bout.limit == min(most, view.hand_sizes[bout.defender]),
                repr(bout),
            )
        turned = next((e for e in events if isinstance(e, TrumpTurned)), None)
        if turned is not None:
            dealt_all = 6 * n == view.rules.deck_size
            if turned.holder is None:
                ok = not dealt_all and view.stock_size == view.rules.deck_size - 6 * n
            else:
                held = view.hand if turned.holder == view.seat else view.known[turned.holder]
                ok = dealt_all and view.stock_size == 0 and turned.card in held
            self.check(
                "trump_turned: under the stock (holder nil), or with every card dealt in the "
                "holder's hand, known to all",
                ok and turned.card == view.trump_card,
                repr(turned),
            )

    def observe(self, player: Player, update: Message) -> None:
        """Every update: the next seq, this seat's view, trimmed events, a sane view."""
        if isinstance(update, RoomUpdate) and update.room.status == "lobby":
            self.invariant(
                "the room goes back to the lobby only after the update with game_ended",
                player.ended is not None,
                f"seat {player.peer.seat} at seq {player.seq}",
            )
            self.invariant(
                "the room goes back to the lobby only after the whole reveal",
                player.revealed,
                f"seat {player.peer.seat} game {player.game}",
            )
        if isinstance(update, Reveal):
            self.invariant(
                "a reveal comes after the update with game_ended, for that game",
                player.ended is not None and update.game == player.game,
                f"seat {player.peer.seat} game {update.game} at seq {player.seq}",
            )
            player.revealed = player.revealed or update.done
        if not isinstance(update, Update | Snapshot):
            return
        view = update.view
        seat = player.peer.seat
        if player.seq < 0:  # the first of the game
            player.game = update.game
        if isinstance(update, Update):
            self.invariant(
                "every update of a game has the next seq, nothing missing",
                update.game == player.game and update.seq == player.seq + 1,
                f"game {update.game} seq {update.seq} after seq {player.seq}",
            )
            public = (
                Public.before_deal(view.rules) if player.view is None else Public.of(player.view)
            )
            for event in update.events:
                public.apply(event)
                self.event(player, event, view)
                self.seen.add(event_name(event))
            wrong = public.differences(view)
            self.invariant(
                "each update's events explain its view (hand sizes, stock, discard, table, "
                "phase, attacker, defender, taking, passed, shown, places)",
                not wrong,
                f"seq {update.seq}: {'; '.join(wrong)}",
            )
            self.throwers(update)
        player.seq, player.view = update.seq, view
        self.invariant("a view is its own seat's", view.seat == seat, f"view of seat {view.seat}")
        self.invariant(
            "a view's hand matches its hand size",
            len(view.hand) == view.hand_sizes[seat],
            repr(view.hand_sizes),
        )
        hand = set(view.hand)
        self.invariant(
            "legal actions use only the seat's own cards",
            all(set(cards_of(a)) <= hand for a in view.legal),
            repr(view.legal),
        )
        playable = {card for action in view.legal for card in cards_of(action)}
        hinted = [card for card, _ in view.hints]
        self.invariant(
            "hints name, once each, exactly the cards of the hand no legal action plays",
            len(set(hinted)) == len(hinted) and set(hinted) == hand - playable,
            f"hints {view.hints}, legal {view.legal}",
        )
        self.invariant(
            "every hint's reason is a code of section 6",
            all(reason.value in GAME_REASONS for _, reason in view.hints),
            repr(view.hints),
        )
        self.invariant(
            "the seat's own known cards are empty",
            not view.known[seat],
            repr(view.known),
        )

    def throwers(self, update: Update) -> None:
        """At a bout's start and after a transfer, who may add (section 2, ``throw_in``)."""
        view = update.view
        if not update.events or view.phase is Phase.OVER:
            return
        if not isinstance(update.events[-1], BoutStarted | Transferred):
            return
        n, defender = view.rules.players, view.defender
        if view.rules.throw_in.value == "neighbours":
            left = next_in_play(view, defender)
            expected = {view.attacker} | ({left} if left is not None else set())
        else:
            expected = {s for s in range(n) if not view.places[s]}
        self.invariant(
            "throwers: everyone in the game but the defender, or under neighbours the "
            "attacker and the defender's left neighbour",
            set(view.throwers) == expected - {defender},
            f"throwers {view.throwers}, expected {sorted(expected - {defender})}",
        )

    def event(self, player: Player, event: Any, view: SeatView) -> None:
        seat = player.peer.seat
        if isinstance(event, Dealt | Drew):
            own = event.seat == seat
            self.invariant(
                "deals and draws show cards to their own seat only",
                (event.cards is not None and len(event.cards) == event.count)
                if own
                else event.cards is None,
                repr(event),
            )
        elif isinstance(event, BoutStarted):
            player.bout_max = 5 if player.first_bout and view.rules.first_bout_five else 6
            player.first_bout = False
            if view.phase is Phase.LEAD:
                self.invariant(
                    "a bout's limit is the defender's hand, at most 6 (5 in the first bout)",
                    event.limit == min(player.bout_max, view.hand_sizes[event.defender])
                    and view.limit == event.limit,
                    f"{event!r} hands {view.hand_sizes}",
                )
        elif isinstance(event, Transferred):
            expected = next_in_play(view, event.seat)
            self.invariant(
                "a transfer goes to the next seat still in play",
                event.to == expected == view.defender and view.attacker == event.seat,
                f"{event!r}, expected {expected}",
            )
            if player.bout_max:
                self.invariant(
                    "after a transfer the limit is counted against the new defender",
                    view.limit == min(player.bout_max, view.hand_sizes[event.to]),
                    f"limit {view.limit}, hands {view.hand_sizes}",
                )
        elif isinstance(event, GameEnded):
            player.ended = event
            self.invariant(
                "game_ended comes with a view that is over and names the result",
                view.phase is Phase.OVER and view.result == event.result and not view.legal,
                repr(view.result),
            )

    async def play(self, players: list[Player]) -> None:
        """Play random legal actions for our seats, one at a time, until the game ends."""
        while True:
            for p in players:
                while not p.peer.inbox.empty():
                    if p.peer.deliver(p.peer.inbox.get_nowait()) is None:
                        raise Failed(f"the host closed seat {p.peer.seat}'s connection")
            if all(p.ended for p in players):
                return
            if any(p.seq > MAX_SEQ for p in players):
                raise Failed(f"a game went on for more than {MAX_SEQ} actions")
            movers = [p for p in players if p.view and p.view.legal and not p.ended]
            if not movers:
                await self.wait_any(players, WAIT)
                continue
            mover = self.rng.choice(movers)
            assert mover.view is not None
            action = self.rng.choice(mover.view.legal)
            await self.act(mover, action)

    async def wait_any(self, players: list[Player], timeout: float) -> None:
        waits = {asyncio.ensure_future(p.peer.inbox.get()): p for p in players}
        done, pending = await asyncio.wait(
            waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        if not done:
            raise Failed(f"the game stalled: nothing happened for {timeout:g} s")
        for task in done:
            if waits[task].peer.deliver(task.result()) is None:
                raise Failed(f"the host closed seat {waits[task].peer.seat}'s connection")

    async def act(self, player: Player, action: Action) -> None:
        """Send one action; wait for its ack and the update it became (section 8: decide
        again only on that update), or for its refusal."""
        peer, decided = player.peer, player.seq
        self.seen.add(action_to_wire(action)["verb"])
        ref = peer.ref()
        peer.send(Act(ref, action))
        applied: int | None = None
        while applied is None or player.seq < applied:
            message = await peer.next()
            if message is None:
                raise Failed(f"the host closed seat {peer.seat}'s connection")
            if isinstance(message, Ack) and message.ref == ref:
                self.invariant(
                    "an ack names the seq of the update that follows it",
                    message.seq == player.seq + 1,
                    f"ack seq {message.seq} after update {player.seq}",
                )
                applied = player.seq + 1 if message.seq is None else message.seq
            elif isinstance(message, Rejected) and message.ref == ref:
                self.invariant(
                    "a legal action is refused only after the game moved on",
                    player.seq > decided and message.reason in GAME_REASONS,
                    f"seat {peer.seat} game {player.game}: {action!r} decided on seq "
                    f"{decided}: {message.reason}",
                )
                return

    # --- 16: watchers ---------------------------------------------------------------------

    async def watching(self) -> None:
        """A watcher at the full lobby: the room lists it, it is refused everything but a
        reaction, and the room's limit keeps the next one out. It stays for the game."""
        anna = self.anna
        self.wanda = wanda = await self.peer()
        first = await wanda.watch("Wanda", self.password)
        self.check(
            "a watcher's hello is answered watching, with the room listing it",
            "Wanda" in first.room.watching,
            repr(first.room.watching),
        )
        await self.settle(anna, lambda r: "Wanda" in r.watching)
        self.check("everyone is sent the room when a watcher comes", True)
        for what, make in (
            ("ready", lambda r: Ready(r, True)),
            ("start", Start),
            ("set_options", lambda r: SetOptions(r, 1000, None)),
            ("act", lambda r: Act(r, Pass())),
        ):
            await self.refusal(wanda, f"{what} from a watcher", make, "watching")
        await self.refusal(wanda, "sit at a table with every seat taken", Sit, "no_open_seat")
        wanda.send(Emote("oops"))
        got = await anna.wait_for(WatcherEmoted)
        self.check(
            "a watcher's emote reaches the seats as watcher_emoted",
            got == WatcherEmoted("Wanda", "oops"),
            repr(got),
        )
        room = anna.room
        assert room is not None
        options = (room.hold_ms, room.turn_ms, room.silence_ms, room.idle_ms)
        await anna.ask(lambda r: SetOptions(r, *options, watchers=1))
        await self.refused(
            "a watcher beyond room.watchers is watchers_full",
            self.packed(self.hello_map(name="Extra", role="watch")),
            "watchers_full",
        )
        await anna.ask(lambda r: SetOptions(r, *options, watchers=room.watchers))

    async def watched(self, game: int) -> None:
        """What the watcher saw of the game: every seq in order, no drawn card, each view
        explained by its events, and no card that was not face up."""
        seen = [m for m in await self.wanda.sync() if isinstance(m, WatchUpdate)]
        seqs = [m.seq for m in seen if m.game == game]
        self.check(
            "a watcher is sent watch_update for every seq of the game, in order",
            bool(seqs) and seqs == list(range(len(seqs))),
            f"{seqs[:5]}...",
        )
        if not seen:
            return
        public = Public.before_deal(seen[0].view.rules)
        face_up: set[Card] = set()
        problems: list[str] = []
        for message in seen:
            for event in message.events:
                public.apply(event)
                if isinstance(event, Dealt | Drew) and event.cards is not None:
                    problems.append(f"{event_name(event)} with cards at seq {message.seq}")
                face_up.update(_cards_in(event_to_wire(event)))
            view = message.view
            shown = {c for pair in view.table for c in pair if c is not None}
            shown |= {c for cards in view.known for c in cards} | {view.trump_card}
            problems += [f"seq {message.seq}: {d}" for d in public.differences(view)]
            problems += [f"seq {message.seq}: {c} was never face up" for c in shown - face_up]
        self.check(
            "a watcher's events and views hide every hand and explain every public field",
            not problems,
            "; ".join(problems[:3]),
        )
        await self.wanda.close()
        await self.settle(self.anna, lambda r: "Wanda" not in r.watching)
        self.check("a watcher who leaves is gone from the room at once", True)

    async def game(self) -> None:
        anna, boris = self.anna, self.boris
        rules = Rules(players=3, transfer=True, transfer_show_trump=True)
        await anna.ask(lambda r: SetRules(r, rules))
        players = [Player(anna), Player(boris)]
        await self.start_game(players)
        await self.in_game_refusals(players)
        await self.play(players)
        await self.game_end(players)
        await self.watched(players[0].game)

    async def in_game_refusals(self, players: list[Player]) -> None:
        anna = players[0].peer
        await self.refusal(anna, "ready during a game", lambda r: Ready(r, True), "game_running")
        await self.refusal(
            anna, "set_rules during a game", lambda r: SetRules(r, Rules(players=3)), "game_running"
        )
        await self.refusal(anna, "start during a game", Start, "game_running")
        await self.refused(
            "a new player during a game is game_in_progress",
            encode(Hello(PROTOCOL_VERSION, "Late", self.password)),
            "game_in_progress",
        )
        late = await self.peer()
        await late.watch("Late", self.password)
        snapshot = await late.next()
        self.check(
            "a watcher who comes during a game is sent watch_snapshot",
            isinstance(snapshot, WatchSnapshot) and snapshot.game == players[0].game,
            type(snapshot).__name__,
        )
        await self.refusal(late, "sit during a game", Sit, "game_running")
        await late.close()
        view = players[0].view
        assert view is not None
        stranger = next(c for c in CARDS if c not in view.hand)
        seen = await anna.ask(lambda r: Act(r, ThrowIn(stranger)))
        got = [getattr(m, "reason", type(m).__name__) for m in answers(seen)]
        self.check(
            "an action with a card not in the hand is rejected with a game reason",
            len(got) == 1 and got[0] in GAME_REASONS,
            repr(got),
        )

    async def game_end(self, players: list[Player]) -> None:
        anna = players[0].peer
        await self.settle(anna, lambda r: r.status == "lobby")
        room, ended = anna.room, players[0].ended
        for p in players:
            p.peer.hook = None
        if ended is None or room is None:
            raise Failed("the game did not end")
        result, before = ended.result, self.series
        everyone_first = all(place == 1 for place in result.places)
        expected = (
            tuple(
                w + (p == 1 and not everyone_first)
                for w, p in zip(before.wins, result.places, strict=True)
            ),
            tuple(n + (s == result.durak) for s, n in enumerate(before.losses)),
            before.games + 1,
            before.draws + (result.durak is None),
            result,
        )
        for p in players[1:]:  # what came before the lobby, the reveal too, taken in order
            await p.peer.sync()
        for p in players:
            verdict = p.peer.witness.verdict(p.game)
            self.invariant(
                "after each game every seat verifies the deal: the commitment matches the "
                "secret, its contribution is in, the seed follows, the actions replay to "
                "everything it was shown",
                verdict.ok,
                f"seat {p.peer.seat} game {p.game}: {verdict.text}",
            )
        got = room.series
        self.check(
            "after game_ended the room is back in the lobby and counts the game in the series",
            (got.wins, got.losses, got.games, got.draws, got.last) == expected,
            f"{got!r}, expected {expected!r}",
        )
        places = sorted(result.places)
        self.check(
            "the result gives every seat a place; the Durak has the last, alone",
            all(1 <= p <= len(places) for p in places)
            and (result.durak is None or result.places[result.durak] == places[-1] > places[-2]),
            repr(result),
        )

    # --- 10: drops, returns, stand-ins, the turn timer -----------------------------------

    async def drops(self) -> None:
        anna, boris = self.anna, self.boris
        rules = Rules(
            players=3, throw_in=ThrowInRule.NEIGHBOURS, first_bout_five=False,
            durak_defends_first=True,
        )  # fmt: skip
        await anna.ask(lambda r: SetRules(r, rules))
        await anna.ask(lambda r: SetOptions(r, 60000, 1000))
        players = [Player(anna), Player(boris)]
        await self.start_game(players)
        await self.turn_timer(players)
        token = boris.token
        await boris.close()
        room = await anna.wait_for(RoomUpdate, lambda m: m.room.seats[1].status != "connected")
        seat = room.room.seats[1]
        self.check(
            "a dropped player's seat is away and held",
            (seat.status, seat.connected) == ("away", False),
            repr(seat),
        )
        players = players[:1]
        back = await self.peer()
        back.witness = boris.witness  # (the same player: it remembers the deal it saw)
        await back.hello("Boris", self.password, token)
        snap = await back.next()
        self.check(
            "a returning player gets welcome with the same seat, then a snapshot",
            back.seat == 1
            and isinstance(snap, Snapshot)
            and snap.view.seat == 1
            and snap.game == players[0].game,
            kinds([snap] if snap else []),
        )
        await self.settle(anna, lambda r: r.seats[1].status == "connected")
        self.check("everyone is sent the room with the seat connected again", True)
        again = await self.peer()
        again.witness = back.witness
        await again.hello("Boris", self.password, token)
        goodbye = await back.end()
        self.check(
            "the same seat joining again replaces the old connection",
            goodbye is not None and goodbye.code == "replaced",
            repr(goodbye),
        )
        snap = await again.next()
        if not isinstance(snap, Snapshot):
            raise Failed("no snapshot after welcome during a game")
        player = Player(again, seq=snap.seq, game=snap.game, view=snap.view, first_bout=False)
        again.hook = lambda m: self.observe(player, m)
        players.append(player)
        self.boris = again
        await self.play(players)
        await self.game_end(players)
        await self.stand_in_and_away_at_the_end()

    async def turn_timer(self, players: list[Player]) -> None:
        """Our seats do nothing: once turn_ms passes, the host makes the default move of
        section 10 for one of them (an update without an ack)."""
        name = "the turn timer makes the default move for a seat it waits on"
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while loop.time() < end:
            for p in players:
                while not p.peer.inbox.empty():
                    message = p.peer.inbox.get_nowait()
                    before = p.view
                    if isinstance(message, Update):
                        moves = [
                            e
                            for e in message.events
                            if getattr(e, "seat", -1) == p.peer.seat
                            and isinstance(e, Attacked | Passed | Taking | Transferred)
                        ]
                        if moves and before is not None:
                            p.peer.deliver(message)
                            self.check(name, moves[0] == default_move(before), repr(moves[0]))
                            return
                    if p.peer.deliver(message) is None:
                        raise Failed(f"the host closed seat {p.peer.seat}'s connection")
            await asyncio.sleep(0.05)
        self.check(name, False, "no move within 10 s")

    async def stand_in_and_away_at_the_end(self) -> None:
        anna, boris = self.anna, self.boris
        await anna.ask(lambda r: SetRules(r, Rules(players=6)))  # 36 cards: all dealt
        for index in range(3, 6):
            await anna.ask(partial(fill_seat, index))
        await anna.ask(lambda r: SetOptions(r, 0, None))
        players = [Player(anna), Player(boris)]
        await self.start_game(players)
        token = boris.token
        await boris.close()
        room = await anna.wait_for(RoomUpdate, lambda m: m.room.seats[1].status != "connected")
        self.check(
            "with hold_ms 0 a host AI stands in for a dropped player at once",
            room.room.seats[1].status == "stand_in",
            repr(room.room.seats[1]),
        )
        await self.play(players[:1])
        await self.settle(anna, lambda r: r.status == "lobby")
        seat = anna.room.seats[1] if anna.room else None
        self.check(
            "a seat whose player is away when the game ends is freed",
            seat is not None and seat.kind == "empty",
            repr(seat),
        )
        await self.refused(
            "its token then gets bad_token", self.packed(self.hello_map(token=token)), "bad_token"
        )

    # --- 3, 4: leaving ------------------------------------------------------------------

    async def leaving(self) -> None:
        anna = self.anna
        await anna.ask(lambda r: SetSeat(r, 2, None))
        dora = await self.join("Dora")
        self.check("a new player takes the free seat", dora.seat == 1, f"seat {dora.seat}")
        await anna.ask(lambda r: SetSeat(r, 2, LEVEL))
        await self.refused(
            "a hello at a table with every seat taken is table_full",
            encode(Hello(PROTOCOL_VERSION, "Extra", self.password)),
            "table_full",
        )
        seen = await anna.ask(lambda r: SetRules(r, Rules(players=4)))
        room = anna.room
        self.check(
            "set_rules with another number of seats restarts the series",
            "Ack" in kinds(seen)
            and room is not None
            and room.series.games == 0
            and len(room.series.wins) == 4,
            repr(room.series if room else None),
        )
        await anna.close()
        await self.settle(dora, lambda r: r.seats[0].kind == "empty")
        owner = dora.room.owner if dora.room else None
        self.check(
            "when the owner leaves the lobby the next connected human owns the room",
            owner == dora.seat,
            f"owner {owner}",
        )


def _cards_in(data: Any) -> Iterable[Card]:
    """Every card named in a wire value (an event's map)."""
    if isinstance(data, str) and data in _CARDS:
        yield _CARDS[data]
    elif isinstance(data, list):
        for item in data:
            yield from _cards_in(item)
    elif isinstance(data, dict):
        for item in data.values():
            yield from _cards_in(item)


_CARDS = {str(card): card for card in CARDS}


def event_name(event: Any) -> str:
    return str(event_to_wire(event)["event"])


def clear_seat(seat: int, ref: int) -> SetSeat:
    return SetSeat(ref, seat, None)


def fill_seat(seat: int, ref: int) -> SetSeat:
    return SetSeat(ref, seat, LEVEL)


def cards_of(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Attack):
        return action.cards
    return tuple(c for c in (getattr(action, "card", None),) if c is not None)


def next_in_play(view: SeatView, seat: int) -> int | None:
    """The seat a transfer from ``seat`` goes to, from what every view shows."""
    n = view.rules.players
    for step in range(1, n):
        other = (seat + step) % n
        if not view.places[other] and (view.stock_size or view.hand_sizes[other]):
            return other
    return None


def default_move(view: SeatView) -> Any:
    """The event section 10's default move for this seat makes, from its view before."""
    seat = view.seat
    if seat == view.defender and view.phase is Phase.OPEN:
        return Taking(seat)
    if view.phase is Phase.LEAD and seat == view.attacker:
        low = min(view.hand, key=lambda c: (c.suit == view.trump, c.rank, c.suit))
        return Attacked(seat, (low,))
    return Passed(seat)


class ClientCheck:
    """The other way round: a table for a client under test, which checks what the client
    sends against sections 3, 4 and 8. The table is a real host (one seat for the client,
    one host AI) behind a relay on ``127.0.0.1:port`` that reads both directions: the
    client's hello and every message must be valid, it acts only with a legal action of
    a view it was sent, one action at a time, after an ack only once it has the update of
    that seq (the relay holds back what follows an ack for ``ACK_GAP``, as a slow network
    may), and as the room's owner it starts each game. It stops when the client leaves
    (or stops answering for ``WAIT`` * 2 seconds); by then it should have played
    ``games`` games."""

    def __init__(self, port: int, games: int, out: TextIO | None = None) -> None:
        self.port, self.games = port, games
        self.suite = Suite("127.0.0.1", port, out=out)  # for its check() and invariant()
        self.views: list[SeatView] = []  # every view sent since the client's last answer
        self.seq = -1  # the latest update or snapshot sent to the client
        self.inflight: int | None = None  # the ref of the client's action being answered
        self.awaited: int | None = None  # an ack's seq whose update the client must see
        self.room: Room | None = None
        self.seat = -1
        self.ended = 0
        self.started: set[int] = set()  # the game numbers the client's start began
        self.commits: set[int] = set()  # the games whose commitment the client was sent
        self.contributed: set[int] = set()  # the games the client contributed to
        self.done = asyncio.Event()
        self.seen_hello = False

    async def run(self, ready: Callable[[int], None] | None = None) -> list[Check]:
        """Serve until the games are played; ``ready`` is told the port once it listens."""
        config = HostConfig(seats=2, ai=(LEVEL,), announce=False, save_dir=None, hold=0)
        async with Host(config) as host:
            server = await asyncio.start_server(
                lambda r, w: self.relay(r, w, host.port), "127.0.0.1", self.port
            )
            async with server:
                if ready is not None:
                    ready(server.sockets[0].getsockname()[1])
                await self.done.wait()
        self.suite.check("the client said hello", self.seen_hello, "it never did")
        self.suite.check(
            f"the client played {self.games} games to their end",
            self.ended >= self.games,
            f"{self.ended} ended",
        )
        self.suite.check(
            "the client contributed to every deal it was sent the commitment of",
            bool(self.commits) and self.commits <= self.contributed,
            f"{len(self.contributed)} of {len(self.commits)}",
        )
        self.suite.check(
            "as the room's owner the client started every game",
            len(self.started) >= min(self.ended + 1, self.games),
            f"it started {len(self.started)} of {self.ended} games",
        )
        for name, count in self.suite.counted.items():
            self.suite.check(
                f"{name} ({count} times)",
                name not in self.suite.violations,
                self.suite.violations.get(name, ""),
            )
        return self.suite.results

    async def relay(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host_port: int
    ) -> None:
        if self.seen_hello:  # one client at a time: a second connection is a reconnect
            self.views, self.inflight, self.awaited = [], None, None
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", host_port)
        from_client, from_host = Connection(Role.HOST), Connection(Role.CLIENT)

        async def upstream() -> None:  # the client's bytes go on as they are
            with contextlib.suppress(ConnectionError, OSError):
                while data := await asyncio.wait_for(reader.read(65536), WAIT * 2):
                    from_client.receive_data(data)
                    while (message := from_client.next_message()) is not None:
                        self.client_said(message)
                    up_writer.write(data)
            up_writer.close()

        async def downstream() -> None:  # the host's messages one by one, an ack held back
            with contextlib.suppress(ConnectionError, OSError):
                while data := await up_reader.read(65536):
                    from_host.receive_data(data)
                    while (message := from_host.next_message()) is not None:
                        self.host_said(message)
                        writer.write(encode(message))
                        if isinstance(message, Ack):  # the update comes a moment later
                            await writer.drain()
                            await asyncio.sleep(ACK_GAP)
            writer.close()

        try:
            await asyncio.gather(upstream(), downstream())
        except ProtocolError as exc:
            self.suite.check("every message of the client is valid", False, exc.text)
        except TimeoutError:
            if self.ended < self.games:  # (after its games a client may just wait)
                self.suite.check("the client answered in time", False, f"silent for {WAIT * 2:g} s")
        finally:
            up_writer.close()
            writer.close()
            self.done.set()

    def client_said(self, message: Message) -> None:
        if isinstance(message, Hello):
            self.seen_hello = True
            self.suite.invariant(
                "the client's hello names this protocol version",
                message.version == PROTOCOL_VERSION,
                repr(message.version),
            )
        elif isinstance(message, Start):
            if self.room is not None:
                self.started.add(self.room.game + 1)
        elif isinstance(message, Contribute):
            self.suite.invariant(
                "the client contributes to a deal once, after its commitment, with 64 "
                "lower-case hex digits",
                message.game in self.commits
                and message.game not in self.contributed
                and is_value(message.value),
                f"game {message.game}: {message.value!r}",
            )
            self.contributed.add(message.game)
        elif isinstance(message, Act):
            self.suite.invariant(
                "the client sends one action at a time (it waits for ack or rejected)",
                self.inflight is None,
                f"act {message.ref} while {self.inflight} waited",
            )
            self.suite.invariant(
                "after an ack the client acts only on the update with the ack's seq",
                self.awaited is None or self.seq >= self.awaited,
                f"acted at seq {self.seq} before update {self.awaited}",
            )
            self.suite.invariant(
                "the client acts only with a legal action of a view it was sent",
                any(message.action in view.legal for view in self.views),
                repr(message.action),
            )
            self.inflight, self.views = message.ref, self.views[-1:]

    def host_said(self, message: Message) -> None:
        if isinstance(message, Welcome):
            self.seat, self.room = message.seat, message.room
        elif isinstance(message, RoomUpdate):
            self.room = message.room
        elif isinstance(message, Commit):
            self.commits.add(message.game)
        elif isinstance(message, Update | Snapshot):
            self.seq = message.seq
            self.views.append(message.view)
            if self.awaited is not None and self.seq >= self.awaited:
                self.awaited = None
            if isinstance(message, Update) and any(
                isinstance(e, GameEnded) for e in message.events
            ):
                self.ended += 1
        elif isinstance(message, Ack | Rejected) and message.ref == self.inflight:
            self.inflight = None
            self.suite.invariant(
                "the host accepts every action of the client",
                isinstance(message, Ack),
                f"refused {getattr(message, 'reason', '')}",
            )
            if isinstance(message, Ack) and message.seq is not None and message.seq > self.seq:
                self.awaited = message.seq
        elif isinstance(message, Goodbye) and not self.done.is_set():
            self.suite.check("the host never said goodbye to the client", False, message.code)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address", metavar="HOST:PORT", nargs="?", help="the host to check (a fresh table)"
    )
    parser.add_argument("--password", default=None, help=PASSWORD_HELP)
    parser.add_argument(
        "--timeouts",
        action="store_true",
        help="also check the 10 s handshake timeout (takes 10 s more)",
    )
    parser.add_argument(
        "--client",
        type=int,
        metavar="PORT",
        help="check a client instead: serve a table on 127.0.0.1:PORT for it to join",
    )
    parser.add_argument(
        "--games", type=positive_int, default=2, help="games the client plays (--client)"
    )


def run(args: argparse.Namespace) -> int:
    if args.client is not None:
        return _report(_check_client(args.client, args.games))
    try:
        if args.address is None:
            raise ValueError("give HOST:PORT (or --client PORT)")
        host, port = parse_address(args.address)
        password = password_option(args.password)
    except ValueError as exc:
        print(f"durak conformance: {exc}", file=sys.stderr)
        return 2
    suite = Suite(host, port, password, sys.stdout, timeouts=args.timeouts)
    try:
        return _report(asyncio.run(suite.run()))
    except OSError as exc:
        print(f"durak conformance: cannot reach {args.address}: {exc}", file=sys.stderr)
        return 2


def _check_client(port: int, games: int) -> list[Check]:
    def ready(bound: int) -> None:
        print(f"durak conformance: a table on 127.0.0.1:{bound}; connect the client", flush=True)

    return asyncio.run(ClientCheck(port, games, sys.stdout).run(ready))


def _report(results: list[Check]) -> int:
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
