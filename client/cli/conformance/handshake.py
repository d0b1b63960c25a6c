"""Section 3, the handshake, and section 13's getting in: the welcome and its room, ping,
the messages a host refuses from a greeted client, passwords, the burst of new
connections a host takes at once and its reserve, the handshake timeout and the flood
limit. The first player to get in here stays for the sections after it."""

from __future__ import annotations

import asyncio
import math

from client.cli.conformance.peer import Peer, kinds
from client.cli.conformance.report import Failed
from client.cli.conformance.session import Session, packed, settle
from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    Goodbye,
    Hello,
    Message,
    Ping,
    Pong,
    RoomUpdate,
    Welcome,
    encode,
)

BURST = 60  # new connections one address may open at once (section 13)
REFILL = 3.5  # seconds until that count has recovered
RATE = 20  # new connections a second that count refills by
RESERVE = 32  # connections beyond the count the host keeps (its newest) for a seat's token
NEWEST = 3  # of a burst's connections, the newest ones that say hello
TRIES = 3  # bursts before the host is held to have no reserve


async def handshake(s: Session, *, timeouts: bool = False) -> Peer:
    """The first player's handshake and the refused ones; the first player (Anna), who
    owns the room from here on."""
    anna = await s.peer()
    welcome = await anna.hello("Anna", s.password)
    room = welcome.room
    s.record.check(
        "welcome names this protocol version",
        welcome.version == PROTOCOL_VERSION,
        f"version {welcome.version}",
    )
    s.record.check(
        "the first player gets seat 0 of an empty lobby and owns the room",
        welcome.seat == 0 and room.owner == 0 and room.status == "lobby",
        f"seat {welcome.seat}, owner {room.owner}, status {room.status}",
    )
    s.record.check(
        "room.password says whether hello needs one",
        room.password == (s.password is not None),
        f"password {room.password}",
    )
    me = room.seats[welcome.seat]
    s.record.check(
        "the welcome's room shows the seat connected and not ready",
        (me.kind, me.name, me.status, me.connected, me.ready)
        == ("human", "Anna", "connected", True, False),
        repr(me),
    )
    first = await anna.next()
    s.record.check(
        "a room message follows the welcome",
        isinstance(first, RoomUpdate),
        kinds([first] if first else []),
    )
    await anna.sync()
    seen = await anna.sync()
    s.record.check("ping is answered pong with its ref, and nothing else", seen == [], kinds(seen))
    anna.send(Ping(2**31 - 1))
    pong = await anna.next()
    s.record.check("the largest ref comes back", pong == Pong(2**31 - 1), repr(pong))
    await s.refused(
        "a ref of 2**31 is bad_message",
        packed({"type": "ping", "ref": 2**31}),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "an unknown message type is bad_message",
        packed({"type": "teleport", "ref": 1}),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "a host message sent to the host is bad_message",
        encode(Pong(1)),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "a second hello is bad_message",
        encode(Hello(PROTOCOL_VERSION, "Again", s.password)),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "an unknown emote is bad_message",
        packed({"type": "emote", "code": "wave"}),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "set_rules with players 7 is bad_message",
        packed({"type": "set_rules", "ref": 1, "rules": {**Rules().to_dict(), "players": 7}}),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "set_options with turn_ms 0 is bad_message",
        packed({"type": "set_options", "ref": 1, "hold_ms": 0, "turn_ms": 0}),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "set_seat of seat 6 is bad_message",
        packed({"type": "set_seat", "ref": 1, "seat": 6, "ai": None}),
        "bad_message",
        greet=True,
    )
    await s.refused(
        "an act with an unknown verb is bad_message",
        packed({"type": "act", "ref": 1, "action": {"verb": "steal"}}),
        "bad_message",
        greet=True,
    )
    if s.password is not None:
        for wrong in (None, s.password + "x"):
            await s.refused(
                f"a hello with the password {wrong!r} is bad_password",
                packed(s.hello_map(password=wrong)),
                "bad_password",
            )
    await busy(s, anna)
    if timeouts:
        await handshake_timeout(s)
    burst = encode(Hello(PROTOCOL_VERSION, "Flood", s.password)) + encode(Ping(1)) * 2000
    await s.refused("2000 pings at once are rate_limited", burst, "rate_limited")
    await settle(anna, lambda r: all(seat.kind != "human" for seat in r.seats[1:]))
    return anna


async def busy(s: Session, anna: Peer) -> None:
    """More new connections from one address than the host takes at once (60): the
    ones beyond come in the reserve, where a hello without a token is told busy; once
    the burst is over, a new player gets in again (section 13). A burst whose newest
    were all let in (the host took them in slowly) is tried again, up to ``TRIES``."""
    window, answers, tries = 0.0, list[Message | None](), 0
    while tries < TRIES and not any(_is_busy(answer) for answer in answers):
        tries += 1
        await anna.sync()  # (heard from: the host does not cut her while this goes on)
        await asyncio.sleep(REFILL)  # this address's count of new connections recovers
        answers, window = await _beyond_the_burst(s, window)
    s.record.check(
        f"beyond {BURST} new connections at once, a hello without a token is told busy",
        any(_is_busy(answer) for answer in answers) and all(map(_let_in_or_busy, answers)),
        f"try {tries}: the newest {NEWEST} were answered {', '.join(map(_said, answers))}",
    )
    await asyncio.sleep(REFILL)
    newest = await s.peer()
    try:
        welcome = await newest.hello("Newest", s.password)
        s.record.check("once the burst is over a new player joins", welcome.seat >= 0, "")
    finally:
        await newest.close()
    await settle(anna, lambda r: all(seat.kind != "human" for seat in r.seats[1:]))


async def _beyond_the_burst(s: Session, window: float) -> tuple[list[Message | None], float]:
    """Open more new connections at once than the host takes, then say hello without a
    token on the newest few: the host's first answer to each, and the seconds from the
    first connection to the last answer.

    The count refills while the connections arrive, and the host may take them in later
    than they opened, so an ordinary one may come after the reserve's (one that came
    while the host stalled a moment): hence a hello on the newest few, not on the newest
    alone, and as many more connections as the count refills by in ``window`` (the time
    the last try took, which bounds how slowly the host takes them in)."""
    loop = asyncio.get_running_loop()
    started, strangers = loop.time(), list[Peer]()
    while len(strangers) < min(
        BURST + NEWEST + math.ceil(max(loop.time() - started, window) * RATE), BURST + RESERVE
    ):
        strangers.append(await Peer.open(s.host, s.port))
    try:
        newest = strangers[-NEWEST:]
        for peer in newest:
            peer.send(Hello(PROTOCOL_VERSION, "Beyond", s.password))
        answers = [await peer.next() for peer in newest]
        return answers, loop.time() - started
    finally:
        for peer in strangers:
            await peer.close()


def _is_busy(answer: Message | None) -> bool:
    return isinstance(answer, Goodbye) and answer.code == "busy"


def _said(answer: Message | None) -> str:
    if isinstance(answer, Goodbye):
        return answer.code
    return "nothing" if answer is None else type(answer).__name__


def _let_in_or_busy(answer: Message | None) -> bool:
    """An answer a hello without a token may get: busy in the reserve, and within the
    count a seat (``welcome``) or, once the seats are taken, ``table_full``."""
    return isinstance(answer, Welcome) or (
        isinstance(answer, Goodbye) and answer.code in ("busy", "table_full")
    )


async def handshake_timeout(s: Session) -> None:
    peer = await s.peer()
    try:
        goodbye = await peer.end(timeout=12)
    except Failed:
        goodbye = None
    finally:
        await peer.close()
    s.record.check(
        "a connection without hello is told handshake_timeout within 10 s",
        goodbye is not None and goodbye.code == "handshake_timeout",
        repr(goodbye),
    )
